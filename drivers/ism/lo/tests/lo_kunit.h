/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files of ism_lo_kunit.ko, the KUnit tests of the ISM
 * loopback device (ism_lo.ko), driven only through the client API of
 * <linux/ism.h>. The test client and its helpers are in lo_kunit_fixture.c.
 *
 * Load ism_core.ko and ism_lo.ko first: without a loopback device every
 * suite fails.
 */
#ifndef _DRIVERS_ISM_LO_KUNIT_H
#define _DRIVERS_ISM_LO_KUNIT_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/ism.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>

#define LO_TEST_MAX_DMB_LEN	SZ_1M
#define LO_TEST_MAX_ATTACHED	8

/**
 * struct lo_test_state - what the test client saw, and what a case holds
 * @dev: the first loopback device
 * @gid: its GID
 * @max_dmbs: its number of DMB indexes
 * @irqs: irqs delivered
 * @bad_irqs: irqs for another device or an index out of range
 * @irqs_by_idx: irqs delivered, by DMB index
 * @mask_by_idx: the dmbe bits signalled, by DMB index
 * @event_lock: protects @events and @last_event
 * @events: events delivered
 * @last_event: the last of them
 * @bad_events: events from another device or of an unexpected kind
 * @dmbs: registered DMBs, by index
 * @live: indexes of @dmbs in use
 * @attached: tokens attached
 * @nr_attached: entries of @attached in use
 *
 * lo_test_exit() releases the DMBs and attachments a case still holds when
 * it stops early.
 */
struct lo_test_state {
	struct ism_dev *dev;
	uuid_t gid;
	u32 max_dmbs;
	atomic_t irqs;
	atomic_t bad_irqs;
	atomic_t *irqs_by_idx;
	atomic_t *mask_by_idx;
	spinlock_t event_lock;
	unsigned int events;
	struct ism_event last_event;
	atomic_t bad_events;
	struct ism_dmb *dmbs;
	unsigned long *live;
	u64 attached[LO_TEST_MAX_ATTACHED];
	unsigned int nr_attached;
};

extern struct lo_test_state lo;
extern struct ism_client lo_test_client;

int lo_test_add_dev(struct ism_dev *dev);
void lo_test_remove_dev(struct ism_dev *dev);
unsigned int lo_test_events(struct ism_event *last);
int lo_reg(struct kunit *test, struct ism_dmb *dmb, u32 len);
int lo_unreg(struct ism_dmb *dmb);
int lo_attach(struct kunit *test, struct ism_dmb *att, u64 token);
int lo_detach(u64 token);
int lo_move(u64 token, unsigned int idx, bool sf, unsigned int offset,
	    const void *data, unsigned int size);
void lo_fill(u8 *buf, size_t len, u32 seed);
long lo_first_diff(const void *a, const void *b, size_t len);
long lo_first_nonzero(const void *buf, size_t len);

/* Every suite's suite_init, suite_exit, init and exit. */
int lo_test_suite_init(struct kunit_suite *suite);
void lo_test_suite_exit(struct kunit_suite *suite);
int lo_test_init(struct kunit *test);
void lo_test_exit(struct kunit *test);

#endif /* _DRIVERS_ISM_LO_KUNIT_H */
