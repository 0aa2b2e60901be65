// SPDX-License-Identifier: GPL-2.0
/*
 * ism_ivshm_hostile: what a peer that does not play by the rules (another
 * guest, or the host) can do to a virtual ISM device, through the real
 * driver, on the fixture of ivshm_kunit_peers.h: writes its descriptor
 * makes fail (what the SMC-D bridge makes of them: ivshm_kunit_smcd.c),
 * floods of events, paced or in one burst, a queue head rewound, a device
 * of another region in the same guest, and, last, a device whose slot
 * another party took.
 */
#include <linux/delay.h>
#include <linux/jiffies.h>
#include <linux/kernel_stat.h>
#include <linux/string.h>

#include "../ism_ivshm.h"
#include "ivshm_kunit.h"
#include "ivshm_kunit_peers.h"

static bool peers_flooded(const void *count)
{
	return atomic_read(&peers.flood_events) >= *(const int *)count;
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
	u32 f;
	int i;

	ism_get_local_gid(peers.dev[0], &gid0);
	f = peers_fake_slot(test, &fake);
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

	peers_fake_leave(test, f, &fake);
}

/* Nanoseconds all CPUs spent in the kernel so far: system, irq, softirq. */
static u64 peers_kernel_ns(void)
{
	struct kernel_cpustat kcs;
	u64 ns = 0;
	int cpu;

	for_each_online_cpu(cpu) {
		kcpustat_cpu_fetch(&kcs, cpu);
		ns += kcs.cpustat[CPUTIME_SYSTEM] + kcs.cpustat[CPUTIME_IRQ] +
		      kcs.cpustat[CPUTIME_SOFTIRQ];
	}
	return ns;
}

/*
 * For @secs seconds, a fake peer in slot @f posts a batch of @batch
 * events to the first device whenever it took the last one, as a peer
 * that knows the budget would: each batch fits one pass, and the poll
 * (every poll_us, as a doorbell would) asks for one at once. With
 * @batch 0 the peer only waits. Return: the kernel's CPU time meanwhile.
 */
static u64 peers_pace(u32 f, int batch, unsigned int secs)
{
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	struct ism_event ev = { .type = ISM_EVT_SWR, .code = PEERS_FLOOD_CODE };
	u64 head = ivshm_evq_head(&iv0->geo, iv0->region, f, iv0->slot);
	unsigned long end = jiffies + secs * HZ;
	u64 ns = peers_kernel_ns();
	int i;

	while (time_before(jiffies, end)) {
		if (batch && READ_ONCE(iv0->ev_seen[f]) == head) {
			for (i = 1; i <= batch; i++)
				ivshm_post_event(&iv0->geo, iv0->region, f,
						 iv0->slot, head + i, &ev);
			head += batch;
		}
		usleep_range(50, 100);
	}
	return peers_kernel_ns() - ns;
}

/*
 * A peer floods the first device just under the budget: a batch of
 * ISM_IVSHM_RX_BUDGET - 1 events each time the last was taken, for two
 * seconds. However fast it posts and rings (here: the poll), the device
 * hands its clients at most ISM_IVSHM_RX_BUDGET events a jiffy; the
 * kernel's CPU time is printed, against a quiet second of the same fake
 * peer. The bound is the driver's: for as long, the SMC-D bridge is off
 * the devices, as its cost per event (SMC's work item each) would limit
 * the rate before the driver does in a debug kernel under emulation.
 */
static void ivshm_peers_event_paced(struct kunit *test)
{
	const unsigned int secs = 2;
	u64 quiet_ns, flood_ns;
	int events, bound;
	uuid_t fake;
	u32 f;

	peers_smcd_off();
	f = peers_fake_slot(test, &fake);
	KUNIT_ASSERT_TRUE(test, peers_until(peers_fake_present, &fake));
	quiet_ns = peers_pace(f, 0, 1);
	atomic_set(&peers.flood_events, 0);
	flood_ns = peers_pace(f, ISM_IVSHM_RX_BUDGET - 1, secs);
	events = atomic_read(&peers.flood_events);
	/* A jiffy of slack at each end of the window. */
	bound = ISM_IVSHM_RX_BUDGET * (secs * HZ + 2);
	kunit_info(test, "paced flood: %d events in %u s handed to the client (bound %d); kernel CPU %llu ms in %u s, %llu ms in 1 s without",
		   events, secs, bound, flood_ns / NSEC_PER_MSEC, secs,
		   quiet_ns / NSEC_PER_MSEC);
	KUNIT_EXPECT_LE(test, events, bound);
	/* The flood ran: more than a few passes' worth got through. */
	KUNIT_EXPECT_GE(test, events, bound / 8);

	peers_fake_leave(test, f, &fake);
	KUNIT_EXPECT_EQ(test, peers_smcd_on(), 0);
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
 * A device of another region in the same guest (ivshm-kunit.sh gives the
 * VM one): the CHID of its own region's identity, and no way into this
 * region: neither side reaches the other's GID, a token of this region
 * names nothing there, and a DMB of this region registered for its GID is
 * never written or signalled.
 */
static void ivshm_peers_apart(struct kunit *test)
{
	struct ism_ivshm *iv, *apart;
	struct ism_dmb dmb;
	uuid_t gid0, gid_apart;
	u8 buf[64];

	if (!peers.apart) {
		peers_need(test, "virtual ISM device of another region");
		return;
	}
	iv = ism_dev_priv(peers.dev[0]);
	apart = ism_dev_priv(peers.apart);
	KUNIT_EXPECT_EQ(test, ism_get_chid(peers.dev[0]), ivshm_chid(&iv->geo));
	KUNIT_EXPECT_EQ(test, ism_get_chid(peers.apart),
			ivshm_chid(&apart->geo));
	ism_get_local_gid(peers.dev[0], &gid0);
	ism_get_local_gid(peers.apart, &gid_apart);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(peers.apart, &gid0, 0, 0),
			-EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(peers.dev[0], &gid_apart,
						   0, 0), -EHOSTUNREACH);
	KUNIT_EXPECT_EQ(test, ism_signal_event(peers.apart, &gid0, 1, 1, 1),
			-EHOSTUNREACH);

	peers_register(test, &dmb, peers.apart);
	memset(buf, 0xa5, sizeof(buf));
	KUNIT_EXPECT_EQ(test, ism_move_data(peers.apart, dmb.token, 0, true, 0,
					    buf, sizeof(buf)), -ENOENT);
	/* Peer scans and polls of both regions, to deliver what came. */
	msleep(300);
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, PEERS_DMB_LEN));
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.irqs), 0);
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.swr_events), 0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
}

/*
 * Another party (a newcomer that took the slot of a guest paused past the
 * peer timeout, or the host) rewrites the second device's cookie and makes
 * the partition its own. From then on nothing in that guest writes into
 * the region: every operation fails with -ENODEV, the DMB it still had is
 * released without a trace in the partition, no signal is taken and no
 * heartbeat beaten; and what its clients still hold, the memory of their
 * own DMB (SMC zeroes it as it frees a connection) and an attachment to
 * the peer's, writes nowhere. It leaves its clients as a removal does, and
 * the first device reports it gone. The region is looked at through the
 * first device's function: the lost one no longer maps it. The device
 * stays lost: this case runs last.
 */
static void ivshm_peers_slot_taken(struct kunit *test)
{
	struct ism_dev *lost = peers.dev[1];
	struct ism_ivshm *iv = ism_dev_priv(lost);
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	struct ivshm_slot *slot = ivshm_slot(&iv0->geo, iv0->region, iv->slot);
	void *part = ivshm_data(&iv0->geo, iv0->region, iv->slot, 0) -
		     iv0->geo.data_off;
	struct ism_dmb dmb, own = { .len = PEERS_DMB_LEN }, more, map = { };
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
	map.token = dmb.token;
	KUNIT_ASSERT_EQ(test, ism_attach_dmb(lost, &map, &peers_client), 0);

	WRITE_ONCE(slot->cookie, cpu_to_le64(iv->cookie + 1));
	memset(part, 0x5a, iv0->geo.part_size);
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
	ret = ism_unregister_dmb(lost, &own, &peers_client);
	KUNIT_EXPECT_TRUE(test, ret == -ENODEV || ret == -ENOENT);
	/* What SMC does to a DMB it frees, and a client's zero-copy write. */
	memset(own.cpu_addr, 0, own.len);
	memset(map.cpu_addr, 0x77, map.len);

	KUNIT_EXPECT_TRUE(test, peers_until(peers_left, NULL));
	/* Three peer scans (scan_ms=100) and many polls, to write if any did. */
	msleep(300);
	KUNIT_EXPECT_FALSE(test, memchr_inv(part, 0x5a, iv0->geo.part_size));
	KUNIT_EXPECT_EQ(test, le64_to_cpu(READ_ONCE(slot->heartbeat)),
			heartbeat);
	KUNIT_EXPECT_EQ(test, le64_to_cpu(READ_ONCE(slot->cookie)),
			iv->cookie + 1);

	KUNIT_EXPECT_TRUE(test, peers_until(peers_counted, &peers.gid_events));
	KUNIT_EXPECT_TRUE(test, uuid_equal(&peers.event_gid, &gid1));
	KUNIT_EXPECT_FALSE(test, memchr_inv(dmb.cpu_addr, 0, PEERS_DMB_LEN));
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
}

static struct kunit_case ivshm_hostile_cases[] = {
	IVSHM_SMCD_CASES
	IVSHM_SMCD_TABLE_CASES
	KUNIT_CASE(ivshm_peers_event_flood),
	KUNIT_CASE(ivshm_peers_event_paced),
	KUNIT_CASE(ivshm_peers_event_replay),
	KUNIT_CASE(ivshm_peers_apart),
	KUNIT_CASE(ivshm_peers_slot_taken),
	{}
};

/* Runs after ism_ivshm_peers: its last case leaves a device lost. */
struct kunit_suite ivshm_hostile_suite = {
	.name = "ism_ivshm_hostile",
	.init = peers_init,
	.exit = peers_exit,
	.test_cases = ivshm_hostile_cases,
};
