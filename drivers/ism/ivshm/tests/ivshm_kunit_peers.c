// SPDX-License-Identifier: GPL-2.0
/*
 * ism_ivshm_peers: two virtual ISM devices of one region that play by the
 * rules, through the real driver: DMBs registered for the other's GID,
 * writes with signals, zero-copy writes through an attachment, an owner's
 * unregistration seen by the writer, software events. Also the fixture
 * (ivshm_kunit_peers.h) that ism_ivshm_hostile shares.
 */
#include <linux/atomic.h>
#include <linux/delay.h>
#include <linux/ism.h>
#include <linux/jiffies.h>
#include <linux/module.h>
#include <linux/random.h>
#include <linux/sizes.h>
#include <linux/string.h>
#include <linux/uuid.h>

#include "../ism_ivshm.h"
#include "ivshm_kunit.h"
#include "ivshm_kunit_peers.h"

MODULE_IMPORT_NS(ISM);

static bool need_peers;
module_param(need_peers, bool, 0444);
MODULE_PARM_DESC(need_peers, "fail ism_ivshm_peers and ism_ivshm_hostile rather than skip them without two virtual ISM devices of one region and one of another");

struct ivshm_peers peers;

/* The virtual ISM devices as added, to pick the pair and the other from. */
static struct ism_dev *peers_seen[3];

static bool peers_same_region(struct ism_dev *a, struct ism_dev *b)
{
	struct ism_ivshm *iva = ism_dev_priv(a), *ivb = ism_dev_priv(b);

	return !memcmp(iva->geo.region_id, ivb->geo.region_id,
		       sizeof(iva->geo.region_id));
}

/*
 * The first two devices of one region are the peers, a device of another
 * region the one apart. By region, not CHID: two regions' CHIDs may be
 * equal (one chance in 255).
 */
static void peers_pick(void)
{
	struct ism_dev **seen = peers_seen;
	int n = ARRAY_SIZE(peers_seen), i, j;

	peers.dev[0] = NULL;
	peers.dev[1] = NULL;
	peers.apart = NULL;
	for (i = 0; i < n && !peers.dev[1]; i++) {
		for (j = i + 1; j < n && !peers.dev[1]; j++) {
			if (!seen[i] || !seen[j] ||
			    !peers_same_region(seen[i], seen[j]))
				continue;
			peers.dev[0] = seen[i];
			peers.dev[1] = seen[j];
		}
	}
	for (i = 0; i < n && peers.dev[1]; i++)
		if (seen[i] && !peers_same_region(seen[i], peers.dev[0]))
			peers.apart = seen[i];
}

static int peers_add_dev(struct ism_dev *dev)
{
	int i;

	if (strncmp(ism_dev_name(dev), "ismiv", 5))
		return 0;
	for (i = 0; i < ARRAY_SIZE(peers_seen); i++)
		if (!peers_seen[i]) {
			peers_seen[i] = dev;
			break;
		}
	return 0;
}

static void peers_remove_dev(struct ism_dev *dev)
{
	int i;

	for (i = 0; i < ARRAY_SIZE(peers_seen); i++)
		if (peers_seen[i] == dev)
			peers_seen[i] = NULL;
	if (peers.dev[0] == dev)
		peers.dev[0] = NULL;
	if (peers.dev[1] == dev)
		peers.dev[1] = NULL;
	if (peers.apart == dev)
		peers.apart = NULL;
}

/* Only the first device owns DMBs in these cases. */
static void peers_handle_irq(struct ism_dev *dev, unsigned int idx,
			     u16 dmbemask)
{
	if (dev != peers.dev[0])
		return;
	WRITE_ONCE(peers.irq_idx, idx);
	WRITE_ONCE(peers.irq_mask, dmbemask);
	atomic_inc(&peers.irqs);
}

static void peers_handle_event(struct ism_dev *dev,
			       const struct ism_event *event)
{
	if (dev == peers.dev[1] && event->type == ISM_EVT_DMB) {
		WRITE_ONCE(peers.event_token, event->token);
		atomic_inc(&peers.dmb_events);
	} else if (dev == peers.dev[0] && event->type == ISM_EVT_GID) {
		peers.event_gid = event->gid;
		atomic_inc(&peers.gid_events);
	} else if (dev == peers.dev[0] && event->type == ISM_EVT_SWR &&
		   event->code == PEERS_FLOOD_CODE) {
		if (atomic_inc_return(&peers.flood_events) == 1)
			WRITE_ONCE(peers.flood_first, jiffies);
		WRITE_ONCE(peers.flood_last, jiffies);
	} else if (dev == peers.dev[0] && event->type == ISM_EVT_SWR) {
		if (event->code == PEERS_HONEST_CODE)
			WRITE_ONCE(peers.flood_before_honest,
				   atomic_read(&peers.flood_events));
		peers.swr = *event;
		atomic_inc(&peers.swr_events);
	}
}

struct ism_client peers_client = {
	.name = "ism_ivshm_peers",
	.add_dev = peers_add_dev,
	.remove_dev = peers_remove_dev,
	.handle_irq = peers_handle_irq,
	.handle_event = peers_handle_event,
};

/* Until @done(@arg), for PEERS_WAIT at most: the other device polls. */
bool peers_until(bool (*done)(const void *arg), const void *arg)
{
	unsigned long end = jiffies + PEERS_WAIT;

	while (!done(arg)) {
		if (time_after(jiffies, end))
			return false;
		msleep(20);
	}
	return true;
}

bool peers_counted(const void *count)
{
	return atomic_read(count) > 0;
}

/* A case that needs @what, which the VM does not have: skipped or failed. */
void peers_need(struct kunit *test, const char *what)
{
	if (need_peers)
		KUNIT_FAIL(test, "no %s", what);
	else
		kunit_skip(test, "no %s", what);
}

/* Both devices see each other once their peer scans ran. */
static bool peers_reachable(const void *unused)
{
	uuid_t gid0, gid1;

	ism_get_local_gid(peers.dev[0], &gid0);
	ism_get_local_gid(peers.dev[1], &gid1);
	return !ism_query_remote_gid(peers.dev[0], &gid1, 0, 0) &&
	       !ism_query_remote_gid(peers.dev[1], &gid0, 0, 0);
}

int peers_init(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, ism_register_client(&peers_client), 0);
	peers.registered = true;
	peers_pick();
	if (!peers.dev[1]) {
		peers.registered = false;
		ism_unregister_client(&peers_client);
		peers_need(test, "two virtual ISM devices of one region");
		return -ENODEV;
	}
	if (!peers_until(peers_reachable, NULL)) {
		peers.registered = false;
		ism_unregister_client(&peers_client);
		KUNIT_FAIL(test, "the devices never saw each other");
		return -ETIMEDOUT;
	}
	atomic_set(&peers.irqs, 0);
	atomic_set(&peers.dmb_events, 0);
	atomic_set(&peers.gid_events, 0);
	atomic_set(&peers.swr_events, 0);
	atomic_set(&peers.flood_events, 0);
	return 0;
}

void peers_exit(struct kunit *test)
{
	if (peers.registered)
		ism_unregister_client(&peers_client);
	peers.registered = false;
}

/* A DMB on the first device that only @writer may write. */
void peers_register(struct kunit *test, struct ism_dmb *dmb,
			   struct ism_dev *writer)
{
	memset(dmb, 0, sizeof(*dmb));
	dmb->len = PEERS_DMB_LEN;
	ism_get_local_gid(writer, &dmb->rgid);
	KUNIT_ASSERT_EQ(test, ism_register_dmb(peers.dev[0], dmb,
					       &peers_client), 0);
}

/* Each device reaches the other, an unknown GID neither; one CHID. */
static void ivshm_peers_reach(struct kunit *test)
{
	uuid_t stranger;

	KUNIT_EXPECT_EQ(test, ism_get_chid(peers.dev[0]),
			ism_get_chid(peers.dev[1]));
	generate_random_uuid(stranger.b);
	KUNIT_EXPECT_NE(test, ism_query_remote_gid(peers.dev[0], &stranger,
						   0, 0), 0);
}

/* move_data from the writer lands in the owner's DMB and signals it. */
static void ivshm_peers_move(struct kunit *test)
{
	struct ism_dmb dmb;
	u8 buf[1000];

	peers_register(test, &dmb, peers.dev[1]);
	memset(buf, 0xa5, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ism_move_data(peers.dev[1], dmb.token, 3, true,
					    100, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_EQ(test, memcmp(dmb.cpu_addr + 100, buf, sizeof(buf)), 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_counted, &peers.irqs));
	KUNIT_EXPECT_EQ(test, READ_ONCE(peers.irq_idx), dmb.idx);
	KUNIT_EXPECT_EQ(test, READ_ONCE(peers.irq_mask), (u16)BIT(3));
	/* Past the end, a token that is not the DMB's: refused, no write. */
	KUNIT_EXPECT_EQ(test, ism_move_data(peers.dev[1], dmb.token, 0, false,
					    PEERS_DMB_LEN - 10, buf, 11),
			-EINVAL);
	KUNIT_EXPECT_NE(test, ism_move_data(peers.dev[1], dmb.token ^ 1, 0,
					    false, 0, buf, 8), 0);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, 100));
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr + 1100, 0,
					    PEERS_DMB_LEN - 1100));
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
}

/* A DMB another device may write is closed to this one. */
static void ivshm_peers_not_writer(struct kunit *test)
{
	struct ism_dmb dmb, map = { };
	u8 buf[8] = { 1 };

	peers_register(test, &dmb, peers.dev[0]);
	KUNIT_EXPECT_NE(test, ism_move_data(peers.dev[1], dmb.token, 0, true,
					    0, buf, sizeof(buf)), 0);
	map.token = dmb.token;
	KUNIT_EXPECT_NE(test, ism_attach_dmb(peers.dev[1], &map,
					     &peers_client), 0);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, PEERS_DMB_LEN));
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
}

/* The writer attaches, builds the data in place and signals it. */
static void ivshm_peers_attach(struct kunit *test)
{
	struct ism_dmb dmb, map = { };

	if (!ism_dev_can_attach(peers.dev[1]))
		kunit_skip(test, "%s cannot attach", ism_dev_name(peers.dev[1]));
	peers_register(test, &dmb, peers.dev[1]);
	map.token = dmb.token;
	KUNIT_ASSERT_EQ(test, ism_attach_dmb(peers.dev[1], &map,
					     &peers_client), 0);
	KUNIT_EXPECT_EQ(test, map.len, dmb.len);
	/* The writer's mapping is its own BAR's: the same memory. */
	memset(map.cpu_addr, 0x3c, 4096);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0x3c, 4096));
	KUNIT_EXPECT_EQ(test, ism_move_data(peers.dev[1], dmb.token, 15, true,
					    0, map.cpu_addr, 4096), 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_counted, &peers.irqs));
	KUNIT_EXPECT_EQ(test, READ_ONCE(peers.irq_mask), (u16)BIT(15));
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(peers.dev[1], map.token,
					     &peers_client), 0);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(peers.dev[1], map.token,
					     &peers_client), -ENOENT);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
}

/*
 * The owner unregisters a DMB its peer is attached to: the writer gets a
 * DMB event for the token and may no longer move data into it, while its
 * mapping stays usable until it detaches.
 */
static void ivshm_peers_unregistered(struct kunit *test)
{
	struct ism_dmb dmb, map = { };
	u8 buf[8] = { 7 };

	peers_register(test, &dmb, peers.dev[1]);
	map.token = dmb.token;
	KUNIT_ASSERT_EQ(test, ism_attach_dmb(peers.dev[1], &map,
					     &peers_client), 0);
	KUNIT_ASSERT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_counted, &peers.dmb_events));
	KUNIT_EXPECT_EQ(test, READ_ONCE(peers.event_token), map.token);
	KUNIT_EXPECT_EQ(test, ism_move_data(peers.dev[1], map.token, 0, true,
					    0, buf, sizeof(buf)), -ENOENT);
	memset(map.cpu_addr, 0x77, map.len);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(peers.dev[1], map.token,
					     &peers_client), 0);
}

/*
 * A guest's own DMB registered for a peer is the peer's to write: this
 * guest's clients may not, through move_data, an attachment or a user
 * key, although the memory is in their own partition.
 */
static void ivshm_peers_own_dmb_for_peer(struct kunit *test)
{
	struct ism_dmb dmb, map = { };
	u8 buf[8] = { 9 };
	u32 len;

	peers_register(test, &dmb, peers.dev[1]);
	KUNIT_EXPECT_EQ(test, ism_move_data(peers.dev[0], dmb.token, 0, true,
					    0, buf, sizeof(buf)), -EACCES);
	map.token = dmb.token;
	KUNIT_EXPECT_EQ(test, ism_attach_dmb(peers.dev[0], &map,
					     &peers_client), -EACCES);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(peers.dev[0], dmb.token, 0,
						 &len), -ENOENT);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, PEERS_DMB_LEN));
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
}

/*
 * A user key travels in the descriptor: the writer's kernel checks it;
 * another key, another writer, a kernel client's DMB (key 0) all fail.
 */
static void ivshm_peers_user_key(struct kunit *test)
{
	struct ism_dmb dmb, kdmb;
	u64 key = get_random_u64() | 1;
	u32 len = 0;

	memset(&dmb, 0, sizeof(dmb));
	dmb.len = PEERS_DMB_LEN;
	dmb.user_key = key;
	ism_get_local_gid(peers.dev[1], &dmb.rgid);
	KUNIT_ASSERT_EQ(test, ism_register_dmb(peers.dev[0], &dmb,
					       &peers_client), 0);
	peers_register(test, &kdmb, peers.dev[1]);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(peers.dev[1], dmb.token, key,
						 &len), 0);
	KUNIT_EXPECT_EQ(test, len, (u32)PEERS_DMB_LEN);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(peers.dev[1], dmb.token,
						 key ^ 2, &len), -ENOENT);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(peers.dev[0], dmb.token, key,
						 &len), -ENOENT);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(peers.dev[1], kdmb.token, 0,
						 &len), -ENOENT);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &kdmb,
						 &peers_client), 0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
	KUNIT_EXPECT_EQ(test, ism_check_user_key(peers.dev[1], dmb.token, key,
						 &len), -ENOENT);
}

static bool peers_overlap(const struct ism_dmb *a, const struct ism_dmb *b)
{
	return a->cpu_addr < b->cpu_addr + b->len &&
	       b->cpu_addr < a->cpu_addr + a->len;
}

/*
 * An attachment of a guest's own DMB keeps its memory after the owner
 * unregisters it: DMBs registered until the partition is full never get
 * an address the attachment still maps (a process's mapping of it would
 * reach them). Detaching gives the memory back.
 */
static void ivshm_peers_attachment_keeps_memory(struct kunit *test)
{
	struct ism_dmb old, map = { }, *fill;
	unsigned int n = 0, max, i, overlaps = 0;
	u32 len = PEERS_DMB_LEN;
	struct ism_dmb again;

	max = ism_get_max_dmbs(peers.dev[0]);
	fill = kunit_kcalloc(test, max, sizeof(*fill), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, fill);
	memset(&old, 0, sizeof(old));
	old.len = len;
	ism_get_local_gid(peers.dev[0], &old.rgid);
	KUNIT_ASSERT_EQ(test, ism_register_dmb(peers.dev[0], &old,
					       &peers_client), 0);
	map.token = old.token;
	KUNIT_ASSERT_EQ(test, ism_attach_dmb(peers.dev[0], &map,
					     &peers_client), 0);
	KUNIT_ASSERT_EQ(test, ism_unregister_dmb(peers.dev[0], &old,
						 &peers_client), 0);
	for (; n < max; n++) {
		fill[n] = (struct ism_dmb){ .len = len, .rgid = old.rgid };
		if (ism_register_dmb(peers.dev[0], &fill[n], &peers_client))
			break;
		overlaps += peers_overlap(&fill[n], &map);
	}
	KUNIT_EXPECT_GT(test, n, 0U);
	KUNIT_EXPECT_EQ_MSG(test, overlaps, 0U,
			    "%u of %u new DMBs in the attached memory",
			    overlaps, n);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(peers.dev[0], map.token,
					     &peers_client), 0);
	/* Its memory, freed, holds one more DMB. */
	again = (struct ism_dmb){ .len = len, .rgid = old.rgid };
	KUNIT_EXPECT_EQ(test, ism_register_dmb(peers.dev[0], &again,
					       &peers_client), 0);
	if (again.token)
		ism_unregister_dmb(peers.dev[0], &again, &peers_client);
	for (i = 0; i < n; i++)
		ism_unregister_dmb(peers.dev[0], &fill[i], &peers_client);
}

/* A software event reaches the peer's clients with the sender's GID. */
static void ivshm_peers_event(struct kunit *test)
{
	uuid_t gid0, gid1, stranger;

	ism_get_local_gid(peers.dev[0], &gid0);
	ism_get_local_gid(peers.dev[1], &gid1);
	KUNIT_ASSERT_EQ(test, ism_signal_event(peers.dev[1], &gid0, 1, 0x4242,
					       U64_MAX - 1), 0);
	KUNIT_ASSERT_TRUE(test, peers_until(peers_counted, &peers.swr_events));
	KUNIT_EXPECT_EQ(test, peers.swr.code, 0x4242U);
	KUNIT_EXPECT_EQ(test, peers.swr.info, U64_MAX - 1);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&peers.swr.gid, &gid1));
	/* To a GID not in the region: refused, nothing sent. */
	generate_random_uuid(stranger.b);
	KUNIT_EXPECT_NE(test, ism_signal_event(peers.dev[1], &stranger, 1, 1,
					       1), 0);
	msleep(300);
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.swr_events), 1);
}

/* A fake peer in a free slot that the first device takes for present. */
u32 peers_fake_slot(struct kunit *test, uuid_t *gid)
{
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	struct ism_ivshm *iv1 = ism_dev_priv(peers.dev[1]);
	struct ivshm_slot *slot;
	u32 s = 0;

	while (s == iv0->slot || s == iv1->slot)
		s++;
	slot = ivshm_slot(&iv0->geo, iv0->region, s);
	memset(gid, 0, sizeof(*gid));
	get_random_bytes(gid->b, 8);
	gid->b[0] |= 1;
	export_uuid(slot->gid, gid);
	slot->doorbell = cpu_to_le32(IVSHM_NO_DOORBELL);
	slot->heartbeat = cpu_to_le64(1);
	WRITE_ONCE(slot->state, cpu_to_le32(IVSHM_SLOT_ACTIVE));
	WRITE_ONCE(slot->cookie, cpu_to_le64(get_random_u64() | 1));
	return s;
}

bool peers_fake_present(const void *gid)
{
	return !ism_query_remote_gid(peers.dev[0], gid, 0, 0);
}

static bool peers_fake_gone(const void *gid)
{
	return !peers_fake_present(gid);
}

/* The fake peer @gid of peers_fake_slot() leaves slot @s. */
void peers_fake_leave(struct kunit *test, u32 s, const uuid_t *gid)
{
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	struct ivshm_slot *slot = ivshm_slot(&iv0->geo, iv0->region, s);

	WRITE_ONCE(slot->state, cpu_to_le32(IVSHM_SLOT_FREE));
	WRITE_ONCE(slot->cookie, 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_fake_gone, gid));
	/* Its GID event reaches the client after the peer is dropped. */
	msleep(100);
}

static struct kunit_case ivshm_peers_cases[] = {
	KUNIT_CASE(ivshm_peers_reach),
	KUNIT_CASE(ivshm_peers_move),
	KUNIT_CASE(ivshm_peers_not_writer),
	KUNIT_CASE(ivshm_peers_attach),
	KUNIT_CASE(ivshm_peers_unregistered),
	KUNIT_CASE(ivshm_peers_own_dmb_for_peer),
	KUNIT_CASE(ivshm_peers_user_key),
	KUNIT_CASE(ivshm_peers_attachment_keeps_memory),
	KUNIT_CASE(ivshm_peers_event),
	{}
};

struct kunit_suite ivshm_peers_suite = {
	.name = "ism_ivshm_peers",
	.init = peers_init,
	.exit = peers_exit,
	.test_cases = ivshm_peers_cases,
};
