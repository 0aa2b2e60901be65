// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: zero-copy attachments and their owners.
 *
 * A client that attaches a peer's DMB writes straight into its memory,
 * which the device keeps alive until the attachment is undone. The core
 * records each attachment with the client that made it, as it does DMBs:
 * only that client can undo it, and whatever a client still holds when it
 * leaves a device is undone then, before the device can free anything.
 */
#include <linux/module.h>
#include <linux/slab.h>

#include "ism_core.h"

/**
 * struct ism_attachment - a client's attachments of one DMB token
 * @list: entry in the device's attached list
 * @client: the client that attached
 * @token: the attached DMB's token
 * @count: number of ism_attach_dmb() calls not yet undone
 */
struct ism_attachment {
	struct list_head list;
	struct ism_client *client;
	u64 token;
	unsigned int count;
};

/* Caller holds dev->attach_lock. */
static struct ism_attachment *ism_attachment_find(struct ism_dev *dev,
						  u64 token,
						  struct ism_client *client)
{
	struct ism_attachment *att;

	list_for_each_entry(att, &dev->attached, list)
		if (att->client == client && att->token == token)
			return att;
	return NULL;
}

/* Records one more attachment of @token by @client, using @new if it is
 * the first. Return: whether @new was used.
 */
static bool ism_attachment_add(struct ism_dev *dev, u64 token,
			       struct ism_client *client,
			       struct ism_attachment *new)
{
	struct ism_attachment *att;

	spin_lock(&dev->attach_lock);
	att = ism_attachment_find(dev, token, client);
	if (att) {
		att->count++;
	} else {
		new->client = client;
		new->token = token;
		new->count = 1;
		list_add_tail(&new->list, &dev->attached);
	}
	spin_unlock(&dev->attach_lock);
	return !att;
}

/**
 * ism_attach_dmb() - map a peer's DMB for zero-copy writing
 * @dev: local device, one the client was added to
 * @dmb: token set by the caller; the device fills cpu_addr, len and idx
 * @client: the client that will own the attachment
 *
 * The memory stays valid until the client undoes the attachment with
 * ism_detach_dmb(), even if the owner unregisters the DMB first; when the
 * client leaves the device, the core undoes what it still holds. Each
 * successful call needs its own ism_detach_dmb(). Process context; may
 * sleep.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_attach_dmb(struct ism_dev *dev, struct ism_dmb *dmb,
		   struct ism_client *client)
{
	struct ism_attachment *new;
	int ret;

	if (!dev || !dmb || !client || !ism_client_registered(client))
		return -EINVAL;
	if (!dev->ops.attach_dmb)
		return -EOPNOTSUPP;
	new = kzalloc(sizeof(*new), GFP_KERNEL);
	if (!new)
		return -ENOMEM;
	/* Recorded before the client's detach can look: see ism_core.h. */
	down_read(&dev->dmbs_open);
	ret = -ENODEV;
	if (!test_bit(client->id, &dev->dmbs_closed))
		ret = dev->ops.attach_dmb(dev, dmb);
	if (!ret && ism_attachment_add(dev, dmb->token, client, new))
		new = NULL;
	up_read(&dev->dmbs_open);
	kfree(new);
	if (ret)
		ism_stat_add(dev, ism_stat_error(ret), 1);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(ism_attach_dmb, ISM);

/**
 * ism_detach_dmb() - undo one ism_attach_dmb()
 * @dev: local device
 * @token: token of the attached DMB
 * @client: the client that attached it
 *
 * Once the last attachment of a DMB is undone and its owner unregistered
 * it, the device frees its memory: the client must not write to it any
 * more. Process context; may sleep.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_detach_dmb(struct ism_dev *dev, u64 token, struct ism_client *client)
{
	struct ism_attachment *att;
	bool last;
	int ret;

	if (!dev || !client)
		return -EINVAL;
	if (!dev->ops.detach_dmb)
		return -EOPNOTSUPP;
	spin_lock(&dev->attach_lock);
	att = ism_attachment_find(dev, token, client);
	last = att && !--att->count;
	if (last)
		list_del(&att->list);
	spin_unlock(&dev->attach_lock);
	if (!att) {
		ism_stat_add(dev, ISM_STAT_ATTR_ERR_TOKEN, 1);
		return -ENOENT;
	}
	if (last)
		kfree(att);
	ret = dev->ops.detach_dmb(dev, token);
	if (ret) {
		/* The core held it, so the device must have: a driver bug. */
		dev_err(&dev->dev, "device failed to detach token 0x%llx: %d\n",
			token, ret);
		ism_stat_add(dev, ism_stat_error(ret), 1);
	}
	return ret;
}
EXPORT_SYMBOL_NS_GPL(ism_detach_dmb, ISM);

/* Undo what @client still holds on @dev after its remove_dev ran. Caller
 * holds dev->clients_mutex; the client can attach no more on @dev.
 */
void ism_release_client_attachments(struct ism_dev *dev,
				    struct ism_client *client)
{
	struct ism_attachment *att, *tmp;
	unsigned int left = 0;
	LIST_HEAD(mine);

	spin_lock(&dev->attach_lock);
	list_for_each_entry_safe(att, tmp, &dev->attached, list)
		if (att->client == client)
			list_move_tail(&att->list, &mine);
	spin_unlock(&dev->attach_lock);

	list_for_each_entry_safe(att, tmp, &mine, list) {
		for (; att->count; att->count--, left++)
			dev->ops.detach_dmb(dev, att->token);
		kfree(att);
	}
	if (left)
		dev_warn(&dev->dev, "client %s left %u attachments; detached them\n",
			 client->name, left);
}
