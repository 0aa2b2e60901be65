// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: device statistics: printing the ISM_ATTR_DEV_STATS nest, and
 * "stats show" and "stats reset".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ismctl.h"

/* In text, these counters start a new line: moves, irqs, errors. */
static bool stat_starts_line(unsigned int type)
{
	return type == ISM_STAT_ATTR_MOVES || type == ISM_STAT_ATTR_IRQS ||
	       type == ISM_STAT_ATTR_ERR_TOKEN ||
	       type == ISM_STAT_ATTR_ERR_IRQ_DROPPED;
}

/* The counters of one device: a "stats" object, or indented text lines. */
int stats_print(const struct nlattr *nest)
{
	const struct nlattr *tb[ISM_STAT_ATTR_MAX + 1];
	char name[32];
	bool first = true;
	int i;

	if (!nest)
		return 0;
	if (ism_parse_stats(nest, tb) < 0)
		return -EPROTO;
	out_obj_start("stats");
	out_text("    stats:");
	for (i = 0; i <= ISM_STAT_ATTR_MAX; i++) {
		if (!tb[i] || !ism_stat_key(i, name, sizeof(name)))
			continue;
		if (first || stat_starts_line(i))
			out_text("\n        %s", name);
		else
			out_text(" %s", name);
		out_uint(name, " %llu", ism_uint(tb[i]));
		first = false;
	}
	out_text("\n");
	out_obj_end();
	return 0;
}

/* stats reset [[dev] NAME] */
static int stats_reset(struct ismctl *c, int argc, char **argv)
{
	struct nl_req req;
	const char *name = NULL;

	if (argc == 2 && !strcmp(argv[0], "dev")) {
		argc--;
		argv++;
	}
	if (argc > 1)
		return usage_error("stats reset takes at most one device name");
	if (argc == 1) {
		name = argv[0];
		if (check_name("device", name))
			return EXIT_USAGE;
	}
	snprintf(c->what, sizeof(c->what), "stats reset%s%s",
		 name ? " " : "", name ? name : "");
	ism_req(c, &req, ISM_CMD_STATS_RESET, 0);
	if (name)
		nl_attr_put_str(&req, ISM_ATTR_DEV_NAME, name);
	return report(c, nl_talk(&c->nl, &req, NULL, NULL));
}

/* stats [show [[dev] NAME] | reset [[dev] NAME]] */
int do_stats(struct ismctl *c, int argc, char **argv)
{
	if (argc > 0 && matches(argv[0], "reset"))
		return stats_reset(c, argc - 1, argv + 1);
	if (argc > 0 && (matches(argv[0], "show") || matches(argv[0], "list"))) {
		argc--;
		argv++;
	}
	if (argc == 2 && !strcmp(argv[0], "dev")) {
		argc--;
		argv++;
	}
	if (argc > 1)
		return usage_error("stats show takes at most one device name");
	c->stats = 1;
	return dev_show(c, argc ? argv[0] : NULL);
}
