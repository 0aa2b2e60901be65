// SPDX-License-Identifier: GPL-2.0
/*
 * ism_fault: run one operation on the ISM layer (a module load or unload,
 * or one request to the "ism" generic netlink family) with the Nth
 * fault-injectable call the kernel makes for it failing, through the
 * per-task /proc/thread-self/fail-nth of CONFIG_FAULT_INJECTION. The
 * value is reset on fork, so this program writes it itself, right before
 * the one system call under test, and reads it back right after. Prints
 * one line saying whether the fault was injected and what the operation
 * returned; optionally whether it took effect, undoes it, and describes
 * the state of the layer afterwards. One process runs a whole range of N:
 * starting one is slow on the emulated test machine. See the help text
 * below and tests/faults.sh.
 */
#define _GNU_SOURCE
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/smc.h>
#include <linux/ism.h>

#include "../../lib/nl/nl.h"
#include "../../include/compiler.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char help[] =
"NAME\n"
"    ism_fault - run an ISM operation with its Nth allocation failing\n"
"\n"
"SYNOPSIS\n"
"    ism_fault [-n RANGE [-t STEP] [-i COUNT]] [-u] [-s PREFIX [-p PID]]\n"
"              [-w] OPERATION [ARG...]\n"
"    ism_fault -h | --help\n"
"\n"
"DESCRIPTION\n"
"    Runs OPERATION with the Nth fault-injectable call the kernel makes on\n"
"    its behalf failing (failslab, fail_page_alloc: usually a memory\n"
"    allocation), through the per-task /proc/thread-self/fail-nth of\n"
"    CONFIG_FAULT_INJECTION, once for each N of RANGE. The value is written\n"
"    right before the system call under test and read back right after\n"
"    it: 0 means the fault was injected; otherwise the operation ended\n"
"    before its Nth call and ran unharmed. Then it is set to 0. For\n"
"    netlink requests the family is resolved and a new socket opened\n"
"    before, and the whole reply or dump is received before the value is\n"
"    read back. Everything else runs without faults.\n"
"\n"
"    Which calls can fail depends on the settings under\n"
"    /sys/kernel/debug/{failslab,fail_page_alloc}: by default both skip\n"
"    allocations that may sleep (ignore-gfp-wait), i.e. nearly all of\n"
"    them; fail-nth does not depend on their probability.\n"
"\n"
"OPERATIONS\n"
"    insmod FILE [PARAM...]   load a module (finit_module); its name is\n"
"                             FILE's without directory and .ko\n"
"    rmmod NAME               unload a module (delete_module, O_NONBLOCK)\n"
"    dev-add TYPE NAME        ISM_CMD_DEV_NEW: create a device\n"
"    dev-del NAME             ISM_CMD_DEV_DEL: delete a device\n"
"    dev-get [NAME]           ISM_CMD_DEV_GET: one device, or the dump\n"
"    dmb-dump [NAME]          ISM_CMD_DMB_GET dump, of device NAME if given\n"
"    client-dump              ISM_CMD_CLIENT_GET dump\n"
"    stats-reset [NAME]       ISM_CMD_STATS_RESET, of device NAME or all\n"
"    none                     nothing (for -s)\n"
"\n"
"OPTIONS\n"
"    -n, --nth RANGE\n"
"                   N (one run), FIRST-LAST or FIRST-: every STEP-th N, up\n"
"                   from FIRST until a run completes unharmed (no N beyond\n"
"                   can fail), or to LAST; down to LAST if it is below\n"
"                   FIRST. N = 0, the default, injects nothing but counts\n"
"                   the calls.\n"
"    -t, --step STEP\n"
"                   the step through RANGE (default 1)\n"
"    -i, --stop-in-loader COUNT\n"
"                   insmod, down: stop after COUNT runs in a row whose fault\n"
"                   hit the module loader before it called the module's\n"
"                   init (where=loader; runs with no where= do not count).\n"
"                   N is no exact position: the calls of two loads vary a\n"
"                   little (e.g. when a slab needs a new page).\n"
"    -u, --undo     if the operation took effect, undo it: rmmod the\n"
"                   module, delete the device, or create it again with its\n"
"                   type (not for rmmod)\n"
"    -s, --state PREFIX\n"
"                   after each run (and its undoing) write the state of the\n"
"                   layer to PREFIX.N, one item a line, and print its hash\n"
"                   (undoing a dev-del: the state before to PREFIX.N, the\n"
"                   one after to PREFIX.N.undone):\n"
"                   /proc/modules (name, references, users, state); the\n"
"                   entries of /sys/class/ism, of /sys/module named ism_*, of\n"
"                   /sys/class/ism/*/ism-* and their subdirectories; the\n"
"                   threads named ism_evt* (SMC-D event workqueues); the ism\n"
"                   family's devices (without counters), clients and DMBs;\n"
"                   SMC's SMC-D devices\n"
"    -p, --pid-floor PID\n"
"                   leave the threads up to PID out of the state: reading\n"
"                   the names of all is slow on an emulated machine, and\n"
"                   the ones that appear later have higher PIDs\n"
"    -w, --hide-alloc-warnings\n"
"                   keep the stack dumps the kernel prints for a failed\n"
"                   allocation without __GFP_NOWARN (warn_alloc: \"vmalloc\n"
"                   error\", \"page allocation failure\"; \"percpu: allocation\n"
"                   failed\") off the console. The console log level is\n"
"                   set to 4 (warnings hidden) during each run; afterwards\n"
"                   every kernel log record this hid is printed on stdout as\n"
"                   \"kmsg: TEXT\", but for those dumps, of which only the\n"
"                   first line is printed, as \"allocwarn: TEXT\". Never hidden:\n"
"                   a record that looks like a kernel report (WARNING, BUG,\n"
"                   KASAN, a call trace of its own, ...). Needs root.\n"
"    -h, --help     show this text\n"
"\n"
"OUTPUT\n"
"    For each run, after its kmsg: and allocwarn: lines, one line:\n"
"        n=N injected=I rc=R [calls=C] [msgs=M] [init=T] [where=W]\n"
"        [effect=E] [undo=U] [state=H [undone=H2]] [allocwarn=A]\n"
"    I  1 if the Nth call was reached and failed, else 0\n"
"    R  the operation's result: 0 or a negative errno (for netlink, the\n"
"       error the kernel sent back or the one a send or receive returned,\n"
"       e.g. -105 ENOBUFS for a reply the kernel could not allocate)\n"
"    C  with I = 0: the fault-injectable calls the operation made\n"
"    M  netlink operations: the data messages received (a dump that ends\n"
"       with R = 0 must have them all)\n"
"    T  insmod, when the initcall_start trace event is enabled in\n"
"       /sys/kernel/tracing (its buffer is cleared): 1 if the module's init\n"
"       function ran\n"
"    W  insmod with T, I = 1: \"loader\" if the fault came before the\n"
"       module's init was called (it did not run, or the kernel logged the\n"
"       fault before the trace event: needs verbose >= 1 in failslab and\n"
"       fail_page_alloc, whose \"FAULT_INJECTION\" records never become\n"
"       kmsg: lines, and the trace clock \"perf\", printk's local_clock()),\n"
"       \"init\" if after; none if unknown\n"
"    E  insmod, rmmod, dev-add, dev-del: 1 if the operation took effect\n"
"       (the module or device is there, or gone)\n"
"    U  with -u and E = 1: the result of undoing it\n"
"    H  with -s: 16 hex digits, the FNV-1a hash of PREFIX.N\n"
"    H2 the same for PREFIX.N.undone\n"
"    A  with -w: the stack dumps kept off the console\n"
"\n"
"EXIT STATUS\n"
"    0  the operation ran (whatever it returned)\n"
"    1  this program failed: no fail-nth (kernel without\n"
"       CONFIG_FAULT_INJECTION) with -n, no ism family, a file not found\n"
"    2  usage error\n"
"\n"
"EXAMPLES\n"
"    ism_fault -n 3 dev-add loopback f1\n"
"    ism_fault -u -s /tmp/st -n 1- dev-add loopback f1\n"
"    ism_fault -w -u -i 12 -n 400-1 insmod /ism/modules/ism_lo.ko\n"
"    ism_fault dmb-dump\n"
"    ism_fault -s /tmp/base none\n"
"\n"
"SEE ALSO\n"
"    tools/testing/ism/tests/faults.sh,\n"
"    Documentation/fault-injection/fault-injection.rst (Linux)\n";

/* nl_op: the operation's; nl_aux: ism requests after it; nl_smc: SMC's. */
static struct nl_sock nl_op, nl_aux, nl_smc;
/* Data messages the operation's request received. */
static unsigned int op_msgs;

static void die(const char *what)
{
	fprintf(stderr, "ism_fault: %s: %s\n", what, strerror(errno));
	exit(1);
}

/* ---- netlink (tools/lib/nl; nothing there allocates but nl_open) ---- */

/*
 * Close @nl and open a new socket for @family: a dump that a fault cut
 * short may leave messages or a running dump behind, and a family that
 * went with its module may be back under another id.
 * Return: 0, or a negative errno (-ENOENT: no such family).
 */
static int nl_reopen(struct nl_sock *nl, const char *family)
{
	nl_close(nl);
	return genl_open(nl, family);
}

/* Data messages: counted, then handed to the caller's callback. */
struct talk {
	nl_msg_cb cb;
	void *arg;
	unsigned int msgs;
};

static int count_cb(const struct nlmsghdr *nlh, void *data)
{
	struct talk *t = data;

	t->msgs++;
	return t->cb ? t->cb(nlh, t->arg) : 0;
}

/* One ism request on @nl, whose family is resolved; reply to @cb. */
static int ism_talk(struct nl_sock *nl, uint8_t cmd, uint16_t flags,
		    const char *type, const char *name, nl_msg_cb cb, void *arg)
{
	struct talk t = { .cb = cb, .arg = arg };
	struct nl_req req;
	int err;

	genl_req_init(&req, nl->family, cmd, ISM_GENL_VERSION,
		      NLM_F_ACK | flags);
	if (type)
		nl_attr_put_str(&req, ISM_ATTR_DEV_TYPE, type);
	if (name)
		nl_attr_put_str(&req, ISM_ATTR_DEV_NAME, name);
	err = nl_talk(nl, &req, count_cb, &t);
	if (nl == &nl_op)
		op_msgs = t.msgs;
	return err;
}

/* ---- operations ---- */

enum op_kind { OP_NONE, OP_INSMOD, OP_RMMOD, OP_NL };

/* For OP_NL: whether the request is a dump. */
enum op_dump { DUMP_NEVER, DUMP_ALWAYS, DUMP_WITHOUT_NAME };

/**
 * struct op - an operation
 * @name: as on the command line
 * @min_args: fewest arguments
 * @max_args: most arguments
 * @kind: what it does
 * @cmd: for OP_NL, the ism command
 * @dump: for OP_NL, whether it is a dump
 * @type_arg: for OP_NL, the first argument is a device type
 */
struct op {
	const char *name;
	int min_args, max_args;
	enum op_kind kind;
	uint8_t cmd;
	enum op_dump dump;
	bool type_arg;
};

static const struct op ops[] = {
	{ "insmod", 1, 64, OP_INSMOD, 0, DUMP_NEVER, false },
	{ "rmmod", 1, 1, OP_RMMOD, 0, DUMP_NEVER, false },
	{ "dev-add", 2, 2, OP_NL, ISM_CMD_DEV_NEW, DUMP_NEVER, true },
	{ "dev-del", 1, 1, OP_NL, ISM_CMD_DEV_DEL, DUMP_NEVER, false },
	{ "dev-get", 0, 1, OP_NL, ISM_CMD_DEV_GET, DUMP_WITHOUT_NAME, false },
	{ "dmb-dump", 0, 1, OP_NL, ISM_CMD_DMB_GET, DUMP_ALWAYS, false },
	{ "client-dump", 0, 0, OP_NL, ISM_CMD_CLIENT_GET, DUMP_ALWAYS, false },
	{ "stats-reset", 0, 1, OP_NL, ISM_CMD_STATS_RESET, DUMP_NEVER, false },
	{ "none", 0, 0, OP_NONE, 0, DUMP_NEVER, false },
};

/* What prepare() found out and built. */
static int mod_fd = -1;
static char mod_params[4096];
static char mod_name[64];
static const char *dev_name;
static char dev_type[ISM_NAME_MAXLEN + 1];

static void prep_insmod(char **args, int nargs)
{
	const char *base = strrchr(args[0], '/');
	size_t len = 0;
	char *p;
	int i;

	mod_fd = open(args[0], O_RDONLY | O_CLOEXEC);
	if (mod_fd < 0)
		die(args[0]);
	base = base ? base + 1 : args[0];
	snprintf(mod_name, sizeof(mod_name), "%s", base);
	p = strstr(mod_name, ".ko");
	if (p)
		*p = '\0';
	for (p = mod_name; *p; p++)
		if (*p == '-')
			*p = '_';
	for (i = 1; i < nargs; i++) {
		int n = snprintf(mod_params + len, sizeof(mod_params) - len,
				 "%s%s", i > 1 ? " " : "", args[i]);

		if (n < 0 || (size_t)n >= sizeof(mod_params) - len) {
			errno = E2BIG;
			die("module parameters");
		}
		len += n;
	}
}

static int type_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *a;

	(void)arg;
	genl_attr_for_each(a, nlh) {
		if (nl_attr_type(a) == ISM_ATTR_DEV_TYPE && nl_attr_is_str(a))
			snprintf(dev_type, sizeof(dev_type), "%s",
				 (const char *)nl_attr_data(a));
	}
	return 0;
}

/* A fresh socket for each run, see nl_reopen(). */
static void prep_nl(void)
{
	int err = nl_reopen(&nl_op, ISM_GENL_NAME);

	if (err) {
		errno = -err;
		die("generic netlink family " ISM_GENL_NAME);
	}
}

/* Everything but the system calls themselves, before arming. */
static void prepare(const struct op *op, char **args, int nargs, bool undo)
{
	const char *name = nargs > op->type_arg ? args[op->type_arg] : NULL;
	int err;

	switch (op->kind) {
	case OP_NONE:
		break;
	case OP_INSMOD:
		prep_insmod(args, nargs);
		break;
	case OP_RMMOD:
		if (snprintf(mod_name, sizeof(mod_name), "%s", args[0]) >=
		    (int)sizeof(mod_name)) {
			errno = ENAMETOOLONG;
			die(args[0]);
		}
		break;
	case OP_NL:
		dev_name = name;
		prep_nl();
		/* Undoing a DEV_DEL creates the device again: of its type. */
		if (undo && op->cmd == ISM_CMD_DEV_DEL) {
			err = ism_talk(&nl_op, ISM_CMD_DEV_GET, 0, NULL, name,
				       type_cb, NULL);
			if (err || !dev_type[0]) {
				errno = err ? -err : ENOENT;
				die(name);
			}
		}
		if (op->type_arg)
			snprintf(dev_type, sizeof(dev_type), "%s", args[0]);
		break;
	}
}

/* The system calls under test. Return: 0 or a negative errno. */
static int run(const struct op *op)
{
	uint16_t flags = 0;

	switch (op->kind) {
	case OP_NONE:
		return 0;
	case OP_INSMOD:
		return syscall(SYS_finit_module, mod_fd, mod_params, 0) ?
		       -errno : 0;
	case OP_RMMOD:
		return syscall(SYS_delete_module, mod_name, O_NONBLOCK) ?
		       -errno : 0;
	case OP_NL:
		if (op->dump == DUMP_ALWAYS ||
		    (op->dump == DUMP_WITHOUT_NAME && !dev_name))
			flags = NLM_F_DUMP;
		return ism_talk(&nl_op, op->cmd, flags,
				op->type_arg ? dev_type : NULL, dev_name,
				NULL, NULL);
	}
	return -EINVAL;
}

/* ---- effect and undo, without faults ---- */

static bool module_loaded(const char *name)
{
	char line[512];
	size_t len = strlen(name);
	bool found = false;
	FILE *f = fopen("/proc/modules", "re");

	if (!f)
		die("/proc/modules");
	while (!found && fgets(line, sizeof(line), f))
		found = !strncmp(line, name, len) && line[len] == ' ';
	fclose(f);
	return found;
}

/* Return: 1 if device @name exists, 0 if not; exits on other errors. */
static int dev_exists(const char *name)
{
	int err;

	if (!nl_aux.buf) {
		err = nl_reopen(&nl_aux, ISM_GENL_NAME);
		if (err) {
			errno = -err;
			die("generic netlink family " ISM_GENL_NAME);
		}
	}
	err = ism_talk(&nl_aux, ISM_CMD_DEV_GET, 0, NULL, name, NULL, NULL);
	if (err && err != -ENODEV) {
		errno = -err;
		die("ISM_CMD_DEV_GET");
	}
	return !err;
}

/*
 * ISM_CMD_DEV_DEL returns once the deletion is queued; it is complete
 * when the device is gone. Return: 0 once gone, -ETIMEDOUT after 60 s.
 */
static int dev_wait_gone(const char *name)
{
	struct timespec pause = { 0, 10 * 1000 * 1000 };
	int i;

	for (i = 0; i < 6000; i++) {
		if (!dev_exists(name))
			return 0;
		nanosleep(&pause, NULL);
	}
	return -ETIMEDOUT;
}

/*
 * Return: 1 if @op took effect, 0 if not, -1 if it has no effect to see.
 * @rc: what the operation returned.
 */
static int effect(const struct op *op, int rc)
{
	switch (op->kind) {
	case OP_INSMOD:
		return module_loaded(mod_name);
	case OP_RMMOD:
		return !module_loaded(mod_name);
	case OP_NL:
		if (op->cmd == ISM_CMD_DEV_NEW)
			return dev_exists(dev_name);
		if (op->cmd == ISM_CMD_DEV_DEL)
			return !rc ? !dev_wait_gone(dev_name) :
				     !dev_exists(dev_name);
		return -1;
	case OP_NONE:
		break;
	}
	return -1;
}

/* Return: 0 or a negative errno. */
static int undo(const struct op *op)
{
	struct timespec pause = { 0, 100 * 1000 * 1000 };
	int i, err = -EINVAL;

	switch (op->kind) {
	case OP_INSMOD:
		/* A reference may take a moment to go (e.g. SMC's). */
		for (i = 0; i < 50; i++) {
			err = syscall(SYS_delete_module, mod_name, O_NONBLOCK) ?
			      -errno : 0;
			if (err != -EAGAIN && err != -EBUSY)
				break;
			nanosleep(&pause, NULL);
		}
		return err;
	case OP_NL:
		if (op->cmd == ISM_CMD_DEV_NEW) {
			err = ism_talk(&nl_aux, ISM_CMD_DEV_DEL, 0, NULL,
				       dev_name, NULL, NULL);
			return err ? err : dev_wait_gone(dev_name);
		}
		if (op->cmd == ISM_CMD_DEV_DEL)
			return ism_talk(&nl_aux, ISM_CMD_DEV_NEW, 0, dev_type,
					dev_name, NULL, NULL);
		break;
	case OP_RMMOD:
	case OP_NONE:
		break;
	}
	return err;
}

/* ---- the state (-s) ---- */

static FILE *state_f;
static uint64_t state_hash;	/* FNV-1a 64 */

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

/* -p: threads with this PID or a lower one are left out of the state. */
static unsigned long pid_floor;

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

static const char * const ism_attr_names[ISM_ATTR_MAX + 1] = {
	[ISM_ATTR_DEV_NAME] = "name",
	[ISM_ATTR_DEV_TYPE] = "type",
	[ISM_ATTR_DEV_GID] = "gid",
	[ISM_ATTR_DEV_CHID] = "chid",
	[ISM_ATTR_DEV_PARENT] = "parent",
	[ISM_ATTR_DEV_MAX_DMBS] = "max_dmbs",
	[ISM_ATTR_DEV_MAX_DMB_LEN] = "max_dmb_len",
	[ISM_ATTR_DEV_DMBS] = "dmbs",
	[ISM_ATTR_DEV_CLIENTS] = "clients",
	[ISM_ATTR_DMB_TOKEN] = "token",
	[ISM_ATTR_DMB_INDEX] = "index",
	[ISM_ATTR_DMB_LEN] = "len",
	[ISM_ATTR_DMB_RGID] = "rgid",
	[ISM_ATTR_CLIENT_NAME] = "client",
	[ISM_ATTR_CLIENT_ID] = "id",
	[ISM_ATTR_CLIENT_DEVS] = "devs",
	[ISM_ATTR_CLIENT_DMBS] = "client_dmbs",
};

/* One message of an ism dump as one line, without the counters. */
static int ism_state_cb(const struct nlmsghdr *nlh, void *arg)
{
	const char *tag = arg;
	const struct nlattr *a, *c;
	char line[4096], key[16];
	uint16_t type;
	size_t len;
	bool str;

	len = snprintf(line, sizeof(line), "%s", tag);
	genl_attr_for_each(a, nlh) {
		type = nl_attr_type(a);
		if (type == ISM_ATTR_PAD || type == ISM_ATTR_DEV_STATS)
			continue;
		if (type == ISM_ATTR_DEV_CLIENTS) {
			nl_attr_for_each_nested(c, a)
				len = put_attr(line, sizeof(line), len,
					       "client", c, true);
			continue;
		}
		str = type == ISM_ATTR_DEV_NAME || type == ISM_ATTR_DEV_TYPE ||
		      type == ISM_ATTR_DEV_PARENT ||
		      type == ISM_ATTR_CLIENT_NAME;
		if (type <= ISM_ATTR_MAX && ism_attr_names[type]) {
			len = put_attr(line, sizeof(line), len,
				       ism_attr_names[type], a, str);
		} else {
			snprintf(key, sizeof(key), "attr%u", type);
			len = put_attr(line, sizeof(line), len, key, a, false);
		}
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
	err = nl_reopen(&nl_smc, SMC_GENL_FAMILY_NAME);
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

static void state_or_die(const char *path)
{
	int err = state(path);

	if (err) {
		errno = -err;
		die("state");
	}
}

/* ---- fail-nth ---- */

static int nth_fd = -1;

/* Write @n to fail-nth; only a stack buffer, no allocation. */
static int nth_write(unsigned int n)
{
	char num[16];
	int len = snprintf(num, sizeof(num), "%u", n);

	return pwrite(nth_fd, num, len, 0) == len ? 0 : -1;
}

static int nth_read(unsigned int *n)
{
	char num[16];
	ssize_t len = pread(nth_fd, num, sizeof(num) - 1, 0);

	if (len <= 0)
		return -1;
	num[len] = '\0';
	*n = strtoul(num, NULL, 10);
	return 0;
}

/* ---- the initcall_start trace event ---- */

#define TRACING		"/sys/kernel/tracing"

/* Whether the trace clock is local_clock(), as the kernel log's. */
static bool trace_clock_perf;

/* Return: whether the event is on; if so, its buffer is now empty. */
static bool initcall_trace_clear(void)
{
	char buf[256] = "";
	ssize_t len;
	int fd = open(TRACING "/events/initcall/initcall_start/enable",
		      O_RDONLY | O_CLOEXEC);

	if (fd < 0)
		return false;
	len = read(fd, buf, 1);
	close(fd);
	if (len != 1 || buf[0] != '1')
		return false;
	fd = open(TRACING "/trace_clock", O_RDONLY | O_CLOEXEC);
	len = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (fd >= 0)
		close(fd);
	buf[len > 0 ? len : 0] = '\0';
	trace_clock_perf = strstr(buf, "[perf]");
	fd = open(TRACING "/trace", O_WRONLY | O_TRUNC | O_CLOEXEC);
	if (fd < 0)
		die(TRACING "/trace");
	close(fd);
	return true;
}

/*
 * Return: whether an initcall_start event was traced; @usec: its time in
 * microseconds if the trace clock is "perf", else -1.
 */
static bool initcall_traced(long long *usec)
{
	static char buf[65536];
	ssize_t len, got = 0;
	unsigned long sec, us;
	char *ev, *p;
	int fd = open(TRACING "/trace", O_RDONLY | O_CLOEXEC);

	*usec = -1;
	if (fd < 0)
		die(TRACING "/trace");
	while (got < (ssize_t)sizeof(buf) - 1 &&
	       (len = read(fd, buf + got, sizeof(buf) - 1 - got)) > 0)
		got += len;
	close(fd);
	buf[got] = '\0';
	/* "  ism_fault-123  [001] .....  48.726960: initcall_start: ..." */
	ev = strstr(buf, ": initcall_start:");
	if (!ev)
		return false;
	*ev = '\0';
	p = strrchr(buf, ' ');
	if (trace_clock_perf && p && sscanf(p + 1, "%lu.%lu", &sec, &us) == 2)
		*usec = sec * 1000000LL + us;
	return true;
}

/* ---- the console and the kernel log ---- */

#define PRINTK_SYSCTL	"/proc/sys/kernel/printk"
/* Records at this level and above are kept off the console meanwhile. */
#define QUIET_LEVEL	4

static int kmsg_fd = -1;
static char printk_saved[64];
static int console_saved;

/*
 * Kernel reports that must never be hidden: parse-log.py's list, roughly.
 * Inside a warn_alloc dump only its own "Call Trace:" is expected.
 */
static const char * const report_words[] = {
	"WARNING:", "BUG:", "BUG ", "KASAN", "UBSAN", "KFENCE", "lockdep",
	"locking", "lock held", "unlock balance", "RCU", "INFO: ", "Oops",
	"Call Trace", "general protection", "Kernel panic", "unreferenced",
	"memory leak", "corruption", "refcount_t", "blocked for more",
	"soft lockup", "LOCKUP", "stall", "Unable to handle",
	"stack-protector", "double fault", "invalid opcode", "already free",
	"overwritten", "sleeping function", NULL,
};

static bool looks_like_report(const char *text)
{
	int i;

	for (i = 0; report_words[i]; i++)
		if (strstr(text, report_words[i]))
			return true;
	return false;
}

static bool starts(const char *text, const char *prefix)
{
	return !strncmp(text, prefix, strlen(prefix));
}

/* The first line of a warn_alloc() or pcpu_alloc() failure report. */
static bool alloc_warning(const char *text)
{
	return strstr(text, ": vmalloc error: ") ||
	       strstr(text, ": page allocation failure: ") ||
	       starts(text, "percpu: allocation failed");
}

/*
 * A line of the dump_stack() that follows one: its header, a frame, or the
 * registers of the system call's entry ("RIP: ...", "Code: ...", "RSP:
 * ...", "RAX: ..." to "R13: ..."). A real report among them would start
 * with a line of its own ("WARNING: ...", "BUG: ...").
 */
static bool stack_line(const char *text)
{
	size_t reg = strspn(text, "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789");

	return starts(text, "CPU: ") || starts(text, "Hardware name: ") ||
	       !strcmp(text, "Call Trace:") || text[0] == ' ' ||
	       starts(text, "Code: ") ||
	       (text[0] == 'R' && reg >= 2 && reg <= 3 &&
		starts(text + reg, ": "));
}

/* From now on, kmsg_scan() reads what the kernel logs. */
static void kmsg_start(void)
{
	if (kmsg_fd < 0) {
		kmsg_fd = open("/dev/kmsg", O_RDONLY | O_NONBLOCK | O_CLOEXEC);
		if (kmsg_fd < 0)
			die("/dev/kmsg");
	}
	if (lseek(kmsg_fd, 0, SEEK_END) < 0)
		die("/dev/kmsg: seek");
}

static void console_quiet(void)
{
	ssize_t len;
	int fd;

	fd = open(PRINTK_SYSCTL, O_RDWR | O_CLOEXEC);
	if (fd < 0)
		die(PRINTK_SYSCTL);
	len = read(fd, printk_saved, sizeof(printk_saved) - 1);
	if (len <= 0)
		die(PRINTK_SYSCTL);
	printk_saved[len] = '\0';
	console_saved = atoi(printk_saved);
	if (console_saved > QUIET_LEVEL &&
	    pwrite(fd, "4\n", 2, 0) != 2)
		die(PRINTK_SYSCTL);
	close(fd);
}

static void console_restore(void)
{
	int fd = open(PRINTK_SYSCTL, O_WRONLY | O_CLOEXEC);
	size_t len = strlen(printk_saved);

	if (fd < 0 || write(fd, printk_saved, len) != (ssize_t)len)
		die(PRINTK_SYSCTL);
	close(fd);
}

/*
 * Read what the kernel logged since kmsg_start(). @fault_usec: the time
 * of the first "FAULT_INJECTION: forcing a failure" (fail_*, verbose >= 1),
 * -1 if none; such records are not printed. With @replay, print the
 * records the console did not show because of console_quiet(), but for
 * warn_alloc() dumps: their first line, the stack dump and warn_alloc()'s
 * show_mem() (from "Mem-Info:" to "N pages reserved").
 * Return: the number of those dumps.
 */
static unsigned int kmsg_scan(bool replay, long long *fault_usec)
{
	enum { OUT, STACK, STACK_END, MEMINFO } state = OUT;
	unsigned int dumps = 0;
	char rec[8192];
	ssize_t len;

	*fault_usec = -1;
	for (;;) {
		char *text, *end, *p;
		int level;

		len = read(kmsg_fd, rec, sizeof(rec) - 1);
		if (len < 0 && errno == EPIPE) {
			if (replay)
				printf("kmsg: (ism_fault: kernel log records lost)\n");
			continue;
		}
		if (len <= 0)
			break;
		rec[len] = '\0';
		/* "PRIORITY,SEQ,USEC,FLAGS[,...];TEXT\n[ KEY=VALUE\n...]" */
		text = strchr(rec, ';');
		if (!text)
			continue;
		text++;
		end = strchr(text, '\n');
		if (end)
			*end = '\0';
		level = atoi(rec) & 7;

		if (starts(text, "FAULT_INJECTION: forcing a failure")) {
			p = strchr(rec, ',');
			p = p ? strchr(p + 1, ',') : NULL;
			if (p && *fault_usec < 0)
				*fault_usec = strtoll(p + 1, NULL, 10);
			continue;
		}
		if (!replay)
			continue;
		if (state == STACK && stack_line(text)) {
			if (!strcmp(text, " </TASK>"))
				state = STACK_END;
			continue;
		}
		if (state == STACK_END && !strcmp(text, "Mem-Info:")) {
			state = MEMINFO;
			continue;
		}
		if (state == MEMINFO && !looks_like_report(text)) {
			if (strstr(text, " pages reserved"))
				state = OUT;
			continue;
		}
		state = OUT;
		if (alloc_warning(text) && !looks_like_report(text)) {
			printf("allocwarn: %s\n", text);
			dumps++;
			state = STACK;
			continue;
		}
		/* What the console showed anyway needs no second copy. */
		if (level >= QUIET_LEVEL && level < console_saved)
			printf("kmsg: %s\n", text);
	}
	return dumps;
}

static void usage(void)
{
	fprintf(stderr, "Try 'ism_fault --help'.\n");
	exit(2);
}

/* The options. */
static bool hide, do_undo;
static unsigned int stop_loader;
static const char *state_prefix;

/* Where an insmod's fault came, if known: see "W" in the help text. */
enum where { WHERE_UNKNOWN, WHERE_LOADER, WHERE_INIT };

/*
 * One run of @op with its @nth call failing (none if 0). Prints the result
 * line. Return: whether the fault was injected; @where: where it came.
 */
static bool run_one(const struct op *op, unsigned int nth, enum where *where)
{
	unsigned int left = 0, armed, dumps = 0;
	long long fault_usec = -1, init_usec = -1;
	int rc, eff, undone = 0;
	static const char * const where_name[] = { NULL, "loader", "init" };
	bool traced = false, init = false, before;
	uint64_t hash_before = 0;
	char path[PATH_MAX];

	if (op->kind == OP_NL)
		prep_nl();
	if (op->kind == OP_INSMOD)
		traced = initcall_trace_clear();
	if (hide || traced)
		kmsg_start();
	if (hide)
		console_quiet();

	/* Without a fault to inject: count the calls, with one that never comes. */
	armed = nth ? nth : UINT_MAX;
	if (nth_fd >= 0 && nth_write(armed))
		die("arming fail-nth");
	rc = run(op);
	if (nth_fd >= 0 && nth_read(&left))
		die("reading fail-nth");
	if (nth_fd >= 0 && nth_write(0))
		die("disarming fail-nth");

	if (hide)
		console_restore();
	if (hide || traced)
		dumps = kmsg_scan(hide, &fault_usec);
	if (traced)
		init = initcall_traced(&init_usec);
	*where = WHERE_UNKNOWN;
	if (traced && nth_fd >= 0 && !left) {
		if (!init || (fault_usec >= 0 && init_usec >= 0 &&
			      fault_usec < init_usec))
			*where = WHERE_LOADER;
		else if (fault_usec >= 0 && init_usec >= 0)
			*where = WHERE_INIT;
	}
	eff = effect(op, rc);
	/*
	 * A device created again is not the one deleted (GID, tokens): its
	 * state is taken before as well.
	 */
	before = state_prefix && do_undo && eff == 1 && op->kind == OP_NL &&
		 op->cmd == ISM_CMD_DEV_DEL;
	if (before) {
		snprintf(path, sizeof(path), "%s.%u", state_prefix, nth);
		state_or_die(path);
		hash_before = state_hash;
	}
	if (do_undo && eff == 1)
		undone = undo(op);
	if (state_prefix) {
		snprintf(path, sizeof(path), "%s.%u%s", state_prefix, nth,
			 before ? ".undone" : "");
		state_or_die(path);
	}

	printf("n=%u", nth);
	if (nth_fd < 0)
		printf(" injected=0 rc=%d", rc);
	else if (!left)
		printf(" injected=1 rc=%d", rc);
	else
		printf(" injected=0 rc=%d calls=%u", rc, armed - left);
	if (op->kind == OP_NL)
		printf(" msgs=%u", op_msgs);
	if (traced)
		printf(" init=%d", init);
	if (*where != WHERE_UNKNOWN)
		printf(" where=%s", where_name[*where]);
	if (eff >= 0)
		printf(" effect=%d", eff);
	if (do_undo && eff == 1)
		printf(" undo=%d", undone);
	if (before)
		printf(" state=%016llx undone=%016llx",
		       (unsigned long long)hash_before,
		       (unsigned long long)state_hash);
	else if (state_prefix)
		printf(" state=%016llx", (unsigned long long)state_hash);
	if (hide)
		printf(" allocwarn=%u", dumps);
	printf("\n");
	fflush(stdout);
	return nth_fd >= 0 && !left;
}

/* "N", "FIRST-LAST" or "FIRST-" (LAST 0: open); exits if malformed. */
static void parse_range(const char *range, unsigned int *first,
			unsigned int *last)
{
	const char *arg = range;
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (errno || end == arg || arg[0] == '-' || v >= UINT_MAX)
		goto bad;
	*first = v;
	*last = v;
	if (*end == '-') {
		arg = end + 1;
		*last = 0;
		if (*arg) {
			v = strtoul(arg, &end, 10);
			if (errno || end == arg || arg[0] == '-' || *end ||
			    !v || v >= UINT_MAX)
				goto bad;
			*last = v;
		}
		if (!*first)
			goto bad;
	} else if (*end) {
		goto bad;
	}
	return;
bad:
	fprintf(stderr, "ism_fault: bad N '%s'\n", range);
	usage();
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "nth", required_argument, NULL, 'n' },
		{ "step", required_argument, NULL, 't' },
		{ "stop-in-loader", required_argument, NULL, 'i' },
		{ "undo", no_argument, NULL, 'u' },
		{ "state", required_argument, NULL, 's' },
		{ "pid-floor", required_argument, NULL, 'p' },
		{ "hide-alloc-warnings", no_argument, NULL, 'w' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	unsigned int first = 0, last = 0, step = 1, n, in_loader = 0;
	const struct op *op = NULL;
	enum where where;
	bool injected;
	int c, nargs;
	char *endp;
	size_t i;

	while ((c = getopt_long(argc, argv, "+n:t:i:us:p:wh", longopts,
				NULL)) != -1) {
		switch (c) {
		case 'n':
			parse_range(optarg, &first, &last);
			break;
		case 't':
			errno = 0;
			step = strtoul(optarg, &endp, 10);
			if (errno || *endp || optarg[0] == '-' || !step ||
			    step > 1000000) {
				fprintf(stderr, "ism_fault: bad step '%s'\n",
					optarg);
				usage();
			}
			break;
		case 'i':
			errno = 0;
			stop_loader = strtoul(optarg, &endp, 10);
			if (errno || *endp || optarg[0] == '-' || !stop_loader) {
				fprintf(stderr, "ism_fault: bad count '%s'\n",
					optarg);
				usage();
			}
			break;
		case 'u':
			do_undo = true;
			break;
		case 's':
			state_prefix = optarg;
			break;
		case 'p':
			errno = 0;
			pid_floor = strtoul(optarg, &endp, 10);
			if (errno || *endp || optarg[0] == '-') {
				fprintf(stderr, "ism_fault: bad PID '%s'\n",
					optarg);
				usage();
			}
			break;
		case 'w':
			hide = true;
			break;
		case 'h':
			fputs(help, stdout);
			return 0;
		default:
			usage();
		}
	}
	if (optind >= argc)
		usage();
	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(argv[optind], ops[i].name))
			op = &ops[i];
	nargs = argc - optind - 1;
	if (!op) {
		fprintf(stderr, "ism_fault: unknown operation '%s'\n",
			argv[optind]);
		usage();
	}
	if (nargs < op->min_args || nargs > op->max_args) {
		fprintf(stderr, "ism_fault: %s: wrong number of arguments\n",
			op->name);
		usage();
	}
	if (do_undo && op->kind == OP_RMMOD) {
		fprintf(stderr, "ism_fault: rmmod cannot be undone\n");
		usage();
	}
	if (first != last && op->kind == OP_RMMOD) {
		fprintf(stderr, "ism_fault: rmmod runs once\n");
		usage();
	}

	nth_fd = open("/proc/thread-self/fail-nth", O_RDWR | O_CLOEXEC);
	if (nth_fd < 0 && (first || errno != ENOENT))
		die("/proc/thread-self/fail-nth");
	prepare(op, argv + optind + 1, nargs, do_undo);
	/* No page fault may allocate while armed: mlockall() faults in what
	 * is mapped now and, with MCL_FUTURE, what is mapped later (each
	 * run's socket buffers, which nl_open() allocates before arming).
	 */
	mlockall(MCL_CURRENT | MCL_FUTURE);

	if (first == last) {
		run_one(op, first, &where);
		return 0;
	}
	if (last && last < first) {
		for (n = first; n >= last; n = n > step ? n - step : 0) {
			injected = run_one(op, n, &where);
			if (injected && where == WHERE_LOADER)
				in_loader++;
			else if (injected && where == WHERE_INIT)
				in_loader = 0;
			if (stop_loader && in_loader >= stop_loader)
				break;
		}
		return 0;
	}
	/* Up: until the operation completes unharmed, at most to LAST. */
	for (n = first; !last || n <= last; n += step) {
		if (!run_one(op, n, &where) || n > UINT_MAX - step)
			break;
	}
	return 0;
}
