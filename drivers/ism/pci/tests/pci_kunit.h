/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files of ism_pci_kunit.ko: the KUnit suites of the
 * PCI-ISM driver, run against two modelled functions on one fabric
 * (pci_model.h), and the test client that records what the core
 * delivers.
 */
#ifndef _DRIVERS_ISM_PCI_KUNIT_H
#define _DRIVERS_ISM_PCI_KUNIT_H

#include <kunit/test.h>

#include "pci_model.h"

#define ISM_PCI_TEST_CHID	0x0123
#define ISM_PCI_TEST_GID_A	0x0a0a0a0a00000001ULL
#define ISM_PCI_TEST_GID_B	0x0b0b0b0b00000002ULL
#define ISM_PCI_TEST_GID_C	0x0c0c0c0c00000003ULL
#define ISM_PCI_TEST_RECS	64

/**
 * struct ism_pci_test_irq - one signal the test client was given
 * @dev: the device
 * @idx: the DMB index
 * @mask: the dmbe bits
 */
struct ism_pci_test_irq {
	struct ism_dev *dev;
	unsigned int idx;
	u16 mask;
};

/**
 * struct ism_pci_test_event - one event the test client was given
 * @dev: the device
 * @ev: the event
 */
struct ism_pci_test_event {
	struct ism_dev *dev;
	struct ism_event ev;
};

/**
 * struct ism_pci_test - a case's fabric and what the client saw
 * @fab: the fabric of @a and @b
 * @a: a started function, GID %ISM_PCI_TEST_GID_A
 * @b: a started function, GID %ISM_PCI_TEST_GID_B
 * @lock: protects the records
 * @irqs: signals, in order, the first %ISM_PCI_TEST_RECS
 * @nr_irqs: signals given
 * @events: events, in order, the first %ISM_PCI_TEST_RECS
 * @nr_events: events given
 * @removed: remove_dev calls for @a
 */
struct ism_pci_test {
	struct ism_model_fabric fab;
	struct ism_model_fn *a;
	struct ism_model_fn *b;
	spinlock_t lock;	/* the records, written in hard irq */
	struct ism_pci_test_irq irqs[ISM_PCI_TEST_RECS];
	unsigned int nr_irqs;
	struct ism_pci_test_event events[ISM_PCI_TEST_RECS];
	unsigned int nr_events;
	unsigned int removed;
};

extern struct ism_client ism_pci_test_client;

int ism_pci_test_init(struct kunit *test);
void ism_pci_test_exit(struct kunit *test);
void ism_pci_test_gid(u64 gid64, uuid_t *gid);
struct ism_dev *ism_pci_test_dev(struct ism_model_fn *fn);
int ism_pci_test_dmb(struct ism_model_fn *owner, u64 writer, u32 len,
		     struct ism_dmb *dmb);
int ism_pci_test_unreg(struct ism_model_fn *owner, struct ism_dmb *dmb);
unsigned int ism_pci_test_irqs(struct ism_pci_test *t);
unsigned int ism_pci_test_events(struct ism_pci_test *t);

extern struct kunit_suite ism_pci_cmd_suite;
extern struct kunit_suite ism_pci_data_suite;

#endif /* _DRIVERS_ISM_PCI_KUNIT_H */
