// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_core_dmb: DMB registration and ownership in the ISM core,
 * through its public API, on the fake device of fake_dev.h.
 */
#include <linux/module.h>
#include <linux/uuid.h>

#include "core_kunit.h"

static void ism_dmb_register_unregister(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	struct ism_dmb *dmb = &a->dmbs[0].dmb;

	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 100), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_REGISTER_DMB], 1);
	KUNIT_EXPECT_PTR_EQ(test, fake->last.dmb, dmb);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 1);
	KUNIT_EXPECT_LT(test, dmb->idx, FAKE_MAX_DMBS);
	KUNIT_EXPECT_NE(test, dmb->dma_addr, 0);

	/* max_dmb_len itself is allowed. */
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 1, FAKE_MAX_DMB_LEN), 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 2);

	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 1);
	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 1), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 2);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
}

static void ism_dmb_register_bad_args(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *never = tc_get(test, 1);
	struct test_client *gone = tc_new(test, 2);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct ism_dmb dmb = { .len = 64 };
	unsigned int before;

	tc_unregister(gone);
	never->client.id = a->client.id;
	before = fake_total_calls(dev);

	KUNIT_EXPECT_EQ(test, ism_register_dmb(NULL, &dmb, &a->client),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, NULL, &a->client),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, &never->client),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, &gone->client),
			-EINVAL);
	dmb.len = 0;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, &a->client),
			-EINVAL);
	dmb.len = FAKE_MAX_DMB_LEN + 1;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, &a->client),
			-EINVAL);

	KUNIT_EXPECT_EQ(test, fake_total_calls(dev), before);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
}

static void ism_dmb_register_driver_error(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	struct ism_dmb *dmb = &a->dmbs[0].dmb;

	fake->register_err = -ENOSPC;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), -ENOSPC);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_REGISTER_DMB], 1);

	/* Nothing recorded, not even at the index the structure held. */
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb, &a->client), -ENOENT);
	tc_route(dev, dmb->idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 0);

	fake->register_err = 0;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, dmb->idx, 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 1);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0);
}

static void ism_dmb_register_idx_out_of_range(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);

	fake->force_idx = true;
	fake->forced_idx = FAKE_MAX_DMBS;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), -EIO);
	/* Rolled back: the device freed exactly the DMB it made. */
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 1);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
	tc_route(dev, FAKE_MAX_DMBS, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);

	fake->forced_idx = U32_MAX;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), -EIO);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 2);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);

	/* The device still works. */
	fake->force_idx = false;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
}

static void ism_dmb_register_idx_in_use(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	u32 idx;

	KUNIT_ASSERT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	idx = a->dmbs[0].dmb.idx;

	fake->force_idx = true;
	fake->forced_idx = idx;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(b, dev, 0, 64), -EIO);
	fake->force_idx = false;
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 1);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 1);

	/* The DMB already there is untouched: still a's, still registered. */
	tc_route(dev, idx, 4, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 2);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
}

static void ism_dmb_unregister_bad_args(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	struct ism_dmb *dmb = &a->dmbs[0].dmb;
	struct ism_dmb stale, bad;
	unsigned int before;

	/* A stale token: the index was freed and given to a new DMB. */
	KUNIT_ASSERT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	stale = *dmb;
	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	KUNIT_ASSERT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, dmb->idx, stale.idx);
	KUNIT_EXPECT_NE(test, dmb->token, stale.token);

	before = fake_total_calls(dev);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(NULL, dmb, &a->client),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, NULL, &a->client),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &stale, &a->client),
			-ENOENT);
	/* Token and index right, but another client's DMB. */
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb, &b->client),
			-ENOENT);

	bad = *dmb;
	bad.idx = dmb->idx + 1;
	bad.token = FAKE_TOKEN_BASE + 1000;
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &bad, &a->client),
			-ENOENT);
	bad = *dmb;
	bad.idx = FAKE_MAX_DMBS;
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &bad, &a->client),
			-ENOENT);
	bad.idx = U32_MAX;
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &bad, &a->client),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, fake_total_calls(dev), before);

	/* The DMB is still registered and still a's. */
	KUNIT_EXPECT_EQ(test, fake_used(dev), 1);
	tc_route(dev, dmb->idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);

	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb, &a->client),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 2);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
}

static void ism_dmb_dev_unregister_releases(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *d0 = td_new(test, &fake_ops_min);
	struct ism_dev *d1 = td_new(test, &fake_ops_min);

	a->free_on_remove = false;
	b->free_on_remove = false;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, d0, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, d0, 1, 128), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(b, d0, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(b, d0, 1, FAKE_MAX_DMB_LEN), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, d1, 2, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(b, d1, 2, 64), 0);
	KUNIT_EXPECT_EQ(test, fake_used(d0), 4);

	td_unregister(test, d0);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, to_fake(d0)->calls[OP_UNREGISTER_DMB], 4);
	KUNIT_EXPECT_EQ(test, to_fake(d0)->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(d0), 0);

	/* The other device keeps its DMBs and their routing. */
	KUNIT_EXPECT_EQ(test, to_fake(d1)->calls[OP_UNREGISTER_DMB], 0);
	KUNIT_EXPECT_EQ(test, fake_used(d1), 2);
	tc_route(d1, a->dmbs[2].dmb.idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, a->irq_dev, d1);

	a->free_on_remove = true;
	b->free_on_remove = true;
}

static void ism_dmb_dev_unregister_client_frees_own(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);

	b->free_on_remove = false;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 1, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(b, dev, 0, 64), 0);

	/* a frees two in remove_dev, the core the one b left: three. */
	td_unregister(test, dev);
	KUNIT_EXPECT_EQ(test, a->remove_err, 0);
	KUNIT_EXPECT_EQ(test, to_fake(dev)->calls[OP_UNREGISTER_DMB], 3);
	KUNIT_EXPECT_EQ(test, to_fake(dev)->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
}

static void ism_dmb_client_unregister_releases(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct test_client *c = tc_get(test, 2);
	struct ism_dev *d0 = td_new(test, &fake_ops_min);
	struct ism_dev *d1 = td_new(test, &fake_ops_min);
	u32 a_idx;

	a->free_on_remove = false;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, d0, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, d0, 1, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, d1, 2, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(b, d0, 0, 64), 0);
	a_idx = a->dmbs[0].dmb.idx;

	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 1);
	KUNIT_EXPECT_EQ(test, to_fake(d0)->calls[OP_UNREGISTER_DMB], 2);
	KUNIT_EXPECT_EQ(test, to_fake(d1)->calls[OP_UNREGISTER_DMB], 1);
	KUNIT_EXPECT_EQ(test, to_fake(d0)->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, to_fake(d1)->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(d0), 1);
	KUNIT_EXPECT_EQ(test, fake_used(d1), 0);

	/* b and the devices carry on. */
	EXPECT_ADD_REMOVE(test, b, 0, 1, 0);
	tc_route(d0, b->dmbs[0].dmb.idx, 2, NULL);
	tc_route(d0, a_idx, 2, NULL);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);

	/* A new client gets the device and the index a left behind. */
	KUNIT_EXPECT_EQ(test, tc_register(c), 0);
	EXPECT_ADD_REMOVE(test, c, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(c, d0, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, c->dmbs[0].dmb.idx, a_idx);
	tc_route(d0, a_idx, 8, NULL);
	KUNIT_EXPECT_EQ(test, c->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, c->irq_mask, 8);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);
}

static void ism_dmb_client_unregister_frees_own(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);

	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 1, 64), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(b, dev, 0, 64), 0);

	tc_unregister(a);
	KUNIT_EXPECT_EQ(test, a->remove_err, 0);
	KUNIT_EXPECT_EQ(test, to_fake(dev)->calls[OP_UNREGISTER_DMB], 2);
	KUNIT_EXPECT_EQ(test, to_fake(dev)->unreg_unknown, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 1);
	tc_route(dev, b->dmbs[0].dmb.idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 1);
}

/* A worker of the client may register while remove_dev runs: refused. */
static void ism_dmb_register_closed_on_detach(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct ism_dev *d0 = td_new(test, &fake_ops_min);
	struct ism_dev *d1 = td_new(test, &fake_ops_min);

	a->dmb_on_remove = true;
	td_unregister(test, d0);
	KUNIT_EXPECT_EQ(test, a->remove_dmb_ret, -ENODEV);
	KUNIT_EXPECT_EQ(test, to_fake(d0)->calls[OP_REGISTER_DMB], 0);
	KUNIT_EXPECT_EQ(test, fake_used(d0), 0);

	/* Also when the client goes; attached again, it may register. */
	a->remove_dmb_ret = 0;
	tc_unregister(a);
	KUNIT_EXPECT_EQ(test, a->remove_dmb_ret, -ENODEV);
	KUNIT_EXPECT_EQ(test, fake_used(d1), 0);
	a->dmb_on_remove = false;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, d1, 0, 64), 0);
	KUNIT_EXPECT_EQ(test, fake_used(d1), 1);
}

static struct kunit_case ism_dmb_cases[] = {
	KUNIT_CASE(ism_dmb_register_unregister),
	KUNIT_CASE(ism_dmb_register_bad_args),
	KUNIT_CASE(ism_dmb_register_driver_error),
	KUNIT_CASE(ism_dmb_register_idx_out_of_range),
	KUNIT_CASE(ism_dmb_register_idx_in_use),
	KUNIT_CASE(ism_dmb_unregister_bad_args),
	KUNIT_CASE(ism_dmb_dev_unregister_releases),
	KUNIT_CASE(ism_dmb_dev_unregister_client_frees_own),
	KUNIT_CASE(ism_dmb_client_unregister_releases),
	KUNIT_CASE(ism_dmb_client_unregister_frees_own),
	KUNIT_CASE(ism_dmb_register_closed_on_detach),
	{}
};

static struct kunit_suite ism_dmb_suite = {
	.name = "ism_core_dmb",
	.init = ism_test_init,
	.exit = ism_test_exit,
	.test_cases = ism_dmb_cases,
};

kunit_test_suites(&ism_dmb_suite);
