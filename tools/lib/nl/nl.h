/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The netlink layer of the userspace tools (ismctl, the tools/smc tools,
 * ism_fault, ism_nlbad), on raw AF_NETLINK sockets: build a request, send
 * it, walk the replies (one callback per message), keep the kernel's
 * extended ACK message of a failed request; parse attributes; resolve
 * generic netlink families by name.
 *
 * No libmnl: the tools run in a busybox initramfs, linked statically, and
 * Debian ships libmnl as a shared library only. Requests are built in the
 * caller's struct nl_req, and nothing here allocates but nl_open(), so
 * that ism_fault can send requests while the kernel fails allocations of
 * the task on purpose.
 */
#ifndef TOOLS_LIB_NL_H
#define TOOLS_LIB_NL_H

#include <stddef.h>
#include <stdint.h>
#include <linux/netlink.h>
#include <linux/genetlink.h>

/* Room for one request, and for one batch of replies (a dump skb). */
#define NL_REQ_SIZE	1024
#define NL_RECV_SIZE	(64 * 1024)
#define NL_EXT_SIZE	256

/*
 * A socket. All zeroes is a closed one: nl_close() on it does nothing.
 * @ext: the extended ACK message of the last request that failed ("missing
 * attribute N" if the kernel named only that), or "".
 * @family: the generic netlink family genl_open() resolved.
 */
struct nl_sock {
	int fd;
	uint32_t seq;
	uint32_t portid;
	uint16_t family;
	char ext[NL_EXT_SIZE];
	char *buf;	/* NL_RECV_SIZE bytes for replies; NULL: closed */
};

/* A request under construction; aligned for struct nlmsghdr. */
struct nl_req {
	union {
		struct nlmsghdr nlh;
		uint64_t align;
		char buf[NL_REQ_SIZE];
	};
};

/*
 * Called for every reply message that is not DONE/ERROR: 0 goes on, a
 * negative errno ends the request with it, a positive value with
 * -ECANCELED.
 */
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
/*
 * What a policy (an array indexed by attribute type) expects of an
 * attribute: NL_ATTR_UNSPEC for a type the reader skips (padding, or one
 * a newer kernel added); integers of exactly their size; a non-empty
 * NUL-terminated string; binary of exactly @len bytes if @len is set;
 * an empty flag; a nest of whole attributes. @name is the spec's.
 */
enum nl_attr_kind {
	NL_ATTR_UNSPEC,
	NL_ATTR_U8,
	NL_ATTR_U16,
	NL_ATTR_U32,
	NL_ATTR_U64,
	NL_ATTR_STRING,
	NL_ATTR_BINARY,
	NL_ATTR_FLAG,
	NL_ATTR_NESTED,
};

struct nl_policy {
	const char *name;
	enum nl_attr_kind kind;
	size_t len;
};

/*
 * nl_attr_parse() that checks every attribute of a known type against
 * @policy[0..max], and that the attributes fill @len: -EPROTO if one does
 * not fit or one is cut off, and then @tb is partial.
 */
int nl_attr_parse_policy(const void *data, size_t len,
			 const struct nlattr **tb, int max,
			 const struct nl_policy *policy);
int nl_attr_fits(const struct nlattr *a, const struct nl_policy *p);
/* Whether @len bytes at @data are whole attributes, nothing cut off. */
int nl_attr_whole(const void *data, size_t len);
const void *nl_attr_data(const struct nlattr *a);
size_t nl_attr_len(const struct nlattr *a);
uint16_t nl_attr_type(const struct nlattr *a);
/* Whether @a holds a NUL-terminated string. */
int nl_attr_is_str(const struct nlattr *a);
/* Copy @a into @v of @size bytes, zero-extended; all zero if @a is NULL. */
void nl_attr_copy(const struct nlattr *a, void *v, size_t size);
uint8_t nl_attr_u8(const struct nlattr *a);
uint16_t nl_attr_u16(const struct nlattr *a);
uint32_t nl_attr_u32(const struct nlattr *a);
uint64_t nl_attr_u64(const struct nlattr *a);
uint64_t nl_attr_uint(const struct nlattr *a);
void nl_attr_str(const struct nlattr *a, char *buf, size_t size);

/* Whether a whole attribute begins at @a, before @end. */
int nl_attr_ok(const struct nlattr *a, const void *end);

/* For each whole attribute @a in the @len bytes at @data. */
#define nl_attr_for_each(a, data, len)					\
	for ((a) = (const void *)(data);				\
	     nl_attr_ok((a), (const char *)(data) + (len));		\
	     (a) = (const void *)((const char *)(a) + NLA_ALIGN((a)->nla_len)))
#define nl_attr_for_each_nested(a, nest)				\
	nl_attr_for_each(a, nl_attr_data(nest), nl_attr_len(nest))

/* Generic netlink. */
int genl_family_id(struct nl_sock *nl, const char *name, uint16_t *id);
int genl_open(struct nl_sock *nl, const char *family);
struct nlmsghdr *genl_req_init(struct nl_req *req, uint16_t family,
			       uint8_t cmd, uint8_t version, uint16_t flags);
void genl_attr_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     int max);
/* The attributes of a generic netlink message without a family header. */
const void *genl_attr_data(const struct nlmsghdr *nlh);
size_t genl_attr_len(const struct nlmsghdr *nlh);

#define genl_attr_for_each(a, nlh)					\
	nl_attr_for_each(a, genl_attr_data(nlh), genl_attr_len(nlh))

#endif /* TOOLS_LIB_NL_H */
