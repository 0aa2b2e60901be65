// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core netlink: devices. Show them, create and delete them through
 * their driver's &struct ism_dev_type, and reset their counters.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ism_core.h"
#include "ism_netlink.h"

/* The names of the clients in @slots, as a nest @type of client names.
 * Caller holds ism_registry_mutex: the clients keep their slots.
 */
static int ism_nl_put_client_names(struct sk_buff *skb, int type,
				   unsigned long slots)
{
	struct nlattr *nest;
	unsigned int i;

	nest = nla_nest_start(skb, type);
	if (!nest)
		return -EMSGSIZE;
	for_each_set_bit(i, &slots, ISM_MAX_CLIENTS) {
		if (nla_put_string(skb, ISM_ATTR_CLIENT_NAME,
				   ism_clients[i]->name)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* Attached: added and published, so not while add_dev runs or after the
 * detach began. Caller holds ism_registry_mutex.
 */
static int ism_nl_put_clients(struct sk_buff *skb, struct ism_dev *dev)
{
	unsigned long slots = 0;
	unsigned int i;

	for (i = 0; i < ISM_MAX_CLIENTS; i++)
		if (rcu_access_pointer(dev->clients[i]))
			__set_bit(i, &slots);
	if (ism_nl_put_client_names(skb, ISM_ATTR_DEV_CLIENTS, slots))
		return -EMSGSIZE;
	if (dev->refused &&
	    ism_nl_put_client_names(skb, ISM_ATTR_DEV_CLIENTS_REFUSED,
				    dev->refused))
		return -EMSGSIZE;
	return 0;
}

static int ism_nl_put_stats(struct sk_buff *skb, struct ism_dev *dev)
{
	u64 vals[ISM_STAT_NUM];
	struct nlattr *nest;
	int i;

	ism_stats_read(dev, vals);
	nest = nla_nest_start(skb, ISM_ATTR_DEV_STATS);
	if (!nest)
		return -EMSGSIZE;
	for (i = 0; i < ISM_STAT_NUM; i++) {
		if (nla_put_u64_64bit(skb, ISM_STAT_ATTR_MOVES + i, vals[i],
				      ISM_STAT_ATTR_PAD)) {
			nla_nest_cancel(skb, nest);
			return -EMSGSIZE;
		}
	}
	nla_nest_end(skb, nest);
	return 0;
}

/* The device's DMB space, where it has a fixed one (ops.dmb_space). */
static int ism_nl_put_space(struct sk_buff *skb, struct ism_dev *dev)
{
	u64 used, total;

	if (!dev->ops.dmb_space)
		return 0;
	dev->ops.dmb_space(dev, &used, &total);
	if (nla_put_u64_64bit(skb, ISM_ATTR_DEV_DMB_SPACE, total,
			      ISM_ATTR_PAD) ||
	    nla_put_u64_64bit(skb, ISM_ATTR_DEV_DMB_SPACE_USED, used,
			      ISM_ATTR_PAD))
		return -EMSGSIZE;
	return 0;
}

/**
 * ism_nl_fill_dev() - put one device message into @skb
 * @skb: message buffer
 * @dev: registered device
 * @portid: netlink port of the requester
 * @seq: sequence number of the request
 * @flags: netlink message flags (%NLM_F_MULTI in dumps)
 *
 * Caller holds ism_registry_mutex. Constant time per device: counters,
 * not walks, so that no reader holds the mutex for long.
 *
 * Return: 0, or -EMSGSIZE with @skb unchanged if the message does not fit.
 */
int ism_nl_fill_dev(struct sk_buff *skb, struct ism_dev *dev, u32 portid,
		    u32 seq, int flags)
{
	struct device *parent = dev->dev.parent;
	void *hdr;

	hdr = genlmsg_put(skb, portid, seq, &ism_nl_family, flags,
			  ISM_CMD_DEV_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, ISM_ATTR_DEV_NAME, ism_dev_name(dev)) ||
	    (dev->type &&
	     nla_put_string(skb, ISM_ATTR_DEV_TYPE, dev->type->name)) ||
	    nla_put(skb, ISM_ATTR_DEV_GID, ISM_GID_LEN, &dev->gid) ||
	    nla_put_u16(skb, ISM_ATTR_DEV_CHID, ism_get_chid(dev)) ||
	    (parent &&
	     nla_put_string(skb, ISM_ATTR_DEV_PARENT, dev_name(parent))) ||
	    nla_put_u32(skb, ISM_ATTR_DEV_MAX_DMBS, dev->max_dmbs) ||
	    nla_put_u32(skb, ISM_ATTR_DEV_MAX_DMB_LEN, dev->max_dmb_len) ||
	    nla_put_u32(skb, ISM_ATTR_DEV_DMBS, atomic_read(&dev->dmb_count)) ||
	    ism_nl_put_space(skb, dev) ||
	    ((dev->going || dev->del_queued) &&
	     nla_put_flag(skb, ISM_ATTR_DEV_GOING)) ||
	    ism_nl_put_clients(skb, dev) || ism_nl_put_stats(skb, dev)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/* Whether @attr is missing from the request, with a message if so. */
static bool ism_nl_missing(struct genl_info *info, int attr)
{
	if (!GENL_REQ_ATTR_CHECK(info, attr))
		return false;
	if (attr == ISM_ATTR_DEV_TYPE)
		NL_SET_ERR_MSG(info->extack, "missing device type");
	else
		NL_SET_ERR_MSG(info->extack, "missing device name");
	return true;
}

/* The device named by the request's ISM_ATTR_DEV_NAME; NULL with an
 * error in @extack if the attribute is missing or names no device.
 * Caller holds ism_registry_mutex.
 */
static struct ism_dev *ism_nl_dev_by_attr(struct genl_info *info, int *err)
{
	struct nlattr *attr = info->attrs[ISM_ATTR_DEV_NAME];
	struct ism_dev *dev;

	*err = -EINVAL;
	if (ism_nl_missing(info, ISM_ATTR_DEV_NAME))
		return NULL;
	dev = ism_dev_find(nla_data(attr));
	if (!dev) {
		NL_SET_ERR_MSG_ATTR(info->extack, attr, "no such device");
		*err = -ENODEV;
	}
	return dev;
}

/**
 * ism_nl_dev_msg() - the reply to ISM_CMD_DEV_GET for one device
 * @info: the request; ISM_ATTR_DEV_NAME is required
 *
 * Takes the registry mutex, killably.
 *
 * Return: the message, or an ERR_PTR(): -EINVAL without a name, -ENODEV
 * for an unknown device, -ENOMEM, -EINTR if killed while waiting.
 */
struct sk_buff *ism_nl_dev_msg(struct genl_info *info)
{
	struct ism_dev *dev;
	struct sk_buff *msg;
	int err;

	msg = genlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	if (!msg)
		return ERR_PTR(-ENOMEM);
	if (mutex_lock_killable(&ism_registry_mutex)) {
		nlmsg_free(msg);
		return ERR_PTR(-EINTR);
	}
	dev = ism_nl_dev_by_attr(info, &err);
	if (dev)
		err = ism_nl_fill_dev(msg, dev, info->snd_portid,
				      info->snd_seq, 0);
	mutex_unlock(&ism_registry_mutex);
	if (err) {
		nlmsg_free(msg);
		return ERR_PTR(err);
	}
	return msg;
}
EXPORT_SYMBOL_IF_KUNIT(ism_nl_dev_msg);

/**
 * ism_nl_dev_get_doit() - ISM_CMD_DEV_GET for one device
 * @skb: the request
 * @info: the request's attributes; ISM_ATTR_DEV_NAME is required
 *
 * Return: 0 with the device message sent back, or a negative errno.
 */
int ism_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct sk_buff *msg = ism_nl_dev_msg(info);

	if (IS_ERR(msg))
		return PTR_ERR(msg);
	return genlmsg_reply(msg, info);
}

/**
 * ism_nl_dev_get_dumpit() - ISM_CMD_DEV_GET for every device
 * @skb: buffer for the next part of the dump
 * @cb: dump state; args[0] counts the devices already sent
 *
 * Return: the length put in @skb, 0 when the dump is complete, -EINTR if
 * killed while waiting for the registry.
 */
int ism_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long pos = 0;
	struct ism_dev *dev;

	if (mutex_lock_killable(&ism_registry_mutex))
		return -EINTR;
	list_for_each_entry(dev, &ism_devices, list) {
		if (pos++ < cb->args[0])
			continue;
		if (ism_nl_fill_dev(skb, dev, NETLINK_CB(cb->skb).portid,
				    cb->nlh->nlmsg_seq, NLM_F_MULTI))
			break;
		cb->args[0] = pos;
	}
	mutex_unlock(&ism_registry_mutex);
	return skb->len;
}

/**
 * ism_nl_dev_new_doit() - ISM_CMD_DEV_NEW: create a device
 * @skb: the request
 * @info: ISM_ATTR_DEV_TYPE and ISM_ATTR_DEV_NAME are required
 *
 * Return: 0; -EINVAL for a missing attribute or an invalid name; -EEXIST
 * if the name is taken; -EOPNOTSUPP for a type that is not registered or
 * cannot create devices; or the driver's error.
 */
int ism_nl_dev_new_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct nlattr *name_attr = info->attrs[ISM_ATTR_DEV_NAME];
	struct netlink_ext_ack *extack = info->extack;
	struct ism_dev_type *type;
	const char *name;
	bool taken;
	int err;

	if (ism_nl_missing(info, ISM_ATTR_DEV_TYPE) ||
	    ism_nl_missing(info, ISM_ATTR_DEV_NAME))
		return -EINVAL;
	name = nla_data(name_attr);
	if (!ism_dev_name_valid(name)) {
		NL_SET_ERR_MSG_ATTR(extack, name_attr,
				    "device names are letters, digits and _.:-");
		return -EINVAL;
	}
	mutex_lock(&ism_registry_mutex);
	taken = ism_dev_find(name);
	mutex_unlock(&ism_registry_mutex);
	if (taken) {
		NL_SET_ERR_MSG_ATTR(extack, name_attr, "device name in use");
		return -EEXIST;
	}

	type = ism_dev_type_get(nla_data(info->attrs[ISM_ATTR_DEV_TYPE]));
	if (!type || !type->new_dev) {
		NL_SET_ERR_MSG_ATTR(extack, info->attrs[ISM_ATTR_DEV_TYPE],
				    "no such device type, or it cannot be created (driver not loaded?)");
		err = -EOPNOTSUPP;
		goto put;
	}
	err = type->new_dev(name, extack);
	if (err == -EEXIST)
		NL_SET_ERR_MSG_ATTR(extack, name_attr, "device name in use");
put:
	if (type)
		ism_dev_type_put(type);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ism_nl_dev_new_doit);

/**
 * struct ism_nl_del - a device deletion requested over netlink
 * @work: runs the driver's del_dev
 * @dev: the device, with a reference
 * @type: its type; ism_dev_type_unregister() waits for @work, so the
 *	driver stays loaded without a module reference, which would keep
 *	the driver from unloading for a moment after the device is gone
 */
struct ism_nl_del {
	struct work_struct work;
	struct ism_dev *dev;
	const struct ism_dev_type *type;
};

static struct workqueue_struct *ism_nl_del_wq;

/* A client may make the deletion wait for its users (SMC for applications
 * holding sockets), so it runs here rather than in the netlink handler:
 * the requester is not stuck in the kernel, and no netlink lock is held
 * while it waits.
 */
static void ism_nl_del_work(struct work_struct *work)
{
	struct ism_nl_del *del = container_of(work, struct ism_nl_del, work);
	int err = del->type->del_dev(del->dev, NULL);

	/* -ENODEV: the driver removed it meanwhile, as asked. */
	if (err && err != -ENODEV)
		dev_err(&del->dev->dev, "cannot delete: %d\n", err);
	mutex_lock(&ism_registry_mutex);
	del->dev->del_queued = false;
	mutex_unlock(&ism_registry_mutex);
	put_device(&del->dev->dev);
	kfree(del);
}

/* Caller holds ism_registry_mutex. Return: 0 with @del set up, or an
 * error with a message in @extack.
 */
static int ism_nl_del_prepare(struct ism_nl_del *del, struct ism_dev *dev,
			      struct netlink_ext_ack *extack)
{
	const struct ism_dev_type *type = dev->type;

	if (dev->going || dev->del_queued) {
		NL_SET_ERR_MSG(extack, "device is already being removed");
		return -EBUSY;
	}
	/* Only a registered type: unregistering it waits for the work. */
	if (!type || !type->del_dev || !ism_dev_type_registered(type)) {
		NL_SET_ERR_MSG(extack, "the device's driver cannot delete it");
		return -EOPNOTSUPP;
	}
	get_device(&dev->dev);
	dev->del_queued = true;
	del->dev = dev;
	del->type = type;
	INIT_WORK(&del->work, ism_nl_del_work);
	return 0;
}

/**
 * ism_nl_dev_del_doit() - ISM_CMD_DEV_DEL: start deleting a device
 * @skb: the request
 * @info: ISM_ATTR_DEV_NAME is required
 *
 * Returns once the deletion is queued; the device shows ISM_ATTR_DEV_GOING
 * while its clients let it go, and then disappears. ism_nl_dev_del_flush()
 * waits for queued deletions.
 *
 * Return: 0; -EINVAL for a missing name; -ENODEV for an unknown device;
 * -EBUSY if it is already being removed; -EOPNOTSUPP if its driver cannot
 * delete it; -ENOMEM.
 */
int ism_nl_dev_del_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ism_nl_del *del;
	struct ism_dev *dev;
	int err;

	del = kzalloc(sizeof(*del), GFP_KERNEL);
	if (!del)
		return -ENOMEM;
	mutex_lock(&ism_registry_mutex);
	dev = ism_nl_dev_by_attr(info, &err);
	if (dev)
		err = ism_nl_del_prepare(del, dev, info->extack);
	/* Queued under the mutex: ism_dev_type_unregister() takes it before
	 * it flushes, so it either sees the type gone here or waits for this.
	 */
	if (!err)
		queue_work(ism_nl_del_wq, &del->work);
	mutex_unlock(&ism_registry_mutex);
	if (err)
		kfree(del);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ism_nl_dev_del_doit);

/**
 * ism_nl_dev_del_flush() - wait until every queued deletion ran
 *
 * Process context; waits as long as the deletions do.
 */
void ism_nl_dev_del_flush(void)
{
	flush_workqueue(ism_nl_del_wq);
}
EXPORT_SYMBOL_IF_KUNIT(ism_nl_dev_del_flush);

/* An unbound queue: each deletion may wait long, and must not hold up the
 * others or a system queue.
 */
int ism_nl_del_init(void)
{
	ism_nl_del_wq = alloc_workqueue("ism_del", WQ_UNBOUND, 0);
	return ism_nl_del_wq ? 0 : -ENOMEM;
}

void ism_nl_del_exit(void)
{
	destroy_workqueue(ism_nl_del_wq);
}

/**
 * ism_nl_stats_reset_doit() - ISM_CMD_STATS_RESET
 * @skb: the request
 * @info: ISM_ATTR_DEV_NAME names the device; without it, all devices
 *
 * Return: 0, or -ENODEV for an unknown device.
 */
int ism_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info)
{
	struct ism_dev *dev;
	int err = 0;

	mutex_lock(&ism_registry_mutex);
	if (info->attrs[ISM_ATTR_DEV_NAME]) {
		dev = ism_nl_dev_by_attr(info, &err);
		if (dev) {
			ism_stats_reset(dev);
			err = 0;
		}
	} else {
		list_for_each_entry(dev, &ism_devices, list)
			ism_stats_reset(dev);
	}
	mutex_unlock(&ism_registry_mutex);
	return err;
}
EXPORT_SYMBOL_IF_KUNIT(ism_nl_stats_reset_doit);
