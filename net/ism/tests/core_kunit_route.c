// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_core_route: the ISM core's routing of interrupts and events to
 * clients, on the fake device of fake_dev.h.
 */
#include <linux/module.h>
#include <linux/uuid.h>

#include "core_kunit.h"

static void ism_route_irq_to_owner(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	u32 ia, ib;

	KUNIT_ASSERT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_ASSERT_EQ(test, tc_dmb_register(b, dev, 0, 64), 0);
	ia = a->dmbs[0].dmb.idx;
	ib = b->dmbs[0].dmb.idx;
	KUNIT_ASSERT_NE(test, ia, ib);

	tc_route(dev, ia, 0x8001, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, a->irq_dev, dev);
	KUNIT_EXPECT_EQ(test, a->irq_idx, ia);
	KUNIT_EXPECT_EQ(test, a->irq_mask, 0x8001);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 0);

	tc_route(dev, ib, 0x0002, NULL);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, b->irq_dev, dev);
	KUNIT_EXPECT_EQ(test, b->irq_idx, ib);
	KUNIT_EXPECT_EQ(test, b->irq_mask, 0x0002);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);

	KUNIT_EXPECT_EQ(test, a->event_calls, 0);
	KUNIT_EXPECT_EQ(test, b->event_calls, 0);
}

static void ism_route_irq_no_dmb(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	u32 ia;

	KUNIT_ASSERT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	ia = a->dmbs[0].dmb.idx;

	tc_route(dev, ia + 1, 1, NULL);
	tc_route(dev, FAKE_MAX_DMBS, 1, NULL);
	tc_route(dev, UINT_MAX, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 0);

	/* The one index with a DMB does reach its owner. */
	tc_route(dev, ia, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 0);
}

static void ism_route_irq_unregistered_dmb(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct test_client *c = tc_new(test, 2);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	u32 ia, ib;

	KUNIT_ASSERT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_ASSERT_EQ(test, tc_dmb_register(b, dev, 0, 64), 0);
	ia = a->dmbs[0].dmb.idx;
	ib = b->dmbs[0].dmb.idx;

	/* Unregistered by its owner. */
	KUNIT_EXPECT_EQ(test, tc_dmb_unregister(a, 0), 0);
	tc_route(dev, ia, 1, NULL);

	/* Released by the core with its owner. */
	b->free_on_remove = false;
	tc_unregister(b);
	tc_route(dev, ib, 1, NULL);

	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 0);
	KUNIT_EXPECT_EQ(test, c->irq_calls, 0);
}

static void ism_route_irq_no_handler(struct kunit *test)
{
	struct test_client *a = tc_get(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);

	a->client.handle_irq = NULL;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	KUNIT_ASSERT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
	KUNIT_ASSERT_EQ(test, tc_dmb_register(b, dev, 0, 64), 0);

	tc_route(dev, a->dmbs[0].dmb.idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 0);
	tc_route(dev, b->dmbs[0].dmb.idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, b->irq_idx, b->dmbs[0].dmb.idx);
}

static void ism_route_event_to_all(struct kunit *test)
{
	struct test_client *a = tc_get(test, 0);
	struct test_client *silent = tc_get(test, 1);
	struct test_client *b = tc_get(test, 2);
	struct test_client *gone = tc_get(test, 3);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct ism_event ev = {
		.type = ISM_EVT_DMB,
		.code = 3,
		.token = FAKE_TOKEN_BASE + 77,
		.time = 123456789,
		.info = 0xfeedULL,
	};

	uuid_gen(&ev.gid);
	silent->client.handle_event = NULL;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	KUNIT_ASSERT_EQ(test, tc_register(silent), 0);
	KUNIT_ASSERT_EQ(test, tc_register(b), 0);
	KUNIT_ASSERT_EQ(test, tc_register(gone), 0);
	tc_unregister(gone);

	tc_route(dev, 0, 0, &ev);
	KUNIT_EXPECT_EQ(test, a->event_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, a->event_dev, dev);
	KUNIT_EXPECT_PTR_EQ(test, a->event, (const struct ism_event *)&ev);
	KUNIT_EXPECT_EQ(test, memcmp(&a->event_copy, &ev, sizeof(ev)), 0);
	KUNIT_EXPECT_EQ(test, b->event_calls, 1);
	KUNIT_EXPECT_PTR_EQ(test, b->event_dev, dev);
	KUNIT_EXPECT_PTR_EQ(test, b->event, (const struct ism_event *)&ev);
	KUNIT_EXPECT_EQ(test, memcmp(&b->event_copy, &ev, sizeof(ev)), 0);
	KUNIT_EXPECT_EQ(test, silent->event_calls, 0);
	KUNIT_EXPECT_EQ(test, gone->event_calls, 0);
	KUNIT_EXPECT_EQ(test, a->irq_calls + b->irq_calls, 0);
}

/* Handlers run only between the end of add_dev and the start of remove_dev. */
static void ism_route_callback_window(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct test_client *a = tc_get(test, 0);
	struct test_client *b = tc_new(test, 1);

	/* a reports an event and an irq of its DMB from add_dev. */
	a->dmb_on_add = true;
	a->route_in_cb = true;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	KUNIT_EXPECT_EQ(test, a->add_dmb_ret, 0);
	KUNIT_EXPECT_EQ(test, a->event_calls, 0);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);
	KUNIT_EXPECT_EQ(test, b->event_calls, 1);

	tc_route(dev, a->dmbs[0].dmb.idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);

	/* And again from remove_dev, before freeing the DMB. */
	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, a->event_calls, 0);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, b->event_calls, 2);
	KUNIT_EXPECT_EQ(test, a->remove_err, 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
}

static struct kunit_case ism_route_cases[] = {
	KUNIT_CASE(ism_route_irq_to_owner),
	KUNIT_CASE(ism_route_irq_no_dmb),
	KUNIT_CASE(ism_route_irq_unregistered_dmb),
	KUNIT_CASE(ism_route_irq_no_handler),
	KUNIT_CASE(ism_route_event_to_all),
	KUNIT_CASE(ism_route_callback_window),
	{}
};

static struct kunit_suite ism_route_suite = {
	.name = "ism_core_route",
	.init = ism_test_init,
	.exit = ism_test_exit,
	.test_cases = ism_route_cases,
};

kunit_test_suites(&ism_route_suite);
