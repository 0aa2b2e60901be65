// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture of the ISM core's KUnit suites: see core_kunit.h.
 */
#include <linux/device.h>
#include <linux/irqflags.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "core_kunit.h"

static int fake_query_remote_gid(struct ism_dev *dev, const uuid_t *rgid,
				 u32 vid_valid, u32 vid)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_QUERY_REMOTE_GID]++;
	fake->last.rgid = rgid;
	fake->last.vid_valid = vid_valid;
	fake->last.vid = vid;
	return fake->ret;
}

static int fake_register_dmb(struct ism_dev *dev, struct ism_dmb *dmb)
{
	struct fake_dev *fake = to_fake(dev);
	struct fake_slot *slot;
	unsigned int i;

	fake->calls[OP_REGISTER_DMB]++;
	fake->last.dmb = dmb;
	if (fake->register_err)
		return fake->register_err;
	for (i = 0; i < FAKE_MAX_DMBS; i++)
		if (!fake->slots[i].used)
			break;
	if (i == FAKE_MAX_DMBS)
		return -ENOSPC;
	slot = &fake->slots[i];
	slot->used = true;
	slot->token = FAKE_TOKEN_BASE + ++fake->tokens;
	slot->idx = fake->force_idx ? fake->forced_idx : i;
	slot->len = dmb->len;
	dmb->token = slot->token;
	dmb->idx = slot->idx;
	dmb->cpu_addr = slot;
	dmb->dma_addr = fake->zero_dma ? 0 : FAKE_DMA_BASE + i * PAGE_SIZE;
	return 0;
}

/* Finds the DMB by token and idx, as the ops contract says. */
static int fake_unregister_dmb(struct ism_dev *dev, struct ism_dmb *dmb)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i;

	fake->calls[OP_UNREGISTER_DMB]++;
	fake->last.dmb = dmb;
	for (i = 0; i < FAKE_MAX_DMBS; i++) {
		struct fake_slot *slot = &fake->slots[i];

		if (slot->used && slot->token == dmb->token &&
		    slot->idx == dmb->idx) {
			slot->used = false;
			return 0;
		}
	}
	fake->unreg_unknown++;
	return -ENOENT;
}

static int fake_move_data(struct ism_dev *dev, u64 token, unsigned int idx,
			  bool sf, unsigned int offset, const void *data,
			  unsigned int size)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_MOVE_DATA]++;
	fake->last.token = token;
	fake->last.idx = idx;
	fake->last.sf = sf;
	fake->last.offset = offset;
	fake->last.data = data;
	fake->last.size = size;
	return fake->ret;
}

static u16 fake_get_chid(struct ism_dev *dev)
{
	to_fake(dev)->calls[OP_GET_CHID]++;
	return FAKE_CHID;
}

static int fake_signal_event(struct ism_dev *dev, const uuid_t *rgid,
			     u32 trigger_irq, u32 event_code, u64 info)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_SIGNAL_EVENT]++;
	fake->last.rgid = rgid;
	fake->last.trigger_irq = trigger_irq;
	fake->last.event_code = event_code;
	fake->last.info = info;
	return fake->ret;
}

static int fake_add_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_ADD_VLAN_ID]++;
	fake->last.vlan_id = vlan_id;
	return fake->ret;
}

static int fake_del_vlan_id(struct ism_dev *dev, u64 vlan_id)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_DEL_VLAN_ID]++;
	fake->last.vlan_id = vlan_id;
	return fake->ret;
}

static int fake_attach_dmb(struct ism_dev *dev, struct ism_dmb *dmb)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_ATTACH_DMB]++;
	fake->last.dmb = dmb;
	dmb->cpu_addr = fake;
	dmb->len = FAKE_ATTACH_LEN;
	return fake->ret;
}

static int fake_detach_dmb(struct ism_dev *dev, u64 token)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_DETACH_DMB]++;
	fake->last.token = token;
	return fake->ret;
}

/* Only the mandatory ops. */
const struct ism_device_ops fake_ops_min = {
	.query_remote_gid = fake_query_remote_gid,
	.register_dmb = fake_register_dmb,
	.unregister_dmb = fake_unregister_dmb,
	.move_data = fake_move_data,
	.get_chid = fake_get_chid,
};

const struct ism_device_ops fake_ops_full = {
	.query_remote_gid = fake_query_remote_gid,
	.register_dmb = fake_register_dmb,
	.unregister_dmb = fake_unregister_dmb,
	.move_data = fake_move_data,
	.get_chid = fake_get_chid,
	.signal_event = fake_signal_event,
	.add_vlan_id = fake_add_vlan_id,
	.del_vlan_id = fake_del_vlan_id,
	.attach_dmb = fake_attach_dmb,
	.detach_dmb = fake_detach_dmb,
};

unsigned int fake_used(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i, n = 0;

	for (i = 0; i < FAKE_MAX_DMBS; i++)
		n += fake->slots[i].used;
	return n;
}

unsigned int fake_total_calls(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i, n = 0;

	for (i = 0; i < OP_NR; i++)
		n += fake->calls[i];
	return n;
}

/* ------------------------- test context ------------------------- */

atomic_t fake_seq = ATOMIC_INIT(0);

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
	return ism_unregister_dmb(td->dev, &td->dmb);
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
	struct fake_dev *fake;
	struct ism_dev *dev;

	KUNIT_ASSERT_LT(test, ctx->ndevs, TEST_MAX_DEVS);
	dev = ism_dev_alloc(ops, sizeof(*fake));
	KUNIT_ASSERT_NOT_NULL(test, dev);
	ctx->devs[ctx->ndevs++] = dev;
	fake = to_fake(dev);
	dev->max_dmbs = FAKE_MAX_DMBS;
	dev->max_dmb_len = FAKE_MAX_DMB_LEN;
	uuid_gen(&dev->gid);
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

MODULE_DESCRIPTION("KUnit tests of the ISM core");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
