// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core netlink: the DMB and client dumps.
 *
 * A DMB dump may hold thousands of entries and span many messages: the
 * position is kept in the callback, args[0] counting the devices done and
 * args[1] the next DMB index on the current one. Devices or DMBs that come
 * or go between two parts may be missed or seen once more, as in any
 * netlink dump.
 */
#include <linux/module.h>
#include <ism/kcompat.h>

#include "ism_core.h"
#include "ism_netlink.h"

/* Caller holds ism_registry_mutex (the owner stays registered) and
 * rcu_read_lock() (@rec stays allocated). The token and the peer GID are
 * what a peer needs to write into the DMB (on a loopback device the token
 * is all that stops a writer), so they go only to @admin callers.
 */
static int ism_nl_fill_dmb(struct sk_buff *skb, struct netlink_callback *cb,
			   struct ism_dev *dev, const struct ism_dmb_rec *rec,
			   bool admin)
{
	void *hdr;

	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ism_nl_family, NLM_F_MULTI, ISM_CMD_DMB_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, ISM_ATTR_DEV_NAME, ism_dev_name(dev)) ||
	    (admin && nla_put_u64_64bit(skb, ISM_ATTR_DMB_TOKEN,
					rec->dmb.token, ISM_ATTR_PAD)) ||
	    nla_put_u32(skb, ISM_ATTR_DMB_INDEX, rec->dmb.idx) ||
	    nla_put_u32(skb, ISM_ATTR_DMB_LEN, rec->dmb.len) ||
	    nla_put_string(skb, ISM_ATTR_CLIENT_NAME, rec->client->name) ||
	    (admin && nla_put(skb, ISM_ATTR_DMB_RGID, ISM_GID_LEN,
			      &rec->dmb.rgid))) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

static const char *ism_nl_dump_filter(struct netlink_callback *cb)
{
	struct nlattr *attr = ism_genl_dump_attrs(cb)[ISM_ATTR_DEV_NAME];

	return attr ? nla_data(attr) : NULL;
}

/**
 * ism_nl_dmb_get_start() - check the filter of an ISM_CMD_DMB_GET dump
 * @cb: the dump; ISM_ATTR_DEV_NAME, if given, must name a device
 *
 * Checked here rather than in the dump so that the error reaches the
 * requester as an ordinary netlink error with its message.
 *
 * Return: 0, -ENODEV for an unknown device, -EINTR if killed while
 * waiting for the registry.
 */
int ism_nl_dmb_get_start(struct netlink_callback *cb)
{
	const char *filter = ism_nl_dump_filter(cb);
	bool found;

	if (!filter)
		return 0;
	if (mutex_lock_killable(&ism_registry_mutex))
		return -EINTR;
	found = ism_dev_find(filter);
	mutex_unlock(&ism_registry_mutex);
	if (!found) {
		NL_SET_ERR_MSG(cb->extack, "no such device");
		return -ENODEV;
	}
	return 0;
}

/**
 * ism_nl_dmb_get_dumpit() - ISM_CMD_DMB_GET: one message per DMB
 * @skb: buffer for the next part of the dump
 * @cb: dump state, see the top of this file
 *
 * Tokens and peer GIDs only for callers with CAP_NET_ADMIN. One part of
 * the dump fills one message buffer, which bounds the time the registry
 * mutex is held.
 *
 * Return: the length put in @skb, 0 when the dump is complete, -EINTR if
 * killed while waiting for the registry.
 */
int ism_nl_dmb_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	bool admin = netlink_capable(cb->skb, CAP_NET_ADMIN);
	const char *filter = ism_nl_dump_filter(cb);
	struct ism_dmb_rec *rec;
	unsigned long pos = 0;
	struct ism_dev *dev;
	unsigned long idx;
	int err = 0;

	if (mutex_lock_killable(&ism_registry_mutex))
		return -EINTR;
	list_for_each_entry(dev, &ism_devices, list) {
		if (pos++ < cb->args[0])
			continue;
		if (!filter || !strcmp(filter, ism_dev_name(dev))) {
			rcu_read_lock();
			xa_for_each_start(&dev->dmbs, idx, rec, cb->args[1]) {
				err = ism_nl_fill_dmb(skb, cb, dev, rec, admin);
				if (err)
					break;
			}
			rcu_read_unlock();
			if (err) {
				cb->args[1] = idx;
				break;
			}
		}
		cb->args[0] = pos;
		cb->args[1] = 0;
	}
	mutex_unlock(&ism_registry_mutex);
	return skb->len;
}

/* Caller holds ism_registry_mutex. Counters, not a walk of the DMBs. */
static int ism_nl_fill_client(struct sk_buff *skb, struct netlink_callback *cb,
			      struct ism_client *client)
{
	unsigned int devs = 0, dmbs = 0;
	struct ism_dev *dev;
	void *hdr;

	list_for_each_entry(dev, &ism_devices, list) {
		if (rcu_access_pointer(dev->clients[client->id]) == client)
			devs++;
		dmbs += atomic_read(&dev->client_dmbs[client->id]);
	}
	hdr = genlmsg_put(skb, NETLINK_CB(cb->skb).portid, cb->nlh->nlmsg_seq,
			  &ism_nl_family, NLM_F_MULTI, ISM_CMD_CLIENT_GET);
	if (!hdr)
		return -EMSGSIZE;
	if (nla_put_string(skb, ISM_ATTR_CLIENT_NAME, client->name) ||
	    nla_put_u32(skb, ISM_ATTR_CLIENT_ID, client->id) ||
	    nla_put_u32(skb, ISM_ATTR_CLIENT_DEVS, devs) ||
	    nla_put_u32(skb, ISM_ATTR_CLIENT_DMBS, dmbs)) {
		genlmsg_cancel(skb, hdr);
		return -EMSGSIZE;
	}
	genlmsg_end(skb, hdr);
	return 0;
}

/**
 * ism_nl_client_get_dumpit() - ISM_CMD_CLIENT_GET: one message per client
 * @skb: buffer for the next part of the dump
 * @cb: dump state; args[0] is the next client slot
 *
 * Return: the length put in @skb, 0 when the dump is complete, -EINTR if
 * killed while waiting for the registry.
 */
int ism_nl_client_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb)
{
	unsigned long slot;

	if (mutex_lock_killable(&ism_registry_mutex))
		return -EINTR;
	for (slot = cb->args[0]; slot < ISM_MAX_CLIENTS; slot++) {
		if (ism_clients[slot] &&
		    ism_nl_fill_client(skb, cb, ism_clients[slot]))
			break;
	}
	cb->args[0] = slot;
	mutex_unlock(&ism_registry_mutex);
	return skb->len;
}
