// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit tests of the ISM core's contract with clients and drivers: a
 * client's remove_dev may wait without holding up anyone else, a client
 * may refuse a device, a client is started on a device once its handlers
 * run, DMBs and attachments belong to the client they were made for, and
 * what a driver reports is checked.
 */
#include <linux/kthread.h>
#include <linux/module.h>
#include <linux/uuid.h>

#include "core_kunit.h"

/* Generous for an emulated, loaded machine; reached only on failure. */
#define CONTRACT_WAIT	(30 * HZ)

struct unregister_job {
	struct ism_dev *dev;
	struct completion done;
};

static int unregister_fn(void *arg)
{
	struct unregister_job *job = arg;

	ism_dev_unregister(job->dev);
	complete(&job->done);
	return 0;
}

/* While a's remove_dev waits, the registries, other devices and the
 * device's name stay usable, and the device takes nothing new.
 */
static void ism_contract_remove_dev_waits_alone(struct kunit *test)
{
	struct test_ctx *ctx = test->priv;
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_get(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct ism_dev *same, *other;
	struct unregister_job *job;
	struct task_struct *task;
	struct ism_dmb dmb = { .len = 64 };

	/* Not on the stack: it must outlive a case that fails half-way. */
	job = kunit_kzalloc(test, sizeof(*job), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, job);
	job->dev = dev;
	init_completion(&job->done);
	a->remove_blocks = true;
	task = kthread_run(unregister_fn, job, "ism_kunit_unreg");
	KUNIT_ASSERT_FALSE(test, IS_ERR(task));
	ctx->dev_registered[0] = false;
	KUNIT_ASSERT_TRUE(test, wait_for_completion_timeout(&a->remove_entered,
							    CONTRACT_WAIT));

	/* The registry mutex is free: a new client registers... */
	KUNIT_EXPECT_EQ(test, tc_register(b), 0);
	/* ...and is not given the going device. */
	EXPECT_ADD_REMOVE(test, b, 0, 0, 0);
	uuid_copy(&dmb.rgid, &dev->gid);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, &b->client),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(dev, &dmb, &a->client),
			-ENODEV);
	/* Another device registers and gets both clients. */
	other = td_new(test, &fake_ops_min);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 1, 1, 0);
	/* The going device keeps its name until it is gone. */
	same = td_alloc_unnamed(test, &fake_ops_min);
	KUNIT_ASSERT_EQ(test, dev_set_name(&same->dev, "%s", ism_dev_name(dev)),
			0);
	KUNIT_EXPECT_EQ(test, td_register(test, same), -EEXIST);
	KUNIT_EXPECT_FALSE(test, completion_done(&job->done));

	complete_all(&a->remove_release);
	KUNIT_EXPECT_TRUE(test, wait_for_completion_timeout(&job->done,
							    CONTRACT_WAIT));
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	KUNIT_EXPECT_EQ(test, td_register(test, same), 0);
	td_unregister(test, other);
}

/* A client that refuses a device gets no callback for it, and the core
 * releases what it registered before refusing.
 */
static void ism_contract_add_dev_refuses(struct kunit *test)
{
	struct test_client *a = tc_get(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev;

	a->add_err = -EIO;
	a->dmb_on_add = true;
	a->free_on_remove = false;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	dev = td_new(test, &fake_ops_min);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 0);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, a->add_dmb_ret, 0);
	KUNIT_EXPECT_TRUE(test, test_bit(a->client.id, &dev->refused));
	KUNIT_EXPECT_FALSE(test, test_bit(b->client.id, &dev->refused));
	/* Its DMB is gone and its irqs are not delivered. */
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
	tc_route(dev, a->dmbs[0].dmb.idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 1, 64), -ENODEV);

	/* Leaving clears the refusal; no remove_dev for a refused device. */
	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 0);
	KUNIT_EXPECT_FALSE(test, test_bit(a->client.id, &dev->refused));
	a->add_err = 0;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	EXPECT_ADD_REMOVE(test, a, 0, 2, 0);
	td_unregister(test, dev);
	EXPECT_ADD_REMOVE(test, a, 0, 2, 1);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 1);
}

/* start_dev follows a successful add_dev once the client's handlers run
 * for the device: a signal sent from it arrives (one sent from add_dev is
 * dropped: ism_core_route). A refusing client is not started; remove_dev
 * never comes before start_dev.
 */
static void ism_contract_start_dev(struct kunit *test)
{
	struct test_client *a = tc_get(test, 0);
	struct test_client *b = tc_get(test, 1);
	struct ism_dev *later;

	td_new(test, &fake_ops_min);
	a->dmb_on_add = true;
	a->route_on_start = true;
	KUNIT_ASSERT_EQ(test, tc_register(a), 0);
	KUNIT_EXPECT_EQ(test, a->start_calls[0], 1);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 1);

	b->add_err = -EPERM;
	KUNIT_ASSERT_EQ(test, tc_register(b), 0);
	EXPECT_ADD_REMOVE(test, b, 0, 1, 0);
	KUNIT_EXPECT_EQ(test, b->start_calls[0], 0);

	/* A device that comes later: the same, from ism_dev_register(). */
	later = td_new(test, &fake_ops_min);
	KUNIT_EXPECT_EQ(test, a->start_calls[1], 1);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 2);
	KUNIT_EXPECT_EQ(test, b->start_calls[1], 0);
	td_unregister(test, later);
	tc_unregister(a);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
	EXPECT_ADD_REMOVE(test, a, 1, 1, 1);
	KUNIT_EXPECT_EQ(test, a->remove_unstarted, 0);
}

/* A DMB belongs to the client it was registered for, whoever made the
 * call: that client gets its signals and alone unregisters it; when it
 * leaves the device without doing so, the core releases the DMB.
 */
static void ism_contract_dmb_owner_only(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);
	struct ism_dmb *dmb = &b->dmbs[0].dmb;

	KUNIT_ASSERT_EQ(test, tc_dmb_register(b, dev, 0, 64), 0);
	tc_route(dev, dmb->idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 1);
	KUNIT_EXPECT_EQ(test, a->irq_calls, 0);

	/* Token and index are not enough: a cannot unregister b's DMB. */
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb, &a->client),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 0);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 1);
	tc_route(dev, dmb->idx, 1, NULL);
	KUNIT_EXPECT_EQ(test, b->irq_calls, 2);

	b->free_on_remove = false;
	tc_unregister(b);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 1);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(dev, dmb, &b->client),
			-ENOENT);
}

static int attach(struct ism_dev *dev, struct test_client *tc, u64 token)
{
	struct ism_dmb dmb = { .token = token };

	return ism_attach_dmb(dev, &dmb, &tc->client);
}

/* A second detach of one attachment changes nothing. */
static void ism_contract_attach_double_detach(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct ism_dev *dev = td_new(test, &fake_ops_full);
	struct fake_dev *fake = to_fake(dev);
	u64 token = FAKE_TOKEN_BASE + 7;

	KUNIT_ASSERT_EQ(test, attach(dev, a, token), 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, token, &a->client), 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, token, &a->client), -ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1);

	/* Two attachments need two detaches. */
	KUNIT_ASSERT_EQ(test, attach(dev, a, token), 0);
	KUNIT_ASSERT_EQ(test, attach(dev, a, token), 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, token, &a->client), 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, token, &a->client), 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, token, &a->client), -ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 3);
}

/* Only the client that attached can detach. */
static void ism_contract_attach_other_client(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_new(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_full);
	struct fake_dev *fake = to_fake(dev);
	u64 token = FAKE_TOKEN_BASE + 8;

	KUNIT_ASSERT_EQ(test, attach(dev, a, token), 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, token, &b->client), -ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(dev, token, &a->client), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1);
}

/* A client that leaves a device still attached is detached by the core;
 * a client not added to the device cannot attach at all.
 */
static void ism_contract_attach_client_leaves(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct test_client *b = tc_get(test, 1);
	struct ism_dev *dev = td_new(test, &fake_ops_full);
	struct fake_dev *fake = to_fake(dev);

	KUNIT_ASSERT_EQ(test, attach(dev, a, FAKE_TOKEN_BASE + 1), 0);
	KUNIT_ASSERT_EQ(test, attach(dev, a, FAKE_TOKEN_BASE + 1), 0);
	KUNIT_ASSERT_EQ(test, attach(dev, a, FAKE_TOKEN_BASE + 2), 0);
	tc_unregister(a);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 3);
	KUNIT_EXPECT_EQ(test, fake->last.token, FAKE_TOKEN_BASE + 2);

	/* Registered, but refusing the device: never added to it. */
	b->add_err = -EPERM;
	KUNIT_ASSERT_EQ(test, tc_register(b), 0);
	KUNIT_EXPECT_EQ(test, attach(dev, b, FAKE_TOKEN_BASE + 1), -ENODEV);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 3);
}

/* The device goes while attached: released before ism_dev_unregister()
 * returns, so the driver never frees memory under an attachment.
 */
static void ism_contract_attach_dev_goes(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct ism_dev *dev = td_new(test, &fake_ops_full);
	struct fake_dev *fake = to_fake(dev);

	KUNIT_ASSERT_EQ(test, attach(dev, a, FAKE_TOKEN_BASE + 3), 0);
	td_unregister(test, dev);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1);
	EXPECT_ADD_REMOVE(test, a, 0, 1, 1);
}

/* A DMB without a bus address is refused: SMC 6.1 never frees one. */
static void ism_contract_dmb_zero_dma_addr(struct kunit *test)
{
	struct test_client *a = tc_new(test, 0);
	struct ism_dev *dev = td_new(test, &fake_ops_min);
	struct fake_dev *fake = to_fake(dev);

	fake->zero_dma = true;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), -EIO);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 1);
	KUNIT_EXPECT_EQ(test, fake_used(dev), 0);
	fake->zero_dma = false;
	KUNIT_EXPECT_EQ(test, tc_dmb_register(a, dev, 0, 64), 0);
}

/* Names are ASCII [A-Za-z0-9_.:-], byte by byte. */
static void ism_contract_dev_name_bytes(struct kunit *test)
{
	static const char * const bad[] = {
		"caf\xe9", "\xc0x", "a b", "a/b", "x\x7f", "\xff", ".", "..",
		"0123456789abcdef",
	};
	static const char * const good[] = {
		"a", "Z9_.:-", "0123456789abcde",
	};
	struct ism_dev *dev;
	unsigned int i;

	/* One device, renamed: a refused registration leaves it unused. */
	dev = td_alloc_unnamed(test, &fake_ops_min);
	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		KUNIT_ASSERT_EQ(test, dev_set_name(&dev->dev, "%s", bad[i]), 0);
		KUNIT_EXPECT_EQ_MSG(test, td_register(test, dev), -EINVAL,
				    "name %*phN", (int)strlen(bad[i]), bad[i]);
	}
	for (i = 0; i < ARRAY_SIZE(good); i++) {
		dev = td_alloc_unnamed(test, &fake_ops_min);
		KUNIT_ASSERT_EQ(test, dev_set_name(&dev->dev, "%s", good[i]), 0);
		KUNIT_EXPECT_EQ_MSG(test, td_register(test, dev), 0, "name %s",
				    good[i]);
	}
}

/* What a client learns from the getters, without trying. */
static void ism_contract_getters(struct kunit *test)
{
	struct ism_dev *min = td_new(test, &fake_ops_min);
	struct ism_dev *full = td_new(test, &fake_ops_full);

	KUNIT_EXPECT_EQ(test, ism_get_max_dmb_len(min), FAKE_MAX_DMB_LEN);
	KUNIT_EXPECT_EQ(test, ism_get_max_dmbs(min), FAKE_MAX_DMBS);
	KUNIT_EXPECT_FALSE(test, ism_dev_can_attach(min));
	KUNIT_EXPECT_TRUE(test, ism_dev_can_attach(full));
	KUNIT_EXPECT_PTR_EQ(test, ism_dev_device(full)->class,
			    ism_dev_device(min)->class);
	KUNIT_EXPECT_STREQ(test, dev_name(ism_dev_device(full)),
			   ism_dev_name(full));
}

static struct kunit_case ism_contract_cases[] = {
	KUNIT_CASE(ism_contract_remove_dev_waits_alone),
	KUNIT_CASE(ism_contract_add_dev_refuses),
	KUNIT_CASE(ism_contract_start_dev),
	KUNIT_CASE(ism_contract_dmb_owner_only),
	KUNIT_CASE(ism_contract_attach_double_detach),
	KUNIT_CASE(ism_contract_attach_other_client),
	KUNIT_CASE(ism_contract_attach_client_leaves),
	KUNIT_CASE(ism_contract_attach_dev_goes),
	KUNIT_CASE(ism_contract_dmb_zero_dma_addr),
	KUNIT_CASE(ism_contract_dev_name_bytes),
	KUNIT_CASE(ism_contract_getters),
	{}
};

static struct kunit_suite ism_contract_suite = {
	.name = "ism_core_contract",
	.init = ism_test_init,
	.exit = ism_test_exit,
	.test_cases = ism_contract_cases,
};

kunit_test_suites(&ism_contract_suite);
