// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ISM core (ism_core.ko) through its public API: the
 * device and client registries, DMB registration and ownership, and the
 * routing of interrupts and events to clients. The device is a fake defined
 * here, with a small DMB table, that counts which of its ops were called and
 * records their arguments.
 *
 * The slot exhaustion test expects no other ISM client to be registered.
 */
#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/device.h>
#include <linux/irqflags.h>
#include <linux/ism.h>
#include <linux/module.h>
#include <linux/string.h>
#include <linux/uuid.h>

#define FAKE_MAX_DMBS		16
#define FAKE_MAX_DMB_LEN	4096
#define FAKE_CHID		0xFF42
#define FAKE_TOKEN_BASE		0x15a0000000000000ULL
#define FAKE_DMA_BASE		0x100000
#define FAKE_ATTACH_LEN		333
#define FAKE_ERR		(-ENOLINK)	/* a value no core path returns */

#define TEST_MAX_DEVS		10
#define TEST_MAX_CLIENTS	(ISM_MAX_CLIENTS + 2)
#define TEST_MAX_CDMBS		4

enum fake_op {
	OP_QUERY_REMOTE_GID,
	OP_REGISTER_DMB,
	OP_UNREGISTER_DMB,
	OP_MOVE_DATA,
	OP_MAX_DMBS,
	OP_GET_CHID,
	OP_SIGNAL_EVENT,
	OP_ADD_VLAN_ID,
	OP_DEL_VLAN_ID,
	OP_ATTACH_DMB,
	OP_DETACH_DMB,
	OP_NR,
};

struct fake_slot {
	bool used;
	u64 token;
	u32 idx;
	u32 len;
};

/* Arguments of the last call of each op. */
struct fake_args {
	const uuid_t *rgid;
	u32 vid_valid;
	u32 vid;
	u32 trigger_irq;
	u32 event_code;
	u64 info;
	u64 vlan_id;
	u64 token;
	unsigned int idx;
	bool sf;
	unsigned int offset;
	const void *data;
	unsigned int size;
	struct ism_dmb *dmb;
};

/* The fake device's state, in the driver's private area of the ism_dev. */
struct fake_dev {
	unsigned int calls[OP_NR];
	struct fake_slot slots[FAKE_MAX_DMBS];
	u64 tokens;		/* tokens handed out so far */
	u32 max_dmbs;		/* returned by max_dmbs */
	int register_err;	/* register_dmb fails with it if set */
	bool force_idx;		/* register_dmb reports forced_idx */
	u32 forced_idx;
	unsigned int unreg_unknown;	/* unregister_dmb of no DMB */
	int ret;		/* returned by the other ops */
	struct fake_args last;
};

static struct fake_dev *to_fake(struct ism_dev *dev)
{
	return ism_dev_priv(dev);
}

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
	dmb->dma_addr = FAKE_DMA_BASE + i * PAGE_SIZE;
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

static u32 fake_max_dmbs(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);

	fake->calls[OP_MAX_DMBS]++;
	return fake->max_dmbs;
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
static const struct ism_device_ops fake_ops_min = {
	.query_remote_gid = fake_query_remote_gid,
	.register_dmb = fake_register_dmb,
	.unregister_dmb = fake_unregister_dmb,
	.move_data = fake_move_data,
	.max_dmbs = fake_max_dmbs,
	.get_chid = fake_get_chid,
};

static const struct ism_device_ops fake_ops_full = {
	.query_remote_gid = fake_query_remote_gid,
	.register_dmb = fake_register_dmb,
	.unregister_dmb = fake_unregister_dmb,
	.move_data = fake_move_data,
	.max_dmbs = fake_max_dmbs,
	.get_chid = fake_get_chid,
	.signal_event = fake_signal_event,
	.add_vlan_id = fake_add_vlan_id,
	.del_vlan_id = fake_del_vlan_id,
	.attach_dmb = fake_attach_dmb,
	.detach_dmb = fake_detach_dmb,
};

static unsigned int fake_used(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i, n = 0;

	for (i = 0; i < FAKE_MAX_DMBS; i++)
		n += fake->slots[i].used;
	return n;
}

static unsigned int fake_total_calls(struct ism_dev *dev)
{
	struct fake_dev *fake = to_fake(dev);
	unsigned int i, n = 0;

	for (i = 0; i < OP_NR; i++)
		n += fake->calls[i];
	return n;
}

/* ------------------------- test context ------------------------- */

struct test_ctx;

struct test_dmb {
	struct ism_dmb dmb;
	struct ism_dev *dev;
	bool live;
};

/* A client that counts its callbacks, per device of the test. */
struct test_client {
	struct ism_client client;
	struct test_ctx *ctx;
	char name[16];
	bool registered;
	bool free_on_remove;	/* remove_dev unregisters the client's DMBs */
	bool dmb_on_add;	/* add_dev registers DMB 0 */
	bool route_in_cb;	/* add_dev, remove_dev report irq and event */
	bool dmb_on_remove;	/* remove_dev tries to register a DMB */
	int add_dmb_ret;
	int remove_dmb_ret;
	int remove_err;		/* first error of unregistering in remove_dev */
	unsigned int add_calls[TEST_MAX_DEVS];
	unsigned int remove_calls[TEST_MAX_DEVS];
	void *priv_at_add[TEST_MAX_DEVS];
	unsigned int irq_calls;
	struct ism_dev *irq_dev;
	unsigned int irq_idx;
	u16 irq_mask;
	unsigned int event_calls;
	struct ism_dev *event_dev;
	const struct ism_event *event;
	struct ism_event event_copy;
	struct test_dmb dmbs[TEST_MAX_CDMBS];
};

struct test_ctx {
	struct kunit *test;
	struct ism_dev *devs[TEST_MAX_DEVS];
	bool dev_registered[TEST_MAX_DEVS];
	unsigned int ndevs;
	struct test_client clients[TEST_MAX_CLIENTS];
};

static atomic_t fake_seq = ATOMIC_INIT(0);

/* Index of @dev in the test's devices; -1 for a device of someone else. */
static int test_dev_index(struct test_ctx *ctx, struct ism_dev *dev)
{
	unsigned int i;

	for (i = 0; i < ctx->ndevs; i++)
		if (ctx->devs[i] == dev)
			return i;
	return -1;
}

static int tc_dmb_register(struct test_client *tc, struct ism_dev *dev,
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

static int tc_dmb_unregister(struct test_client *tc, unsigned int n)
{
	struct test_dmb *td = &tc->dmbs[n];

	td->live = false;
	return ism_unregister_dmb(td->dev, &td->dmb);
}

static void tc_route(struct ism_dev *dev, unsigned int idx, u16 mask,
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

static void tc_add_dev(unsigned int n, struct ism_dev *dev)
{
	struct test_ctx *ctx = test_cur;
	struct test_client *tc;
	int d;

	d = ctx ? test_dev_index(ctx, dev) : -1;
	if (d < 0)
		return;
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
static void tc##n##_add_dev(struct ism_dev *dev)			\
{									\
	tc_add_dev(tc##n##_idx, dev);					\
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

static const struct ism_client tc_templates[] = {
	TC_TEMPLATE(0), TC_TEMPLATE(1), TC_TEMPLATE(2), TC_TEMPLATE(3),
	TC_TEMPLATE(4), TC_TEMPLATE(5), TC_TEMPLATE(6), TC_TEMPLATE(7),
	TC_TEMPLATE(8), TC_TEMPLATE(9),
};

static_assert(ARRAY_SIZE(tc_templates) == TEST_MAX_CLIENTS);

static int ism_test_init(struct kunit *test)
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
	}
	test->priv = ctx;
	test_cur = ctx;
	return 0;
}

/* Runs also after a failed assertion: nothing the case made is left. */
static void ism_test_exit(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	unsigned int i;

	if (!ctx)
		return;
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

static struct test_client *tc_get(struct kunit *test, unsigned int n)
{
	struct test_ctx *ctx = test->priv;

	return &ctx->clients[n];
}

static int tc_register(struct test_client *tc)
{
	int ret = ism_register_client(&tc->client);

	if (!ret)
		tc->registered = true;
	return ret;
}

static void tc_unregister(struct test_client *tc)
{
	ism_unregister_client(&tc->client);
	tc->registered = false;
}

/* A registered client: the case cannot go on without it. */
static struct test_client *tc_new(struct kunit *test, unsigned int n)
{
	struct test_client *tc = tc_get(test, n);

	KUNIT_ASSERT_EQ(test, tc_register(tc), 0);
	return tc;
}

/* A fake device without a name; ism_test_exit() puts it. */
static struct ism_dev *td_alloc_unnamed(struct kunit *test,
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
	fake->max_dmbs = FAKE_MAX_DMBS;
	dev->max_dmb_len = FAKE_MAX_DMB_LEN;
	uuid_gen(&dev->gid);
	return dev;
}

static struct ism_dev *td_alloc(struct kunit *test,
				const struct ism_device_ops *ops)
{
	struct ism_dev *dev = td_alloc_unnamed(test, ops);

	KUNIT_ASSERT_EQ(test, dev_set_name(&dev->dev, "ismfake%d",
					   atomic_inc_return(&fake_seq)), 0);
	return dev;
}

static int td_register(struct kunit *test, struct ism_dev *dev)
{
	struct test_ctx *ctx = test->priv;
	int d = test_dev_index(ctx, dev);
	int ret = ism_dev_register(dev);

	if (!ret)
		ctx->dev_registered[d] = true;
	return ret;
}

static void td_unregister(struct kunit *test, struct ism_dev *dev)
{
	struct test_ctx *ctx = test->priv;

	ism_dev_unregister(dev);
	ctx->dev_registered[test_dev_index(ctx, dev)] = false;
}

/* A registered fake device: the case cannot go on without it. */
static struct ism_dev *td_new(struct kunit *test,
			      const struct ism_device_ops *ops)
{
	struct ism_dev *dev = td_alloc(test, ops);

	KUNIT_ASSERT_EQ(test, td_register(test, dev), 0);
	return dev;
}

static void expect_add_remove(struct kunit *test, struct test_client *tc,
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

/* Expects @nadd add_dev and @nremove remove_dev calls of @tc for device @d. */
#define EXPECT_ADD_REMOVE(test, tc, d, nadd, nremove) \
	expect_add_remove(test, tc, d, nadd, nremove, __LINE__)

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
	"max_dmbs", "get_chid", "detach_dmb (attach_dmb alone)",
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
		ops->max_dmbs = NULL;
		break;
	case 5:
		ops->get_chid = NULL;
		break;
	case 6:
		ops->detach_dmb = NULL;
		break;
	case 7:
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
	to_fake(dev)->max_dmbs = 0;
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

/* ----------------------------- routing ----------------------------- */

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

/* ----------------------------- helpers ----------------------------- */

static void ism_helpers_optional_ops_absent(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct ism_dmb dmb = { .token = FAKE_TOKEN_BASE + 1 };
	unsigned int before = fake_total_calls(dev);
	uuid_t rgid;

	uuid_gen(&rgid);
	KUNIT_EXPECT_EQ(test, ism_signal_event(dev, &rgid, 1, 2, 3),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, &dmb), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, dmb.token), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(dev, 5), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(dev, 5), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, fake_total_calls(dev), before);
}

static void ism_helpers_optional_ops_present(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_full);
	struct fake_dev *fake = to_fake(dev);
	struct ism_dmb dmb = { .token = FAKE_TOKEN_BASE + 9 };
	uuid_t rgid;

	uuid_gen(&rgid);
	KUNIT_EXPECT_EQ(test, ism_signal_event(dev, &rgid, 1, 0xabc,
					       0x1122334455667788ULL), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SIGNAL_EVENT], 1);
	KUNIT_EXPECT_PTR_EQ(test, fake->last.rgid, (const uuid_t *)&rgid);
	KUNIT_EXPECT_EQ(test, fake->last.trigger_irq, 1);
	KUNIT_EXPECT_EQ(test, fake->last.event_code, 0xabc);
	KUNIT_EXPECT_EQ(test, fake->last.info, 0x1122334455667788ULL);

	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, &dmb), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 1);
	KUNIT_EXPECT_PTR_EQ(test, fake->last.dmb, &dmb);
	KUNIT_EXPECT_EQ(test, dmb.len, FAKE_ATTACH_LEN);
	KUNIT_EXPECT_PTR_EQ(test, dmb.cpu_addr, (void *)fake);

	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, dmb.token), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1);
	KUNIT_EXPECT_EQ(test, fake->last.token, FAKE_TOKEN_BASE + 9);

	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(dev, 0x123), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ADD_VLAN_ID], 1);
	KUNIT_EXPECT_EQ(test, fake->last.vlan_id, 0x123);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(dev, 0x456), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DEL_VLAN_ID], 1);
	KUNIT_EXPECT_EQ(test, fake->last.vlan_id, 0x456);

	/* The device's errors come back unchanged. */
	fake->ret = FAKE_ERR;
	KUNIT_EXPECT_EQ(test, ism_signal_event(dev, &rgid, 0, 1, 2), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, &dmb), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, dmb.token), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(dev, 1), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(dev, 1), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SIGNAL_EVENT], 2);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 2);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 2);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ADD_VLAN_ID], 2);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DEL_VLAN_ID], 2);
}

static void ism_helpers_query_remote_gid(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	uuid_t rgid;

	uuid_gen(&rgid);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(dev, &rgid, 1, 0x1FFF), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_QUERY_REMOTE_GID], 1);
	KUNIT_EXPECT_PTR_EQ(test, fake->last.rgid, (const uuid_t *)&rgid);
	KUNIT_EXPECT_EQ(test, fake->last.vid_valid, 1);
	KUNIT_EXPECT_EQ(test, fake->last.vid, 0x1FFF);

	fake->ret = FAKE_ERR;
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(dev, &rgid, 0, 7), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_QUERY_REMOTE_GID], 2);
	KUNIT_EXPECT_EQ(test, fake->last.vid_valid, 0);
	KUNIT_EXPECT_EQ(test, fake->last.vid, 7);
}

static void ism_helpers_null_args(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_full);
	struct ism_dmb dmb = { .token = FAKE_TOKEN_BASE + 1 };
	unsigned int before = fake_total_calls(dev);
	uuid_t rgid;

	uuid_gen(&rgid);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(dev, NULL, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(NULL, &rgid, 0, 0),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_signal_event(dev, NULL, 1, 2, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_signal_event(NULL, &rgid, 1, 2, 3), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(NULL, &dmb), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(NULL, dmb.token), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake_total_calls(dev), before);
}

static void ism_helpers_dev_info(struct kunit *test)
{
	struct ism_dev *dev = td_alloc_unnamed(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	char name[32];
	uuid_t want, gid;

	snprintf(name, sizeof(name), "ismfake%d", atomic_inc_return(&fake_seq));
	KUNIT_ASSERT_EQ(test, dev_set_name(&dev->dev, "%s", name), 0);
	fake->max_dmbs = 1920;
	uuid_gen(&want);
	uuid_copy(&dev->gid, &want);
	KUNIT_ASSERT_EQ(test, td_register(test, dev), 0);

	memset(&gid, 0, sizeof(gid));
	ism_get_local_gid(dev, &gid);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&gid, &want));
	KUNIT_EXPECT_EQ(test, ism_get_chid(dev), FAKE_CHID);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_GET_CHID], 1);
	KUNIT_EXPECT_EQ(test, ism_get_max_dmbs(dev), 1920);
	KUNIT_EXPECT_STREQ(test, ism_dev_name(dev), name);
}

static void ism_helpers_priv(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *d0 = td_new(test, &fake_ops_min);
	struct ism_dev *d1 = td_new(test, &fake_ops_min);
	int tag[4];

	KUNIT_EXPECT_NULL(test, a->priv_at_add[0]);
	KUNIT_EXPECT_NULL(test, ism_get_priv(d0, &a->client));
	KUNIT_EXPECT_NULL(test, ism_get_priv(d1, &b->client));

	ism_set_priv(d0, &a->client, &tag[0]);
	ism_set_priv(d0, &b->client, &tag[1]);
	ism_set_priv(d1, &a->client, &tag[2]);
	ism_set_priv(d1, &b->client, &tag[3]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d0, &a->client), &tag[0]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d0, &b->client), &tag[1]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d1, &a->client), &tag[2]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d1, &b->client), &tag[3]);

	/* Detached and added again, a starts from NULL; b keeps its own. */
	tc_unregister(a);
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	EXPECT_ADD_REMOVE(test, a, 0, 2, 1);
	KUNIT_EXPECT_NULL(test, a->priv_at_add[0]);
	KUNIT_EXPECT_NULL(test, a->priv_at_add[1]);
	KUNIT_EXPECT_NULL(test, ism_get_priv(d0, &a->client));
	KUNIT_EXPECT_NULL(test, ism_get_priv(d1, &a->client));
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d0, &b->client), &tag[1]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d1, &b->client), &tag[3]);
}

static void ism_helpers_move_data(struct kunit *test)
{
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	u8 buf[8] = { 1, 2, 3, 4, 5, 6, 7, 8 };

	KUNIT_EXPECT_EQ(test, ism_move_data(dev, FAKE_TOKEN_BASE + 3, 5, true,
					    100, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_MOVE_DATA], 1);
	KUNIT_EXPECT_EQ(test, fake->last.token, FAKE_TOKEN_BASE + 3);
	KUNIT_EXPECT_EQ(test, fake->last.idx, 5);
	KUNIT_EXPECT_TRUE(test, fake->last.sf);
	KUNIT_EXPECT_EQ(test, fake->last.offset, 100);
	KUNIT_EXPECT_PTR_EQ(test, fake->last.data, (const void *)buf);
	KUNIT_EXPECT_EQ(test, fake->last.size, sizeof(buf));

	fake->ret = FAKE_ERR;
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, 42, 0, false, 7, buf + 1, 3),
			FAKE_ERR);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_MOVE_DATA], 2);
	KUNIT_EXPECT_EQ(test, fake->last.token, 42);
	KUNIT_EXPECT_EQ(test, fake->last.idx, 0);
	KUNIT_EXPECT_FALSE(test, fake->last.sf);
	KUNIT_EXPECT_EQ(test, fake->last.offset, 7);
	KUNIT_EXPECT_PTR_EQ(test, fake->last.data, (const void *)(buf + 1));
	KUNIT_EXPECT_EQ(test, fake->last.size, 3);
}

static void ism_helpers_dmb_range_ok(struct kunit *test)
{
	KUNIT_EXPECT_TRUE(test, ism_dmb_range_ok(100, 0, 100));
	KUNIT_EXPECT_TRUE(test, ism_dmb_range_ok(100, 99, 1));
	KUNIT_EXPECT_TRUE(test, ism_dmb_range_ok(100, 100, 0));
	KUNIT_EXPECT_FALSE(test, ism_dmb_range_ok(100, 1, 100));
	KUNIT_EXPECT_FALSE(test, ism_dmb_range_ok(100, 101, 0));
	KUNIT_EXPECT_FALSE(test, ism_dmb_range_ok(100, UINT_MAX, 2));
	KUNIT_EXPECT_FALSE(test, ism_dmb_range_ok(100, 2, UINT_MAX));
	KUNIT_EXPECT_FALSE(test, ism_dmb_range_ok(U32_MAX, UINT_MAX, 1));
}

static struct kunit_case ism_helpers_cases[] = {
	KUNIT_CASE(ism_helpers_optional_ops_absent),
	KUNIT_CASE(ism_helpers_optional_ops_present),
	KUNIT_CASE(ism_helpers_query_remote_gid),
	KUNIT_CASE(ism_helpers_null_args),
	KUNIT_CASE(ism_helpers_dev_info),
	KUNIT_CASE(ism_helpers_priv),
	KUNIT_CASE(ism_helpers_move_data),
	KUNIT_CASE(ism_helpers_dmb_range_ok),
	{}
};

static struct kunit_suite ism_helpers_suite = {
	.name = "ism_core_helpers",
	.init = ism_test_init,
	.exit = ism_test_exit,
	.test_cases = ism_helpers_cases,
};

kunit_test_suites(&ism_registry_suite, &ism_dmb_suite, &ism_route_suite,
		  &ism_helpers_suite);

MODULE_DESCRIPTION("KUnit tests of the ISM core");
MODULE_LICENSE("GPL");
