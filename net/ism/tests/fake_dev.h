/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The fake ISM device of the KUnit suites: a small DMB table, ops that
 * count their calls and record their arguments, and fake loopback
 * devices made through ISM_CMD_DEV_NEW of type FAKE_TYPE (fake_dev.c).
 * One source for every suite that needs a device with no hardware behind
 * it: the core's (this folder) and ism_user's (net/ism/user/tests/,
 * which compiles fake_dev.c into its own module).
 */
#ifndef _NET_ISM_TESTS_FAKE_DEV_H
#define _NET_ISM_TESTS_FAKE_DEV_H

#include <linux/atomic.h>
#include <linux/ism.h>
#include <linux/list.h>
#include <linux/sizes.h>

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
	OP_DMB_USER_KEY,
	OP_NR,
};

struct fake_slot {
	bool used;
	u64 token;
	u32 idx;
	u32 len;
	u64 user_key;
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

extern const struct ism_device_ops fake_ops_min;
extern const struct ism_device_ops fake_ops_full;
struct ism_dev *fake_dev_alloc(const struct ism_device_ops *ops);
unsigned int fake_used(struct ism_dev *dev);
unsigned int fake_total_calls(struct ism_dev *dev);
extern atomic_t fake_seq;
int fake_type_register(void);
void fake_type_unregister(void);

#endif /* _NET_ISM_TESTS_FAKE_DEV_H */
