/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Virtual ISM over QEMU's ivshmem (ism_ivshm.ko): one ISM device per
 * ivshmem region that carries the layout of ivshm_layout.h.
 */
#ifndef _DRIVERS_ISM_IVSHM_H
#define _DRIVERS_ISM_IVSHM_H

#include <linux/hrtimer.h>
#include <linux/ism.h>
#include <linux/mutex.h>
#include <linux/pci.h>
#include <linux/ratelimit.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/workqueue.h>

#include "ivshm_layout.h"

/* The largest DMB, and the size of the region's compound pages. */
#define ISM_IVSHM_COMPOUND	SZ_1M

/* BAR0 registers of the ivshmem device */
#define IVSHM_REG_IVPOSITION	8
#define IVSHM_REG_DOORBELL	12

/**
 * struct ism_ivshm_peer - another guest of the region, as this one saw it
 * @cookie: the cookie of its claim of the slot
 * @gid: its GID
 * @doorbell: its ivshmem peer ID, or %IVSHM_NO_DOORBELL
 * @rcu: the data path reads peers under RCU
 *
 * Never changed once published: a peer that changes is replaced.
 */
struct ism_ivshm_peer {
	u64 cookie;
	uuid_t gid;
	u32 doorbell;
	struct rcu_head rcu;
};

/**
 * struct ism_ivshm_watch - what the peer scan remembers of a slot
 * @cookie: the cookie last seen
 * @heartbeat: the heartbeat last seen
 * @since: jiffies when @heartbeat last changed
 * @stale: the heartbeat stopped; the peer was dropped until it moves again
 */
struct ism_ivshm_watch {
	u64 cookie;
	u64 heartbeat;
	unsigned long since;
	bool stale;
};

/**
 * struct ism_ivshm_dmb - one of this guest's DMBs, the private truth of it
 * @token: its token; 0 while the index is free
 * @user_key: the key its owner registered it with (&struct ism_dmb)
 * @rgid: the only peer allowed to write into it
 * @offset: offset in the own partition's data area
 * @len: the length the client asked for
 * @live: registered and published; signals for its index are delivered
 * @attached: attachments of this guest's clients not yet detached: the
 *	index and the memory stay the DMB's until the last one goes, even
 *	after it was unregistered
 */
struct ism_ivshm_dmb {
	u64 token;
	u64 user_key;
	uuid_t rgid;
	u32 offset;
	u32 len;
	bool live;
	u32 attached;
};

/**
 * struct ism_ivshm - the driver's part of an &ism_dev
 * @ism: the device this is part of
 * @pdev: the ivshmem PCI function
 * @regs: its BAR0 registers
 * @region: its BAR2, the shared region, with struct pages
 * @geo: the region's geometry, checked at probe
 * @slot: this guest's slot
 * @cookie: the cookie of this guest's claim
 * @doorbell: this guest's ivshmem peer ID, or %IVSHM_NO_DOORBELL in plain
 *	(polling) mode
 * @index: the N of the device's name, ismivN
 * @flags: %ISM_IVSHM_LOST, %ISM_IVSHM_REGISTERED
 * @leave: withdraws a lost device from its clients (ism_ivshm_gone())
 * @peer_log: the budget of every log line a peer or the region can
 *	trigger, one for the device (ism_ivshm_peer_log())
 * @dmb_lock: protects @dmbs, @dmb_used, @pages_used, @units_used (which
 *	ops.dmb_space reads without it) and the next-fit cursors; taken with interrupts off, since the receive path checks
 *	@dmbs in hard-irq context
 * @dmbs: this guest's DMBs, by index
 * @dmb_used: bitmap of indexes of @dmbs in use
 * @pages_used: bitmap of the own data area's units in use
 * @units_used: the bits set in @pages_used
 * @next_idx: where the search for a free index starts
 * @next_page: where the search for free units starts; DMB memory is
 *	reused as late as possible, since a peer may still be writing into
 *	a DMB just unregistered
 * @peers: the other guests present, by slot; written by the peer scan only
 * @watch: the peer scan's memory of each slot
 * @fenced: slots whose owner took this guest for gone (a fence event):
 *	set by the receive path, acted on by the peer scan
 * @rx_lock: serialises the signal passes of the receive path (interrupt,
 *	poll timer, peer scan); taken with interrupts off
 * @ev_lock: serialises the event passes (@rx_events) and the peer scan's
 *	resets of @ev_seen; process context
 * @ev_seen: sequence number of the last event taken from each sender;
 *	written under @ev_lock, read locklessly to see whether a pass is due
 * @ev_max: the highest sequence number delivered from each sender, under
 *	@ev_lock: a queue head that goes back replays nothing
 * @rx_events: takes the events peers sent, a budget per pass
 *	(ivshm_rx.c)
 * @rx_pass_at: jiffies when the last pass of @rx_events started: at most
 *	one starts in a jiffy
 * @tx_lock: protects @ev_sent
 * @ev_sent: sequence number of the last event posted to each receiver
 * @scan: the periodic peer scan, which also beats this guest's heartbeat
 * @heartbeat: this guest's heartbeat count
 * @poll: the receive timer of plain mode
 * @irq: the MSI-X interrupt of doorbell mode
 */
struct ism_ivshm {
	struct ism_dev *ism;
	struct pci_dev *pdev;
	void __iomem *regs;
	void *region;
	struct ivshm_geo geo;
	u32 slot;
	u64 cookie;
	u32 doorbell;
	int index;
	unsigned long flags;
	struct work_struct leave;
	struct ratelimit_state peer_log;

	spinlock_t dmb_lock;
	struct ism_ivshm_dmb *dmbs;
	unsigned long *dmb_used;
	unsigned long *pages_used;
	u32 units_used;
	u32 next_idx;
	u32 next_page;

	struct ism_ivshm_peer __rcu *peers[IVSHM_MAX_PEERS];
	struct ism_ivshm_watch watch[IVSHM_MAX_PEERS];
	DECLARE_BITMAP(fenced, IVSHM_MAX_PEERS);

	spinlock_t rx_lock;
	struct mutex ev_lock;
	u64 ev_seen[IVSHM_MAX_PEERS];
	u64 ev_max[IVSHM_MAX_PEERS];
	struct delayed_work rx_events;
	unsigned long rx_pass_at;
	spinlock_t tx_lock;
	u64 ev_sent[IVSHM_MAX_PEERS];

	struct delayed_work scan;
	u64 heartbeat;
	struct hrtimer poll;
	int irq;
};

/*
 * Bits of ism_ivshm.flags. LOST: another party took this guest's slot;
 * from then on the driver writes nothing into the region, and every
 * operation fails with -ENODEV. REGISTERED: the device is registered
 * with the core; whoever clears it (remove, or the leave work of a lost
 * device) unregisters it.
 */
#define ISM_IVSHM_LOST		0
#define ISM_IVSHM_REGISTERED	1

/*
 * A log line that a peer or the region can trigger: all of them share
 * one budget per device (10 lines in 5 s), however a hostile peer
 * varies them.
 */
#define ism_ivshm_peer_log(iv, level, fmt, ...)				\
	do {								\
		if (__ratelimit(&(iv)->peer_log))			\
			dev_printk(level, &(iv)->pdev->dev, fmt,	\
				   ##__VA_ARGS__);			\
	} while (0)

/* Events taken from one peer in one pass of the receive path. */
#define ISM_IVSHM_RX_BUDGET	16

extern unsigned int ism_ivshm_peer_timeout_ms;
extern unsigned int ism_ivshm_scan_ms;

/* ivshm_dmb.c: the device operations */
extern const struct ism_device_ops ism_ivshm_ops;
int ism_ivshm_dmbs_init(struct ism_ivshm *iv);
void ism_ivshm_dmbs_destroy(struct ism_ivshm *iv);

/* ivshm_peers.c: the peer scan */
bool ism_ivshm_claim_held(struct ism_ivshm *iv);
bool ism_ivshm_gone(struct ism_ivshm *iv);
void ism_ivshm_leave_work(struct work_struct *work);
void ism_ivshm_ring(struct ism_ivshm *iv, u32 doorbell);
void ism_ivshm_post(struct ism_ivshm *iv, u32 receiver,
		    const struct ism_event *ev, bool ring);
int ism_ivshm_peer_slot(struct ism_ivshm *iv, const uuid_t *gid);

/* ivshm_rx.c: the receive path */
void ism_ivshm_rx(struct ism_ivshm *iv);
void ism_ivshm_rx_events_work(struct work_struct *work);
void ism_ivshm_scan_work(struct work_struct *work);
void ism_ivshm_drop_peers(struct ism_ivshm *iv);

#endif /* _DRIVERS_ISM_IVSHM_H */
