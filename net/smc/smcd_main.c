// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D bridge: an ISM client that registers an SMC-D device with the
 * in-kernel SMC of Linux 6.1 for every ISM device, and forwards the
 * device's irqs and events to it.
 */
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ism_smcd.h"

static void ism_smcd_release(struct device *dev)
{
	kfree(container_of(dev, struct ism_smcd, parent.dev));
}

/* Process context, under the ISM registry mutex. */
static void ism_smcd_add_dev(struct ism_dev *ism)
{
	struct ism_smcd *bridge;
	int ret;

	bridge = kzalloc(sizeof(*bridge), GFP_KERNEL);
	if (!bridge)
		goto fail;
	bridge->ism = ism;
	ism_get_local_gid(ism, &bridge->gid);
	bridge->gid64 = ism_smcd_gid64(&bridge->gid);

	device_initialize(&bridge->parent.dev);
	bridge->parent.dev.release = ism_smcd_release;
	ret = dev_set_name(&bridge->parent.dev, "ism-%s", ism_dev_name(ism));
	if (!ret)
		ret = device_add(&bridge->parent.dev);
	if (ret)
		goto put_parent;

	bridge->smcd = smcd_alloc_dev(&bridge->parent.dev, ism_dev_name(ism),
				      &ism_smcd_ops, ism_get_max_dmbs(ism));
	if (!bridge->smcd)
		goto del_parent;
	bridge->smcd->priv = bridge;
	bridge->smcd->local_gid = bridge->gid64;
	ism_smcd_gid_add(bridge);
	ism_set_priv(ism, &ism_smcd_client, bridge);
	if (!smcd_register_dev(bridge->smcd))
		return;

	ism_set_priv(ism, &ism_smcd_client, NULL);
	ism_smcd_gid_del(bridge);
	/* SMC 6.1's smcd_free_dev() does not destroy the event workqueue
	 * smcd_alloc_dev() created (only smcd_unregister_dev() does, for a
	 * registered device), so a failed registration would leak it.
	 */
	destroy_workqueue(bridge->smcd->event_wq);
	smcd_free_dev(bridge->smcd);
del_parent:
	device_del(&bridge->parent.dev);
put_parent:
	put_device(&bridge->parent.dev);
fail:
	pr_err("ism_smcd: cannot register %s with SMC\n", ism_dev_name(ism));
}

/* Process context, under the ISM registry mutex. */
static void ism_smcd_remove_dev(struct ism_dev *ism)
{
	struct ism_smcd *bridge = ism_get_priv(ism, &ism_smcd_client);

	if (!bridge)
		return;
	/* Ends the SMC-D connections and frees their DMBs. */
	smcd_unregister_dev(bridge->smcd);
	smcd_free_dev(bridge->smcd);
	ism_smcd_gid_del(bridge);
	device_unregister(&bridge->parent.dev);
}

/* Any context; forwarded to SMC, which defers the work to a tasklet. */
static void ism_smcd_handle_irq(struct ism_dev *ism, unsigned int idx,
				u16 dmbemask)
{
	struct ism_smcd *bridge = ism_get_priv(ism, &ism_smcd_client);

	if (bridge)
		smcd_handle_irq(bridge->smcd, idx, dmbemask);
}

/* Any context; SMC copies the event into a work item (GFP_ATOMIC). */
static void ism_smcd_handle_event(struct ism_dev *ism,
				  const struct ism_event *event)
{
	struct ism_smcd *bridge = ism_get_priv(ism, &ism_smcd_client);
	struct smcd_event smcd_event = {
		.type = event->type,
		.code = event->code,
		.time = event->time,
		.info = event->info,
	};

	if (!bridge)
		return;
	/* SMC reads a DMB token for DMB events, else the peer's GID. */
	if (event->type == ISM_EVT_DMB)
		smcd_event.tok = event->token;
	else
		smcd_event.tok = ism_smcd_gid64(&event->gid);
	smcd_handle_event(bridge->smcd, &smcd_event);
}

struct ism_client ism_smcd_client = {
	.name = "smc-d",
	.add_dev = ism_smcd_add_dev,
	.remove_dev = ism_smcd_remove_dev,
	.handle_irq = ism_smcd_handle_irq,
	.handle_event = ism_smcd_handle_event,
};

static int __init ism_smcd_init(void)
{
	return ism_register_client(&ism_smcd_client);
}

static void __exit ism_smcd_exit(void)
{
	ism_unregister_client(&ism_smcd_client);
}

module_init(ism_smcd_init);
module_exit(ism_smcd_exit);

MODULE_DESCRIPTION("SMC-D over ISM devices: bridge to the SMC of Linux 6.1");
MODULE_LICENSE("GPL");
