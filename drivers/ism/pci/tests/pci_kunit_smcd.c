// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci_smcd: SMC-D's use of two modelled functions on one fabric, end
 * to end: through the SMC-D devices the ism_smcd bridge registered with
 * SMC for them, the core, the driver and the model, and back up through
 * the interrupt, the core and the bridge into SMC, whose answer to a
 * TESTLINK event comes back the same way.
 */
#include <linux/delay.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "../../../../net/smc/ism_smcd.h"
#include "pci_kunit.h"

static struct smcd_dev *ism_pci_smcd_of(struct kunit *test,
					struct ism_model_fn *fn)
{
	struct ism_smcd *bridge;

	bridge = ism_get_priv(ism_pci_test_dev(fn), &ism_smcd_client);
	KUNIT_ASSERT_NOT_NULL(test, bridge);
	KUNIT_ASSERT_NOT_NULL(test, bridge->smcd);
	return bridge->smcd;
}

static void ism_pci_smcd_bridged(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct smcd_dev *a = ism_pci_smcd_of(test, t->a);
	struct smcd_dev *b = ism_pci_smcd_of(test, t->b);

	KUNIT_EXPECT_EQ(test, a->local_gid, ISM_PCI_TEST_GID_A);
	KUNIT_EXPECT_EQ(test, b->local_gid, ISM_PCI_TEST_GID_B);
	KUNIT_EXPECT_EQ(test, a->ops->get_chid(a), ISM_PCI_TEST_CHID);
	KUNIT_EXPECT_EQ(test, a->ops->query_remote_gid(a, ISM_PCI_TEST_GID_B,
						       0, 0), 0);
	KUNIT_EXPECT_NE(test, a->ops->query_remote_gid(a, ISM_PCI_TEST_GID_C,
						       0, 0), 0);
	KUNIT_EXPECT_EQ(test, a->ops->set_vlan_required(a), 0);
	KUNIT_EXPECT_TRUE(test, t->a->vlan_required);
	KUNIT_EXPECT_EQ(test, a->ops->reset_vlan_required(a), 0);
	KUNIT_EXPECT_FALSE(test, t->a->vlan_required);
}

/*
 * What SMC does for a connection: the receiver registers a DMB for the
 * sender, the sender writes data, then its cursor with a signal; at the
 * end the receiver unregisters the DMB and the sender hears of it.
 */
static void ism_pci_smcd_connection(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct smcd_dev *a = ism_pci_smcd_of(test, t->a);
	struct smcd_dev *b = ism_pci_smcd_of(test, t->b);
	struct smcd_dmb dmb = {
		.dmb_len = 65536,
		.rgid = ISM_PCI_TEST_GID_A,
	};
	unsigned int irqs = atomic_read(&t->b->irqs);
	u64 cursor = 9000;
	u8 *data;

	data = kunit_kmalloc(test, 9000, GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, data);
	memset(data, 0x5a, 9000);
	KUNIT_ASSERT_EQ(test, b->ops->register_dmb(b, &dmb), 0);
	KUNIT_EXPECT_GE(test, dmb.sba_idx, ISM_PCI_FIRST_DMB);
	KUNIT_EXPECT_EQ(test, t->b->dmbs[dmb.sba_idx].token, dmb.dmb_tok);

	KUNIT_EXPECT_EQ(test, a->ops->move_data(a, dmb.dmb_tok, 0, false, 64,
						data, 9000), 0);
	KUNIT_EXPECT_EQ(test, a->ops->move_data(a, dmb.dmb_tok, 0, true, 0,
						&cursor, sizeof(cursor)), 0);
	ism_model_sync(t->b);
	KUNIT_EXPECT_EQ(test, memcmp(dmb.cpu_addr + 64, data, 9000), 0);
	KUNIT_EXPECT_EQ(test, *(u64 *)dmb.cpu_addr, cursor);
	KUNIT_EXPECT_EQ(test, atomic_read(&t->b->irqs), irqs + 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(t->b->sba->status), 0);
	KUNIT_EXPECT_EQ(test, be16_to_cpu(t->b->sba->dmbe_mask[dmb.sba_idx]),
			0);

	KUNIT_ASSERT_EQ(test, b->ops->unregister_dmb(b, &dmb), 0);
	KUNIT_EXPECT_EQ(test, ism_model_dmbs(t->b), 0);
	ism_model_sync(t->a);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 1);
	KUNIT_EXPECT_EQ(test, t->events[0].ev.type, ISM_EVT_DMB);
	KUNIT_EXPECT_EQ(test, t->events[0].ev.token, dmb.dmb_tok);
}

/* SMC on B answers a TESTLINK request from A with a response to A. */
static void ism_pci_smcd_testlink(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct smcd_dev *a = ism_pci_smcd_of(test, t->a);
	struct ism_smcd_ev_info req = {
		.lgr_id = { 1, 2, 3, 4 },
		.code = ISM_SMCD_EV_REQUEST,
	};
	struct ism_smcd_ev_info resp;
	struct ism_event *ev;
	unsigned int ms;
	uuid_t gid;
	u64 info;

	BUILD_BUG_ON(sizeof(req) != sizeof(u64));
	memcpy(&info, &req, sizeof(info));
	KUNIT_ASSERT_EQ(test, a->ops->signal_event(a, ISM_PCI_TEST_GID_B, 1,
						   ISM_SMCD_EV_TESTLINK, info),
			0);
	/* SMC answers from its event workqueue. */
	for (ms = 0; ms < 10000 && ism_pci_test_events(t) < 2; ms += 20)
		msleep(20);
	/* B's clients see the request, A's the response. */
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 2);
	ev = &t->events[1].ev;
	KUNIT_EXPECT_PTR_EQ(test, t->events[0].dev, ism_pci_test_dev(t->b));
	KUNIT_EXPECT_PTR_EQ(test, t->events[1].dev, ism_pci_test_dev(t->a));
	KUNIT_EXPECT_EQ(test, ev->type, ISM_EVT_SWR);
	KUNIT_EXPECT_EQ(test, ev->code, ISM_SMCD_EV_TESTLINK);
	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&ev->gid, &gid));
	memcpy(&resp, &ev->info, sizeof(resp));
	KUNIT_EXPECT_EQ(test, resp.code, ISM_SMCD_EV_RESPONSE);
	KUNIT_EXPECT_EQ(test, memcmp(resp.lgr_id, req.lgr_id, sizeof(req.lgr_id)), 0);
}

static struct kunit_case ism_pci_smcd_cases[] = {
	KUNIT_CASE(ism_pci_smcd_bridged),
	KUNIT_CASE(ism_pci_smcd_connection),
	KUNIT_CASE(ism_pci_smcd_testlink),
	{}
};

static struct kunit_suite ism_pci_smcd_suite = {
	.name = "ism_pci_smcd",
	.init = ism_pci_test_init,
	.exit = ism_pci_test_exit,
	.test_cases = ism_pci_smcd_cases,
};
kunit_test_suite(ism_pci_smcd_suite);
