// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: "dmb show": the registered DMBs, one a line or one object each.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ismctl.h"

/*
 * One DMB. The kernel sends its token and the GID allowed to write into
 * it only to callers with CAP_NET_ADMIN: without them, text shows "-" and
 * JSON has no such key, rather than a zero that reads like a value.
 */
static int dmb_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[ISM_ATTR_MAX + 1];
	char rgid[GID_STR_LEN + 1];
	char token[24];
	int *rows = arg;

	if (ism_parse(nlh, tb) < 0)
		return -EPROTO;
	if (!tb[ISM_ATTR_DMB_INDEX] && !tb[ISM_ATTR_DMB_TOKEN])
		return 0;
	if (!(*rows)++)
		out_text("%-15s %-18s %7s %10s %-15s %s\n", "DEV", "TOKEN",
			 "INDEX", "LEN", "OWNER", "RGID");
	out_obj_start(NULL);
	out_str("dev", "%-15s", ism_str(tb[ISM_ATTR_DEV_NAME]));
	if (tb[ISM_ATTR_DMB_TOKEN]) {
		snprintf(token, sizeof(token), "0x%016llx",
			 (unsigned long long)ism_uint(tb[ISM_ATTR_DMB_TOKEN]));
		out_str("token", " %-18s", token);
	} else {
		out_text(" %-18s", "-");
	}
	out_uint("index", " %7llu", ism_uint(tb[ISM_ATTR_DMB_INDEX]));
	out_uint("len", " %10llu", ism_uint(tb[ISM_ATTR_DMB_LEN]));
	out_str("owner", " %-15s", ism_str(tb[ISM_ATTR_CLIENT_NAME]));
	if (tb[ISM_ATTR_DMB_RGID]) {
		ism_gid_str(tb[ISM_ATTR_DMB_RGID], rgid);
		out_str("rgid", " %s", rgid);
	} else {
		out_text(" -");
	}
	out_text("\n");
	out_obj_end();
	return 0;
}

/* dmb [show [[dev] NAME]] */
int do_dmb(struct ismctl *c, int argc, char **argv)
{
	const char *name = NULL;
	struct nl_req req;
	int rows = 0, err;

	if (argc && (matches(argv[0], "show") || matches(argv[0], "list"))) {
		argc--;
		argv++;
	}
	if (argc == 2 && !strcmp(argv[0], "dev")) {
		argc--;
		argv++;
	}
	if (argc > 1 || (argc && matches(argv[0], "help")))
		return usage_error("usage: dmb [show] [dev NAME]");
	if (argc) {
		name = argv[0];
		if (check_name("device", name))
			return EXIT_USAGE;
	}
	snprintf(c->what, sizeof(c->what), "dmb show%s%s",
		 name ? " " : "", name ? name : "");
	ism_req(c, &req, ISM_CMD_DMB_GET, NLM_F_DUMP);
	if (name)
		nl_attr_put_str(&req, ISM_ATTR_DEV_NAME, name);
	out_list_start();
	err = nl_talk(&c->nl, &req, dmb_cb, &rows);
	out_list_end();
	return report(c, err);
}
