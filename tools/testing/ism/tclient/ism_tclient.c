// SPDX-License-Identifier: GPL-2.0
/*
 * ism_tclient: an ISM client with a known workload, for testing what the
 * ism generic netlink family and ismctl report.
 *
 * On every device it is given it registers @dmbs DMBs of @dmb_len bytes
 * that the device itself may write (loopback devices reach only
 * themselves), or as many as it can: it stops at the @refusals-th
 * registration the device refuses (many refusals at once test the log's
 * rate limit). Once registered, it makes @moves writes of @size bytes
 * with the signal flag set into the DMBs of every device it has,
 * round-robin at offset 0, checks each DMB's content after the write,
 * counts the irqs it receives, and logs one line per device:
 *
 *   ism_tclient: ismlo0: dmbs=4 moves=100 bytes=409600 irqs=100 mismatches=0
 *
 * Devices that appear later get their DMBs but no writes.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/ism.h>
#include <linux/list.h>
#include <linux/module.h>
#include <linux/mutex.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>

static unsigned int dmbs = 4;
module_param(dmbs, uint, 0444);
MODULE_PARM_DESC(dmbs, "DMBs registered on each device (default 4)");

static unsigned int dmb_len = 65536;
module_param(dmb_len, uint, 0444);
MODULE_PARM_DESC(dmb_len, "length of each DMB in bytes (default 65536)");

static unsigned int moves = 100;
module_param(moves, uint, 0444);
MODULE_PARM_DESC(moves, "writes per device at load (default 100)");

static unsigned int size = 4096;
module_param(size, uint, 0444);
MODULE_PARM_DESC(size, "bytes per write, at most dmb_len (default 4096)");

static unsigned int refusals = 1;
module_param(refusals, uint, 0444);
MODULE_PARM_DESC(refusals,
		 "refused registrations on each device before it stops trying (default 1)");

/* More than any device has indexes for. */
#define TCLIENT_MAX_DMBS	(1U << 20)

/**
 * struct tclient_dev - the client's state for one device
 * @list: entry in tclient_devs
 * @dev: the device
 * @irqs: signals delivered to handle_irq
 * @nr: DMBs registered, the first @nr of @dmb
 * @dmb: the DMBs
 */
struct tclient_dev {
	struct list_head list;
	struct ism_dev *dev;
	atomic_t irqs;
	unsigned int nr;
	struct ism_dmb dmb[];
};

/*
 * tclient_devs lists the devices between add_dev and remove_dev. Both run
 * under the device's client lock and take tclient_lock inside it; the
 * workload at init holds tclient_lock only, so no device leaves while it
 * writes to it.
 */
static LIST_HEAD(tclient_devs);
static DEFINE_MUTEX(tclient_lock);

static struct ism_client tclient;

static void tclient_unregister_dmbs(struct tclient_dev *td)
{
	while (td->nr)
		ism_unregister_dmb(td->dev, &td->dmb[--td->nr], &tclient);
}

/* Process context, under the device's client lock. */
static int tclient_add_dev(struct ism_dev *dev)
{
	struct tclient_dev *td;
	unsigned int refused = 0;
	uuid_t gid;
	int ret = 0;

	td = kvzalloc(struct_size(td, dmb, dmbs), GFP_KERNEL);
	if (!td)
		return -ENOMEM;
	td->dev = dev;
	atomic_set(&td->irqs, 0);
	ism_get_local_gid(dev, &gid);
	while (td->nr < dmbs) {
		struct ism_dmb *dmb = &td->dmb[td->nr];

		dmb->len = dmb_len;
		dmb->rgid = gid;
		ret = ism_register_dmb(dev, dmb, &tclient);
		if (!ret)
			td->nr++;
		else if (++refused >= refusals)
			break;
	}
	if (ret)
		pr_warn("%s: registered %u of %u DMBs: error %d\n",
			ism_dev_name(dev), td->nr, dmbs, ret);
	ism_set_priv(dev, &tclient, td);
	mutex_lock(&tclient_lock);
	list_add_tail(&td->list, &tclient_devs);
	mutex_unlock(&tclient_lock);
	return 0;
}

/* Process context, under the device's client lock; no irq runs any more. */
static void tclient_remove_dev(struct ism_dev *dev)
{
	struct tclient_dev *td = ism_get_priv(dev, &tclient);

	mutex_lock(&tclient_lock);
	list_del(&td->list);
	mutex_unlock(&tclient_lock);
	tclient_unregister_dmbs(td);
	kvfree(td);
}

/* Any context, under rcu_read_lock(); between add_dev and remove_dev. */
static void tclient_handle_irq(struct ism_dev *dev, unsigned int idx,
			       u16 dmbemask)
{
	struct tclient_dev *td = ism_get_priv(dev, &tclient);

	atomic_inc(&td->irqs);
}

static struct ism_client tclient = {
	.name = "ism_tclient",
	.add_dev = tclient_add_dev,
	.remove_dev = tclient_remove_dev,
	.handle_irq = tclient_handle_irq,
};

/* The workload on one device; caller holds tclient_lock. */
static void tclient_run(struct tclient_dev *td, u8 *buf)
{
	unsigned int i, j, done = 0, errors = 0, mismatches = 0;
	int ret = 0;

	for (i = 0; td->nr && i < moves; i++) {
		struct ism_dmb *dmb = &td->dmb[i % td->nr];

		for (j = 0; j < size; j++)
			buf[j] = i + j * 7;
		ret = ism_move_data(td->dev, dmb->token, 0, true, 0, buf,
				    size);
		if (ret) {
			errors++;
			continue;
		}
		done++;
		if (memcmp(dmb->cpu_addr, buf, size))
			mismatches++;
		cond_resched();
	}
	if (errors)
		pr_warn("%s: %u writes failed, the last with error %d\n",
			ism_dev_name(td->dev), errors, ret);
	pr_info("%s: dmbs=%u moves=%u bytes=%llu irqs=%d mismatches=%u\n",
		ism_dev_name(td->dev), td->nr, done, (u64)done * size,
		atomic_read(&td->irqs), mismatches);
}

static int __init tclient_init(void)
{
	struct tclient_dev *td;
	u8 *buf;
	int ret;

	if (!dmbs || dmbs > TCLIENT_MAX_DMBS || !dmb_len || !size ||
	    size > dmb_len) {
		pr_err("bad parameters: need 1 <= dmbs <= %u and 1 <= size <= dmb_len\n",
		       TCLIENT_MAX_DMBS);
		return -EINVAL;
	}
	buf = kvmalloc(size, GFP_KERNEL);
	if (!buf)
		return -ENOMEM;
	ret = ism_register_client(&tclient);
	if (ret) {
		kvfree(buf);
		return ret;
	}
	/* Registered: the client is published and irqs reach it. */
	mutex_lock(&tclient_lock);
	list_for_each_entry(td, &tclient_devs, list)
		tclient_run(td, buf);
	mutex_unlock(&tclient_lock);
	kvfree(buf);
	return 0;
}

static void __exit tclient_exit(void)
{
	ism_unregister_client(&tclient);
}

module_init(tclient_init);
module_exit(tclient_exit);

MODULE_DESCRIPTION("ISM test client with a known workload");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
