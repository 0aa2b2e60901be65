/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism_fault: the declarations its files share.
 *   ism_fault.c        options, help, fail-nth, one run, main
 *   ism_fault_op.c     the operations: preparing, running, their effect,
 *                      undoing them; the ism requests
 *   ism_fault_state.c  the state of the layer (-s)
 *   ism_fault_kmsg.c   the console and the kernel log during a run, the
 *                      initcall_start trace event
 */
#ifndef ISM_FAULT_H
#define ISM_FAULT_H

#include <stdbool.h>
#include <stdint.h>

#include "../../lib/nl/nl.h"
#include "../../include/compiler.h"

/* ---- ism_fault.c ---- */

/* Print "ism_fault: @what: " and errno's text on stderr, exit 1. */
void die(const char *what);

/* ---- ism_fault_op.c ---- */

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

/* ism requests after the operation's, and the state's. */
extern struct nl_sock nl_aux;
/* Data messages the operation's request received. */
extern unsigned int op_msgs;

int nl_reopen(struct nl_sock *nl, const char *family);
int ism_talk(struct nl_sock *nl, uint8_t cmd, uint16_t flags,
	     const char *type, const char *name, nl_msg_cb cb, void *arg);

const struct op *op_find(const char *name);
void op_prepare(const struct op *op, char **args, int nargs, bool undo);
void op_prep_nl(void);
int op_run(const struct op *op);
int op_effect(const struct op *op, int rc);
int op_undo(const struct op *op);

/* ---- ism_fault_state.c ---- */

/* The FNV-1a 64 hash of the last state written. */
extern uint64_t state_hash;
/* -p: threads with this PID or a lower one are left out of the state. */
extern unsigned long pid_floor;

void state_or_die(const char *path);

/* ---- ism_fault_kmsg.c ---- */

/* -w: the kernel-report patterns, from $ISM_KERNEL_REPORTS if set. */
void kmsg_reports_load(void);
bool initcall_trace_clear(void);
bool initcall_traced(long long *usec);
void kmsg_start(void);
void console_quiet(void);
void console_restore(void);
unsigned int kmsg_scan(bool replay, long long *fault_usec);

#endif /* ISM_FAULT_H */
