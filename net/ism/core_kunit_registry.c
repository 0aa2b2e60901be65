// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ISM core through its public API: the device and client
 * registries, DMB registration and ownership.
 *
 * The slot exhaustion test expects no other ISM client to be registered.
 */
#include <linux/module.h>
#include <linux/uuid.h>

#include "core_kunit.h"

/* ---------------------------- registry ---------------------------- */

static void ism_reg_client_before_dev(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *d0 = td_new(test, &fake_ops_min);
	struct ism_dev *d1 = td_new(test, &fake_ops_min);

	EXPECT_ADD_REMOVE(test, a, 0, 1, 0);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 0);

	/* A device goes first: every client loses it, once. */
	td_unregister(test, d0);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 0);

	/* Then a client: it loses the device that is left, once. */
	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 0);

	td_unregister(test, d1);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 1);
}

static void ism_reg_dev_before_client(struct kunit *test)
{
	struct ism_dev *d0 = td_new(test, &fake_ops_min);
	struct ism_dev *d1 = td_new(test, &fake_ops_min);
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);

	EXPECT_ADD_REMOVE(test, a, 0, 1, 0);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 0);

	/* A client goes first: it loses every device, once. */
	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 0);

	/* Then a device: only the client left loses it. */
	td_unregister(test, d0);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 1);

	/* Registered again, a client gets the remaining device once more. */
	KUNIT_EXPECT_EQ(test, tc_register(a), 0);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, a, 1, 2, 1);

	tc_unregister(b);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 1);
	td_unregister(test, d1);
	EXPECT_ADD_REMOVE(test, a, 1, 2, 2);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 1);
}

static void ism_reg_client_slots_exhausted(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct test_client *extra = &ctx->clients[ISM_MAX_CLIENTS];
	struct test_client *more = &ctx->clients[ISM_MAX_CLIENTS + 1];
	struct ism_event ev = { .type = ISM_EVT_GID };
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct test_client *victim;
	unsigned int i, free;
	int ret = 0;

	/* Clients of other loaded modules (ism_smcd) may hold slots. */
	for (free = 0; free < ISM_MAX_CLIENTS; free++) {
		ret = tc_register(&ctx->clients[free]);
		if (ret)
			break;
	}
	KUNIT_ASSERT_GT(test, free, 0U);
	if (free < ISM_MAX_CLIENTS)
		KUNIT_EXPECT_EQ(test, ret, -ENOSPC);
	KUNIT_EXPECT_EQ(test, tc_register(extra), -ENOSPC);
	EXPECT_ADD_REMOVE(test, extra, 0, 0, 0);

	/* Each of the full slots reaches its own client. */
	tc_route(dev, 0, 0, &ev);
	for (i = 0; i < free; i++)
		KUNIT_EXPECT_EQ_MSG(test, ctx->clients[i].event_calls, 1,
				    "client %u", i);

	/* A freed slot can be taken, once. */
	victim = &ctx->clients[free - 1];
	tc_unregister(victim);
	KUNIT_EXPECT_EQ(test, tc_register(extra), 0);
	EXPECT_ADD_REMOVE(test, extra, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, tc_register(more), -ENOSPC);
	EXPECT_ADD_REMOVE(test, more, 0, 0, 0);

	tc_route(dev, 0, 0, &ev);
	KUNIT_EXPECT_EQ(test, extra->event_calls, 1);
	KUNIT_EXPECT_EQ(test, victim->event_calls, 1);
	if (free > 1)
		KUNIT_EXPECT_EQ(test, ctx->clients[0].event_calls, 2);
	KUNIT_EXPECT_EQ(test, more->event_calls, 0);
}

static void ism_reg_client_twice(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct test_client *a = tc_new(test, 0);

	KUNIT_EXPECT_EQ(test, ism_register_client(&a->client), -EEXIST);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 0);

	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	/* The refused registration left no second one behind. */
	ism_unregister_client(&a->client);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);

	KUNIT_EXPECT_EQ(test, tc_register(a), 0);
	EXPECT_ADD_REMOVE(test, a, 0, 2, 1);
	td_unregister(test, dev);
	EXPECT_ADD_REMOVE(test, a, 0, 2, 2);
}

static void ism_reg_client_missing_callbacks(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct test_client *tc = tc_get(test, 0);

	KUNIT_EXPECT_EQ(test, ism_register_client(NULL), -EINVAL);

	tc->client.add_dev = NULL;
	KUNIT_EXPECT_EQ(test, tc_register(tc), -EINVAL);
	tc->client.add_dev = tc_templates[0].add_dev;

	tc->client.remove_dev = NULL;
	KUNIT_EXPECT_EQ(test, tc_register(tc), -EINVAL);
	tc->client.remove_dev = tc_templates[0].remove_dev;

	tc->client.name = NULL;
	KUNIT_EXPECT_EQ(test, tc_register(tc), -EINVAL);
	tc->client.name = tc->name;

	EXPECT_ADD_REMOVE(test, tc, 0, 0, 0);

	/* Complete, the same client registers. */
	KUNIT_EXPECT_EQ(test, tc_register(tc), 0);
	EXPECT_ADD_REMOVE(test, tc, 0, 1, 0);
	td_unregister(test, dev);
	EXPECT_ADD_REMOVE(test, tc, 0, 1, 1);
}

static void ism_reg_unregister_unknown_client(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct test_client *a = tc_new(test, 0);
	struct test_client *x = tc_get(test, 1);
	struct ism_event ev = { .type = ISM_EVT_SWR };

	/* Never registered, though its id names the slot of a. */
	x->client.id = a->client.id;
	ism_unregister_client(&x->client);
	x->client.id = U8_MAX;
	ism_unregister_client(&x->client);
	ism_unregister_client(NULL);

	EXPECT_ADD_REMOVE(test, a, 0, 1, 0);
	EXPECT_ADD_REMOVE(test, x, 0, 0, 0);
	tc_route(dev, 0, 0, &ev);
	KUNIT_EXPECT_EQ(test, a->event_calls, 1);
	KUNIT_EXPECT_EQ(test, x->event_calls, 0);

	/* No longer registered: the second unregister does nothing. */
	tc_unregister(a);
	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
}

static const char * const fake_ops_dropped[] = {
	"query_remote_gid", "register_dmb", "unregister_dmb", "move_data",
	"get_chid", "detach_dmb (attach_dmb alone)",
	"attach_dmb (detach_dmb alone)",
};

/* The full ops without the one fake_ops_dropped[@which] names. */
static void fake_ops_drop(struct ism_device_ops *ops, unsigned int which)
{
	*ops = fake_ops_full;
	switch (which) {
	case 0:
		ops->query_remote_gid = NULL;
		break;
	case 1:
		ops->register_dmb = NULL;
		break;
	case 2:
		ops->unregister_dmb = NULL;
		break;
	case 3:
		ops->move_data = NULL;
		break;
	case 4:
		ops->get_chid = NULL;
		break;
	case 5:
		ops->detach_dmb = NULL;
		break;
	case 6:
		ops->attach_dmb = NULL;
		break;
	}
}

static void ism_reg_dev_missing_ops(struct kunit *test)
{
	struct test_client *tc = tc_new(test, 0);
	struct ism_device_ops ops;
	struct ism_dev *dev;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(fake_ops_dropped); i++) {
		fake_ops_drop(&ops, i);
		dev = td_alloc(test, &ops);
		KUNIT_EXPECT_EQ_MSG(test, td_register(test, dev), -EINVAL,
				    "without %s", fake_ops_dropped[i]);
		KUNIT_EXPECT_EQ_MSG(test, tc->add_calls[i], 0,
				    "without %s", fake_ops_dropped[i]);
	}

	/* With all ops the same device registers: the refusals were real. */
	fake_ops_drop(&ops, ARRAY_SIZE(fake_ops_dropped));
	td_new(test, &ops);
	EXPECT_ADD_REMOVE(test, tc, i, 1, 0);
}

static void ism_reg_dev_bad_fields(struct kunit *test)
{
	struct test_client *tc = tc_new(test, 0);
	struct ism_dev *dev;

	dev = ism_dev_alloc(NULL, 0);
	KUNIT_EXPECT_NULL(test, dev);
	if (dev)
		put_device(&dev->dev);

	dev = td_alloc(test, &fake_ops_min);
	dev->max_dmb_len = 0;
	KUNIT_EXPECT_EQ(test, td_register(test, dev), -EINVAL);

	dev = td_alloc(test, &fake_ops_min);
	dev->max_dmbs = 0;
	KUNIT_EXPECT_EQ(test, td_register(test, dev), -EINVAL);

	dev = td_alloc_unnamed(test, &fake_ops_min);
	KUNIT_EXPECT_EQ(test, td_register(test, dev), -EINVAL);

	EXPECT_ADD_REMOVE(test, tc, 0, 0, 0);
	EXPECT_ADD_REMOVE(test, tc, 1, 0, 0);
	EXPECT_ADD_REMOVE(test, tc, 2, 0, 0);

	/* The same setup with good fields registers. */
	td_new(test, &fake_ops_min);
	EXPECT_ADD_REMOVE(test, tc, 3, 1, 0);
}

static void ism_reg_dmb_from_add_dev(struct kunit *test)
{
	struct test_client *a = tc_get(test, 0);
	struct test_client *b = tc_get(test, 1);
	struct ism_dev *dev;

	/* a is added by ism_dev_register(), b by ism_register_client(). */
	a->dmb_on_add = true;
	b->dmb_on_add = true;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	dev = td_new(test, &fake_ops_min);
	KUNIT_ASSERT_EQ(test, tc_register(b), 0);

	KUNIT_EXPECT_EQ(test, a->add_dmb_ret, 0);
	KUNIT_EXPECT_EQ(test, b->add_dmb_ret, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 2);

	tc_route(dev, a->dmbs[0].dmb.idx, 3, NULL);
	tc_route(dev, b->dmbs[0].dmb.idx, 5, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, a->irq_mask, 3);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, b->irq_mask, 5);

	td_unregister(test, dev);
	KUNIT_EXPECT_EQ(test, a->remove_err, 0);
	KUNIT_EXPECT_EQ(test, b->remove_err, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
	KUNIT_EXPECT_EQ(test, to_fake(dev)->calls[OP_UNREGISTER_DMB], 2);
}

static struct kunit_case ism_registry_cases[] = {
	KUNIT_CASE(ism_reg_client_before_dev),
	KUNIT_CASE(ism_reg_dev_before_client),
	KUNIT_CASE(ism_reg_client_slots_exhausted),
	KUNIT_CASE(ism_reg_client_twice),
	KUNIT_CASE(ism_reg_client_missing_callbacks),
	KUNIT_CASE(ism_reg_unregister_unknown_client),
	KUNIT_CASE(ism_reg_dev_missing_ops),
	KUNIT_CASE(ism_reg_dev_bad_fields),
	KUNIT_CASE(ism_reg_dmb_from_add_dev),
	{}
};

static struct kunit_suite ism_registry_suite = {
	.name = "ism_core_registry",
	.init = ism_test_init,
	.exit = ism_test_exit,
	.test_cases = ism_registry_cases,
};

/* ------------------------------ DMBs ------------------------------ */

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
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb), -ENOENT);
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
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(NULL, dmb), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &stale), -ENOENT);

	bad = *dmb;
	bad.idx = dmb->idx + 1;
	bad.token = FAKE_TOKEN_BASE + 1000;
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &bad), -ENOENT);
	bad = *dmb;
	bad.idx = FAKE_MAX_DMBS;
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &bad), -ENOENT);
	bad.idx = U32_MAX;
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &bad), -ENOENT);
	KUNIT_EXPECT_EQ(test, fake_total_calls(dev), before);

	/* The DMB is still registered and still a's. */
	KUNIT_EXPECT_EQ(test, fake_used(dev), 1);
	tc_route(dev, dmb->idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);

	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb), -ENOENT);
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

kunit_test_suites(&ism_registry_suite, &ism_dmb_suite);
