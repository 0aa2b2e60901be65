// SPDX-License-Identifier: GPL-2.0
/*
 * Suites ism_nl_request and ism_nl_dev: the ism netlink family's request
 * validation and handlers, and the per-device counters (the bad-input table
 * is in core_kunit_badinput.c), on fake loopback devices (core_kunit.h)
 * the tests create through ISM_CMD_DEV_NEW, so no driver is needed.
 * Requests are built as userspace would send them and parsed with the
 * family's policy, as genetlink does, before the handler is called; device
 * messages are parsed back from ISM_CMD_DEV_GET's reply.
 */
#include <kunit/test.h>
#include <linux/ism.h>
#include <linux/module.h>
#include <net/genetlink.h>

#include "../ism_core.h"
#include "../ism_netlink.h"
#include "core_kunit.h"

#define NL_TEST_DEV	"kunit-nl0"
#define NL_TEST_LEN	8192

/* The test client: finds the tests' devices kunit-nl<N> and counts irqs. */
struct ism_dev *nl_test_devs[NL_TEST_DEVS];
static atomic_t nl_test_irqs;

static int nl_test_dev_index(struct ism_dev *dev)
{
	const char *name = ism_dev_name(dev);

	if (strncmp(name, "kunit-nl", 8) || name[8] < '0' ||
	    name[8] >= '0' + NL_TEST_DEVS || name[9])
		return -1;
	return name[8] - '0';
}

static int nl_test_add_dev(struct ism_dev *dev)
{
	int i = nl_test_dev_index(dev);

	if (i >= 0)
		WRITE_ONCE(nl_test_devs[i], dev);
	return 0;
}

static void nl_test_remove_dev(struct ism_dev *dev)
{
	int i = nl_test_dev_index(dev);

	if (i >= 0)
		WRITE_ONCE(nl_test_devs[i], NULL);
}

static void nl_test_handle_irq(struct ism_dev *dev, unsigned int idx,
			       u16 dmbemask)
{
	atomic_inc(&nl_test_irqs);
}

struct ism_client nl_test_client = {
	.name = "kunit-nl",
	.add_dev = nl_test_add_dev,
	.remove_dev = nl_test_remove_dev,
	.handle_irq = nl_test_handle_irq,
};

struct nl_req *nl_req_new(struct kunit *test)
{
	struct nl_req *req = kunit_kzalloc(test, sizeof(*req), GFP_KERNEL);

	KUNIT_ASSERT_NOT_NULL(test, req);
	req->skb = nlmsg_new(NLMSG_DEFAULT_SIZE, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, req->skb);
	KUNIT_ASSERT_NOT_NULL(test, nlmsg_put(req->skb, 0, 0, 0, GENL_HDRLEN, 0));
	req->info.attrs = req->attrs;
	req->info.extack = &req->extack;
	return req;
}

/* Validate @req's message with the family's policy, as genetlink does.
 * The handlers keep pointers into the message: it is parsed from a copy
 * that lives until the end of the test.
 */
int nl_req_parse(struct kunit *test, struct nl_req *req)
{
	struct nlmsghdr *nlh = nlmsg_hdr(req->skb), *copy;

	nlmsg_end(req->skb, nlh);
	copy = kunit_kmalloc(test, nlh->nlmsg_len, GFP_KERNEL);
	if (copy)
		memcpy(copy, nlh, nlh->nlmsg_len);
	kfree_skb(req->skb);
	if (!copy)
		return -ENOMEM;
	return nlmsg_parse(copy, GENL_HDRLEN, req->attrs, ISM_NL_MAXATTR,
			   ism_nl_policy, &req->extack);
}

/* A parsed request with the given name and type (NULL leaves one out). */
struct nl_req *nl_req_dev(struct kunit *test, const char *name,
			  const char *type)
{
	struct nl_req *req = nl_req_new(test);
	int ret = 0;

	if (name)
		ret = nla_put_string(req->skb, ISM_ATTR_DEV_NAME, name);
	if (type && !ret)
		ret = nla_put_string(req->skb, ISM_ATTR_DEV_TYPE, type);
	KUNIT_ASSERT_EQ(test, ret, 0);
	KUNIT_ASSERT_EQ(test, nl_req_parse(test, req), 0);
	return req;
}

/* Run handler @doit on a request naming @name and @type. */
int nl_do(struct kunit *test,
	  int (*doit)(struct sk_buff *skb, struct genl_info *info),
	  const char *name, const char *type, const char **msg)
{
	struct nl_req *req = nl_req_dev(test, name, type);
	int ret = doit(NULL, &req->info);

	if (msg)
		*msg = req->extack._msg ?: "(none)";
	return ret;
}

/* The counters and live DMB count of @dev, from ISM_CMD_DEV_GET's reply. */
void nl_dev_read(struct kunit *test, struct ism_dev *dev, u64 *stats,
		 u32 *dmbs)
{
	struct nlattr *tb[ISM_ATTR_MAX + 1], *st[ISM_STAT_ATTR_MAX + 1];
	struct nl_req *req = nl_req_dev(test, ism_dev_name(dev), NULL);
	struct sk_buff *skb = ism_nl_dev_msg(&req->info);
	int i, ret;

	KUNIT_ASSERT_FALSE(test, IS_ERR(skb));
	ret = nlmsg_parse_deprecated(nlmsg_hdr(skb), GENL_HDRLEN, tb,
				     ISM_ATTR_MAX, NULL, NULL);
	if (!ret && tb[ISM_ATTR_DEV_STATS] && tb[ISM_ATTR_DEV_DMBS])
		ret = nla_parse_nested_deprecated(st, ISM_STAT_ATTR_MAX,
						  tb[ISM_ATTR_DEV_STATS],
						  NULL, NULL);
	else if (!ret)
		ret = -ENODATA;
	for (i = 0; !ret && i < ISM_STAT_NUM; i++)
		stats[i] = st[ISM_STAT_ATTR_MOVES + i] ?
			   nla_get_u64(st[ISM_STAT_ATTR_MOVES + i]) : U64_MAX;
	if (!ret)
		*dmbs = nla_get_u32(tb[ISM_ATTR_DEV_DMBS]);
	kfree_skb(skb);
	KUNIT_ASSERT_EQ(test, ret, 0);
}

/* ------------------------- request validation ------------------------- */

static void nl_policy_rejects_malformed(struct kunit *test)
{
	static const char long_name[] = "a-name-longer-than-fifteen-chars";
	struct nl_req *req;
	u32 no_nul = 0x41414141;	/* "AAAA" */

	req = nl_req_new(test);
	nla_put_string(req->skb, ISM_ATTR_DEV_NAME, long_name);
	KUNIT_EXPECT_EQ(test, nl_req_parse(test, req), -EINVAL);
	KUNIT_EXPECT_NOT_NULL(test, req->extack._msg);

	req = nl_req_new(test);
	nla_put(req->skb, ISM_ATTR_DEV_NAME, sizeof(no_nul), &no_nul);
	KUNIT_EXPECT_EQ(test, nl_req_parse(test, req), -EINVAL);

	req = nl_req_new(test);
	nla_put(req->skb, ISM_ATTR_DEV_TYPE, 0, NULL);
	KUNIT_EXPECT_EQ(test, nl_req_parse(test, req), -EINVAL);

	/* Reply-only attributes and unknown types are refused in requests. */
	req = nl_req_new(test);
	nla_put_u16(req->skb, ISM_ATTR_DEV_CHID, 1);
	KUNIT_EXPECT_EQ(test, nl_req_parse(test, req), -EINVAL);

	req = nl_req_new(test);
	nla_put_u32(req->skb, ISM_ATTR_MAX + 1, 0);
	KUNIT_EXPECT_EQ(test, nl_req_parse(test, req), -EINVAL);

	req = nl_req_new(test);
	nla_put_string(req->skb, ISM_ATTR_DEV_NAME, "fifteen-chars-0");
	KUNIT_EXPECT_EQ(test, nl_req_parse(test, req), 0);
}

static void nl_dev_new_rejects(struct kunit *test)
{
	const char *msg;

	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, NULL, NULL,
				    &msg), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg, "missing device type");
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, NULL,
				    FAKE_TYPE, &msg), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg, "missing device name");
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, "a/b",
				    FAKE_TYPE, &msg), -EINVAL);
	KUNIT_EXPECT_STRNEQ(test, msg, "(none)");
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, "..",
				    FAKE_TYPE, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, "",
				    FAKE_TYPE, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, "kunit-x",
				    "no-such-type", &msg), -EOPNOTSUPP);
	KUNIT_EXPECT_STRNEQ(test, msg, "(none)");
}

static void nl_dev_del_and_reset_reject_unknown(struct kunit *test)
{
	const char *msg;

	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_del_doit, NULL, NULL,
				    &msg), -EINVAL);
	KUNIT_EXPECT_STREQ(test, msg, "missing device name");
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_del_doit, "kunit-none",
				    NULL, &msg), -ENODEV);
	KUNIT_EXPECT_STREQ(test, msg, "no such device");
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_stats_reset_doit,
				    "kunit-none", NULL, NULL), -ENODEV);
}

/* A type that cannot create devices is refused like an unknown one. */
static int nl_test_del_only(struct ism_dev *dev, struct netlink_ext_ack *e)
{
	return -ENODEV;
}

static void nl_dev_new_needs_new_dev(struct kunit *test)
{
	struct ism_dev_type del_only = {
		.name = "kunit-delonly",
		.owner = THIS_MODULE,
		.del_dev = nl_test_del_only,
	};

	KUNIT_ASSERT_EQ(test, ism_dev_type_register(&del_only), 0);
	KUNIT_EXPECT_EQ(test, ism_dev_type_register(&del_only), -EEXIST);
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, "kunit-x",
				    "kunit-delonly", NULL), -EOPNOTSUPP);
	ism_dev_type_unregister(&del_only);
}

/* ----------------------- devices and counters ----------------------- */

static bool nl_test_client_registered;
static bool nl_test_type_registered;

/**
 * nl_test_setup() - register the test client and create fake devices
 * @test: the test
 * @ndevs: how many, named kunit-nl0, kunit-nl1, ...; in nl_test_devs[]
 *
 * Call nl_test_teardown() afterwards, also when this fails.
 *
 * Return: 0 or a negative errno (-EINVAL: more than %NL_TEST_DEVS).
 */
int nl_test_setup(struct kunit *test, unsigned int ndevs)
{
	char name[ISM_NAME_MAXLEN + 1];
	unsigned int i;
	int ret;

	if (ndevs > NL_TEST_DEVS)
		return -EINVAL;
	atomic_set(&nl_test_irqs, 0);
	ret = fake_type_register();
	nl_test_type_registered = !ret;
	if (!ret)
		ret = ism_register_client(&nl_test_client);
	nl_test_client_registered = nl_test_type_registered && !ret;
	for (i = 0; !ret && i < ndevs; i++) {
		snprintf(name, sizeof(name), "kunit-nl%u", i);
		ret = nl_do(test, ism_nl_dev_new_doit, name, FAKE_TYPE, NULL);
		if (!ret && !READ_ONCE(nl_test_devs[i]))
			ret = -ENODEV;
	}
	return ret;
}

/**
 * nl_test_teardown() - undo nl_test_setup(), also after a failed test
 * @test: the test
 */
void nl_test_teardown(struct kunit *test)
{
	unsigned int i;

	for (i = 0; i < NL_TEST_DEVS; i++)
		if (READ_ONCE(nl_test_devs[i]))
			nl_do(test, ism_nl_dev_del_doit,
			      ism_dev_name(nl_test_devs[i]), NULL, NULL);
	ism_nl_dev_del_flush();
	if (nl_test_client_registered)
		ism_unregister_client(&nl_test_client);
	nl_test_client_registered = false;
	/* Deletes what a failed case left, if anything. */
	if (nl_test_type_registered)
		fake_type_unregister();
	nl_test_type_registered = false;
}

static int nl_suite_init(struct kunit *test)
{
	return nl_test_setup(test, 1);
}

static void nl_dev_new_del(struct kunit *test)
{
	const char *msg;

	/* The device is on every list: another of that name is refused. */
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_new_doit, NL_TEST_DEV,
				    FAKE_TYPE, &msg), -EEXIST);
	KUNIT_EXPECT_STREQ(test, msg, "device name in use");
	KUNIT_EXPECT_STREQ(test, nl_test_devs[0]->type->name, FAKE_TYPE);

	/* Deletion is queued: the request returns before it completes. */
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_del_doit, NL_TEST_DEV,
				    NULL, NULL), 0);
	ism_nl_dev_del_flush();
	KUNIT_EXPECT_NULL(test, READ_ONCE(nl_test_devs[0]));
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_dev_del_doit, NL_TEST_DEV,
				    NULL, NULL), -ENODEV);
}

static void nl_stats_count(struct kunit *test)
{
	struct ism_dev *dev = nl_test_devs[0];
	struct ism_dmb dmb = { .len = NL_TEST_LEN };
	u8 data[64] = { 1, 2, 3 };
	u64 stats[ISM_STAT_NUM];
	u32 dmbs;

	ism_get_local_gid(dev, &dmb.rgid);
	KUNIT_ASSERT_EQ(test, ism_register_dmb(dev, &dmb, &nl_test_client), 0);
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, dmb.token, 0, false, 0,
					    data, sizeof(data)), 0);
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, dmb.token, 1, true,
					    NL_TEST_LEN - 8, data, 8), 0);
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, dmb.token ^ (1ULL << 40), 0,
					    false, 0, data, 8), -ENOENT);
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, dmb.token, 0, true,
					    NL_TEST_LEN - 7, data, 8), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, dmb.token, ISM_DMBE_BITS,
					    true, 0, data, 8), -EINVAL);

	nl_dev_read(test, dev, stats, &dmbs);
	KUNIT_EXPECT_EQ(test, dmbs, 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, MOVES), 2);
	KUNIT_EXPECT_EQ(test, STAT(stats, MOVE_BYTES), sizeof(data) + 8);
	KUNIT_EXPECT_EQ(test, STAT(stats, SIGNALS), 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, IRQS), 1);
	KUNIT_EXPECT_EQ(test, atomic_read(&nl_test_irqs), 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, ERR_TOKEN), 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, ERR_INVAL), 2);
	KUNIT_EXPECT_EQ(test, STAT(stats, DMBS_REGISTERED), 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, DMBS_UNREGISTERED), 0);

	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &dmb, &nl_test_client),
			0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &dmb, &nl_test_client),
			-ENOENT);
	dmb.len = 0;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, &nl_test_client),
			-EINVAL);

	nl_dev_read(test, dev, stats, &dmbs);
	KUNIT_EXPECT_EQ(test, dmbs, 0);
	KUNIT_EXPECT_EQ(test, STAT(stats, DMBS_UNREGISTERED), 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, ERR_TOKEN), 2);
	KUNIT_EXPECT_EQ(test, STAT(stats, ERR_INVAL), 3);
	KUNIT_EXPECT_EQ(test, STAT(stats, ERR_NOSPC), 0);
	KUNIT_EXPECT_EQ(test, STAT(stats, ERR_OTHER), 0);
}

/* A device with a fixed DMB space reports it; a full one counts refusals. */
static void nl_dmb_space(struct kunit *test)
{
	struct ism_dev *dev = nl_test_devs[0];
	struct nlattr *tb[ISM_ATTR_MAX + 1];
	struct ism_dmb dmb = { .len = NL_TEST_LEN }, more;
	struct sk_buff *skb;
	u64 stats[ISM_STAT_NUM];
	u32 dmbs;

	ism_get_local_gid(dev, &dmb.rgid);
	more = dmb;
	KUNIT_ASSERT_EQ(test, ism_register_dmb(dev, &dmb, &nl_test_client), 0);
	skb = ism_nl_dev_msg(&nl_req_dev(test, ism_dev_name(dev), NULL)->info);
	KUNIT_ASSERT_FALSE(test, IS_ERR(skb));
	KUNIT_ASSERT_EQ(test, nlmsg_parse_deprecated(nlmsg_hdr(skb), GENL_HDRLEN,
						     tb, ISM_ATTR_MAX, NULL,
						     NULL), 0);
	KUNIT_EXPECT_NOT_NULL(test, tb[ISM_ATTR_DEV_DMB_SPACE]);
	KUNIT_EXPECT_NOT_NULL(test, tb[ISM_ATTR_DEV_DMB_SPACE_USED]);
	if (tb[ISM_ATTR_DEV_DMB_SPACE] && tb[ISM_ATTR_DEV_DMB_SPACE_USED]) {
		KUNIT_EXPECT_EQ(test, nla_get_u64(tb[ISM_ATTR_DEV_DMB_SPACE]),
				(u64)dev->max_dmbs * dev->max_dmb_len);
		KUNIT_EXPECT_EQ(test,
				nla_get_u64(tb[ISM_ATTR_DEV_DMB_SPACE_USED]),
				NL_TEST_LEN);
	}
	kfree_skb(skb);

	/* The device is full: the refusal is counted (and logged). */
	to_fake(dev)->register_err = -ENOSPC;
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &more, &nl_test_client),
			-ENOSPC);
	to_fake(dev)->register_err = 0;
	nl_dev_read(test, dev, stats, &dmbs);
	KUNIT_EXPECT_EQ(test, dmbs, 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, ERR_NOSPC), 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, DMBS_REGISTERED), 1);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &dmb, &nl_test_client),
			0);
}

static void nl_stats_reset(struct kunit *test)
{
	struct ism_dev *dev = nl_test_devs[0];
	struct ism_dmb dmb = { .len = NL_TEST_LEN };
	u64 stats[ISM_STAT_NUM];
	u8 data[16] = { 0 };
	u32 dmbs;
	int i;

	ism_get_local_gid(dev, &dmb.rgid);
	KUNIT_ASSERT_EQ(test, ism_register_dmb(dev, &dmb, &nl_test_client), 0);
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, dmb.token, 0, true, 0, data,
					    sizeof(data)), 0);
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_stats_reset_doit,
				    NL_TEST_DEV, NULL, NULL), 0);
	nl_dev_read(test, dev, stats, &dmbs);
	for (i = 0; i < ISM_STAT_NUM; i++)
		KUNIT_EXPECT_EQ_MSG(test, stats[i], 0, "counter %d", i);
	KUNIT_EXPECT_EQ(test, dmbs, 1);

	/* Counting goes on from the new zero; a reset of all devices too. */
	KUNIT_EXPECT_EQ(test, ism_move_data(dev, dmb.token, 0, false, 0, data,
					    sizeof(data)), 0);
	nl_dev_read(test, dev, stats, &dmbs);
	KUNIT_EXPECT_EQ(test, STAT(stats, MOVES), 1);
	KUNIT_EXPECT_EQ(test, STAT(stats, MOVE_BYTES), sizeof(data));
	KUNIT_EXPECT_EQ(test, nl_do(test, ism_nl_stats_reset_doit, NULL, NULL,
				    NULL), 0);
	nl_dev_read(test, dev, stats, &dmbs);
	KUNIT_EXPECT_EQ(test, STAT(stats, MOVES), 0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, &dmb, &nl_test_client),
			0);
}

static struct kunit_case nl_request_cases[] = {
	KUNIT_CASE(nl_policy_rejects_malformed),
	KUNIT_CASE(nl_dev_new_rejects),
	KUNIT_CASE(nl_dev_del_and_reset_reject_unknown),
	KUNIT_CASE(nl_dev_new_needs_new_dev),
	{}
};

/* The type exists: a name the requests above refuse is refused for itself. */
static int nl_request_suite_init(struct kunit_suite *suite)
{
	return fake_type_register();
}

static void nl_request_suite_exit(struct kunit_suite *suite)
{
	fake_type_unregister();
}

static struct kunit_suite nl_request_suite = {
	.name = "ism_nl_request",
	.suite_init = nl_request_suite_init,
	.suite_exit = nl_request_suite_exit,
	.test_cases = nl_request_cases,
};

static struct kunit_case nl_dev_cases[] = {
	KUNIT_CASE(nl_dev_new_del),
	KUNIT_CASE(nl_stats_count),
	KUNIT_CASE(nl_stats_reset),
	KUNIT_CASE(nl_dmb_space),
	{}
};

static struct kunit_suite nl_dev_suite = {
	.name = "ism_nl_dev",
	.init = nl_suite_init,
	.exit = nl_test_teardown,
	.test_cases = nl_dev_cases,
};

kunit_test_suites(&nl_request_suite, &nl_dev_suite);
