// SPDX-License-Identifier: GPL-2.0
/*
 * ISM loopback device: device lifetime and the module.
 *
 * Each loopback device has a random GID and CHID %ISM_CHID_LOOPBACK and
 * reaches only itself: two processes or network namespaces of one kernel
 * that use the same device talk through shared memory.
 */
#include <linux/module.h>
#include <linux/mutex.h>

#include "ism_lo.h"

static unsigned int num_devs = 1;
module_param(num_devs, uint, 0444);
MODULE_PARM_DESC(num_devs, "number of loopback devices created at load (default 1)");

static unsigned int max_dmbs = 5000;
module_param(max_dmbs, uint, 0444);
MODULE_PARM_DESC(max_dmbs, "DMBs per device (default 5000, at most "
		 __stringify(ISM_LO_MAX_DMBS) ")");

/* ism_lo_devices: the devices this module created; under ism_lo_mutex,
 * which is never held across ism_dev_unregister(): that may wait for the
 * clients' users, and creating or deleting another device must not.
 */
static DEFINE_MUTEX(ism_lo_mutex);
static LIST_HEAD(ism_lo_devices);

static int ism_lo_query_remote_gid(struct ism_dev *ism, const uuid_t *rgid,
				   u32 vid_valid, u32 vid)
{
	return uuid_equal(rgid, &ism->gid) ? 0 : -EHOSTUNREACH;
}

static int ism_lo_signal_event(struct ism_dev *ism, const uuid_t *rgid,
			       u32 trigger_irq, u32 event_code, u64 info)
{
	struct ism_event event = {
		.type = ISM_EVT_SWR,
		.code = event_code,
		.info = info,
		.gid = ism->gid,
	};

	if (!uuid_equal(rgid, &ism->gid))
		return -EHOSTUNREACH;
	ism_handle_event(ism, &event);
	return 0;
}

static u16 ism_lo_get_chid(struct ism_dev *ism)
{
	return ISM_CHID_LOOPBACK;
}

static const struct ism_device_ops ism_lo_ops = {
	.query_remote_gid = ism_lo_query_remote_gid,
	.register_dmb = ism_lo_register_dmb,
	.unregister_dmb = ism_lo_unregister_dmb,
	.move_data = ism_lo_move_data,
	.get_chid = ism_lo_get_chid,
	.signal_event = ism_lo_signal_event,
	.add_vlan_id = ism_lo_add_vlan_id,
	.del_vlan_id = ism_lo_del_vlan_id,
	.attach_dmb = ism_lo_attach_dmb,
	.detach_dmb = ism_lo_detach_dmb,
	.dmb_user_key = ism_lo_dmb_user_key,
};

static struct ism_dev_type ism_lo_type;

/* Caller holds ism_lo_mutex. */
static int ism_lo_create(const char *name)
{
	struct ism_dev *ism;
	struct ism_lo *lo;
	int ret;

	ism = ism_dev_alloc(&ism_lo_ops, sizeof(*lo));
	if (!ism)
		return -ENOMEM;
	lo = ism_dev_priv(ism);
	lo->ism = ism;
	ism_lo_vlans_init(lo);
	ret = ism_lo_dmbs_init(lo, max_dmbs);
	if (ret)
		goto free;
	uuid_gen(&ism->gid);
	ism->max_dmb_len = ISM_LO_MAX_DMB_LEN;
	ism->max_dmbs = max_dmbs;
	ism->type = &ism_lo_type;
	ret = dev_set_name(&ism->dev, "%s", name);
	if (ret)
		goto free;
	ret = ism_dev_register(ism);
	if (ret)
		goto free;
	list_add_tail(&lo->list, &ism_lo_devices);
	return 0;

free:
	ism_lo_dmbs_destroy(lo);
	put_device(&ism->dev);
	return ret;
}

/* @lo is off the device list; no lock held: this may wait for clients. */
static void ism_lo_destroy(struct ism_lo *lo)
{
	struct ism_dev *ism = lo->ism;

	ism_dev_unregister(ism);
	ism_lo_dmbs_destroy(lo);
	put_device(&ism->dev);
}

/* ismctl dev add loopback NAME. Process context, no core lock held. */
static int ism_lo_new_dev(const char *name, struct netlink_ext_ack *extack)
{
	int ret;

	mutex_lock(&ism_lo_mutex);
	ret = ism_lo_create(name);
	mutex_unlock(&ism_lo_mutex);
	return ret;
}

/* ismctl dev del NAME. The core holds a reference on @ism, which may have
 * been deleted since it looked it up: only a device still on the list is.
 */
static int ism_lo_del_dev(struct ism_dev *ism, struct netlink_ext_ack *extack)
{
	struct ism_lo *lo, *found = NULL;

	mutex_lock(&ism_lo_mutex);
	list_for_each_entry(lo, &ism_lo_devices, list) {
		if (lo->ism == ism) {
			list_del(&lo->list);
			found = lo;
			break;
		}
	}
	mutex_unlock(&ism_lo_mutex);
	if (!found)
		return -ENODEV;
	ism_lo_destroy(found);
	return 0;
}

static struct ism_dev_type ism_lo_type = {
	.name = "loopback",
	.owner = THIS_MODULE,
	.new_dev = ism_lo_new_dev,
	.del_dev = ism_lo_del_dev,
};

static void ism_lo_destroy_all(void)
{
	struct ism_lo *lo, *tmp;
	LIST_HEAD(all);

	mutex_lock(&ism_lo_mutex);
	list_splice_init(&ism_lo_devices, &all);
	mutex_unlock(&ism_lo_mutex);
	list_for_each_entry_safe_reverse(lo, tmp, &all, list) {
		list_del(&lo->list);
		ism_lo_destroy(lo);
	}
}

static int __init ism_lo_init(void)
{
	char name[16];
	unsigned int i;
	int ret = 0;

	if (!max_dmbs || max_dmbs > ISM_LO_MAX_DMBS) {
		pr_err("ism_lo: max_dmbs=%u: must be 1 to %u\n", max_dmbs,
		       ISM_LO_MAX_DMBS);
		return -EINVAL;
	}

	mutex_lock(&ism_lo_mutex);
	for (i = 0; i < num_devs && !ret; i++) {
		snprintf(name, sizeof(name), "ismlo%u", i);
		ret = ism_lo_create(name);
	}
	mutex_unlock(&ism_lo_mutex);
	if (!ret)
		ret = ism_dev_type_register(&ism_lo_type);
	if (ret) {
		ism_lo_destroy_all();
		rcu_barrier();
	}
	return ret;
}

static void __exit ism_lo_exit(void)
{
	/* First, so that no device is created or deleted from now on. */
	ism_dev_type_unregister(&ism_lo_type);
	ism_lo_destroy_all();
	/* DMBs are freed by RCU callbacks in this module. */
	rcu_barrier();
}

module_init(ism_lo_init);
module_exit(ism_lo_exit);

MODULE_DESCRIPTION("ISM loopback device");
MODULE_IMPORT_NS(ISM);
MODULE_LICENSE("GPL");
