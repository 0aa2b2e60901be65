// SPDX-License-Identifier: GPL-2.0
/*
 * ISM loopback device: VLAN membership.
 *
 * A loopback device reaches only itself, so VLANs separate nothing; it
 * keeps the set of VLANs it joined so that joins and leaves are checked
 * and visible (the core's ism_vlan tracepoint), and takes a mutex so that
 * a caller that is not allowed to sleep is caught on the debug kernel.
 */
#include "ism_lo.h"

void ism_lo_vlans_init(struct ism_lo *lo)
{
	mutex_init(&lo->vlan_mutex);
	bitmap_zero(lo->vlans, ISM_LO_VLANS);
}

/* Process context, may sleep. */
int ism_lo_add_vlan_id(struct ism_dev *ism, u64 vlan_id)
{
	struct ism_lo *lo = ism_dev_priv(ism);

	if (vlan_id >= ISM_LO_VLANS)
		return -EINVAL;
	mutex_lock(&lo->vlan_mutex);
	__set_bit(vlan_id, lo->vlans);
	mutex_unlock(&lo->vlan_mutex);
	return 0;
}

/* Process context, may sleep. */
int ism_lo_del_vlan_id(struct ism_dev *ism, u64 vlan_id)
{
	struct ism_lo *lo = ism_dev_priv(ism);
	int ret = -ENOENT;

	if (vlan_id >= ISM_LO_VLANS)
		return -EINVAL;
	mutex_lock(&lo->vlan_mutex);
	if (__test_and_clear_bit(vlan_id, lo->vlans))
		ret = 0;
	mutex_unlock(&lo->vlan_mutex);
	return ret;
}
