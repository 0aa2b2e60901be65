// SPDX-License-Identifier: GPL-2.0
/*
 * The fixture of ism_pci_kunit.ko (see pci_kunit.h): two started
 * functions on one fabric and a test client that records the signals and
 * events the core gives it, for the suites' cases.
 */
#include <ism/kcompat.h>
#include <linux/module.h>
#include <linux/string.h>

#include "pci_kunit.h"

/* The running case's records; cases run one at a time. */
static struct ism_pci_test *ism_pci_cur;

static int ism_pci_test_add_dev(struct ism_dev *dev)
{
	return 0;
}

static void ism_pci_test_remove_dev(struct ism_dev *dev)
{
	struct ism_pci_test *t = ism_pci_cur;

	if (t && !IS_ERR_OR_NULL(t->a) && dev == ism_pci_test_dev(t->a))
		t->removed++;
}

static void ism_pci_test_handle_irq(struct ism_dev *dev, unsigned int idx,
				    u16 mask)
{
	struct ism_pci_test *t = ism_pci_cur;
	unsigned long flags;

	if (!t)
		return;
	spin_lock_irqsave(&t->lock, flags);
	if (t->nr_irqs < ISM_PCI_TEST_RECS)
		t->irqs[t->nr_irqs] = (struct ism_pci_test_irq){
			.dev = dev, .idx = idx, .mask = mask,
		};
	t->nr_irqs++;
	spin_unlock_irqrestore(&t->lock, flags);
}

static void ism_pci_test_handle_event(struct ism_dev *dev,
				      const struct ism_event *ev)
{
	struct ism_pci_test *t = ism_pci_cur;
	unsigned long flags;

	if (!t)
		return;
	spin_lock_irqsave(&t->lock, flags);
	if (t->nr_events < ISM_PCI_TEST_RECS)
		t->events[t->nr_events] = (struct ism_pci_test_event){
			.dev = dev, .ev = *ev,
		};
	t->nr_events++;
	spin_unlock_irqrestore(&t->lock, flags);
}

struct ism_client ism_pci_test_client = {
	.name = "ism_pci_kunit",
	.add_dev = ism_pci_test_add_dev,
	.remove_dev = ism_pci_test_remove_dev,
	.handle_irq = ism_pci_test_handle_irq,
	.handle_event = ism_pci_test_handle_event,
};

/* The layer's form of a 64-bit GID. */
void ism_pci_test_gid(u64 gid64, uuid_t *gid)
{
	memset(gid, 0, sizeof(*gid));
	put_unaligned_be64(gid64, gid->b);
}

struct ism_dev *ism_pci_test_dev(struct ism_model_fn *fn)
{
	return fn->ip->ism;
}

/* A DMB of @len bytes on @owner that GID @writer may write into. */
int ism_pci_test_dmb(struct ism_model_fn *owner, u64 writer, u32 len,
		     struct ism_dmb *dmb)
{
	memset(dmb, 0, sizeof(*dmb));
	dmb->len = len;
	ism_pci_test_gid(writer, &dmb->rgid);
	return ism_register_dmb(ism_pci_test_dev(owner), dmb,
				&ism_pci_test_client);
}

/* Unregisters a DMB ism_pci_test_dmb() registered on @owner. */
int ism_pci_test_unreg(struct ism_model_fn *owner, struct ism_dmb *dmb)
{
	return ism_unregister_dmb(ism_pci_test_dev(owner), dmb,
				  &ism_pci_test_client);
}

/* A record count, read under the lock the handlers write it with. */
static unsigned int ism_pci_test_count(struct ism_pci_test *t,
				       const unsigned int *count)
{
	unsigned long flags;
	unsigned int n;

	spin_lock_irqsave(&t->lock, flags);
	n = *count;
	spin_unlock_irqrestore(&t->lock, flags);
	return n;
}

unsigned int ism_pci_test_irqs(struct ism_pci_test *t)
{
	return ism_pci_test_count(t, &t->nr_irqs);
}

unsigned int ism_pci_test_events(struct ism_pci_test *t)
{
	return ism_pci_test_count(t, &t->nr_events);
}

int ism_pci_test_init(struct kunit *test)
{
	struct ism_pci_test *t;
	int ret;

	t = kunit_kzalloc(test, sizeof(*t), GFP_KERNEL);
	KUNIT_ASSERT_NOT_NULL(test, t);
	spin_lock_init(&t->lock);
	ism_model_fabric_init(&t->fab, ISM_PCI_TEST_CHID);
	test->priv = t;
	ism_pci_cur = t;
	ret = ism_register_client(&ism_pci_test_client);
	KUNIT_ASSERT_EQ(test, ret, 0);
	t->a = ism_model_fn_create(&t->fab, ISM_PCI_TEST_GID_A);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->a);
	t->b = ism_model_fn_create(&t->fab, ISM_PCI_TEST_GID_B);
	KUNIT_ASSERT_NOT_ERR_OR_NULL(test, t->b);
	KUNIT_ASSERT_EQ(test, ism_model_fn_start(t->a), 0);
	KUNIT_ASSERT_EQ(test, ism_model_fn_start(t->b), 0);
	return 0;
}

/* Each function is forgotten before it goes: remove_dev looks at @a. */
static void ism_pci_test_destroy(struct ism_model_fn **fn)
{
	struct ism_model_fn *gone = *fn;

	*fn = NULL;
	if (!IS_ERR_OR_NULL(gone))
		ism_model_fn_destroy(gone);
}

void ism_pci_test_exit(struct kunit *test)
{
	struct ism_pci_test *t = test->priv;

	if (!t)
		return;
	ism_pci_test_destroy(&t->a);
	ism_pci_test_destroy(&t->b);
	ism_unregister_client(&ism_pci_test_client);
	ism_pci_cur = NULL;
}

/* pci_kunit_smcd.c adds its suite where the SMC-D bridge is built. */
kunit_test_suites(&ism_pci_cmd_suite, &ism_pci_data_suite);

MODULE_DESCRIPTION("KUnit suites of the PCI-ISM driver, against a model of the function");
MODULE_IMPORT_NS(ISM);
MODULE_IMPORT_NS(EXPORTED_FOR_KUNIT_TESTING);
MODULE_LICENSE("GPL");
