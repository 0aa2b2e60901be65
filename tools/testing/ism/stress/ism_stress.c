// SPDX-License-Identifier: GPL-2.0
/*
 * ism_stress: concurrency stress of the ISM core and whatever devices are
 * registered (the loopback device in the tests).
 *
 * From load to unload, @threads kthreads pick a random device and do random
 * operations on it: register and unregister DMBs, move data with and
 * without a signal, attach, write through the mapping and detach (also
 * after the owner unregistered), send software events, and try bad input
 * (stale tokens, ranges past the end). Every write is checked: the writer
 * compares the DMB with what it wrote, and handle_irq checks the signalled
 * block's checksum. Another kthread registers and unregisters a second
 * client in a loop, and devices may come and go meanwhile (the test adds
 * and deletes loopback devices with ismctl). The unload prints a summary;
 * verify_failures and unexpected must be 0.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/crc32.h>
#include <linux/delay.h>
#include <linux/ism.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/wait_bit.h>

static unsigned int threads;
module_param(threads, uint, 0444);
MODULE_PARM_DESC(threads, "worker kthreads (default 0: two per online CPU)");

#define ST_MAX_THREADS	64
#define ST_DMBS_PER_DEV	48	/* per device, so that indexes stay free */
#define ST_MAX_WRITE	4096

enum st_op {
	ST_REGISTER, ST_UNREGISTER, ST_MOVE, ST_MOVE_SIGNAL, ST_ATTACH,
	ST_DETACH_LATE, ST_EVENT, ST_BAD_INPUT, ST_NR_OPS,
};

static const char * const st_op_names[ST_NR_OPS] = {
	"register", "unregister", "move", "move_signal", "attach",
	"detach_after_unregister", "event", "bad_input",
};

/**
 * struct st_dmb - a DMB the workers own
 * @list: entry in &st_dev.dmbs
 * @dmb: the registered DMB
 * @busy: a worker uses it outside &st_dev.lock
 * @off: offset of the block last written with a signal
 * @len: its length
 * @csum: its checksum, checked by handle_irq
 */
struct st_dmb {
	struct list_head list;
	struct ism_dmb dmb;
	bool busy;
	u32 off;
	u32 len;
	u32 csum;
};

/**
 * struct st_dev - the stress client's state for one device
 * @list: entry in st_devs, read under RCU
 * @dev: the device
 * @users: workers using the device; remove_dev waits for 0
 * @dead: remove_dev began; workers take no new reference
 * @lock: protects @dmbs, @count and each DMB's @busy
 * @dmbs: the workers' DMBs on this device
 * @count: length of @dmbs
 * @by_idx: DMB index to &struct st_dmb, for handle_irq
 * @rcu: freed after an RCU grace period
 */
struct st_dev {
	struct list_head list;
	struct ism_dev *dev;
	atomic_t users;
	bool dead;
	spinlock_t lock;
	struct list_head dmbs;
	unsigned int count;
	struct xarray by_idx;
	struct rcu_head rcu;
};

/**
 * struct st_worker - one worker kthread
 * @task: the kthread
 * @ops: operations done, by &enum st_op
 * @buf: the data it writes
 */
struct st_worker {
	struct task_struct *task;
	u64 ops[ST_NR_OPS];
	u8 buf[ST_MAX_WRITE];
};

static LIST_HEAD(st_devs);		/* writers hold st_devs_lock */
static DEFINE_SPINLOCK(st_devs_lock);
static atomic_t st_ndevs = ATOMIC_INIT(0);

static struct st_worker *st_workers;
static unsigned int st_nworkers;
static struct task_struct *st_churner;
static ktime_t st_start;

static atomic64_t st_verify_failures = ATOMIC64_INIT(0);
static atomic64_t st_unexpected = ATOMIC64_INIT(0);
static atomic64_t st_irqs_ok = ATOMIC64_INIT(0);
static atomic64_t st_events = ATOMIC64_INIT(0);
static atomic64_t st_devs_added = ATOMIC64_INIT(0);
static atomic64_t st_devs_removed = ATOMIC64_INIT(0);
static atomic64_t st_churns = ATOMIC64_INIT(0);
/* Registrations and attaches refused because the device was leaving. */
static atomic64_t st_reg_closed = ATOMIC64_INIT(0);

static struct ism_client st_client;

static void st_fail(const char *what, int ret)
{
	atomic64_inc(&st_verify_failures);
	pr_err("verification failed: %s (%d)\n", what, ret);
}

static void st_unexpected_err(const char *what, int ret)
{
	atomic64_inc(&st_unexpected);
	pr_err("unexpected error: %s: %d\n", what, ret);
}

/* -------------------------- devices ------------------------------- */

/* A random live device with a reference, or NULL. */
static struct st_dev *st_get_dev(void)
{
	unsigned int n = atomic_read(&st_ndevs), pick;
	struct st_dev *sd, *found = NULL;

	if (!n)
		return NULL;
	pick = get_random_u32_below(n);
	rcu_read_lock();
	list_for_each_entry_rcu(sd, &st_devs, list) {
		if (pick--)
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

static void st_put_dev(struct st_dev *sd)
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
	spin_lock_init(&sd->lock);
	INIT_LIST_HEAD(&sd->dmbs);
	xa_init(&sd->by_idx);
	ism_set_priv(dev, &st_client, sd);
	spin_lock(&st_devs_lock);
	list_add_tail_rcu(&sd->list, &st_devs);
	spin_unlock(&st_devs_lock);
	atomic_inc(&st_ndevs);
	atomic64_inc(&st_devs_added);
	return 0;
}

static void st_free_dmb(struct st_dev *sd, struct st_dmb *sdmb)
{
	int ret = ism_unregister_dmb(sd->dev, &sdmb->dmb);

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
	atomic64_inc(&st_devs_removed);
}

/* ------------------------ the handlers ----------------------------- */

/* The owner's check of a signalled write: the block named in the DMB's
 * record must have the checksum the writer recorded. With the loopback
 * device this runs inside the writer's move_data.
 */
static void st_handle_irq(struct ism_dev *dev, unsigned int idx, u16 mask)
{
	struct st_dev *sd = ism_get_priv(dev, &st_client);
	struct st_dmb *sdmb = xa_load(&sd->by_idx, idx);

	if (!sdmb || !READ_ONCE(sdmb->busy))
		return;
	if (crc32(0, sdmb->dmb.cpu_addr + sdmb->off, sdmb->len) != sdmb->csum)
		st_fail("checksum seen by handle_irq", 0);
	else
		atomic64_inc(&st_irqs_ok);
}

static void st_handle_event(struct ism_dev *dev, const struct ism_event *ev)
{
	if (ev->type == ISM_EVT_SWR && ev->code == 0x5747)
		atomic64_inc(&st_events);
}

static struct ism_client st_client = {
	.name = "ism_stress",
	.add_dev = st_add_dev,
	.remove_dev = st_remove_dev,
	.handle_irq = st_handle_irq,
	.handle_event = st_handle_event,
};

/* ------------------------ the operations --------------------------- */

/* Take a DMB of @sd for this worker alone; @unlink also removes it. */
static struct st_dmb *st_claim(struct st_dev *sd, bool unlink)
{
	struct st_dmb *sdmb, *found = NULL;

	spin_lock(&sd->lock);
	list_for_each_entry(sdmb, &sd->dmbs, list) {
		if (sdmb->busy)
			continue;
		found = sdmb;
		if (unlink) {
			list_del(&sdmb->list);
			sd->count--;
			xa_erase(&sd->by_idx, sdmb->dmb.idx);
		} else {
			WRITE_ONCE(sdmb->busy, true);
			/* Next time, start the search elsewhere. */
			list_move_tail(&sdmb->list, &sd->dmbs);
		}
		break;
	}
	spin_unlock(&sd->lock);
	return found;
}

static void st_release(struct st_dev *sd, struct st_dmb *sdmb)
{
	spin_lock(&sd->lock);
	WRITE_ONCE(sdmb->busy, false);
	spin_unlock(&sd->lock);
}

static int st_register(struct st_dev *sd)
{
	struct st_dmb *sdmb;
	int ret;

	if (READ_ONCE(sd->count) >= ST_DMBS_PER_DEV)
		return -ENOSPC;
	sdmb = kzalloc(sizeof(*sdmb), GFP_KERNEL);
	if (!sdmb)
		return -ENOMEM;
	sdmb->dmb.len = SZ_4K << get_random_u32_below(5);
	ism_get_local_gid(sd->dev, &sdmb->dmb.rgid);
	ret = ism_register_dmb(sd->dev, &sdmb->dmb, &st_client);
	if (ret) {
		kfree(sdmb);
		/* -ENODEV: the device is leaving; remove_dev may not run yet. */
		if (ret == -ENODEV)
			atomic64_inc(&st_reg_closed);
		else if (ret != -ENOSPC)
			st_unexpected_err("register", ret);
		return ret;
	}
	/* Recorded before it is listed, so handle_irq finds it. */
	ret = xa_err(xa_store(&sd->by_idx, sdmb->dmb.idx, sdmb, GFP_KERNEL));
	if (ret) {
		st_free_dmb(sd, sdmb);
		return ret;
	}
	spin_lock(&sd->lock);
	list_add_tail(&sdmb->list, &sd->dmbs);
	sd->count++;
	spin_unlock(&sd->lock);
	return 0;
}

/* Unregister a DMB; its token must then be refused. */
static int st_unregister(struct st_dev *sd, struct st_worker *w)
{
	struct st_dmb *sdmb = st_claim(sd, true);
	u64 token;
	int ret;

	if (!sdmb)
		return -ENOENT;
	token = sdmb->dmb.token;
	st_free_dmb(sd, sdmb);
	ret = ism_move_data(sd->dev, token, 0, false, 0, w->buf, 8);
	if (ret != -ENOENT)
		st_fail("stale token accepted by move_data", ret);
	w->ops[ST_BAD_INPUT]++;
	return 0;
}

/* Write a random block at a random place, then compare. */
static int st_move(struct st_dev *sd, struct st_worker *w, bool sf)
{
	struct st_dmb *sdmb = st_claim(sd, false);
	u32 len, off;
	int ret;

	if (!sdmb)
		return -ENOENT;
	len = 1 + get_random_u32_below(min_t(u32, ST_MAX_WRITE, sdmb->dmb.len));
	off = get_random_u32_below(sdmb->dmb.len - len + 1);
	get_random_bytes(w->buf, len);
	sdmb->off = off;
	sdmb->len = len;
	sdmb->csum = crc32(0, w->buf, len);
	ret = ism_move_data(sd->dev, sdmb->dmb.token,
			    get_random_u32_below(ISM_DMBE_BITS), sf, off,
			    w->buf, len);
	if (ret)
		st_unexpected_err("move_data", ret);
	else if (memcmp(sdmb->dmb.cpu_addr + off, w->buf, len))
		st_fail("DMB content after move_data", 0);
	st_release(sd, sdmb);
	return ret;
}

/* Attach a DMB, write through the mapping and through move_data into
 * itself (the in-place case), then detach; or, with @late, unregister the
 * owner's DMB first: the mapping must stay valid until the detach.
 */
static int st_attach(struct st_dev *sd, struct st_worker *w, bool late)
{
	struct st_dmb *sdmb = st_claim(sd, late);
	struct ism_dmb map = { 0 };
	int ret;

	if (!sdmb)
		return -ENOENT;
	map.token = sdmb->dmb.token;
	ret = ism_attach_dmb(sd->dev, &map, &st_client);
	/* -ENODEV: the device is leaving, as for registrations. */
	if (ret == -ENODEV) {
		atomic64_inc(&st_reg_closed);
		goto out;
	}
	if (ret || map.cpu_addr != sdmb->dmb.cpu_addr) {
		st_unexpected_err("attach", ret);
		goto out;
	}
	if (late) {
		st_free_dmb(sd, sdmb);
		sdmb = NULL;
	}
	get_random_bytes(w->buf, 64);
	memcpy(map.cpu_addr, w->buf, 64);
	if (!late) {
		ret = ism_move_data(sd->dev, map.token, 0, false, 0,
				    map.cpu_addr, 64);
		if (ret || memcmp(map.cpu_addr, w->buf, 64))
			st_fail("in-place move_data of an attached DMB", ret);
	}
	ret = ism_detach_dmb(sd->dev, map.token, &st_client);
	if (ret)
		st_unexpected_err("detach", ret);
	if (ism_detach_dmb(sd->dev, map.token, &st_client) != -ENOENT)
		st_fail("second detach accepted", 0);
	w->ops[ST_BAD_INPUT]++;
out:
	if (sdmb && late)
		st_free_dmb(sd, sdmb);
	else if (sdmb)
		st_release(sd, sdmb);
	return ret;
}

/* Ranges that end past the DMB or wrap around must be refused. */
static int st_bad_input(struct st_dev *sd, struct st_worker *w)
{
	struct st_dmb *sdmb = st_claim(sd, false);
	u32 len;
	int ret;

	if (!sdmb)
		return -ENOENT;
	len = sdmb->dmb.len;
	ret = ism_move_data(sd->dev, sdmb->dmb.token, 0, true, len - 7,
			    w->buf, 8);
	if (ret != -EINVAL)
		st_fail("range past the end accepted", ret);
	ret = ism_move_data(sd->dev, sdmb->dmb.token, 0, true, U32_MAX - 3,
			    w->buf, 8);
	if (ret != -EINVAL)
		st_fail("wrapping range accepted", ret);
	st_release(sd, sdmb);
	return 0;
}

static int st_event(struct st_dev *sd)
{
	uuid_t gid;
	int ret;

	ism_get_local_gid(sd->dev, &gid);
	ret = ism_signal_event(sd->dev, &gid, 1, 0x5747, 0);
	if (ret)
		st_unexpected_err("signal_event", ret);
	return ret;
}

static int st_worker_fn(void *arg)
{
	struct st_worker *w = arg;
	struct st_dev *sd;
	enum st_op op;
	int ret;

	while (!kthread_should_stop()) {
		sd = st_get_dev();
		if (!sd) {
			usleep_range(1000, 2000);
			continue;
		}
		op = get_random_u32_below(ST_NR_OPS);
		switch (op) {
		case ST_REGISTER:
			ret = st_register(sd);
			break;
		case ST_UNREGISTER:
			ret = st_unregister(sd, w);
			break;
		case ST_MOVE:
		case ST_MOVE_SIGNAL:
			ret = st_move(sd, w, op == ST_MOVE_SIGNAL);
			break;
		case ST_ATTACH:
		case ST_DETACH_LATE:
			ret = st_attach(sd, w, op == ST_DETACH_LATE);
			break;
		case ST_EVENT:
			ret = st_event(sd);
			break;
		default:
			ret = st_bad_input(sd, w);
			break;
		}
		st_put_dev(sd);
		if (!ret)
			w->ops[op]++;
		cond_resched();
	}
	return 0;
}

/* ------------------------- client churn ---------------------------- */

static struct ism_client st_churn_client;

/* Registers one DMB under the device's client lock, while the workers
 * register theirs without it.
 */
static int st_churn_add(struct ism_dev *dev)
{
	struct ism_dmb *dmb = kzalloc(sizeof(*dmb), GFP_KERNEL);
	int ret;

	if (!dmb)
		return -ENOMEM;
	dmb->len = SZ_4K;
	ism_get_local_gid(dev, &dmb->rgid);
	ret = ism_register_dmb(dev, dmb, &st_churn_client);
	if (ret) {
		if (ret != -ENOSPC)
			st_unexpected_err("churn client register", ret);
		kfree(dmb);
		return ret;
	}
	ism_set_priv(dev, &st_churn_client, dmb);
	return 0;
}

static void st_churn_remove(struct ism_dev *dev)
{
	struct ism_dmb *dmb = ism_get_priv(dev, &st_churn_client);
	int ret;

	ret = ism_unregister_dmb(dev, dmb);
	if (ret)
		st_unexpected_err("churn client unregister", ret);
	kfree(dmb);
}

static struct ism_client st_churn_client = {
	.name = "ism_stress_churn",
	.add_dev = st_churn_add,
	.remove_dev = st_churn_remove,
};

static int st_churn_fn(void *arg)
{
	int ret;

	while (!kthread_should_stop()) {
		ret = ism_register_client(&st_churn_client);
		if (ret) {
			st_unexpected_err("register_client", ret);
			msleep(100);
			continue;
		}
		usleep_range(1000, 20000);
		ism_unregister_client(&st_churn_client);
		atomic64_inc(&st_churns);
	}
	return 0;
}

/* ------------------------------ module ----------------------------- */

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
	s64 ms;
	unsigned int i, op;

	st_stop();
	ms = ktime_ms_delta(ktime_get(), st_start);
	ism_unregister_client(&st_client);
	rcu_barrier();	/* the st_dev frees, before the module goes */

	for (i = 0; i < st_nworkers; i++)
		for (op = 0; op < ST_NR_OPS; op++)
			ops[op] += st_workers[i].ops[op];
	for (op = 0; op < ST_NR_OPS; op++) {
		total += ops[op];
		pr_info("ops %s=%llu\n", st_op_names[op], ops[op]);
	}
	pr_info("irqs_checked=%lld events=%lld client_churns=%lld devs_added=%lld devs_removed=%lld refused_leaving=%lld\n",
		atomic64_read(&st_irqs_ok), atomic64_read(&st_events),
		atomic64_read(&st_churns), atomic64_read(&st_devs_added),
		atomic64_read(&st_devs_removed), atomic64_read(&st_reg_closed));
	pr_info("summary threads=%u ms=%lld ops=%llu ops_per_s=%llu verify_failures=%lld unexpected=%lld\n",
		st_nworkers, ms, total, ms ? div_u64(total * 1000, ms) : 0,
		atomic64_read(&st_verify_failures),
		atomic64_read(&st_unexpected));
	kvfree(st_workers);
}

module_init(st_init);
module_exit(st_exit);

MODULE_DESCRIPTION("ISM concurrency stress");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
