// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: "client show": the registered clients of the ISM layer.
 */
#include <errno.h>
#include <stdio.h>

#include "ismctl.h"

static int client_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[ISM_ATTR_MAX + 1];
	int *rows = arg;

	if (ism_parse(nlh, tb) < 0)
		return -EPROTO;
	if (!tb[ISM_ATTR_CLIENT_NAME])
		return 0;
	if (!(*rows)++)
		out_text("%-15s %4s %6s %8s\n", "NAME", "ID", "DEVS", "DMBS");
	out_obj_start(NULL);
	out_str("name", "%-15s", ism_str(tb[ISM_ATTR_CLIENT_NAME]));
	out_uint("id", " %4llu", ism_uint(tb[ISM_ATTR_CLIENT_ID]));
	out_uint("devs", " %6llu", ism_uint(tb[ISM_ATTR_CLIENT_DEVS]));
	out_uint("dmbs", " %8llu\n", ism_uint(tb[ISM_ATTR_CLIENT_DMBS]));
	out_obj_end();
	return 0;
}

/* client [show] */
int do_client(struct ismctl *c, int argc, char **argv)
{
	struct nl_req req;
	int rows = 0, err;

	if (argc && (matches(argv[0], "show") || matches(argv[0], "list"))) {
		argc--;
		argv++;
	}
	if (argc)
		return usage_error("usage: client [show]");
	snprintf(c->what, sizeof(c->what), "client show");
	ism_req(c, &req, ISM_CMD_CLIENT_GET, NLM_F_DUMP);
	out_list_start();
	err = nl_talk(&c->nl, &req, client_cb, &rows);
	out_list_end();
	return report(c, err);
}
