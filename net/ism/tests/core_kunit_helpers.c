// SPDX-License-Identifier: GPL-2.0
/*
 * Suite ism_core_helpers: the ISM core's client helpers, on the fake
 * device of fake_dev.h.
 */
#include <linux/module.h>
#include <linux/uuid.h>

#include "core_kunit.h"

static void ism_helpers_optional_ops_absent(struct kunit *test)
{
	struct test_client *tc = tc_new(test, 0);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct ism_dmb dmb = { .token = FAKE_TOKEN_BASE + 1 };
	unsigned int before = fake_total_calls(dev);
	uuid_t rgid;

	uuid_gen(&rgid);
	KUNIT_EXPECT_EQ(test, ism_signal_event(dev, &rgid, 1, 2, 3),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, &dmb, &tc->client),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, dmb.token, &tc->client),
			-EOPNOTSUPP);
	KUNIT_EXPECT_FALSE(test, ism_dev_can_attach(dev));
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(dev, 5), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(dev, 5), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(dev, true), -EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, ism_dmb_owner(dev, dmb.token, &rgid),
			-EOPNOTSUPP);
	KUNIT_EXPECT_EQ(test, fake_total_calls(dev), before);
}

static void ism_helpers_optional_ops_present(struct kunit *test)
{
	struct test_client *tc = tc_new(test, 0);
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

	KUNIT_EXPECT_TRUE(test, ism_dev_can_attach(dev));
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, &dmb, &tc->client), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 1);
	KUNIT_EXPECT_PTR_EQ(test, fake->last.dmb, &dmb);
	KUNIT_EXPECT_EQ(test, dmb.len, FAKE_ATTACH_LEN);
	KUNIT_EXPECT_PTR_EQ(test, dmb.cpu_addr, (void *)fake);

	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, dmb.token, &tc->client), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1);
	KUNIT_EXPECT_EQ(test, fake->last.token, FAKE_TOKEN_BASE + 9);

	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(dev, 0x123), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ADD_VLAN_ID], 1);
	KUNIT_EXPECT_EQ(test, fake->last.vlan_id, 0x123);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(dev, 0x456), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DEL_VLAN_ID], 1);
	KUNIT_EXPECT_EQ(test, fake->last.vlan_id, 0x456);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(dev, true), 0);
	KUNIT_EXPECT_TRUE(test, fake->last.vlan_required);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(dev, false), 0);
	KUNIT_EXPECT_FALSE(test, fake->last.vlan_required);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SET_VLAN_REQUIRED], 2);
	KUNIT_EXPECT_EQ(test, ism_dmb_owner(dev, FAKE_TOKEN_BASE + 7, &rgid), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DMB_OWNER], 1);
	KUNIT_EXPECT_EQ(test, fake->last.token, FAKE_TOKEN_BASE + 7);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&rgid, &dev->gid));

	/* The device's errors come back unchanged. */
	fake->ret = FAKE_ERR;
	KUNIT_EXPECT_EQ(test, ism_signal_event(dev, &rgid, 0, 1, 2), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, &dmb, &tc->client), FAKE_ERR);
	/* Nothing attached, so the core refuses without asking the device. */
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, dmb.token, &tc->client),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(dev, 1), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(dev, 1), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(dev, true), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, ism_dmb_owner(dev, 1, &rgid), FAKE_ERR);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DMB_OWNER], 2);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SET_VLAN_REQUIRED], 3);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SIGNAL_EVENT], 2);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 2);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1);
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
	struct test_client *tc = tc_new(test, 0);
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
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, NULL, &tc->client), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(NULL, &dmb, &tc->client), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(dev, &dmb, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(NULL, dmb.token, &tc->client),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, dmb.token, NULL), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(NULL, 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(NULL, true), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_dmb_owner(NULL, 1, &rgid), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_dmb_owner(dev, 1, NULL), -EINVAL);
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
	dev->max_dmbs = 1920;
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
	struct test_client *c = tc_get(test, 2);
	struct ism_dev *d0 = td_new(test, &fake_ops_min);
	struct ism_dev *d1 = td_new(test, &fake_ops_min);
	int tag[5];

	KUNIT_EXPECT_NULL(test, a->priv_at_add[0]);
	KUNIT_EXPECT_NULL(test, ism_get_priv(d0, &a->client));
	KUNIT_EXPECT_NULL(test, ism_get_priv(d1, &b->client));

	KUNIT_EXPECT_EQ(test, ism_set_priv(d0, &a->client, &tag[0]), 0);
	KUNIT_EXPECT_EQ(test, ism_set_priv(d0, &b->client, &tag[1]), 0);
	KUNIT_EXPECT_EQ(test, ism_set_priv(d1, &a->client, &tag[2]), 0);
	KUNIT_EXPECT_EQ(test, ism_set_priv(d1, &b->client, &tag[3]), 0);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d0, &a->client), &tag[0]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d0, &b->client), &tag[1]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d1, &a->client), &tag[2]);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d1, &b->client), &tag[3]);

	/* A client that is not registered has no slot: its id (here a's
	 * slot) reads and writes nothing.
	 */
	c->client.id = a->client.id;
	KUNIT_EXPECT_NULL(test, ism_get_priv(d0, &c->client));
	KUNIT_EXPECT_EQ(test, ism_set_priv(d0, &c->client, &tag[4]), -EINVAL);
	KUNIT_EXPECT_PTR_EQ(test, ism_get_priv(d0, &a->client), &tag[0]);
	KUNIT_EXPECT_EQ(test, ism_set_priv(NULL, &a->client, &tag[4]),
			-EINVAL);
	KUNIT_EXPECT_EQ(test, ism_set_priv(d0, NULL, &tag[4]), -EINVAL);
	KUNIT_EXPECT_NULL(test, ism_get_priv(d0, NULL));

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

kunit_test_suites(&ism_helpers_suite);
