// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the client helpers that are one call into the device.
 *
 * Clients call these instead of the ops so that a device may leave optional
 * ops out (-EOPNOTSUPP) and so that clients never read device fields.
 */
#include <linux/module.h>

#include "ism_core.h"

/* Count a failed device request in the device's error counters. */
static int ism_count_error(struct ism_dev *dev, int ret)
{
	if (ret)
		ism_stat_add(dev, ism_stat_error(ret), 1);
	return ret;
}

/**
 * ism_attach_dmb() - map a peer's DMB for zero-copy writing
 * @dev: local device
 * @dmb: token set by the caller; the device fills cpu_addr and len
 *
 * The mapping stays valid until ism_detach_dmb(), even if the owner
 * unregisters the DMB first. Process context.
 *
 * Return: 0; -EINVAL for a NULL argument; -EOPNOTSUPP if the device cannot
 * attach; -ENOENT for an unknown token; or the device's error.
 */
int ism_attach_dmb(struct ism_dev *dev, struct ism_dmb *dmb)
{
	if (!dev || !dmb)
		return -EINVAL;
	if (!dev->ops.attach_dmb)
		return -EOPNOTSUPP;
	return ism_count_error(dev, dev->ops.attach_dmb(dev, dmb));
}
EXPORT_SYMBOL_GPL(ism_attach_dmb);

/**
 * ism_detach_dmb() - undo one ism_attach_dmb()
 * @dev: local device
 * @token: token of the attached DMB
 *
 * Process context.
 *
 * Return: 0; -EINVAL for a NULL device; -EOPNOTSUPP if the device cannot
 * attach; -ENOENT if @token is not attached.
 */
int ism_detach_dmb(struct ism_dev *dev, u64 token)
{
	if (!dev)
		return -EINVAL;
	if (!dev->ops.detach_dmb)
		return -EOPNOTSUPP;
	return ism_count_error(dev, dev->ops.detach_dmb(dev, token));
}
EXPORT_SYMBOL_GPL(ism_detach_dmb);

/**
 * ism_query_remote_gid() - can this device reach a peer?
 * @dev: local device
 * @rgid: the peer's GID
 * @vid_valid: whether @vid is meaningful
 * @vid: VLAN id
 *
 * Process context.
 *
 * Return: 0 if the peer is reachable; -EINVAL for NULL arguments; else the
 * device's negative errno.
 */
int ism_query_remote_gid(struct ism_dev *dev, const uuid_t *rgid,
			 u32 vid_valid, u32 vid)
{
	if (!dev || !rgid)
		return -EINVAL;
	return dev->ops.query_remote_gid(dev, rgid, vid_valid, vid);
}
EXPORT_SYMBOL_GPL(ism_query_remote_gid);

/**
 * ism_signal_event() - send a software event to a peer
 * @dev: local device
 * @rgid: the peer's GID
 * @trigger_irq: whether the peer should be interrupted
 * @event_code: delivered as the event's code
 * @info: delivered as the event's info
 *
 * Process or softirq context.
 *
 * Return: 0; -EINVAL for NULL arguments; -EOPNOTSUPP if the device has no
 * software events; or the device's error.
 */
int ism_signal_event(struct ism_dev *dev, const uuid_t *rgid,
		     u32 trigger_irq, u32 event_code, u64 info)
{
	int ret;

	if (!dev || !rgid)
		return -EINVAL;
	if (!dev->ops.signal_event)
		return -EOPNOTSUPP;
	ret = dev->ops.signal_event(dev, rgid, trigger_irq, event_code, info);
	if (!ret)
		ism_stat_add(dev, ISM_STAT_ATTR_EVENTS_SENT, 1);
	return ism_count_error(dev, ret);
}
EXPORT_SYMBOL_GPL(ism_signal_event);

/**
 * ism_add_vlan_id() - join a VLAN
 * @dev: local device
 * @vlan_id: VLAN id
 *
 * Process context.
 *
 * Return: 0; -EINVAL for a NULL device; -EOPNOTSUPP if the device has no
 * VLAN support; or the device's error.
 */
int ism_add_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	if (!dev)
		return -EINVAL;
	if (!dev->ops.add_vlan_id)
		return -EOPNOTSUPP;
	return dev->ops.add_vlan_id(dev, vlan_id);
}
EXPORT_SYMBOL_GPL(ism_add_vlan_id);

/**
 * ism_del_vlan_id() - leave a VLAN
 * @dev: local device
 * @vlan_id: VLAN id
 *
 * Process context.
 *
 * Return: as ism_add_vlan_id().
 */
int ism_del_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	if (!dev)
		return -EINVAL;
	if (!dev->ops.del_vlan_id)
		return -EOPNOTSUPP;
	return dev->ops.del_vlan_id(dev, vlan_id);
}
EXPORT_SYMBOL_GPL(ism_del_vlan_id);

/**
 * ism_get_local_gid() - the device's GID
 * @dev: device
 * @gid: filled with the GID
 *
 * Any context.
 */
void ism_get_local_gid(const struct ism_dev *dev, uuid_t *gid)
{
	uuid_copy(gid, &dev->gid);
}
EXPORT_SYMBOL_GPL(ism_get_local_gid);

/**
 * ism_get_chid() - the device's fabric id
 * @dev: device
 *
 * Any context.
 *
 * Return: the CHID; %ISM_CHID_LOOPBACK for loopback devices.
 */
u16 ism_get_chid(struct ism_dev *dev)
{
	return dev->ops.get_chid(dev);
}
EXPORT_SYMBOL_GPL(ism_get_chid);

/**
 * ism_get_max_dmbs() - the number of DMB indexes of the device
 * @dev: device
 *
 * Clients size per-DMB arrays with it: every DMB index is below it.
 * Any context.
 *
 * Return: the number of indexes.
 */
u32 ism_get_max_dmbs(struct ism_dev *dev)
{
	return dev->ops.max_dmbs(dev);
}
EXPORT_SYMBOL_GPL(ism_get_max_dmbs);

/**
 * ism_dev_name() - the device's name
 * @dev: device
 *
 * Any context.
 *
 * Return: the name, valid while the device is.
 */
const char *ism_dev_name(const struct ism_dev *dev)
{
	return dev_name(&dev->dev);
}
EXPORT_SYMBOL_GPL(ism_dev_name);
