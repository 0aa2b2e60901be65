// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual ISM over ivshmem: what peers send this guest.
 *
 * Any peer can ring this guest's doorbell at will and keep its event
 * queue for this guest full, so the receive path bounds what one call
 * does, in the manner of NAPI:
 *
 * - Signals, in hard-irq context (the MSI-X interrupt in doorbell mode,
 *   the poll timer in plain mode) and from the peer scan: one pass over
 *   the summary words of the own signal area (max_dmbs / 32 of them), each
 *   DMB delivered at most once, only if this guest registered it. No
 *   allocation, no lock but the DMB table's.
 * - Events, in process context: the hard-irq side only sees that a queue
 *   head moved and schedules ism_ivshm.rx_events. No event is delivered
 *   twice, whatever a peer does to the queue's head. Each pass takes at most
 *   %ISM_IVSHM_RX_BUDGET events from each present peer, in slot order,
 *   and at most one pass starts in a jiffy: a doorbell (or a poll) that
 *   comes in a jiffy that had its pass defers the next to the next
 *   jiffy, as does a pass that left events behind. So a flooding peer
 *   gets at most ISM_IVSHM_RX_BUDGET * HZ events a second delivered
 *   however it paces its doorbells and its posts (the rest wait in its
 *   queue or overrun it and are lost), and an event from any other peer
 *   is delivered in the first pass that starts after it was posted: at
 *   most a jiffy plus one pass late, whatever the others send.
 */
#include <linux/rcupdate.h>

#include "ism_ivshm.h"

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

/*
 * Up to @budget events from slot @sender. Caller holds ev_lock and
 * rcu_read_lock(). Return: whether the sender has more, ready to take.
 */
static bool ism_ivshm_rx_events(struct ism_ivshm *iv, u32 sender,
				const struct ism_ivshm_peer *peer,
				unsigned int budget)
{
	const struct ivshm_geo *geo = &iv->geo;
	u64 head = ivshm_evq_head(geo, iv->region, sender, iv->slot);
	u64 seen = iv->ev_seen[sender];
	struct ism_event ev;
	int ret;

	if (head == seen)
		return false;
	if (head < seen || head - seen > geo->evq_len) {
		/* Went back (not an honest peer) or overran: skip ahead. */
		ism_ivshm_peer_log(iv, KERN_WARNING,
				   "events from slot %u lost (%llu to %llu)\n",
				   sender, seen, head);
		seen = head < seen ? head : head - geo->evq_len;
	}
	for (; seen < head && budget; budget--) {
		ret = ivshm_read_event(geo, iv->region, sender, iv->slot,
				       seen + 1, &ev);
		/* Not written yet: the sender rings again once it is. */
		if (ret == -EAGAIN)
			break;
		seen++;
		if (ret) {
			ism_ivshm_peer_log(iv, KERN_WARNING,
					   "malformed event from slot %u\n",
					   sender);
			continue;
		}
		/*
		 * Delivered before: the head went back, and the entries
		 * behind it are old ones (a SHUTDOWN, a fence) that would
		 * end connections again.
		 */
		if (seen <= iv->ev_max[sender])
			continue;
		iv->ev_max[sender] = seen;
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
	WRITE_ONCE(iv->ev_seen[sender], seen);
	return !budget && seen < head;
}

/*
 * One pass over the present peers' queues. Process context. Return:
 * whether a peer has more events ready than the pass took.
 */
static bool ism_ivshm_take_events(struct ism_ivshm *iv)
{
	struct ism_ivshm_peer *peer;
	bool more = false;
	u32 s;

	if (ism_ivshm_gone(iv))
		return false;
	mutex_lock(&iv->ev_lock);
	rcu_read_lock();
	for (s = 0; s < iv->geo.max_peers; s++) {
		peer = rcu_dereference(iv->peers[s]);
		if (peer && ism_ivshm_rx_events(iv, s, peer,
						ISM_IVSHM_RX_BUDGET))
			more = true;
	}
	rcu_read_unlock();
	mutex_unlock(&iv->ev_lock);
	return more;
}

/*
 * Any context. The next event pass: now, or in the next jiffy if one
 * started in this one. A pass already pending keeps its time.
 */
static void ism_ivshm_events_due(struct ism_ivshm *iv)
{
	bool passed = !time_after(jiffies, READ_ONCE(iv->rx_pass_at));

	schedule_delayed_work(&iv->rx_events, passed ? 1 : 0);
}

void ism_ivshm_rx_events_work(struct work_struct *work)
{
	struct ism_ivshm *iv = container_of(to_delayed_work(work),
					    struct ism_ivshm, rx_events);

	WRITE_ONCE(iv->rx_pass_at, jiffies);
	if (ism_ivshm_take_events(iv))
		ism_ivshm_events_due(iv);
}

/* Any context. A head that moved: events for the rx_events work. */
static bool ism_ivshm_events_waiting(struct ism_ivshm *iv)
{
	struct ism_ivshm_peer *peer;
	bool waiting = false;
	u32 s;

	rcu_read_lock();
	for (s = 0; s < iv->geo.max_peers && !waiting; s++) {
		peer = rcu_dereference(iv->peers[s]);
		waiting = peer && ivshm_evq_head(&iv->geo, iv->region, s,
						 iv->slot) !=
				  READ_ONCE(iv->ev_seen[s]);
	}
	rcu_read_unlock();
	return waiting;
}

/*
 * Any context. Taking signals clears them: not once the slot is lost.
 * rx_lock keeps the passes of the interrupt (or poll) and of the peer
 * scan in order, so that a DMB's signals reach its owner in order.
 */
void ism_ivshm_rx(struct ism_ivshm *iv)
{
	unsigned long flags;

	if (ism_ivshm_gone(iv))
		return;
	spin_lock_irqsave(&iv->rx_lock, flags);
	ivshm_take_signals(&iv->geo, iv->region, iv->slot, ism_ivshm_deliver,
			   iv);
	spin_unlock_irqrestore(&iv->rx_lock, flags);
	if (ism_ivshm_events_waiting(iv))
		ism_ivshm_events_due(iv);
}
