// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: device statistics: printing the ISM_ATTR_DEV_STATS nest, and
 * "stats show" and "stats reset".
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ismctl.h"

/* JSON key and text name; @line: text starts a new line before it. */
static const struct {
	const char *name;
	bool line;
} stat_names[ISM_STAT_ATTR_MAX + 1] = {
	[ISM_STAT_ATTR_MOVES]		  = { "moves", true },
	[ISM_STAT_ATTR_MOVE_BYTES]	  = { "move_bytes" },
	[ISM_STAT_ATTR_SIGNALS]		  = { "signals" },
	[ISM_STAT_ATTR_EVENTS_SENT]	  = { "events_sent" },
	[ISM_STAT_ATTR_IRQS]		  = { "irqs", true },
	[ISM_STAT_ATTR_EVENTS]		  = { "events" },
	[ISM_STAT_ATTR_DMBS_REGISTERED]	  = { "dmbs_registered" },
	[ISM_STAT_ATTR_DMBS_UNREGISTERED] = { "dmbs_unregistered" },
	[ISM_STAT_ATTR_ERR_TOKEN]	  = { "err_token", true },
	[ISM_STAT_ATTR_ERR_INVAL]	  = { "err_inval" },
	[ISM_STAT_ATTR_ERR_NOSPC]	  = { "err_nospc" },
	[ISM_STAT_ATTR_ERR_NOMEM]	  = { "err_nomem" },
	[ISM_STAT_ATTR_ERR_IRQ_DROPPED]	  = { "err_irq_dropped", true },
	[ISM_STAT_ATTR_ERR_OTHER]	  = { "err_other" },
};

/* The counters of one device: a "stats" object, or indented text lines. */
int stats_print(const struct nlattr *nest)
{
	const struct nlattr *tb[ISM_STAT_ATTR_MAX + 1];
	bool first = true;
	int i;

	if (!nest)
		return 0;
	if (ism_parse_stats(nest, tb) < 0)
		return -EPROTO;
	out_obj_start("stats");
	out_text("    stats:");
	for (i = 0; i <= ISM_STAT_ATTR_MAX; i++) {
		if (!stat_names[i].name || !tb[i])
			continue;
		if (first || stat_names[i].line)
			out_text("\n        %s", stat_names[i].name);
		else
			out_text(" %s", stat_names[i].name);
		out_uint(stat_names[i].name, " %llu", ism_uint(tb[i]));
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
