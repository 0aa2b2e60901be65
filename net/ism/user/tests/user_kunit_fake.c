// SPDX-License-Identifier: GPL-2.0
/*
 * The core's fake device (net/ism/core_kunit_fake.c), compiled into
 * ism_user_kunit.ko as well: one source, so that the client's suite and
 * the core's run against the same fake.
 */
#include "../core_kunit_fake.c"
