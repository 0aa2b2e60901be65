// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: DMB registration and ownership.
 *
 * Every registered DMB has a record in its device's dmbs xarray, indexed by
 * the DMB index the device chose. The record names the owning client, which
 * the irq path needs, and lets the core release what a client left behind.
 * Writers take the xarray's lock (process context); the irq path reads it
 * under RCU.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "ism_core.h"
#include "ism_trace.h"

/* A device without room is a capacity the host or the administrator chose
 * (a region's size, its DMB indexes): say so, as clients like SMC fall
 * back quietly. Rate-limited: SMC retries at every smaller size.
 */
static void ism_dmb_no_room(struct ism_dev *dev, u32 len)
{
	u64 used, total;

	if (!dev->ops.dmb_space) {
		dev_warn_ratelimited(&dev->dev, "no room for a DMB of %u bytes: %d of %u DMBs registered\n",
				     len, atomic_read(&dev->dmb_count),
				     dev->max_dmbs);
		return;
	}
	dev->ops.dmb_space(dev, &used, &total);
	dev_warn_ratelimited(&dev->dev, "no room for a DMB of %u bytes: %d of %u DMBs registered, %llu of %llu bytes in use\n",
			     len, atomic_read(&dev->dmb_count), dev->max_dmbs,
			     used, total);
}

/**
 * ism_register_dmb() - register a DMB for a client
 * @dev: device the client was given by add_dev
 * @dmb: DMB with len and rgid set; the device fills the other fields
 * @client: the owner, which receives the DMB's irqs
 *
 * The DMB is zeroed, and a signal of it goes to @client's handle_irq.
 * Process context; may sleep. Fails once the device or the client is
 * being unregistered, from the moment the core stops delivering the
 * client's irqs for @dev: a DMB that a worker of the client registers
 * while its remove_dev runs cannot outlive the detach.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_register_dmb(struct ism_dev *dev, struct ism_dmb *dmb,
		     struct ism_client *client)
{
	struct ism_dmb_rec *rec;
	int ret;

	if (!dev || !dmb || !client)
		return -EINVAL;
	ret = -EINVAL;
	if (!ism_client_registered(client) || !dmb->len ||
	    dmb->len > dev->max_dmb_len)
		goto out;

	ret = -ENOMEM;
	rec = kzalloc(sizeof(*rec), GFP_KERNEL);
	if (!rec)
		goto out;
	/* Held until the record is in: see ism_unpublish_client(). */
	down_read(&dev->dmbs_open);
	ret = -ENODEV;
	if (test_bit(client->id, &dev->dmbs_closed))
		goto unlock;
	ret = dev->ops.register_dmb(dev, dmb);
	if (ret)
		goto unlock;

	rec->dmb = *dmb;
	rec->client = client;
	rec->client_id = client->id;
	ret = -EIO;
	if (dmb->idx < dev->max_dmbs && dmb->dma_addr)
		ret = xa_insert(&dev->dmbs, dmb->idx, rec, GFP_KERNEL);
	if (ret) {
		dev_err(&dev->dev, "cannot record DMB index %u (dma_addr %s): %d\n",
			dmb->idx, dmb->dma_addr ? "set" : "0", ret);
		dev->ops.unregister_dmb(dev, dmb);
		ret = ret == -EBUSY ? -EIO : ret;
		goto unlock;
	}
	atomic_inc(&dev->dmb_count);
	atomic_inc(&dev->client_dmbs[client->id]);
	up_read(&dev->dmbs_open);
	ism_stat_add(dev, ISM_STAT_ATTR_DMBS_REGISTERED, 1);
	trace_ism_dmb_register(dev, client, dmb, 0);
	return 0;

unlock:
	up_read(&dev->dmbs_open);
	kfree(rec);
out:
	ism_stat_add(dev, ism_stat_error(ret), 1);
	trace_ism_dmb_register(dev, client, dmb, ret);
	if (ret == -ENOSPC)
		ism_dmb_no_room(dev, dmb->len);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(ism_register_dmb, ISM);

/* Called for a record already erased from the xarray. */
static int ism_release_dmb(struct ism_dev *dev, struct ism_dmb_rec *rec)
{
	int ret = dev->ops.unregister_dmb(dev, &rec->dmb);

	atomic_dec(&dev->client_dmbs[rec->client_id]);
	atomic_dec(&dev->dmb_count);
	ism_stat_add(dev, ret ? ism_stat_error(ret) :
		     ISM_STAT_ATTR_DMBS_UNREGISTERED, 1);
	trace_ism_dmb_unregister(dev, rec->dmb.token, rec->dmb.idx, ret);
	kfree_rcu(rec, rcu);
	return ret;
}

/**
 * ism_unregister_dmb() - unregister a DMB
 * @dev: device the DMB was registered on
 * @dmb: the DMB; only token and idx are read
 * @client: the DMB's owner, the client it was registered for
 *
 * Only the owner unregisters a DMB: another client that knows its token
 * and index (a writer that attached it learns both) cannot. Works until
 * the owner's remove_dev for @dev returns. Process context; may sleep.
 * The core forgets the DMB even if the device reports an error freeing it.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_unregister_dmb(struct ism_dev *dev, struct ism_dmb *dmb,
		       struct ism_client *client)
{
	struct ism_dmb_rec *rec;

	if (!dev || !dmb || !client)
		return -EINVAL;

	xa_lock(&dev->dmbs);
	rec = xa_load(&dev->dmbs, dmb->idx);
	if (!rec || rec->dmb.token != dmb->token || rec->client != client) {
		xa_unlock(&dev->dmbs);
		ism_stat_add(dev, ISM_STAT_ATTR_ERR_TOKEN, 1);
		trace_ism_dmb_unregister(dev, dmb->token, dmb->idx, -ENOENT);
		return -ENOENT;
	}
	__xa_erase(&dev->dmbs, dmb->idx);
	xa_unlock(&dev->dmbs);

	return ism_release_dmb(dev, rec);
}
EXPORT_SYMBOL_NS_GPL(ism_unregister_dmb, ISM);

/* Release what @client still holds on @dev after its remove_dev ran.
 * Caller holds dev->clients_mutex; @client's handlers no longer run for
 * @dev and it can register no more DMBs there.
 */
void ism_release_client_dmbs(struct ism_dev *dev, struct ism_client *client)
{
	struct ism_dmb_rec *rec;
	unsigned int left = 0;
	unsigned long idx;

	/* Under RCU from finding a record to taking it, so that it cannot be
	 * freed meanwhile by an unregister the client still runs, nor its
	 * index reused by another client's DMB.
	 */
	rcu_read_lock();
	xa_for_each(&dev->dmbs, idx, rec) {
		if (rec->client != client ||
		    xa_cmpxchg(&dev->dmbs, idx, rec, NULL, 0) != rec)
			continue;
		rcu_read_unlock();
		ism_release_dmb(dev, rec);
		left++;
		rcu_read_lock();
	}
	rcu_read_unlock();
	if (left)
		dev_warn(&dev->dev, "client %s left %u DMBs registered; released them\n",
			 client->name, left);
}
