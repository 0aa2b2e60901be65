/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the suites of ism_ivshm_kunit.ko that run on real
 * virtual ISM devices (ivshm_kunit_peers.c, ivshm_kunit_hostile.c): two
 * devices of one region, as two guests' would be, and where the VM has
 * one, a device of another region. tools/testing/ism/ivshm-kunit.sh
 * gives a test VM such functions (ivshmem-plain, so the devices poll);
 * elsewhere the cases are skipped, unless ism_ivshm_kunit.need_peers=1
 * makes that a failure.
 */
#ifndef _DRIVERS_ISM_IVSHM_KUNIT_PEERS_H
#define _DRIVERS_ISM_IVSHM_KUNIT_PEERS_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/ism.h>
#include <linux/sizes.h>
#include <linux/uuid.h>

#define PEERS_DMB_LEN	SZ_64K
#define PEERS_WAIT	(5 * HZ)

/* Software event codes of the flood cases: the flooding peer's, another's. */
#define PEERS_FLOOD_CODE	0x7777
#define PEERS_HONEST_CODE	0x4343

/**
 * struct ivshm_peers - the devices under test, and what the test client saw
 * @dev: two devices of one region; only @dev[0] owns DMBs in the cases
 * @apart: a device of another region, or NULL
 * @irqs: signals @dev[0]'s client got
 * @irq_idx: the DMB index of the last
 * @irq_mask: its dmbe mask
 * @dmb_events: DMB events @dev[1]'s client got
 * @event_token: the token of the last
 * @gid_events: GID events @dev[0]'s client got
 * @event_gid: the GID of the last
 * @swr_events: software events @dev[0]'s client got, but floods
 * @swr: the last
 * @flood_events: software events of code %PEERS_FLOOD_CODE @dev[0]'s
 *	client got
 * @flood_first: jiffies of the first
 * @flood_last: jiffies of the last
 * @flood_before_honest: @flood_events when the %PEERS_HONEST_CODE event
 *	came
 * @registered: the test client is registered
 *
 * The client callbacks get only the device, so the state is the
 * module's; the cases of a suite run one at a time.
 */
struct ivshm_peers {
	struct ism_dev *dev[2];
	struct ism_dev *apart;
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
};

extern struct ivshm_peers peers;
extern struct ism_client peers_client;

int peers_init(struct kunit *test);
void peers_exit(struct kunit *test);
void peers_need(struct kunit *test, const char *what);
bool peers_until(bool (*done)(const void *arg), const void *arg);
bool peers_counted(const void *count);
void peers_register(struct kunit *test, struct ism_dmb *dmb,
		    struct ism_dev *writer);
u32 peers_fake_slot(struct kunit *test, uuid_t *gid);
bool peers_fake_present(const void *gid);
void peers_fake_leave(struct kunit *test, u32 s, const uuid_t *gid);

/*
 * The SMC-D bridge's part (ivshm_kunit_smcd.c), where it is built: its
 * cases of ism_ivshm_hostile, and its removal from the devices and
 * return.
 */
#ifdef ISM_SMCD_BRIDGE
void ivshm_peers_smcd_write_refused(struct kunit *test);
void ivshm_smcd_events_for_smc(struct kunit *test);
void peers_smcd_off(void);
int peers_smcd_on(void);
#define IVSHM_SMCD_CASES	KUNIT_CASE(ivshm_peers_smcd_write_refused),
#define IVSHM_SMCD_TABLE_CASES	KUNIT_CASE(ivshm_smcd_events_for_smc),
#else
static inline void peers_smcd_off(void)
{
}

static inline int peers_smcd_on(void)
{
	return 0;
}

#define IVSHM_SMCD_CASES
#define IVSHM_SMCD_TABLE_CASES
#endif

#endif /* _DRIVERS_ISM_IVSHM_KUNIT_PEERS_H */
