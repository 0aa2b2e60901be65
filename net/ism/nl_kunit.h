/* SPDX-License-Identifier: GPL-2.0 */
/* Shared by the files of the ism_nl_kunit module. */
#ifndef _NET_ISM_NL_KUNIT_H
#define _NET_ISM_NL_KUNIT_H

#include <kunit/test.h>
#include <net/genetlink.h>

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

/* The test client and the loopback devices nl_test_setup() creates. */
#define NL_TEST_DEVS	2
extern struct ism_dev *nl_test_devs[NL_TEST_DEVS];
extern struct ism_client nl_test_client;
int nl_test_setup(struct kunit *test, unsigned int ndevs);
void nl_test_teardown(struct kunit *test);

extern struct kunit_suite nl_bad_input_suite;

#endif /* _NET_ISM_NL_KUNIT_H */
