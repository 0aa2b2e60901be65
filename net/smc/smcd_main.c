// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D bridge: an ISM client that registers an SMC-D device with the
 * in-kernel SMC of Linux 6.1 for every ISM device, and forwards the
 * device's irqs and events to it.
 */
#include <kunit/visibility.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/workqueue.h>

#include "ism_smcd.h"

static void ism_smcd_release(struct device *dev)
{
	kfree(container_of(dev, struct ism_smcd, parent.dev));
}

/* SMC 6.1 keeps one connection pointer per DMB index in one kcalloc()ed
 * array; beyond this it cannot allocate it (and would warn trying).
 */
#define ISM_SMCD_MAX_DMBS	(KMALLOC_MAX_SIZE / sizeof(struct smc_connection *))

/* The parent of SMC's device: a child of the ISM device, so that SMC's
 * device sits below it in sysfs, shaped as a PCI device for SMC's sake
 * (see struct ism_smcd).
 */
static int ism_smcd_add_parent(struct ism_smcd *bridge)
{
	struct device *parent = &bridge->parent.dev;
	int ret;

	device_initialize(parent);
	parent->release = ism_smcd_release;
	parent->parent = ism_dev_device(bridge->ism);
	ret = dev_set_name(parent, "ism-%s", ism_dev_name(bridge->ism));
	if (!ret)
		ret = device_add(parent);
	if (ret)
		put_device(parent);
	return ret;
}

/* Process context, under the device's client lock only. */
static int ism_smcd_add_dev(struct ism_dev *ism)
{
	u32 max_dmbs = ism_get_max_dmbs(ism);
	struct ism_smcd *bridge;
	int ret;

	if (max_dmbs > ISM_SMCD_MAX_DMBS) {
		dev_err(ism_dev_device(ism),
			"ism_smcd: %u DMB indexes, SMC 6.1 can track at most %zu: not registered with SMC\n",
			max_dmbs, ISM_SMCD_MAX_DMBS);
		return -E2BIG;
	}
	bridge = kzalloc(sizeof(*bridge), GFP_KERNEL);
	if (!bridge)
		return -ENOMEM;
	bridge->ism = ism;
	ism_get_local_gid(ism, &bridge->gid);
	bridge->gid64 = ism_smcd_gid64(&bridge->gid);
	ism_smcd_vlan_init(bridge);
	ism_smcd_fail_init(bridge);
	/* On failure the parent's release frees the bridge. */
	ret = ism_smcd_add_parent(bridge);
	if (ret)
		goto fail;

	ret = -ENOMEM;
	bridge->smcd = smcd_alloc_dev(&bridge->parent.dev, ism_dev_name(ism),
				      &ism_smcd_ops, max_dmbs);
	if (!bridge->smcd)
		goto del_parent;
	bridge->smcd->priv = bridge;
	bridge->smcd->local_gid = bridge->gid64;
	ism_smcd_gid_add(bridge);
	ism_set_priv(ism, &ism_smcd_client, bridge);
	ret = smcd_register_dev(bridge->smcd);
	if (!ret)
		return 0;

	ism_set_priv(ism, &ism_smcd_client, NULL);
	ism_smcd_gid_del(bridge);
	/* SMC 6.1's smcd_free_dev() does not destroy the event workqueue
	 * smcd_alloc_dev() created (only smcd_unregister_dev() does, for a
	 * registered device), so a failed registration would leak it.
	 */
	destroy_workqueue(bridge->smcd->event_wq);
	smcd_free_dev(bridge->smcd);
del_parent:
	device_unregister(&bridge->parent.dev);
fail:
	dev_err(ism_dev_device(ism), "ism_smcd: cannot register with SMC: %d\n",
		ret);
	return ret;
}

/* Process context, under the device's client lock only: SMC waits here
 * until the applications holding SMC-D sockets on the device closed them.
 */
static void ism_smcd_remove_dev(struct ism_dev *ism)
{
	struct ism_smcd *bridge = ism_get_priv(ism, &ism_smcd_client);

	ism_smcd_fail_stop(bridge);
	/* Ends the SMC-D connections and frees their DMBs and VLANs. */
	smcd_unregister_dev(bridge->smcd);
	ism_smcd_vlan_flush(bridge);
	smcd_free_dev(bridge->smcd);
	ism_smcd_gid_del(bridge);
	device_unregister(&bridge->parent.dev);
}

/* Any context; forwarded to SMC, which defers the work to a tasklet. */
static void ism_smcd_handle_irq(struct ism_dev *ism, unsigned int idx,
				u16 dmbemask)
{
	struct ism_smcd *bridge = ism_get_priv(ism, &ism_smcd_client);

	smcd_handle_irq(bridge->smcd, idx, dmbemask);
}

/**
 * ism_smcd_event_for_smc() - does SMC 6.1 act on this event?
 * @event: an event of the device
 *
 * SMC ends its link groups with a peer that is gone (%ISM_EVT_GID) and
 * acts on its own software events SHUTDOWN and TESTLINK; for every other
 * event it still allocates work and queues it, with no bound on the
 * backlog. So the software events of other clients (ism_user's codes) and
 * whatever codes a peer makes up end here, as do DMB events.
 *
 * Return: true if the event is one SMC acts on.
 */
VISIBLE_IF_KUNIT bool ism_smcd_event_for_smc(const struct ism_event *event)
{
	if (event->type == ISM_EVT_GID)
		return true;
	return event->type == ISM_EVT_SWR &&
	       (event->code == ISM_SMCD_EV_SHUTDOWN ||
		event->code == ISM_SMCD_EV_TESTLINK);
}
EXPORT_SYMBOL_IF_KUNIT(ism_smcd_event_for_smc);

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

	if (!ism_smcd_event_for_smc(event))
		return;
	/* SMC reads the peer's GID from the token field. */
	smcd_event.tok = ism_smcd_gid64(&event->gid);
	smcd_handle_event(bridge->smcd, &smcd_event);
}

/* Exported for ism_pci_kunit, which reaches SMC-D devices through it. */
struct ism_client ism_smcd_client = {
	.name = "smc-d",
	.add_dev = ism_smcd_add_dev,
	.remove_dev = ism_smcd_remove_dev,
	.handle_irq = ism_smcd_handle_irq,
	.handle_event = ism_smcd_handle_event,
};
EXPORT_SYMBOL_IF_KUNIT(ism_smcd_client);

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
/* What ends the connection of a refused write: see smcd_diag.c. */
MODULE_SOFTDEP("pre: smc_diag");
MODULE_IMPORT_NS(ISM);
MODULE_LICENSE("GPL");
