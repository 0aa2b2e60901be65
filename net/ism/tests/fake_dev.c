// SPDX-License-Identifier: GPL-2.0
/*
 * The fake ISM device of the KUnit suites (fake_dev.h): its ops, which
 * count calls and record arguments, and the fake loopback devices made
 * through ISM_CMD_DEV_NEW of type FAKE_TYPE.
 */
#include <linux/device.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "fake_dev.h"

/* Numbers the fake devices' names and token bases. */
atomic_t fake_seq = ATOMIC_INIT(0);

static int fake_query_remote_gid(struct ism_dev *dev, const uuid_t *rgid,
				 u32 vid_valid, u32 vid)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_QUERY_REMOTE_GID]++;
	fake->last.rgid = rgid;
	fake->last.vid_valid = vid_valid;
	fake->last.vid = vid;
	if (fake->loop)
		return uuid_equal(rgid, &dev->gid) ? 0 : -EHOSTUNREACH;
	return fake->ret;
}

/* Frees a loop device's DMB memory once neither registered nor attached. */
static void fake_slot_put(struct fake_slot *slot)
{
	if (slot->used || slot->attached)
		return;
	kfree(slot->buf);
	slot->buf = NULL;
}

/* A loop device's slot for @token: registered, or attached if @attached. */
static struct fake_slot *fake_loop_find(struct fake_dev *fake, u64 token,
					bool attached)
{
	struct fake_slot *slot;
	unsigned int i;

	for (i = 0; i < FAKE_MAX_DMBS; i++) {
		slot = &fake->slots[i];
		if (slot->token == token &&
		    (attached ? slot->attached : slot->used))
			return slot;
	}
	return NULL;
}

static int fake_register_dmb(struct ism_dev *dev, struct ism_dmb *dmb)
{
	struct fake_dev *fake = to_fake(dev);
	struct fake_slot *slot;
	unsigned int i;

	fake->calls[OP_REGISTER_DMB]++;
	fake->last.dmb = dmb;
	if (fake->register_err)
		return fake->register_err;
	/* Like a loopback device: only the device itself may write. */
	if (fake->loop && !uuid_equal(&dmb->rgid, &dev->gid))
		return -EINVAL;
	for (i = 0; i < FAKE_MAX_DMBS; i++)
		if (!fake->slots[i].used && !fake->slots[i].attached)
			break;
	if (i == FAKE_MAX_DMBS)
		return -ENOSPC;
	slot = &fake->slots[i];
	if (fake->loop) {
		slot->buf = kzalloc(dmb->len, GFP_KERNEL);
		if (!slot->buf)
			return -ENOMEM;
	}
	slot->used = true;
	slot->token = fake->token_base + ++fake->tokens;
	slot->idx = fake->force_idx ? fake->forced_idx : i;
	slot->len = dmb->len;
	slot->user_key = dmb->user_key;
	dmb->token = slot->token;
	dmb->idx = slot->idx;
	dmb->cpu_addr = fake->loop ? slot->buf : slot;
	dmb->dma_addr = fake->zero_dma ? 0 : FAKE_DMA_BASE + i * PAGE_SIZE;
	return 0;
}

/* Finds the DMB by token and idx, as the ops contract says. */
static int fake_unregister_dmb(struct ism_dev *dev, struct ism_dmb *dmb)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i;

	fake->calls[OP_UNREGISTER_DMB]++;
	fake->last.dmb = dmb;
	for (i = 0; i < FAKE_MAX_DMBS; i++) {
		struct fake_slot *slot = &fake->slots[i];

		if (slot->used && slot->token == dmb->token &&
		    slot->idx == dmb->idx) {
			slot->used = false;
			fake_slot_put(slot);
			return 0;
		}
	}
	fake->unreg_unknown++;
	return -ENOENT;
}

/* What ism_lo does, on a loop device. */
static int fake_loop_move(struct ism_dev *dev, u64 token, unsigned int idx,
			  bool sf, unsigned int offset, const void *data,
			  unsigned int size)
{
	struct fake_slot *slot;
	void *dst;

	if (idx >= ISM_DMBE_BITS || (!data && size))
		return -EINVAL;
	slot = fake_loop_find(to_fake(dev), token, false);
	if (!slot)
		return -ENOENT;
	if (!ism_dmb_range_ok(slot->len, offset, size))
		return -EINVAL;
	dst = slot->buf + offset;
	if (dst != data)
		memcpy(dst, data, size);
	if (sf)
		ism_handle_irq(dev, slot->idx, BIT(idx));
	return 0;
}

static int fake_move_data(struct ism_dev *dev, u64 token, unsigned int idx,
			  bool sf, unsigned int offset, const void *data,
			  unsigned int size)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_MOVE_DATA]++;
	fake->last.token = token;
	fake->last.idx = idx;
	fake->last.sf = sf;
	fake->last.offset = offset;
	fake->last.data = data;
	fake->last.size = size;
	if (fake->loop)
		return fake_loop_move(dev, token, idx, sf, offset, data, size);
	return fake->ret;
}

static u16 fake_get_chid(struct ism_dev *dev)
{
	to_fake(dev)->calls[OP_GET_CHID]++;
	return FAKE_CHID;
}

static int fake_signal_event(struct ism_dev *dev, const uuid_t *rgid,
			     u32 trigger_irq, u32 event_code, u64 info)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_SIGNAL_EVENT]++;
	fake->last.rgid = rgid;
	fake->last.trigger_irq = trigger_irq;
	fake->last.event_code = event_code;
	fake->last.info = info;
	if (fake->loop) {
		struct ism_event event = {
			.type = ISM_EVT_SWR,
			.code = event_code,
			.info = info,
			.gid = dev->gid,
		};

		if (!uuid_equal(rgid, &dev->gid))
			return -EHOSTUNREACH;
		ism_handle_event(dev, &event);
		return 0;
	}
	return fake->ret;
}

static int fake_add_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_ADD_VLAN_ID]++;
	fake->last.vlan_id = vlan_id;
	return fake->ret;
}

static int fake_del_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_DEL_VLAN_ID]++;
	fake->last.vlan_id = vlan_id;
	return fake->ret;
}

static int fake_set_vlan_required(struct ism_dev *dev, bool required)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_SET_VLAN_REQUIRED]++;
	fake->last.vlan_required = required;
	return fake->ret;
}

static int fake_attach_dmb(struct ism_dev *dev, struct ism_dmb *dmb)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_ATTACH_DMB]++;
	fake->last.dmb = dmb;
	if (fake->loop) {
		struct fake_slot *slot = fake_loop_find(fake, dmb->token, false);

		if (!slot)
			return -ENOENT;
		slot->attached++;
		dmb->cpu_addr = slot->buf;
		dmb->len = slot->len;
		dmb->idx = slot->idx;
		return 0;
	}
	dmb->cpu_addr = fake;
	dmb->len = FAKE_ATTACH_LEN;
	return fake->ret;
}

static int fake_detach_dmb(struct ism_dev *dev, u64 token)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_DETACH_DMB]++;
	fake->last.token = token;
	if (fake->loop) {
		struct fake_slot *slot = fake_loop_find(fake, token, true);

		if (!slot)
			return -ENOENT;
		slot->attached--;
		fake_slot_put(slot);
		return 0;
	}
	return fake->ret;
}

/* The owner of every token is the device itself, in the GID's bytes. */
static int fake_dmb_owner(struct ism_dev *dev, u64 token, uuid_t *gid)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_DMB_OWNER]++;
	fake->last.token = token;
	uuid_copy(gid, &dev->gid);
	return fake->ret;
}

/* The key a registered DMB has; -ENOENT for any other token. */
static int fake_dmb_user_key(struct ism_dev *dev, u64 token, u64 *key,
			     u32 *len)
{
	struct fake_dev *fake = to_fake(dev);
	struct fake_slot *slot;

	fake->calls[OP_DMB_USER_KEY]++;
	fake->last.token = token;
	slot = fake_loop_find(fake, token, false);
	if (!slot)
		return -ENOENT;
	*key = slot->user_key;
	*len = slot->len;
	return 0;
}

/* A fixed space of max_dmbs DMBs of max_dmb_len; in use: what is registered. */
static void fake_dmb_space(struct ism_dev *dev, u64 *used, u64 *total)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i;

	*used = 0;
	for (i = 0; i < FAKE_MAX_DMBS; i++)
		if (fake->slots[i].used)
			*used += fake->slots[i].len;
	*total = (u64)dev->max_dmbs * dev->max_dmb_len;
}

/* Only the mandatory ops. */
const struct ism_device_ops fake_ops_min = {
	.query_remote_gid = fake_query_remote_gid,
	.register_dmb = fake_register_dmb,
	.unregister_dmb = fake_unregister_dmb,
	.move_data = fake_move_data,
	.get_chid = fake_get_chid,
};

const struct ism_device_ops fake_ops_full = {
	.query_remote_gid = fake_query_remote_gid,
	.register_dmb = fake_register_dmb,
	.unregister_dmb = fake_unregister_dmb,
	.move_data = fake_move_data,
	.get_chid = fake_get_chid,
	.signal_event = fake_signal_event,
	.add_vlan_id = fake_add_vlan_id,
	.del_vlan_id = fake_del_vlan_id,
	.set_vlan_required = fake_set_vlan_required,
	.attach_dmb = fake_attach_dmb,
	.detach_dmb = fake_detach_dmb,
	.dmb_owner = fake_dmb_owner,
	.dmb_user_key = fake_dmb_user_key,
	.dmb_space = fake_dmb_space,
};

/**
 * fake_dev_alloc() - a fake device, neither named nor registered
 * @ops: fake_ops_min or fake_ops_full
 *
 * Return: the device, which put_device() frees; NULL without memory.
 */
struct ism_dev *fake_dev_alloc(const struct ism_device_ops *ops)
{
	struct ism_dev *dev = ism_dev_alloc(ops, sizeof(struct fake_dev));

	if (dev) {
		to_fake(dev)->token_base = FAKE_TOKEN_BASE;
		dev->max_dmbs = FAKE_MAX_DMBS;
		dev->max_dmb_len = FAKE_MAX_DMB_LEN;
		uuid_gen(&dev->gid);
	}
	return dev;
}

unsigned int fake_used(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i, n = 0;

	for (i = 0; i < FAKE_MAX_DMBS; i++)
		n += fake->slots[i].used;
	return n;
}

unsigned int fake_total_calls(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i, n = 0;

	for (i = 0; i < OP_NR; i++)
		n += fake->calls[i];
	return n;
}

/* ------------------- the fake loopback device type ------------------- */

/* fake_type_devs: the loop devices made through the type; under
 * fake_type_mutex, which is not held across ism_dev_unregister(), as in
 * ism_lo.
 */
static DEFINE_MUTEX(fake_type_mutex);
static LIST_HEAD(fake_type_devs);
static bool fake_type_registered;
static struct ism_dev_type fake_type;

/* Process context, no core lock held: ISM_CMD_DEV_NEW of FAKE_TYPE. */
static int fake_new_dev(const char *name, struct netlink_ext_ack *extack)
{
	struct ism_dev *dev = fake_dev_alloc(&fake_ops_full);
	struct fake_dev *fake;
	int ret;

	if (!dev)
		return -ENOMEM;
	fake = to_fake(dev);
	fake->loop = true;
	fake->ism = dev;
	/* Tokens of different devices differ, as a driver's would. */
	fake->token_base = FAKE_TOKEN_BASE +
			   ((u64)atomic_inc_return(&fake_seq) << 32);
	dev->max_dmb_len = FAKE_LOOP_MAX_DMB_LEN;
	dev->type = &fake_type;
	ret = dev_set_name(&dev->dev, "%s", name);
	if (!ret)
		ret = ism_dev_register(dev);
	if (ret) {
		put_device(&dev->dev);
		return ret;
	}
	mutex_lock(&fake_type_mutex);
	list_add_tail(&fake->list, &fake_type_devs);
	mutex_unlock(&fake_type_mutex);
	return 0;
}

/* @dev is off the type's list. */
static void fake_destroy(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i;

	ism_dev_unregister(dev);
	/* The core released every DMB and attachment: a slot left is a bug. */
	for (i = 0; i < FAKE_MAX_DMBS; i++) {
		WARN_ONCE(fake->slots[i].buf, "%s: slot %u still in use\n",
			  ism_dev_name(dev), i);
		kfree(fake->slots[i].buf);
	}
	put_device(&dev->dev);
}

/* From the core's deletion work item: ISM_CMD_DEV_DEL. */
static int fake_del_dev(struct ism_dev *dev, struct netlink_ext_ack *extack)
{
	struct fake_dev *fake, *found = NULL;

	mutex_lock(&fake_type_mutex);
	list_for_each_entry(fake, &fake_type_devs, list) {
		if (fake == to_fake(dev)) {
			list_del(&fake->list);
			found = fake;
			break;
		}
	}
	mutex_unlock(&fake_type_mutex);
	if (!found)
		return -ENODEV;
	fake_destroy(dev);
	return 0;
}

static struct ism_dev_type fake_type = {
	.name = FAKE_TYPE,
	.owner = THIS_MODULE,
	.new_dev = fake_new_dev,
	.del_dev = fake_del_dev,
};

/**
 * fake_type_register() - let ISM_CMD_DEV_NEW make fake loopback devices
 *
 * Return: 0 or ism_dev_type_register()'s error.
 */
int fake_type_register(void)
{
	int ret = ism_dev_type_register(&fake_type);

	fake_type_registered = !ret;
	return ret;
}

/**
 * fake_type_unregister() - undo fake_type_register(), if it succeeded
 *
 * Deletes the devices made through the type that are left.
 */
void fake_type_unregister(void)
{
	struct fake_dev *fake, *tmp;
	LIST_HEAD(left);

	if (!fake_type_registered)
		return;
	fake_type_registered = false;
	/* First, so that no device is made or deleted from now on. */
	ism_dev_type_unregister(&fake_type);
	mutex_lock(&fake_type_mutex);
	list_splice_init(&fake_type_devs, &left);
	mutex_unlock(&fake_type_mutex);
	list_for_each_entry_safe(fake, tmp, &left, list) {
		list_del(&fake->list);
		fake_destroy(fake->ism);
	}
}
