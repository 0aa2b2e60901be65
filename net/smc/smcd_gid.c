// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D bridge: 128-bit ISM GIDs as SMC 6.1's 64-bit GIDs.
 *
 * SMC knows a device by its first 64 GID bits. Going back, a GID that
 * belongs to a bridged device of this host gets its full 128 bits from the
 * device; any other (a peer of a virtual or hardware device) is taken to be
 * a 64-bit GID: its 64 bits followed by zeroes, the form such devices use.
 */
#include <linux/spinlock.h>
#include <ism/kcompat.h>

#include "ism_smcd.h"

/* ism_smcd_gids: bridged devices; any context may look GIDs up. */
static DEFINE_SPINLOCK(ism_smcd_gids_lock);
static LIST_HEAD(ism_smcd_gids);

u64 ism_smcd_gid64(const uuid_t *gid)
{
	return get_unaligned_be64(gid->b);
}

void ism_smcd_gid_add(struct ism_smcd *bridge)
{
	unsigned long flags;

	spin_lock_irqsave(&ism_smcd_gids_lock, flags);
	list_add_tail(&bridge->list, &ism_smcd_gids);
	spin_unlock_irqrestore(&ism_smcd_gids_lock, flags);
}

void ism_smcd_gid_del(struct ism_smcd *bridge)
{
	unsigned long flags;

	spin_lock_irqsave(&ism_smcd_gids_lock, flags);
	list_del(&bridge->list);
	spin_unlock_irqrestore(&ism_smcd_gids_lock, flags);
}

void ism_smcd_gid_lookup(u64 gid64, uuid_t *gid)
{
	struct ism_smcd *bridge;
	unsigned long flags;

	spin_lock_irqsave(&ism_smcd_gids_lock, flags);
	list_for_each_entry(bridge, &ism_smcd_gids, list) {
		if (bridge->gid64 == gid64) {
			uuid_copy(gid, &bridge->gid);
			spin_unlock_irqrestore(&ism_smcd_gids_lock, flags);
			return;
		}
	}
	spin_unlock_irqrestore(&ism_smcd_gids_lock, flags);
	memset(gid, 0, sizeof(*gid));
	put_unaligned_be64(gid64, gid->b);
}
