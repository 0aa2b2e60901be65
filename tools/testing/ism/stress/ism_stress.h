/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism_stress: concurrency stress of the ISM core and whatever devices are
 * registered. Shared by its files; stress_main.c says what it does.
 */
#ifndef _ISM_STRESS_H
#define _ISM_STRESS_H

#include <linux/atomic.h>
#include <linux/ism.h>
#include <linux/list.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>
#include <linux/xarray.h>

#define ST_MAX_THREADS	64
#define ST_DMBS_PER_DEV	48	/* per device, so that indexes stay free */
#define ST_MAX_WRITE	SZ_16K
/* Worker n signals event code ST_EVENT_CODE + n; the churn thread its own. */
#define ST_EVENT_CODE		0x5700
#define ST_CHURN_EVENT_CODE	(ST_EVENT_CODE + ST_MAX_THREADS)

enum st_op {
	ST_REGISTER, ST_UNREGISTER, ST_MOVE, ST_MOVE_SIGNAL, ST_ATTACH,
	ST_DETACH_LATE, ST_EVENT, ST_BAD_INPUT, ST_NR_OPS,
};

/* What the summary counts besides the operations; see st_count_names. */
enum st_count {
	ST_VERIFIED, ST_IRQS_CHECKED, ST_EVENTS, ST_CLIENT_CHURNS,
	ST_CLIENT_DMBS, ST_CLIENT_DMBS_LEFT, ST_CLIENT_EVENTS, ST_DEVS_ADDED,
	ST_DEVS_REMOVED, ST_DEVS_CHECKED, ST_REFUSED_LEAVING, ST_LOST_LEAVING,
	ST_VERIFY_FAILURES, ST_UNEXPECTED, ST_NR_COUNTS,
};

/**
 * struct st_dmb - a DMB the workers own
 * @list: entry in &st_dev.dmbs
 * @dmb: the registered DMB
 * @busy: a worker uses it outside &st_dev.lock
 * @off: offset of the block last written with a signal
 * @len: its length
 * @csum: its checksum, checked by handle_irq
 * @irqs: irqs handle_irq saw for it
 * @mask: the dmbe bits they carried
 */
struct st_dmb {
	struct list_head list;
	struct ism_dmb dmb;
	bool busy;
	u32 off;
	u32 len;
	u32 csum;
	atomic_t irqs;
	atomic_t mask;
};

/**
 * struct st_dev - the stress client's state for one device
 * @list: entry in st_devs, read under RCU
 * @dev: the device
 * @gen: a number no other &struct st_dev had, to find it again
 * @sync: the device delivers a signal or event before the call that
 *	caused it returns (the loopback device): delivery is checked exactly
 * @published: a handler ran for it: the client is published there
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
	u64 gen;
	bool sync;
	bool published;
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
 * @id: its number
 * @events: events with its code that handle_event saw
 * @ops: operations done, by &enum st_op
 * @buf: the data it writes
 */
struct st_worker {
	struct task_struct *task;
	unsigned int id;
	atomic_t events;
	u64 ops[ST_NR_OPS];
	u8 buf[ST_MAX_WRITE];
};

extern struct ism_client st_client;
extern struct ism_client st_churn_client;
extern atomic64_t st_counts[ST_NR_COUNTS];

static inline void st_count(enum st_count c)
{
	atomic64_inc(&st_counts[c]);
}

void st_fail(const char *what, int ret);
void st_unexpected_err(const char *what, int ret);
void st_missed(struct st_dev *sd, const char *what);
struct st_dev *st_get_dev(u64 gen);
void st_put_dev(struct st_dev *sd);
void st_free_dmb(struct st_dev *sd, struct st_dmb *sdmb);
int st_worker_fn(void *arg);
int st_churn_fn(void *arg);

#endif /* _ISM_STRESS_H */
