// SPDX-License-Identifier: GPL-2.0
/*
 * The generic netlink socket of ismctl and of ism_fault, on libmnl. One
 * request at a time; errors come back as -errno with the kernel's
 * extended ACK message, if any, kept for the caller.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>

#include "nl.h"

/* A dump skb is at most 32 KiB; a smaller buffer truncates messages. */
#define NL_RECV_SIZE	32768

struct nl {
	struct mnl_socket *sk;
	uint32_t portid;
	uint32_t seq;
	uint16_t family;
	mnl_cb_t cb;		/* the caller's callback and argument */
	void *arg;
	int err;		/* from NLMSG_ERROR or NLMSG_DONE */
	char ext[256];		/* extended ACK message */
	char req[8192];		/* the request being built */
	char buf[NL_RECV_SIZE];
};

static int ext_attr_cb(const struct nlattr *a, void *data)
{
	struct nl *nl = data;
	uint16_t type = mnl_attr_get_type(a);

	if (type == NLMSGERR_ATTR_MSG &&
	    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
		snprintf(nl->ext, sizeof(nl->ext), "%s", mnl_attr_get_str(a));
	else if (type == NLMSGERR_ATTR_MISS_TYPE && !nl->ext[0] &&
		 !mnl_attr_validate(a, MNL_TYPE_U32))
		snprintf(nl->ext, sizeof(nl->ext), "missing attribute %u",
			 mnl_attr_get_u32(a));
	return MNL_CB_OK;
}

/* The TLVs after an error code at @off bytes into the payload. */
static void ext_parse(struct nl *nl, const struct nlmsghdr *nlh, size_t off)
{
	if (!(nlh->nlmsg_flags & NLM_F_ACK_TLVS) ||
	    mnl_nlmsg_get_payload_len(nlh) < off)
		return;
	mnl_attr_parse(nlh, off, ext_attr_cb, nl);
}

static int error_cb(const struct nlmsghdr *nlh, void *data)
{
	const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);
	struct nl *nl = data;
	size_t off = sizeof(*e);

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(*e)) {
		nl->err = -EBADMSG;
		return MNL_CB_ERROR;
	}
	if (!e->error)
		return MNL_CB_STOP;	/* the ACK */
	/* Without NETLINK_CAP_ACK the request follows the header. */
	if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
		off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	nl->err = e->error;
	ext_parse(nl, nlh, off);
	return MNL_CB_ERROR;
}

/* The end of a dump carries the dump's error code, and maybe a message. */
static int done_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl *nl = data;
	int err = 0;

	if (mnl_nlmsg_get_payload_len(nlh) >= sizeof(err))
		memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	if (!err)
		return MNL_CB_STOP;
	nl->err = err;
	ext_parse(nl, nlh, sizeof(err));
	return MNL_CB_ERROR;
}

static int data_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nl *nl = data;
	int ret = nl->cb ? nl->cb(nlh, nl->arg) : MNL_CB_OK;

	if (ret == MNL_CB_ERROR && !nl->err)
		nl->err = errno ? -errno : -EPROTO;
	return ret;
}

/* libmnl takes the table as non-const. */
static mnl_cb_t ctl_cb[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = error_cb,
	[NLMSG_DONE] = done_cb,
};

struct nlmsghdr *nl_req(struct nl *nl, uint8_t cmd, uint8_t version,
			uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(nl->req);
	struct genlmsghdr *g;

	nlh->nlmsg_type = nl->family;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++nl->seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = version;
	return nlh;
}

int nl_talk(struct nl *nl, struct nlmsghdr *nlh, mnl_cb_t cb, void *arg)
{
	ssize_t len;
	int ret;

	nl->cb = cb;
	nl->arg = arg;
	nl->err = 0;
	nl->ext[0] = '\0';
	if (mnl_socket_sendto(nl->sk, nlh, nlh->nlmsg_len) < 0)
		return -errno;
	do {
		len = mnl_socket_recvfrom(nl->sk, nl->buf, sizeof(nl->buf));
		if (len < 0)
			return -errno;
		errno = 0;
		ret = mnl_cb_run2(nl->buf, len, nlh->nlmsg_seq, nl->portid,
				  data_cb, nl, ctl_cb, NLMSG_MIN_TYPE);
	} while (ret > MNL_CB_STOP);
	if (ret < 0)
		/* libmnl's own checks (seq, portid, interrupted dump) */
		return nl->err ? nl->err : (errno ? -errno : -EPROTO);
	return 0;
}

const char *nl_ext_msg(const struct nl *nl)
{
	return nl->ext;
}

static int family_cb(const struct nlmsghdr *nlh, void *arg)
{
	uint16_t *id = arg;
	struct nlattr *a;

	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    !mnl_attr_validate(a, MNL_TYPE_U16))
			*id = mnl_attr_get_u16(a);
	}
	return MNL_CB_OK;
}

struct nl *nl_open(const char *family)
{
	struct nlmsghdr *nlh;
	struct nl *nl;
	int one = 1, err;

	nl = calloc(1, sizeof(*nl));
	if (!nl)
		return NULL;
	nl->sk = mnl_socket_open(NETLINK_GENERIC);
	if (!nl->sk)
		goto fail;
	if (mnl_socket_bind(nl->sk, 0, MNL_SOCKET_AUTOPID) < 0)
		goto fail;
	/* Best effort: kernels without them still answer. */
	mnl_socket_setsockopt(nl->sk, NETLINK_EXT_ACK, &one, sizeof(one));
	mnl_socket_setsockopt(nl->sk, NETLINK_CAP_ACK, &one, sizeof(one));
	nl->portid = mnl_socket_get_portid(nl->sk);
	nl->seq = time(NULL);

	nl->family = GENL_ID_CTRL;
	nlh = nl_req(nl, CTRL_CMD_GETFAMILY, 1, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, family);
	nl->family = 0;
	err = nl_talk(nl, nlh, family_cb, &nl->family);
	if (!err && !nl->family)
		err = -ENOENT;
	if (!err)
		return nl;
	errno = -err;
fail:
	err = errno;
	nl_close(nl);
	errno = err;
	return NULL;
}

void nl_close(struct nl *nl)
{
	if (!nl)
		return;
	if (nl->sk)
		mnl_socket_close(nl->sk);
	free(nl);
}
