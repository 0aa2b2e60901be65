/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the ISM core's KUnit suites (ism_core_kunit.ko): test
 * clients that count their callbacks (core_kunit_fixture.c), on the fake
 * device of fake_dev.h. The netlink suites' request helpers, at the end,
 * are in core_kunit_netlink.c.
 */
#ifndef _NET_ISM_TESTS_CORE_KUNIT_H
#define _NET_ISM_TESTS_CORE_KUNIT_H

#include <kunit/test.h>
#include <linux/completion.h>
#include <linux/ism.h>
#include <net/genetlink.h>

#include "fake_dev.h"

#define TEST_MAX_DEVS		10
#define TEST_MAX_CLIENTS	(ISM_MAX_CLIENTS + 2)
#define TEST_MAX_CDMBS		4

struct test_ctx;

struct test_dmb {
	struct ism_dmb dmb;
	struct ism_dev *dev;
	bool live;
};

/* A client that counts its callbacks, per device of the test. */
struct test_client {
	struct ism_client client;
	struct test_ctx *ctx;
	char name[16];
	bool registered;
	bool free_on_remove;	/* remove_dev unregisters the client's DMBs */
	bool dmb_on_add;	/* add_dev registers DMB 0 */
	bool route_in_cb;	/* add_dev, remove_dev report irq and event */
	bool route_on_start;	/* start_dev reports an irq of DMB 0 */
	bool dmb_on_remove;	/* remove_dev tries to register a DMB */
	int add_err;		/* add_dev refuses the device with it */
	bool remove_blocks;	/* remove_dev waits for remove_release */
	struct completion remove_release;
	struct completion remove_entered;	/* remove_dev began */
	int add_dmb_ret;
	int remove_dmb_ret;
	int remove_err;		/* first error of unregistering in remove_dev */
	unsigned int add_calls[TEST_MAX_DEVS];
	unsigned int start_calls[TEST_MAX_DEVS];
	unsigned int remove_calls[TEST_MAX_DEVS];
	unsigned int remove_unstarted;	/* remove_dev calls before start_dev */
	void *priv_at_add[TEST_MAX_DEVS];
	unsigned int irq_calls;
	struct ism_dev *irq_dev;
	unsigned int irq_idx;
	u16 irq_mask;
	unsigned int event_calls;
	struct ism_dev *event_dev;
	const struct ism_event *event;
	struct ism_event event_copy;
	struct test_dmb dmbs[TEST_MAX_CDMBS];
};

struct test_ctx {
	struct kunit *test;
	struct ism_dev *devs[TEST_MAX_DEVS];
	bool dev_registered[TEST_MAX_DEVS];
	unsigned int ndevs;
	struct test_client clients[TEST_MAX_CLIENTS];
};

int tc_dmb_register(struct test_client *tc, struct ism_dev *dev,
		    unsigned int n, u32 len);
int tc_dmb_unregister(struct test_client *tc, unsigned int n);
void tc_route(struct ism_dev *dev, unsigned int idx, u16 mask,
	      const struct ism_event *event);
extern const struct ism_client tc_templates[];
int ism_test_init(struct kunit *test);
void ism_test_exit(struct kunit *test);
struct test_client *tc_get(struct kunit *test, unsigned int n);
int tc_register(struct test_client *tc);
void tc_unregister(struct test_client *tc);
struct test_client *tc_new(struct kunit *test, unsigned int n);
struct ism_dev *td_alloc_unnamed(struct kunit *test,
				 const struct ism_device_ops *ops);
struct ism_dev *td_alloc(struct kunit *test,
			 const struct ism_device_ops *ops);
int td_register(struct kunit *test, struct ism_dev *dev);
void td_unregister(struct kunit *test, struct ism_dev *dev);
struct ism_dev *td_new(struct kunit *test,
		       const struct ism_device_ops *ops);
void expect_add_remove(struct kunit *test, struct test_client *tc,
		       int d, unsigned int nadd, unsigned int nremove,
			      int line);

/* Expects @nadd add_dev and @nremove remove_dev calls of @tc for device @d. */
#define EXPECT_ADD_REMOVE(test, tc, d, nadd, nremove) \
	expect_add_remove(test, tc, d, nadd, nremove, __LINE__)

/* ------------------------- netlink suites ------------------------- */

/**
 * struct nl_req - a request as genetlink hands it to a handler
 * @skb: the message while it is built
 * @attrs: its attributes, once parsed with the family's policy
 * @extack: where the policy and the handler put their message
 * @info: what the handler gets
 */
struct nl_req {
	struct sk_buff *skb;
	struct nlattr *attrs[ISM_ATTR_MAX + 1];
	struct netlink_ext_ack extack;
	struct genl_info info;
};

struct nl_req *nl_req_new(struct kunit *test);
int nl_req_parse(struct kunit *test, struct nl_req *req);
struct nl_req *nl_req_dev(struct kunit *test, const char *name,
			  const char *type);
int nl_do(struct kunit *test,
	  int (*doit)(struct sk_buff *skb, struct genl_info *info),
	  const char *name, const char *type, const char **msg);
void nl_dev_read(struct kunit *test, struct ism_dev *dev, u64 *stats,
		 u32 *dmbs);

/* Counter @attr (an ISM_STAT_ATTR_ suffix) in an array from nl_dev_read(). */
#define STAT(stats, attr)	((stats)[ISM_STAT_ATTR_##attr - ISM_STAT_ATTR_MOVES])

/* The test client and the fake loopback devices nl_test_setup() creates. */
#define NL_TEST_DEVS	2
extern struct ism_dev *nl_test_devs[NL_TEST_DEVS];
extern struct ism_client nl_test_client;
int nl_test_setup(struct kunit *test, unsigned int ndevs);
void nl_test_teardown(struct kunit *test);

#endif /* _NET_ISM_TESTS_CORE_KUNIT_H */
