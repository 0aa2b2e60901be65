// SPDX-License-Identifier: GPL-2.0
/*
 * ism_sample: a minimal ISM client, to copy from.
 *
 * For every ISM device it is given, it registers one DMB that the device
 * itself may write, writes a message into that DMB with a signal, counts
 * the signal in its irq handler and logs one line:
 *
 *   ism_sample: ismlo0: dmb 4096 bytes, moved 13 bytes, 1 signal
 *
 * A device that cannot reach its own GID is refused. Writing to yourself
 * keeps the sample to one device: a loopback device reaches only itself,
 * and any device reaches its own GID.
 *
 * It is built out of tree against a build of the ISM layer; see "Writing a
 * client" in Documentation/networking/ism.rst.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/atomic.h>
#include <linux/bits.h>
#include <linux/ism.h>
#include <linux/jiffies.h>
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/wait.h>
#include <linux/workqueue.h>

/* The DMB's size, if the device takes DMBs that large. */
#define SAMPLE_DMB_LEN		4096
/* The dmbe bit the write sets: the writer's choice, below ISM_DMBE_BITS. */
#define SAMPLE_DMBE_BIT		3
/* How long to wait for the signal. */
#define SAMPLE_WAIT_MS		3000

/* 13 bytes, with the NUL. */
static const char sample_msg[] = "hello, world";

/**
 * struct sample_dev - the sample's state for one device
 * @dev: the device
 * @dmb: the DMB registered on it
 * @work: writes into @dmb, queued by start_dev
 * @wait: where @work waits for the signal
 * @signals: signals for @dmb that sample_handle_irq() counted
 * @stopping: remove_dev has begun: @work waits no more
 */
struct sample_dev {
	struct ism_dev *dev;
	struct ism_dmb dmb;
	struct work_struct work;
	wait_queue_head_t wait;
	atomic_t signals;
	bool stopping;
};

static struct ism_client sample_client;

static bool sample_signalled(struct sample_dev *sd)
{
	return atomic_read(&sd->signals) || READ_ONCE(sd->stopping);
}

/*
 * Process context (the system workqueue), between start_dev and
 * remove_dev.
 *
 * Why not write from add_dev, or from work queued there: the core calls a
 * client's handle_irq for a device only once its add_dev has returned 0,
 * and a signal that comes earlier is lost. The data would be there, the
 * signal not. start_dev runs once handle_irq does.
 *
 * Why wait: ism_move_data() is synchronous for the data, which is in the
 * DMB when it returns 0. On the loopback device the signal has also been
 * delivered by then, because ism_lo calls the core's irq path before it
 * returns; another device may interrupt later, from its own interrupt
 * handler. So the sample does not read its counter right away but waits
 * for the signal.
 */
static void sample_work(struct work_struct *work)
{
	struct sample_dev *sd = container_of(work, struct sample_dev, work);
	unsigned int size = sizeof(sample_msg);
	struct ism_dev *dev = sd->dev;
	int signals, ret;

	/*
	 * The token names the DMB to its writer, here this device itself.
	 * idx is the dmbe bit to set (0 to 15), not the DMB's index.
	 */
	ret = ism_move_data(dev, sd->dmb.token, SAMPLE_DMBE_BIT, true, 0,
			    sample_msg, size);
	if (ret) {
		pr_warn("%s: write into the DMB failed: %d\n",
			ism_dev_name(dev), ret);
		return;
	}
	wait_event_timeout(sd->wait, sample_signalled(sd),
			   msecs_to_jiffies(SAMPLE_WAIT_MS));

	/* The receiving side: the message is in the DMB we own. */
	if (memcmp(sd->dmb.cpu_addr, sample_msg, size))
		pr_warn("%s: the DMB does not hold the message\n",
			ism_dev_name(dev));
	signals = atomic_read(&sd->signals);
	pr_info("%s: dmb %u bytes, moved %u bytes, %d signal%s\n",
		ism_dev_name(dev), sd->dmb.len, size, signals,
		signals == 1 ? "" : "s");
}

/*
 * Process context, with the device's client lock held: do not register or
 * unregister clients or devices from here. Return 0 to use the device, a
 * negative errno to refuse it (ismctl dev shows the refusal).
 */
static int sample_add_dev(struct ism_dev *dev)
{
	u32 max_len = ism_get_max_dmb_len(dev);
	struct sample_dev *sd;
	uuid_t gid;
	int ret;

	/* The DMB's writer is this device: it must reach its own GID. */
	ism_get_local_gid(dev, &gid);
	ret = ism_query_remote_gid(dev, &gid, 0, 0);
	if (ret) {
		pr_info("%s: cannot reach its own GID (%d): refused\n",
			ism_dev_name(dev), ret);
		return -EHOSTUNREACH;
	}
	if (max_len < sizeof(sample_msg))
		return -EMSGSIZE;

	sd = kzalloc(sizeof(*sd), GFP_KERNEL);
	if (!sd)
		return -ENOMEM;
	sd->dev = dev;
	INIT_WORK(&sd->work, sample_work);
	init_waitqueue_head(&sd->wait);
	atomic_set(&sd->signals, 0);

	/* The client sets len and rgid; the device fills in the rest. */
	sd->dmb.len = min_t(u32, SAMPLE_DMB_LEN, max_len);
	sd->dmb.rgid = gid;
	ret = ism_register_dmb(dev, &sd->dmb, &sample_client);
	if (ret) {
		kfree(sd);
		return ret;
	}
	/* Set before returning: handle_irq may run as soon as we return. */
	ism_set_priv(dev, &sample_client, sd);
	return 0;
}

/*
 * Same context as add_dev, called once add_dev has returned 0 and
 * handle_irq runs for @dev: a signal sent from now on is not lost.
 */
static void sample_start_dev(struct ism_dev *dev)
{
	struct sample_dev *sd = ism_get_priv(dev, &sample_client);

	schedule_work(&sd->work);
}

/*
 * Same context as add_dev, and only for a device whose add_dev returned 0.
 * handle_irq no longer runs for @dev. May sleep: here it waits for the
 * work to finish. Everything registered on @dev must be gone on return.
 */
static void sample_remove_dev(struct ism_dev *dev)
{
	struct sample_dev *sd = ism_get_priv(dev, &sample_client);

	WRITE_ONCE(sd->stopping, true);
	wake_up(&sd->wait);
	cancel_work_sync(&sd->work);
	ism_unregister_dmb(dev, &sd->dmb, &sample_client);
	ism_set_priv(dev, &sample_client, NULL);
	kfree(sd);
}

/*
 * Any context, hard irq included: must not sleep. @idx is the index of one
 * of this client's DMBs (as ism_register_dmb() set it in dmb.idx) and
 * @dmbemask holds the dmbe bits set since the last call for that DMB; the
 * driver clears them as it reports them, the client clears nothing.
 */
static void sample_handle_irq(struct ism_dev *dev, unsigned int idx,
			      u16 dmbemask)
{
	struct sample_dev *sd = ism_get_priv(dev, &sample_client);

	if (idx != sd->dmb.idx || !(dmbemask & BIT(SAMPLE_DMBE_BIT)))
		return;
	atomic_inc(&sd->signals);
	wake_up(&sd->wait);
}

static struct ism_client sample_client = {
	.name = KBUILD_MODNAME,
	.add_dev = sample_add_dev,
	.start_dev = sample_start_dev,
	.remove_dev = sample_remove_dev,
	.handle_irq = sample_handle_irq,
};

/* add_dev is called for every device now, and for every later one. */
static int __init sample_init(void)
{
	return ism_register_client(&sample_client);
}

/* remove_dev is called for every device the client uses. */
static void __exit sample_exit(void)
{
	ism_unregister_client(&sample_client);
}

module_init(sample_init);
module_exit(sample_exit);

MODULE_DESCRIPTION("ISM sample client: one DMB and one signalled write per device");
MODULE_LICENSE("GPL");
/* The ISM layer exports its symbols GPL-only, in namespace ISM. */
MODULE_IMPORT_NS(ISM);
