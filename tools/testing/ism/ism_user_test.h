/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism_user_test's cases, in ism_user_test.c and ism_user_cases.c, and the
 * KTAP lines they print.
 */
#ifndef ISM_USER_TEST_H
#define ISM_USER_TEST_H

#include <stddef.h>

#include "../../include/compiler.h"

#define KIB	1024U

extern int tests, failed;
extern const char *dev;
extern long page;

__printf(2, 3) void result(int good, const char *fmt, ...);
void refused(const char *what, int ret, int want);
void succeeded(const char *what, int ret);
int open_dev(void);
int all_zero(const char *p, size_t len);

void test_read_only(int fd);
void test_keys(int fd);
void test_sizes(int fd);
void test_move_whole(int fd);
void test_attack(int n, char **tokens);
void test_event_addressed(int fd);
void test_rings(int hold);
void hog(void);

#endif
