// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual ISM over QEMU's ivshmem: the PCI driver and the module.
 *
 * One ISM device per ivshmem function (1af4:1110) whose region carries
 * the virtual ISM layout (ivshm_layout.h), or none when format=1 tells
 * the driver to write one. ivshmem-doorbell functions (with MSI-X) wake
 * their peers with doorbells; ivshmem-plain ones have no interrupts and
 * poll for what peers signalled.
 *
 * Probe claims a free slot of the peer table with cmpxchg() (or, when all
 * are claimed, one whose heartbeat stood still for peer_timeout_ms),
 * resets its partition and marks the slot active.
 */
#include <linux/delay.h>
#include <linux/idr.h>
#include <linux/io.h>
#include <linux/log2.h>
#include <linux/memremap.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#ifdef CONFIG_X86
#include <asm/processor.h>
#endif

#include "ism_ivshm.h"

#define DRV_NAME	"ism_ivshm"

static bool format;
module_param(format, bool, 0444);
MODULE_PARM_DESC(format, "write the virtual ISM layout into regions that carry none (default no: such regions are left alone)");

static unsigned int format_peers = 16;
module_param(format_peers, uint, 0444);
MODULE_PARM_DESC(format_peers, "peer slots of a region formatted (default 16, "
		 __stringify(IVSHM_MIN_PEERS) " to " __stringify(IVSHM_MAX_PEERS) ")");

static unsigned int format_dmbs = 1024;
module_param(format_dmbs, uint, 0444);
MODULE_PARM_DESC(format_dmbs, "DMBs per peer of a region formatted (default 1024, at most "
		 __stringify(IVSHM_MAX_DMBS) ")");

static unsigned int poll_us = 200;
module_param(poll_us, uint, 0444);
MODULE_PARM_DESC(poll_us, "plain mode: interval of the poll for signals, in microseconds (default 200)");

unsigned int ism_ivshm_scan_ms = 100;
module_param_named(scan_ms, ism_ivshm_scan_ms, uint, 0444);
MODULE_PARM_DESC(scan_ms, "interval of the heartbeat and the scan for peers, in milliseconds (default 100)");

unsigned int ism_ivshm_peer_timeout_ms = 3000;
module_param_named(peer_timeout_ms, ism_ivshm_peer_timeout_ms, uint, 0444);
MODULE_PARM_DESC(peer_timeout_ms, "a peer whose heartbeat stands still this long is gone (default 3000)");

#define IVSHM_EVQ_LEN	64

static DEFINE_IDA(ism_ivshm_ida);

static irqreturn_t ism_ivshm_irq(int irq, void *data)
{
	ism_ivshm_rx(data);
	return IRQ_HANDLED;
}

static enum hrtimer_restart ism_ivshm_poll(struct hrtimer *timer)
{
	struct ism_ivshm *iv = container_of(timer, struct ism_ivshm, poll);

	ism_ivshm_rx(iv);
	if (test_bit(ISM_IVSHM_LOST, &iv->flags))
		return HRTIMER_NORESTART;
	hrtimer_forward_now(timer, ns_to_ktime(poll_us * NSEC_PER_USEC));
	return HRTIMER_RESTART;
}

/*
 * Map BAR2 with struct pages: SMC calls virt_to_page() on DMBs. Its
 * splice() hands a pipe a DMB's first page with an offset up to the
 * DMB's length, which the kernel accepts only within one compound page:
 * the pages come in compound pages of ISM_IVSHM_COMPOUND bytes, and no
 * DMB crosses one (ism_ivshm_alloc_units()).
 */
static void *ism_ivshm_map(struct pci_dev *pdev)
{
	struct dev_pagemap *pgmap;
	int ret;

	ret = pcim_iomap_regions(pdev, BIT(0), DRV_NAME);
	if (ret)
		return ERR_PTR(ret);
	ret = pci_request_region(pdev, 2, DRV_NAME);
	if (ret)
		return ERR_PTR(ret);
	pgmap = devm_kzalloc(&pdev->dev, sizeof(*pgmap), GFP_KERNEL);
	if (!pgmap)
		return ERR_PTR(-ENOMEM);
	pgmap->type = MEMORY_DEVICE_GENERIC;
	pgmap->range.start = pci_resource_start(pdev, 2);
	pgmap->range.end = pci_resource_end(pdev, 2);
	pgmap->nr_range = 1;
	pgmap->vmemmap_shift = ilog2(min_t(u64, ISM_IVSHM_COMPOUND,
					   pci_resource_len(pdev, 2)) >>
				     PAGE_SHIFT);
	return devm_memremap_pages(&pdev->dev, pgmap);
}

static int ism_ivshm_read_region(struct ism_ivshm *iv, u64 size)
{
	struct device *dev = &iv->pdev->dev;
	int ret;

	ret = ivshm_read_header(iv->region, size, &iv->geo);
	if (ret == -ENODEV && format) {
		ret = ivshm_geometry(&iv->geo, size, format_peers, format_dmbs,
				     IVSHM_EVQ_LEN);
		if (ret) {
			dev_err(dev, "cannot format %llu bytes with %u peers of %u DMBs: %d\n",
				size, format_peers, format_dmbs, ret);
			return ret;
		}
		get_random_bytes(iv->geo.region_id, sizeof(iv->geo.region_id));
		ivshm_format(iv->region, &iv->geo);
		dev_info(dev, "formatted the region for virtual ISM\n");
	} else if (ret == -ENODEV) {
		dev_info(dev, "region has no virtual ISM layout: not used (format=1 writes one)\n");
	} else if (ret) {
		dev_err(dev, "region header is not usable: %d\n", ret);
	}
	return ret;
}

/* Claim slot @s if it still has cookie @old. */
static bool ism_ivshm_claim(struct ism_ivshm *iv, u32 s, u64 old)
{
	struct ivshm_slot *slot = ivshm_slot(&iv->geo, iv->region, s);
	u64 *cookie = (u64 __force *)&slot->cookie;

	if (cmpxchg(cookie, (u64 __force)cpu_to_le64(old),
		    (u64 __force)cpu_to_le64(iv->cookie)) !=
	    (u64 __force)cpu_to_le64(old))
		return false;
	iv->slot = s;
	return true;
}

/*
 * Claim a free slot, or else one whose claim and heartbeat did not change
 * for peer_timeout_ms. Process context; may sleep that long.
 */
static int ism_ivshm_claim_slot(struct ism_ivshm *iv)
{
	struct ivshm_slot_view *before, now;
	u32 s, n = iv->geo.max_peers;
	int ret = -EBUSY;

	do {
		iv->cookie = get_random_u64();
	} while (!iv->cookie);
	before = kcalloc(n, sizeof(*before), GFP_KERNEL);
	if (!before)
		return -ENOMEM;
	for (s = 0; s < n; s++) {
		if (ivshm_read_slot(&iv->geo, iv->region, s, &before[s]))
			before[s].cookie = U64_MAX;	/* taken over below */
		else if (!before[s].cookie && ism_ivshm_claim(iv, s, 0))
			goto claimed;
	}
	dev_info(&iv->pdev->dev, "all %u slots are claimed: waiting %u ms for one to go stale\n",
		 n, ism_ivshm_peer_timeout_ms);
	msleep(ism_ivshm_peer_timeout_ms);
	for (s = 0; s < n; s++) {
		struct ivshm_slot *slot = ivshm_slot(&iv->geo, iv->region, s);
		u64 old = le64_to_cpu(READ_ONCE(slot->cookie));

		if (!ivshm_read_slot(&iv->geo, iv->region, s, &now) &&
		    (now.cookie != before[s].cookie ||
		     now.heartbeat != before[s].heartbeat))
			continue;
		if (old && ism_ivshm_claim(iv, s, old)) {
			ret = 0;
			break;
		}
	}
	kfree(before);
	return ret;

claimed:
	kfree(before);
	return 0;
}

/* Fill the claimed slot and reset the partition; peers see it active. */
static void ism_ivshm_join(struct ism_ivshm *iv)
{
	struct ivshm_slot *slot = ivshm_slot(&iv->geo, iv->region, iv->slot);

	WRITE_ONCE(slot->state, cpu_to_le32(IVSHM_SLOT_JOINING));
	/* Peers stop taking the slot for active before the reset... */
	virt_wmb();
	ivshm_reset_partition(&iv->geo, iv->region, iv->slot);
	export_uuid(slot->gid, &iv->ism->gid);
	slot->doorbell = cpu_to_le32(iv->doorbell);
	slot->heartbeat = cpu_to_le64(++iv->heartbeat);
	memset(slot->reserved, 0, sizeof(slot->reserved));
	/* ...and see all of it once it is active again. */
	virt_wmb();
	WRITE_ONCE(slot->state, cpu_to_le32(IVSHM_SLOT_ACTIVE));
}

/* Give the slot back, unless another party took it. */
static void ism_ivshm_leave(struct ism_ivshm *iv)
{
	struct ivshm_slot *slot = ivshm_slot(&iv->geo, iv->region, iv->slot);
	u64 *cookie = (u64 __force *)&slot->cookie;

	if (!ism_ivshm_claim_held(iv))
		return;
	WRITE_ONCE(slot->state, cpu_to_le32(IVSHM_SLOT_FREE));
	/* Inactive before free: a new owner's slot is never taken for ours. */
	virt_wmb();
	cmpxchg(cookie, (u64 __force)cpu_to_le64(iv->cookie), 0);
}

/* SMC-D's GIDs are 64 bits: 8 random bytes, not all zero, then zeros. */
static void ism_ivshm_gen_gid(uuid_t *gid)
{
	memset(gid, 0, sizeof(*gid));
	do {
		get_random_bytes(gid->b, 8);
	} while (!memchr_inv(gid->b, 0, 8));
}

/* Doorbell mode if the function has MSI-X: then IVPosition is our ID. */
static int ism_ivshm_read_mode(struct ism_ivshm *iv)
{
	if (!iv->pdev->msix_cap) {
		iv->doorbell = IVSHM_NO_DOORBELL;
		return 0;
	}
	iv->doorbell = readl(iv->regs + IVSHM_REG_IVPOSITION);
	if (iv->doorbell <= U16_MAX)
		return 0;
	dev_err(&iv->pdev->dev, "IVPosition %#x is not a peer ID\n",
		iv->doorbell);
	return -EIO;
}

static int ism_ivshm_start_rx(struct ism_ivshm *iv)
{
	struct pci_dev *pdev = iv->pdev;
	int ret;

	if (iv->doorbell == IVSHM_NO_DOORBELL) {
		hrtimer_init(&iv->poll, CLOCK_MONOTONIC, HRTIMER_MODE_REL);
		iv->poll.function = ism_ivshm_poll;
		return 0;
	}
	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSIX);
	if (ret < 0)
		return ret;
	/*
	 * An MSI-X message is a memory write by the function: QEMU drops
	 * it unless bus mastering is on.
	 */
	pci_set_master(pdev);
	iv->irq = pci_irq_vector(pdev, 0);
	ret = request_irq(iv->irq, ism_ivshm_irq, 0, DRV_NAME, iv);
	if (ret) {
		pci_clear_master(pdev);
		pci_free_irq_vectors(pdev);
	}
	return ret;
}

static void ism_ivshm_stop_rx(struct ism_ivshm *iv)
{
	if (iv->doorbell == IVSHM_NO_DOORBELL) {
		hrtimer_cancel(&iv->poll);
		return;
	}
	free_irq(iv->irq, iv);
	pci_clear_master(iv->pdev);
	pci_free_irq_vectors(iv->pdev);
}

/*
 * Guests share the region's words through their CPUs' atomic
 * instructions alone. QEMU's TCG makes those atomic towards other
 * processes only when it translates for parallel vCPUs, which it does
 * for a machine of more than one possible CPU: in a TCG guest with one,
 * a peer's update of a signal word or a slot claim is lost when it falls
 * between this guest's load and store (seen: SMC-D connections that
 * stalled for good on a lost signal). Under KVM the host's CPU runs them.
 */
static bool ism_ivshm_atomics_shared(void)
{
#ifdef CONFIG_X86
	if (boot_cpu_has(X86_FEATURE_HYPERVISOR) && num_possible_cpus() == 1 &&
	    hypervisor_cpuid_base("TCGTCGTCGTCG", 0))
		return false;
#endif
	return true;
}

static int ism_ivshm_probe(struct pci_dev *pdev,
			   const struct pci_device_id *id)
{
	u64 size = pci_resource_len(pdev, 2);
	struct ism_ivshm *iv;
	struct ism_dev *ism;
	void *region;
	int ret;

	if (!ism_ivshm_atomics_shared()) {
		dev_err(&pdev->dev, "QEMU TCG with one possible CPU: its atomic instructions are not atomic towards other guests; give the guest 2 or more (-smp 1,maxcpus=2)\n");
		return -EOPNOTSUPP;
	}
	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	region = ism_ivshm_map(pdev);
	if (IS_ERR(region)) {
		dev_err(&pdev->dev, "cannot map BAR2 with struct pages (the kernel needs ZONE_DEVICE): %ld\n",
			PTR_ERR(region));
		return PTR_ERR(region);
	}

	ism = ism_dev_alloc(&ism_ivshm_ops, sizeof(*iv));
	if (!ism)
		return -ENOMEM;
	iv = ism_dev_priv(ism);
	iv->ism = ism;
	iv->pdev = pdev;
	iv->region = region;
	iv->regs = pcim_iomap_table(pdev)[0];
	spin_lock_init(&iv->rx_lock);
	mutex_init(&iv->ev_lock);
	INIT_DELAYED_WORK(&iv->rx_events, ism_ivshm_rx_events_work);
	spin_lock_init(&iv->tx_lock);
	INIT_DELAYED_WORK(&iv->scan, ism_ivshm_scan_work);
	INIT_WORK(&iv->leave, ism_ivshm_leave_work);
	ratelimit_state_init(&iv->peer_log, DEFAULT_RATELIMIT_INTERVAL,
			     DEFAULT_RATELIMIT_BURST);
	iv->index = ida_alloc(&ism_ivshm_ida, GFP_KERNEL);
	ret = iv->index;
	if (ret < 0)
		goto put;
	ret = ism_ivshm_read_region(iv, size);
	if (ret)
		goto put;
	ret = ism_ivshm_dmbs_init(iv);
	if (ret)
		goto put;
	ism_ivshm_gen_gid(&ism->gid);
	ism->max_dmb_len = min_t(u32, ISM_IVSHM_COMPOUND, iv->geo.data_len);
	ism->max_dmbs = iv->geo.max_dmbs;
	ism->dev.parent = &pdev->dev;
	ret = dev_set_name(&ism->dev, "ismiv%d", iv->index);
	if (ret)
		goto put;
	ret = ism_ivshm_read_mode(iv);
	if (ret)
		goto put;
	ret = ism_ivshm_claim_slot(iv);
	if (ret) {
		dev_err(&pdev->dev, "no free slot among %u\n",
			iv->geo.max_peers);
		goto put;
	}
	ism_ivshm_join(iv);
	/* Only now: the receive path takes the signals of the own slot. */
	ret = ism_ivshm_start_rx(iv);
	if (ret)
		goto leave;
	ret = ism_dev_register(ism);
	if (ret)
		goto stop;
	set_bit(ISM_IVSHM_REGISTERED, &iv->flags);
	/* Lost already: the leave work ran before there was a registration. */
	if (test_bit(ISM_IVSHM_LOST, &iv->flags))
		queue_work(system_long_wq, &iv->leave);
	pci_set_drvdata(pdev, iv);
	schedule_delayed_work(&iv->scan, 0);
	if (iv->doorbell == IVSHM_NO_DOORBELL)
		hrtimer_start(&iv->poll, ns_to_ktime(poll_us * NSEC_PER_USEC),
			      HRTIMER_MODE_REL);
	if (iv->doorbell == IVSHM_NO_DOORBELL)
		dev_info(&pdev->dev, "%s: plain mode (polling every %u us), slot %u of %u, CHID %#06x, %llu MiB\n",
			 dev_name(&ism->dev), poll_us, iv->slot,
			 iv->geo.max_peers, ivshm_chid(&iv->geo),
			 iv->geo.region_size >> 20);
	else
		dev_info(&pdev->dev, "%s: doorbell mode (MSI-X, peer ID %u), slot %u of %u, CHID %#06x, %llu MiB\n",
			 dev_name(&ism->dev), iv->doorbell, iv->slot,
			 iv->geo.max_peers, ivshm_chid(&iv->geo),
			 iv->geo.region_size >> 20);
	return 0;

stop:
	ism_ivshm_stop_rx(iv);
leave:
	ism_ivshm_leave(iv);
put:
	cancel_delayed_work_sync(&iv->rx_events);
	cancel_work_sync(&iv->leave);
	ism_ivshm_dmbs_destroy(iv);
	if (iv->index >= 0)
		ida_free(&ism_ivshm_ida, iv->index);
	put_device(&ism->dev);
	return ret;
}

static void ism_ivshm_remove(struct pci_dev *pdev)
{
	struct ism_ivshm *iv = pci_get_drvdata(pdev);
	struct ism_dev *ism = iv->ism;

	/*
	 * The clients may wait for their peers to close: keep receiving. A
	 * lost device left its clients already, or is leaving them.
	 */
	if (test_and_clear_bit(ISM_IVSHM_REGISTERED, &iv->flags))
		ism_dev_unregister(ism);
	cancel_delayed_work_sync(&iv->scan);
	ism_ivshm_stop_rx(iv);
	cancel_delayed_work_sync(&iv->rx_events);
	flush_work(&iv->leave);
	ism_ivshm_leave(iv);
	ism_ivshm_drop_peers(iv);
	ism_ivshm_dmbs_destroy(iv);
	ida_free(&ism_ivshm_ida, iv->index);
	put_device(&ism->dev);
	/* Peers are freed by RCU callbacks of this module. */
	rcu_barrier();
}

static const struct pci_device_id ism_ivshm_ids[] = {
	{ PCI_DEVICE(PCI_VENDOR_ID_REDHAT_QUMRANET, 0x1110) },
	{ }
};
MODULE_DEVICE_TABLE(pci, ism_ivshm_ids);

static struct pci_driver ism_ivshm_driver = {
	.name = DRV_NAME,
	.id_table = ism_ivshm_ids,
	.probe = ism_ivshm_probe,
	.remove = ism_ivshm_remove,
};

static int __init ism_ivshm_init(void)
{
	if (!poll_us || !ism_ivshm_scan_ms ||
	    ism_ivshm_peer_timeout_ms < 2 * ism_ivshm_scan_ms) {
		pr_err(DRV_NAME ": poll_us and scan_ms must be non-zero, peer_timeout_ms at least twice scan_ms\n");
		return -EINVAL;
	}
	return pci_register_driver(&ism_ivshm_driver);
}

static void __exit ism_ivshm_exit(void)
{
	pci_unregister_driver(&ism_ivshm_driver);
}

module_init(ism_ivshm_init);
module_exit(ism_ivshm_exit);

MODULE_DESCRIPTION("Virtual ISM device over QEMU's ivshmem");
MODULE_IMPORT_NS(ISM);
MODULE_LICENSE("GPL");
