/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism_pci: IBM's ISM PCI function as a device of the ISM layer.
 *
 * The driver proper (pci_cmd.c, pci_dmb.c, pci_irq.c, pci_dev.c) reaches
 * the function only through &struct ism_pci_hw_ops: the PCI glue of
 * pci_main.c gives it the s390 PCI instructions or plain MMIO and an MSI
 * vector; the KUnit suites give it the software model of pci_model.c.
 *
 * Locking: @cmd_lock serialises command blocks (one at a time in the
 * function), taken with interrupts off as commands come from process and
 * softirq context. @irq_lock serialises the interrupt handler's drain of
 * the SBA and IEQ and the setting of @sba and @ieq (see pci_irq.c). The
 * DMB slot bitmap is changed with atomic bit operations.
 */
#ifndef _DRIVERS_ISM_ISM_PCI_H
#define _DRIVERS_ISM_ISM_PCI_H

#include <linux/interrupt.h>
#include <linux/ism.h>
#include <linux/spinlock.h>

#include "pci_hw.h"

#define ISM_PCI_DRV_NAME	"ism_pci"

struct ism_pci;

/**
 * struct ism_pci_hw_ops - how the driver reaches one function
 * @cmd_write: store @len bytes (a multiple of 8) at @offset of the
 *	command BAR; a store at offset 0 makes the function execute the
 *	block. Any context, must not sleep.
 * @cmd_read: load @len bytes (a multiple of 8) from @offset of the
 *	command BAR. Any context, must not sleep.
 * @move: store @len bytes (at most a page, not crossing a page of the DMB)
 *	at address @addr of the move BAR, see ism_pci_move_addr(). Return 0
 *	or a negative errno. Any context but hard irq, must not sleep.
 * @irq_start: route the function's interrupt to ism_pci_irq(). Process
 *	context.
 * @irq_stop: undo @irq_start, waiting for a running ism_pci_irq() to
 *	finish. Process context.
 */
struct ism_pci_hw_ops {
	void (*cmd_write)(struct ism_pci *ip, unsigned int offset,
			  const void *data, unsigned int len);
	void (*cmd_read)(struct ism_pci *ip, unsigned int offset, void *data,
			 unsigned int len);
	int (*move)(struct ism_pci *ip, u64 addr, const void *data,
		    unsigned int len);
	int (*irq_start)(struct ism_pci *ip);
	void (*irq_stop)(struct ism_pci *ip);
};

/**
 * struct ism_pci_info - what QUERY_INFO reports, for the log
 * @version: interface version of the function
 * @max_len: largest DMB the function takes
 * @dmbs_owned: DMBs registered with the function
 * @vlan_required: the function is in "VLAN required" mode
 * @vlan_nr_ids: number of VLAN ids the function is in
 */
struct ism_pci_info {
	u32 version;
	u32 max_len;
	u32 dmbs_owned;
	u32 vlan_required;
	u32 vlan_nr_ids;
};

/**
 * struct ism_pci - one ISM function, the private area of its ISM device
 * @ism: the ISM device
 * @dma_dev: the device DMA memory is allocated for
 * @hw: how to reach the function
 * @hw_priv: @hw's data (the PCI glue's or the model's)
 * @cmd_lock: serialises command blocks
 * @irq_lock: serialises the drain of @sba and @ieq
 * @sba: the status bit array, once registered
 * @sba_dma: its bus address
 * @ieq: the interrupt event queue, once registered
 * @ieq_dma: its bus address
 * @ieq_next: the next IEQ entry to read
 * @slots: DMB slots in use
 * @gid: the function's GID
 * @chid: the function's CHID
 * @id: number in the device's name, ismpciN
 * @stale_irq: interrupts reported before the device was registered or
 *	with nothing to drain
 * @bad_ieq: entries and queue indexes from the function that made no sense
 */
struct ism_pci {
	struct ism_dev *ism;
	struct device *dma_dev;
	const struct ism_pci_hw_ops *hw;
	void *hw_priv;
	spinlock_t cmd_lock;	/* one command block at a time */
	spinlock_t irq_lock;	/* the drain */
	struct ism_pci_sba *sba;
	dma_addr_t sba_dma;
	struct ism_pci_ieq *ieq;
	dma_addr_t ieq_dma;
	unsigned int ieq_next;
	DECLARE_BITMAP(slots, ISM_PCI_NR_DMBS);
	u64 gid;
	u16 chid;
	int id;
	atomic_t stale_irq;
	atomic_t bad_ieq;
};

/* pci_cmd.c */
int ism_pci_cmd(struct ism_pci *ip, u32 cmd, const void *req,
		unsigned int req_len, void *resp, unsigned int resp_len);
int ism_pci_cmd_simple(struct ism_pci *ip, u32 cmd);
int ism_pci_query_info(struct ism_pci *ip, struct ism_pci_info *info);

/* pci_dmb.c */
extern const struct ism_device_ops ism_pci_ops;
u64 ism_pci_gid64(const uuid_t *gid);

/* pci_irq.c */
irqreturn_t ism_pci_irq(int irq, void *data);

/* pci_dev.c */
struct ism_pci *ism_pci_alloc(struct device *parent, struct device *dma_dev,
			      const struct ism_pci_hw_ops *hw, void *hw_priv,
			      u16 chid);
int ism_pci_start(struct ism_pci *ip);
void ism_pci_stop(struct ism_pci *ip);
void ism_pci_put(struct ism_pci *ip);

#endif /* _DRIVERS_ISM_ISM_PCI_H */
