// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_lo_data: the loopback device's data path. move_data writes
 * exactly the bytes asked for into zeroed, page-backed DMBs and rejects bad
 * ranges, signal bits and tokens without writing or signalling; a signal
 * reaches only the DMB's owner, with the dmbe bit asked for; software
 * events reach the device itself only.
 */
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "lo_kunit.h"

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
	/* Exactly this error: the core's bad-input table has no ism_lo. */
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(lo.dev, &other, 0, 0),
			-EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(lo.dev, &uuid_null, 0, 0),
			-EHOSTUNREACH);

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

static struct kunit_case lo_data_cases[] = {
	KUNIT_CASE(lo_data_integrity),
	KUNIT_CASE(lo_bounds_rejection),
	KUNIT_CASE(lo_signal_masks),
	KUNIT_CASE(lo_software_events),
	{}
};

static struct kunit_suite lo_data_suite = {
	.name = "ism_lo_data",
	.suite_init = lo_test_suite_init,
	.suite_exit = lo_test_suite_exit,
	.init = lo_test_init,
	.exit = lo_test_exit,
	.test_cases = lo_data_cases,
};

kunit_test_suites(&lo_data_suite);
