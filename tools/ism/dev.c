// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: "dev show", "dev add", "dev del".
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ismctl.h"

/* An attribute of a name list that this tool can print. */
static bool name_ok(const struct nlattr *a)
{
	return nl_attr_type(a) == ISM_ATTR_CLIENT_NAME && nl_attr_is_str(a);
}

static int name_count(const struct nlattr *nest)
{
	const struct nlattr *a;
	int n = 0;

	if (nest)
		nl_attr_for_each_nested(a, nest)
			n += name_ok(a);
	return n;
}

/*
 * A nest of client names: in JSON an array named @key, in text @prefix and
 * the names joined by commas, or nothing if there is none.
 */
static void dev_names(const struct nlattr *nest, const char *key,
		      const char *prefix)
{
	const struct nlattr *a;
	int n = 0;

	out_arr_start(key);
	if (nest) {
		nl_attr_for_each_nested(a, nest) {
			if (!name_ok(a))
				continue;
			out_text("%s", n++ ? "," : prefix);
			out_str(NULL, "%s", (const char *)nl_attr_data(a));
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
		return -EPROTO;
	if (!tb[ISM_ATTR_DEV_NAME])
		return 0;
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
	/* Only when set, so that the output of other devices is unchanged. */
	if (tb[ISM_ATTR_DEV_GOING])
		out_flag("going", " going");
	out_text("\n   ");
	out_kv_uint("max_dmbs", ism_uint(tb[ISM_ATTR_DEV_MAX_DMBS]));
	out_kv_uint("max_dmb_len", ism_uint(tb[ISM_ATTR_DEV_MAX_DMB_LEN]));
	out_kv_uint("dmbs", ism_uint(tb[ISM_ATTR_DEV_DMBS]));
	/* A device with a fixed DMB space (the virtual ISM device's). */
	if (tb[ISM_ATTR_DEV_DMB_SPACE] && tb[ISM_ATTR_DEV_DMB_SPACE_USED]) {
		out_kv_uint("dmb_space", ism_uint(tb[ISM_ATTR_DEV_DMB_SPACE]));
		out_kv_uint("dmb_space_used",
			    ism_uint(tb[ISM_ATTR_DEV_DMB_SPACE_USED]));
	}
	dev_names(tb[ISM_ATTR_DEV_CLIENTS], "clients", " clients ");
	if (name_count(tb[ISM_ATTR_DEV_CLIENTS_REFUSED]))
		dev_names(tb[ISM_ATTR_DEV_CLIENTS_REFUSED], "refused",
			  " refused by ");
	out_text("\n");
	if (c->stats && stats_print(tb[ISM_ATTR_DEV_STATS]))
		return -EPROTO;
	out_obj_end();
	return 0;
}

/* All devices (dump), or the one named (doit). */
int dev_show(struct ismctl *c, const char *name)
{
	struct nl_req req;
	int err;

	if (name && check_name("device", name))
		return EXIT_USAGE;
	snprintf(c->what, sizeof(c->what), "dev show%s%s",
		 name ? " " : "", name ? name : "");
	ism_req(c, &req, ISM_CMD_DEV_GET, name ? 0 : NLM_F_DUMP);
	if (name)
		nl_attr_put_str(&req, ISM_ATTR_DEV_NAME, name);
	out_list_start();
	err = nl_talk(&c->nl, &req, dev_cb, c);
	out_list_end();
	return report(c, err);
}

/* dev add TYPE NAME | dev add [name] NAME type TYPE */
static int dev_add(struct ismctl *c, int argc, char **argv)
{
	const char *type = NULL, *name = NULL, *pos[2];
	struct nl_req req;
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
	ism_req(c, &req, ISM_CMD_DEV_NEW, 0);
	nl_attr_put_str(&req, ISM_ATTR_DEV_TYPE, type);
	nl_attr_put_str(&req, ISM_ATTR_DEV_NAME, name);
	return report(c, nl_talk(&c->nl, &req, NULL, NULL));
}

/*
 * How often dev del asks whether the device is gone, and after how many
 * requests it says why it still waits (if stderr is a terminal).
 */
#define DEL_POLL_MS	50
#define DEL_NOTE_POLLS	20

static int going_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[ISM_ATTR_MAX + 1];
	bool *going = arg;

	if (ism_parse(nlh, tb) < 0)
		return -EPROTO;
	*going = tb[ISM_ATTR_DEV_GOING] != NULL;
	return 0;
}

/*
 * 1 while device @name is being removed; 0 once it is gone, or if the
 * device of that name is not being removed: the name was reused by a new
 * device after ours went. Else -errno.
 */
static int dev_going(struct ismctl *c, const char *name)
{
	struct nl_req req;
	bool going = false;
	int err;

	ism_req(c, &req, ISM_CMD_DEV_GET, 0);
	nl_attr_put_str(&req, ISM_ATTR_DEV_NAME, name);
	err = nl_talk(&c->nl, &req, going_cb, &going);
	if (err == -ENODEV)
		return 0;
	return err ? err : going;
}

/* Ctrl-C ended the wait: the kernel goes on removing the device. */
static int dev_del_interrupted(struct ismctl *c, const char *name,
			       const sigset_t *mask)
{
	fprintf(stderr, "ismctl: %s: stopped waiting; ", out_esc(c->what));
	fprintf(stderr, "the kernel goes on removing %s\n", out_esc(name));
	/* Die of SIGINT as if not caught, so that a shell script stops. */
	sigprocmask(SIG_SETMASK, mask, NULL);
	signal(SIGINT, SIG_DFL);
	raise(SIGINT);
	return EXIT_ERR;
}

/*
 * DEV_DEL only starts the removal, which lasts as long as the device's
 * clients hold it (SMC-D sockets may, for as long as their applications
 * keep them): wait until it is over, so that what follows a dev del sees
 * the device gone. SIGINT is blocked and taken by the sleep between two
 * requests, so that no handler has to share a flag with this loop. If it
 * is ignored (a background job), the set stays empty: a plain sleep.
 */
static int dev_del_wait(struct ismctl *c, const char *name)
{
	const struct timespec poll = { 0, DEL_POLL_MS * 1000000L };
	struct sigaction old;
	sigset_t set, mask;
	int ret, n = 0;

	sigemptyset(&set);
	if (!sigaction(SIGINT, NULL, &old) && old.sa_handler != SIG_IGN)
		sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, &mask);
	while ((ret = dev_going(c, name)) == 1) {
		if (++n == DEL_NOTE_POLLS && isatty(STDERR_FILENO))
			fprintf(stderr,
				"ismctl: waiting for %s to go (its clients hold it; Ctrl-C stops waiting)\n",
				name);
		if (sigtimedwait(&set, NULL, &poll) == SIGINT)
			return dev_del_interrupted(c, name, &mask);
	}
	sigprocmask(SIG_SETMASK, &mask, NULL);
	return report(c, ret);
}

/* EBUSY: another dev del started the removal; strerror() would not say. */
static int dev_del_busy(struct ismctl *c)
{
	const char *ext = c->nl.ext;

	fprintf(stderr, "ismctl: %s: device is already being removed",
		out_esc(c->what));
	if (*ext)
		fprintf(stderr, " (kernel: %s)", out_esc(ext));
	fputc('\n', stderr);
	return EXIT_ERR;
}

/* dev del [dev] NAME */
static int dev_del(struct ismctl *c, int argc, char **argv)
{
	struct nl_req req;
	int err;

	if (argc == 2 && !strcmp(argv[0], "dev")) {
		argc--;
		argv++;
	}
	if (argc != 1)
		return usage_error("usage: dev del NAME");
	if (check_name("device", argv[0]))
		return EXIT_USAGE;
	snprintf(c->what, sizeof(c->what), "dev del %s", argv[0]);
	ism_req(c, &req, ISM_CMD_DEV_DEL, 0);
	nl_attr_put_str(&req, ISM_ATTR_DEV_NAME, argv[0]);
	err = nl_talk(&c->nl, &req, NULL, NULL);
	if (err == -EBUSY)
		return dev_del_busy(c);
	if (err || c->no_wait)
		return report(c, err);
	return dev_del_wait(c, argv[0]);
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
		       "       ismctl [-n] dev del NAME\n");
		return 0;
	}
	return usage_error("unknown dev command \"%s\"", argv[0]);
}
