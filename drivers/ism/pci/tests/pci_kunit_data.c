// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci_data: DMB slots, moves split at page boundaries, interrupts and
 * the event queue, between two modelled functions, and what the driver
 * does with an SBA or IEQ a faulty function wrote.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "pci_kunit.h"

/* Slots 32 to 1919, each once, then -ENOSPC; a freed slot is reused. */
static void ism_pci_slots(struct kunit *test)
{
	const unsigned int n = ISM_PCI_NR_DMBS - ISM_PCI_FIRST_DMB;
	struct ism_pci_test *t = test->priv;
	unsigned long *seen;
	struct ism_dmb *dmb, extra;
	unsigned int i, got = 0;
	int ret = 0;

	dmb = kvcalloc(n, sizeof(*dmb), GFP_KERNEL);
	seen = bitmap_zalloc(ISM_PCI_NR_DMBS, GFP_KERNEL);
	if (!dmb || !seen)
		goto out;
	while (got < n) {
		ret = ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
				       &dmb[got]);
		if (ret || dmb[got].idx < ISM_PCI_FIRST_DMB ||
		    dmb[got].idx >= ISM_PCI_NR_DMBS ||
		    __test_and_set_bit(dmb[got].idx, seen))
			break;
		got++;
	}
	KUNIT_EXPECT_EQ(test, ret, 0);
	KUNIT_EXPECT_EQ(test, got, n);
	KUNIT_EXPECT_EQ(test, ism_model_dmbs(t->a), got);
	KUNIT_EXPECT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
					       &extra), -ENOSPC);
	if (got == n) {
		KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->a, &dmb[500]), 0);
		KUNIT_EXPECT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B,
						       4096, &extra), 0);
		KUNIT_EXPECT_EQ(test, extra.idx, dmb[500].idx);
		dmb[500] = extra;
	}
	for (i = 0; i < got; i++)
		KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->a, &dmb[i]), 0);
	KUNIT_EXPECT_EQ(test, ism_model_dmbs(t->a), 0);
out:
	KUNIT_EXPECT_NOT_NULL(test, dmb);
	KUNIT_EXPECT_NOT_NULL(test, seen);
	bitmap_free(seen);
	kvfree(dmb);
}

static void ism_pci_dmb_len(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dmb dmb;

	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B,
					       ISM_PCI_MAX_DMB_LEN, &dmb), 0);
	KUNIT_EXPECT_EQ(test, t->a->dmbs[dmb.idx].len, ISM_PCI_MAX_DMB_LEN);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0,
					    ISM_PCI_MAX_DMB_LEN));
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->a, &dmb), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B,
					       ISM_PCI_MAX_DMB_LEN + 1, &dmb),
			-EINVAL);
	/* The writer must be a 64-bit GID. */
	memset(&dmb, 0, sizeof(dmb));
	dmb.len = 4096;
	dmb.rgid.b[15] = 1;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(ism_pci_test_dev(t->a), &dmb,
					       &ism_pci_test_client), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_model_dmbs(t->a), 0);
}

/* 10000 bytes at offset 100: three stores, the signal on the last only. */
static void ism_pci_move_split(struct kunit *test)
{
	static const unsigned int len[] = { 3996, 4096, 1908 };
	struct ism_pci_test *t = test->priv;
	struct ism_model_move *log = t->a->move_log;
	unsigned int i, off = 100;
	struct ism_dmb dmb;
	u8 *buf;

	buf = kunit_kmalloc(test, 10000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, buf);
	for (i = 0; i < 10000; i++)
		buf[i] = i % 251;
	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->b, ISM_PCI_TEST_GID_A,
					       16384, &dmb), 0);
	KUNIT_ASSERT_EQ(test, ism_move_data(ism_pci_test_dev(t->a), dmb.token,
					    3, true, off, buf, 10000), 0);
	ism_model_sync(t->b);
	KUNIT_ASSERT_EQ(test, t->a->moves, ARRAY_SIZE(len));
	for (i = 0; i < ARRAY_SIZE(len); i++) {
		KUNIT_EXPECT_EQ(test, log[i].len, len[i]);
		KUNIT_EXPECT_EQ(test, log[i].addr & ISM_PCI_MOVE_OFF_MASK, off);
		KUNIT_EXPECT_EQ(test, log[i].addr & ISM_PCI_TOKEN_MASK,
				dmb.token);
		KUNIT_EXPECT_EQ(test, (log[i].addr >> ISM_PCI_MOVE_IDX_SHIFT) &
				0xff, 3);
		KUNIT_EXPECT_EQ(test, !!(log[i].addr & ISM_PCI_MOVE_SF),
				i == ARRAY_SIZE(len) - 1);
		off += len[i];
	}
	KUNIT_EXPECT_EQ(test, memcmp(dmb.cpu_addr + 100, buf, 10000), 0);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, 100));
	KUNIT_ASSERT_EQ(test, ism_pci_test_irqs(t), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->irqs[0].dev, ism_pci_test_dev(t->b));
	KUNIT_EXPECT_EQ(test, t->irqs[0].idx, dmb.idx);
	KUNIT_EXPECT_EQ(test, t->irqs[0].mask, BIT(3));
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->b, &dmb), 0);
}

/* Refused moves write nothing; the driver's own checks store nothing. */
static void ism_pci_move_refused(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	struct ism_dmb dmb, other;
	u64 data = ~0ULL;
	unsigned int moves;

	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->b, ISM_PCI_TEST_GID_A, 4096,
					       &dmb), 0);
	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->b, ISM_PCI_TEST_GID_C, 4096,
					       &other), 0);
	moves = t->a->moves;
	KUNIT_EXPECT_EQ(test, ism_move_data(a, dmb.token, ISM_DMBE_BITS, true,
					    0, &data, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, dmb.token, 0, true, 0, NULL, 8),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, dmb.token, 0, true, UINT_MAX - 3,
					    &data, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, dmb.token | 1, 0, true, 0,
					    &data, 8), -ENOENT);
	KUNIT_EXPECT_EQ(test, t->a->moves, moves);

	/* The function's checks: token, writer, end of the DMB. */
	KUNIT_EXPECT_EQ(test, ism_move_data(a, 0x7fULL << 48, 0, true, 0,
					    &data, 8), -ENOENT);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, other.token, 0, true, 0,
					    &data, 8), -EACCES);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, dmb.token, 0, true, 4096,
					    &data, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->a->moves, moves + 3);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, 4096));
	KUNIT_EXPECT_FALSE(test, memchr_inv(other.cpu_addr, 0, 4096));

	/*
	 * Across the end: the store before the page boundary lands, the one
	 * after is refused (the function checks each; see ism-pci.rst).
	 */
	KUNIT_EXPECT_EQ(test, ism_move_data(a, dmb.token, 0, true, 4092,
					    &data, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->a->moves, moves + 5);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, 4092));
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr + 4092, 0xff, 4));
	ism_model_sync(t->b);
	KUNIT_EXPECT_EQ(test, ism_pci_test_irqs(t), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->b, &dmb), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->b, &other), 0);
}

/*
 * A DMB that a process of another system registered for this function's
 * GID, with a user key: the function cannot see that key, so the core
 * lets no writer in user space in on it (/dev/ism then refuses with
 * -EPERM unless root turned unkeyed_writes on); the kernel's own write
 * goes as before.
 */
static void ism_pci_user_key_unseen(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	struct ism_dmb dmb = { .len = 4096, .user_key = 0x5eed };
	u64 data = 1;
	u32 len;

	ism_pci_test_gid(ISM_PCI_TEST_GID_A, &dmb.rgid);
	KUNIT_ASSERT_EQ(test, ism_register_dmb(ism_pci_test_dev(t->b), &dmb,
					       &ism_pci_test_client), 0);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(a, dmb.token, 0x5eed, &len),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(ism_pci_test_dev(t->b),
						 dmb.token, 0x5eed, &len),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, dmb.token, 0, false, 0, &data,
					    sizeof(data)), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->b, &dmb), 0);
}

/* Four moves, three signals on two DMBs, one interrupt. */
static void ism_pci_coalesce(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	struct ism_dmb one, two;
	u64 data = 1;

	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->b, ISM_PCI_TEST_GID_A, 4096,
					       &one), 0);
	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->b, ISM_PCI_TEST_GID_A, 4096,
					       &two), 0);
	ism_model_hold(t->b);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, one.token, 1, true, 0, &data, 8),
			0);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, one.token, 2, true, 8, &data, 8),
			0);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, two.token, 0, true, 0, &data, 8),
			0);
	KUNIT_EXPECT_EQ(test, ism_move_data(a, one.token, 5, false, 16, &data,
					    8), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_irqs(t), 0);
	ism_model_release(t->b);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->b->irqs), 1);
	KUNIT_ASSERT_EQ(test, ism_pci_test_irqs(t), 2);
	KUNIT_EXPECT_EQ(test, t->irqs[0].idx, one.idx);
	KUNIT_EXPECT_EQ(test, t->irqs[0].mask, BIT(1) | BIT(2));
	KUNIT_EXPECT_EQ(test, t->irqs[1].idx, two.idx);
	KUNIT_EXPECT_EQ(test, t->irqs[1].mask, BIT(0));
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->b, &one), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->b, &two), 0);
}

/* 40 events through a queue of 15: every one, in order. */
static void ism_pci_ieq_wrap(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	unsigned int i;
	uuid_t gid;

	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	for (i = 0; i < 40; i++) {
		KUNIT_ASSERT_EQ(test, ism_signal_event(a, &gid, 1, i, 1000 + i),
				0);
		ism_model_sync(t->b);
	}
	KUNIT_EXPECT_EQ(test, t->b->ieq_written, 40);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 40);
	ism_pci_test_gid(ISM_PCI_TEST_GID_A, &gid);
	for (i = 0; i < 40; i++) {
		KUNIT_EXPECT_EQ(test, t->events[i].ev.type, ISM_EVT_SWR);
		KUNIT_EXPECT_EQ(test, t->events[i].ev.code, i);
		KUNIT_EXPECT_EQ(test, t->events[i].ev.info, 1000 + i);
		KUNIT_EXPECT_TRUE(test, uuid_equal(&t->events[i].ev.gid, &gid));
	}
}

/* Events queued without an interrupt wait for the next one. */
static void ism_pci_event_no_irq(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	uuid_t gid;

	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	KUNIT_ASSERT_EQ(test, ism_signal_event(ism_pci_test_dev(t->a), &gid, 0,
					       1, 2), 0);
	ism_model_sync(t->b);
	KUNIT_EXPECT_EQ(test, ism_pci_test_events(t), 0);
	ism_model_gid_event(t->b, ISM_PCI_TEST_GID_C);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 2);
	KUNIT_EXPECT_EQ(test, t->events[0].ev.type, ISM_EVT_SWR);
	KUNIT_EXPECT_EQ(test, t->events[1].ev.type, ISM_EVT_GID);
	ism_pci_test_gid(ISM_PCI_TEST_GID_C, &gid);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&t->events[1].ev.gid, &gid));
}

/* What a faulty function writes is dropped, and the queue stays usable. */
static void ism_pci_untrusted(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_model_fn *b = t->b;
	irqreturn_t ret;
	uuid_t gid;

	/* An index past the queue. */
	WRITE_ONCE(b->ieq->hdr.idx, cpu_to_be64(ISM_PCI_IEQ_ENTRIES + 1));
	ism_model_raise(b, ISM_PCI_SBA_EVENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->ip->bad_ieq), 1);
	KUNIT_EXPECT_EQ(test, ism_pci_test_events(t), 0);
	WRITE_ONCE(b->ieq->hdr.idx, 0);

	/* An event of no known type. */
	b->ieq->entry[0].type = cpu_to_be32(9);
	b->ieq_written = 1;
	WRITE_ONCE(b->ieq->hdr.idx, cpu_to_be64(1));
	ism_model_raise(b, ISM_PCI_SBA_EVENT);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->ip->bad_ieq), 2);
	KUNIT_EXPECT_EQ(test, ism_pci_test_events(t), 0);

	/* Bits in the word before the first slot. */
	b->sba->dmb_bits[0] = cpu_to_be32(~0U);
	ism_model_raise(b, ISM_PCI_SBA_SUMMARY);
	KUNIT_EXPECT_EQ(test, ism_pci_test_irqs(t), 0);

	/* An interrupt with nothing set, as the handler would run. */
	local_irq_disable();
	ret = ism_pci_irq(0, b->ip);
	local_irq_enable();
	KUNIT_EXPECT_EQ(test, ret, IRQ_NONE);
	KUNIT_EXPECT_EQ(test, atomic_read(&b->ip->stale_irq), 1);

	/* A good event after all that. */
	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	KUNIT_ASSERT_EQ(test, ism_signal_event(ism_pci_test_dev(t->a), &gid, 1,
					       3, 4), 0);
	ism_model_sync(b);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 1);
	KUNIT_EXPECT_EQ(test, t->events[0].ev.code, 3);
}

/* The writer of a DMB hears that its owner unregistered it. */
static void ism_pci_dmb_event(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dmb dmb;

	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->b, ISM_PCI_TEST_GID_A, 4096,
					       &dmb), 0);
	KUNIT_ASSERT_EQ(test, ism_pci_test_unreg(t->b, &dmb), 0);
	ism_model_sync(t->a);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->events[0].dev, ism_pci_test_dev(t->a));
	KUNIT_EXPECT_EQ(test, t->events[0].ev.type, ISM_EVT_DMB);
	KUNIT_EXPECT_EQ(test, t->events[0].ev.token, dmb.token);
}

static struct kunit_case ism_pci_data_cases[] = {
	KUNIT_CASE(ism_pci_slots),
	KUNIT_CASE(ism_pci_dmb_len),
	KUNIT_CASE(ism_pci_move_split),
	KUNIT_CASE(ism_pci_move_refused),
	KUNIT_CASE(ism_pci_user_key_unseen),
	KUNIT_CASE(ism_pci_coalesce),
	KUNIT_CASE(ism_pci_ieq_wrap),
	KUNIT_CASE(ism_pci_event_no_irq),
	KUNIT_CASE(ism_pci_untrusted),
	KUNIT_CASE(ism_pci_dmb_event),
	{}
};

struct kunit_suite ism_pci_data_suite = {
	.name = "ism_pci_data",
	.init = ism_pci_test_init,
	.exit = ism_pci_test_exit,
	.test_cases = ism_pci_data_cases,
};
