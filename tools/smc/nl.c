// SPDX-License-Identifier: GPL-2.0
/*
 * Raw netlink: requests, the reply loop, attributes.
 */
#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>

#include "nl.h"

int nl_open(struct nl_sock *nl, int protocol)
{
	struct sockaddr_nl sa = { .nl_family = AF_NETLINK };
	socklen_t len = sizeof(sa);

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
	nl->portid = sa.nl_pid;
	nl->seq = (uint32_t)getpid() << 8;
	return 0;
}

void nl_close(struct nl_sock *nl)
{
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
		if (nlh->nlmsg_type == NLMSG_DONE) {
			int done = 0;

			if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(int)))
				memcpy(&done, NLMSG_DATA(nlh), sizeof(done));
			if (done < 0 && !*err)
				*err = done;
			return 1;
		}
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			const struct nlmsgerr *e = NLMSG_DATA(nlh);

			if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*e))) {
				*err = -EBADMSG;
				return 1;
			}
			/* error 0 is the ACK of a request */
			if (e->error && !*err)
				*err = e->error;
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
 * kernel's, a local one, or the first non-zero return of @cb.
 */
int nl_talk(struct nl_sock *nl, struct nl_req *req, nl_msg_cb cb, void *arg)
{
	int err;

	err = nl_send(nl, req);
	if (err)
		return err;
	while (!nl_recv_batch(nl, nl->buf, cb, arg, &err))
		;
	return err;
}

void nl_attr_parse(const void *data, size_t len, const struct nlattr **tb,
		   int max)
{
	const struct nlattr *a = data;
	int rem = len;

	memset(tb, 0, sizeof(*tb) * (max + 1));
	while (rem >= NLA_HDRLEN && a->nla_len >= NLA_HDRLEN &&
	       a->nla_len <= rem) {
		int type = a->nla_type & NLA_TYPE_MASK;

		if (type <= max)
			tb[type] = a;
		rem -= NLA_ALIGN(a->nla_len);
		a = (const struct nlattr *)((const char *)a +
					    NLA_ALIGN(a->nla_len));
	}
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
