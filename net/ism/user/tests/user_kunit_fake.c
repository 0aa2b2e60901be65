// SPDX-License-Identifier: GPL-2.0
/*
 * The KUnit suites' fake device (net/ism/tests/fake_dev.c), compiled into
 * ism_user_kunit.ko as well: one source, so that the client's suite and
 * the core's run against the same fake.
 */
#include "../../tests/fake_dev.c"
