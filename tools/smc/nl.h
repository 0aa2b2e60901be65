/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A small netlink helper on raw AF_NETLINK sockets: build a request, send
 * it, and walk the replies (one callback per message); parse attributes.
 * Also resolves generic netlink families by name. No libmnl, so the tools
 * link statically.
 */
#ifndef SMC_TOOLS_NL_H
#define SMC_TOOLS_NL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>

/* Room for one request, and for one batch of replies (a dump skb). */
#define NL_REQ_SIZE	1024
#define NL_RECV_SIZE	(64 * 1024)

struct nl_sock {
	int fd;
	uint32_t seq;
	uint32_t portid;
	char *buf;	/* NL_RECV_SIZE bytes for replies */
};

/* A request under construction; aligned for struct nlmsghdr. */
struct nl_req {
	union {
		struct nlmsghdr nlh;
		uint64_t align;
		char buf[NL_REQ_SIZE];
	};
};

/* Called for every reply message that is not DONE/ERROR; non-zero stops. */
typedef int (*nl_msg_cb)(const struct nlmsghdr *nlh, void *arg);

int nl_open(struct nl_sock *nl, int protocol);
void nl_close(struct nl_sock *nl);

struct nlmsghdr *nl_req_init(struct nl_req *req, uint16_t type,
			     uint16_t flags);
void *nl_req_put(struct nl_req *req, const void *data, size_t len);
int nl_attr_put(struct nl_req *req, uint16_t type, const void *data,
		size_t len);
int nl_attr_put_str(struct nl_req *req, uint16_t type, const char *str);
struct nlattr *nl_nest_start(struct nl_req *req, uint16_t type);
void nl_nest_end(struct nl_req *req, struct nlattr *nest);

int nl_talk(struct nl_sock *nl, struct nl_req *req, nl_msg_cb cb, void *arg);

/* Attribute tables: tb[type] for type <= max, NULL when absent. */
void nl_attr_parse(const void *data, size_t len, const struct nlattr **tb,
		   int max);
void nl_attr_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
			  int max);
const void *nl_attr_data(const struct nlattr *a);
size_t nl_attr_len(const struct nlattr *a);
/* Copy @a into @v of @size bytes, zero-extended; all zero if @a is NULL. */
void nl_attr_copy(const struct nlattr *a, void *v, size_t size);
uint8_t nl_attr_u8(const struct nlattr *a);
uint16_t nl_attr_u16(const struct nlattr *a);
uint32_t nl_attr_u32(const struct nlattr *a);
uint64_t nl_attr_u64(const struct nlattr *a);
uint64_t nl_attr_uint(const struct nlattr *a);
void nl_attr_str(const struct nlattr *a, char *buf, size_t size);

/* Generic netlink. */
int genl_family_id(struct nl_sock *nl, const char *name, uint16_t *id);
struct nlmsghdr *genl_req_init(struct nl_req *req, uint16_t family,
			       uint8_t cmd, uint8_t version, uint16_t flags);
void genl_attr_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     int max);

#endif /* SMC_TOOLS_NL_H */
