// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the client helpers that are one call into the device.
 *
 * Clients call these instead of the ops so that a device may leave optional
 * ops out (-EOPNOTSUPP) and so that clients never read device fields.
 */
#include <linux/module.h>

#include "ism_core.h"
#include "ism_trace.h"

/* Count a failed device request in the device's error counters. */
static int ism_count_error(struct ism_dev *dev, int ret)
{
	if (ret)
		ism_stat_add(dev, ism_stat_error(ret), 1);
	return ret;
}

/**
 * ism_query_remote_gid() - can this device reach a peer?
 * @dev: local device
 * @rgid: the peer's GID
 * @vid_valid: whether @vid is meaningful
 * @vid: VLAN id
 *
 * A device reaches its own GID; a loopback device reaches only itself.
 * Process context.
 *
 * Return: 0 if the peer is reachable, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_query_remote_gid(struct ism_dev *dev, const uuid_t *rgid,
			 u32 vid_valid, u32 vid)
{
	if (!dev || !rgid)
		return -EINVAL;
	return dev->ops.query_remote_gid(dev, rgid, vid_valid, vid);
}
EXPORT_SYMBOL_NS_GPL(ism_query_remote_gid, ISM);

/**
 * ism_dmb_owner() - the peer that owns a DMB token
 * @dev: local device
 * @token: token of a peer DMB, as for ism_move_data()
 * @gid: set to the owner's GID
 *
 * Where it answers, the device's peers need not be trusted: any of them
 * can make a write fail, and a client must survive that (the SMC-D
 * bridge: see ism.rst, "Peers that need not be trusted"). The answer
 * comes from the token and the device's own table of peers, not from
 * anything the peer published; but a token is what some peer handed the
 * client, so its owner need not be that peer: a client that ends what it
 * has with a peer over a failed write must know the peer from its own
 * records. Any context but hard irq; does not sleep.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_dmb_owner(struct ism_dev *dev, u64 token, uuid_t *gid)
{
	if (!dev || !gid)
		return -EINVAL;
	if (!dev->ops.dmb_owner)
		return -EOPNOTSUPP;
	return dev->ops.dmb_owner(dev, token, gid);
}
EXPORT_SYMBOL_NS_GPL(ism_dmb_owner, ISM);

/**
 * ism_check_user_key() - may a writer in user space reach this DMB?
 * @dev: local device, the writer's
 * @token: token of the DMB, as for ism_move_data()
 * @key: the key the writer presents
 * @len: set to the DMB's length, so that a whole write can be checked
 *	before its first byte moves
 *
 * For clients that write on behalf of user space (ism_user): a DMB is
 * reachable only with the non-zero key its owner registered it with, and
 * only where @dev may write into it. Kernel clients' DMBs (key 0) never
 * are. The answer holds for the token: a DMB registered later gets
 * another token, so a write by token after the check reaches this DMB or
 * fails. Any context but hard irq; does not sleep.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_check_user_key(struct ism_dev *dev, u64 token, u64 key, u32 *len)
{
	u64 want;
	int ret;

	if (!dev || !len)
		return -EINVAL;
	if (!dev->ops.dmb_user_key)
		return -EOPNOTSUPP;
	ret = dev->ops.dmb_user_key(dev, token, &want, len);
	if (ret)
		return ret;
	return want && want == key ? 0 : -ENOENT;
}
EXPORT_SYMBOL_NS_GPL(ism_check_user_key, ISM);

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
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
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
EXPORT_SYMBOL_NS_GPL(ism_signal_event, ISM);

/* Both VLAN helpers: the op, then the ism_vlan tracepoint. */
static int ism_vlan_op(struct ism_dev *dev, u64 vlan_id, bool join)
{
	int (*op)(struct ism_dev *dev, u64 vlan_id);
	int ret;

	if (!dev)
		return -EINVAL;
	op = join ? dev->ops.add_vlan_id : dev->ops.del_vlan_id;
	if (!op)
		return -EOPNOTSUPP;
	might_sleep();
	ret = op(dev, vlan_id);
	trace_ism_vlan(dev, vlan_id, join, ret);
	return ism_count_error(dev, ret);
}

/**
 * ism_add_vlan_id() - join a VLAN
 * @dev: local device
 * @vlan_id: VLAN id
 *
 * Joins are not counted: a VLAN joined twice is left by one
 * ism_del_vlan_id(). Process context; may sleep.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_add_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	return ism_vlan_op(dev, vlan_id, true);
}
EXPORT_SYMBOL_NS_GPL(ism_add_vlan_id, ISM);

/**
 * ism_del_vlan_id() - leave a VLAN
 * @dev: local device
 * @vlan_id: VLAN id
 *
 * Process context; may sleep.
 *
 * Return: as ism_add_vlan_id().
 */
int ism_del_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	return ism_vlan_op(dev, vlan_id, false);
}
EXPORT_SYMBOL_NS_GPL(ism_del_vlan_id, ISM);

/**
 * ism_set_vlan_required() - restrict a device to its VLANs, or lift that
 * @dev: local device
 * @required: reach peers only on the VLANs joined with ism_add_vlan_id()
 *
 * Only PCI-ISM functions have this mode. Process context; may sleep.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_set_vlan_required(struct ism_dev *dev, bool required)
{
	if (!dev)
		return -EINVAL;
	if (!dev->ops.set_vlan_required)
		return -EOPNOTSUPP;
	might_sleep();
	return ism_count_error(dev, dev->ops.set_vlan_required(dev, required));
}
EXPORT_SYMBOL_NS_GPL(ism_set_vlan_required, ISM);

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
EXPORT_SYMBOL_NS_GPL(ism_get_local_gid, ISM);

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
EXPORT_SYMBOL_NS_GPL(ism_get_chid, ISM);

/**
 * ism_get_max_dmbs() - the number of DMB indexes of the device
 * @dev: device
 *
 * Clients size per-DMB arrays with it: every DMB index is below it. A
 * constant of the device. Any context.
 *
 * Return: the number of indexes.
 */
u32 ism_get_max_dmbs(const struct ism_dev *dev)
{
	return dev->max_dmbs;
}
EXPORT_SYMBOL_NS_GPL(ism_get_max_dmbs, ISM);

/**
 * ism_get_max_dmb_len() - the largest DMB the device accepts
 * @dev: device
 *
 * A constant of the device. Any context.
 *
 * Return: the length in bytes; ism_register_dmb() refuses longer ones.
 */
u32 ism_get_max_dmb_len(const struct ism_dev *dev)
{
	return dev->max_dmb_len;
}
EXPORT_SYMBOL_NS_GPL(ism_get_max_dmb_len, ISM);

/**
 * ism_get_dmb_space() - the device's DMB space, where it has a fixed one
 * @dev: device
 * @used: set to the bytes of DMBs registered now (all clients')
 * @total: set to the bytes of the whole space
 *
 * For clients that share the space out (ism_user gives each user a part
 * of it). Any context but hard irq; does not sleep.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_get_dmb_space(struct ism_dev *dev, u64 *used, u64 *total)
{
	if (!dev || !used || !total)
		return -EINVAL;
	if (!dev->ops.dmb_space)
		return -EOPNOTSUPP;
	dev->ops.dmb_space(dev, used, total);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(ism_get_dmb_space, ISM);

/**
 * ism_dev_can_attach() - whether the device supports zero-copy attachments
 * @dev: device
 *
 * Any context.
 *
 * Return: true if ism_attach_dmb() can succeed on @dev; false if it
 * always returns -EOPNOTSUPP.
 */
bool ism_dev_can_attach(const struct ism_dev *dev)
{
	return dev->ops.attach_dmb;
}
EXPORT_SYMBOL_NS_GPL(ism_dev_can_attach, ISM);

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
EXPORT_SYMBOL_NS_GPL(ism_dev_name, ISM);

/**
 * ism_dev_device() - the device's &struct device, in class ``ism``
 * @dev: device
 *
 * For clients to give their own objects a parent (the SMC-D bridge puts
 * SMC's device below it) and for dev_*() logging. A client's children of
 * it must be gone when its remove_dev returns. Any context.
 *
 * Return: the device; valid while @dev is.
 */
struct device *ism_dev_device(struct ism_dev *dev)
{
	return &dev->dev;
}
EXPORT_SYMBOL_NS_GPL(ism_dev_device, ISM);
