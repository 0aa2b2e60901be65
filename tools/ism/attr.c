// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: attributes of the ism family. Replies are checked against the
 * types and lengths of the family's spec (attr-gen.h, generated from
 * Documentation/netlink/specs/ism.yaml); an attribute of the wrong type
 * makes the message malformed (EPROTO), one unknown to this tool is
 * skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include "ismctl.h"
#include "attr-gen.h"

struct parse {
	const struct ism_attr_info *policy;
	const struct nlattr **tb;
	int max;
};

static int parse_cb(const struct nlattr *a, void *data)
{
	const struct parse *p = data;
	uint16_t type = mnl_attr_get_type(a);
	const struct ism_attr_info *pol;

	if (type > p->max || p->policy[type].type == MNL_TYPE_UNSPEC)
		return MNL_CB_OK;	/* newer kernel, or padding */
	pol = &p->policy[type];
	if (pol->type == MNL_TYPE_BINARY ?
	    mnl_attr_validate2(a, pol->type, pol->len) :
	    mnl_attr_validate(a, pol->type)) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	p->tb[type] = a;
	return MNL_CB_OK;
}

/* tb[ISM_ATTR_MAX + 1]: the attributes of an ism family message. */
int ism_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	struct parse p = { ism_attr_info, tb, ISM_ATTR_MAX };

	memset(tb, 0, sizeof(*tb) * (ISM_ATTR_MAX + 1));
	return mnl_attr_parse(nlh, sizeof(struct genlmsghdr), parse_cb, &p);
}

/* tb[ISM_STAT_ATTR_MAX + 1]: the counters in ISM_ATTR_DEV_STATS. */
int ism_parse_stats(const struct nlattr *nest, const struct nlattr **tb)
{
	struct parse p = { ism_stat_attr_info, tb, ISM_STAT_ATTR_MAX };

	memset(tb, 0, sizeof(*tb) * (ISM_STAT_ATTR_MAX + 1));
	return mnl_attr_parse_nested(nest, parse_cb, &p);
}

/* A validated string attribute, or "" if absent. */
const char *ism_str(const struct nlattr *a)
{
	return a ? mnl_attr_get_str(a) : "";
}

/* A validated u16, u32 or u64 attribute, or 0 if absent. */
uint64_t ism_uint(const struct nlattr *a)
{
	if (!a)
		return 0;
	switch (mnl_attr_get_payload_len(a)) {
	case sizeof(uint16_t):
		return mnl_attr_get_u16(a);
	case sizeof(uint32_t):
		return mnl_attr_get_u32(a);
	default:
		return mnl_attr_get_u64(a);
	}
}

/*
 * A GID in the UUID notation, bytes in order as the kernel's %pUb prints
 * them: buf holds GID_STR_LEN + 1 bytes. An absent GID reads as all zero.
 */
void ism_gid_str(const struct nlattr *a, char *buf)
{
	static const uint8_t zero[ISM_GID_LEN];
	const uint8_t *g = a ? mnl_attr_get_payload(a) : zero;
	int i;

	for (i = 0; i < ISM_GID_LEN; i++) {
		buf += sprintf(buf, "%02x", g[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*buf++ = '-';
	}
	*buf = '\0';
}
