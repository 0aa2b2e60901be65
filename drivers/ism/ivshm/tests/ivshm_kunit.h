/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by the files of ism_ivshm_kunit.ko: the KUnit suites of the
 * virtual ISM region layout (ivshm_layout.c), run against a region in
 * ordinary memory, and ism_ivshm_peers and ism_ivshm_hostile, which need
 * two devices of one region (ivshm_kunit_peers.h).
 */
#ifndef _DRIVERS_ISM_IVSHM_KUNIT_H
#define _DRIVERS_ISM_IVSHM_KUNIT_H

#include <kunit/test.h>

#include "../ivshm_layout.h"

/* The smallest region of 8 peers with 64 DMBs each, and some slack. */
#define IVSHM_TEST_SIZE		(4U << 20)
#define IVSHM_TEST_PEERS	8
#define IVSHM_TEST_DMBS		64
#define IVSHM_TEST_EVQ		8

/**
 * struct ivshm_test_region - a formatted region for a case
 * @mem: IVSHM_TEST_SIZE bytes, freed when the case ends
 * @geo: its geometry
 */
struct ivshm_test_region {
	void *mem;
	struct ivshm_geo geo;
};

int ivshm_test_init(struct kunit *test);
void ivshm_test_exit(struct kunit *test);

extern struct kunit_suite ivshm_data_suite;
extern struct kunit_suite ivshm_peers_suite;
extern struct kunit_suite ivshm_hostile_suite;

#endif /* _DRIVERS_ISM_IVSHM_KUNIT_H */
