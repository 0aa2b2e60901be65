// SPDX-License-Identifier: GPL-2.0
/*
 * KUnit suite of ism_user.ko (ism_user_kunit.ko): its per-file state, as
 * contexts without a file (no address space: nothing is mapped), on the
 * core's fake device, which the core and a hostile peer drive as they
 * would: signals and events through ism_handle_irq() and
 * ism_handle_event(), removal through ism_dev_unregister(). Mappings,
 * requests from user space, processes and RLIMIT_MEMLOCK (a kernel
 * thread has no process to charge) are user-api.sh's.
 */
#include <kunit/test.h>
#include <linux/err.h>
#include <linux/delay.h>
#include <linux/module.h>
#include <linux/sched.h>
#include <linux/stddef.h>

#include "../../tests/fake_dev.h"
#include "../ism_user.h"

/**
 * struct user_test - what a case has
 * @dev: a registered fake device, full ops
 * @registered: @dev is still registered
 * @udev: ism_user's view of @dev
 * @ctx: two users of it, closed at the end unless NULL
 */
struct user_test {
	struct ism_dev *dev;
	bool registered;
	struct ism_user_dev *udev;
	struct ism_user_ctx *ctx[2];
};

/* A registered fake device of @ops, or NULL (the case has failed). */
static struct ism_dev *user_fake_dev(struct kunit *test,
				     const struct ism_device_ops *ops)
{
	struct ism_dev *dev = fake_dev_alloc(ops);

	if (!dev) {
		KUNIT_FAIL(test, "no memory for the fake device");
		return NULL;
	}
	if (dev_set_name(&dev->dev, "usrfake%d",
			 atomic_inc_return(&fake_seq)) ||
	    ism_dev_register(dev)) {
		put_device(&dev->dev);
		KUNIT_FAIL(test, "the fake device did not register");
		return NULL;
	}
	return dev;
}

/* The end of a device of user_fake_dev(). */
static void user_fake_dev_put(struct ism_dev *dev)
{
	ism_dev_unregister(dev);
	put_device(&dev->dev);
}

static int user_test_init(struct kunit *test)
{
	struct user_test *ut = kunit_kzalloc(test, sizeof(*ut), GFP_KERNEL);
	struct ism_user_ctx *ctx;
	unsigned int i;

	KUNIT_ASSERT_NOT_NULL(test, ut);
	test->priv = ut;
	ut->dev = user_fake_dev(test, &fake_ops_full);
	if (!ut->dev)
		return -ENODEV;
	ut->registered = true;
	ut->udev = ism_get_priv(ut->dev, &ism_user_client);
	KUNIT_ASSERT_NOT_NULL(test, ut->udev);
	for (i = 0; i < ARRAY_SIZE(ut->ctx); i++) {
		ctx = ism_user_ctx_open(ut->udev, NULL);
		KUNIT_ASSERT_FALSE(test, IS_ERR(ctx));
		ut->ctx[i] = ctx;
	}
	return 0;
}

static void user_test_exit(struct kunit *test)
{
	struct user_test *ut = test->priv;
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ut->ctx); i++)
		if (ut->ctx[i])
			ism_user_ctx_close(ut->ctx[i]);
	if (ut->registered)
		ism_dev_unregister(ut->dev);
	if (ut->dev)
		put_device(&ut->dev->dev);
}

/* Registers a page for the device's own GID. */
static int user_reg(struct kunit *test, struct ism_user_ctx *ctx,
		    struct ism_user_dmb *req)
{
	struct user_test *ut = test->priv;

	*req = (struct ism_user_dmb){ .len = PAGE_SIZE };
	export_uuid(req->gid, &ut->dev->gid);
	return ism_user_register(ctx, req);
}

/* The fake's index of the DMB with @token. */
static u32 user_idx(struct kunit *test, u64 token)
{
	struct fake_dev *fake = to_fake(((struct user_test *)test->priv)->dev);
	unsigned int i;

	for (i = 0; i < FAKE_MAX_DMBS; i++)
		if (fake->slots[i].used && fake->slots[i].token == token)
			return fake->slots[i].idx;
	KUNIT_FAIL(test, "no DMB with token %llx", token);
	return 0;
}

static unsigned int user_take(struct ism_user_ctx *ctx,
			      struct ism_user_event *ev, unsigned int max)
{
	bool eof;

	return ism_user_take_events(ctx, ev, max, &eof);
}

static void user_refused_register_changes_nothing(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_dmb req;

	fake->register_err = -ENOSPC;
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[0], &req), -ENOSPC);
	KUNIT_EXPECT_EQ(test, ut->ctx[0]->nbufs, 0U);
	KUNIT_EXPECT_EQ(test, fake_used(ut->dev), 0U);
	fake->register_err = 0;

	req = (struct ism_user_dmb){ .len = PAGE_SIZE + 1 };
	KUNIT_EXPECT_EQ(test, ism_user_register(ut->ctx[0], &req), -EINVAL);
	req = (struct ism_user_dmb){ .len = PAGE_SIZE, .flags = 1 };
	KUNIT_EXPECT_EQ(test, ism_user_register(ut->ctx[0], &req), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_REGISTER_DMB], 1U);
}

static void user_close_releases_everything(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_dmb req, att;
	unsigned int i;

	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &req), 0);
	att = (struct ism_user_dmb){ .token = req.token, .key = req.key };
	KUNIT_ASSERT_EQ(test, ism_user_attach(ut->ctx[0], &att), 0);
	KUNIT_EXPECT_EQ(test, att.len, (u32)FAKE_ATTACH_LEN);
	/* The fake's memory is no page of its own: MOVE only. */
	KUNIT_EXPECT_EQ(test, att.attr, 0U);
	KUNIT_EXPECT_EQ(test, fake_used(ut->dev), 3U);

	ism_user_ctx_close(ut->ctx[0]);
	ut->ctx[0] = NULL;
	KUNIT_EXPECT_EQ(test, fake_used(ut->dev), 0U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 3U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1U);
	KUNIT_EXPECT_EQ(test, fake->unreg_unknown, 0U);
}

static void user_tokens_are_per_context(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_dmb req, att;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &req), 0);
	KUNIT_EXPECT_EQ(test, ism_user_release_token(ut->ctx[1], req.token,
						     false), -ENOENT);
	att = (struct ism_user_dmb){ .token = req.token, .key = req.key };
	KUNIT_ASSERT_EQ(test, ism_user_attach(ut->ctx[0], &att), 0);
	/* A result is no request: its out fields must be 0 again. */
	KUNIT_EXPECT_EQ(test, ism_user_attach(ut->ctx[0], &att), -EINVAL);
	att = (struct ism_user_dmb){ .token = req.token, .key = req.key };
	KUNIT_EXPECT_EQ(test, ism_user_attach(ut->ctx[0], &att), -EEXIST);
	KUNIT_EXPECT_EQ(test, ism_user_release_token(ut->ctx[1], req.token,
						     true), -ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 0U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 0U);
	KUNIT_EXPECT_EQ(test, ism_user_release_token(ut->ctx[0], req.token,
						     true), 0);
	KUNIT_EXPECT_EQ(test, ism_user_release_token(ut->ctx[0], req.token,
						     false), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 1U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1U);
}

static void user_signal_goes_to_its_owner(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct ism_user_dmb a, b;
	struct ism_user_event ev[4];

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[1], &b), 0);
	ism_handle_irq(ut->dev, user_idx(test, a.token), BIT(3));
	KUNIT_ASSERT_EQ(test, user_take(ut->ctx[0], ev, 4), 1U);
	KUNIT_EXPECT_EQ(test, ev[0].type, (u32)ISM_USER_EVENT_SIGNAL);
	KUNIT_EXPECT_EQ(test, ev[0].token, a.token);
	KUNIT_EXPECT_EQ(test, ev[0].info, (u64)BIT(3));
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[1], ev, 4), 0U);

	/* An index of no DMB, an empty mask: nothing for anyone. */
	ism_handle_irq(ut->dev, FAKE_MAX_DMBS - 1, 0xffff);
	ism_handle_irq(ut->dev, user_idx(test, b.token), 0);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 4), 0U);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[1], ev, 4), 0U);

	/* Nor for a DMB its file has unregistered. */
	KUNIT_ASSERT_EQ(test, ism_user_release_token(ut->ctx[1], b.token,
						     false), 0);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[1], ev, 4), 0U);
}

/* A peer that signals without end costs one event per DMB. */
static void user_signal_flood_merges(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct ism_user_event ev[4];
	struct ism_user_dmb a;
	unsigned int i, idx;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	idx = user_idx(test, a.token);
	/* Interrupts, one at a time: the CPU runs others between them. An
	 * emulated s390x under load took over a minute for all of them,
	 * which without a break RCU reports as a stall.
	 */
	for (i = 0; i < 100000; i++) {
		ism_handle_irq(ut->dev, idx, BIT(i % ISM_DMBE_BITS));
		if (!(i % 1024))
			cond_resched();
	}
	KUNIT_ASSERT_EQ(test, user_take(ut->ctx[0], ev, 4), 1U);
	KUNIT_EXPECT_EQ(test, ev[0].info, 0xffffULL);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 4), 0U);
}

/* An event from the device's own GID: for a DMB event @token is the DMB,
 * for a software event the DMB it is addressed to (its info).
 */
static void user_send(struct ism_dev *dev, u32 type, u32 code, u64 token)
{
	struct ism_event e = { .type = type, .code = code, .token = token,
			       .info = token };

	uuid_copy(&e.gid, &dev->gid);
	ism_handle_event(dev, &e);
}

/* A peer's events: a fixed queue, the rest counted; other clients'
 * codes never reach a file.
 */
static void user_event_flood_is_bounded(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct ism_user_event ev[8];
	struct ism_user_dmb a;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	user_send(ut->dev, ISM_EVT_SWR, 1, a.token);	/* SMC-D's codes */
	user_send(ut->dev, ISM_EVT_SWR, 2, a.token);
	user_send(ut->dev, ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE - 1, a.token);
	user_send(ut->dev, ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE +
		  ISM_USER_EVENT_CODE_MAX + 1, a.token);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 8), 0U);

	for (i = 0; i < 10000; i++) {
		user_send(ut->dev, ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE + i,
			  a.token);
		if (!(i % 1024))
			cond_resched();
	}
	KUNIT_ASSERT_EQ(test, user_take(ut->ctx[0], ev, 2), 2U);
	KUNIT_EXPECT_EQ(test, ev[0].type, (u32)ISM_USER_EVENT_LOST);
	KUNIT_EXPECT_EQ(test, ev[0].info, 10000ULL - ISM_USER_QUEUE_LEN);
	KUNIT_EXPECT_EQ(test, ev[1].type, (u32)ISM_USER_EVENT_SOFTWARE);
	KUNIT_EXPECT_EQ(test, ev[1].code, 0U);
	for (i = 1; i < ISM_USER_QUEUE_LEN; i++)
		KUNIT_ASSERT_EQ(test, user_take(ut->ctx[0], ev, 1), 1U);
	KUNIT_EXPECT_EQ(test, ev[0].code, (u32)(ISM_USER_QUEUE_LEN - 1));
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 8), 0U);
}

/* The bounded queue is read before the signals, which merge and are never
 * lost: a file with more DMBs signalling than it reads at once still gets
 * its queued events before they overflow.
 */
static void user_queue_before_signals(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct ism_user_event ev[2];
	struct ism_user_dmb d[3];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(d); i++) {
		KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &d[i]), 0);
		ism_handle_irq(ut->dev, user_idx(test, d[i].token), BIT(i));
	}
	user_send(ut->dev, ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE + 7,
		  d[0].token);
	KUNIT_ASSERT_EQ(test, user_take(ut->ctx[0], ev, 2), 2U);
	KUNIT_EXPECT_EQ(test, ev[0].type, (u32)ISM_USER_EVENT_SOFTWARE);
	KUNIT_EXPECT_EQ(test, ev[0].code, 7U);
	KUNIT_EXPECT_EQ(test, ev[1].type, (u32)ISM_USER_EVENT_SIGNAL);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 2), 2U);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 2), 0U);
}

/* A software event goes to the file of the DMB it names, if the sender is
 * the peer the DMB is for: to no other file, and nowhere for a DMB that
 * is gone or not the sender's to write.
 */
static void user_event_to_its_file(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct ism_event e = { .type = ISM_EVT_SWR,
			       .code = ISM_USER_EVENT_CODE_BASE + 5 };
	struct ism_user_event ev[4];
	struct ism_user_dmb a, b;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[1], &b), 0);
	user_send(ut->dev, ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE + 5, a.token);
	KUNIT_ASSERT_EQ(test, user_take(ut->ctx[0], ev, 4), 1U);
	KUNIT_EXPECT_EQ(test, ev[0].type, (u32)ISM_USER_EVENT_SOFTWARE);
	KUNIT_EXPECT_EQ(test, ev[0].code, 5U);
	KUNIT_EXPECT_EQ(test, ev[0].token, a.token);
	KUNIT_EXPECT_EQ(test, ev[0].info, 0ULL);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[1], ev, 4), 0U);

	/* From a peer the DMB is not for; to no DMB; to one gone. */
	e.info = a.token;
	uuid_gen(&e.gid);
	ism_handle_event(ut->dev, &e);
	user_send(ut->dev, ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE + 5,
		  a.token ^ b.token);
	KUNIT_ASSERT_EQ(test, ism_user_release_token(ut->ctx[0], a.token,
						     false), 0);
	user_send(ut->dev, ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE + 5, a.token);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 4), 0U);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[1], ev, 4), 0U);
}

/* SEND_EVENT takes the DMB's token and key, as MOVE does, and sends the
 * token as the event's info; a refused one sends nothing.
 */
static void user_send_event_needs_the_key(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_sw_event req = { .code = 9 };
	struct ism_user_dmb a;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	export_uuid(req.gid, &ut->dev->gid);
	req.token = a.token;
	req.key = a.key ^ 1;
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[1], &req), -ENOENT);
	req.key = 0;
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[1], &req), -ENOENT);
	req.key = a.key;
	req.flags = 1;
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[1], &req), -EINVAL);
	req.flags = 0;
	req.code = ISM_USER_EVENT_CODE_MAX + 1;
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[1], &req), -EINVAL);
	/* The device says the DMB is its own GID's: not that peer's. */
	req.code = 9;
	req.gid[0] ^= 1;
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[1], &req), -ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SIGNAL_EVENT], 0U);

	req.gid[0] ^= 1;
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[1], &req), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SIGNAL_EVENT], 1U);
	KUNIT_EXPECT_EQ(test, fake->last.event_code,
			ISM_USER_EVENT_CODE_BASE + 9);
	KUNIT_EXPECT_EQ(test, fake->last.info, a.token);
}

/* A user rings at most user_rings doorbells a second, a tenth of a
 * second's worth at once: SEND_EVENT and MOVE with a signal are refused
 * past it (-EAGAIN), asking the device nothing.
 */
static void user_rings_are_bounded(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_sw_event req = { .code = 1 };
	struct ism_user_move move = { .flags = ISM_USER_MOVE_SIGNAL };
	struct ism_user_dmb a;
	unsigned int i, sent = 0;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	export_uuid(req.gid, &ut->dev->gid);
	req.token = a.token;
	req.key = a.key;
	move.token = a.token;
	move.key = a.key;
	/* One ring a second, one at once: the case runs its calls well
	 * within that, even under emulation with KASAN.
	 */
	ut->udev->user_rings = 1;
	/* A request refused for its arguments rings nothing. */
	req.key = a.key ^ 1;
	for (i = 0; i < 3; i++)
		KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[0], &req),
				-ENOENT);
	req.key = a.key;
	for (i = 0; i < 10; i++)
		sent += !ism_user_send_event(ut->ctx[0], &req);
	/* A fresh share starts with a burst's worth. */
	KUNIT_EXPECT_EQ(test, sent, 1U);
	/* Another file of the same user: the same share. */
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[1], &req), -EAGAIN);
	KUNIT_EXPECT_EQ(test, ism_user_move(ut->ctx[1], &move), -EAGAIN);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_SIGNAL_EVENT], 1U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_MOVE_DATA], 0U);
	/* A MOVE without a signal rings nothing. */
	move.flags = 0;
	KUNIT_EXPECT_EQ(test, ism_user_move(ut->ctx[1], &move), 0);
	/* Refilled after a second. */
	msleep(1100);
	move.flags = ISM_USER_MOVE_SIGNAL;
	KUNIT_EXPECT_EQ(test, ism_user_move(ut->ctx[1], &move), 0);
	ut->udev->user_rings = 0;
	msleep(1100);
	KUNIT_EXPECT_EQ(test, ism_user_send_event(ut->ctx[0], &req), -EAGAIN);
}

static void user_dmb_gone_to_attachers_only(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct ism_user_event ev[4];
	struct ism_user_dmb a, att;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	att = (struct ism_user_dmb){ .token = a.token, .key = a.key };
	KUNIT_ASSERT_EQ(test, ism_user_attach(ut->ctx[1], &att), 0);
	user_send(ut->dev, ISM_EVT_DMB, 0, a.token);
	user_send(ut->dev, ISM_EVT_DMB, 0, a.token + 1);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[0], ev, 4), 0U);
	KUNIT_ASSERT_EQ(test, user_take(ut->ctx[1], ev, 4), 1U);
	KUNIT_EXPECT_EQ(test, ev[0].type, (u32)ISM_USER_EVENT_DMB_GONE);
	KUNIT_EXPECT_EQ(test, ev[0].token, a.token);

	user_send(ut->dev, ISM_EVT_GID, 0, 0);
	KUNIT_ASSERT_EQ(test, user_take(ut->ctx[0], ev, 4), 1U);
	KUNIT_EXPECT_EQ(test, ev[0].type, (u32)ISM_USER_EVENT_PEER_GONE);
	KUNIT_EXPECT_EQ(test, user_take(ut->ctx[1], ev, 4), 1U);
}

/* The device goes with users on it: all they hold is released first. */
static void user_device_removal_revokes(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_event ev[4];
	struct ism_user_dmb a, att;
	bool eof;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[1], &a), 0);
	att = (struct ism_user_dmb){ .token = a.token, .key = a.key };
	KUNIT_ASSERT_EQ(test, ism_user_attach(ut->ctx[0], &att), 0);

	ism_dev_unregister(ut->dev);
	ut->registered = false;
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 2U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_DETACH_DMB], 1U);
	KUNIT_EXPECT_EQ(test, fake_used(ut->dev), 0U);

	KUNIT_ASSERT_EQ(test, ism_user_take_events(ut->ctx[0], ev, 4, &eof), 1U);
	KUNIT_EXPECT_EQ(test, ev[0].type, (u32)ISM_USER_EVENT_DEVICE_GONE);
	KUNIT_EXPECT_EQ(test, ism_user_take_events(ut->ctx[0], ev, 4, &eof), 0U);
	KUNIT_EXPECT_TRUE(test, eof);
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[1], &a), -ENODEV);
	KUNIT_EXPECT_EQ(test, ism_user_release_token(ut->ctx[1], a.token,
						     false), -ENODEV);
	KUNIT_EXPECT_EQ(test, PTR_ERR(ism_user_ctx_open(ut->udev, NULL)),
			-ENODEV);
	/* Closing after it releases nothing twice. */
	ism_user_ctx_close(ut->ctx[0]);
	ut->ctx[0] = NULL;
	KUNIT_EXPECT_EQ(test, fake->calls[OP_UNREGISTER_DMB], 2U);
}

static void user_attach_needs_the_op(struct kunit *test)
{
	struct ism_dev *dev = user_fake_dev(test, &fake_ops_min);
	struct ism_user_dmb att = { .token = FAKE_TOKEN_BASE + 1 };
	struct ism_user_ctx *ctx;

	if (!dev)
		return;
	ctx = ism_user_ctx_open(ism_get_priv(dev, &ism_user_client), NULL);
	if (!IS_ERR(ctx)) {
		KUNIT_EXPECT_EQ(test, ism_user_attach(ctx, &att), -EOPNOTSUPP);
		KUNIT_EXPECT_EQ(test, ctx->nbufs, 0U);
		ism_user_ctx_close(ctx);
	}
	KUNIT_EXPECT_FALSE(test, IS_ERR(ctx));
	user_fake_dev_put(dev);
}

/* A MOVE of no bytes: checked as any, and writes nothing of KUnit's. */
static int user_move0(struct ism_user_ctx *ctx, u64 token, u64 key,
		      u32 offset)
{
	struct ism_user_move m = { .token = token, .key = key,
				   .offset = offset };

	return ism_user_move(ctx, &m);
}

/* A DMB of a kernel client (key 0) is out of reach of every file, with
 * any key; the device is not even asked to write or attach.
 */
static void user_kernel_dmbs_unreachable(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_dmb kdmb = { .len = PAGE_SIZE };
	struct ism_user_dmb att;
	u64 keys[] = { 0, 1, ~0ULL };
	unsigned int i;

	kdmb.rgid = ut->dev->gid;
	KUNIT_ASSERT_EQ(test, ism_register_dmb(ut->dev, &kdmb,
					       &ism_user_client), 0);
	for (i = 0; i < ARRAY_SIZE(keys); i++) {
		att = (struct ism_user_dmb){ .token = kdmb.token,
					     .key = keys[i] };
		KUNIT_EXPECT_EQ(test, ism_user_attach(ut->ctx[0], &att),
				-ENOENT);
		KUNIT_EXPECT_EQ(test, user_move0(ut->ctx[0], kdmb.token,
						 keys[i], 0), -ENOENT);
	}
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 0U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_MOVE_DATA], 0U);
	KUNIT_EXPECT_EQ(test, ut->ctx[0]->nbufs, 0U);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(ut->dev, &kdmb,
						 &ism_user_client), 0);
}

/* A user DMB: only its key opens it, to any file; a wrong key and an
 * unknown token fail alike, so that no MOVE tells which tokens exist.
 */
static void user_key_opens_a_dmb(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_dmb req, att;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &req), 0);
	KUNIT_EXPECT_NE(test, req.key, 0ULL);
	KUNIT_EXPECT_EQ(test, user_move0(ut->ctx[1], req.token, 0, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, user_move0(ut->ctx[1], req.token, req.key ^ 1, 0),
			-ENOENT);
	KUNIT_EXPECT_EQ(test, user_move0(ut->ctx[1], req.token + 1, req.key,
					 0), -ENOENT);
	att = (struct ism_user_dmb){ .token = req.token, .key = ~req.key };
	KUNIT_EXPECT_EQ(test, ism_user_attach(ut->ctx[1], &att), -ENOENT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_MOVE_DATA], 0U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 0U);

	KUNIT_EXPECT_EQ(test, user_move0(ut->ctx[1], req.token, req.key, 0), 0);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_MOVE_DATA], 1U);
	/* The whole range is checked before the device is asked. */
	KUNIT_EXPECT_EQ(test, user_move0(ut->ctx[1], req.token, req.key,
					 PAGE_SIZE + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_MOVE_DATA], 1U);
	att = (struct ism_user_dmb){ .token = req.token, .key = req.key };
	KUNIT_EXPECT_EQ(test, ism_user_attach(ut->ctx[1], &att), 0);
}

/* The last byte of field @f of struct ism_user_dmb, named. */
#define USER_FIELD(f)	{ offsetofend(struct ism_user_dmb, f) - 1, #f }

/* Every field a call does not read must be 0: one byte of each set. */
static void user_unread_fields_must_be_zero(struct kunit *test)
{
	static const struct { size_t byte; const char *name; } reg_out[] = {
		USER_FIELD(token), USER_FIELD(key), USER_FIELD(mmap_offset),
		USER_FIELD(attr), USER_FIELD(reserved),
	}, att_out[] = {
		USER_FIELD(mmap_offset), USER_FIELD(len), USER_FIELD(flags),
		USER_FIELD(gid), USER_FIELD(attr), USER_FIELD(reserved),
	};
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_dmb req, bad;
	unsigned int i;

	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &req), 0);
	for (i = 0; i < ARRAY_SIZE(reg_out); i++) {
		bad = (struct ism_user_dmb){ .len = PAGE_SIZE };
		export_uuid(bad.gid, &ut->dev->gid);
		((u8 *)&bad)[reg_out[i].byte] = 1;
		KUNIT_EXPECT_EQ_MSG(test, ism_user_register(ut->ctx[0], &bad),
				    -EINVAL, "REGISTER with %s", reg_out[i].name);
	}
	for (i = 0; i < ARRAY_SIZE(att_out); i++) {
		bad = (struct ism_user_dmb){ .token = req.token, .key = req.key };
		((u8 *)&bad)[att_out[i].byte] = 1;
		KUNIT_EXPECT_EQ_MSG(test, ism_user_attach(ut->ctx[0], &bad),
				    -EINVAL, "ATTACH with %s", att_out[i].name);
	}
	KUNIT_EXPECT_EQ(test, fake->calls[OP_REGISTER_DMB], 1U);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_ATTACH_DMB], 0U);
	KUNIT_EXPECT_EQ(test, ut->ctx[0]->nbufs, 1U);
}

/* A device that cannot check keys (PCI-ISM): no write from user space
 * unless the administrator turned unkeyed_writes on.
 */
static void user_unkeyed_writes_are_the_admins(struct kunit *test)
{
	static struct ism_device_ops ops;
	struct ism_user_dmb att = { .token = FAKE_TOKEN_BASE + 1 };
	struct ism_user_ctx *ctx;
	struct ism_user_dev *udev;
	struct ism_dev *dev;

	ops = fake_ops_full;
	ops.dmb_user_key = NULL;
	dev = user_fake_dev(test, &ops);
	if (!dev)
		return;
	udev = ism_get_priv(dev, &ism_user_client);
	ctx = ism_user_ctx_open(udev, NULL);
	if (!IS_ERR(ctx)) {
		KUNIT_EXPECT_FALSE(test, udev->unkeyed_writes);
		KUNIT_EXPECT_EQ(test, user_move0(ctx, att.token, 0, 0), -EPERM);
		KUNIT_EXPECT_EQ(test, ism_user_attach(ctx, &att), -EPERM);
		KUNIT_EXPECT_EQ(test, to_fake(dev)->calls[OP_MOVE_DATA], 0U);
		udev->unkeyed_writes = true;
		KUNIT_EXPECT_EQ(test, user_move0(ctx, att.token, 0, 0), 0);
		KUNIT_EXPECT_EQ(test, to_fake(dev)->calls[OP_MOVE_DATA], 1U);
		ism_user_ctx_close(ctx);
	}
	KUNIT_EXPECT_FALSE(test, IS_ERR(ctx));
	user_fake_dev_put(dev);
}

/* Each user's share of a device: its DMBs and bytes, over all its files;
 * a registration past either fails with -EDQUOT, asking the device
 * nothing, and an unregistration gives room back.
 */
static void user_share_per_user(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct fake_dev *fake = to_fake(ut->dev);
	struct ism_user_dmb a, b, c;

	ut->udev->user_dmbs = 2;
	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	KUNIT_ASSERT_EQ(test, user_reg(test, ut->ctx[1], &b), 0);
	/* One user (the test's), two files: the share is the user's. */
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[0], &c), -EDQUOT);
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[1], &c), -EDQUOT);
	KUNIT_EXPECT_EQ(test, fake->calls[OP_REGISTER_DMB], 2U);
	KUNIT_EXPECT_EQ(test, ism_user_release_token(ut->ctx[0], a.token,
						     false), 0);
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[1], &c), 0);

	ut->udev->user_dmbs = 10;
	ut->udev->user_bytes = 3 * PAGE_SIZE;
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[0], &a), -EDQUOT);
	/* A refused one took nothing; a closed file gives all back. */
	ism_user_ctx_close(ut->ctx[1]);
	ut->ctx[1] = NULL;
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[0], &a), 0);
	KUNIT_EXPECT_EQ(test, user_reg(test, ut->ctx[0], &a), -EDQUOT);
}

/* An attachment holds what the DMB held, after UNREGISTER too: it counts
 * in the share, so REGISTER, ATTACH, UNREGISTER in a loop stops there.
 */
static void user_share_counts_attachments(struct kunit *test)
{
	struct user_test *ut = test->priv;
	struct ism_user_dmb req, att;
	unsigned int n;
	int ret = 0;

	ut->udev->user_dmbs = 4;
	for (n = 0; n < FAKE_MAX_DMBS; n++) {
		ret = user_reg(test, ut->ctx[0], &req);
		if (ret)
			break;
		att = (struct ism_user_dmb){ .token = req.token,
					     .key = req.key };
		ret = ism_user_attach(ut->ctx[0], &att);
		ism_user_release_token(ut->ctx[0], req.token, false);
		if (ret)
			break;
	}
	/* Three whole rounds hold three attachments; the fourth's is one
	 * too many.
	 */
	KUNIT_EXPECT_EQ(test, ret, -EDQUOT);
	KUNIT_EXPECT_EQ(test, n, 3U);
}

static struct kunit_case user_cases[] = {
	KUNIT_CASE(user_refused_register_changes_nothing),
	KUNIT_CASE(user_close_releases_everything),
	KUNIT_CASE(user_tokens_are_per_context),
	KUNIT_CASE(user_signal_goes_to_its_owner),
	KUNIT_CASE(user_signal_flood_merges),
	KUNIT_CASE(user_event_flood_is_bounded),
	KUNIT_CASE(user_queue_before_signals),
	KUNIT_CASE(user_event_to_its_file),
	KUNIT_CASE(user_send_event_needs_the_key),
	KUNIT_CASE(user_rings_are_bounded),
	KUNIT_CASE(user_dmb_gone_to_attachers_only),
	KUNIT_CASE(user_device_removal_revokes),
	KUNIT_CASE(user_attach_needs_the_op),
	KUNIT_CASE(user_kernel_dmbs_unreachable),
	KUNIT_CASE(user_key_opens_a_dmb),
	KUNIT_CASE(user_unread_fields_must_be_zero),
	KUNIT_CASE(user_unkeyed_writes_are_the_admins),
	KUNIT_CASE(user_share_per_user),
	KUNIT_CASE(user_share_counts_attachments),
	{}
};

static struct kunit_suite user_suite = {
	.name = "ism_user",
	.init = user_test_init,
	.exit = user_test_exit,
	.test_cases = user_cases,
};

kunit_test_suite(user_suite);

MODULE_DESCRIPTION("KUnit suite of ism_user");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
MODULE_IMPORT_NS(ISM_USER_KUNIT);
