// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_core_registry: the device and client registries of the ISM
 * core, through its public API, on the fake device of fake_dev.h.
 *
 * The slot exhaustion test expects no other ISM client to be registered.
 */
#include <linux/module.h>
#include <linux/uuid.h>

#include "core_kunit.h"

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

kunit_test_suites(&ism_registry_suite);
