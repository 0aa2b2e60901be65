// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci_cmd: bringing a modelled function up and down in every state,
 * and every command of the device operations, with its failure.
 */
#include <linux/device.h>

#include "pci_kunit.h"

static void ism_pci_start_ok(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *ism = ism_pci_test_dev(t->a);
	uuid_t gid;

	KUNIT_EXPECT_NOT_NULL(test, t->a->sba);
	KUNIT_EXPECT_NOT_NULL(test, t->a->ieq);
	KUNIT_EXPECT_TRUE(test, t->a->irq_on);
	KUNIT_EXPECT_TRUE(test, device_is_registered(&ism->dev));
	ism_pci_test_gid(ISM_PCI_TEST_GID_A, &gid);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&ism->gid, &gid));
	KUNIT_EXPECT_EQ(test, ism_get_chid(ism), ISM_PCI_TEST_CHID);
	KUNIT_EXPECT_EQ(test, ism_get_max_dmbs(ism), ISM_PCI_NR_DMBS);
	KUNIT_EXPECT_EQ(test, ism_get_max_dmb_len(ism), ISM_PCI_MAX_DMB_LEN);
	KUNIT_EXPECT_EQ(test, t->a->cmds[ISM_PCI_REG_SBA], 1);
	KUNIT_EXPECT_EQ(test, t->a->cmds[ISM_PCI_REG_IEQ], 1);
	KUNIT_EXPECT_EQ(test, t->a->cmds[ISM_PCI_READ_GID], 1);
	KUNIT_EXPECT_EQ(test, t->a->cmds[ISM_PCI_QUERY_INFO], 1);
}

/**
 * struct ism_pci_start_fault - a command failing while a function starts
 * @cmd: the command
 * @rc: the function's return code
 * @ret: what ism_pci_start() returns
 * @name: for the case's parameter
 */
struct ism_pci_start_fault {
	u32 cmd;
	u16 rc;
	int ret;
	const char *name;
};

static const struct ism_pci_start_fault ism_pci_start_faults[] = {
	{ ISM_PCI_REG_SBA, ISM_MODEL_RC_REFUSED, -EIO, "REG_SBA refused" },
	{ ISM_PCI_REG_IEQ, ISM_MODEL_RC_REFUSED, -EIO, "REG_IEQ refused" },
	{ ISM_PCI_READ_GID, ISM_MODEL_RC_REFUSED, -EIO, "READ_GID refused" },
	{ ISM_PCI_READ_GID, ISM_PCI_RC_NO_ANSWER, -ENODEV,
	  "READ_GID unanswered" },
	{ ISM_PCI_QUERY_INFO, ISM_MODEL_RC_REFUSED, 0,
	  "QUERY_INFO refused (only logged)" },
};

static void ism_pci_start_fault_desc(const struct ism_pci_start_fault *f,
				     char *desc)
{
	strscpy(desc, f->name, KUNIT_PARAM_DESC_SIZE);
}

KUNIT_ARRAY_PARAM(ism_pci_start_fault, ism_pci_start_faults,
		  ism_pci_start_fault_desc);

/* A failure half-way through start undoes everything before it. */
static void ism_pci_start_fails(struct kunit *test)
{
	const struct ism_pci_start_fault *f = test->param_value;
	struct ism_pci_test *t = test->priv;
	struct ism_model_fn *c;
	int ret;

	c = ism_model_fn_create(&t->fab, ISM_PCI_TEST_GID_C);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	ism_model_fail(c, f->cmd, 0, f->rc);
	ret = ism_model_fn_start(c);
	KUNIT_EXPECT_EQ(test, ret, f->ret);
	KUNIT_EXPECT_EQ(test, c->cmds[f->cmd], 1);
	if (ret) {
		KUNIT_EXPECT_NULL(test, c->sba);
		KUNIT_EXPECT_NULL(test, c->ieq);
		KUNIT_EXPECT_FALSE(test, c->irq_on);
		KUNIT_EXPECT_NULL(test, c->ip->sba);
		KUNIT_EXPECT_NULL(test, c->ip->ieq);
		KUNIT_EXPECT_FALSE(test,
				   device_is_registered(&c->ip->ism->dev));
	} else {
		KUNIT_EXPECT_TRUE(test,
				  device_is_registered(&c->ip->ism->dev));
	}
	ism_model_fn_destroy(c);
}

/*
 * An interrupt (a signal and an event) while the function is being set up:
 * drained, reaching no client, and the queue position kept.
 */
static void ism_pci_irq_before_register(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_model_fn *c;

	c = ism_model_fn_create(&t->fab, ISM_PCI_TEST_GID_C);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, c);
	c->irq_on_cmd = ISM_PCI_READ_GID;
	KUNIT_ASSERT_EQ(test, ism_model_fn_start(c), 0);
	ism_model_sync(c);
	KUNIT_EXPECT_EQ(test, atomic_read(&c->irqs), 1);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c->sba->status), 0);
	KUNIT_EXPECT_EQ(test, be32_to_cpu(c->sba->dmb_bits[1]), 0);
	KUNIT_EXPECT_EQ(test, c->ip->ieq_next, 1);
	KUNIT_EXPECT_EQ(test, ism_pci_test_irqs(t), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_events(t), 0);
	ism_model_fn_destroy(c);
}

/* Removal with DMBs the client never unregistered. */
static void ism_pci_remove_live(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dmb dmb[3];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(dmb); i++)
		KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B,
						       8192, &dmb[i]), 0);
	KUNIT_ASSERT_EQ(test, ism_model_dmbs(t->a), 3);
	ism_pci_stop(t->a->ip);
	t->a->started = false;
	KUNIT_EXPECT_EQ(test, t->removed, 1);
	KUNIT_EXPECT_EQ(test, ism_model_dmbs(t->a), 0);
	KUNIT_EXPECT_NULL(test, t->a->sba);
	KUNIT_EXPECT_NULL(test, t->a->ieq);
	KUNIT_EXPECT_FALSE(test, t->a->irq_on);
	for (i = 0; i < ARRAY_SIZE(dmb); i++)
		KUNIT_EXPECT_FALSE(test, test_bit(dmb[i].idx, t->a->ip->slots));
	/* The writer heard of each DMB going. */
	ism_model_sync(t->b);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 3);
	for (i = 0; i < ARRAY_SIZE(dmb); i++) {
		KUNIT_EXPECT_PTR_EQ(test, t->events[i].dev,
				    ism_pci_test_dev(t->b));
		KUNIT_EXPECT_EQ(test, t->events[i].ev.type, ISM_EVT_DMB);
		KUNIT_EXPECT_EQ(test, t->events[i].ev.token, dmb[i].token);
	}
}

/*
 * A function in error: its peer hears that its GID is gone, and it can
 * still be removed with a DMB, though it answers nothing.
 */
static void ism_pci_remove_broken(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dmb dmb;
	uuid_t gid;

	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
					       &dmb), 0);
	ism_model_break(t->a);
	ism_model_sync(t->b);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 1);
	ism_pci_test_gid(ISM_PCI_TEST_GID_A, &gid);
	KUNIT_EXPECT_PTR_EQ(test, t->events[0].dev, ism_pci_test_dev(t->b));
	KUNIT_EXPECT_EQ(test, t->events[0].ev.type, ISM_EVT_GID);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&t->events[0].ev.gid, &gid));
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(ism_pci_test_dev(t->b),
						   &gid, 0, 0), -ENOENT);

	ism_pci_stop(t->a->ip);
	t->a->started = false;
	KUNIT_EXPECT_FALSE(test, test_bit(dmb.idx, t->a->ip->slots));
	KUNIT_EXPECT_NULL(test, t->a->ip->sba);
	KUNIT_EXPECT_NULL(test, t->a->ip->ieq);
}

static void ism_pci_dmb_cmd_fails(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dmb refused, unanswered, dmb;

	ism_model_fail(t->a, ISM_PCI_REG_DMB, 0, ISM_MODEL_RC_REFUSED);
	KUNIT_EXPECT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
					       &dmb), -EIO);
	KUNIT_EXPECT_EQ(test, ism_model_dmbs(t->a), 0);

	/* The slot of the refused registration was given back. */
	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
					       &refused), 0);
	KUNIT_EXPECT_EQ(test, refused.idx, ISM_PCI_FIRST_DMB);

	/* Refused: the function may still write, the slot stays taken. */
	ism_model_fail(t->a, ISM_PCI_UNREG_DMB, 0, ISM_MODEL_RC_REFUSED);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->a, &refused), -EIO);
	KUNIT_EXPECT_EQ(test, ism_model_dmbs(t->a), 1);
	KUNIT_EXPECT_TRUE(test, test_bit(refused.idx, t->a->ip->slots));
	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
					       &unanswered), 0);
	KUNIT_EXPECT_EQ(test, unanswered.idx, ISM_PCI_FIRST_DMB + 1);

	/* Not answered: the function writes no more, the slot is free. */
	ism_model_fail(t->a, ISM_PCI_UNREG_DMB, 0, ISM_PCI_RC_NO_ANSWER);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->a, &unanswered), 0);
	KUNIT_EXPECT_FALSE(test, test_bit(unanswered.idx, t->a->ip->slots));
}

static void ism_pci_query_rgid(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	unsigned int sent;
	uuid_t gid;

	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 0, 0), 0);
	ism_pci_test_gid(ISM_PCI_TEST_GID_C, &gid);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 0, 0), -ENOENT);

	/* Refused before any command. */
	sent = t->a->cmds[ISM_PCI_QUERY_RGID];
	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 1, 4096), -EINVAL);
	gid.b[15] = 1;
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 0, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->a->cmds[ISM_PCI_QUERY_RGID], sent);
}

static void ism_pci_vlan(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	unsigned int sent;

	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(a, 10), 0);
	KUNIT_EXPECT_TRUE(test, test_bit(10, t->a->vlans));
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(a, 10), -EIO);
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(a, 10), 0);
	KUNIT_EXPECT_FALSE(test, test_bit(10, t->a->vlans));
	KUNIT_EXPECT_EQ(test, ism_del_vlan_id(a, 10), -EIO);

	sent = t->a->cmds[ISM_PCI_ADD_VLAN_ID];
	KUNIT_EXPECT_EQ(test, ism_add_vlan_id(a, ISM_PCI_VLAN_MAX + 1), -EINVAL);
	KUNIT_EXPECT_EQ(test, t->a->cmds[ISM_PCI_ADD_VLAN_ID], sent);
}

static void ism_pci_vlan_required(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	uuid_t gid;

	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(a, true), 0);
	KUNIT_EXPECT_TRUE(test, t->a->vlan_required);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 0, 0), -ENOENT);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 1, 10), -ENOENT);
	KUNIT_ASSERT_EQ(test, ism_add_vlan_id(a, 10), 0);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 1, 10), 0);

	ism_model_fail(t->a, ISM_PCI_RESET_VLAN, 0, ISM_MODEL_RC_REFUSED);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(a, false), -EIO);
	KUNIT_EXPECT_TRUE(test, t->a->vlan_required);
	KUNIT_EXPECT_EQ(test, ism_set_vlan_required(a, false), 0);
	KUNIT_EXPECT_FALSE(test, t->a->vlan_required);
	KUNIT_EXPECT_EQ(test, ism_query_remote_gid(a, &gid, 0, 0), 0);
}

static void ism_pci_signal(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_dev *a = ism_pci_test_dev(t->a);
	struct ism_event *ev = &t->events[0].ev;
	uuid_t gid, from;

	ism_pci_test_gid(ISM_PCI_TEST_GID_B, &gid);
	ism_pci_test_gid(ISM_PCI_TEST_GID_A, &from);
	KUNIT_ASSERT_EQ(test, ism_signal_event(a, &gid, 1, 7, 0x55), 0);
	ism_model_sync(t->b);
	KUNIT_ASSERT_EQ(test, ism_pci_test_events(t), 1);
	KUNIT_EXPECT_PTR_EQ(test, t->events[0].dev, ism_pci_test_dev(t->b));
	KUNIT_EXPECT_EQ(test, ev->type, ISM_EVT_SWR);
	KUNIT_EXPECT_EQ(test, ev->code, 7);
	KUNIT_EXPECT_EQ(test, ev->info, 0x55);
	KUNIT_EXPECT_TRUE(test, uuid_equal(&ev->gid, &from));

	ism_pci_test_gid(ISM_PCI_TEST_GID_C, &gid);
	KUNIT_EXPECT_EQ(test, ism_signal_event(a, &gid, 1, 7, 0), -EIO);
	gid.b[8] = 1;
	KUNIT_EXPECT_EQ(test, ism_signal_event(a, &gid, 1, 7, 0), -EINVAL);
	KUNIT_EXPECT_EQ(test, ism_pci_test_events(t), 1);
}

static void ism_pci_info(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;
	struct ism_pci_info info;
	struct ism_dmb dmb[2];

	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
					       &dmb[0]), 0);
	KUNIT_ASSERT_EQ(test, ism_pci_test_dmb(t->a, ISM_PCI_TEST_GID_B, 4096,
					       &dmb[1]), 0);
	KUNIT_ASSERT_EQ(test, ism_add_vlan_id(ism_pci_test_dev(t->a), 7), 0);
	KUNIT_ASSERT_EQ(test, ism_pci_query_info(t->a->ip, &info), 0);
	KUNIT_EXPECT_EQ(test, info.version, 1);
	KUNIT_EXPECT_EQ(test, info.max_len, ISM_PCI_MAX_DMB_LEN);
	KUNIT_EXPECT_EQ(test, info.dmbs_owned, 2);
	KUNIT_EXPECT_EQ(test, info.vlan_nr_ids, 1);
	KUNIT_EXPECT_EQ(test, info.vlan_required, 0);

	ism_model_fail(t->a, ISM_PCI_QUERY_INFO, 0, ISM_MODEL_RC_REFUSED);
	KUNIT_EXPECT_EQ(test, ism_pci_query_info(t->a->ip, &info), -EIO);
	ism_model_fail(t->a, ISM_PCI_QUERY_INFO, 0, ISM_PCI_RC_NO_ANSWER);
	KUNIT_EXPECT_EQ(test, ism_pci_query_info(t->a->ip, &info), -ENODEV);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->a, &dmb[0]), 0);
	KUNIT_EXPECT_EQ(test, ism_pci_test_unreg(t->a, &dmb[1]), 0);
}

static struct kunit_case ism_pci_cmd_cases[] = {
	KUNIT_CASE(ism_pci_start_ok),
	KUNIT_CASE_PARAM(ism_pci_start_fails, ism_pci_start_fault_gen_params),
	KUNIT_CASE(ism_pci_irq_before_register),
	KUNIT_CASE(ism_pci_remove_live),
	KUNIT_CASE(ism_pci_remove_broken),
	KUNIT_CASE(ism_pci_dmb_cmd_fails),
	KUNIT_CASE(ism_pci_query_rgid),
	KUNIT_CASE(ism_pci_vlan),
	KUNIT_CASE(ism_pci_vlan_required),
	KUNIT_CASE(ism_pci_signal),
	KUNIT_CASE(ism_pci_info),
	{}
};

struct kunit_suite ism_pci_cmd_suite = {
	.name = "ism_pci_cmd",
	.init = ism_pci_test_init,
	.exit = ism_pci_test_exit,
	.test_cases = ism_pci_cmd_cases,
};
