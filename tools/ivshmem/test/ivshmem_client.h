/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The client's side of QEMU's ivshmem server protocol (QEMU's
 * docs/specs/ivshmem-spec.txt), as QEMU plays it: for server_test, which
 * tests ism-ivshmem-server with it, and for region_attack, which joins a
 * region's server like any QEMU to get the eventfds that ring the
 * guests' doorbells.
 */
#ifndef IVSHMEM_CLIENT_H
#define IVSHMEM_CLIENT_H

#include <stdint.h>

int ivshmem_connect(const char *path);
int ivshmem_recv(int s, int64_t *val, int *fd, int timeout_ms);
int ivshmem_peers(const char *path, int64_t *ids, int *fds, int max);

#endif /* IVSHMEM_CLIENT_H */
