// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D bridge: VLAN joins, out of SMC's atomic context.
 *
 * SMC 6.1 counts the users of each VLAN of a device itself and calls
 * add_vlan_id and del_vlan_id on the first and last one, under its device
 * spinlock with interrupts off. The ISM VLAN ops may sleep, so SMC's calls
 * only mark the VLAN wanted or not, and a work item then joins or leaves
 * in process context until the device's VLANs are the wanted ones. A join
 * therefore completes shortly after SMC asked, and a failed one cannot
 * fail SMC's call: it is logged, and tried again at SMC's next VLAN change.
 * Data moves do not depend on VLANs: only the device's view of them does.
 */
#include "ism_smcd.h"

/* Process context: one pass over the VLANs that differ. */
static void ism_smcd_vlan_sync(struct ism_smcd *bridge)
{
	DECLARE_BITMAP(diff, VLAN_N_VID);
	unsigned long flags;
	unsigned int vid;
	bool want;
	int ret;

	spin_lock_irqsave(&bridge->vlan_lock, flags);
	bitmap_xor(diff, bridge->vlan_wanted, bridge->vlan_joined, VLAN_N_VID);
	spin_unlock_irqrestore(&bridge->vlan_lock, flags);

	for_each_set_bit(vid, diff, VLAN_N_VID) {
		want = !test_bit(vid, bridge->vlan_joined);
		ret = want ? ism_add_vlan_id(bridge->ism, vid) :
			     ism_del_vlan_id(bridge->ism, vid);
		/* A device without VLANs does not separate them. */
		if (ret && ret != -EOPNOTSUPP && want) {
			dev_warn_ratelimited(ism_dev_device(bridge->ism),
					     "ism_smcd: cannot join VLAN %u: %d\n",
					     vid, ret);
			continue;
		}
		if (want)
			__set_bit(vid, bridge->vlan_joined);
		else
			__clear_bit(vid, bridge->vlan_joined);
	}
}

static void ism_smcd_vlan_work(struct work_struct *work)
{
	ism_smcd_vlan_sync(container_of(work, struct ism_smcd, vlan_work));
}

void ism_smcd_vlan_init(struct ism_smcd *bridge)
{
	spin_lock_init(&bridge->vlan_lock);
	INIT_WORK(&bridge->vlan_work, ism_smcd_vlan_work);
}

/* SMC's add_vlan_id (@want) and del_vlan_id. Any context. */
int ism_smcd_vlan_want(struct ism_smcd *bridge, u64 vlan_id, bool want)
{
	unsigned long flags;

	if (vlan_id >= VLAN_N_VID)
		return -EINVAL;
	spin_lock_irqsave(&bridge->vlan_lock, flags);
	if (want)
		__set_bit(vlan_id, bridge->vlan_wanted);
	else
		__clear_bit(vlan_id, bridge->vlan_wanted);
	spin_unlock_irqrestore(&bridge->vlan_lock, flags);
	schedule_work(&bridge->vlan_work);
	return 0;
}

/* After smcd_unregister_dev(): SMC wants no VLAN any more. Leaves what is
 * still joined, so the device is left as it was found.
 */
void ism_smcd_vlan_flush(struct ism_smcd *bridge)
{
	unsigned long flags;

	cancel_work_sync(&bridge->vlan_work);
	spin_lock_irqsave(&bridge->vlan_lock, flags);
	bitmap_zero(bridge->vlan_wanted, VLAN_N_VID);
	spin_unlock_irqrestore(&bridge->vlan_lock, flags);
	ism_smcd_vlan_sync(bridge);
}
