// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: attributes of the ism family. Replies are checked against the
 * types and lengths of the family's spec (attr-gen.h, generated from
 * Documentation/netlink/specs/ism.yaml); an attribute of the wrong type
 * makes the message malformed (-EPROTO), one unknown to this tool is
 * skipped.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/genetlink.h>

#include "ismctl.h"
#include "attr-gen.h"

/* tb[ISM_ATTR_MAX + 1]: the attributes of an ism family message. */
int ism_parse(const struct nlmsghdr *nlh, const struct nlattr **tb)
{
	return nl_attr_parse_policy(genl_attr_data(nlh), genl_attr_len(nlh),
				    tb, ISM_ATTR_MAX, ism_attr_info);
}

/* tb[ISM_STAT_ATTR_MAX + 1]: the counters in ISM_ATTR_DEV_STATS. */
int ism_parse_stats(const struct nlattr *nest, const struct nlattr **tb)
{
	return nl_attr_parse_policy(nl_attr_data(nest), nl_attr_len(nest), tb,
				    ISM_STAT_ATTR_MAX, ism_stat_attr_info);
}

/*
 * The name of counter @type, as ismctl prints it and keys it in JSON: the
 * spec's name with '_' for '-' ("move_bytes"), in @buf; NULL for a counter
 * the spec does not know.
 */
const char *ism_stat_key(unsigned int type, char *buf, size_t size)
{
	const char *name;
	size_t i;

	if (type > ISM_STAT_ATTR_MAX || !ism_stat_attr_info[type].name)
		return NULL;
	name = ism_stat_attr_info[type].name;
	for (i = 0; name[i] && i + 1 < size; i++)
		buf[i] = name[i] == '-' ? '_' : name[i];
	buf[i] = '\0';
	return buf;
}

/* A validated string attribute, or "" if absent. */
const char *ism_str(const struct nlattr *a)
{
	return a ? nl_attr_data(a) : "";
}

/* A validated u16, u32 or u64 attribute, or 0 if absent. */
uint64_t ism_uint(const struct nlattr *a)
{
	return nl_attr_uint(a);
}

/*
 * A GID in the UUID notation, bytes in order as the kernel's %pUb prints
 * them: buf holds GID_STR_LEN + 1 bytes. An absent GID reads as all zero.
 */
void ism_gid_str(const struct nlattr *a, char *buf)
{
	static const uint8_t zero[ISM_GID_LEN];
	const uint8_t *g = a ? nl_attr_data(a) : zero;
	int i;

	for (i = 0; i < ISM_GID_LEN; i++) {
		buf += sprintf(buf, "%02x", g[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*buf++ = '-';
	}
	*buf = '\0';
}
