// SPDX-License-Identifier: GPL-2.0
/*
 * ism_ivshm_peers: two virtual ISM devices of one region, through the
 * real driver. tools/testing/ism/ivshm-kunit.sh gives a test VM two
 * ivshmem-plain functions mapping one file, so the two devices are peers
 * of one region as two guests would be: DMBs registered for the other's
 * GID, writes with signals, zero-copy writes through an attachment, an
 * owner's unregistration seen by the writer, software events, the SMC-D
 * bridge's answer to a write that a peer's descriptor makes fail and,
 * last, a device whose slot another party took. Elsewhere the cases are skipped,
 * unless ism_ivshm_kunit.need_peers=1 makes that a failure.
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

#include "../../net/smc/ism_smcd.h"
#include "ism_ivshm.h"
#include "ivshm_kunit.h"

MODULE_IMPORT_NS(ISM);

static bool need_peers;
module_param(need_peers, bool, 0444);
MODULE_PARM_DESC(need_peers, "fail ism_ivshm_peers rather than skip it without two virtual ISM devices of one region");

#define PEERS_DMB_LEN	SZ_64K
#define PEERS_WAIT	(5 * HZ)

/*
 * What the test client saw. The client callbacks get only the device, so
 * the state is the module's; the cases of one suite run one at a time.
 */
static struct {
	struct ism_dev *dev[2];
	atomic_t irqs;
	u32 irq_idx;
	u16 irq_mask;
	atomic_t dmb_events;
	u64 event_token;
	atomic_t gid_events;
	uuid_t event_gid;
	atomic_t swr_events;
	struct ism_event swr;
	atomic_t flood_events;
	unsigned long flood_first;
	unsigned long flood_last;
	int flood_before_honest;
	bool registered;
} peers;

/* Software event codes of the flood case: the flooding peer's, the other's. */
#define PEERS_FLOOD_CODE	0x7777
#define PEERS_HONEST_CODE	0x4343

static int peers_add_dev(struct ism_dev *dev)
{
	if (strncmp(ism_dev_name(dev), "ismiv", 5))
		return 0;
	if (!peers.dev[0])
		peers.dev[0] = dev;
	else if (!peers.dev[1] && ism_get_chid(dev) == ism_get_chid(peers.dev[0]))
		peers.dev[1] = dev;
	return 0;
}

static void peers_remove_dev(struct ism_dev *dev)
{
	if (peers.dev[0] == dev)
		peers.dev[0] = NULL;
	if (peers.dev[1] == dev)
		peers.dev[1] = NULL;
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

static struct ism_client peers_client = {
	.name = "ism_ivshm_peers",
	.add_dev = peers_add_dev,
	.remove_dev = peers_remove_dev,
	.handle_irq = peers_handle_irq,
	.handle_event = peers_handle_event,
};

/* Until @done(@arg), for PEERS_WAIT at most: the other device polls. */
static bool peers_until(bool (*done)(const void *arg), const void *arg)
{
	unsigned long end = jiffies + PEERS_WAIT;

	while (!done(arg)) {
		if (time_after(jiffies, end))
			return false;
		msleep(20);
	}
	return true;
}

static bool peers_counted(const void *count)
{
	return atomic_read(count) > 0;
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

static int peers_init(struct kunit *test)
{
	KUNIT_ASSERT_EQ(test, ism_register_client(&peers_client), 0);
	peers.registered = true;
	if (!peers.dev[1]) {
		peers.registered = false;
		ism_unregister_client(&peers_client);
		if (!need_peers)
			kunit_skip(test, "no two virtual ISM devices of one region");
		KUNIT_FAIL(test, "no two virtual ISM devices of one region");
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

static void peers_exit(struct kunit *test)
{
	if (peers.registered)
		ism_unregister_client(&peers_client);
	peers.registered = false;
}

/* A DMB on the first device that only @writer may write. */
static void peers_register(struct kunit *test, struct ism_dmb *dmb,
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
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb), 0);
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
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb), 0);
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
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb), 0);
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
	KUNIT_ASSERT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb), 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_counted, &peers.dmb_events));
	KUNIT_EXPECT_EQ(test, READ_ONCE(peers.event_token), map.token);
	KUNIT_EXPECT_EQ(test, ism_move_data(peers.dev[1], map.token, 0, true,
					    0, buf, sizeof(buf)), -ENOENT);
	memset(map.cpu_addr, 0x77, map.len);
	KUNIT_EXPECT_EQ(test, ism_detach_dmb(peers.dev[1], map.token,
					     &peers_client), 0);
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

/*
 * The owner rewrites the descriptor of a DMB its peer writes (8 bytes
 * long now): the device refuses the write, but the writer's SMC-D bridge
 * tells SMC it went through (SMC 6.1 spins on a failed write), asks the
 * owner to end its link groups with the writer (a SHUTDOWN for all VLANs)
 * and ends its own (a GID event into SMC). Nothing is written. A write
 * for a slot without a peer is dropped too (the peer's departure was
 * reported to SMC), without a SHUTDOWN to anyone; one for a DMB of the
 * writer itself is the writer's own failure, which SMC gets.
 */
static void ivshm_peers_smcd_write_refused(struct kunit *test)
{
	struct ism_smcd *bridge = ism_get_priv(peers.dev[1], &ism_smcd_client);
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	struct ism_ivshm *iv1 = ism_dev_priv(peers.dev[1]);
	struct ism_smcd_ev_info info;
	struct ivshm_dmb_desc desc;
	struct smcd_dev *smcd;
	struct ism_dmb dmb;
	u8 buf[64] = { 3 };
	u32 empty = 0;
	uuid_t gid1;

	KUNIT_ASSERT_NOT_NULL_MSG(test, bridge, "ism_smcd is not loaded");
	smcd = bridge->smcd;
	ism_get_local_gid(peers.dev[1], &gid1);
	peers_register(test, &dmb, peers.dev[1]);
	desc.token = cpu_to_le64(dmb.token);
	desc.offset = cpu_to_le32(dmb.cpu_addr -
				  ivshm_data(&iv0->geo, iv0->region,
					     iv0->slot, 0));
	desc.len = cpu_to_le32(8);
	export_uuid(desc.rgid, &gid1);
	ivshm_publish_dmb(&iv0->geo, iv0->region, iv0->slot, dmb.idx, &desc);

	KUNIT_EXPECT_EQ(test, ism_move_data(peers.dev[1], dmb.token, 0, true,
					    0, buf, sizeof(buf)), -EINVAL);
	KUNIT_EXPECT_EQ(test, smcd->ops->move_data(smcd, dmb.token, 0, true, 0,
						   buf, sizeof(buf)), 0);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, PEERS_DMB_LEN));
	KUNIT_ASSERT_TRUE(test, peers_until(peers_counted, &peers.swr_events));
	KUNIT_EXPECT_EQ(test, peers.swr.code, (u32)ISM_SMCD_EV_SHUTDOWN);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&peers.swr.gid, &gid1));
	memcpy(&info, &peers.swr.info, sizeof(info));
	KUNIT_EXPECT_EQ(test, info.vlan_id, (u16)VLAN_VID_MASK);
	KUNIT_EXPECT_EQ(test, info.code, (u16)ISM_SMCD_EV_REQUEST);

	while (empty == iv0->slot || empty == iv1->slot)
		empty++;
	KUNIT_EXPECT_EQ(test, smcd->ops->move_data(smcd,
						   ivshm_token(empty, 1, get_random_u64()),
						   0, true, 0, buf, sizeof(buf)),
			0);
	KUNIT_EXPECT_EQ(test, smcd->ops->move_data(smcd,
						   ivshm_token(iv1->slot,
							       iv1->geo.max_dmbs - 1,
							       get_random_u64()),
						   0, true, 0, buf, sizeof(buf)),
			-ENOENT);
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.swr_events), 1);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb), 0);
}

static bool peers_flooded(const void *count)
{
	return atomic_read(&peers.flood_events) >= *(const int *)count;
}

/* A fake peer in a free slot that the first device takes for present. */
static u32 peers_fake_slot(struct kunit *test, uuid_t *gid)
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

static bool peers_fake_present(const void *gid)
{
	return !ism_query_remote_gid(peers.dev[0], gid, 0, 0);
}

static bool peers_fake_gone(const void *gid)
{
	return !peers_fake_present(gid);
}

/*
 * A peer floods the first device with a full queue of events, then the
 * other sends one: the receive path takes at most ISM_IVSHM_RX_BUDGET
 * events from a peer per pass, a jiffy apart while a backlog remains, so
 * the flood is spread over several jiffies, the other's event does not
 * wait behind it, and every event arrives exactly once.
 */
static void ivshm_peers_event_flood(struct kunit *test)
{
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	struct ism_event ev = { .type = ISM_EVT_SWR, .code = PEERS_FLOOD_CODE };
	int n = iv0->geo.evq_len, passes = DIV_ROUND_UP(n, ISM_IVSHM_RX_BUDGET);
	int before_honest;
	long spread;
	u64 head;
	uuid_t fake, gid0;
	struct ivshm_slot *slot;
	u32 f;
	int i;

	ism_get_local_gid(peers.dev[0], &gid0);
	f = peers_fake_slot(test, &fake);
	slot = ivshm_slot(&iv0->geo, iv0->region, f);
	KUNIT_ASSERT_TRUE(test, peers_until(peers_fake_present, &fake));
	head = ivshm_evq_head(&iv0->geo, iv0->region, f, iv0->slot);
	for (i = 1; i <= n; i++)
		ivshm_post_event(&iv0->geo, iv0->region, f, iv0->slot,
				 head + i, &ev);
	KUNIT_ASSERT_EQ(test, ism_signal_event(peers.dev[1], &gid0, 1,
					       PEERS_HONEST_CODE, 0), 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_counted, &peers.swr_events));
	KUNIT_EXPECT_TRUE(test, peers_until(peers_flooded, &n));
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.flood_events), n);
	/* A pass in progress when the flood came may have taken a share. */
	before_honest = READ_ONCE(peers.flood_before_honest);
	KUNIT_EXPECT_LE(test, before_honest, 2 * ISM_IVSHM_RX_BUDGET);
	spread = READ_ONCE(peers.flood_last) - READ_ONCE(peers.flood_first);
	KUNIT_EXPECT_GE(test, spread, (long)passes - 2);

	WRITE_ONCE(slot->state, cpu_to_le32(IVSHM_SLOT_FREE));
	WRITE_ONCE(slot->cookie, 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_fake_gone, &fake));
	/* Its GID event reaches the client after the peer is dropped. */
	msleep(100);
}

static bool peers_swr_n(const void *n)
{
	return atomic_read(&peers.swr_events) >= *(const int *)n;
}

/*
 * A peer (or the host) rewinds the head of a queue, then puts it back:
 * the entries behind it are old events (a SHUTDOWN would end connections
 * again), and none is delivered twice. Later events still are.
 */
static void ivshm_peers_event_replay(struct kunit *test)
{
	struct ism_ivshm *iv1 = ism_dev_priv(peers.dev[1]);
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	const struct ivshm_geo *geo = &iv1->geo;
	__le64 *head = ivshm_data(geo, iv1->region, iv1->slot, 0) -
		       geo->data_off + geo->evq_off +
		       iv0->slot * geo->evq_size;
	int three = 3, four = 4, i;
	uuid_t gid0;
	u64 old;

	ism_get_local_gid(peers.dev[0], &gid0);
	for (i = 0; i < 3; i++)
		KUNIT_ASSERT_EQ(test, ism_signal_event(peers.dev[1], &gid0, 1,
						       0x5151, i), 0);
	KUNIT_ASSERT_TRUE(test, peers_until(peers_swr_n, &three));
	old = le64_to_cpu(READ_ONCE(*head));
	KUNIT_ASSERT_EQ(test, old, ivshm_evq_head(geo, iv1->region, iv1->slot,
						  iv0->slot));
	WRITE_ONCE(*head, cpu_to_le64(old - 3));
	msleep(300);
	WRITE_ONCE(*head, cpu_to_le64(old));
	msleep(300);
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.swr_events), 3);
	KUNIT_ASSERT_EQ(test, ism_signal_event(peers.dev[1], &gid0, 1, 0x5151,
					       9), 0);
	KUNIT_EXPECT_TRUE(test, peers_until(peers_swr_n, &four));
	msleep(100);
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.swr_events), 4);
	KUNIT_EXPECT_EQ(test, peers.swr.info, 9ULL);
}

static bool peers_left(const void *unused)
{
	return !READ_ONCE(peers.dev[1]);
}

/*
 * Another party (a newcomer that took the slot of a guest paused past the
 * peer timeout, or the host) rewrites the second device's cookie and makes
 * the partition its own. From then on that device writes nothing into the
 * region: every operation fails with -ENODEV, the DMB it still had is
 * released without a trace in the partition, no signal is taken and no
 * heartbeat beaten; it leaves its clients as a removal does, and the
 * first device reports it gone. The device stays lost: this case runs
 * last.
 */
static void ivshm_peers_slot_taken(struct kunit *test)
{
	struct ism_dev *lost = peers.dev[1];
	struct ism_ivshm *iv = ism_dev_priv(lost);
	struct ivshm_slot *slot = ivshm_slot(&iv->geo, iv->region, iv->slot);
	void *part = ivshm_data(&iv->geo, iv->region, iv->slot, 0) -
		     iv->geo.data_off;
	struct ism_dmb dmb, own = { .len = PEERS_DMB_LEN }, more;
	u8 buf[8] = { 9 };
	uuid_t gid0, gid1, owner;
	u64 heartbeat;
	int ret;

	ism_get_local_gid(peers.dev[0], &gid0);
	ism_get_local_gid(lost, &gid1);
	peers_register(test, &dmb, lost);
	own.rgid = gid0;
	KUNIT_ASSERT_EQ(test, ism_register_dmb(lost, &own, &peers_client), 0);
	more = own;

	WRITE_ONCE(slot->cookie, cpu_to_le64(iv->cookie + 1));
	memset(part, 0x5a, iv->geo.part_size);
	heartbeat = le64_to_cpu(READ_ONCE(slot->heartbeat));

	KUNIT_EXPECT_EQ(test, ism_move_data(lost, dmb.token, 0, true, 0, buf,
					    sizeof(buf)), -ENODEV);
	KUNIT_EXPECT_EQ(test, ism_move_data(lost, own.token, 0, true, 0, buf,
					    sizeof(buf)), -ENODEV);
	KUNIT_EXPECT_EQ(test, ism_signal_event(lost, &gid0, 1, 1, 1), -ENODEV);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(lost, &gid0, 0, 0),
			-ENODEV);
	KUNIT_EXPECT_EQ(test, ism_dmb_owner(lost, dmb.token, &owner), -ENODEV);
	KUNIT_EXPECT_EQ(test, ism_register_dmb(lost, &more, &peers_client),
			-ENODEV);
	/* -ENOENT if the device's leave released the DMB first. */
	ret = ism_unregister_dmb(lost, &own);
	KUNIT_EXPECT_TRUE(test, ret == -ENODEV || ret == -ENOENT);

	KUNIT_EXPECT_TRUE(test, peers_until(peers_left, NULL));
	/* Three peer scans (scan_ms=100) and many polls, to write if any did. */
	msleep(300);
	KUNIT_EXPECT_FALSE(test, memchr_inv(part, 0x5a, iv->geo.part_size));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(READ_ONCE(slot->heartbeat)),
			heartbeat);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(READ_ONCE(slot->cookie)),
			iv->cookie + 1);

	KUNIT_EXPECT_TRUE(test, peers_until(peers_counted, &peers.gid_events));
	KUNIT_EXPECT_TRUE(test, uuid_equal(&peers.event_gid, &gid1));
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, PEERS_DMB_LEN));
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb), 0);
}

static struct kunit_case ivshm_peers_cases[] = {
	KUNIT_CASE(ivshm_peers_reach),
	KUNIT_CASE(ivshm_peers_move),
	KUNIT_CASE(ivshm_peers_not_writer),
	KUNIT_CASE(ivshm_peers_attach),
	KUNIT_CASE(ivshm_peers_unregistered),
	KUNIT_CASE(ivshm_peers_event),
	KUNIT_CASE(ivshm_peers_smcd_write_refused),
	KUNIT_CASE(ivshm_peers_event_flood),
	KUNIT_CASE(ivshm_peers_event_replay),
	KUNIT_CASE(ivshm_peers_slot_taken),
	{}
};

struct kunit_suite ivshm_peers_suite = {
	.name = "ism_ivshm_peers",
	.init = peers_init,
	.exit = peers_exit,
	.test_cases = ivshm_peers_cases,
};
