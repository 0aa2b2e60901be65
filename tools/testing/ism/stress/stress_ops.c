// SPDX-License-Identifier: GPL-2.0
/*
 * ism_stress: the workers' operations, each on a random device and a DMB
 * it claimed for itself, so that the irqs counted for the DMB and the
 * events counted for the worker's code are its own.
 */
#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "ism_stress.h"

/* Take a DMB of @sd for this worker alone; @unlink also removes it. */
static struct st_dmb *st_claim(struct st_dev *sd, bool unlink)
{
	struct st_dmb *sdmb, *found = NULL;

	spin_lock(&sd->lock);
	list_for_each_entry(sdmb, &sd->dmbs, list) {
		if (sdmb->busy)
			continue;
		found = sdmb;
		if (unlink) {
			list_del(&sdmb->list);
			sd->count--;
			xa_erase(&sd->by_idx, sdmb->dmb.idx);
		} else {
			WRITE_ONCE(sdmb->busy, true);
			/* Next time, start the search elsewhere. */
			list_move_tail(&sdmb->list, &sd->dmbs);
		}
		break;
	}
	spin_unlock(&sd->lock);
	return found;
}

static void st_release(struct st_dev *sd, struct st_dmb *sdmb)
{
	spin_lock(&sd->lock);
	WRITE_ONCE(sdmb->busy, false);
	spin_unlock(&sd->lock);
}

/* Page multiples as SMC uses them, and odd lengths around page edges. */
static u32 st_dmb_len(void)
{
	if (get_random_u32_below(2))
		return SZ_4K << get_random_u32_below(5);
	return 1 + get_random_u32_below(3 * PAGE_SIZE);
}

static int st_register(struct st_dev *sd)
{
	struct st_dmb *sdmb;
	int ret;

	if (READ_ONCE(sd->count) >= ST_DMBS_PER_DEV)
		return -ENOSPC;
	sdmb = kzalloc(sizeof(*sdmb), GFP_KERNEL);
	if (!sdmb)
		return -ENOMEM;
	sdmb->dmb.len = st_dmb_len();
	ism_get_local_gid(sd->dev, &sdmb->dmb.rgid);
	ret = ism_register_dmb(sd->dev, &sdmb->dmb, &st_client);
	if (ret) {
		kfree(sdmb);
		/* -ENODEV: the device is leaving; remove_dev may not run yet. */
		if (ret == -ENODEV)
			st_count(ST_REFUSED_LEAVING);
		else if (ret != -ENOSPC)
			st_unexpected_err("register", ret);
		return ret;
	}
	if (sdmb->dmb.idx >= ism_get_max_dmbs(sd->dev))
		st_fail("DMB index out of range", sdmb->dmb.idx);
	if (memchr_inv(sdmb->dmb.cpu_addr, 0, sdmb->dmb.len))
		st_fail("new DMB not zeroed", sdmb->dmb.len);
	/* Recorded before it is listed, so handle_irq finds it. */
	ret = xa_err(xa_store(&sd->by_idx, sdmb->dmb.idx, sdmb, GFP_KERNEL));
	if (ret) {
		st_free_dmb(sd, sdmb);
		return ret;
	}
	spin_lock(&sd->lock);
	list_add_tail(&sdmb->list, &sd->dmbs);
	sd->count++;
	spin_unlock(&sd->lock);
	return 0;
}

/* A stale token neither writes nor signals whoever has the index now:
 * handle_irq fails on an irq for a DMB nobody signalled.
 */
static void st_expect_stale(struct st_dev *sd, struct st_worker *w, u64 token)
{
	int ret = ism_move_data(sd->dev, token, 0, true, 0, w->buf, 8);

	if (ret != -ENOENT)
		st_fail("stale token accepted by move_data", ret);
	w->ops[ST_BAD_INPUT]++;
}

/* Unregister a DMB; its token must then be refused. */
static int st_unregister(struct st_dev *sd, struct st_worker *w)
{
	struct st_dmb *sdmb = st_claim(sd, true);
	u64 token;

	if (!sdmb)
		return -ENOENT;
	token = sdmb->dmb.token;
	st_free_dmb(sd, sdmb);
	st_expect_stale(sd, w, token);
	return 0;
}

/*
 * move_data of @len bytes at @off of @sdmb from @data (w->buf, or the DMB
 * itself: in place); with @sf, signal bit @bit. The DMB must then hold
 * w->buf's bytes, and on a synchronous device exactly one irq with that
 * bit must have reached the owner, or none without @sf.
 */
static int st_write(struct st_dev *sd, struct st_worker *w,
		    struct st_dmb *sdmb, u32 off, u32 len, const void *data,
		    bool sf)
{
	unsigned int bit = get_random_u32_below(ISM_DMBE_BITS);
	bool published = READ_ONCE(sd->published);
	int irqs, ret;

	sdmb->off = off;
	sdmb->len = len;
	sdmb->csum = crc32(0, w->buf, len);
	atomic_set(&sdmb->mask, 0);
	irqs = atomic_read(&sdmb->irqs);
	ret = ism_move_data(sd->dev, sdmb->dmb.token, bit, sf, off, data, len);
	if (ret) {
		st_unexpected_err("move_data", ret);
		return ret;
	}
	if (memcmp(sdmb->dmb.cpu_addr + off, w->buf, len))
		st_fail("DMB content after move_data", 0);
	else
		st_count(ST_VERIFIED);
	if (!sd->sync)
		return 0;
	irqs = atomic_read(&sdmb->irqs) - irqs;
	if (irqs > sf || (sf && irqs &&
			  atomic_read(&sdmb->mask) != BIT(bit)))
		st_fail("irqs or dmbe bits of a move_data", irqs);
	else if (sf && !irqs && published)
		st_missed(sd, "irq of a signalled move_data");
	return 0;
}

/* Write a random block at a random place. */
static int st_move(struct st_dev *sd, struct st_worker *w, bool sf)
{
	struct st_dmb *sdmb = st_claim(sd, false);
	u32 len, off;
	int ret;

	if (!sdmb)
		return -ENOENT;
	len = 1 + get_random_u32_below(min_t(u32, ST_MAX_WRITE, sdmb->dmb.len));
	off = get_random_u32_below(sdmb->dmb.len - len + 1);
	get_random_bytes(w->buf, len);
	ret = st_write(sd, w, sdmb, off, len, w->buf, sf);
	st_release(sd, sdmb);
	return ret;
}

/*
 * Attach a DMB, write through the mapping and signal in place (zero copy),
 * then detach; or, with @late, unregister the owner's DMB first: its token
 * takes no more data, but the mapping stays valid until the detach.
 */
static int st_attach(struct st_dev *sd, struct st_worker *w, bool late)
{
	struct st_dmb *sdmb = st_claim(sd, late);
	struct ism_dmb map = { 0 };
	u32 len;
	int ret;

	if (!sdmb)
		return -ENOENT;
	map.token = sdmb->dmb.token;
	ret = ism_attach_dmb(sd->dev, &map, &st_client);
	/* -ENODEV: the device is leaving, as for registrations. */
	if (ret == -ENODEV) {
		st_count(ST_REFUSED_LEAVING);
		goto out;
	}
	if (ret || map.cpu_addr != sdmb->dmb.cpu_addr ||
	    map.len != sdmb->dmb.len) {
		st_unexpected_err("attach", ret);
		goto out;
	}
	if (late) {
		st_free_dmb(sd, sdmb);
		sdmb = NULL;
		st_expect_stale(sd, w, map.token);
		memset(map.cpu_addr, 0x5a, map.len);
	} else {
		len = min_t(u32, map.len, ST_MAX_WRITE);
		get_random_bytes(w->buf, len);
		memcpy(map.cpu_addr, w->buf, len);
		ret = st_write(sd, w, sdmb, 0, len, map.cpu_addr, true);
	}
	if (ism_detach_dmb(sd->dev, map.token, &st_client))
		st_unexpected_err("detach", -ENOENT);
	if (ism_detach_dmb(sd->dev, map.token, &st_client) != -ENOENT)
		st_fail("second detach accepted", 0);
	w->ops[ST_BAD_INPUT]++;
out:
	if (sdmb && late)
		st_free_dmb(sd, sdmb);
	else if (sdmb)
		st_release(sd, sdmb);
	return ret;
}

/* Ranges that end past the DMB or wrap around, and the token on another
 * device, must be refused.
 */
static int st_bad_input(struct st_dev *sd, struct st_worker *w)
{
	struct st_dmb *sdmb = st_claim(sd, false);
	struct st_dev *other;
	u32 len;
	int ret;

	if (!sdmb)
		return -ENOENT;
	len = sdmb->dmb.len;
	ret = ism_move_data(sd->dev, sdmb->dmb.token, 0, true, len - 7,
			    w->buf, 8);
	if (ret != -EINVAL)
		st_fail("range past the end accepted", ret);
	ret = ism_move_data(sd->dev, sdmb->dmb.token, 0, true, U32_MAX - 3,
			    w->buf, 8);
	if (ret != -EINVAL)
		st_fail("wrapping range accepted", ret);
	other = st_get_dev(0);
	if (other && other != sd) {
		ret = ism_move_data(other->dev, sdmb->dmb.token, 0, true, 0,
				    w->buf, 8);
		if (ret != -ENOENT)
			st_fail("another device's token accepted", ret);
	}
	if (other)
		st_put_dev(other);
	st_release(sd, sdmb);
	return 0;
}

/* On a synchronous device the event reaches this worker's handler once. */
static int st_event(struct st_dev *sd, struct st_worker *w)
{
	bool published = READ_ONCE(sd->published);
	int events = atomic_read(&w->events);
	uuid_t gid;
	int ret;

	ism_get_local_gid(sd->dev, &gid);
	ret = ism_signal_event(sd->dev, &gid, 1, ST_EVENT_CODE + w->id, 0);
	if (ret) {
		st_unexpected_err("signal_event", ret);
		return ret;
	}
	if (!sd->sync)
		return 0;
	events = atomic_read(&w->events) - events;
	if (events > 1)
		st_fail("event delivered twice", events);
	else if (!events && published)
		st_missed(sd, "event of a worker");
	return 0;
}

int st_worker_fn(void *arg)
{
	struct st_worker *w = arg;
	struct st_dev *sd;
	enum st_op op;
	int ret;

	while (!kthread_should_stop()) {
		sd = st_get_dev(0);
		if (!sd) {
			usleep_range(1000, 2000);
			continue;
		}
		op = get_random_u32_below(ST_NR_OPS);
		switch (op) {
		case ST_REGISTER:
			ret = st_register(sd);
			break;
		case ST_UNREGISTER:
			ret = st_unregister(sd, w);
			break;
		case ST_MOVE:
		case ST_MOVE_SIGNAL:
			ret = st_move(sd, w, op == ST_MOVE_SIGNAL);
			break;
		case ST_ATTACH:
		case ST_DETACH_LATE:
			ret = st_attach(sd, w, op == ST_DETACH_LATE);
			break;
		case ST_EVENT:
			ret = st_event(sd, w);
			break;
		default:
			ret = st_bad_input(sd, w);
			break;
		}
		st_put_dev(sd);
		if (!ret)
			w->ops[op]++;
		cond_resched();
	}
	return 0;
}
