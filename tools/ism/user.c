// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: "user": what the files of /dev/ism/NAME (ism_user.ko) may do on
 * each device, the administrator's settings: unkeyed writes, and each
 * user's share of the device and doorbells a second. They are sysfs attributes
 * of /sys/class/ism_user/NAME, not netlink: ism_user is a client of the
 * layer, not the core. Showing needs no privileges, setting is root's.
 */
#include <dirent.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "ismctl.h"

#define USER_SYSFS	"/sys/class/ism_user"

/* Attribute @attr of device @dev, opened with @mode; NULL with errno. */
static FILE *user_open(const char *dev, const char *attr, const char *mode)
{
	char path[256];

	snprintf(path, sizeof(path), USER_SYSFS "/%s/%s", dev, attr);
	return fopen(path, mode);
}

/* The value of attribute @attr of device @dev into @val: 0 or -errno. */
static int user_attr(const char *dev, const char *attr,
		     unsigned long long *val)
{
	FILE *f = user_open(dev, attr, "r");
	int err = 0;

	if (!f)
		return -errno;
	if (fscanf(f, "%llu", val) != 1)
		err = -EIO;
	fclose(f);
	return err;
}

static int user_show_one(const char *dev, int *rows)
{
	unsigned long long unkeyed, dmbs, bytes, rings;
	int err = user_attr(dev, "unkeyed_writes", &unkeyed);

	if (!err)
		err = user_attr(dev, "user_dmbs", &dmbs);
	if (!err)
		err = user_attr(dev, "user_bytes", &bytes);
	if (!err)
		err = user_attr(dev, "user_rings", &rings);
	if (err)
		return err;
	if (!(*rows)++)
		out_text("%-15s %-14s %10s %12s %10s\n", "DEV", "UNKEYED-WRITES",
			 "USER-DMBS", "USER-BYTES", "USER-RINGS");
	out_obj_start(NULL);
	out_str("dev", "%-15s", out_esc(dev));
	if (out_is_json())
		out_kv_uint("unkeyed_writes", unkeyed);
	else
		out_text(" %-14s", unkeyed ? "on" : "off");
	out_uint("user_dmbs", " %10llu", dmbs);
	out_uint("user_bytes", " %12llu", bytes);
	out_uint("user_rings", " %10llu\n", rings);
	out_obj_end();
	return 0;
}

/* user [show [NAME]] */
static int user_show(struct ismctl *c, const char *name)
{
	struct dirent *d;
	int rows = 0, err = 0;
	DIR *dir;

	snprintf(c->what, sizeof(c->what), "user show%s%s", name ? " " : "",
		 name ? name : "");
	if (name && check_name("device", name))
		return EXIT_USAGE;
	dir = opendir(USER_SYSFS);
	if (!dir) {
		fprintf(stderr, "ismctl: no %s: is ism_user loaded?\n",
			USER_SYSFS);
		return EXIT_NOISM;
	}
	out_list_start();
	while (!err && (d = readdir(dir))) {
		if (d->d_name[0] == '.' || (name && strcmp(d->d_name, name)))
			continue;
		err = user_show_one(d->d_name, &rows);
	}
	out_list_end();
	closedir(dir);
	if (!err && name && !rows)
		err = -ENODEV;
	return report(c, err);
}

/* Write @val to attribute @attr of device @dev: 0 or -errno. */
static int user_write(const char *dev, const char *attr, const char *val)
{
	FILE *f = user_open(dev, attr, "w");
	int err = 0;

	if (!f)
		return errno == ENOENT ? -ENODEV : -errno;
	if (fprintf(f, "%s\n", val) < 0)
		err = -errno;
	if (fclose(f) && !err)
		err = -errno;
	return err;
}

/* A decimal number, all of @s. */
static bool user_number(const char *s)
{
	return *s && strspn(s, "0123456789") == strlen(s);
}

/* The sysfs attribute of a numeric setting's name, or NULL. */
static const char *user_limit(const char *setting)
{
	return matches(setting, "user-dmbs") ? "user_dmbs" :
	       matches(setting, "user-bytes") ? "user_bytes" :
	       matches(setting, "user-rings") ? "user_rings" : NULL;
}

/* user set NAME SETTING VALUE [SETTING VALUE...] */
static int user_set(struct ismctl *c, int argc, char **argv)
{
	const char *attr, *val;
	int i, err = 0;

	if (argc < 3 || !(argc & 1))
		return usage_error("usage: user set NAME [unkeyed-writes on|off] [user-dmbs N] [user-bytes N] [user-rings N]");
	if (check_name("device", argv[0]))
		return EXIT_USAGE;
	/* All checked before the first is written. */
	for (i = 1; i < argc; i += 2) {
		val = argv[i + 1];
		if (matches(argv[i], "unkeyed-writes") ?
		    strcmp(val, "on") && strcmp(val, "off") :
		    !user_limit(argv[i]) || !user_number(val))
			return usage_error("user set: bad setting \"%s %s\"",
					   argv[i], val);
	}
	for (i = 1; i < argc && !err; i += 2) {
		val = argv[i + 1];
		snprintf(c->what, sizeof(c->what), "user set %s %s %s",
			 argv[0], argv[i], val);
		if (matches(argv[i], "unkeyed-writes")) {
			attr = "unkeyed_writes";
			val = strcmp(val, "on") ? "0" : "1";
		} else {
			attr = user_limit(argv[i]);
		}
		err = user_write(argv[0], attr, val);
	}
	return report(c, err);
}

/* user [show [NAME] | set NAME SETTING VALUE...] */
int do_user(struct ismctl *c, int argc, char **argv)
{
	if (!argc)
		return user_show(c, NULL);
	if (matches(argv[0], "show") || matches(argv[0], "list")) {
		if (argc > 2)
			return usage_error("user show takes at most one device name");
		return user_show(c, argc == 2 ? argv[1] : NULL);
	}
	if (matches(argv[0], "set"))
		return user_set(c, argc - 1, argv + 1);
	return usage_error("unknown user command \"%s\"", argv[0]);
}
