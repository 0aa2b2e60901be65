// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture of ism_lo_kunit.ko (see lo_kunit.h): the test client, which
 * finds the first loopback device and counts what it delivers, the helpers
 * that track what a case holds, and the suites' init and exit.
 */
#include <linux/bitmap.h>
#include <linux/mm.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "lo_kunit.h"

struct lo_test_state lo = {
	.event_lock = __SPIN_LOCK_UNLOCKED(lo.event_lock),
};

int lo_test_add_dev(struct ism_dev *dev)
{
	if (!lo.dev && ism_get_chid(dev) == ISM_CHID_LOOPBACK)
		WRITE_ONCE(lo.dev, dev);
	return 0;
}

void lo_test_remove_dev(struct ism_dev *dev)
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
	unsigned long flags;

	if (dev != READ_ONCE(lo.dev) || event->type != ISM_EVT_SWR ||
	    !uuid_equal(&event->gid, &lo.gid))
		atomic_inc(&lo.bad_events);

	spin_lock_irqsave(&lo.event_lock, flags);
	lo.last_event = *event;
	lo.events++;
	spin_unlock_irqrestore(&lo.event_lock, flags);
}

struct ism_client lo_test_client = {
	.name = "ism_lo_kunit",
	.add_dev = lo_test_add_dev,
	.remove_dev = lo_test_remove_dev,
	.handle_irq = lo_test_handle_irq,
	.handle_event = lo_test_handle_event,
};

unsigned int lo_test_events(struct ism_event *last)
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
int lo_reg(struct kunit *test, struct ism_dmb *dmb, u32 len)
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
		ism_unregister_dmb(lo.dev, dmb, &lo_test_client);
		return -EIO;
	}
	lo.dmbs[dmb->idx] = *dmb;
	__set_bit(dmb->idx, lo.live);
	return 0;
}

int lo_unreg(struct ism_dmb *dmb)
{
	int ret = ism_unregister_dmb(lo.dev, dmb, &lo_test_client);

	if (!ret && dmb->idx < lo.max_dmbs && test_bit(dmb->idx, lo.live) &&
	    lo.dmbs[dmb->idx].token == dmb->token)
		__clear_bit(dmb->idx, lo.live);
	return ret;
}

int lo_attach(struct kunit *test, struct ism_dmb *att, u64 token)
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

int lo_detach(u64 token)
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

int lo_move(u64 token, unsigned int idx, bool sf, unsigned int offset,
	    const void *data, unsigned int size)
{
	return ism_move_data(lo.dev, token, idx, sf, offset, data, size);
}

/* A byte pattern that differs with @seed and is never 0. */
void lo_fill(u8 *buf, size_t len, u32 seed)
{
	size_t i;
	u8 b;

	for (i = 0; i < len; i++) {
		b = (i * 131 + seed * 29 + (i >> 9)) & 0xff;
		buf[i] = b ? b : 0xa5;
	}
}

/* Offset of the first byte where @a and @b differ, or -1. */
long lo_first_diff(const void *a, const void *b, size_t len)
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
long lo_first_nonzero(const void *buf, size_t len)
{
	const u8 *p = memchr_inv(buf, 0, len);

	return p ? p - (const u8 *)buf : -1;
}

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

int lo_test_suite_init(struct kunit_suite *suite)
{
	int ret;

	atomic_set(&lo.irqs, 0);
	atomic_set(&lo.bad_irqs, 0);
	atomic_set(&lo.bad_events, 0);
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

void lo_test_suite_exit(struct kunit_suite *suite)
{
	/* No callback runs once this returns: then free what they use. */
	ism_unregister_client(&lo_test_client);
	lo_test_free();
}

int lo_test_init(struct kunit *test)
{
	if (!lo.dev || !lo.live) {
		kunit_err(test, "no loopback ISM device\n");
		return -ENODEV;
	}
	return 0;
}

/* Release what a case still holds, also when it stopped early. */
void lo_test_exit(struct kunit *test)
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
		ism_unregister_dmb(lo.dev, &lo.dmbs[idx], &lo_test_client);
		__clear_bit(idx, lo.live);
		left++;
	}
	if (test->status == KUNIT_SUCCESS)
		KUNIT_EXPECT_EQ_MSG(test, left, 0U,
				    "case left DMBs or attachments behind");
}

MODULE_DESCRIPTION("KUnit tests of the ISM loopback device");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
