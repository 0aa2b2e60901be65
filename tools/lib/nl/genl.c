// SPDX-License-Identifier: GPL-2.0
/*
 * Generic netlink: requests, and family ids from nlctrl by name.
 */
#include <errno.h>
#include <string.h>

#include "nl.h"

struct nlmsghdr *genl_req_init(struct nl_req *req, uint16_t family,
			       uint8_t cmd, uint8_t version, uint16_t flags)
{
	struct genlmsghdr hdr = { .cmd = cmd, .version = version };
	struct nlmsghdr *nlh = nl_req_init(req, family, flags);

	nl_req_put(req, &hdr, sizeof(hdr));
	return nlh;
}

/* The attributes of a generic netlink message without a family header. */
const void *genl_attr_data(const struct nlmsghdr *nlh)
{
	return (const char *)nlh + NLMSG_HDRLEN + GENL_HDRLEN;
}

size_t genl_attr_len(const struct nlmsghdr *nlh)
{
	size_t off = NLMSG_HDRLEN + GENL_HDRLEN;

	return nlh->nlmsg_len < off ? 0 : nlh->nlmsg_len - off;
}

void genl_attr_parse(const struct nlmsghdr *nlh, const struct nlattr **tb,
		     int max)
{
	nl_attr_parse(genl_attr_data(nlh), genl_attr_len(nlh), tb, max);
}

static int genl_family_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[CTRL_ATTR_MAX + 1];

	genl_attr_parse(nlh, tb, CTRL_ATTR_MAX);
	if (!tb[CTRL_ATTR_FAMILY_ID])
		return -EBADMSG;
	*(uint16_t *)arg = nl_attr_u16(tb[CTRL_ATTR_FAMILY_ID]);
	return 0;
}

/* 0, or -ENOENT when the family is not registered (module not loaded). */
int genl_family_id(struct nl_sock *nl, const char *name, uint16_t *id)
{
	struct nl_req req;
	int err;

	*id = 0;
	genl_req_init(&req, GENL_ID_CTRL, CTRL_CMD_GETFAMILY, 1, NLM_F_ACK);
	if (nl_attr_put_str(&req, CTRL_ATTR_FAMILY_NAME, name))
		return -EMSGSIZE;
	err = nl_talk(nl, &req, genl_family_cb, id);
	if (!err && !*id)
		err = -ENOENT;
	return err;
}

/*
 * A generic netlink socket for @family, whose id goes to nl->family.
 * Return: 0, or a negative errno (-ENOENT: no such family); closed then.
 */
int genl_open(struct nl_sock *nl, const char *family)
{
	int err = nl_open(nl, NETLINK_GENERIC);

	if (!err)
		err = genl_family_id(nl, family, &nl->family);
	if (err)
		nl_close(nl);
	return err;
}
