/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A generic netlink socket on libmnl, one request at a time (nl.c). Used
 * by ismctl and by the test harness's ism_fault, which sends requests
 * while allocations are being failed: no function here allocates but
 * nl_open().
 */
#ifndef ISM_TOOLS_NL_H
#define ISM_TOOLS_NL_H

#include <stdint.h>
#include <libmnl/libmnl.h>

struct nl;

/* Open a socket and resolve the family; NULL with errno set on failure
 * (ENOENT: no such family).
 */
struct nl *nl_open(const char *family);
void nl_close(struct nl *nl);
/* Start a request of the family in the socket's buffer. */
struct nlmsghdr *nl_req(struct nl *nl, uint8_t cmd, uint8_t version,
			uint16_t flags);
/* Send the request and call @cb for every reply message: 0 or -errno. */
int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg);
/* The extended ACK message of the last failed request, or "". */
const char *nl_ext_msg(const struct nl *nl);

#endif /* ISM_TOOLS_NL_H */
