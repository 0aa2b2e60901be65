// SPDX-License-Identifier: GPL-2.0
/*
 * ism_nlbad: send malformed or refused requests to the "ism" generic
 * netlink family and check that each fails with the expected errno and,
 * where the kernel has one to give, an extended ACK. Run as root, with
 * ism_core and ism_lo loaded. Prints one KTAP-like line per case:
 *   ok N what # errno, kernel message
 *   not ok N what # what went wrong
 * Exit status: 0 if every case passed, 1 otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <libmnl/libmnl.h>
#include <linux/genetlink.h>
#include <linux/netlink.h>
#include <linux/ism.h>

/* Requests and their replies, one at a time. */
static struct mnl_socket *sk;
static unsigned int portid, seq;
static uint16_t family;
static char buf[32768];

struct reply {
	int err;		/* 0 or -errno */
	char ext[256];		/* extack message or missing-attribute note */
};

static int ext_cb(const struct nlattr *a, void *data)
{
	struct reply *r = data;

	if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MSG &&
	    !mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
		snprintf(r->ext, sizeof(r->ext), "%s", mnl_attr_get_str(a));
	else if (mnl_attr_get_type(a) == NLMSGERR_ATTR_MISS_TYPE &&
		 !r->ext[0] && !mnl_attr_validate(a, MNL_TYPE_U32))
		snprintf(r->ext, sizeof(r->ext), "missing attribute %u",
			 mnl_attr_get_u32(a));
	return MNL_CB_OK;
}

/* NLMSG_ERROR (ACK or error) and NLMSG_DONE end a request. */
static int ctl_cb(const struct nlmsghdr *nlh, void *data)
{
	struct reply *r = data;
	size_t off = sizeof(int);
	int err;

	if (mnl_nlmsg_get_payload_len(nlh) < sizeof(int)) {
		r->err = -EBADMSG;
		return MNL_CB_STOP;
	}
	memcpy(&err, mnl_nlmsg_get_payload(nlh), sizeof(err));
	r->err = err;
	if (nlh->nlmsg_type == NLMSG_ERROR) {
		const struct nlmsgerr *e = mnl_nlmsg_get_payload(nlh);

		off = sizeof(*e);
		if (!(nlh->nlmsg_flags & NLM_F_CAPPED))
			off += e->msg.nlmsg_len - sizeof(struct nlmsghdr);
	}
	if (err && (nlh->nlmsg_flags & NLM_F_ACK_TLVS) &&
	    mnl_nlmsg_get_payload_len(nlh) >= off)
		mnl_attr_parse(nlh, off, ext_cb, r);
	return MNL_CB_STOP;
}

static int family_cb(const struct nlmsghdr *nlh, void *data)
{
	struct nlattr *a;

	(void)data;
	mnl_attr_for_each(a, nlh, sizeof(struct genlmsghdr)) {
		if (mnl_attr_get_type(a) == CTRL_ATTR_FAMILY_ID &&
		    !mnl_attr_validate(a, MNL_TYPE_U16))
			family = mnl_attr_get_u16(a);
	}
	return MNL_CB_OK;
}

static mnl_cb_t ctl[NLMSG_MIN_TYPE] = {
	[NLMSG_ERROR] = ctl_cb,
	[NLMSG_DONE] = ctl_cb,
};

static struct nlmsghdr *req(uint16_t type, uint8_t cmd, uint16_t flags)
{
	struct nlmsghdr *nlh = mnl_nlmsg_put_header(buf);
	struct genlmsghdr *g;

	nlh->nlmsg_type = type;
	nlh->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK | flags;
	nlh->nlmsg_seq = ++seq;
	g = mnl_nlmsg_put_extra_header(nlh, sizeof(*g));
	g->cmd = cmd;
	g->version = ISM_GENL_VERSION;
	return nlh;
}

/* Send @nlh; the outcome goes to @r. Data replies go to @cb. */
static void talk(struct nlmsghdr *nlh, mnl_cb_t cb, struct reply *r)
{
	unsigned int s = nlh->nlmsg_seq;
	ssize_t len;
	int ret;

	memset(r, 0, sizeof(*r));
	if (mnl_socket_sendto(sk, nlh, nlh->nlmsg_len) < 0) {
		r->err = -errno;
		return;
	}
	do {
		len = mnl_socket_recvfrom(sk, buf, sizeof(buf));
		if (len < 0) {
			r->err = -errno;
			return;
		}
		ret = mnl_cb_run2(buf, len, s, portid, cb, r, ctl,
				  NLMSG_MIN_TYPE);
	} while (ret > MNL_CB_STOP);
	if (ret < 0 && !r->err)
		r->err = -errno;
}

static const char *errname(int err)
{
	static char other[32];

	switch (-err) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case EEXIST: return "EEXIST";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	}
	snprintf(other, sizeof(other), "errno %d", -err);
	return other;
}

static int tests, failed;

/*
 * One case: @r is the reply; @want and @alt the accepted errnos (alt 0:
 * none); @need_ext: an extended ACK must have come back.
 */
static void judge(const char *what, const struct reply *r, int want, int alt,
		  int need_ext)
{
	int good = r->err == -want || (alt && r->err == -alt);

	tests++;
	if (good && (!need_ext || r->ext[0])) {
		printf("ok %d %s: %s # %s\n", tests, what, errname(r->err),
		       r->ext[0] ? r->ext : "no kernel message");
		return;
	}
	failed++;
	if (!good)
		printf("not ok %d %s # got %s, want %s%s%s\n", tests, what,
		       errname(r->err), errname(-want), alt ? " or " : "",
		       alt ? errname(-alt) : "");
	else
		printf("not ok %d %s # %s but no extended ACK\n", tests, what,
		       errname(r->err));
}

/* If a DEV_NEW wrongly succeeded, remove what it made. */
static void cleanup(const struct reply *r, const char *name)
{
	struct nlmsghdr *nlh;
	struct reply d;

	if (r->err)
		return;
	nlh = req(family, ISM_CMD_DEV_DEL, 0);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, name);
	talk(nlh, NULL, &d);
	printf("# removed device %s: %s\n", name, errname(d.err));
}

static int setup(void)
{
	struct nlmsghdr *nlh;
	struct reply r;
	int one = 1;

	sk = mnl_socket_open(NETLINK_GENERIC);
	if (!sk || mnl_socket_bind(sk, 0, MNL_SOCKET_AUTOPID) < 0) {
		perror("ism_nlbad: netlink");
		return -1;
	}
	if (mnl_socket_setsockopt(sk, NETLINK_EXT_ACK, &one, sizeof(one)) ||
	    mnl_socket_setsockopt(sk, NETLINK_CAP_ACK, &one, sizeof(one))) {
		perror("ism_nlbad: NETLINK_EXT_ACK");
		return -1;
	}
	portid = mnl_socket_get_portid(sk);
	seq = time(NULL);
	nlh = req(GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 0);
	mnl_attr_put_strz(nlh, CTRL_ATTR_FAMILY_NAME, ISM_GENL_NAME);
	talk(nlh, family_cb, &r);
	if (r.err || !family) {
		fprintf(stderr, "ism_nlbad: no family %s: %s\n", ISM_GENL_NAME,
			strerror(-r.err));
		return -1;
	}
	return 0;
}

int main(void)
{
	static const char long_name[] = "a-name-of-forty-characters-is-too-long40";
	struct nlmsghdr *nlh;
	struct reply r;

	if (setup())
		return 1;

	nlh = req(family, ISM_CMD_DEV_NEW, 0);
	talk(nlh, NULL, &r);
	judge("DEV_NEW without attributes", &r, EINVAL, 0, 1);

	nlh = req(family, ISM_CMD_DEV_NEW, 0);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_TYPE, "loopback");
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, long_name);
	talk(nlh, NULL, &r);
	judge("DEV_NEW with a 40-character name", &r, ERANGE, EINVAL, 1);
	cleanup(&r, long_name);

	nlh = req(family, ISM_CMD_DEV_DEL, 0);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, "nlbad0");
	mnl_attr_put_u32(nlh, 200, 1);
	talk(nlh, NULL, &r);
	judge("DEV_DEL with unknown attribute 200", &r, EINVAL, 0, 1);

	/* "nlbd" as a u32: no NUL. */
	nlh = req(family, ISM_CMD_DEV_NEW, 0);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_TYPE, "loopback");
	mnl_attr_put(nlh, ISM_ATTR_DEV_NAME, 4, "nlbd");
	talk(nlh, NULL, &r);
	judge("DEV_NEW with DEV_NAME a u32 without NUL", &r, EINVAL, 0, 1);
	cleanup(&r, "nlbd");

	nlh = req(family, 99, 0);
	talk(nlh, NULL, &r);
	judge("unknown command 99", &r, EOPNOTSUPP, 0, 0);

	nlh = req(family, ISM_CMD_DEV_NEW, 0);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_TYPE, "nosuchtype");
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, "nlbad1");
	talk(nlh, NULL, &r);
	judge("DEV_NEW of type nosuchtype", &r, EOPNOTSUPP, 0, 1);
	cleanup(&r, "nlbad1");

	nlh = req(family, ISM_CMD_DMB_GET, NLM_F_DUMP);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, "nlbad2");
	talk(nlh, NULL, &r);
	judge("DMB_GET dump of an unknown device", &r, ENODEV, 0, 0);

	mnl_socket_close(sk);
	printf("# %d of %d cases failed\n", failed, tests);
	return failed ? 1 : 0;
}
