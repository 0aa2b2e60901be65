// SPDX-License-Identifier: GPL-2.0
/*
 * ism_fault: the operations. Preparing one (everything but the system
 * calls under test), running it, whether it took effect and undoing it;
 * and the requests to the ism family they make.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/syscall.h>
#include <time.h>
#include <unistd.h>
#include <linux/ism.h>

#include "ism_fault.h"

/* nl_op: the operation's; nl_aux: ism requests after it. */
static struct nl_sock nl_op;
struct nl_sock nl_aux;
unsigned int op_msgs;

/* ---- netlink (tools/lib/nl; nothing there allocates but nl_open) ---- */

/*
 * Close @nl and open a new socket for @family: a dump that a fault cut
 * short may leave messages or a running dump behind, and a family that
 * went with its module may be back under another id.
 * Return: 0, or a negative errno (-ENOENT: no such family).
 */
int nl_reopen(struct nl_sock *nl, const char *family)
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
int ism_talk(struct nl_sock *nl, uint8_t cmd, uint16_t flags,
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

/* Return: the operation named @name, or NULL. */
const struct op *op_find(const char *name)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(ops); i++)
		if (!strcmp(name, ops[i].name))
			return &ops[i];
	return NULL;
}

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
void op_prep_nl(void)
{
	int err = nl_reopen(&nl_op, ISM_GENL_NAME);

	if (err) {
		errno = -err;
		die("generic netlink family " ISM_GENL_NAME);
	}
}

/* Everything but the system calls themselves, before arming. */
void op_prepare(const struct op *op, char **args, int nargs, bool undo)
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
		op_prep_nl();
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
int op_run(const struct op *op)
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

static int going_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *a;

	genl_attr_for_each(a, nlh) {
		if (nl_attr_type(a) == ISM_ATTR_DEV_GOING)
			*(bool *)arg = true;
	}
	return 0;
}

/*
 * Return: 1 if device @name exists, 0 if not; exits on other errors.
 * @going, if not NULL: whether its removal has begun.
 */
static int dev_exists_going(const char *name, bool *going)
{
	bool flag = false;
	int err;

	if (!nl_aux.buf) {
		err = nl_reopen(&nl_aux, ISM_GENL_NAME);
		if (err) {
			errno = -err;
			die("generic netlink family " ISM_GENL_NAME);
		}
	}
	err = ism_talk(&nl_aux, ISM_CMD_DEV_GET, 0, NULL, name, going_cb,
		       &flag);
	if (err && err != -ENODEV) {
		errno = -err;
		die("ISM_CMD_DEV_GET");
	}
	if (going)
		*going = !err && flag;
	return !err;
}

static int dev_exists(const char *name)
{
	return dev_exists_going(name, NULL);
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
int op_effect(const struct op *op, int rc)
{
	bool going;

	switch (op->kind) {
	case OP_INSMOD:
		return module_loaded(mod_name);
	case OP_RMMOD:
		return !module_loaded(mod_name);
	case OP_NL:
		if (op->cmd == ISM_CMD_DEV_NEW)
			return dev_exists(dev_name);
		/*
		 * A failure may come after the deletion was queued (the
		 * ACK could not be allocated): then the device is going,
		 * and the deletion took effect once it is gone.
		 */
		if (op->cmd == ISM_CMD_DEV_DEL) {
			if (!rc || (dev_exists_going(dev_name, &going) && going))
				return !dev_wait_gone(dev_name);
			return !dev_exists(dev_name);
		}
		return -1;
	case OP_NONE:
		break;
	}
	return -1;
}

/* Return: 0 or a negative errno. */
int op_undo(const struct op *op)
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
