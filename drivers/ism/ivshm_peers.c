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
 * The receive path (the MSI-X interrupt in doorbell mode, the poll timer
 * in plain mode, both in hard-irq context, and the peer scan) takes the
 * signals peers set in this guest's signal area, and the events in the
 * queues present peers keep for it.
 */
#include <linux/bitops.h>
#include <linux/io.h>
#include <linux/jiffies.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ism_ivshm.h"

/* Any context. Doorbells to a peer without interrupts are not rung. */
void ism_ivshm_ring(struct ism_ivshm *iv, u32 doorbell)
{
	if (iv->doorbell != IVSHM_NO_DOORBELL &&
	    doorbell != IVSHM_NO_DOORBELL)
		writel(doorbell << 16, iv->regs + IVSHM_REG_DOORBELL);
}

/*
 * Post @ev into this guest's queue for slot @receiver and, if @ring and
 * the slot holds a present peer, ring its doorbell. Process or softirq
 * context.
 */
void ism_ivshm_post(struct ism_ivshm *iv, u32 receiver,
		    const struct ism_event *ev, bool ring)
{
	struct ism_ivshm_peer *peer;
	unsigned long flags;

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

/* ivshm_take_signals() found bits for @idx: deliver them if it is ours. */
static void ism_ivshm_deliver(void *ctx, u32 idx, u16 mask)
{
	struct ism_ivshm *iv = ctx;
	bool live;

	spin_lock(&iv->dmb_lock);
	live = iv->dmbs[idx].live;
	spin_unlock(&iv->dmb_lock);
	if (live)
		ism_handle_irq(iv->ism, idx, mask);
}

/* Caller holds rx_lock and rcu_read_lock(). */
static void ism_ivshm_rx_events(struct ism_ivshm *iv, u32 sender,
				const struct ism_ivshm_peer *peer)
{
	const struct ivshm_geo *geo = &iv->geo;
	u64 head = ivshm_evq_head(geo, iv->region, sender, iv->slot);
	u64 seen = iv->ev_seen[sender];
	struct ism_event ev;
	int ret;

	if (head == seen)
		return;
	if (head < seen || head - seen > geo->evq_len) {
		/* Went back (not an honest peer) or overran: skip ahead. */
		dev_warn_ratelimited(&iv->pdev->dev,
				     "events from slot %u lost (%llu to %llu)\n",
				     sender, seen, head);
		seen = head < seen ? head : head - geo->evq_len;
	}
	while (seen < head) {
		ret = ivshm_read_event(geo, iv->region, sender, iv->slot,
				       seen + 1, &ev);
		if (ret == -EAGAIN)
			break;
		seen++;
		if (ret) {
			dev_warn_ratelimited(&iv->pdev->dev,
					     "malformed event from slot %u\n",
					     sender);
			continue;
		}
		if (ev.type == IVSHM_EVT_FENCE) {
			/* For this claim of the slot, not an earlier one. */
			if (ev.info == iv->cookie)
				set_bit(sender, iv->fenced);
			continue;
		}
		ev.time = 0;
		ev.gid = peer->gid;
		ism_handle_event(iv->ism, &ev);
	}
	iv->ev_seen[sender] = seen;
}

/* Any context. */
void ism_ivshm_rx(struct ism_ivshm *iv)
{
	struct ism_ivshm_peer *peer;
	unsigned long flags;
	u32 s;

	spin_lock_irqsave(&iv->rx_lock, flags);
	ivshm_take_signals(&iv->geo, iv->region, iv->slot, ism_ivshm_deliver,
			   iv);
	rcu_read_lock();
	for (s = 0; s < iv->geo.max_peers; s++) {
		peer = rcu_dereference(iv->peers[s]);
		if (peer)
			ism_ivshm_rx_events(iv, s, peer);
	}
	rcu_read_unlock();
	spin_unlock_irqrestore(&iv->rx_lock, flags);
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
	dev_info(&iv->pdev->dev, "peer %pUb in slot %u is gone\n", &peer->gid,
		 s);
	kfree_rcu(peer, rcu);
	ism_handle_event(iv->ism, &ev);
}

/* Peer scan only. */
static void ism_ivshm_peer_new(struct ism_ivshm *iv, u32 s,
			       const struct ivshm_slot_view *view)
{
	struct ism_ivshm_peer *peer;
	unsigned long flags;

	peer = kzalloc(sizeof(*peer), GFP_KERNEL);
	if (!peer)
		return;	/* tried again at the next scan */
	peer->cookie = view->cookie;
	peer->gid = view->gid;
	peer->doorbell = view->doorbell;
	/* Events queued before this guest saw the peer are not for it. */
	spin_lock_irqsave(&iv->rx_lock, flags);
	iv->ev_seen[s] = ivshm_evq_head(&iv->geo, iv->region, s, iv->slot);
	spin_unlock_irqrestore(&iv->rx_lock, flags);
	rcu_assign_pointer(iv->peers[s], peer);
	dev_info(&iv->pdev->dev, "peer %pUb joined in slot %u\n", &peer->gid,
		 s);
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
		dev_warn_ratelimited(&iv->pdev->dev,
				     "slot %u is malformed\n", s);
		view.cookie = 0;
	}
	if (iv->lost || !view.cookie || view.state != IVSHM_SLOT_ACTIVE) {
		ism_ivshm_peer_gone(iv, s);
		w->cookie = 0;
		return;
	}
	if (fenced && peer) {
		dev_info(&iv->pdev->dev,
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
		dev_info(&iv->pdev->dev,
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

	if (!iv->lost && le64_to_cpu(READ_ONCE(own->cookie)) != iv->cookie) {
		iv->lost = true;
		dev_err(&iv->pdev->dev,
			"slot %u was taken by another party: leaving the region\n",
			iv->slot);
	}
	if (!iv->lost)
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
