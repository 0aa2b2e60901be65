/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ISM loopback device: a software device that talks only to itself.
 */
#ifndef _DRIVERS_ISM_LO_H
#define _DRIVERS_ISM_LO_H

#include <linux/ism.h>
#include <linux/mutex.h>
#include <linux/sizes.h>
#include <linux/spinlock.h>

/*
 * A DMB token is 44 random bits above the 20-bit slot index, so move_data
 * finds the DMB with one array load and a full-token compare rejects stale
 * tokens.
 */
#define ISM_LO_SLOT_BITS	20
#define ISM_LO_MAX_SLOTS	(1U << ISM_LO_SLOT_BITS)
#define ISM_LO_MAX_DMB_LEN	SZ_1M
/*
 * The max_dmbs parameter's limit. SMC 6.1 keeps one pointer per DMB index
 * in a kcalloc()ed array, which the page allocator cannot give beyond 4
 * MiB (524288 indexes); the limit stays well below, and far above what
 * SMC-D hardware offers (1920).
 */
#define ISM_LO_MAX_DMBS		65536
/* VLAN ids are 12 bits. */
#define ISM_LO_VLANS		4096

/**
 * struct ism_lo_dmb - a loopback DMB
 * @token: the DMB's token
 * @user_key: the key its owner registered it with (&struct ism_dmb)
 * @cpu_addr: the zeroed, physically contiguous buffer
 * @len: length the owner asked for
 * @slot: index in &ism_lo.slots, also the DMB index
 * @registered: the owner has not unregistered it; move_data needs this
 * @attached: number of writers that attached it; they keep it alive
 * @rcu: move_data reads DMBs under RCU
 */
struct ism_lo_dmb {
	u64 token;
	u64 user_key;
	void *cpu_addr;
	u32 len;
	u32 slot;
	bool registered;
	u32 attached;
	struct rcu_head rcu;
};

/**
 * struct ism_lo - the loopback driver's part of an &ism_dev
 * @ism: the device this is part of
 * @list: entry in the driver's device list
 * @lock: protects @slots, @used, @next_slot and each DMB's @registered and
 *	@attached against writers; process context only
 * @vlan_mutex: protects @vlans; a mutex, so the VLAN ops may sleep as the
 *	contract allows, and the debug kernel catches a caller in atomic
 *	context
 * @vlans: the VLANs the device joined
 * @max_dmbs: number of slots
 * @next_slot: where the next search for a free slot starts
 * @used: bitmap of slots holding a DMB (registered or still attached)
 * @slots: the DMBs, read by move_data under RCU
 */
struct ism_lo {
	struct ism_dev *ism;
	struct list_head list;
	spinlock_t lock;
	struct mutex vlan_mutex;
	DECLARE_BITMAP(vlans, ISM_LO_VLANS);
	u32 max_dmbs;
	u32 next_slot;
	unsigned long *used;
	struct ism_lo_dmb __rcu **slots;
};

int ism_lo_dmbs_init(struct ism_lo *lo, u32 max_dmbs);
void ism_lo_dmbs_destroy(struct ism_lo *lo);
int ism_lo_register_dmb(struct ism_dev *ism, struct ism_dmb *dmb);
int ism_lo_unregister_dmb(struct ism_dev *ism, struct ism_dmb *dmb);
int ism_lo_attach_dmb(struct ism_dev *ism, struct ism_dmb *dmb);
int ism_lo_detach_dmb(struct ism_dev *ism, u64 token);
int ism_lo_dmb_user_key(struct ism_dev *ism, u64 token, u64 *key, u32 *len);
void ism_lo_vlans_init(struct ism_lo *lo);
int ism_lo_add_vlan_id(struct ism_dev *ism, u64 vlan_id);
int ism_lo_del_vlan_id(struct ism_dev *ism, u64 vlan_id);
int ism_lo_move_data(struct ism_dev *ism, u64 token, unsigned int idx,
		     bool sf, unsigned int offset, const void *data,
		     unsigned int size);

#endif /* _DRIVERS_ISM_LO_H */
