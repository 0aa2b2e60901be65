// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual ISM over ivshmem: the other guests of the region, and what they
 * send this one.
 *
 * The peer scan (a delayed work, every scan_ms) beats this guest's
 * heartbeat and reads every other slot. A slot whose cookie or GID
 * changes is a new peer; one whose heartbeat stands still for
 * peer_timeout_ms, or that is released or malformed, is gone: it is
 * dropped from ism_ivshm.peers, so the data path no longer writes into its
 * partition, and the clients get an %ISM_EVT_GID event for it.
 *
 * A heartbeat also stands still when a live guest is paused or starved
 * for a while. Dropping such a peer on one side only would leave its
 * connections hanging on the other once it runs again, so the scan that
 * times a peer out posts it a fence event, and a guest that reads one
 * for its own claim drops the sender in its next scan: both sides end
 * what they had, and meet again as new peers.
 *
 * The receive path (ivshm_rx.c) takes the signals peers set in this
 * guest's signal area, and the events in the queues present peers keep
 * for it.
 *
 * A guest that finds its claim of its slot taken (a newcomer took the
 * slot of a guest paused past peer_timeout_ms, or the host rewrote the
 * cookie) is lost: the slot and its partition are another party's now.
 * Every path that writes into the region checks the claim first
 * (ism_ivshm_gone()), and the first to see it lost takes the region out
 * of the guest's address space, so from then on nothing in the guest
 * writes there, the driver nor its clients through the DMB memory they
 * still hold, and the device leaves its clients as a removal does. Only
 * what comes between the claim being taken and the guest's first look
 * can still land: one write per operation in flight (no lock spans
 * guests), and its clients' writes through memory they hold; the peer
 * scan looks every scan_ms.
 */
#include <linux/bitops.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ism_ivshm.h"

/* Whether the slot still carries this guest's claim. Any context. */
bool ism_ivshm_claim_held(struct ism_ivshm *iv)
{
	struct ivshm_slot *own = ivshm_slot(&iv->geo, iv->region, iv->slot);

	return !test_bit(ISM_IVSHM_LOST, &iv->flags) &&
	       le64_to_cpu(READ_ONCE(own->cookie)) == iv->cookie;
}

/*
 * The region leaves this guest's physical address space: the function
 * stops decoding its BARs. Whatever still holds a pointer into it then
 * writes nothing there and reads all-ones or zeros, as the hypervisor
 * answers for an address with no memory: SMC zeroing the DMBs it owned
 * as it frees its connections, a client's attachment to a peer's DMB, a
 * write that passed the claim check. Any context: config space accesses
 * only take a raw spinlock.
 */
static void ism_ivshm_unmap_region(struct ism_ivshm *iv)
{
	u16 cmd;

	pci_read_config_word(iv->pdev, PCI_COMMAND, &cmd);
	pci_write_config_word(iv->pdev, PCI_COMMAND,
			      cmd & ~PCI_COMMAND_MEMORY);
}

/*
 * Whether this guest lost its slot: checked, and the region unmapped and
 * the device's leave begun, on first sight. Any context. Before the
 * device is registered the leave does nothing; probe queues it again
 * once it is.
 */
bool ism_ivshm_gone(struct ism_ivshm *iv)
{
	if (ism_ivshm_claim_held(iv))
		return false;
	if (!test_and_set_bit(ISM_IVSHM_LOST, &iv->flags)) {
		ism_ivshm_unmap_region(iv);
		dev_err(&iv->pdev->dev,
			"slot %u was taken by another party: leaving the region\n",
			iv->slot);
		/* Unregistering waits for SMC's users to close their sockets. */
		queue_work(system_long_wq, &iv->leave);
	}
	return true;
}

/*
 * Process context. The device leaves its clients as in a removal; it
 * stays bound, inert, until the driver is unbound from the function
 * (binding it again makes a fresh claim, as a new peer).
 */
void ism_ivshm_leave_work(struct work_struct *work)
{
	struct ism_ivshm *iv = container_of(work, struct ism_ivshm, leave);

	if (test_and_clear_bit(ISM_IVSHM_REGISTERED, &iv->flags))
		ism_dev_unregister(iv->ism);
}

/* Any context. Doorbells to a peer without interrupts are not rung. */
void ism_ivshm_ring(struct ism_ivshm *iv, u32 doorbell)
{
	if (iv->doorbell != IVSHM_NO_DOORBELL &&
	    doorbell != IVSHM_NO_DOORBELL)
		writel(doorbell << 16, iv->regs + IVSHM_REG_DOORBELL);
}

/*
 * Post @ev into this guest's queue for slot @receiver and, if @ring and
 * the slot holds a present peer, ring its doorbell; nothing once this
 * guest is lost. Process or softirq context.
 */
void ism_ivshm_post(struct ism_ivshm *iv, u32 receiver,
		    const struct ism_event *ev, bool ring)
{
	struct ism_ivshm_peer *peer;
	unsigned long flags;

	if (ism_ivshm_gone(iv))
		return;
	spin_lock_irqsave(&iv->tx_lock, flags);
	ivshm_post_event(&iv->geo, iv->region, iv->slot, receiver,
			 ++iv->ev_sent[receiver], ev);
	spin_unlock_irqrestore(&iv->tx_lock, flags);
	if (!ring)
		return;
	rcu_read_lock();
	peer = rcu_dereference(iv->peers[receiver]);
	if (peer)
		ism_ivshm_ring(iv, peer->doorbell);
	rcu_read_unlock();
}

/*
 * The slot of the present peer with @gid, or -EHOSTUNREACH. Caller holds
 * rcu_read_lock() and checks the slot's peer again if it uses it.
 */
int ism_ivshm_peer_slot(struct ism_ivshm *iv, const uuid_t *gid)
{
	struct ism_ivshm_peer *peer;
	u32 s;

	for (s = 0; s < iv->geo.max_peers; s++) {
		peer = rcu_dereference(iv->peers[s]);
		if (peer && uuid_equal(&peer->gid, gid))
			return s;
	}
	return -EHOSTUNREACH;
}

/* Peer scan only. */
static void ism_ivshm_peer_gone(struct ism_ivshm *iv, u32 s)
{
	struct ism_ivshm_peer *peer = rcu_dereference_protected(iv->peers[s],
								true);
	struct ism_event ev = { .type = ISM_EVT_GID };

	if (!peer)
		return;
	RCU_INIT_POINTER(iv->peers[s], NULL);
	ev.gid = peer->gid;
	ism_ivshm_peer_log(iv, KERN_INFO, "peer %pUb in slot %u is gone\n",
			   &peer->gid, s);
	kfree_rcu(peer, rcu);
	ism_handle_event(iv->ism, &ev);
}

/* Peer scan only. */
static void ism_ivshm_peer_new(struct ism_ivshm *iv, u32 s,
			       const struct ivshm_slot_view *view)
{
	struct ism_ivshm_peer *peer;

	peer = kzalloc(sizeof(*peer), GFP_KERNEL);
	if (!peer)
		return;	/* tried again at the next scan */
	peer->cookie = view->cookie;
	peer->gid = view->gid;
	peer->doorbell = view->doorbell;
	/* Events queued before this guest saw the peer are not for it. */
	mutex_lock(&iv->ev_lock);
	iv->ev_max[s] = ivshm_evq_head(&iv->geo, iv->region, s, iv->slot);
	WRITE_ONCE(iv->ev_seen[s], iv->ev_max[s]);
	mutex_unlock(&iv->ev_lock);
	rcu_assign_pointer(iv->peers[s], peer);
	ism_ivshm_peer_log(iv, KERN_INFO, "peer %pUb joined in slot %u\n",
			   &peer->gid, s);
}

/*
 * Peer scan only. A peer whose heartbeat stood still may only have been
 * paused or starved (a busy host): if it comes back, it must not go on
 * with connections this guest ended. Tell it to end them too.
 */
static void ism_ivshm_fence(struct ism_ivshm *iv, u32 s, u64 cookie)
{
	struct ism_event ev = { .type = IVSHM_EVT_FENCE, .info = cookie };

	ism_ivshm_post(iv, s, &ev, true);
}

/* Peer scan only: bring ism_ivshm.peers[@s] up to date with the region. */
static void ism_ivshm_scan_slot(struct ism_ivshm *iv, u32 s)
{
	struct ism_ivshm_peer *peer = rcu_dereference_protected(iv->peers[s],
								true);
	struct ism_ivshm_watch *w = &iv->watch[s];
	unsigned long timeout = msecs_to_jiffies(ism_ivshm_peer_timeout_ms);
	/* Cleared whatever happens: a fence is for the peer that sent it. */
	bool fenced = test_and_clear_bit(s, iv->fenced);
	struct ivshm_slot_view view;

	if (ivshm_read_slot(&iv->geo, iv->region, s, &view)) {
		ism_ivshm_peer_log(iv, KERN_WARNING, "slot %u is malformed\n",
				   s);
		view.cookie = 0;
	}
	if (!view.cookie || view.state != IVSHM_SLOT_ACTIVE) {
		ism_ivshm_peer_gone(iv, s);
		w->cookie = 0;
		return;
	}
	if (fenced && peer) {
		ism_ivshm_peer_log(iv, KERN_INFO,
				   "slot %u took this guest for gone: ending all with it too\n",
				   s);
		ism_ivshm_peer_gone(iv, s);
		peer = NULL;
	}
	if (peer && (peer->cookie != view.cookie ||
		     !uuid_equal(&peer->gid, &view.gid) ||
		     peer->doorbell != view.doorbell)) {
		ism_ivshm_peer_gone(iv, s);
		peer = NULL;
	}
	if (w->cookie != view.cookie || w->heartbeat != view.heartbeat) {
		w->cookie = view.cookie;
		w->heartbeat = view.heartbeat;
		w->since = jiffies;
		w->stale = false;
	} else if (!w->stale && time_after(jiffies, w->since + timeout)) {
		w->stale = true;
		ism_ivshm_peer_log(iv, KERN_INFO,
				   "slot %u: no heartbeat for %u ms\n", s,
				   ism_ivshm_peer_timeout_ms);
		if (peer)
			ism_ivshm_fence(iv, s, view.cookie);
	}
	if (w->stale)
		ism_ivshm_peer_gone(iv, s);
	else if (!peer)
		ism_ivshm_peer_new(iv, s, &view);
}

void ism_ivshm_scan_work(struct work_struct *work)
{
	struct ism_ivshm *iv = container_of(to_delayed_work(work),
					    struct ism_ivshm, scan);
	struct ivshm_slot *own = ivshm_slot(&iv->geo, iv->region, iv->slot);
	u32 s;

	/* Lost: the peers are dropped for the clients, and the scan ends. */
	if (ism_ivshm_gone(iv)) {
		for (s = 0; s < iv->geo.max_peers; s++)
			ism_ivshm_peer_gone(iv, s);
		return;
	}
	WRITE_ONCE(own->heartbeat, cpu_to_le64(++iv->heartbeat));
	for (s = 0; s < iv->geo.max_peers; s++)
		if (s != iv->slot)
			ism_ivshm_scan_slot(iv, s);
	/* Catches what a lost doorbell or a slow poll left behind. */
	ism_ivshm_rx(iv);
	schedule_delayed_work(&iv->scan, msecs_to_jiffies(ism_ivshm_scan_ms));
}

/* The device is unregistered and the peer scan stopped: free the peers. */
void ism_ivshm_drop_peers(struct ism_ivshm *iv)
{
	struct ism_ivshm_peer *peer;
	u32 s;

	for (s = 0; s < iv->geo.max_peers; s++) {
		peer = rcu_dereference_protected(iv->peers[s], true);
		RCU_INIT_POINTER(iv->peers[s], NULL);
		kfree_rcu(peer, rcu);
	}
}
