// SPDX-License-Identifier: GPL-2.0
/*
 * ism_stress: a second client that registers and unregisters itself in a
 * loop while the workers run. It takes a DMB on every device in add_dev,
 * under the device's client lock, while the workers register theirs
 * without it; every ST_CHURN_LEFT-th round it leaves the DMBs to the core.
 * An event must reach it on a synchronous device while it is registered,
 * and nothing once it is not.
 */
#include <linux/delay.h>
#include <linux/kthread.h>
#include <linux/rcupdate.h>
#include <linux/slab.h>

#include "ism_stress.h"

/* Each time, the core releases the DMBs with a warning naming the client. */
#define ST_CHURN_LEFT	64

/* The churn thread reads it while a device's removal may free it. */
struct st_churn_dmb {
	struct ism_dmb dmb;
	struct rcu_head rcu;
};

static unsigned int st_churn_round;
static atomic_t st_churn_events = ATOMIC_INIT(0);

static int st_churn_add(struct ism_dev *dev)
{
	struct st_churn_dmb *cd;
	int ret;

	if (ism_get_priv(dev, &st_churn_client))
		st_fail("churn client added twice", 0);
	cd = kzalloc(sizeof(*cd), GFP_KERNEL);
	if (!cd)
		return -ENOMEM;
	cd->dmb.len = SZ_4K;
	ism_get_local_gid(dev, &cd->dmb.rgid);
	ret = ism_register_dmb(dev, &cd->dmb, &st_churn_client);
	if (ret) {
		if (ret != -ENOSPC)
			st_unexpected_err("churn client register", ret);
		kfree(cd);
		return ret;
	}
	st_count(ST_CLIENT_DMBS);
	ism_set_priv(dev, &st_churn_client, cd);
	return 0;
}

static void st_churn_remove(struct ism_dev *dev)
{
	struct st_churn_dmb *cd = ism_get_priv(dev, &st_churn_client);
	int ret;

	if (!cd) {
		st_fail("churn client removed but not added", 0);
		return;
	}
	if (st_churn_round % ST_CHURN_LEFT == 1) {
		st_count(ST_CLIENT_DMBS_LEFT);
	} else {
		ret = ism_unregister_dmb(dev, &cd->dmb, &st_churn_client);
		if (ret)
			st_unexpected_err("churn client unregister", ret);
	}
	/* Before the free: a reader that looks later finds nothing. */
	ism_set_priv(dev, &st_churn_client, NULL);
	kfree_rcu(cd, rcu);
}

/* Nobody writes to the churn client's DMBs: an irq is misrouted. */
static void st_churn_irq(struct ism_dev *dev, unsigned int idx, u16 mask)
{
	st_fail("irq for the churn client", idx);
}

static void st_churn_event(struct ism_dev *dev, const struct ism_event *ev)
{
	if (ev->code == ST_CHURN_EVENT_CODE)
		atomic_inc(&st_churn_events);
}

struct ism_client st_churn_client = {
	.name = "ism_stress_churn",
	.add_dev = st_churn_add,
	.remove_dev = st_churn_remove,
	.handle_irq = st_churn_irq,
	.handle_event = st_churn_event,
};

/* Events of ours that reached the churn client for one signal on @sd. */
static int st_churn_signal(struct st_dev *sd)
{
	int events = atomic_read(&st_churn_events);
	uuid_t gid;
	int ret;

	ism_get_local_gid(sd->dev, &gid);
	ret = ism_signal_event(sd->dev, &gid, 1, ST_CHURN_EVENT_CODE,
			       st_churn_round);
	if (ret)
		st_unexpected_err("churn signal_event", ret);
	return atomic_read(&st_churn_events) - events;
}

/*
 * While registered, on a synchronous device it was added to: the event
 * reaches the churn client once. The device's own registration may still
 * publish it (add_dev ran, the publication follows), so a miss is tried
 * again once before it counts. Returns the token of its DMB there, or 0.
 */
static u64 st_churn_check_in(struct st_dev *sd)
{
	struct st_churn_dmb *cd;
	u64 token = 0;
	int n;

	rcu_read_lock();
	cd = ism_get_priv(sd->dev, &st_churn_client);
	if (cd)
		token = cd->dmb.token;
	rcu_read_unlock();
	if (!sd->sync || !token)
		return 0;
	n = st_churn_signal(sd);
	if (!n) {
		msleep(20);
		n = st_churn_signal(sd);
	}
	if (n > 1)
		st_fail("churn event delivered twice", n);
	else if (!n)
		st_missed(sd, "event of the churn client");
	else
		st_count(ST_CLIENT_EVENTS);
	return token;
}

/* Unregistered: no event reaches it, and its DMB's token is dead, whether
 * it or the core released the DMB.
 */
static void st_churn_check_out(struct st_dev *sd, u64 token)
{
	u8 byte = 0;
	int ret;

	if (st_churn_signal(sd))
		st_fail("event for an unregistered client", 0);
	if (!token)
		return;
	ret = ism_move_data(sd->dev, token, 0, true, 0, &byte, 1);
	if (ret != -ENOENT)
		st_fail("token of a released churn DMB accepted", ret);
}

/* No device reference is held across (un)registering the client: the
 * st_client's remove_dev of a leaving device waits for them, under the
 * device's client lock that the (un)registration needs.
 */
int st_churn_fn(void *arg)
{
	struct st_dev *sd;
	u64 token, gen;
	int ret;

	while (!kthread_should_stop()) {
		st_churn_round++;
		ret = ism_register_client(&st_churn_client);
		if (ret) {
			st_unexpected_err("register_client", ret);
			msleep(100);
			continue;
		}
		token = 0;
		gen = 0;
		sd = st_get_dev(0);
		if (sd) {
			token = st_churn_check_in(sd);
			gen = sd->gen;
			st_put_dev(sd);
		}
		usleep_range(1000, 20000);
		ism_unregister_client(&st_churn_client);
		st_count(ST_CLIENT_CHURNS);
		sd = gen ? st_get_dev(gen) : NULL;
		if (sd) {
			st_churn_check_out(sd, token);
			st_put_dev(sd);
		}
	}
	return 0;
}
