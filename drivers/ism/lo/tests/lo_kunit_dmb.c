// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_lo_dmb: the loopback device's DMBs. The rules of registration;
 * the uniqueness of tokens and indexes; the lifetime of an attached DMB
 * whether its owner unregisters it before or after the detach; DMB
 * exhaustion.
 */
#include <linux/bitmap.h>
#include <linux/rcupdate.h>
#include <linux/sched.h>
#include <linux/slab.h>
#include <linux/sort.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "lo_kunit.h"

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

static struct kunit_case lo_dmb_cases[] = {
	KUNIT_CASE(lo_register_rejection),
	KUNIT_CASE(lo_token_uniqueness),
	KUNIT_CASE(lo_attach_owner_first),
	KUNIT_CASE(lo_attach_detach_first),
	KUNIT_CASE(lo_dmb_exhaustion),
	{}
};

static struct kunit_suite lo_dmb_suite = {
	.name = "ism_lo_dmb",
	.suite_init = lo_test_suite_init,
	.suite_exit = lo_test_suite_exit,
	.init = lo_test_init,
	.exit = lo_test_exit,
	.test_cases = lo_dmb_cases,
};

kunit_test_suites(&lo_dmb_suite);
