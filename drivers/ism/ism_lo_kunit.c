// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ISM loopback device (ism_lo.ko), driven only through
 * the client API of <linux/ism.h>.
 *
 * Suite ism_lo checks, one call at a time: that move_data writes exactly the
 * bytes asked for into zeroed, page-backed DMBs; that it rejects bad ranges,
 * signal bits and tokens without writing or signalling; the rules of DMB
 * registration; the uniqueness of tokens and indexes; the lifetime of an
 * attached DMB whether its owner unregisters it before or after the detach;
 * the delivery of irqs and software events; and DMB exhaustion.
 *
 * Suite ism_lo_concurrency runs registration, the data path, attach/detach
 * and events from several threads for stress_ms milliseconds while a second
 * client registers and unregisters itself over and over.
 *
 * Load ism_core.ko and ism_lo.ko first: without a loopback device every
 * suite fails.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/bitmap.h>
#include <linux/delay.h>
#include <linux/err.h>
#include <linux/ism.h>
#include <linux/kthread.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/sizes.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/spinlock.h>
#include <linux/string.h>
#include <linux/uuid.h>

static unsigned int stress_ms = 3000;
module_param(stress_ms, uint, 0444);
MODULE_PARM_DESC(stress_ms, "duration of the concurrency test in ms (default 3000)");

#define LO_TEST_MAX_DMB_LEN	SZ_1M
#define LO_TEST_MAX_ATTACHED	8
/* Event codes LO_TEST_EVENT_CODE + n are counted for stress worker n. */
#define LO_TEST_EVENT_CODE	0x15c0
#define LO_STRESS_WORKERS	4
#define LO_CHURN_EVENT_CODE	(LO_TEST_EVENT_CODE + LO_STRESS_WORKERS)
#define LO_STRESS_MAX_LEN	(3 * PAGE_SIZE)

/*
 * What the test client saw, and the DMBs and attachments a test case holds,
 * so that lo_test_exit() can release them when a case stops early.
 */
struct lo_test_state {
	struct ism_dev *dev;
	uuid_t gid;
	u32 max_dmbs;
	atomic_t irqs;
	atomic_t bad_irqs;
	atomic_t *irqs_by_idx;
	atomic_t *mask_by_idx;
	spinlock_t event_lock;		/* protects events and last_event */
	unsigned int events;
	struct ism_event last_event;
	atomic_t bad_events;
	atomic_t events_by_code[LO_STRESS_WORKERS];
	struct ism_dmb *dmbs;		/* registered DMBs, by index */
	unsigned long *live;		/* indexes of @dmbs in use */
	u64 attached[LO_TEST_MAX_ATTACHED];
	unsigned int nr_attached;
};

static struct lo_test_state lo = {
	.event_lock = __SPIN_LOCK_UNLOCKED(lo.event_lock),
};

static struct ism_client lo_test_client;

static int lo_test_add_dev(struct ism_dev *dev)
{
	if (!lo.dev && ism_get_chid(dev) == ISM_CHID_LOOPBACK)
		WRITE_ONCE(lo.dev, dev);
	return 0;
}

static void lo_test_remove_dev(struct ism_dev *dev)
{
	if (dev == lo.dev)
		WRITE_ONCE(lo.dev, NULL);
}

/* Runs synchronously inside ism_move_data() on the loopback device. */
static void lo_test_handle_irq(struct ism_dev *dev, unsigned int idx,
			       u16 dmbemask)
{
	if (dev != READ_ONCE(lo.dev) || idx >= lo.max_dmbs ||
	    !lo.irqs_by_idx) {
		atomic_inc(&lo.bad_irqs);
		return;
	}
	atomic_or(dmbemask, &lo.mask_by_idx[idx]);
	atomic_inc(&lo.irqs_by_idx[idx]);
	atomic_inc(&lo.irqs);
}

static void lo_test_handle_event(struct ism_dev *dev,
				 const struct ism_event *event)
{
	u32 worker = event->code - LO_TEST_EVENT_CODE;
	unsigned long flags;

	if (dev != READ_ONCE(lo.dev) || event->type != ISM_EVT_SWR ||
	    !uuid_equal(&event->gid, &lo.gid))
		atomic_inc(&lo.bad_events);
	else if (worker < LO_STRESS_WORKERS)
		atomic_inc(&lo.events_by_code[worker]);

	spin_lock_irqsave(&lo.event_lock, flags);
	lo.last_event = *event;
	lo.events++;
	spin_unlock_irqrestore(&lo.event_lock, flags);
}

static struct ism_client lo_test_client = {
	.name = "ism_lo_kunit",
	.add_dev = lo_test_add_dev,
	.remove_dev = lo_test_remove_dev,
	.handle_irq = lo_test_handle_irq,
	.handle_event = lo_test_handle_event,
};

static unsigned int lo_test_events(struct ism_event *last)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&lo.event_lock, flags);
	n = lo.events;
	if (last)
		*last = lo.last_event;
	spin_unlock_irqrestore(&lo.event_lock, flags);
	return n;
}

/* Register a DMB of @len bytes for the test client and track it. */
static int lo_reg(struct kunit *test, struct ism_dmb *dmb, u32 len)
{
	int ret;

	memset(dmb, 0, sizeof(*dmb));
	dmb->len = len;
	uuid_copy(&dmb->rgid, &lo.gid);
	ret = ism_register_dmb(lo.dev, dmb, &lo_test_client);
	if (ret)
		return ret;
	if (dmb->idx >= lo.max_dmbs || test_bit(dmb->idx, lo.live)) {
		KUNIT_FAIL(test, "DMB index %u out of range or in use (max %u)\n",
			   dmb->idx, lo.max_dmbs);
		ism_unregister_dmb(lo.dev, dmb);
		return -EIO;
	}
	lo.dmbs[dmb->idx] = *dmb;
	__set_bit(dmb->idx, lo.live);
	return 0;
}

static int lo_unreg(struct ism_dmb *dmb)
{
	int ret = ism_unregister_dmb(lo.dev, dmb);

	if (!ret && dmb->idx < lo.max_dmbs && test_bit(dmb->idx, lo.live) &&
	    lo.dmbs[dmb->idx].token == dmb->token)
		__clear_bit(dmb->idx, lo.live);
	return ret;
}

static int lo_attach(struct kunit *test, struct ism_dmb *att, u64 token)
{
	int ret;

	memset(att, 0, sizeof(*att));
	att->token = token;
	ret = ism_attach_dmb(lo.dev, att, &lo_test_client);
	if (ret)
		return ret;
	if (lo.nr_attached == LO_TEST_MAX_ATTACHED) {
		KUNIT_FAIL(test, "test bug: too many attachments\n");
		ism_detach_dmb(lo.dev, token, &lo_test_client);
		return -EIO;
	}
	lo.attached[lo.nr_attached++] = token;
	return 0;
}

static int lo_detach(u64 token)
{
	int ret = ism_detach_dmb(lo.dev, token, &lo_test_client);
	unsigned int i;

	if (ret)
		return ret;
	for (i = 0; i < lo.nr_attached; i++) {
		if (lo.attached[i] == token) {
			lo.attached[i] = lo.attached[--lo.nr_attached];
			break;
		}
	}
	return 0;
}

static int lo_move(u64 token, unsigned int idx, bool sf, unsigned int offset,
		   const void *data, unsigned int size)
{
	return ism_move_data(lo.dev, token, idx, sf, offset, data, size);
}

/* A byte pattern that differs with @seed and is never 0. */
static void lo_fill(u8 *buf, size_t len, u32 seed)
{
	size_t i;
	u8 b;

	for (i = 0; i < len; i++) {
		b = (i * 131 + seed * 29 + (i >> 9)) & 0xff;
		buf[i] = b ? b : 0xa5;
	}
}

/* Offset of the first byte where @a and @b differ, or -1. */
static long lo_first_diff(const void *a, const void *b, size_t len)
{
	const u8 *x = a, *y = b;
	size_t i;

	if (!memcmp(a, b, len))
		return -1;
	for (i = 0; x[i] == y[i]; i++)
		;
	return i;
}

/* Offset of the first non-zero byte of @buf, or -1. */
static long lo_first_nonzero(const void *buf, size_t len)
{
	const u8 *p = memchr_inv(buf, 0, len);

	return p ? p - (const u8 *)buf : -1;
}

/* ----------------------------- ism_lo ----------------------------- */

static void lo_check_page_backed(struct kunit *test, const struct ism_dmb *dmb)
{
	unsigned long start = (unsigned long)dmb->cpu_addr;
	unsigned long end = start + dmb->len;
	unsigned int bad = 0, pages = 0;
	unsigned long x;

	KUNIT_EXPECT_NE(test, dmb->dma_addr, (dma_addr_t)0);
	KUNIT_EXPECT_FALSE(test, is_vmalloc_addr(dmb->cpu_addr));
	KUNIT_EXPECT_TRUE(test, virt_addr_valid(dmb->cpu_addr));
	KUNIT_EXPECT_TRUE(test, virt_addr_valid(dmb->cpu_addr + dmb->len - 1));
	for (x = PAGE_ALIGN(start); x < end; x += PAGE_SIZE) {
		pages++;
		if (!virt_addr_valid((void *)x) ||
		    page_address(virt_to_page((void *)x)) != (void *)x)
			bad++;
	}
	KUNIT_EXPECT_EQ_MSG(test, bad, 0U, "%u of %u pages not linear-map",
			    bad, pages);
}

struct lo_span {
	u32 offset;
	u32 size;
};

/*
 * Write patterns into DMBs of several sizes at offsets that cross page
 * boundaries and compare the whole DMB against a shadow copy each time, so
 * bytes outside the written range must still be zero.
 */
static void lo_data_integrity(struct kunit *test)
{
	static const u32 lens[] = { 1, 4095, 4096, 4097, SZ_64K + 123, SZ_1M };
	unsigned int i, j, irqs;
	u8 *src, *shadow;
	struct ism_dmb dmb;
	long diff;
	int ret;

	src = kunit_kmalloc(test, LO_TEST_MAX_DMB_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	shadow = kunit_kmalloc(test, LO_TEST_MAX_DMB_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, shadow);

	for (i = 0; i < ARRAY_SIZE(lens); i++) {
		u32 len = lens[i];
		const struct lo_span spans[] = {
			{ 0, 0 },
			{ len, 0 },
			{ 4090, 12 },
			{ PAGE_SIZE - 1, 2 },
			{ 2 * PAGE_SIZE - 5, 10 },
			{ len / 2 - len / 4, len / 2 },
			{ len - 1, 1 },
			{ 0, len },
			{ len - 1, 1 },
		};

		ret = lo_reg(test, &dmb, len);
		KUNIT_ASSERT_EQ_MSG(test, ret, 0, "register %u bytes", len);
		KUNIT_EXPECT_EQ(test, dmb.len, len);
		KUNIT_EXPECT_LT(test, dmb.idx, lo.max_dmbs);
		KUNIT_ASSERT_NOT_NULL(test, dmb.cpu_addr);
		lo_check_page_backed(test, &dmb);
		diff = lo_first_nonzero(dmb.cpu_addr, len);
		KUNIT_EXPECT_EQ_MSG(test, diff, -1L,
				    "new DMB of %u bytes not zeroed", len);

		memset(shadow, 0, len);
		irqs = atomic_read(&lo.irqs);
		for (j = 0; j < ARRAY_SIZE(spans); j++) {
			u32 off = spans[j].offset, size = spans[j].size;

			if ((u64)off + size > len)
				continue;
			lo_fill(src, size, i * 16 + j);
			ret = lo_move(dmb.token, j % ISM_DMBE_BITS, false, off,
				      src, size);
			KUNIT_EXPECT_EQ_MSG(test, ret, 0,
					    "len %u offset %u size %u",
					    len, off, size);
			if (!ret)
				memcpy(shadow + off, src, size);
			diff = lo_first_diff(dmb.cpu_addr, shadow, len);
			KUNIT_EXPECT_EQ_MSG(test, diff, -1L,
					    "len %u offset %u size %u: wrong byte",
					    len, off, size);
		}
		KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs), irqs);
		KUNIT_EXPECT_EQ(test, lo_unreg(&dmb), 0);
	}
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.bad_irqs), 0);
}

#define LO_BOUNDS_LEN	(2 * PAGE_SIZE)

/*
 * Every rejected move_data must leave the DMB unchanged and signal nothing,
 * although each call asks for a signal.
 */
static void lo_bounds_rejection(struct kunit *test)
{
	static const struct {
		unsigned int idx;
		u32 offset;
		u32 size;
	} bad[] = {
		{ 0, 0, LO_BOUNDS_LEN + 1 },
		{ 0, LO_BOUNDS_LEN - 1, 2 },
		{ 0, LO_BOUNDS_LEN, 1 },
		{ 0, LO_BOUNDS_LEN + 1, 0 },
		{ 0, LO_BOUNDS_LEN + PAGE_SIZE, 16 },
		{ 0, 0xfffffff0, 0x20 },
		{ 0, 0xffffffff, 2 },
		{ 0, 0xffffffff, 0 },
		{ ISM_DMBE_BITS, 0, 16 },
		{ UINT_MAX, 0, 16 },
	};
	struct ism_dmb dmb, stale;
	unsigned int i, irqs;
	u64 unknown[3];
	u8 *src, *snap;
	long diff;
	int ret;

	src = kunit_kmalloc(test, LO_BOUNDS_LEN + PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, src);
	snap = kunit_kmalloc(test, LO_BOUNDS_LEN, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, snap);

	KUNIT_ASSERT_EQ(test, lo_reg(test, &dmb, LO_BOUNDS_LEN), 0);
	lo_fill(snap, LO_BOUNDS_LEN, 7);
	KUNIT_ASSERT_EQ(test, lo_move(dmb.token, 0, false, 0, snap,
				      LO_BOUNDS_LEN), 0);
	lo_fill(src, LO_BOUNDS_LEN + PAGE_SIZE, 8);
	irqs = atomic_read(&lo.irqs);

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		ret = lo_move(dmb.token, bad[i].idx, true, bad[i].offset, src,
			      bad[i].size);
		KUNIT_EXPECT_EQ_MSG(test, ret, -EINVAL,
				    "idx %u offset %#x size %#x", bad[i].idx,
				    bad[i].offset, bad[i].size);
		diff = lo_first_diff(dmb.cpu_addr, snap, LO_BOUNDS_LEN);
		KUNIT_EXPECT_EQ_MSG(test, diff, -1L,
				    "idx %u offset %#x size %#x changed the DMB",
				    bad[i].idx, bad[i].offset, bad[i].size);
		KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs), irqs);
	}

	/* No source: rejected, and a zero-byte move needs none. */
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 0, true, 0, NULL, 16), -EINVAL);
	KUNIT_EXPECT_EQ(test, lo_first_diff(dmb.cpu_addr, snap, LO_BOUNDS_LEN),
			-1L);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs), irqs);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 0, false, 0, NULL, 0), 0);

	/* Tokens that were never issued. */
	unknown[0] = dmb.token ^ BIT_ULL(63);
	unknown[1] = dmb.token ^ BIT_ULL(40);
	unknown[2] = ~dmb.token;
	for (i = 0; i < ARRAY_SIZE(unknown); i++) {
		ret = lo_move(unknown[i], 0, true, 0, src, 16);
		KUNIT_EXPECT_EQ_MSG(test, ret, -ENOENT, "token %#llx",
				    unknown[i]);
	}

	/* A token whose DMB is gone. */
	KUNIT_ASSERT_EQ(test, lo_reg(test, &stale, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, lo_unreg(&stale), 0);
	KUNIT_EXPECT_EQ(test, lo_move(stale.token, 0, true, 0, src, 16),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, lo_move(stale.token, 0, true, 0, src, 0),
			-ENOENT);

	diff = lo_first_diff(dmb.cpu_addr, snap, LO_BOUNDS_LEN);
	KUNIT_EXPECT_EQ(test, diff, -1L);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs), irqs);

	/* The ranges right up to the end are still accepted. */
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, ISM_DMBE_BITS - 1, false,
				      LO_BOUNDS_LEN - 16, src, 16), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dmb.cpu_addr + LO_BOUNDS_LEN - 16, src,
				     16), 0);
	KUNIT_EXPECT_EQ(test, lo_unreg(&dmb), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.bad_irqs), 0);
}

static void lo_register_rejection(struct kunit *test)
{
	static struct ism_client stranger = {
		.name = "ism_lo_kunit_stranger",
		.add_dev = lo_test_add_dev,
		.remove_dev = lo_test_remove_dev,
	};
	struct ism_dmb dmb, copy;

	memset(&dmb, 0, sizeof(dmb));
	uuid_copy(&dmb.rgid, &lo.gid);
	dmb.len = 0;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(lo.dev, &dmb, &lo_test_client),
			-EINVAL);
	dmb.len = LO_TEST_MAX_DMB_LEN + 1;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(lo.dev, &dmb, &lo_test_client),
			-EINVAL);
	dmb.len = U32_MAX;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(lo.dev, &dmb, &lo_test_client),
			-EINVAL);

	/* Loopback DMBs can only be written by the device itself. */
	dmb.len = PAGE_SIZE;
	dmb.rgid.b[0] ^= 0xff;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(lo.dev, &dmb, &lo_test_client),
			-EINVAL);
	uuid_copy(&dmb.rgid, &uuid_null);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(lo.dev, &dmb, &lo_test_client),
			-EINVAL);

	/* A client that is not registered owns nothing. */
	uuid_copy(&dmb.rgid, &lo.gid);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(lo.dev, &dmb, &stranger),
			-EINVAL);

	/* The largest DMB is accepted. */
	KUNIT_EXPECT_EQ(test, lo_reg(test, &dmb, LO_TEST_MAX_DMB_LEN), 0);
	KUNIT_EXPECT_EQ(test, lo_unreg(&dmb), 0);

	/* Unregistering needs both the token and the index. */
	KUNIT_ASSERT_EQ(test, lo_reg(test, &dmb, PAGE_SIZE), 0);
	copy = dmb;
	copy.token ^= BIT_ULL(50);
	KUNIT_EXPECT_EQ(test, lo_unreg(&copy), -ENOENT);
	copy = dmb;
	copy.idx = (dmb.idx + 1) % lo.max_dmbs;
	KUNIT_EXPECT_EQ(test, lo_unreg(&copy), -ENOENT);
	copy.idx = lo.max_dmbs;
	KUNIT_EXPECT_EQ(test, lo_unreg(&copy), -ENOENT);
	KUNIT_EXPECT_EQ(test, lo_unreg(&dmb), 0);
	KUNIT_EXPECT_EQ(test, lo_unreg(&dmb), -ENOENT);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 0, false, 0, &copy, 1),
			-ENOENT);
}

#define LO_TOKENS_TOTAL	10000
#define LO_TOKENS_LIVE	1000

static int lo_cmp_u64(const void *a, const void *b)
{
	u64 x = *(const u64 *)a, y = *(const u64 *)b;

	return x < y ? -1 : x > y;
}

/*
 * 10,000 registrations, at most 1,000 live at once: indexes wrap around, so
 * stale tokens of reused indexes must differ too.
 */
static void lo_token_uniqueness(struct kunit *test)
{
	unsigned int total = 0, nlive = 0, i, j, dups = 0;
	struct ism_dmb *live;
	u64 *tokens;
	int ret = 0;

	KUNIT_ASSERT_GE(test, lo.max_dmbs, (u32)LO_TOKENS_LIVE);
	tokens = kunit_kcalloc(test, LO_TOKENS_TOTAL, sizeof(*tokens),
			       GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, tokens);
	live = kunit_kcalloc(test, LO_TOKENS_LIVE, sizeof(*live), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, live);

	while (total < LO_TOKENS_TOTAL && !ret) {
		while (nlive < LO_TOKENS_LIVE && total < LO_TOKENS_TOTAL) {
			/* lo_reg() checks the index against the live ones. */
			ret = lo_reg(test, &live[nlive], 1);
			if (ret)
				break;
			tokens[total++] = live[nlive++].token;
		}
		/* Drop every other live DMB, keep the rest. */
		for (i = 0, j = 0; i < nlive; i++) {
			if (i & 1) {
				live[j++] = live[i];
				continue;
			}
			KUNIT_EXPECT_EQ(test, lo_unreg(&live[i]), 0);
		}
		nlive = j;
		cond_resched();
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, total, (unsigned int)LO_TOKENS_TOTAL);
	for (i = 0; i < nlive; i++)
		KUNIT_EXPECT_EQ(test, lo_unreg(&live[i]), 0);

	sort(tokens, total, sizeof(*tokens), lo_cmp_u64, NULL);
	for (i = 1; i < total; i++)
		if (tokens[i] == tokens[i - 1])
			dups++;
	KUNIT_EXPECT_EQ_MSG(test, dups, 0U, "tokens issued twice");
}

/*
 * The owner unregisters first: the attached mapping stays valid until the
 * last detach, but the token no longer takes data.
 */
static void lo_attach_owner_first(struct kunit *test)
{
	struct ism_dmb dmb, att, att2;
	unsigned int irqs;
	u8 *expect;
	long diff;

	expect = kunit_kmalloc(test, 3 * PAGE_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, expect);
	KUNIT_ASSERT_EQ(test, lo_reg(test, &dmb, 2 * PAGE_SIZE + 100), 0);
	KUNIT_ASSERT_EQ(test, lo_attach(test, &att, dmb.token), 0);
	KUNIT_EXPECT_PTR_EQ(test, att.cpu_addr, dmb.cpu_addr);
	KUNIT_EXPECT_EQ(test, att.len, dmb.len);
	KUNIT_ASSERT_EQ(test, lo_attach(test, &att2, dmb.token), 0);
	KUNIT_EXPECT_PTR_EQ(test, att2.cpu_addr, dmb.cpu_addr);

	/* Zero copy: the data is already in place; the move only signals. */
	lo_fill(expect, dmb.len, 21);
	memcpy(att.cpu_addr, expect, dmb.len);
	irqs = atomic_read(&lo.irqs_by_idx[dmb.idx]);
	atomic_set(&lo.mask_by_idx[dmb.idx], 0);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 5, true, PAGE_SIZE - 10,
				      att.cpu_addr + PAGE_SIZE - 10, 20), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs_by_idx[dmb.idx]), irqs + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.mask_by_idx[dmb.idx]),
			(int)BIT(5));
	diff = lo_first_diff(dmb.cpu_addr, expect, dmb.len);
	KUNIT_EXPECT_EQ(test, diff, -1L);

	KUNIT_ASSERT_EQ(test, lo_unreg(&dmb), 0);
	/* Let any RCU-deferred free happen: KASAN reports a use after it. */
	rcu_barrier();
	lo_fill(att.cpu_addr, att.len, 22);
	lo_fill(expect, att.len, 22);
	diff = lo_first_diff(att.cpu_addr, expect, att.len);
	KUNIT_EXPECT_EQ(test, diff, -1L);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 0, true, 0, expect, 1),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 0, false, 0, att.cpu_addr, 1),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, lo_attach(test, &att2, dmb.token), -ENOENT);

	/* Two attachments: the first detach keeps the memory alive. */
	KUNIT_EXPECT_EQ(test, lo_detach(dmb.token), 0);
	rcu_barrier();
	memset(att.cpu_addr, 0x3c, att.len);
	KUNIT_EXPECT_EQ(test, lo_detach(dmb.token), 0);
	KUNIT_EXPECT_EQ(test, lo_detach(dmb.token), -ENOENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs_by_idx[dmb.idx]), irqs + 1);
}

/* The writer detaches first: the DMB stays registered and usable. */
static void lo_attach_detach_first(struct kunit *test)
{
	struct ism_dmb dmb, att;
	unsigned int irqs;
	u8 buf[32];

	KUNIT_EXPECT_EQ(test, lo_attach(test, &att, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, lo_attach(test, &att, ~0ULL), -ENOENT);
	KUNIT_EXPECT_EQ(test, lo_detach(~0ULL), -ENOENT);

	KUNIT_ASSERT_EQ(test, lo_reg(test, &dmb, PAGE_SIZE), 0);
	KUNIT_EXPECT_EQ(test, lo_detach(dmb.token), -ENOENT);
	KUNIT_ASSERT_EQ(test, lo_attach(test, &att, dmb.token), 0);
	KUNIT_EXPECT_PTR_EQ(test, att.cpu_addr, dmb.cpu_addr);
	KUNIT_EXPECT_EQ(test, att.len, dmb.len);

	lo_fill(buf, sizeof(buf), 31);
	memcpy(att.cpu_addr + 100, buf, sizeof(buf));
	KUNIT_EXPECT_EQ(test, memcmp(dmb.cpu_addr + 100, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, lo_detach(dmb.token), 0);
	KUNIT_EXPECT_EQ(test, lo_detach(dmb.token), -ENOENT);

	/* Still registered: data and signals still arrive. */
	irqs = atomic_read(&lo.irqs_by_idx[dmb.idx]);
	lo_fill(buf, sizeof(buf), 32);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 1, true, 200, buf,
				      sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dmb.cpu_addr + 200, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs_by_idx[dmb.idx]), irqs + 1);

	KUNIT_EXPECT_EQ(test, lo_unreg(&dmb), 0);
	KUNIT_EXPECT_EQ(test, lo_move(dmb.token, 1, true, 0, buf, 1), -ENOENT);
	KUNIT_EXPECT_EQ(test, lo_attach(test, &att, dmb.token), -ENOENT);
	KUNIT_EXPECT_EQ(test, lo_detach(dmb.token), -ENOENT);
}

/* Move @size bytes with sf set and check the one irq it must cause. */
static void lo_expect_signal(struct kunit *test, const struct ism_dmb *dmb,
			     const struct ism_dmb *other, unsigned int bit,
			     unsigned int size)
{
	unsigned int irqs = atomic_read(&lo.irqs);
	unsigned int mine = atomic_read(&lo.irqs_by_idx[dmb->idx]);
	unsigned int theirs = atomic_read(&lo.irqs_by_idx[other->idx]);
	u8 buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	atomic_set(&lo.mask_by_idx[dmb->idx], 0);
	atomic_set(&lo.mask_by_idx[other->idx], 0);
	KUNIT_EXPECT_EQ(test, lo_move(dmb->token, bit, true, 0, buf, size), 0);
	/* Counted before ism_move_data() returned: no waiting. */
	KUNIT_EXPECT_EQ_MSG(test, atomic_read(&lo.irqs), irqs + 1, "bit %u",
			    bit);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs_by_idx[dmb->idx]),
			mine + 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.mask_by_idx[dmb->idx]),
			(int)BIT(bit));
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs_by_idx[other->idx]),
			theirs);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.mask_by_idx[other->idx]), 0);
}

static void lo_signal_masks(struct kunit *test)
{
	static const unsigned int bits[] = { 0, 15, 7 };
	struct ism_dmb a, b;
	unsigned int i, irqs;
	u8 buf[8] = { 0 };

	KUNIT_ASSERT_EQ(test, lo_reg(test, &a, PAGE_SIZE), 0);
	KUNIT_ASSERT_EQ(test, lo_reg(test, &b, PAGE_SIZE), 0);
	KUNIT_EXPECT_NE(test, a.idx, b.idx);
	KUNIT_EXPECT_NE(test, a.token, b.token);

	for (i = 0; i < ARRAY_SIZE(bits); i++) {
		lo_expect_signal(test, &a, &b, bits[i], sizeof(buf));
		lo_expect_signal(test, &b, &a, bits[i], sizeof(buf));
	}
	/* A move of no data still signals. */
	lo_expect_signal(test, &a, &b, 3, 0);

	irqs = atomic_read(&lo.irqs);
	for (i = 0; i < ISM_DMBE_BITS; i++)
		KUNIT_EXPECT_EQ(test, lo_move(a.token, i, false, i, buf, 1), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.irqs), irqs);

	KUNIT_EXPECT_EQ(test, lo_unreg(&a), 0);
	KUNIT_EXPECT_EQ(test, lo_unreg(&b), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.bad_irqs), 0);
}

static void lo_software_events(struct kunit *test)
{
	struct ism_event ev;
	unsigned int events;
	uuid_t gid, other;

	KUNIT_EXPECT_EQ(test, ism_get_chid(lo.dev), (u16)ISM_CHID_LOOPBACK);
	KUNIT_EXPECT_EQ(test, ism_get_chid(lo.dev), (u16)0xffff);
	ism_get_local_gid(lo.dev, &gid);
	KUNIT_EXPECT_FALSE(test, uuid_is_null(&gid));
	other = gid;
	other.b[15] ^= 0x5a;

	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(lo.dev, &gid, 0, 0), 0);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(lo.dev, &gid, 1, 0x1fff), 0);
	KUNIT_EXPECT_LT(test, ism_query_remote_gid(lo.dev, &other, 0, 0), 0);
	KUNIT_EXPECT_LT(test, ism_query_remote_gid(lo.dev, &uuid_null, 0, 0),
			0);

	events = lo_test_events(NULL);
	KUNIT_EXPECT_EQ(test, ism_signal_event(lo.dev, &gid, 1, 0x1234,
					       0xdeadbeefcafe0001ULL), 0);
	KUNIT_EXPECT_EQ(test, lo_test_events(&ev), events + 1);
	KUNIT_EXPECT_EQ(test, ev.type, (u32)ISM_EVT_SWR);
	KUNIT_EXPECT_EQ(test, ev.code, 0x1234U);
	KUNIT_EXPECT_EQ(test, ev.info, 0xdeadbeefcafe0001ULL);
	KUNIT_EXPECT_EQ(test, ev.token, 0ULL);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&ev.gid, &gid));

	KUNIT_EXPECT_EQ(test, ism_signal_event(lo.dev, &gid, 0, 7, 8), 0);
	KUNIT_EXPECT_EQ(test, lo_test_events(&ev), events + 2);
	KUNIT_EXPECT_EQ(test, ev.code, 7U);
	KUNIT_EXPECT_EQ(test, ev.info, 8ULL);

	KUNIT_EXPECT_EQ(test, ism_signal_event(lo.dev, &other, 1, 9, 10),
			-EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, lo_test_events(NULL), events + 2);
	KUNIT_EXPECT_EQ(test, atomic_read(&lo.bad_events), 0);
}

/*
 * Fill every index with small DMBs, free one, take it again. The loop is
 * bounded by max_dmbs + 1 registrations.
 */
static void lo_dmb_exhaustion(struct kunit *test)
{
	unsigned int count = 0, failed = 0, idx, freed;
	struct ism_dmb extra;
	int ret;

	for (;;) {
		ret = lo_reg(test, &extra, 1);
		if (ret)
			break;
		if (++count > lo.max_dmbs)
			break;
		if (!(count % 256))
			cond_resched();
	}
	KUNIT_EXPECT_EQ(test, ret, -ENOSPC);
	KUNIT_EXPECT_EQ(test, count, lo.max_dmbs);
	KUNIT_EXPECT_EQ(test, bitmap_weight(lo.live, lo.max_dmbs),
			(unsigned int)count);

	freed = lo.max_dmbs / 2;
	if (test_bit(freed, lo.live)) {
		KUNIT_EXPECT_EQ(test, lo_unreg(&lo.dmbs[freed]), 0);
		KUNIT_EXPECT_EQ(test, lo_reg(test, &extra, 1), 0);
		KUNIT_EXPECT_EQ(test, extra.idx, freed);
		KUNIT_EXPECT_EQ(test, lo_reg(test, &extra, 1), -ENOSPC);
	} else {
		KUNIT_FAIL(test, "index %u was never handed out\n", freed);
	}

	for_each_set_bit(idx, lo.live, lo.max_dmbs)
		if (lo_unreg(&lo.dmbs[idx]))
			failed++;
	KUNIT_EXPECT_EQ(test, failed, 0U);
	KUNIT_EXPECT_TRUE(test, bitmap_empty(lo.live, lo.max_dmbs));

	/* Everything is free again. */
	KUNIT_EXPECT_EQ(test, lo_reg(test, &extra, 1), 0);
	KUNIT_EXPECT_EQ(test, lo_unreg(&extra), 0);
}

/* ----------------------- ism_lo_concurrency ----------------------- */

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

/* ------------------------------ suites ------------------------------ */

static void lo_test_free(void)
{
	kvfree(lo.irqs_by_idx);
	lo.irqs_by_idx = NULL;
	kvfree(lo.mask_by_idx);
	lo.mask_by_idx = NULL;
	kvfree(lo.dmbs);
	lo.dmbs = NULL;
	bitmap_free(lo.live);
	lo.live = NULL;
	lo.max_dmbs = 0;
}

static int lo_test_suite_init(struct kunit_suite *suite)
{
	unsigned int i;
	int ret;

	atomic_set(&lo.irqs, 0);
	atomic_set(&lo.bad_irqs, 0);
	atomic_set(&lo.bad_events, 0);
	for (i = 0; i < LO_STRESS_WORKERS; i++)
		atomic_set(&lo.events_by_code[i], 0);
	lo.events = 0;
	lo.nr_attached = 0;

	ret = ism_register_client(&lo_test_client);
	if (ret) {
		kunit_err(suite, "cannot register the test client: %d\n", ret);
		return ret;
	}
	if (!lo.dev) {
		kunit_err(suite, "no loopback ISM device; load ism_lo.ko first\n");
		ret = -ENODEV;
		goto unregister;
	}
	ism_get_local_gid(lo.dev, &lo.gid);
	lo.max_dmbs = ism_get_max_dmbs(lo.dev);
	lo.irqs_by_idx = kvcalloc(lo.max_dmbs, sizeof(atomic_t), GFP_KERNEL);
	lo.mask_by_idx = kvcalloc(lo.max_dmbs, sizeof(atomic_t), GFP_KERNEL);
	lo.dmbs = kvcalloc(lo.max_dmbs, sizeof(*lo.dmbs), GFP_KERNEL);
	lo.live = bitmap_zalloc(lo.max_dmbs, GFP_KERNEL);
	if (!lo.irqs_by_idx || !lo.mask_by_idx || !lo.dmbs || !lo.live) {
		ret = -ENOMEM;
		goto unregister;
	}
	return 0;

unregister:
	ism_unregister_client(&lo_test_client);
	lo_test_free();
	return ret;
}

static void lo_test_suite_exit(struct kunit_suite *suite)
{
	/* No callback runs once this returns: then free what they use. */
	ism_unregister_client(&lo_test_client);
	lo_test_free();
}

static int lo_test_init(struct kunit *test)
{
	if (!lo.dev || !lo.live) {
		kunit_err(test, "no loopback ISM device\n");
		return -ENODEV;
	}
	return 0;
}

/* Release what a case still holds, also when it stopped early. */
static void lo_test_exit(struct kunit *test)
{
	unsigned int left = 0, idx;

	if (!lo.dev || !lo.live)
		return;
	while (lo.nr_attached) {
		ism_detach_dmb(lo.dev, lo.attached[--lo.nr_attached],
			       &lo_test_client);
		left++;
	}
	for_each_set_bit(idx, lo.live, lo.max_dmbs) {
		ism_unregister_dmb(lo.dev, &lo.dmbs[idx]);
		__clear_bit(idx, lo.live);
		left++;
	}
	if (test->status == KUNIT_SUCCESS)
		KUNIT_EXPECT_EQ_MSG(test, left, 0U,
				    "case left DMBs or attachments behind");
}

static struct kunit_case lo_cases[] = {
	KUNIT_CASE(lo_data_integrity),
	KUNIT_CASE(lo_bounds_rejection),
	KUNIT_CASE(lo_register_rejection),
	KUNIT_CASE(lo_token_uniqueness),
	KUNIT_CASE(lo_attach_owner_first),
	KUNIT_CASE(lo_attach_detach_first),
	KUNIT_CASE(lo_signal_masks),
	KUNIT_CASE(lo_software_events),
	KUNIT_CASE(lo_dmb_exhaustion),
	{}
};

static struct kunit_suite lo_suite = {
	.name = "ism_lo",
	.suite_init = lo_test_suite_init,
	.suite_exit = lo_test_suite_exit,
	.init = lo_test_init,
	.exit = lo_test_exit,
	.test_cases = lo_cases,
};

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

kunit_test_suites(&lo_suite, &lo_concurrency_suite);

MODULE_DESCRIPTION("KUnit tests of the ISM loopback device");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
