// SPDX-License-Identifier: GPL-2.0
/*
 * The cases of ism_ivshm_hostile that go through the SMC-D bridge, built
 * where it is (the top Kbuild file), and the bridge's removal from the
 * devices for the cases that measure the driver alone.
 */
#include <linux/delay.h>
#include <linux/random.h>
#include <linux/string.h>

#include <uapi/linux/ism_user.h>

#include "../../../../net/smc/ism_smcd.h"
#include "../ism_ivshm.h"
#include "ivshm_kunit.h"
#include "ivshm_kunit_peers.h"

/*
 * The owner rewrites the descriptor of a DMB its peer writes (8 bytes
 * long now): the device refuses the write, but the writer's SMC-D bridge
 * tells SMC it went through (SMC 6.1 spins on a failed write) and ends
 * the connections that write to that token, with their peers: none here,
 * as no SMC socket has the token. So no SHUTDOWN goes to the DMB's owner,
 * who is not the peer of any connection that wrote: a token names a DMB,
 * chosen by a peer in SMC's handshake, not the peer. Nothing is written.
 * A write for a slot without a peer is dropped the same way, and so is
 * one for a DMB of the writer itself that it does not have: a peer can
 * name the writer's own slot too, and SMC must not get that failure.
 */
void ivshm_peers_smcd_write_refused(struct kunit *test)
{
	struct ism_smcd *bridge = ism_get_priv(peers.dev[1], &ism_smcd_client);
	struct ism_ivshm *iv0 = ism_dev_priv(peers.dev[0]);
	struct ism_ivshm *iv1 = ism_dev_priv(peers.dev[1]);
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
			0);
	/* The lookup of the connections ran; then the peer scans, polls. */
	flush_work(&bridge->fail_work);
	msleep(300);
	KUNIT_EXPECT_EQ(test, atomic_read(&peers.swr_events), 0);
	KUNIT_EXPECT_EQ(test, ism_unregister_dmb(peers.dev[0], &dmb,
						 &peers_client), 0);
}

/*
 * What the bridge hands SMC: a peer's end and SMC's own two software
 * events. Other codes, ism_user's above all, would each cost a queued
 * allocation in SMC that does nothing (issue: "Software events to whom
 * they are for").
 */
void ivshm_smcd_events_for_smc(struct kunit *test)
{
	static const struct {
		u8 type;
		u32 code;
		bool for_smc;
	} cases[] = {
		{ ISM_EVT_GID, 0, true },
		{ ISM_EVT_SWR, ISM_SMCD_EV_SHUTDOWN, true },
		{ ISM_EVT_SWR, ISM_SMCD_EV_TESTLINK, true },
		{ ISM_EVT_SWR, 0, false },
		{ ISM_EVT_SWR, ISM_SMCD_EV_SHUTDOWN + 1, false },
		{ ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE, false },
		{ ISM_EVT_SWR, ISM_USER_EVENT_CODE_BASE + ISM_SMCD_EV_SHUTDOWN,
		  false },
		{ ISM_EVT_SWR, U32_MAX, false },
		{ ISM_EVT_DMB, 0, false },
		{ ISM_EVT_SWR + 1, ISM_SMCD_EV_SHUTDOWN, false },
	};
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(cases); i++) {
		struct ism_event ev = { .type = cases[i].type,
					.code = cases[i].code };

		KUNIT_EXPECT_EQ_MSG(test, ism_smcd_event_for_smc(&ev),
				    cases[i].for_smc, "type %u code %#x",
				    cases[i].type, cases[i].code);
	}
}

void peers_smcd_off(void)
{
	ism_unregister_client(&ism_smcd_client);
}

int peers_smcd_on(void)
{
	return ism_register_client(&ism_smcd_client);
}
