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
 * below and tests/faults.sh; ism_fault.h lists the files.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>
#include <linux/ism.h>

#include "ism_fault.h"

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
"                   KASAN, a call trace of its own, ...): one that matches\n"
"                   an extended regular expression of the file\n"
"                   $ISM_KERNEL_REPORTS, by default\n"
"                   /ism/tests/lib/kernel-reports (in the test VM:\n"
"                   tools/testing/selftests/ism/lib/kernel-reports), one a\n"
"                   line. Needs root.\n"
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
"    tools/testing/selftests/ism/faults.sh,\n"
"    Documentation/fault-injection/fault-injection.rst (Linux)\n";

void die(const char *what)
{
	fprintf(stderr, "ism_fault: %s: %s\n", what, strerror(errno));
	exit(1);
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
		op_prep_nl();
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
	rc = op_run(op);
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
	eff = op_effect(op, rc);
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
		undone = op_undo(op);
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
	const struct op *op;
	enum where where;
	bool injected;
	int c, nargs;
	char *endp;

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
	op = op_find(argv[optind]);
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
	if (hide)
		kmsg_reports_load();
	op_prepare(op, argv + optind + 1, nargs, do_undo);
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
