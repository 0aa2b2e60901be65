/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Virtual ISM over QEMU's ivshmem: the layout of the shared region,
 * version 1. Documentation/networking/ism-ivshm.rst ("The region layout")
 * describes it for readers of the region; this header is its definition.
 *
 * Every guest of a region (a peer) owns one slot of the peer table and one
 * partition. Only the owner allocates in its partition, so no two guests
 * ever allocate from the same memory and no cross-guest lock exists. Other
 * peers write into a partition only the DMB data the owner let them write,
 * the signal bits of those DMBs (atomic OR) and nothing else.
 *
 * Trust: everything in the region may be rewritten at any time by another
 * guest or the host. Readers copy a structure out before checking it and
 * use only the checked copy; the geometry is read once, at probe. A guest
 * never reads back its own metadata either: it keeps the truth privately
 * and only publishes it in the region.
 *
 * All multi-byte fields are little-endian. The region unit is 4 KiB.
 */
#ifndef _DRIVERS_ISM_IVSHM_LAYOUT_H
#define _DRIVERS_ISM_IVSHM_LAYOUT_H

#include <linux/ism.h>
#include <linux/types.h>
#include <linux/uuid.h>

/* "ISMIVSHM" read as a little-endian u64 */
#define IVSHM_MAGIC		0x4d485356494d5349ULL
#define IVSHM_VERSION		1
#define IVSHM_UNIT		4096U

#define IVSHM_MIN_PEERS		8
#define IVSHM_MAX_PEERS		64
/* DMB indexes per peer: the token has 12 bits for them. */
#define IVSHM_MAX_DMBS		4096
#define IVSHM_MIN_EVQ		8
#define IVSHM_MAX_EVQ		1024
/* A partition's data area is at least this large. */
#define IVSHM_MIN_DATA		(256U * 1024)
/* Regions up to 1 TiB: offsets and sizes stay far from u64 overflow. */
#define IVSHM_MAX_REGION	(1ULL << 40)

/* The peer table starts one unit into the region, after the header. */
#define IVSHM_SLOTS_OFF		IVSHM_UNIT

/* Slot states. A slot with cookie 0 is free whatever its state says. */
#define IVSHM_SLOT_FREE		0
#define IVSHM_SLOT_JOINING	1
#define IVSHM_SLOT_ACTIVE	2
/*
 * Event type of the region only, never handed to clients: the sender took
 * the receiver for gone (its heartbeat stood still) and ended all it had
 * with it, so the receiver ends its side too. info: the receiver's cookie.
 */
#define IVSHM_EVT_FENCE		0x100
/* doorbell of a peer that has no interrupts (ivshmem-plain) */
#define IVSHM_NO_DOORBELL	0xffffffffU

/* Token: bits 0-11 DMB index, 12-17 owner slot, 18-62 random, 63 set. */
#define IVSHM_TOKEN_IDX_BITS	12
#define IVSHM_TOKEN_SLOT_BITS	6

/**
 * struct ivshm_region_hdr - the region header, at offset 0
 * @magic: %IVSHM_MAGIC
 * @version: %IVSHM_VERSION
 * @max_peers: number of peer slots and partitions
 * @region_size: bytes of the region the layout covers
 * @max_dmbs: DMB indexes per partition
 * @evq_len: entries of each event queue, a power of two
 * @part_off: offset of partition 0
 * @part_size: bytes per partition
 * @region_id: random, set when formatted: the region's identity
 *
 * @part_off and @part_size follow from the other fields
 * (ivshm_geometry()); a reader recomputes them and rejects a header whose
 * values differ.
 */
struct ivshm_region_hdr {
	__le64 magic;
	__le32 version;
	__le32 max_peers;
	__le64 region_size;
	__le32 max_dmbs;
	__le32 evq_len;
	__le64 part_off;
	__le64 part_size;
	u8 region_id[16];
};

/**
 * struct ivshm_slot - a peer's entry in the peer table
 * @cookie: random, non-zero while the slot is claimed; changes with every
 *	claim, so a rejoining guest is a new peer. Claimed by cmpxchg()
 * @heartbeat: advanced by the owner periodically; a slot whose heartbeat
 *	stops is taken for gone
 * @gid: the owner's GID: 8 random bytes, then 8 zero bytes (SMC-D's GIDs
 *	are 64 bits)
 * @state: %IVSHM_SLOT_JOINING while the owner resets its partition, then
 *	%IVSHM_SLOT_ACTIVE
 * @doorbell: the owner's ivshmem peer ID, or %IVSHM_NO_DOORBELL
 * @reserved: zero
 */
struct ivshm_slot {
	__le64 cookie;
	__le64 heartbeat;
	u8 gid[16];
	__le32 state;
	__le32 doorbell;
	u8 reserved[24];
};

/**
 * struct ivshm_dmb_desc - a DMB as its owner publishes it
 * @token: the DMB's token; 0 while the index is free. Written last on
 *	registration and first on unregistration
 * @offset: offset of the DMB in the owner's data area, unit-aligned
 * @len: length of the DMB
 * @rgid: the only peer allowed to write into it
 */
struct ivshm_dmb_desc {
	__le64 token;
	__le32 offset;
	__le32 len;
	u8 rgid[16];
};

/**
 * struct ivshm_evq_entry - an event in an event queue
 * @seq: the entry's sequence number, from 1: entry N of the queue is at
 *	index (N - 1) % evq_len. Written last
 * @type: %ISM_EVT_DMB, %ISM_EVT_SWR or %IVSHM_EVT_FENCE
 * @code: event code (SWR)
 * @token: the DMB token (DMB)
 * @info: event information (SWR); the cookie of the receiver's claim of
 *	its slot, as the sender saw it (FENCE)
 */
struct ivshm_evq_entry {
	__le64 seq;
	__le32 type;
	__le32 code;
	__le64 token;
	__le64 info;
};

/**
 * struct ivshm_evq - the events one peer sends another
 * @head: sequence number of the last entry written
 * @reserved: zero; keeps the entries on their own cache lines
 * @ent: evq_len entries
 *
 * In the sender's partition, one queue per receiver slot. Only the sender
 * writes; the receiver keeps its read position privately and loses the
 * oldest events if it falls more than evq_len behind.
 */
struct ivshm_evq {
	__le64 head;
	u8 reserved[56];
	struct ivshm_evq_entry ent[];
};

/**
 * struct ivshm_geo - a region's geometry, as checked: trusted
 * @region_size: bytes of the region in use
 * @max_peers: slots and partitions
 * @max_dmbs: DMB indexes per partition
 * @evq_len: entries per event queue
 * @part_off: offset of partition 0
 * @part_size: bytes per partition
 * @sig_off: offset of the signal area in a partition: one summary bit per
 *	DMB index (u32 words), then one u32 dmbe mask per DMB index
 * @evq_off: offset of the event queues in a partition, one per receiver
 * @evq_size: bytes per event queue
 * @data_off: offset of the data area in a partition
 * @data_len: bytes of the data area
 * @region_id: the region's identity
 *
 * A partition starts with the DMB descriptor table, max_dmbs entries.
 */
struct ivshm_geo {
	u64 region_size;
	u32 max_peers;
	u32 max_dmbs;
	u32 evq_len;
	u64 part_off;
	u64 part_size;
	u32 sig_off;
	u32 evq_off;
	u32 evq_size;
	u32 data_off;
	u32 data_len;
	uuid_t region_id;
};

/**
 * struct ivshm_slot_view - a peer slot, copied out and checked
 * @cookie: the claim's cookie, 0 for a free slot
 * @heartbeat: the heartbeat counter
 * @gid: the peer's GID
 * @state: %IVSHM_SLOT_JOINING or %IVSHM_SLOT_ACTIVE
 * @doorbell: ivshmem peer ID below 65536, or %IVSHM_NO_DOORBELL
 */
struct ivshm_slot_view {
	u64 cookie;
	u64 heartbeat;
	uuid_t gid;
	u32 state;
	u32 doorbell;
};

int ivshm_geometry(struct ivshm_geo *geo, u64 region_size, u32 max_peers,
		   u32 max_dmbs, u32 evq_len);
void ivshm_format(void *region, const struct ivshm_geo *geo);
int ivshm_read_header(const void *region, u64 bar_size,
		      struct ivshm_geo *geo);
u16 ivshm_chid(const struct ivshm_geo *geo);

struct ivshm_slot *ivshm_slot(const struct ivshm_geo *geo, void *region,
			      u32 slot);
int ivshm_read_slot(const struct ivshm_geo *geo, const void *region,
		    u32 slot, struct ivshm_slot_view *view);
void ivshm_reset_partition(const struct ivshm_geo *geo, void *region,
			   u32 slot);

u64 ivshm_token(u32 slot, u32 idx, u64 random);
int ivshm_token_split(const struct ivshm_geo *geo, u64 token, u32 *slot,
		      u32 *idx);
void ivshm_publish_dmb(const struct ivshm_geo *geo, void *region, u32 slot,
		       u32 idx, const struct ivshm_dmb_desc *desc);
void ivshm_retract_dmb(const struct ivshm_geo *geo, void *region, u32 slot,
		       u32 idx);
int ivshm_find_dmb(const struct ivshm_geo *geo, const void *region,
		   u64 token, const uuid_t *writer, u64 *data, u32 *len);
void *ivshm_data(const struct ivshm_geo *geo, void *region, u32 slot,
		 u32 offset);

bool ivshm_signal(const struct ivshm_geo *geo, void *region, u32 slot,
		  u32 idx, u16 dmbemask);
unsigned int ivshm_take_signals(const struct ivshm_geo *geo, void *region,
				u32 slot,
				void (*deliver)(void *ctx, u32 idx, u16 mask),
				void *ctx);
void ivshm_clear_signals(const struct ivshm_geo *geo, void *region,
			 u32 slot, u32 idx);

void ivshm_post_event(const struct ivshm_geo *geo, void *region, u32 sender,
		      u32 receiver, u64 seq, const struct ism_event *ev);
u64 ivshm_evq_head(const struct ivshm_geo *geo, const void *region,
		   u32 sender, u32 receiver);
int ivshm_read_event(const struct ivshm_geo *geo, const void *region,
		     u32 sender, u32 receiver, u64 seq, struct ism_event *ev);

#endif /* _DRIVERS_ISM_IVSHM_LAYOUT_H */
