// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_lo_concurrency: registration, the data path, attach/detach and
 * events from several threads for stress_ms milliseconds while a second
 * client registers and unregisters itself over and over.
 */
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "lo_kunit.h"

static unsigned int stress_ms = 3000;
module_param(stress_ms, uint, 0444);
MODULE_PARM_DESC(stress_ms, "duration of the concurrency test in ms (default 3000)");

#define LO_CHURN_EVENT_CODE	(LO_TEST_EVENT_CODE + LO_STRESS_WORKERS)
#define LO_STRESS_MAX_LEN	(3 * PAGE_SIZE)

enum lo_stress_op {
	LO_OP_REGISTER,
	LO_OP_MOVE,
	LO_OP_MOVE_SIGNAL,
	LO_OP_VERIFY,
	LO_OP_ATTACH,
	LO_OP_DETACH,
	LO_OP_EVENT,
	LO_OP_UNREGISTER,
	LO_OP_CLIENT_ADD,
	LO_OP_CLIENT_REMOVE,
	LO_OP_CLIENT_DMB,
	LO_OP_CLIENT_DMB_LEFT,
	LO_OP_CLIENT_EVENT,
	LO_NR_OPS,
};

static const char * const lo_stress_op_names[LO_NR_OPS] = {
	[LO_OP_REGISTER] = "register",
	[LO_OP_MOVE] = "move",
	[LO_OP_MOVE_SIGNAL] = "move+signal",
	[LO_OP_VERIFY] = "verify",
	[LO_OP_ATTACH] = "attach",
	[LO_OP_DETACH] = "detach",
	[LO_OP_EVENT] = "event",
	[LO_OP_UNREGISTER] = "unregister",
	[LO_OP_CLIENT_ADD] = "client add",
	[LO_OP_CLIENT_REMOVE] = "client remove",
	[LO_OP_CLIENT_DMB] = "client DMB",
	[LO_OP_CLIENT_DMB_LEFT] = "client DMB left to core",
	[LO_OP_CLIENT_EVENT] = "client event",
};

struct lo_stress;

struct lo_stress_worker {
	struct lo_stress *s;
	unsigned int id;
	u8 *buf;
	struct task_struct *task;
};

struct lo_stress {
	atomic_long_t ops[LO_NR_OPS];
	atomic_t failures;
	atomic_t first_failure;		/* source line of the first failure */
	struct lo_stress_worker workers[LO_STRESS_WORKERS];
	struct task_struct *churn_task;
	/* The churning client; its callbacks run in the churn thread. */
	unsigned int churn_round;
	bool churn_in;			/* between its add_dev and remove_dev */
	bool churn_has_dmb;
	struct ism_dmb churn_dmb;
	atomic_t churn_events;		/* all events it saw */
	atomic_t churn_own_events;	/* those with LO_CHURN_EVENT_CODE */
};

/* Set while the churn client can be registered; read by its callbacks. */
static struct lo_stress *lo_stress_ctx;

#define LO_CHECK(s, cond)	lo_stress_check(s, cond, __LINE__)

static bool lo_stress_check(struct lo_stress *s, bool ok, int line)
{
	if (likely(ok))
		return true;
	atomic_inc(&s->failures);
	atomic_cmpxchg(&s->first_failure, 0, line);
	return false;
}

static void lo_count(struct lo_stress *s, enum lo_stress_op op)
{
	atomic_long_inc(&s->ops[op]);
}

static struct ism_client lo_churn_client;

/* The churn client takes a DMB on the loopback device in each round. */
static int lo_churn_add_dev(struct ism_dev *dev)
{
	struct lo_stress *s = READ_ONCE(lo_stress_ctx);
	struct ism_dmb *dmb;

	if (!s || dev != READ_ONCE(lo.dev))
		return 0;
	LO_CHECK(s, !READ_ONCE(s->churn_in));
	ism_set_priv(dev, &lo_churn_client, s);
	dmb = &s->churn_dmb;
	memset(dmb, 0, sizeof(*dmb));
	dmb->len = PAGE_SIZE;
	uuid_copy(&dmb->rgid, &lo.gid);
	s->churn_has_dmb = LO_CHECK(s, !ism_register_dmb(dev, dmb,
							 &lo_churn_client));
	if (s->churn_has_dmb)
		lo_count(s, LO_OP_CLIENT_DMB);
	WRITE_ONCE(s->churn_in, true);
	return 0;
}

/* Every 16th round, starting with the first, the core releases the DMB. */
static void lo_churn_remove_dev(struct ism_dev *dev)
{
	struct lo_stress *s = READ_ONCE(lo_stress_ctx);

	if (!s || dev != READ_ONCE(lo.dev))
		return;
	LO_CHECK(s, READ_ONCE(s->churn_in));
	WRITE_ONCE(s->churn_in, false);
	LO_CHECK(s, ism_get_priv(dev, &lo_churn_client) == s);
	if (!s->churn_has_dmb)
		return;
	if (s->churn_round % 16 == 1)
		lo_count(s, LO_OP_CLIENT_DMB_LEFT);
	else
		LO_CHECK(s, !ism_unregister_dmb(dev, &s->churn_dmb));
}

/* Nobody writes to the churn client's DMB: an irq is misrouted. */
static void lo_churn_handle_irq(struct ism_dev *dev, unsigned int idx,
				u16 dmbemask)
{
	struct lo_stress *s = READ_ONCE(lo_stress_ctx);

	if (s)
		LO_CHECK(s, false);
}

static void lo_churn_handle_event(struct ism_dev *dev,
				  const struct ism_event *event)
{
	struct lo_stress *s = READ_ONCE(lo_stress_ctx);

	if (!s || dev != READ_ONCE(lo.dev))
		return;
	LO_CHECK(s, READ_ONCE(s->churn_in));
	atomic_inc(&s->churn_events);
	if (event->code == LO_CHURN_EVENT_CODE)
		atomic_inc(&s->churn_own_events);
}

static struct ism_client lo_churn_client = {
	.name = "ism_lo_kunit_churn",
	.add_dev = lo_churn_add_dev,
	.remove_dev = lo_churn_remove_dev,
	.handle_irq = lo_churn_handle_irq,
	.handle_event = lo_churn_handle_event,
};

/*
 * An event reaches the churn client, besides the test client, exactly
 * while it is registered.
 */
static void lo_churn_event(struct lo_stress *s, bool registered)
{
	int events = atomic_read(&s->churn_own_events);
	int ret;

	ret = ism_signal_event(lo.dev, &lo.gid, 1, LO_CHURN_EVENT_CODE,
			       s->churn_round);
	if (LO_CHECK(s, !ret) &&
	    LO_CHECK(s, atomic_read(&s->churn_own_events) ==
			events + registered) && registered)
		lo_count(s, LO_OP_CLIENT_EVENT);
}

static int lo_stress_churn(void *arg)
{
	struct lo_stress *s = arg;
	u8 byte = 0;
	int ret;

	while (!kthread_should_stop()) {
		s->churn_round++;
		s->churn_has_dmb = false;
		ret = ism_register_client(&lo_churn_client);
		if (LO_CHECK(s, !ret)) {
			lo_count(s, LO_OP_CLIENT_ADD);
			LO_CHECK(s, READ_ONCE(s->churn_in));
			lo_churn_event(s, true);
			ism_unregister_client(&lo_churn_client);
			lo_count(s, LO_OP_CLIENT_REMOVE);
			LO_CHECK(s, !READ_ONCE(s->churn_in));
			lo_churn_event(s, false);
			/* Released by the client or by the core: token dead. */
			if (s->churn_has_dmb)
				LO_CHECK(s, ism_move_data(lo.dev,
							  s->churn_dmb.token,
							  0, false, 0, &byte,
							  1) == -ENOENT);
		}
		cond_resched();
	}
	return 0;
}

/* Write the attached DMB in place and signal it without a copy. */
static void lo_stress_zero_copy(struct lo_stress_worker *w,
				const struct ism_dmb *dmb,
				const struct ism_dmb *att, unsigned int bit,
				u32 seed)
{
	struct lo_stress *s = w->s;
	unsigned int irqs;
	int ret;

	lo_fill(w->buf, dmb->len, seed);
	memcpy(att->cpu_addr, w->buf, dmb->len);
	irqs = atomic_read(&lo.irqs_by_idx[dmb->idx]);
	ret = ism_move_data(lo.dev, dmb->token, bit, true, 0, att->cpu_addr,
			    dmb->len);
	if (!LO_CHECK(s, !ret))
		return;
	lo_count(s, LO_OP_MOVE_SIGNAL);
	LO_CHECK(s, atomic_read(&lo.irqs_by_idx[dmb->idx]) == irqs + 1);
	LO_CHECK(s, !memcmp(dmb->cpu_addr, w->buf, dmb->len));
	lo_count(s, LO_OP_VERIFY);
}

/*
 * One round of a worker: every operation on a DMB only this worker uses,
 * so the irqs and events counted for its index and code are its own.
 */
static void lo_stress_round(struct lo_stress_worker *w, unsigned int iter)
{
	u32 seed = (w->id << 24) ^ (iter << 2);
	unsigned int bit = iter % ISM_DMBE_BITS;
	struct lo_stress *s = w->s;
	bool registered, mapped;
	unsigned int irqs, events;
	struct ism_dmb dmb, att;
	u32 off, size;
	int ret;

	memset(&dmb, 0, sizeof(dmb));
	dmb.len = 1 + (iter * 997 + w->id * 131) % LO_STRESS_MAX_LEN;
	uuid_copy(&dmb.rgid, &lo.gid);
	ret = ism_register_dmb(lo.dev, &dmb, &lo_test_client);
	if (!LO_CHECK(s, !ret))
		return;
	lo_count(s, LO_OP_REGISTER);
	registered = true;
	if (!LO_CHECK(s, dmb.idx < lo.max_dmbs))
		goto unregister;
	LO_CHECK(s, !memchr_inv(dmb.cpu_addr, 0, dmb.len));

	/* A plain write somewhere inside. */
	off = (iter * 37) % dmb.len;
	size = min_t(u32, dmb.len - off, 1 + (iter * 53) % PAGE_SIZE);
	lo_fill(w->buf, size, seed);
	irqs = atomic_read(&lo.irqs_by_idx[dmb.idx]);
	ret = ism_move_data(lo.dev, dmb.token, bit, false, off, w->buf, size);
	if (LO_CHECK(s, !ret)) {
		lo_count(s, LO_OP_MOVE);
		LO_CHECK(s, !memcmp(dmb.cpu_addr + off, w->buf, size));
		lo_count(s, LO_OP_VERIFY);
	}
	LO_CHECK(s, atomic_read(&lo.irqs_by_idx[dmb.idx]) == irqs);

	/* A signalling write of the whole DMB. */
	atomic_set(&lo.mask_by_idx[dmb.idx], 0);
	lo_fill(w->buf, dmb.len, seed + 1);
	ret = ism_move_data(lo.dev, dmb.token, bit, true, 0, w->buf, dmb.len);
	if (LO_CHECK(s, !ret)) {
		lo_count(s, LO_OP_MOVE_SIGNAL);
		LO_CHECK(s, atomic_read(&lo.irqs_by_idx[dmb.idx]) == irqs + 1);
		LO_CHECK(s, atomic_read(&lo.mask_by_idx[dmb.idx]) == BIT(bit));
		LO_CHECK(s, !memcmp(dmb.cpu_addr, w->buf, dmb.len));
		lo_count(s, LO_OP_VERIFY);
	}

	/* Attach; unregister and detach in an order that alternates. */
	memset(&att, 0, sizeof(att));
	att.token = dmb.token;
	ret = ism_attach_dmb(lo.dev, &att, &lo_test_client);
	if (LO_CHECK(s, !ret)) {
		lo_count(s, LO_OP_ATTACH);
		mapped = LO_CHECK(s, att.cpu_addr == dmb.cpu_addr &&
				  att.len == dmb.len);
		if (mapped)
			lo_stress_zero_copy(w, &dmb, &att, bit, seed + 2);
		if (iter & 1) {
			ret = ism_unregister_dmb(lo.dev, &dmb);
			if (LO_CHECK(s, !ret)) {
				lo_count(s, LO_OP_UNREGISTER);
				registered = false;
			}
			LO_CHECK(s, ism_move_data(lo.dev, dmb.token, bit, true,
						  0, w->buf, 1) == -ENOENT);
			/* Still mapped until the detach. */
			if (mapped)
				memset(att.cpu_addr, 0x5a, att.len);
		}
		ret = ism_detach_dmb(lo.dev, dmb.token, &lo_test_client);
		if (LO_CHECK(s, !ret))
			lo_count(s, LO_OP_DETACH);
		LO_CHECK(s, ism_detach_dmb(lo.dev, dmb.token,
					   &lo_test_client) == -ENOENT);
	}

	events = atomic_read(&lo.events_by_code[w->id]);
	ret = ism_signal_event(lo.dev, &lo.gid, 1, LO_TEST_EVENT_CODE + w->id,
			       iter);
	if (LO_CHECK(s, !ret)) {
		lo_count(s, LO_OP_EVENT);
		LO_CHECK(s, atomic_read(&lo.events_by_code[w->id]) ==
			    events + 1);
	}

unregister:
	if (!registered)
		return;
	if (LO_CHECK(s, !ism_unregister_dmb(lo.dev, &dmb)))
		lo_count(s, LO_OP_UNREGISTER);
	/* A stale token neither writes nor signals whoever has the index. */
	LO_CHECK(s, ism_move_data(lo.dev, dmb.token, bit, true, 0, w->buf,
				  1) == -ENOENT);
}

static int lo_stress_worker(void *arg)
{
	struct lo_stress_worker *w = arg;
	unsigned int iter = 0;

	while (!kthread_should_stop()) {
		lo_stress_round(w, iter++);
		cond_resched();
	}
	return 0;
}

static void lo_stress(struct kunit *test)
{
	struct task_struct *task;
	struct ism_dmb dmb;
	struct lo_stress *s;
	unsigned int i;
	u8 byte = 1;
	long n;

	s = kunit_kzalloc(test, sizeof(*s), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, s);
	for (i = 0; i < LO_STRESS_WORKERS; i++) {
		s->workers[i].s = s;
		s->workers[i].id = i;
		s->workers[i].buf = kunit_kmalloc(test, LO_STRESS_MAX_LEN,
						  GFP_KERNEL);
		KUNIT_ASSERT_NOT_NULL(test, s->workers[i].buf);
	}
	WRITE_ONCE(lo_stress_ctx, s);

	/* No assertion from here until every thread is stopped. */
	for (i = 0; i < LO_STRESS_WORKERS; i++) {
		task = kthread_run(lo_stress_worker, &s->workers[i],
				   "ism_lo_stress/%u", i);
		if (IS_ERR(task)) {
			KUNIT_FAIL(test, "cannot start worker %u: %ld\n", i,
				   PTR_ERR(task));
			break;
		}
		s->workers[i].task = task;
	}
	if (i == LO_STRESS_WORKERS) {
		task = kthread_run(lo_stress_churn, s, "ism_lo_churn");
		if (IS_ERR(task))
			KUNIT_FAIL(test, "cannot start churn thread: %ld\n",
				   PTR_ERR(task));
		else
			s->churn_task = task;
	}
	if (s->churn_task) {
		msleep(stress_ms);
		kthread_stop(s->churn_task);
	}
	for (i = 0; i < LO_STRESS_WORKERS; i++)
		if (s->workers[i].task)
			kthread_stop(s->workers[i].task);
	/* Each churn round ends unregistered; this only makes sure. */
	ism_unregister_client(&lo_churn_client);
	WRITE_ONCE(lo_stress_ctx, NULL);

	for (i = 0; i < LO_NR_OPS; i++) {
		n = atomic_long_read(&s->ops[i]);
		kunit_info(test, "%s: %ld\n", lo_stress_op_names[i], n);
		KUNIT_EXPECT_GT_MSG(test, n, 0L, "no %s in %u ms",
				    lo_stress_op_names[i], stress_ms);
	}
	kunit_info(test, "events seen by the churn client: %d\n",
		   atomic_read(&s->churn_events));
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&s->failures), 0,
			    "first failed check at line %d",
			    atomic_read(&s->first_failure));
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.bad_irqs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.bad_events), 0);

	/* The device still works after the storm. */
	KUNIT_ASSERT_EQ(test, lo_reg(test, &dmb, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 0, false, PAGE_SIZE - 1,
				      &byte, 1), 0);
	KUNIT_EXPECT_EQ(test, *(u8 *)(dmb.cpu_addr + PAGE_SIZE - 1), byte);
	KUNIT_EXPECT_EQ(test, lo_unreg(&dmb), 0);
}

static struct kunit_case lo_concurrency_cases[] = {
	KUNIT_CASE(lo_stress),
	{}
};

static struct kunit_suite lo_concurrency_suite = {
	.name = "ism_lo_concurrency",
	.suite_init = lo_test_suite_init,
	.suite_exit = lo_test_suite_exit,
	.init = lo_test_init,
	.exit = lo_test_exit,
	.test_cases = lo_concurrency_cases,
};

kunit_test_suites(&lo_concurrency_suite);
