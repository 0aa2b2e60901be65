// SPDX-License-Identifier: GPL-2.0
/*
 * ism_fault: the state of the layer (-s), one item a line, and its hash:
 * modules, sysfs entries, event threads, what the ism family and SMC's
 * dump. Taken without faults, after a run and its undoing; see "-s" in
 * ism_fault.c's help text.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/smc.h>
#include <linux/ism.h>

#include "ism_fault.h"
#include "../../ism/attr-gen.h"

static FILE *state_f;
uint64_t state_hash;
/* SMC's generic netlink family, for its SMC-D devices. */
static struct nl_sock nl_smc;

static void __printf(1, 2) sput(const char *fmt, ...)
{
	char line[8192];
	va_list ap;
	int len, i;

	va_start(ap, fmt);
	len = vsnprintf(line, sizeof(line) - 1, fmt, ap);
	va_end(ap);
	if (len < 0)
		return;
	if (len > (int)sizeof(line) - 2)
		len = sizeof(line) - 2;
	line[len++] = '\n';
	line[len] = '\0';
	for (i = 0; i < len; i++) {
		state_hash ^= (unsigned char)line[i];
		state_hash *= 0x100000001b3ULL;
	}
	fputs(line, state_f);
}

static int cmp_str(const void *a, const void *b)
{
	return strcmp(*(char * const *)a, *(char * const *)b);
}

#define MAX_NAMES	4096

/*
 * The sorted names of @dir's entries that begin with @prefix (all if NULL;
 * only directories if @dirs), into @names. Return: how many.
 */
static size_t dir_names(const char *dir, const char *prefix, bool dirs,
			char **names)
{
	struct dirent *de;
	size_t n = 0;
	DIR *d = opendir(dir);

	if (!d)
		return 0;
	while ((de = readdir(d)) && n < MAX_NAMES) {
		if (de->d_name[0] == '.' ||
		    (prefix && strncmp(de->d_name, prefix, strlen(prefix))) ||
		    (dirs && de->d_type != DT_DIR))
			continue;
		names[n] = strdup(de->d_name);
		if (!names[n])
			die("strdup");
		n++;
	}
	closedir(d);
	qsort(names, n, sizeof(names[0]), cmp_str);
	return n;
}

/*
 * "@tag NAME" for each entry of @dir that begins with @prefix; with @sub
 * also "@tag NAME/SUB" for each directory SUB in it.
 */
static void state_dir(const char *tag, const char *dir, const char *prefix,
		      bool sub)
{
	static char *names[MAX_NAMES], *subs[MAX_NAMES];
	size_t n = dir_names(dir, prefix, false, names), i, j, k;
	char path[PATH_MAX];

	for (i = 0; i < n; i++) {
		sput("%s %s", tag, names[i]);
		if (sub) {
			snprintf(path, sizeof(path), "%s/%s", dir, names[i]);
			k = dir_names(path, NULL, true, subs);
			for (j = 0; j < k; j++) {
				sput("%s %s/%s", tag, names[i], subs[j]);
				free(subs[j]);
			}
		}
		free(names[i]);
	}
}

/* The SMC-D bridge's devices, children of the ISM devices, with theirs. */
static void state_bridges(void)
{
	static char *devs[MAX_NAMES];
	size_t n = dir_names("/sys/class/ism", NULL, false, devs), i;
	char path[PATH_MAX];

	for (i = 0; i < n; i++) {
		snprintf(path, sizeof(path), "/sys/class/ism/%s", devs[i]);
		state_dir("device", path, "ism-", true);
		free(devs[i]);
	}
}

/* /proc/modules without sizes and addresses. */
static void state_modules(void)
{
	char line[4096], name[256], refs[32], users[2048], st[32];
	FILE *f = fopen("/proc/modules", "re");

	if (!f)
		die("/proc/modules");
	while (fgets(line, sizeof(line), f)) {
		if (sscanf(line, "%255s %*s %31s %2047s %31s", name, refs,
			   users, st) == 4)
			sput("module %s %s %s %s", name, refs, users, st);
	}
	fclose(f);
}

unsigned long pid_floor;

/* The threads above pid_floor whose name begins with @prefix, sorted. */
static void state_threads(const char *prefix)
{
	static char *pids[MAX_NAMES], *comms[MAX_NAMES];
	size_t n = dir_names("/proc", NULL, true, pids), i, k = 0;
	char path[64], comm[64];
	ssize_t len;
	int fd;

	for (i = 0; i < n; i++) {
		if (pids[i][0] >= '0' && pids[i][0] <= '9' &&
		    strtoul(pids[i], NULL, 10) > pid_floor) {
			snprintf(path, sizeof(path), "/proc/%s/comm", pids[i]);
			fd = open(path, O_RDONLY | O_CLOEXEC);
			len = fd < 0 ? -1 : read(fd, comm, sizeof(comm) - 1);
			if (fd >= 0)
				close(fd);
			if (len > 0) {
				comm[len] = '\0';
				comm[strcspn(comm, "\n")] = '\0';
				if (!strncmp(comm, prefix, strlen(prefix)))
					comms[k++] = strdup(comm);
			}
		}
		free(pids[i]);
	}
	qsort(comms, k, sizeof(comms[0]), cmp_str);
	for (i = 0; i < k; i++) {
		sput("thread %s", comms[i] ? comms[i] : "?");
		free(comms[i]);
	}
}

/*
 * Append " KEY=VALUE" for attribute @a to @line (of @size, @len used): a
 * string if @str, a number if it has 1, 2, 4 or 8 bytes, else hex.
 */
static size_t put_attr(char *line, size_t size, size_t len, const char *key,
		       const struct nlattr *a, bool str)
{
	const unsigned char *p = nl_attr_data(a);
	size_t plen = nl_attr_len(a);
	uint64_t v = 0;
	size_t i;

	if (len >= size)
		return len;
	if (str && nl_attr_is_str(a))
		return len + snprintf(line + len, size - len, " %s=%s", key,
				      (const char *)p);
	if (plen == 1 || plen == 2 || plen == 4 || plen == 8) {
		memcpy(&v, p, plen);	/* little endian */
		return len + snprintf(line + len, size - len, " %s=%llu", key,
				      (unsigned long long)v);
	}
	len += snprintf(line + len, size - len, " %s=", key);
	for (i = 0; i < plen && len < size; i++)
		len += snprintf(line + len, size - len, "%02x", p[i]);
	return len;
}

/*
 * Append attribute @a of the ism family to @line, named and typed as the
 * family's spec has it (attr-gen.h, ismctl's table): a nest as its
 * attributes, their keys after @prefix and the nest's name; one the table
 * does not know as "attrN", in hex.
 */
static size_t put_ism_attr(char *line, size_t size, size_t len,
			   const char *prefix, const struct nlattr *a)
{
	uint16_t type = nl_attr_type(a);
	const struct nl_policy *info = NULL;
	const struct nlattr *c;
	char key[128];

	if (type <= ISM_ATTR_MAX && ism_attr_info[type].name)
		info = &ism_attr_info[type];
	if (!info) {
		snprintf(key, sizeof(key), "%sattr%u", prefix, type);
		return put_attr(line, size, len, key, a, false);
	}
	snprintf(key, sizeof(key), "%s%s", prefix, info->name);
	if (info->kind != NL_ATTR_NESTED)
		return put_attr(line, size, len, key, a,
				info->kind == NL_ATTR_STRING);
	strncat(key, ".", sizeof(key) - strlen(key) - 1);
	nl_attr_for_each_nested(c, a)
		len = put_ism_attr(line, size, len, key, c);
	return len;
}

/* One message of an ism dump as one line, without the counters. */
static int ism_state_cb(const struct nlmsghdr *nlh, void *arg)
{
	const char *tag = arg;
	const struct nlattr *a;
	char line[4096];
	uint16_t type;
	size_t len;

	len = snprintf(line, sizeof(line), "%s", tag);
	genl_attr_for_each(a, nlh) {
		type = nl_attr_type(a);
		if (type != ISM_ATTR_PAD && type != ISM_ATTR_DEV_STATS)
			len = put_ism_attr(line, sizeof(line), len, "", a);
	}
	sput("%s", line);
	return 0;
}

/* One SMC-D device of SMC's dump: its attributes, in hex. */
static int smc_state_cb(const struct nlmsghdr *nlh, void *arg)
{
	const unsigned char *p = genl_attr_data(nlh);
	size_t plen = genl_attr_len(nlh);
	char line[4096];
	size_t len, i;

	(void)arg;
	len = snprintf(line, sizeof(line), "smcd ");
	for (i = 0; i < plen && len < sizeof(line) - 3; i++)
		len += snprintf(line + len, sizeof(line) - len, "%02x", p[i]);
	sput("%s", line);
	return 0;
}

/* Write the state to @path. Return: 0, or a negative errno. */
static int state(const char *path)
{
	static const struct {
		uint8_t cmd;
		const char *tag;
	} dumps[] = {
		{ ISM_CMD_DEV_GET, "dev" },
		{ ISM_CMD_CLIENT_GET, "client" },
		{ ISM_CMD_DMB_GET, "dmb" },
	};
	struct nl_req req;
	size_t i;
	int err;

	state_f = fopen(path, "we");
	if (!state_f)
		die(path);
	state_hash = 0xcbf29ce484222325ULL;
	state_modules();
	state_dir("class", "/sys/class/ism", NULL, false);
	state_dir("sysmodule", "/sys/module", "ism_", false);
	state_bridges();
	state_threads("ism_evt");
	err = nl_reopen(&nl_aux, ISM_GENL_NAME);
	if (err == -ENOENT)
		sput("ism none");
	for (i = 0; !err && i < ARRAY_SIZE(dumps); i++)
		err = ism_talk(&nl_aux, dumps[i].cmd, NLM_F_DUMP, NULL, NULL,
			       ism_state_cb, (void *)dumps[i].tag);
	if (err && err != -ENOENT)
		goto out;
	/*
	 * Resolving SMC's family makes the kernel load smc.ko if it can
	 * (request_module() of the family's alias): a snapshot must not
	 * change what it looks at, so ask only a loaded smc.
	 */
	err = access("/sys/module/smc", F_OK) ? -ENOENT :
	      nl_reopen(&nl_smc, SMC_GENL_FAMILY_NAME);
	if (err == -ENOENT) {
		sput("smc none");
		err = 0;
	} else if (!err) {
		genl_req_init(&req, nl_smc.family, SMC_NETLINK_GET_DEV_SMCD,
			      SMC_GENL_FAMILY_VERSION, NLM_F_ACK | NLM_F_DUMP);
		err = nl_talk(&nl_smc, &req, smc_state_cb, NULL);
	}
out:
	if (fclose(state_f) && !err)
		err = -errno;
	return err;
}

void state_or_die(const char *path)
{
	int err = state(path);

	if (err) {
		errno = -err;
		die("state");
	}
}
