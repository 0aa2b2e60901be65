// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: "dev show", "dev add", "dev del".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ismctl.h"

static void dev_clients(const struct nlattr *nest)
{
	const struct nlattr *a;
	int n = 0;

	out_arr_start("clients");
	if (nest) {
		mnl_attr_for_each_nested(a, nest) {
			if (mnl_attr_get_type(a) != ISM_ATTR_CLIENT_NAME ||
			    mnl_attr_validate(a, MNL_TYPE_NUL_STRING))
				continue;
			out_text(n++ ? "," : " clients ");
			out_str(NULL, "%s", mnl_attr_get_str(a));
		}
	}
	out_arr_end();
}

/* One device: two lines of text (more with -s), or one object. */
static int dev_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[ISM_ATTR_MAX + 1];
	struct ismctl *c = arg;
	char gid[GID_STR_LEN + 1];

	if (ism_parse(nlh, tb) < 0)
		return MNL_CB_ERROR;
	if (!tb[ISM_ATTR_DEV_NAME])
		return MNL_CB_OK;
	out_obj_start(NULL);
	out_str("name", "%s:", ism_str(tb[ISM_ATTR_DEV_NAME]));
	if (tb[ISM_ATTR_DEV_TYPE])
		out_kv_str("type", ism_str(tb[ISM_ATTR_DEV_TYPE]));
	if (tb[ISM_ATTR_DEV_PARENT])
		out_kv_str("parent", ism_str(tb[ISM_ATTR_DEV_PARENT]));
	out_text(" chid");
	out_uint("chid", " 0x%04llx", ism_uint(tb[ISM_ATTR_DEV_CHID]));
	ism_gid_str(tb[ISM_ATTR_DEV_GID], gid);
	out_kv_str("gid", gid);
	out_text("\n   ");
	out_kv_uint("max_dmbs", ism_uint(tb[ISM_ATTR_DEV_MAX_DMBS]));
	out_kv_uint("max_dmb_len", ism_uint(tb[ISM_ATTR_DEV_MAX_DMB_LEN]));
	out_kv_uint("dmbs", ism_uint(tb[ISM_ATTR_DEV_DMBS]));
	dev_clients(tb[ISM_ATTR_DEV_CLIENTS]);
	out_text("\n");
	if (c->stats && stats_print(tb[ISM_ATTR_DEV_STATS])) {
		errno = EPROTO;
		return MNL_CB_ERROR;
	}
	out_obj_end();
	return MNL_CB_OK;
}

/* All devices (dump), or the one named (doit). */
int dev_show(struct ismctl *c, const char *name)
{
	struct nlmsghdr *nlh;
	int err;

	if (name && check_name("device", name))
		return EXIT_USAGE;
	snprintf(c->what, sizeof(c->what), "dev show%s%s",
		 name ? " " : "", name ? name : "");
	nlh = ism_req(c, ISM_CMD_DEV_GET, name ? 0 : NLM_F_DUMP);
	if (name)
		mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, name);
	out_list_start();
	err = nl_talk(c->nl, nlh, dev_cb, c);
	out_list_end();
	return report(c, err);
}

/* dev add TYPE NAME | dev add [name] NAME type TYPE */
static int dev_add(struct ismctl *c, int argc, char **argv)
{
	const char *type = NULL, *name = NULL, *pos[2];
	struct nlmsghdr *nlh;
	int i, npos = 0;

	for (i = 0; i < argc; i++) {
		if (!strcmp(argv[i], "type") || !strcmp(argv[i], "name")) {
			if (i + 1 == argc)
				return usage_error("\"%s\" needs a value",
						   argv[i]);
			if (argv[i][0] == 't')
				type = argv[++i];
			else
				name = argv[++i];
		} else if (npos < 2) {
			pos[npos++] = argv[i];
		} else {
			return usage_error("too many arguments to dev add");
		}
	}
	if (!type && npos == 2 && !name) {
		type = pos[0];
		name = pos[1];
	} else if (type && npos == 1 && !name) {
		name = pos[0];
	} else if (!(type && name && !npos)) {
		return usage_error("usage: dev add TYPE NAME | dev add NAME type TYPE");
	}
	if (check_name("device", name))
		return EXIT_USAGE;
	snprintf(c->what, sizeof(c->what), "dev add %s %s", type, name);
	nlh = ism_req(c, ISM_CMD_DEV_NEW, 0);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_TYPE, type);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, name);
	return report(c, nl_talk(c->nl, nlh, NULL, NULL));
}

/* dev del [dev] NAME */
static int dev_del(struct ismctl *c, int argc, char **argv)
{
	struct nlmsghdr *nlh;

	if (argc == 2 && !strcmp(argv[0], "dev")) {
		argc--;
		argv++;
	}
	if (argc != 1)
		return usage_error("usage: dev del NAME");
	if (check_name("device", argv[0]))
		return EXIT_USAGE;
	snprintf(c->what, sizeof(c->what), "dev del %s", argv[0]);
	nlh = ism_req(c, ISM_CMD_DEV_DEL, 0);
	mnl_attr_put_strz(nlh, ISM_ATTR_DEV_NAME, argv[0]);
	return report(c, nl_talk(c->nl, nlh, NULL, NULL));
}

/* dev [show [[dev] NAME] | add ... | del ...] */
int do_dev(struct ismctl *c, int argc, char **argv)
{
	if (!argc)
		return dev_show(c, NULL);
	if (matches(argv[0], "show") || matches(argv[0], "list")) {
		argc--;
		argv++;
		if (argc == 2 && !strcmp(argv[0], "dev")) {
			argc--;
			argv++;
		}
		if (argc > 1)
			return usage_error("dev show takes at most one device name");
		return dev_show(c, argc ? argv[0] : NULL);
	}
	if (matches(argv[0], "add") || !strcmp(argv[0], "new"))
		return dev_add(c, argc - 1, argv + 1);
	if (matches(argv[0], "delete"))
		return dev_del(c, argc - 1, argv + 1);
	if (matches(argv[0], "help")) {
		printf("Usage: ismctl [-s] [-j] [-p] dev [show [NAME]]\n"
		       "       ismctl dev add TYPE NAME\n"
		       "       ismctl dev add NAME type TYPE\n"
		       "       ismctl dev del NAME\n");
		return 0;
	}
	return usage_error("unknown dev command \"%s\"", argv[0]);
}
