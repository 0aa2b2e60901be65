/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fixture of the ISM core's KUnit suites (ism_core_kunit.ko): a fake
 * device with a small DMB table that counts which of its ops were called
 * and records their arguments (core_kunit_fake.c, which the suites of
 * other modules compile in too: net/ism/user/), and test clients that
 * count their callbacks (core_kunit_fixture.c). The netlink suites'
 * request helpers, at the end, are in core_kunit_netlink.c.
 */
#ifndef _NET_ISM_CORE_KUNIT_H
#define _NET_ISM_CORE_KUNIT_H

#include <kunit/test.h>
#include <linux/atomic.h>
#include <linux/completion.h>
#include <linux/ism.h>
#include <linux/list.h>
#include <linux/sizes.h>
#include <net/genetlink.h>

#define FAKE_MAX_DMBS		16
#define FAKE_MAX_DMB_LEN	4096
#define FAKE_CHID		0xFF42
#define FAKE_TOKEN_BASE		0x15a0000000000000ULL
#define FAKE_DMA_BASE		0x100000
#define FAKE_ATTACH_LEN		333
#define FAKE_ERR		(-ENOLINK)	/* a value no core path returns */
/* The type of the fake loopback devices the netlink suites create. */
#define FAKE_TYPE		"kunit-fake"
#define FAKE_LOOP_MAX_DMB_LEN	SZ_64K

#define TEST_MAX_DEVS		10
#define TEST_MAX_CLIENTS	(ISM_MAX_CLIENTS + 2)
#define TEST_MAX_CDMBS		4

enum fake_op {
	OP_QUERY_REMOTE_GID,
	OP_REGISTER_DMB,
	OP_UNREGISTER_DMB,
	OP_MOVE_DATA,
	OP_GET_CHID,
	OP_SIGNAL_EVENT,
	OP_ADD_VLAN_ID,
	OP_DEL_VLAN_ID,
	OP_SET_VLAN_REQUIRED,
	OP_ATTACH_DMB,
	OP_DETACH_DMB,
	OP_DMB_OWNER,
	OP_NR,
};

struct fake_slot {
	bool used;
	u64 token;
	u32 idx;
	u32 len;
	void *buf;		/* loop device: the DMB's memory */
	unsigned int attached;	/* loop device: attachments of the DMB */
};

/* Arguments of the last call of each op. */
struct fake_args {
	const uuid_t *rgid;
	u32 vid_valid;
	u32 vid;
	u32 trigger_irq;
	u32 event_code;
	u64 info;
	u64 vlan_id;
	bool vlan_required;
	u64 token;
	unsigned int idx;
	bool sf;
	unsigned int offset;
	const void *data;
	unsigned int size;
	struct ism_dmb *dmb;
};

/* The fake device's state, in the driver's private area of the ism_dev. */
struct fake_dev {
	unsigned int calls[OP_NR];
	struct fake_slot slots[FAKE_MAX_DMBS];
	u64 token_base;		/* tokens are token_base + 1, + 2, ... */
	u64 tokens;		/* tokens handed out so far */
	bool zero_dma;		/* register_dmb reports dma_addr 0 */
	int register_err;	/* register_dmb fails with it if set */
	bool force_idx;		/* register_dmb reports forced_idx */
	u32 forced_idx;
	unsigned int unreg_unknown;	/* unregister_dmb of no DMB */
	int ret;		/* returned by the other ops */
	struct fake_args last;
	/* A fake loopback device, made through ISM_CMD_DEV_NEW of type
	 * FAKE_TYPE: its DMBs are memory that move_data writes and signals,
	 * and it reaches only itself (the ops ignore @ret).
	 */
	bool loop;
	struct list_head list;	/* loop device: in the type's list */
	struct ism_dev *ism;	/* loop device: the device this is part of */
};

static inline struct fake_dev *to_fake(struct ism_dev *dev)
{
	return ism_dev_priv(dev);
}

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

extern const struct ism_device_ops fake_ops_min;
extern const struct ism_device_ops fake_ops_full;
struct ism_dev *fake_dev_alloc(const struct ism_device_ops *ops);
unsigned int fake_used(struct ism_dev *dev);
unsigned int fake_total_calls(struct ism_dev *dev);
extern atomic_t fake_seq;
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
int fake_type_register(void);
void fake_type_unregister(void);
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

#endif /* _NET_ISM_CORE_KUNIT_H */
