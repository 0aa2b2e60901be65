// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture of the ISM core's KUnit suites (see core_kunit.h): the test
 * clients and the context of a case. The fake device is in fake_dev.c.
 */
#include <linux/device.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "core_kunit.h"

/* ------------------------- test context ------------------------- */

/* Index of @dev in the test's devices; -1 for a device of someone else. */
static int test_dev_index(struct test_ctx *ctx, struct ism_dev *dev)
{
	unsigned int i;

	for (i = 0; i < ctx->ndevs; i++)
		if (ctx->devs[i] == dev)
			return i;
	return -1;
}

int tc_dmb_register(struct test_client *tc, struct ism_dev *dev,
		    unsigned int n, u32 len)
{
	struct test_dmb *td = &tc->dmbs[n];
	int ret;

	memset(&td->dmb, 0, sizeof(td->dmb));
	td->dmb.len = len;
	uuid_gen(&td->dmb.rgid);
	ret = ism_register_dmb(dev, &td->dmb, &tc->client);
	if (!ret) {
		td->dev = dev;
		td->live = true;
	}
	return ret;
}

int tc_dmb_unregister(struct test_client *tc, unsigned int n)
{
	struct test_dmb *td = &tc->dmbs[n];

	td->live = false;
	return ism_unregister_dmb(td->dev, &td->dmb, &tc->client);
}

void tc_route(struct ism_dev *dev, unsigned int idx, u16 mask,
	      const struct ism_event *event)
{
	unsigned long flags;

	/* The core's routing must work with interrupts off. */
	local_irq_save(flags);
	if (event)
		ism_handle_event(dev, event);
	else
		ism_handle_irq(dev, idx, mask);
	local_irq_restore(flags);
}

/* Client callbacks get no client pointer, so every test client has its own
 * trampolines that pass its index. test_cur is the running case's context:
 * KUnit runs the cases of a module one at a time.
 */
static struct test_ctx *test_cur;

static const struct ism_event tc_cb_event = { .type = ISM_EVT_SWR };

static int tc_add_dev(unsigned int n, struct ism_dev *dev)
{
	struct test_ctx *ctx = test_cur;
	struct test_client *tc;
	int d;

	d = ctx ? test_dev_index(ctx, dev) : -1;
	if (d < 0)
		return 0;
	tc = &ctx->clients[n];
	tc->add_calls[d]++;
	tc->priv_at_add[d] = ism_get_priv(dev, &tc->client);
	if (tc->dmb_on_add)
		tc->add_dmb_ret = tc_dmb_register(tc, dev, 0, 64);
	if (tc->route_in_cb) {
		tc_route(dev, 0, 0, &tc_cb_event);
		if (tc->dmb_on_add && !tc->add_dmb_ret)
			tc_route(dev, tc->dmbs[0].dmb.idx, 1, NULL);
	}
	return tc->add_err;
}

static void tc_start_dev(unsigned int n, struct ism_dev *dev)
{
	struct test_ctx *ctx = test_cur;
	struct test_client *tc;
	int d;

	d = ctx ? test_dev_index(ctx, dev) : -1;
	if (d < 0)
		return;
	tc = &ctx->clients[n];
	tc->start_calls[d]++;
	if (tc->route_on_start && tc->dmb_on_add && !tc->add_dmb_ret)
		tc_route(dev, tc->dmbs[0].dmb.idx, 1, NULL);
}

static void tc_remove_dev(unsigned int n, struct ism_dev *dev)
{
	struct test_ctx *ctx = test_cur;
	struct test_client *tc;
	struct test_dmb *td;
	unsigned int i;
	int d, ret;

	d = ctx ? test_dev_index(ctx, dev) : -1;
	if (d < 0)
		return;
	tc = &ctx->clients[n];
	tc->remove_calls[d]++;
	if (tc->remove_calls[d] > tc->start_calls[d])
		tc->remove_unstarted++;
	complete(&tc->remove_entered);
	if (tc->remove_blocks)
		wait_for_completion(&tc->remove_release);
	for (i = 0; i < TEST_MAX_CDMBS; i++) {
		td = &tc->dmbs[i];
		if (!td->live || td->dev != dev)
			continue;
		if (tc->route_in_cb)
			tc_route(dev, td->dmb.idx, 1, NULL);
		if (!tc->free_on_remove)
			continue;
		ret = tc_dmb_unregister(tc, i);
		if (ret && !tc->remove_err)
			tc->remove_err = ret;
	}
	if (tc->route_in_cb)
		tc_route(dev, 0, 0, &tc_cb_event);
	if (tc->dmb_on_remove)
		tc->remove_dmb_ret = tc_dmb_register(tc, dev,
						     TEST_MAX_CDMBS - 1, 64);
}

static void tc_handle_irq(unsigned int n, struct ism_dev *dev,
			  unsigned int idx, u16 mask)
{
	struct test_ctx *ctx = test_cur;
	struct test_client *tc;

	if (!ctx || test_dev_index(ctx, dev) < 0)
		return;
	tc = &ctx->clients[n];
	tc->irq_calls++;
	tc->irq_dev = dev;
	tc->irq_idx = idx;
	tc->irq_mask = mask;
}

static void tc_handle_event(unsigned int n, struct ism_dev *dev,
			    const struct ism_event *event)
{
	struct test_ctx *ctx = test_cur;
	struct test_client *tc;

	if (!ctx || test_dev_index(ctx, dev) < 0)
		return;
	tc = &ctx->clients[n];
	tc->event_calls++;
	tc->event_dev = dev;
	tc->event = event;
	tc->event_copy = *event;
}

#define DEFINE_TC_CALLBACKS(n)						\
static const unsigned int tc##n##_idx = n;				\
static int tc##n##_add_dev(struct ism_dev *dev)			\
{									\
	return tc_add_dev(tc##n##_idx, dev);				\
}									\
static void tc##n##_start_dev(struct ism_dev *dev)			\
{									\
	tc_start_dev(tc##n##_idx, dev);					\
}									\
static void tc##n##_remove_dev(struct ism_dev *dev)			\
{									\
	tc_remove_dev(tc##n##_idx, dev);				\
}									\
static void tc##n##_handle_irq(struct ism_dev *dev, unsigned int idx,	\
			       u16 mask)				\
{									\
	tc_handle_irq(tc##n##_idx, dev, idx, mask);			\
}									\
static void tc##n##_handle_event(struct ism_dev *dev,			\
				 const struct ism_event *event)		\
{									\
	tc_handle_event(tc##n##_idx, dev, event);			\
}

DEFINE_TC_CALLBACKS(0)
DEFINE_TC_CALLBACKS(1)
DEFINE_TC_CALLBACKS(2)
DEFINE_TC_CALLBACKS(3)
DEFINE_TC_CALLBACKS(4)
DEFINE_TC_CALLBACKS(5)
DEFINE_TC_CALLBACKS(6)
DEFINE_TC_CALLBACKS(7)
DEFINE_TC_CALLBACKS(8)
DEFINE_TC_CALLBACKS(9)

#define TC_TEMPLATE(n) {						\
	.add_dev = tc##n##_add_dev,					\
	.start_dev = tc##n##_start_dev,					\
	.remove_dev = tc##n##_remove_dev,				\
	.handle_irq = tc##n##_handle_irq,				\
	.handle_event = tc##n##_handle_event,				\
}

const struct ism_client tc_templates[] = {
	TC_TEMPLATE(0), TC_TEMPLATE(1), TC_TEMPLATE(2), TC_TEMPLATE(3),
	TC_TEMPLATE(4), TC_TEMPLATE(5), TC_TEMPLATE(6), TC_TEMPLATE(7),
	TC_TEMPLATE(8), TC_TEMPLATE(9),
};

static_assert(ARRAY_SIZE(tc_templates) == TEST_MAX_CLIENTS);

int ism_test_init(struct kunit *test)
{
	struct test_client *tc;
	struct test_ctx *ctx;
	unsigned int i;

	ctx = kunit_kzalloc(test, sizeof(*ctx), GFP_KERNEL);
	if (!ctx)
		return -ENOMEM;
	ctx->test = test;
	for (i = 0; i < TEST_MAX_CLIENTS; i++) {
		tc = &ctx->clients[i];
		tc->client = tc_templates[i];
		snprintf(tc->name, sizeof(tc->name), "ismtest%u", i);
		tc->client.name = tc->name;
		tc->ctx = ctx;
		tc->free_on_remove = true;
		init_completion(&tc->remove_entered);
		init_completion(&tc->remove_release);
	}
	test->priv = ctx;
	test_cur = ctx;
	return 0;
}

/* Runs also after a failed assertion: nothing the case made is left. */
void ism_test_exit(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	unsigned int i;

	if (!ctx)
		return;
	/* A case that failed half-way may have left a remove_dev waiting. */
	for (i = 0; i < TEST_MAX_CLIENTS; i++)
		complete_all(&ctx->clients[i].remove_release);
	for (i = 0; i < TEST_MAX_CLIENTS; i++) {
		if (ctx->clients[i].registered)
			ism_unregister_client(&ctx->clients[i].client);
		ctx->clients[i].registered = false;
	}
	for (i = 0; i < ctx->ndevs; i++) {
		if (ctx->dev_registered[i])
			ism_dev_unregister(ctx->devs[i]);
		ctx->dev_registered[i] = false;
		put_device(&ctx->devs[i]->dev);
	}
	ctx->ndevs = 0;
	test_cur = NULL;
}

struct test_client *tc_get(struct kunit *test, unsigned int n)
{
	struct test_ctx *ctx = test->priv;

	return &ctx->clients[n];
}

int tc_register(struct test_client *tc)
{
	int ret = ism_register_client(&tc->client);

	if (!ret)
		tc->registered = true;
	return ret;
}

void tc_unregister(struct test_client *tc)
{
	ism_unregister_client(&tc->client);
	tc->registered = false;
}

/* A registered client: the case cannot go on without it. */
struct test_client *tc_new(struct kunit *test, unsigned int n)
{
	struct test_client *tc = tc_get(test, n);

	KUNIT_ASSERT_EQ(test, tc_register(tc), 0);
	return tc;
}

/* A fake device without a name; ism_test_exit() puts it. */
struct ism_dev *td_alloc_unnamed(struct kunit *test,
				 const struct ism_device_ops *ops)
{
	struct test_ctx *ctx = test->priv;
	struct ism_dev *dev;

	KUNIT_ASSERT_LT(test, ctx->ndevs, TEST_MAX_DEVS);
	dev = fake_dev_alloc(ops);
	KUNIT_ASSERT_NOT_NULL(test, dev);
	ctx->devs[ctx->ndevs++] = dev;
	return dev;
}

struct ism_dev *td_alloc(struct kunit *test,
			 const struct ism_device_ops *ops)
{
	struct ism_dev *dev = td_alloc_unnamed(test, ops);

	KUNIT_ASSERT_EQ(test, dev_set_name(&dev->dev, "ismfake%d",
					   atomic_inc_return(&fake_seq)), 0);
	return dev;
}

int td_register(struct kunit *test, struct ism_dev *dev)
{
	struct test_ctx *ctx = test->priv;
	int d = test_dev_index(ctx, dev);
	int ret = ism_dev_register(dev);

	if (!ret)
		ctx->dev_registered[d] = true;
	return ret;
}

void td_unregister(struct kunit *test, struct ism_dev *dev)
{
	struct test_ctx *ctx = test->priv;

	ism_dev_unregister(dev);
	ctx->dev_registered[test_dev_index(ctx, dev)] = false;
}

/* A registered fake device: the case cannot go on without it. */
struct ism_dev *td_new(struct kunit *test,
		       const struct ism_device_ops *ops)
{
	struct ism_dev *dev = td_alloc(test, ops);

	KUNIT_ASSERT_EQ(test, td_register(test, dev), 0);
	return dev;
}

void expect_add_remove(struct kunit *test, struct test_client *tc,
		       int d, unsigned int nadd, unsigned int nremove,
			      int line)
{
	KUNIT_EXPECT_EQ_MSG(test, tc->add_calls[d], nadd,
			    "add_dev of %s for device %d, line %d",
			    tc->name, d, line);
	KUNIT_EXPECT_EQ_MSG(test, tc->remove_calls[d], nremove,
			    "remove_dev of %s for device %d, line %d",
			    tc->name, d, line);
}

MODULE_DESCRIPTION("KUnit tests of the ISM core and its netlink family");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_IMPORT_NS(ISM);
