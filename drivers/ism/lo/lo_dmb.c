// SPDX-License-Identifier: GPL-2.0
/*
 * ISM loopback device: DMBs and the data path.
 *
 * A DMB lives in a slot from registration until its owner unregistered it
 * and every writer that attached it detached again, in either order. The
 * data path finds it by token under RCU without taking the lock.
 */
#include <linux/gfp.h>
#include <linux/io.h>
#include <linux/random.h>
#include <linux/slab.h>

#include "ism_lo.h"

int ism_lo_dmbs_init(struct ism_lo *lo, u32 max_dmbs)
{
	spin_lock_init(&lo->lock);
	lo->max_dmbs = max_dmbs;
	lo->used = bitmap_zalloc(max_dmbs, GFP_KERNEL);
	lo->slots = kvcalloc(max_dmbs, sizeof(*lo->slots), GFP_KERNEL);
	return lo->used && lo->slots ? 0 : -ENOMEM;
}

static void ism_lo_free_dmb(struct rcu_head *head)
{
	struct ism_lo_dmb *dmb = container_of(head, struct ism_lo_dmb, rcu);

	free_pages((unsigned long)dmb->cpu_addr, get_order(dmb->len));
	kfree(dmb);
}

/* Caller holds lo->lock; @dmb is neither registered nor attached. */
static void ism_lo_retire_dmb(struct ism_lo *lo, struct ism_lo_dmb *dmb)
{
	RCU_INIT_POINTER(lo->slots[dmb->slot], NULL);
	__clear_bit(dmb->slot, lo->used);
	call_rcu(&dmb->rcu, ism_lo_free_dmb);
}

/*
 * Free the driver's tables once the device is unregistered. The core has
 * undone every DMB and attachment by then: a slot still in use is a bug,
 * freed with a warning rather than leaked.
 */
void ism_lo_dmbs_destroy(struct ism_lo *lo)
{
	struct ism_lo_dmb *dmb;
	unsigned int slot;

	if (lo->used && lo->slots) {
		spin_lock(&lo->lock);
		for_each_set_bit(slot, lo->used, lo->max_dmbs) {
			WARN_ONCE(1, "ism_lo: slot %u still in use\n", slot);
			dmb = rcu_dereference_protected(lo->slots[slot],
					lockdep_is_held(&lo->lock));
			ism_lo_retire_dmb(lo, dmb);
		}
		spin_unlock(&lo->lock);
	}
	bitmap_free(lo->used);
	kvfree(lo->slots);
}

/* Under rcu_read_lock() or lo->lock. */
static struct ism_lo_dmb *ism_lo_lookup(struct ism_lo *lo, u64 token)
{
	u32 slot = token & (ISM_LO_MAX_SLOTS - 1);
	struct ism_lo_dmb *dmb;

	if (slot >= lo->max_dmbs)
		return NULL;
	dmb = rcu_dereference_check(lo->slots[slot], lockdep_is_held(&lo->lock));
	return dmb && dmb->token == token ? dmb : NULL;
}

/* Caller holds lo->lock. Next-fit keeps the search short when many are used. */
static int ism_lo_alloc_slot(struct ism_lo *lo)
{
	unsigned long slot;

	slot = find_next_zero_bit(lo->used, lo->max_dmbs, lo->next_slot);
	if (slot >= lo->max_dmbs)
		slot = find_first_zero_bit(lo->used, lo->max_dmbs);
	if (slot >= lo->max_dmbs)
		return -ENOSPC;
	__set_bit(slot, lo->used);
	lo->next_slot = slot + 1;
	return slot;
}

int ism_lo_register_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_lo *lo = ism_dev_priv(ism);
	struct ism_lo_dmb *new;
	u64 random_bits;
	int slot;

	/* The only device a loopback DMB can be written by is its own. */
	if (!uuid_equal(&dmb->rgid, &ism->gid))
		return -EINVAL;

	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	/*
	 * Page-backed linear-map memory: clients may use virt_to_page().
	 * One compound page, since SMC's splice() hands a pipe the first
	 * page with an offset up to the DMB's length.
	 */
	new->cpu_addr = (void *)__get_free_pages(GFP_KERNEL | __GFP_ZERO |
						 __GFP_NOWARN | __GFP_COMP,
						 get_order(dmb->len));
	if (!new->cpu_addr) {
		kfree(new);
		return -ENOMEM;
	}
	new->len = dmb->len;
	new->user_key = dmb->user_key;
	new->registered = true;
	random_bits = get_random_u64() << ISM_LO_SLOT_BITS;

	spin_lock(&lo->lock);
	slot = ism_lo_alloc_slot(lo);
	if (slot < 0) {
		spin_unlock(&lo->lock);
		free_pages((unsigned long)new->cpu_addr, get_order(new->len));
		kfree(new);
		return slot;
	}
	new->slot = slot;
	new->token = random_bits | slot;
	rcu_assign_pointer(lo->slots[slot], new);
	spin_unlock(&lo->lock);

	dmb->token = new->token;
	dmb->idx = slot;
	dmb->cpu_addr = new->cpu_addr;
	/* No DMA happens; SMC only needs a non-zero address. */
	dmb->dma_addr = virt_to_phys(new->cpu_addr);
	return 0;
}

int ism_lo_unregister_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_lo *lo = ism_dev_priv(ism);
	struct ism_lo_dmb *found;
	int ret = -ENOENT;

	spin_lock(&lo->lock);
	found = ism_lo_lookup(lo, dmb->token);
	if (found && found->registered) {
		WRITE_ONCE(found->registered, false);
		if (!found->attached)
			ism_lo_retire_dmb(lo, found);
		ret = 0;
	}
	spin_unlock(&lo->lock);
	return ret;
}

int ism_lo_attach_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_lo *lo = ism_dev_priv(ism);
	struct ism_lo_dmb *found;
	int ret = -ENOENT;

	spin_lock(&lo->lock);
	found = ism_lo_lookup(lo, dmb->token);
	if (found && found->registered) {
		found->attached++;
		dmb->cpu_addr = found->cpu_addr;
		dmb->len = found->len;
		dmb->idx = found->slot;
		ret = 0;
	}
	spin_unlock(&lo->lock);
	return ret;
}

int ism_lo_detach_dmb(struct ism_dev *ism, u64 token)
{
	struct ism_lo *lo = ism_dev_priv(ism);
	struct ism_lo_dmb *found;
	int ret = -ENOENT;

	spin_lock(&lo->lock);
	found = ism_lo_lookup(lo, token);
	if (found && found->attached) {
		found->attached--;
		if (!found->attached && !found->registered)
			ism_lo_retire_dmb(lo, found);
		ret = 0;
	}
	spin_unlock(&lo->lock);
	return ret;
}

int ism_lo_dmb_user_key(struct ism_dev *ism, u64 token, u64 *key, u32 *len)
{
	struct ism_lo_dmb *dmb;
	int ret = -ENOENT;

	rcu_read_lock();
	dmb = ism_lo_lookup(ism_dev_priv(ism), token);
	if (dmb && READ_ONCE(dmb->registered)) {
		*key = dmb->user_key;
		*len = dmb->len;
		ret = 0;
	}
	rcu_read_unlock();
	return ret;
}

int ism_lo_move_data(struct ism_dev *ism, u64 token, unsigned int idx,
		     bool sf, unsigned int offset, const void *data,
		     unsigned int size)
{
	struct ism_lo *lo = ism_dev_priv(ism);
	struct ism_lo_dmb *dmb;
	void *dst;
	int ret = 0;

	if (idx >= ISM_DMBE_BITS || (!data && size))
		return -EINVAL;

	rcu_read_lock();
	dmb = ism_lo_lookup(lo, token);
	if (!dmb || !READ_ONCE(dmb->registered)) {
		ret = -ENOENT;
		goto out;
	}
	if (!ism_dmb_range_ok(dmb->len, offset, size)) {
		ret = -EINVAL;
		goto out;
	}
	dst = dmb->cpu_addr + offset;
	/* An attached writer built the data in place: nothing to copy. */
	if (dst != data)
		ism_copy_to_dmb(dst, data, size);
	if (sf)
		ism_handle_irq(ism, dmb->slot, BIT(idx));
out:
	rcu_read_unlock();
	return ret;
}
