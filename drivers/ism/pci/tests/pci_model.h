/* SPDX-License-Identifier: GPL-2.0 */
/*
 * A software model of IBM's ISM PCI function, for the KUnit suites of
 * ism_pci (pci_kunit_*.c). It sits behind &struct ism_pci_hw_ops where the
 * PCI glue would: it executes the command blocks the driver stores, keeps
 * DMB registrations, performs moves into the target DMB of any function
 * of its fabric with SBA bits, dmbe masks and interrupts (an irq_work, so
 * the driver's handler runs in hard-irq context), and queues events. A
 * test can make commands fail, put a function in error, hold its
 * interrupt and write into its SBA and IEQ as a faulty function would.
 *
 * The model's return codes are its own (the function's are not public):
 * the driver only tells 0, "no answer" and anything else apart.
 */
#ifndef _DRIVERS_ISM_PCI_MODEL_H
#define _DRIVERS_ISM_PCI_MODEL_H

#include <linux/device.h>
#include <linux/irq_work.h>
#include <linux/list.h>
#include <linux/spinlock.h>

#include "../ism_pci.h"

#define ISM_MODEL_RC_REFUSED	0x0001
#define ISM_MODEL_RC_UNKNOWN	0x0002
#define ISM_MODEL_RC_SHORT	0x0003

/* Command codes are below this. */
#define ISM_MODEL_CMDS		0x13
#define ISM_MODEL_MOVE_LOG	8

/**
 * struct ism_model_fabric - functions that can reach each other
 * @lock: protects every function of the fabric; irq-safe
 * @fns: the functions
 * @chid: their CHID
 * @tokens: the last DMB token number given
 */
struct ism_model_fabric {
	spinlock_t lock;	/* everything in the functions */
	struct list_head fns;
	u16 chid;
	u32 tokens;
};

/**
 * struct ism_model_dmb - a DMB registered with a function
 * @token: its token, 0 if the slot is free
 * @cpu: the memory
 * @len: its length
 * @rgid: the only GID that may write into it
 */
struct ism_model_dmb {
	u64 token;
	void *cpu;
	u32 len;
	u64 rgid;
};

/**
 * struct ism_model_move - one store into the move BAR, as seen
 * @addr: the address (token, dmbe index, signal flag, offset)
 * @len: its length
 */
struct ism_model_move {
	u64 addr;
	u32 len;
};

/**
 * struct ism_model_fn - one modelled function
 * @fab: its fabric
 * @node: entry in @fab's list
 * @dev: the device it DMAs for, parent of its ISM device
 * @ip: the driver's instance on it
 * @started: ism_pci_start() succeeded
 * @gid: its GID
 * @cmd: the command area of its command BAR
 * @sba: the registered SBA, or NULL
 * @ieq: the registered IEQ, or NULL
 * @ieq_entries: entries in @ieq
 * @ieq_written: events queued since @ieq was registered
 * @dmbs: DMB registrations, by slot
 * @vlans: the VLANs it is in
 * @vlan_required: "VLAN required" mode
 * @irq: delivers its interrupt
 * @irq_on: the driver routed the interrupt (irq_start)
 * @irq_held: interrupts are held back until ism_model_release()
 * @irq_pending: one was raised while held back
 * @irqs: interrupts delivered
 * @broken: in error: every command is answered "no answer", moves fail
 * @fail_cmd: the command to refuse with @fail_rc, 0 for none
 * @fail_skip: executions of @fail_cmd to let pass first
 * @fail_rc: the return code
 * @irq_on_cmd: raise an interrupt (slot 40, one event) while executing
 *	this command, 0 for none
 * @cmds: commands executed, by code
 * @moves: stores into the move BAR
 * @move_log: the last stores, @moves modulo %ISM_MODEL_MOVE_LOG
 */
struct ism_model_fn {
	struct ism_model_fabric *fab;
	struct list_head node;
	struct device *dev;
	struct ism_pci *ip;
	bool started;
	u64 gid;
	u64 cmd[ISM_PCI_CMD_MAX / sizeof(u64)];
	struct ism_pci_sba *sba;
	struct ism_pci_ieq *ieq;
	unsigned int ieq_entries;
	u64 ieq_written;
	struct ism_model_dmb dmbs[ISM_PCI_NR_DMBS];
	DECLARE_BITMAP(vlans, ISM_PCI_VLAN_MAX + 1);
	bool vlan_required;
	struct irq_work irq;
	bool irq_on;
	bool irq_held;
	bool irq_pending;
	atomic_t irqs;
	bool broken;
	u32 fail_cmd;
	unsigned int fail_skip;
	u16 fail_rc;
	u32 irq_on_cmd;
	unsigned int cmds[ISM_MODEL_CMDS];
	unsigned int moves;
	struct ism_model_move move_log[ISM_MODEL_MOVE_LOG];
};

void ism_model_fabric_init(struct ism_model_fabric *fab, u16 chid);
struct ism_model_fn *ism_model_fn_create(struct ism_model_fabric *fab,
					 u64 gid);
int ism_model_fn_start(struct ism_model_fn *fn);
void ism_model_fn_destroy(struct ism_model_fn *fn);

void ism_model_fail(struct ism_model_fn *fn, u32 cmd, unsigned int skip,
		    u16 rc);
void ism_model_break(struct ism_model_fn *fn);
void ism_model_hold(struct ism_model_fn *fn);
void ism_model_release(struct ism_model_fn *fn);
void ism_model_sync(struct ism_model_fn *fn);
void ism_model_gid_event(struct ism_model_fn *fn, u64 gid);
void ism_model_raise(struct ism_model_fn *fn, u32 status);
unsigned int ism_model_dmbs(struct ism_model_fn *fn);

#endif /* _DRIVERS_ISM_PCI_MODEL_H */
