// SPDX-License-Identifier: GPL-2.0
/*
 * ism_stress: concurrency stress of the ISM core and whatever devices are
 * registered (the loopback devices in tests/stress.sh).
 *
 * From load to unload, @threads kthreads pick a random device and do random
 * operations on it (stress_ops.c): register and unregister DMBs, move data
 * with and without a signal, attach, write through the mapping and signal
 * in place, detach (also after the owner unregistered), send software
 * events, and try bad input (stale tokens, another device's token, ranges
 * past the end). Every write is checked: the writer compares the DMB with
 * what it wrote, and handle_irq checks the signalled block's checksum. On a
 * device that delivers synchronously (loopback), each signal and event
 * must reach exactly its owner, exactly once. Another kthread registers
 * and unregisters a second client in a loop (stress_churn.c), and devices
 * may come and go meanwhile (the test adds and deletes loopback devices
 * with ismctl and reloads ism_lo). The unload checks that every device
 * left still works and prints a summary; verify_failures and unexpected
 * must be 0.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

#include "ism_stress.h"

static unsigned int threads;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "worker kthreads (default 0: two per online CPU)");

static const char * const st_op_names[ST_NR_OPS] = {
	"register", "unregister", "move", "move_signal", "attach",
	"detach_after_unregister", "event", "bad_input",
};

static const char * const st_count_names[ST_NR_COUNTS] = {
	[ST_VERIFIED] = "verified",
	[ST_IRQS_CHECKED] = "irqs_checked",
	[ST_EVENTS] = "events",
	[ST_CLIENT_CHURNS] = "client_churns",
	[ST_CLIENT_DMBS] = "client_dmbs",
	[ST_CLIENT_DMBS_LEFT] = "client_dmbs_left",
	[ST_CLIENT_EVENTS] = "client_events",
	[ST_DEVS_ADDED] = "devs_added",
	[ST_DEVS_REMOVED] = "devs_removed",
	[ST_DEVS_CHECKED] = "devs_checked",
	/* Registrations and attaches refused because the device was leaving. */
	[ST_REFUSED_LEAVING] = "refused_leaving",
	/* Signals and events not delivered because the device was leaving. */
	[ST_LOST_LEAVING] = "lost_leaving",
	[ST_VERIFY_FAILURES] = "verify_failures",
	[ST_UNEXPECTED] = "unexpected",
};

static LIST_HEAD(st_devs);		/* writers hold st_devs_lock */
static DEFINE_SPINLOCK(st_devs_lock);
static atomic_t st_ndevs = ATOMIC_INIT(0);
static atomic64_t st_gen = ATOMIC64_INIT(0);

static struct st_worker *st_workers;
static unsigned int st_nworkers;
static struct task_struct *st_churner;
static ktime_t st_start;

atomic64_t st_counts[ST_NR_COUNTS];

void st_fail(const char *what, int ret)
{
	st_count(ST_VERIFY_FAILURES);
	pr_err("verification failed: %s (%d)\n", what, ret);
}

void st_unexpected_err(const char *what, int ret)
{
	st_count(ST_UNEXPECTED);
	pr_err("unexpected error: %s: %d\n", what, ret);
}

/*
 * A signal or event a synchronous device did not deliver although the
 * client was published there. Only a device that is leaving may do that:
 * the core unpublishes its clients, then refuses their attaches and
 * registrations with -ENODEV. Wait a while for that; else it is a failure.
 */
void st_missed(struct st_dev *sd, const char *what)
{
	struct ism_dmb probe = { 0 };
	unsigned int i;
	int ret;

	for (i = 0; i < 250; i++) {
		ret = ism_attach_dmb(sd->dev, &probe, &st_client);
		if (ret == -ENODEV) {
			st_count(ST_LOST_LEAVING);
			return;
		}
		if (!ret)
			ism_detach_dmb(sd->dev, probe.token, &st_client);
		msleep(20);
	}
	st_fail(what, 0);
}

/* -------------------------- devices ------------------------------- */

/* A live device with a reference: a random one for @gen 0, else the one
 * with that generation; or NULL.
 */
struct st_dev *st_get_dev(u64 gen)
{
	unsigned int n = atomic_read(&st_ndevs), pick;
	struct st_dev *sd, *found = NULL;

	if (!n)
		return NULL;
	pick = get_random_u32_below(n);
	rcu_read_lock();
	list_for_each_entry_rcu(sd, &st_devs, list) {
		if (gen ? sd->gen != gen : pick--)
			continue;
		atomic_inc(&sd->users);
		/* Pairs with the barrier in st_remove_dev(). */
		smp_mb__after_atomic();
		if (READ_ONCE(sd->dead)) {
			if (atomic_dec_and_test(&sd->users))
				wake_up_var(&sd->users);
		} else {
			found = sd;
		}
		break;
	}
	rcu_read_unlock();
	return found;
}

void st_put_dev(struct st_dev *sd)
{
	rcu_read_lock();
	if (atomic_dec_and_test(&sd->users))
		wake_up_var(&sd->users);
	rcu_read_unlock();
}

/* Process context, under the device's client lock. */
static int st_add_dev(struct ism_dev *dev)
{
	struct st_dev *sd = kzalloc(sizeof(*sd), GFP_KERNEL);

	if (!sd)
		return -ENOMEM;
	sd->dev = dev;
	sd->gen = atomic64_inc_return(&st_gen);
	sd->sync = ism_get_chid(dev) == ISM_CHID_LOOPBACK;
	spin_lock_init(&sd->lock);
	INIT_LIST_HEAD(&sd->dmbs);
	xa_init(&sd->by_idx);
	ism_set_priv(dev, &st_client, sd);
	spin_lock(&st_devs_lock);
	list_add_tail_rcu(&sd->list, &st_devs);
	spin_unlock(&st_devs_lock);
	atomic_inc(&st_ndevs);
	st_count(ST_DEVS_ADDED);
	return 0;
}

void st_free_dmb(struct st_dev *sd, struct st_dmb *sdmb)
{
	int ret = ism_unregister_dmb(sd->dev, &sdmb->dmb, &st_client);

	if (ret)
		st_unexpected_err("unregister", ret);
	kfree(sdmb);
}

/* Process context, under the device's client lock; no handler runs for
 * @dev any more. Waits until no worker uses the device.
 */
static void st_remove_dev(struct ism_dev *dev)
{
	struct st_dev *sd = ism_get_priv(dev, &st_client);
	struct st_dmb *sdmb, *tmp;

	WRITE_ONCE(sd->dead, true);
	/* A worker either sees dead or is counted in users; see st_get_dev(). */
	smp_mb();
	wait_var_event(&sd->users, !atomic_read(&sd->users));
	spin_lock(&st_devs_lock);
	list_del_rcu(&sd->list);
	spin_unlock(&st_devs_lock);
	atomic_dec(&st_ndevs);
	list_for_each_entry_safe(sdmb, tmp, &sd->dmbs, list)
		st_free_dmb(sd, sdmb);
	xa_destroy(&sd->by_idx);
	kfree_rcu(sd, rcu);
	st_count(ST_DEVS_REMOVED);
}

/* ------------------------ the handlers ----------------------------- */

/* The owner's check of a signalled write: the block named in the DMB's
 * record must have the checksum the writer recorded. With the loopback
 * device this runs inside the writer's move_data, and only for a DMB a
 * worker is writing.
 */
static void st_handle_irq(struct ism_dev *dev, unsigned int idx, u16 mask)
{
	struct st_dev *sd = ism_get_priv(dev, &st_client);
	struct st_dmb *sdmb = xa_load(&sd->by_idx, idx);

	WRITE_ONCE(sd->published, true);
	if (!sdmb || !READ_ONCE(sdmb->busy)) {
		if (sd->sync)
			st_fail("irq for a DMB nobody signalled", idx);
		return;
	}
	atomic_or(mask, &sdmb->mask);
	atomic_inc(&sdmb->irqs);
	if (crc32(0, sdmb->dmb.cpu_addr + sdmb->off, sdmb->len) != sdmb->csum)
		st_fail("checksum seen by handle_irq", 0);
	else
		st_count(ST_IRQS_CHECKED);
}

/* Counts each worker's events; a loopback device's come from itself. */
static void st_handle_event(struct ism_dev *dev, const struct ism_event *ev)
{
	struct st_dev *sd = ism_get_priv(dev, &st_client);
	u32 worker = ev->code - ST_EVENT_CODE;
	uuid_t gid;

	WRITE_ONCE(sd->published, true);
	if (worker >= st_nworkers)
		return;
	ism_get_local_gid(dev, &gid);
	if (ev->type != ISM_EVT_SWR || (sd->sync && !uuid_equal(&ev->gid, &gid)))
		st_fail("event of the wrong kind or sender", ev->type);
	atomic_inc(&st_workers[worker].events);
	st_count(ST_EVENTS);
}

struct ism_client st_client = {
	.name = "ism_stress",
	.add_dev = st_add_dev,
	.remove_dev = st_remove_dev,
	.handle_irq = st_handle_irq,
	.handle_event = st_handle_event,
};

/* ------------------------------ module ----------------------------- */

/* Every device left must still work after the storm. */
static void st_check_devs(void)
{
	unsigned int n = atomic_read(&st_ndevs), i;
	struct st_dev *sd;
	u64 gen = 0;
	u8 byte = 0x5a;
	int ret;

	for (i = 0; i < n; i++) {
		struct ism_dmb dmb = { .len = PAGE_SIZE };

		/* The next device after @gen, by generation. */
		rcu_read_lock();
		list_for_each_entry_rcu(sd, &st_devs, list)
			if (sd->gen > gen)
				break;
		gen = list_entry_is_head(sd, &st_devs, list) ? 0 : sd->gen;
		rcu_read_unlock();
		if (!gen)
			break;
		sd = st_get_dev(gen);
		if (!sd)
			continue;
		ism_get_local_gid(sd->dev, &dmb.rgid);
		ret = ism_register_dmb(sd->dev, &dmb, &st_client);
		/* A deletion stress.sh queued last may still be running. */
		if (ret == -ENODEV) {
			st_count(ST_REFUSED_LEAVING);
			st_put_dev(sd);
			continue;
		}
		if (!ret) {
			ret = ism_move_data(sd->dev, dmb.token, 0, false,
					    PAGE_SIZE - 1, &byte, 1);
			if (ret || *(u8 *)(dmb.cpu_addr + PAGE_SIZE - 1) != byte)
				st_fail("a write after the storm", ret);
			ret = ism_unregister_dmb(sd->dev, &dmb, &st_client);
		}
		if (ret)
			st_fail("a DMB after the storm", ret);
		else
			st_count(ST_DEVS_CHECKED);
		st_put_dev(sd);
	}
}

static void st_stop(void)
{
	unsigned int i;

	if (st_churner)
		kthread_stop(st_churner);
	for (i = 0; i < st_nworkers; i++)
		kthread_stop(st_workers[i].task);
}

static int __init st_init(void)
{
	unsigned int i;
	int ret;

	st_nworkers = threads ?: 2 * num_online_cpus();
	if (st_nworkers > ST_MAX_THREADS)
		return -EINVAL;
	st_workers = kvcalloc(st_nworkers, sizeof(*st_workers), GFP_KERNEL);
	if (!st_workers)
		return -ENOMEM;
	for (i = 0; i < st_nworkers; i++)
		st_workers[i].id = i;
	ret = ism_register_client(&st_client);
	if (ret)
		goto free;
	st_start = ktime_get();
	for (i = 0; i < st_nworkers; i++) {
		st_workers[i].task = kthread_run(st_worker_fn, &st_workers[i],
						 "ism_stress/%u", i);
		if (IS_ERR(st_workers[i].task)) {
			ret = PTR_ERR(st_workers[i].task);
			st_nworkers = i;
			goto stop;
		}
	}
	st_churner = kthread_run(st_churn_fn, NULL, "ism_stress/churn");
	if (IS_ERR(st_churner)) {
		ret = PTR_ERR(st_churner);
		st_churner = NULL;
		goto stop;
	}
	return 0;

stop:
	st_stop();
	ism_unregister_client(&st_client);
free:
	kvfree(st_workers);
	return ret;
}

static void __exit st_exit(void)
{
	u64 ops[ST_NR_OPS] = { 0 }, total = 0;
	unsigned int i, op;
	s64 ms;

	st_stop();
	ms = ktime_ms_delta(ktime_get(), st_start);
	st_check_devs();
	ism_unregister_client(&st_client);
	rcu_barrier();	/* the st_dev frees, before the module goes */

	for (i = 0; i < st_nworkers; i++)
		for (op = 0; op < ST_NR_OPS; op++)
			ops[op] += st_workers[i].ops[op];
	for (op = 0; op < ST_NR_OPS; op++) {
		total += ops[op];
		pr_info("ops %s=%llu\n", st_op_names[op], ops[op]);
	}
	for (i = 0; i < ST_VERIFY_FAILURES; i++)
		pr_info("count %s=%lld\n", st_count_names[i],
			atomic64_read(&st_counts[i]));
	pr_info("summary threads=%u ms=%lld ops=%llu ops_per_s=%llu verify_failures=%lld unexpected=%lld\n",
		st_nworkers, ms, total, ms ? div_u64(total * 1000, ms) : 0,
		atomic64_read(&st_counts[ST_VERIFY_FAILURES]),
		atomic64_read(&st_counts[ST_UNEXPECTED]));
	kvfree(st_workers);
}

module_init(st_init);
module_exit(st_exit);

MODULE_DESCRIPTION("ISM concurrency stress");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
