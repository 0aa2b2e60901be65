// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_bad_input, the bad-input table, on two fake loopback devices
 * (core_kunit.h): one KUnit case per helper or netlink command and
 * class of invalid argument. Each row must return its error code and
 * change nothing: the devices, their DMB counts and success counters, and
 * the content of a canary DMB are compared before and after. The table's
 * size is printed.
 */
#include <kunit/test.h>
#include <linux/ism.h>
#include <linux/string.h>

#include "../ism_netlink.h"
#include "core_kunit.h"

#define BI_LEN		8192
#define BI_FILL		0xa5

/**
 * struct bi_ctx - what every row starts from
 * @a: device kunit-nl0, holding @canary
 * @b: device kunit-nl1
 * @canary: a DMB on @a filled with %BI_FILL
 * @stale: a DMB registered on @a and unregistered again
 * @other: a client that is not registered
 * @buf: data to write
 */
struct bi_ctx {
	struct ism_dev *a;
	struct ism_dev *b;
	struct ism_dmb canary;
	struct ism_dmb stale;
	struct ism_client other;
	u8 buf[16];
};

/**
 * struct bi_row - one bad input
 * @name: helper or command, and the class of the argument
 * @run: makes the call, returns its result
 * @err: the error it must return
 */
struct bi_row {
	const char *name;
	int (*run)(struct kunit *test, struct bi_ctx *c);
	int err;
};

static int bi_move(struct ism_dev *dev, u64 token, unsigned int idx,
		   unsigned int off, const void *data, unsigned int size)
{
	return ism_move_data(dev, token, idx, true, off, data, size);
}

static int bi_move_unknown(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->canary.token ^ (1ULL << 40), 0, 0, c->buf, 8);
}

static int bi_move_stale(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->stale.token, 0, 0, c->buf, 8);
}

static int bi_move_wrap(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->canary.token, 0, U32_MAX - 3, c->buf, 8);
}

static int bi_move_past_end(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->canary.token, 0, BI_LEN - 7, c->buf, 8);
}

static int bi_move_offset_out(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->canary.token, 0, BI_LEN, c->buf, 1);
}

static int bi_move_oversized(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->canary.token, 0, 0, c->buf, BI_LEN + 1);
}

static int bi_move_bad_bit(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->canary.token, ISM_DMBE_BITS, 0, c->buf, 8);
}

static int bi_move_null_data(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->a, c->canary.token, 0, 0, NULL, 8);
}

static int bi_move_wrong_dev(struct kunit *t, struct bi_ctx *c)
{
	return bi_move(c->b, c->canary.token, 0, 0, c->buf, 8);
}

static int bi_register(struct bi_ctx *c, u32 len, bool reachable,
		       struct ism_client *client)
{
	struct ism_dmb dmb = { .len = len };
	int ret;

	if (reachable)
		ism_get_local_gid(c->a, &dmb.rgid);
	else
		uuid_gen(&dmb.rgid);
	ret = ism_register_dmb(c->a, &dmb, client);
	/* A wrongly accepted DMB must not leak into the next rows. */
	if (!ret)
		ism_unregister_dmb(c->a, &dmb, client);
	return ret;
}

static int bi_reg_oversized(struct kunit *t, struct bi_ctx *c)
{
	return bi_register(c, c->a->max_dmb_len + 1, true, &nl_test_client);
}

static int bi_reg_zero_len(struct kunit *t, struct bi_ctx *c)
{
	return bi_register(c, 0, true, &nl_test_client);
}

static int bi_reg_unregistered_client(struct kunit *t, struct bi_ctx *c)
{
	return bi_register(c, 4096, true, &c->other);
}

static int bi_reg_unreachable(struct kunit *t, struct bi_ctx *c)
{
	return bi_register(c, 4096, false, &nl_test_client);
}

static int bi_reg_null(struct kunit *t, struct bi_ctx *c)
{
	return ism_register_dmb(c->a, NULL, &nl_test_client);
}

static int bi_unreg_stale(struct kunit *t, struct bi_ctx *c)
{
	return ism_unregister_dmb(c->a, &c->stale, &nl_test_client);
}

static int bi_unreg_wrong_idx(struct kunit *t, struct bi_ctx *c)
{
	struct ism_dmb dmb = c->canary;

	dmb.idx ^= 1;
	return ism_unregister_dmb(c->a, &dmb, &nl_test_client);
}

static int bi_unreg_idx_out(struct kunit *t, struct bi_ctx *c)
{
	struct ism_dmb dmb = c->canary;

	dmb.idx = ism_get_max_dmbs(c->a) + 5;
	return ism_unregister_dmb(c->a, &dmb, &nl_test_client);
}

static int bi_unreg_wrong_dev(struct kunit *t, struct bi_ctx *c)
{
	return ism_unregister_dmb(c->b, &c->canary, &nl_test_client);
}

static int bi_unreg_not_owner(struct kunit *t, struct bi_ctx *c)
{
	return ism_unregister_dmb(c->a, &c->canary, &c->other);
}

static int bi_unreg_null(struct kunit *t, struct bi_ctx *c)
{
	return ism_unregister_dmb(c->a, NULL, &nl_test_client);
}

static int bi_unreg_null_client(struct kunit *t, struct bi_ctx *c)
{
	return ism_unregister_dmb(c->a, &c->canary, NULL);
}

static int bi_attach(struct bi_ctx *c, u64 token)
{
	struct ism_dmb dmb = { .token = token };
	int ret = ism_attach_dmb(c->a, &dmb, &nl_test_client);

	if (!ret)
		ism_detach_dmb(c->a, token, &nl_test_client);
	return ret;
}

static int bi_attach_stale(struct kunit *t, struct bi_ctx *c)
{
	return bi_attach(c, c->stale.token);
}

static int bi_attach_unknown(struct kunit *t, struct bi_ctx *c)
{
	return bi_attach(c, c->canary.token ^ (1ULL << 40));
}

static int bi_detach_unattached(struct kunit *t, struct bi_ctx *c)
{
	return ism_detach_dmb(c->a, c->canary.token, &nl_test_client);
}

static int bi_event_unreachable(struct kunit *t, struct bi_ctx *c)
{
	uuid_t gid;

	uuid_gen(&gid);
	return ism_signal_event(c->a, &gid, 1, 0, 0);
}

static int bi_event_null_gid(struct kunit *t, struct bi_ctx *c)
{
	return ism_signal_event(c->a, NULL, 1, 0, 0);
}

static int bi_query_unreachable(struct kunit *t, struct bi_ctx *c)
{
	uuid_t gid;

	uuid_gen(&gid);
	return ism_query_remote_gid(c->a, &gid, 0, 0);
}

static int bi_nl_new_no_type(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_dev_new_doit, "kunit-bi", NULL, NULL);
}

static int bi_nl_new_no_name(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_dev_new_doit, NULL, FAKE_TYPE, NULL);
}

static int bi_nl_new_bad_name(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_dev_new_doit, "kunit bi", FAKE_TYPE, NULL);
}

static int bi_nl_new_taken(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_dev_new_doit, "kunit-nl1", FAKE_TYPE, NULL);
}

static int bi_nl_new_unknown_type(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_dev_new_doit, "kunit-bi", "kunit-none", NULL);
}

static int bi_nl_del_unknown(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_dev_del_doit, "kunit-bi", NULL, NULL);
}

static int bi_nl_del_no_name(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_dev_del_doit, NULL, NULL, NULL);
}

static int bi_nl_reset_unknown(struct kunit *t, struct bi_ctx *c)
{
	return nl_do(t, ism_nl_stats_reset_doit, "kunit-bi", NULL, NULL);
}

static int bi_nl_get(struct kunit *t, const char *name)
{
	struct sk_buff *msg = ism_nl_dev_msg(&nl_req_dev(t, name, NULL)->info);

	if (IS_ERR(msg))
		return PTR_ERR(msg);
	kfree_skb(msg);
	return 0;
}

static int bi_nl_get_unknown(struct kunit *t, struct bi_ctx *c)
{
	return bi_nl_get(t, "kunit-bi");
}

static int bi_nl_get_no_name(struct kunit *t, struct bi_ctx *c)
{
	return bi_nl_get(t, NULL);
}

/* A request whose attribute the policy refuses; the handler never runs. */
static int bi_policy(struct kunit *t, int type, const void *data, int len)
{
	struct nl_req *req = nl_req_new(t);

	KUNIT_ASSERT_EQ(t, nla_put(req->skb, type, len, data), 0);
	return nl_req_parse(t, req);
}

static int bi_attr_long_name(struct kunit *t, struct bi_ctx *c)
{
	static const char name[] = "longer-than-fifteen";

	return bi_policy(t, ISM_ATTR_DEV_NAME, name, sizeof(name));
}

static int bi_attr_no_nul(struct kunit *t, struct bi_ctx *c)
{
	return bi_policy(t, ISM_ATTR_DEV_TYPE, FAKE_TYPE,
			 sizeof(FAKE_TYPE) - 1);
}

static int bi_attr_reply_only(struct kunit *t, struct bi_ctx *c)
{
	u32 v = 1;

	return bi_policy(t, ISM_ATTR_DMB_INDEX, &v, sizeof(v));
}

static int bi_attr_unknown(struct kunit *t, struct bi_ctx *c)
{
	u32 v = 1;

	return bi_policy(t, ISM_ATTR_MAX + 1, &v, sizeof(v));
}

static const struct bi_row bi_rows[] = {
	{ "move_data: unknown token", bi_move_unknown, -ENOENT },
	{ "move_data: stale token", bi_move_stale, -ENOENT },
	{ "move_data: offset+size wraps", bi_move_wrap, -EINVAL },
	{ "move_data: offset+size past the end", bi_move_past_end, -EINVAL },
	{ "move_data: offset out of range", bi_move_offset_out, -EINVAL },
	{ "move_data: oversized length", bi_move_oversized, -EINVAL },
	{ "move_data: signal bit out of range", bi_move_bad_bit, -EINVAL },
	{ "move_data: NULL data", bi_move_null_data, -EINVAL },
	{ "move_data: wrong device", bi_move_wrong_dev, -ENOENT },
	{ "register_dmb: oversized length", bi_reg_oversized, -EINVAL },
	{ "register_dmb: zero length", bi_reg_zero_len, -EINVAL },
	{ "register_dmb: unregistered client", bi_reg_unregistered_client,
	  -EINVAL },
	{ "register_dmb: unreachable rgid", bi_reg_unreachable, -EINVAL },
	{ "register_dmb: NULL DMB", bi_reg_null, -EINVAL },
	{ "unregister_dmb: double (stale token)", bi_unreg_stale, -ENOENT },
	{ "unregister_dmb: token and index mismatch", bi_unreg_wrong_idx,
	  -ENOENT },
	{ "unregister_dmb: index out of range", bi_unreg_idx_out, -ENOENT },
	{ "unregister_dmb: wrong device", bi_unreg_wrong_dev, -ENOENT },
	{ "unregister_dmb: not the owner", bi_unreg_not_owner, -ENOENT },
	{ "unregister_dmb: NULL DMB", bi_unreg_null, -EINVAL },
	{ "unregister_dmb: NULL client", bi_unreg_null_client, -EINVAL },
	{ "attach_dmb: stale token", bi_attach_stale, -ENOENT },
	{ "attach_dmb: unknown token", bi_attach_unknown, -ENOENT },
	{ "detach_dmb: not attached", bi_detach_unattached, -ENOENT },
	{ "signal_event: unreachable GID", bi_event_unreachable,
	  -EHOSTUNREACH },
	{ "signal_event: NULL GID", bi_event_null_gid, -EINVAL },
	{ "query_remote_gid: unreachable GID", bi_query_unreachable,
	  -EHOSTUNREACH },
	{ "DEV_NEW: no type", bi_nl_new_no_type, -EINVAL },
	{ "DEV_NEW: no name", bi_nl_new_no_name, -EINVAL },
	{ "DEV_NEW: invalid name", bi_nl_new_bad_name, -EINVAL },
	{ "DEV_NEW: name taken", bi_nl_new_taken, -EEXIST },
	{ "DEV_NEW: unknown type", bi_nl_new_unknown_type, -EOPNOTSUPP },
	{ "DEV_DEL: unknown device", bi_nl_del_unknown, -ENODEV },
	{ "DEV_DEL: no name", bi_nl_del_no_name, -EINVAL },
	{ "STATS_RESET: unknown device", bi_nl_reset_unknown, -ENODEV },
	{ "DEV_GET: unknown device", bi_nl_get_unknown, -ENODEV },
	{ "DEV_GET: no name", bi_nl_get_no_name, -EINVAL },
	{ "attribute: name too long", bi_attr_long_name, -EINVAL },
	{ "attribute: string without NUL", bi_attr_no_nul, -EINVAL },
	{ "attribute: reply-only in a request", bi_attr_reply_only, -EINVAL },
	{ "attribute: unknown type", bi_attr_unknown, -EINVAL },
};

static void bi_row_desc(const struct bi_row *row, char *desc)
{
	strscpy(desc, row->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(bi_rows, bi_rows, bi_row_desc);

/* What a row must not change. */
struct bi_state {
	u64 a[ISM_STAT_NUM];
	u64 b[ISM_STAT_NUM];
	u32 dmbs_a;
	u32 dmbs_b;
};

static void bi_state(struct kunit *test, struct bi_ctx *c, struct bi_state *s)
{
	nl_dev_read(test, c->a, s->a, &s->dmbs_a);
	nl_dev_read(test, c->b, s->b, &s->dmbs_b);
}

static void bi_expect_unchanged(struct kunit *test, struct bi_ctx *c,
				const struct bi_state *was)
{
	static const unsigned int kept[] = {
		ISM_STAT_ATTR_MOVES, ISM_STAT_ATTR_MOVE_BYTES,
		ISM_STAT_ATTR_SIGNALS, ISM_STAT_ATTR_IRQS,
		ISM_STAT_ATTR_DMBS_REGISTERED, ISM_STAT_ATTR_DMBS_UNREGISTERED,
	};
	struct bi_state now;
	unsigned int i, k;

	bi_state(test, c, &now);
	KUNIT_EXPECT_EQ(test, now.dmbs_a, was->dmbs_a);
	KUNIT_EXPECT_EQ(test, now.dmbs_b, was->dmbs_b);
	for (i = 0; i < ARRAY_SIZE(kept); i++) {
		k = kept[i] - ISM_STAT_ATTR_MOVES;
		KUNIT_EXPECT_EQ_MSG(test, now.a[k], was->a[k], "counter %u", k);
		KUNIT_EXPECT_EQ_MSG(test, now.b[k], was->b[k], "counter %u", k);
	}
	KUNIT_EXPECT_NULL(test, memchr_inv(c->canary.cpu_addr, BI_FILL, BI_LEN));
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(nl_test_devs[0]), c->a);
	KUNIT_EXPECT_PTR_EQ(test, READ_ONCE(nl_test_devs[1]), c->b);
	KUNIT_EXPECT_EQ(test, bi_nl_get(test, "kunit-bi"), -ENODEV);
}

static void bi_case(struct kunit *test)
{
	const struct bi_row *row = test->param_value;
	struct bi_ctx *c = test->priv;
	struct bi_state was;

	bi_state(test, c, &was);
	KUNIT_EXPECT_EQ(test, row->run(test, c), row->err);
	bi_expect_unchanged(test, c, &was);
}

static void bi_table_size(struct kunit *test)
{
	kunit_info(test, "bad-input table: %zu entries\n", ARRAY_SIZE(bi_rows));
	KUNIT_EXPECT_GT(test, ARRAY_SIZE(bi_rows), 0);
}

static int bi_init(struct kunit *test)
{
	struct bi_ctx *c = kunit_kzalloc(test, sizeof(*c), GFP_KERNEL);
	int ret;

	if (!c)
		return -ENOMEM;
	/* On failure, bi_exit() undoes what was set up. */
	ret = nl_test_setup(test, 2);
	if (ret)
		return ret;
	c->a = nl_test_devs[0];
	c->b = nl_test_devs[1];
	c->other.name = "kunit-other";
	c->canary.len = BI_LEN;
	ism_get_local_gid(c->a, &c->canary.rgid);
	c->stale = c->canary;
	ret = ism_register_dmb(c->a, &c->stale, &nl_test_client);
	if (!ret)
		ret = ism_unregister_dmb(c->a, &c->stale, &nl_test_client);
	if (!ret)
		ret = ism_register_dmb(c->a, &c->canary, &nl_test_client);
	if (ret)
		return ret;
	memset(c->buf, 0x5a, sizeof(c->buf));
	memset(c->canary.cpu_addr, BI_FILL, BI_LEN);
	test->priv = c;
	return 0;
}

/* Deleting the devices releases the canary (with a warning naming the
 * client): unregister it first.
 */
static void bi_exit(struct kunit *test)
{
	struct bi_ctx *c = test->priv;

	if (c)
		ism_unregister_dmb(c->a, &c->canary, &nl_test_client);
	nl_test_teardown(test);
}

static struct kunit_case bi_cases[] = {
	KUNIT_CASE(bi_table_size),
	KUNIT_CASE_PARAM(bi_case, bi_rows_gen_params),
	{}
};

static struct kunit_suite bi_suite = {
	.name = "ism_bad_input",
	.init = bi_init,
	.exit = bi_exit,
	.test_cases = bi_cases,
};

kunit_test_suites(&bi_suite);
