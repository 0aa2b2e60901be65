// SPDX-License-Identifier: GPL-2.0
/*
 * Raw netlink: requests, the reply loop, extended ACKs, attributes.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "nl.h"

int nl_open(struct nl_sock *nl, int protocol)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(sa);
	int one = 1;

	memset(nl, 0, sizeof(*nl));
	nl->fd = -1;
	nl->buf = malloc(NL_RECV_SIZE);
	if (!nl->buf)
		return -ENOMEM;
	nl->fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC, protocol);
	if (nl->fd < 0) {
		int err = -errno;

		free(nl->buf);
		nl->buf = NULL;
		return err;
	}
	if (bind(nl->fd, (struct sockaddr *)&sa, sizeof(sa)) < 0 ||
	    getsockname(nl->fd, (struct sockaddr *)&sa, &len) < 0) {
		int err = -errno;

		nl_close(nl);
		return err;
	}
	/* Best effort: kernels without them still answer. */
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_EXT_ACK, &one, sizeof(one));
	setsockopt(nl->fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = sa.nl_pid;
	nl->seq = (uint32_t)getpid() << 8;
	return 0;
}

void nl_close(struct nl_sock *nl)
{
	if (!nl->buf)
		return;
	if (nl->fd >= 0)
		close(nl->fd);
	nl->fd = -1;
	free(nl->buf);
	nl->buf = NULL;
}

struct nlmsghdr *nl_req_init(struct nl_req *req, uint16_t type,
			     uint16_t flags)
{
	memset(req, 0, sizeof(*req));
	req->nlh.nlmsg_len = NLMSG_HDRLEN;
	req->nlh.nlmsg_type = type;
	req->nlh.nlmsg_flags = NLM_F_REQUEST | flags;
	return &req->nlh;
}

/* Append @len bytes (zeroes if @data is NULL), padded to NLMSG_ALIGNTO. */
void *nl_req_put(struct nl_req *req, const void *data, size_t len)
{
	size_t off = NLMSG_ALIGN(req->nlh.nlmsg_len);
	void *p = req->buf + off;

	if (off + NLMSG_ALIGN(len) > sizeof(req->buf))
		return NULL;
	if (data)
		memcpy(p, data, len);
	else
		memset(p, 0, len);
	req->nlh.nlmsg_len = off + NLMSG_ALIGN(len);
	return p;
}

int nl_attr_put(struct nl_req *req, uint16_t type, const void *data,
		size_t len)
{
	struct nlattr *a;

	a = nl_req_put(req, NULL, NLA_HDRLEN + len);
	if (!a)
		return -EMSGSIZE;
	a->nla_type = type;
	a->nla_len = NLA_HDRLEN + len;
	if (len)
		memcpy((char *)a + NLA_HDRLEN, data, len);
	return 0;
}

int nl_attr_put_str(struct nl_req *req, uint16_t type, const char *str)
{
	return nl_attr_put(req, type, str, strlen(str) + 1);
}

struct nlattr *nl_nest_start(struct nl_req *req, uint16_t type)
{
	struct nlattr *a = nl_req_put(req, NULL, NLA_HDRLEN);

	if (a)
		a->nla_type = NLA_F_NESTED | type;
	return a;
}

void nl_nest_end(struct nl_req *req, struct nlattr *nest)
{
	nest->nla_len = req->buf + req->nlh.nlmsg_len - (char *)nest;
}

static int nl_send(struct nl_sock *nl, struct nl_req *req)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	ssize_t n;

	req->nlh.nlmsg_seq = ++nl->seq;
	req->nlh.nlmsg_pid = nl->portid;
	do {
		n = sendto(nl->fd, req->buf, req->nlh.nlmsg_len, 0,
			   (struct sockaddr *)&sa, sizeof(sa));
	} while (n < 0 && errno == EINTR);
	if (n < 0)
		return -errno;
	return n == (ssize_t)req->nlh.nlmsg_len ? 0 : -EIO;
}

/* The TLVs after the error code at @off bytes into the payload of @nlh. */
static void nl_ext_parse(struct nl_sock *nl, const struct nlmsghdr *nlh,
			 size_t off)
{
	const struct nlattr *tb[NLMSGERR_ATTR_MAX + 1];
	size_t len = nlh->nlmsg_len - NLMSG_HDRLEN;

	off = NLMSG_ALIGN(off);
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) || len < off)
		return;
	nl_attr_parse((const char *)NLMSG_DATA(nlh) + off, len - off, tb,
		      NLMSGERR_ATTR_MAX);
	if (nl_attr_is_str(tb[NLMSGERR_ATTR_MSG]))
		nl_attr_str(tb[NLMSGERR_ATTR_MSG], nl->ext, sizeof(nl->ext));
	else if (tb[NLMSGERR_ATTR_MISS_TYPE] &&
		 nl_attr_len(tb[NLMSGERR_ATTR_MISS_TYPE]) == sizeof(uint32_t))
		snprintf(nl->ext, sizeof(nl->ext), "missing attribute %u",
			 nl_attr_u32(tb[NLMSGERR_ATTR_MISS_TYPE]));
}

/* An NLMSG_ERROR: the ACK (error 0) or the error, and its extended ACK. */
static void nl_error(struct nl_sock *nl, const struct nlmsghdr *nlh,
		     int *err)
{
	const struct nlmsgerr *e = NLMSG_DATA(nlh);
	size_t off = sizeof(*e);

	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
		*err = -EBADMSG;
		return;
	}
	if (!e->error || *err)
		return;
	*err = e->error;
	/* Without NETLINK_CAP_ACK the request follows the header. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(e->msg);
	nl_ext_parse(nl, nlh, off);
}

/* The end of a dump carries the dump's error code, and maybe a message. */
static void nl_done(struct nl_sock *nl, const struct nlmsghdr *nlh, int *err)
{
	int done = 0;

	if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(done)))
		memcpy(&done, NLMSG_DATA(nlh), sizeof(done));
	if (done >= 0 || *err)
		return;
	*err = done;
	nl_ext_parse(nl, nlh, sizeof(done));
}

/* One datagram of replies: >0 when the exchange is over, 0 for more. */
static int nl_recv_batch(struct nl_sock *nl, char *buf, nl_msg_cb cb,
			 void *arg, int *err)
{
	struct sockaddr_nl sa;
	socklen_t salen = sizeof(sa);
	const struct nlmsghdr *nlh;
	ssize_t n;

	n = recvfrom(nl->fd, buf, NL_RECV_SIZE, MSG_TRUNC,
		     (struct sockaddr *)&sa, &salen);
	if (n < 0) {
		if (errno == EINTR)
			return 0;
		*err = -errno;
		return 1;
	}
	if (n > NL_RECV_SIZE) {
		*err = -EMSGSIZE;
		return 1;
	}
	if (sa.nl_pid != 0)	/* not from the kernel */
		return 0;
	for (nlh = (struct nlmsghdr *)buf; NLMSG_OK(nlh, n);
	     nlh = NLMSG_NEXT(nlh, n)) {
		if (nlh->nlmsg_seq != nl->seq || nlh->nlmsg_pid != nl->portid)
			continue;
		/* The kernel saw its data change during the dump. */
		if ((nlh->nlmsg_flags & NLM_F_DUMP_INTR) && !*err)
			*err = -EINTR;
		if (nlh->nlmsg_type == NLMSG_DONE) {
			nl_done(nl, nlh, err);
			return 1;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			nl_error(nl, nlh, err);
			return 1;
		}
		if (nlh->nlmsg_type == NLMSG_NOOP)
			continue;
		if (cb && !*err) {
			int ret = cb(nlh, arg);

			if (ret)
				*err = ret < 0 ? ret : -ECANCELED;
		}
	}
	return 0;
}

/*
 * Send @req and process the replies until NLMSG_DONE (dumps) or
 * NLMSG_ERROR (an ACK or an error). Requests that want neither must set
 * NLM_F_ACK, or this waits forever. Returns 0 or a negative errno: the
 * kernel's (its extended ACK message in nl->ext), a local one, or the
 * first non-zero return of @cb. Allocates nothing.
 */
int nl_talk(struct nl_sock *nl, struct nl_req *req, nl_msg_cb cb, void *arg)
{
	int err;

	nl->ext[0] = '\0';
	err = nl_send(nl, req);
	if (err)
		return err;
	while (!nl_recv_batch(nl, nl->buf, cb, arg, &err))
		;
	return err;
}

int nl_attr_ok(const struct nlattr *a, const void *end)
{
	ptrdiff_t rem = (const char *)end - (const char *)a;

	return rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem;
}

void nl_attr_parse(const void *data, size_t len, const struct nlattr **tb,
		   int max)
{
	const struct nlattr *a;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	nl_attr_for_each(a, data, len) {
		if (nl_attr_type(a) <= max)
			tb[nl_attr_type(a)] = a;
	}
}

/*
 * Whether the @len bytes at @data are whole attributes to the end: no
 * attribute runs past it and nothing is left over (the last one's
 * padding may be cut off).
 */
int nl_attr_whole(const void *data, size_t len)
{
	const struct nlattr *a;
	size_t walked = 0;

	nl_attr_for_each(a, data, len)
		walked += NLA_ALIGN(a->nla_len);
	return walked >= len;
}

int nl_attr_fits(const struct nlattr *a, const struct nl_policy *p)
{
	static const size_t int_len[] = {
		[NL_ATTR_U8] = sizeof(uint8_t),
		[NL_ATTR_U16] = sizeof(uint16_t),
		[NL_ATTR_U32] = sizeof(uint32_t),
		[NL_ATTR_U64] = sizeof(uint64_t),
	};
	size_t len = nl_attr_len(a);

	switch (p->kind) {
	case NL_ATTR_U8:
	case NL_ATTR_U16:
	case NL_ATTR_U32:
	case NL_ATTR_U64:
		return len == int_len[p->kind];
	case NL_ATTR_STRING:
		return nl_attr_is_str(a);
	case NL_ATTR_BINARY:
		return !p->len || len == p->len;
	case NL_ATTR_FLAG:
		return len == 0;
	case NL_ATTR_NESTED:
		return nl_attr_whole(nl_attr_data(a), len);
	default:
		return 1;
	}
}

int nl_attr_parse_policy(const void *data, size_t len,
			 const struct nlattr **tb, int max,
			 const struct nl_policy *policy)
{
	const struct nlattr *a;
	uint16_t type;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	nl_attr_for_each(a, data, len) {
		type = nl_attr_type(a);
		if (type > max || policy[type].kind == NL_ATTR_UNSPEC)
			continue;
		if (!nl_attr_fits(a, &policy[type]))
			return -EPROTO;
		tb[type] = a;
	}
	return nl_attr_whole(data, len) ? 0 : -EPROTO;
}

void nl_attr_parse_nested(const struct nlattr *nest, const struct nlattr **tb,
			  int max)
{
	nl_attr_parse(nl_attr_data(nest), nl_attr_len(nest), tb, max);
}

const void *nl_attr_data(const struct nlattr *a)
{
	return (const char *)a + NLA_HDRLEN;
}

size_t nl_attr_len(const struct nlattr *a)
{
	return a->nla_len - NLA_HDRLEN;
}

uint16_t nl_attr_type(const struct nlattr *a)
{
	return a->nla_type & NLA_TYPE_MASK;
}

int nl_attr_is_str(const struct nlattr *a)
{
	return a && nl_attr_len(a) &&
	       !((const char *)nl_attr_data(a))[nl_attr_len(a) - 1];
}

/* Fixed-size reads: a short attribute reads as zero-extended. */
void nl_attr_copy(const struct nlattr *a, void *v, size_t size)
{
	size_t len;

	memset(v, 0, size);
	if (!a)
		return;
	len = nl_attr_len(a);
	memcpy(v, nl_attr_data(a), len < size ? len : size);
}

uint8_t nl_attr_u8(const struct nlattr *a)
{
	uint8_t v;

	nl_attr_copy(a, &v, sizeof(v));
	return v;
}

uint16_t nl_attr_u16(const struct nlattr *a)
{
	uint16_t v;

	nl_attr_copy(a, &v, sizeof(v));
	return v;
}

uint32_t nl_attr_u32(const struct nlattr *a)
{
	uint32_t v;

	nl_attr_copy(a, &v, sizeof(v));
	return v;
}

uint64_t nl_attr_u64(const struct nlattr *a)
{
	uint64_t v;

	nl_attr_copy(a, &v, sizeof(v));
	return v;
}

/* An unsigned attribute of any of the sizes 1, 2, 4 and 8. */
uint64_t nl_attr_uint(const struct nlattr *a)
{
	switch (a ? nl_attr_len(a) : 0) {
	case 1:
		return nl_attr_u8(a);
	case 2:
		return nl_attr_u16(a);
	case 4:
		return nl_attr_u32(a);
	case 8:
		return nl_attr_u64(a);
	default:
		return 0;
	}
}

/* Copy a string attribute, always NUL-terminated; "" when absent. */
void nl_attr_str(const struct nlattr *a, char *buf, size_t size)
{
	size_t len = a ? nl_attr_len(a) : 0;

	if (!size)
		return;
	if (len >= size)
		len = size - 1;
	if (len)
		memcpy(buf, nl_attr_data(a), len);
	buf[len] = '\0';
	if (len)
		buf[strnlen(buf, len)] = '\0';
}
