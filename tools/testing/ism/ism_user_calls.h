/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The calls of /dev/ism/NAME (ism_user.ko) as the test programs make
 * them: one line each over the raw ioctl, so that a test can pass any
 * argument, bad ones included. Each returns what the system call did
 * (-1 with errno set on failure), but map() (NULL) and events().
 */
#ifndef ISM_USER_CALLS_H
#define ISM_USER_CALLS_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>
#include <linux/ism_user.h>

#define EV_SIZE	sizeof(struct ism_user_event)

struct ism_user_info info_of(int fd);
/* The key of a DMB this process (or its parent) registered, else 0. */
uint64_t key_of(uint64_t token);
int reg_for(int fd, uint32_t len, const uint8_t *gid, struct ism_user_dmb *d);
int reg(int fd, uint32_t len, struct ism_user_dmb *d);
/* attach(), move() and send_event() present key_of(@token); the _key
 * forms any key.
 */
int attach(int fd, uint64_t token, struct ism_user_dmb *d);
int attach_key(int fd, uint64_t token, uint64_t key, struct ism_user_dmb *d);
int unreg(int fd, uint64_t token);
int detach(int fd, uint64_t token);
int move(int fd, uint64_t token, uint32_t off, const void *data,
	 uint32_t size, uint32_t flags, uint32_t dmbe);
int move_key(int fd, uint64_t token, uint64_t key, uint32_t off,
	     const void *data, uint32_t size, uint32_t flags, uint32_t dmbe);
int send_event(int fd, const uint8_t *gid, uint64_t token, uint32_t code,
	       uint32_t flags);
int send_event_key(int fd, const uint8_t *gid, uint64_t token, uint64_t key,
		   uint32_t code, uint32_t flags);
char *map(int fd, const struct ism_user_dmb *d, size_t len, off_t skip);
int events(int fd, struct ism_user_event *ev, int max);
int bus_error(char *p, int write);
/* memcmp() of a mapping: 0 if alike, 1 if not, -1 if it raised SIGBUS. */
int bus_memcmp(const void *p, const void *q, size_t n);

#endif
