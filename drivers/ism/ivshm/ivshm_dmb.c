// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual ISM over ivshmem: the device operations.
 *
 * This guest's DMBs are in its own partition's data area; it keeps the
 * truth about them in ism_ivshm.dmbs and only publishes descriptors for
 * its peers. Writing into a peer's DMB goes by the descriptor the peer
 * published, checked (ivshm_find_dmb()): whatever the peer wrote there,
 * the write stays inside the peer's data area. A DMB whose owner is this
 * guest itself is found in the private table, never in the region.
 *
 * Once this guest lost its slot (ism_ivshm_gone()) every operation fails
 * with -ENODEV before it touches the region; unregistering still frees
 * the DMB in the private table, so that the core can forget it.
 */
#include <linux/bitmap.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "ism_ivshm.h"

int ism_ivshm_dmbs_init(struct ism_ivshm *iv)
{
	spin_lock_init(&iv->dmb_lock);
	iv->dmbs = kcalloc(iv->geo.max_dmbs, sizeof(*iv->dmbs), GFP_KERNEL);
	iv->dmb_used = bitmap_zalloc(iv->geo.max_dmbs, GFP_KERNEL);
	iv->pages_used = bitmap_zalloc(iv->geo.data_len / IVSHM_UNIT,
				       GFP_KERNEL);
	return iv->dmbs && iv->dmb_used && iv->pages_used ? 0 : -ENOMEM;
}

void ism_ivshm_dmbs_destroy(struct ism_ivshm *iv)
{
	kfree(iv->dmbs);
	bitmap_free(iv->dmb_used);
	bitmap_free(iv->pages_used);
}

static int ism_ivshm_query_remote_gid(struct ism_dev *ism,
				      const uuid_t *rgid, u32 vid_valid,
				      u32 vid)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	int ret;

	if (ism_ivshm_gone(iv))
		return -ENODEV;
	if (uuid_equal(rgid, &ism->gid))
		return 0;
	rcu_read_lock();
	ret = ism_ivshm_peer_slot(iv, rgid);
	rcu_read_unlock();
	return ret < 0 ? ret : 0;
}

/*
 * Caller holds dmb_lock. Next-fit from the cursor, then from the start.
 * The DMB is aligned in the region to its size rounded up to a power of
 * two, at most ISM_IVSHM_COMPOUND: it lies in one compound page.
 */
static long ism_ivshm_alloc_units(struct ism_ivshm *iv, u32 n)
{
	unsigned long units = iv->geo.data_len / IVSHM_UNIT, at, mask, off;
	const struct ivshm_geo *geo = &iv->geo;

	mask = min_t(unsigned long, roundup_pow_of_two(n),
		     ISM_IVSHM_COMPOUND / IVSHM_UNIT) - 1;
	/* Where the data area starts, in units of the region. */
	off = (geo->part_off + (u64)iv->slot * geo->part_size +
	       geo->data_off) / IVSHM_UNIT;
	at = bitmap_find_next_zero_area_off(iv->pages_used, units,
					    iv->next_page, n, mask, off & mask);
	if (at >= units)
		at = bitmap_find_next_zero_area_off(iv->pages_used, units, 0, n,
						    mask, off & mask);
	if (at >= units)
		return -ENOSPC;
	bitmap_set(iv->pages_used, at, n);
	WRITE_ONCE(iv->units_used, iv->units_used + n);
	iv->next_page = at + n;
	return at;
}

/* Caller holds dmb_lock. */
static int ism_ivshm_alloc_idx(struct ism_ivshm *iv)
{
	u32 max = iv->geo.max_dmbs;
	unsigned long idx;

	idx = find_next_zero_bit(iv->dmb_used, max, iv->next_idx);
	if (idx >= max)
		idx = find_first_zero_bit(iv->dmb_used, max);
	if (idx >= max)
		return -ENOSPC;
	__set_bit(idx, iv->dmb_used);
	iv->next_idx = idx + 1;
	return idx;
}

static int ism_ivshm_register_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	u32 units = DIV_ROUND_UP(dmb->len, IVSHM_UNIT);
	u64 token = get_random_u64();
	struct ivshm_dmb_desc desc;
	unsigned long flags;
	long unit;
	void *mem;
	int idx;

	if (!dmb->len || dmb->len > ism->max_dmb_len)
		return -EINVAL;
	if (ism_ivshm_gone(iv))
		return -ENODEV;
	spin_lock_irqsave(&iv->dmb_lock, flags);
	idx = ism_ivshm_alloc_idx(iv);
	unit = idx < 0 ? idx : ism_ivshm_alloc_units(iv, units);
	if (unit < 0) {
		if (idx >= 0)
			__clear_bit(idx, iv->dmb_used);
		spin_unlock_irqrestore(&iv->dmb_lock, flags);
		return unit;
	}
	token = ivshm_token(iv->slot, idx, token);
	iv->dmbs[idx] = (struct ism_ivshm_dmb) {
		.token = token,
		.user_key = dmb->user_key,
		.rgid = dmb->rgid,
		.offset = unit * IVSHM_UNIT,
		.len = dmb->len,
	};
	spin_unlock_irqrestore(&iv->dmb_lock, flags);

	mem = ivshm_data(&iv->geo, iv->region, iv->slot, unit * IVSHM_UNIT);
	memset(mem, 0, units * IVSHM_UNIT);
	ivshm_clear_signals(&iv->geo, iv->region, iv->slot, idx);
	desc.token = cpu_to_le64(token);
	desc.offset = cpu_to_le32(unit * IVSHM_UNIT);
	desc.len = cpu_to_le32(dmb->len);
	export_uuid(desc.rgid, &dmb->rgid);
	desc.key = cpu_to_le64(dmb->user_key);
	ivshm_publish_dmb(&iv->geo, iv->region, iv->slot, idx, &desc);

	spin_lock_irqsave(&iv->dmb_lock, flags);
	iv->dmbs[idx].live = true;
	spin_unlock_irqrestore(&iv->dmb_lock, flags);

	dmb->token = token;
	dmb->idx = idx;
	dmb->cpu_addr = mem;
	dmb->dma_addr = virt_to_phys(mem);
	return 0;
}

/*
 * Caller holds dmb_lock; DMB @idx is neither registered nor attached: its
 * index and memory are free for the next registration.
 */
static void ism_ivshm_free_dmb(struct ism_ivshm *iv, u32 idx)
{
	struct ism_ivshm_dmb *d = &iv->dmbs[idx];
	u32 units = DIV_ROUND_UP(d->len, IVSHM_UNIT);

	bitmap_clear(iv->pages_used, d->offset / IVSHM_UNIT, units);
	WRITE_ONCE(iv->units_used, iv->units_used - units);
	__clear_bit(idx, iv->dmb_used);
	d->token = 0;
}

static int ism_ivshm_unregister_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	struct ism_event ev = { .type = ISM_EVT_DMB, .token = dmb->token };
	struct ism_ivshm_dmb *d;
	unsigned long flags;
	u32 slot, idx;
	bool gone;
	int writer;

	if (ivshm_token_split(&iv->geo, dmb->token, &slot, &idx) ||
	    slot != iv->slot)
		return -ENOENT;
	spin_lock_irqsave(&iv->dmb_lock, flags);
	d = &iv->dmbs[idx];
	if (!d->live || d->token != dmb->token) {
		spin_unlock_irqrestore(&iv->dmb_lock, flags);
		return -ENOENT;
	}
	gone = ism_ivshm_gone(iv);
	if (!gone)
		ivshm_retract_dmb(&iv->geo, iv->region, iv->slot, idx);
	d->live = false;
	/* An attachment of this guest still maps the memory: see detach. */
	if (!d->attached)
		ism_ivshm_free_dmb(iv, idx);
	spin_unlock_irqrestore(&iv->dmb_lock, flags);
	if (gone)
		return -ENODEV;

	rcu_read_lock();
	writer = ism_ivshm_peer_slot(iv, &dmb->rgid);
	rcu_read_unlock();
	if (writer >= 0)
		ism_ivshm_post(iv, writer, &ev, true);
	return 0;
}

/*
 * A DMB of this guest's as a writer on this guest finds it: registered,
 * and for this guest to write (the same rgid check as a peer's), with
 * one more attachment if @attach.
 */
static int ism_ivshm_own_target(struct ism_ivshm *iv, u64 token, u32 idx,
				bool attach, void **dst, u32 *len, u64 *key)
{
	struct ism_ivshm_dmb *d = &iv->dmbs[idx];
	unsigned long flags;
	int ret = -ENOENT;

	spin_lock_irqsave(&iv->dmb_lock, flags);
	if (d->live && d->token == token)
		ret = uuid_equal(&d->rgid, &iv->ism->gid) ? 0 : -EACCES;
	if (!ret) {
		*len = d->len;
		*dst = ivshm_data(&iv->geo, iv->region, iv->slot, d->offset);
		if (key)
			*key = d->user_key;
		if (attach)
			d->attached++;
	}
	spin_unlock_irqrestore(&iv->dmb_lock, flags);
	return ret;
}

/*
 * Where a write of @size bytes at @offset of DMB @token goes, and the
 * DMB's owner slot, index, length and user key (unless @key is NULL).
 * Caller holds rcu_read_lock(): the owner's peer entry stays valid, and
 * the data area is mapped as long as the device exists.
 */
static int ism_ivshm_target(struct ism_ivshm *iv, u64 token, bool attach,
			    void **dst, u32 *slot, u32 *idx, u32 *len,
			    u64 *key)
{
	struct ism_dev *ism = iv->ism;
	u64 off;
	int ret;

	if (ivshm_token_split(&iv->geo, token, slot, idx))
		return -ENOENT;
	if (*slot == iv->slot)
		return ism_ivshm_own_target(iv, token, *idx, attach, dst, len,
					    key);
	if (!rcu_dereference(iv->peers[*slot]))
		return -ENOENT;
	ret = ivshm_find_dmb(&iv->geo, iv->region, token, &ism->gid, &off,
			     len, key);
	if (ret == -EBADMSG)
		ism_ivshm_peer_log(iv, KERN_WARNING,
				   "slot %u published a malformed DMB\n",
				   *slot);
	if (!ret)
		*dst = iv->region + off;
	return ret;
}

static int ism_ivshm_move_data(struct ism_dev *ism, u64 token,
			       unsigned int bit, bool sf, unsigned int offset,
			       const void *data, unsigned int size)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	struct ism_ivshm_peer *peer;
	u32 slot, idx, len;
	void *dst;
	int ret;

	if (bit >= ISM_DMBE_BITS || (!data && size))
		return -EINVAL;
	if (ism_ivshm_gone(iv))
		return -ENODEV;
	rcu_read_lock();
	ret = ism_ivshm_target(iv, token, false, &dst, &slot, &idx, &len,
			       NULL);
	if (ret)
		goto out;
	if (!ism_dmb_range_ok(len, offset, size)) {
		ret = -EINVAL;
		goto out;
	}
	dst += offset;
	/* An attached writer built the data in place: nothing to copy. */
	if (dst != data)
		ism_copy_to_dmb(dst, data, size);
	if (!sf)
		goto out;
	if (slot == iv->slot) {
		ism_handle_irq(ism, idx, BIT(bit));
		goto out;
	}
	/* One doorbell per batch the owner has yet to take, not per signal. */
	if (!ivshm_signal(&iv->geo, iv->region, slot, idx, BIT(bit)))
		goto out;
	peer = rcu_dereference(iv->peers[slot]);
	if (peer)
		ism_ivshm_ring(iv, peer->doorbell);
out:
	rcu_read_unlock();
	return ret;
}

/*
 * The region stays mapped while the device exists. An attachment of one
 * of this guest's own DMBs keeps its index and memory until it is
 * detached (ism_ivshm_free_dmb()), as the ops contract asks: the owner
 * may unregister first, and the memory must not go to a new DMB while a
 * writer (a process's mapping) still reaches it. A peer's memory is the
 * peer's to reuse: this guest cannot keep it, see ism-ivshm.rst.
 */
static int ism_ivshm_attach_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	u32 slot, idx, len;
	void *dst;
	int ret;

	if (ism_ivshm_gone(iv))
		return -ENODEV;
	rcu_read_lock();
	ret = ism_ivshm_target(iv, dmb->token, true, &dst, &slot, &idx, &len,
			       NULL);
	rcu_read_unlock();
	if (ret)
		return ret;
	dmb->cpu_addr = dst;
	dmb->len = len;
	dmb->idx = idx;
	return 0;
}

static int ism_ivshm_detach_dmb(struct ism_dev *ism, u64 token)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	struct ism_ivshm_dmb *d;
	unsigned long flags;
	u32 slot, idx;
	int ret = -ENOENT;

	if (ivshm_token_split(&iv->geo, token, &slot, &idx))
		return -ENOENT;
	if (slot != iv->slot)
		return 0;
	d = &iv->dmbs[idx];
	spin_lock_irqsave(&iv->dmb_lock, flags);
	if (d->token == token && d->attached) {
		if (!--d->attached && !d->live)
			ism_ivshm_free_dmb(iv, idx);
		ret = 0;
	}
	spin_unlock_irqrestore(&iv->dmb_lock, flags);
	return ret;
}

/*
 * The key of a DMB this guest may write, from its own table or from the
 * descriptor its owner published. Every refusal is -ENOENT: the caller
 * must not learn which DMBs exist for other writers.
 */
static int ism_ivshm_dmb_user_key(struct ism_dev *ism, u64 token, u64 *key,
				  u32 *len)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	u32 slot, idx;
	void *dst;
	int ret;

	if (ism_ivshm_gone(iv))
		return -ENODEV;
	rcu_read_lock();
	ret = ism_ivshm_target(iv, token, false, &dst, &slot, &idx, len, key);
	rcu_read_unlock();
	return ret ? -ENOENT : 0;
}

/* The owner as the token's slot and this guest's table of peers name it. */
static int ism_ivshm_dmb_owner(struct ism_dev *ism, u64 token, uuid_t *gid)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	struct ism_ivshm_peer *peer;
	u32 slot, idx;
	int ret = -ENOENT;

	if (ism_ivshm_gone(iv))
		return -ENODEV;
	if (ivshm_token_split(&iv->geo, token, &slot, &idx))
		return -ENOENT;
	if (slot == iv->slot) {
		uuid_copy(gid, &ism->gid);
		return 0;
	}
	rcu_read_lock();
	peer = rcu_dereference(iv->peers[slot]);
	if (peer) {
		uuid_copy(gid, &peer->gid);
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

static u16 ism_ivshm_get_chid(struct ism_dev *ism)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);

	return ivshm_chid(&iv->geo);
}

static int ism_ivshm_signal_event(struct ism_dev *ism, const uuid_t *rgid,
				  u32 trigger_irq, u32 event_code, u64 info)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);
	struct ism_event ev = {
		.type = ISM_EVT_SWR,
		.code = event_code,
		.info = info,
	};
	int slot;

	if (ism_ivshm_gone(iv))
		return -ENODEV;
	if (uuid_equal(rgid, &ism->gid)) {
		ev.gid = ism->gid;
		ism_handle_event(ism, &ev);
		return 0;
	}
	rcu_read_lock();
	slot = ism_ivshm_peer_slot(iv, rgid);
	rcu_read_unlock();
	if (slot < 0)
		return slot;
	ism_ivshm_post(iv, slot, &ev, trigger_irq);
	return 0;
}

/* No lock: a reader of sysfs or netlink gets a value of the moment. */
static void ism_ivshm_dmb_space(struct ism_dev *ism, u64 *used, u64 *total)
{
	struct ism_ivshm *iv = ism_dev_priv(ism);

	*used = (u64)READ_ONCE(iv->units_used) * IVSHM_UNIT;
	*total = iv->geo.data_len;
}

const struct ism_device_ops ism_ivshm_ops = {
	.query_remote_gid = ism_ivshm_query_remote_gid,
	.register_dmb = ism_ivshm_register_dmb,
	.unregister_dmb = ism_ivshm_unregister_dmb,
	.move_data = ism_ivshm_move_data,
	.get_chid = ism_ivshm_get_chid,
	.signal_event = ism_ivshm_signal_event,
	.attach_dmb = ism_ivshm_attach_dmb,
	.detach_dmb = ism_ivshm_detach_dmb,
	.dmb_owner = ism_ivshm_dmb_owner,
	.dmb_user_key = ism_ivshm_dmb_user_key,
	.dmb_space = ism_ivshm_dmb_space,
};
