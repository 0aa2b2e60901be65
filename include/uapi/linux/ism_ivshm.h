/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * Virtual ISM over QEMU's ivshmem: the layout of the shared region,
 * version 1. Documentation/networking/ism-ivshm.rst ("The region layout")
 * describes it for readers of the region; this header is its definition,
 * shared by the guests' driver (drivers/ism/ivshm/ivshm_layout.[ch]) and
 * the host's tools (ism-region), so that both compute the same geometry.
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
#ifndef _UAPI_LINUX_ISM_IVSHM_H
#define _UAPI_LINUX_ISM_IVSHM_H

#include <linux/errno.h>
#include <linux/types.h>

/* "ISMIVSHM" read as a little-endian u64 */
#define IVSHM_MAGIC		0x4d485356494d5349ULL
#define IVSHM_VERSION		2
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
/* DMB offsets in descriptors are 32-bit: a data area stops below 4 GiB. */
#define IVSHM_MAX_DATA		0xfffff000U

/* The peer table starts one unit into the region, after the header. */
#define IVSHM_SLOTS_OFF		IVSHM_UNIT
/* Bits per summary word of a partition's signal area. */
#define IVSHM_SUMMARY_BITS	32

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
	__u8 region_id[16];
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
	__u8 gid[16];
	__le32 state;
	__le32 doorbell;
	__u8 reserved[24];
};

/**
 * struct ivshm_dmb_desc - a DMB as its owner publishes it
 * @token: the DMB's token; 0 while the index is free. Written last on
 *	registration and first on unregistration
 * @offset: offset of the DMB in the owner's data area, unit-aligned
 * @len: length of the DMB
 * @rgid: the only peer allowed to write into it
 * @key: 0 for a DMB of a kernel client; else the secret with which a
 *	process of the writer may reach it (ism_user): only the region's
 *	kernels read descriptors
 */
struct ivshm_dmb_desc {
	__le64 token;
	__le32 offset;
	__le32 len;
	__u8 rgid[16];
	__le64 key;
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
	__u8 reserved[56];
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
	__u64 region_size;
	__u32 max_peers;
	__u32 max_dmbs;
	__u32 evq_len;
	__u64 part_off;
	__u64 part_size;
	__u32 sig_off;
	__u32 evq_off;
	__u32 evq_size;
	__u32 data_off;
	__u32 data_len;
	__u8 region_id[16];
};

/* @x rounded up to @a, a power of two */
static inline __u64 ivshm_align(__u64 x, __u64 a)
{
	return (x + a - 1) & ~(a - 1);
}

/**
 * ivshm_geometry() - compute a region's geometry from its parameters
 * @geo: filled on success; region_id is left alone
 * @region_size: bytes of the region, a multiple of %IVSHM_UNIT
 * @max_peers: peer slots, %IVSHM_MIN_PEERS to %IVSHM_MAX_PEERS
 * @max_dmbs: DMB indexes per peer, 1 to %IVSHM_MAX_DMBS
 * @evq_len: event queue entries, a power of two from %IVSHM_MIN_EVQ to
 *	%IVSHM_MAX_EVQ
 *
 * The one definition of where everything is: a host formatting a region
 * and a guest reading its header both use it. Partitions take equal
 * shares of what follows the peer table, in whole units.
 *
 * Return: 0, -EINVAL for a parameter out of range, -ENOSPC if a partition
 * would have less than %IVSHM_MIN_DATA bytes of data area.
 */
static inline int ivshm_geometry(struct ivshm_geo *geo, __u64 region_size,
				 __u32 max_peers, __u32 max_dmbs,
				 __u32 evq_len)
{
	__u32 sig_off, evq_off, evq_size, data_off, units;
	__u64 part_off, part_size;

	if (max_peers < IVSHM_MIN_PEERS || max_peers > IVSHM_MAX_PEERS ||
	    !max_dmbs || max_dmbs > IVSHM_MAX_DMBS ||
	    evq_len < IVSHM_MIN_EVQ || evq_len > IVSHM_MAX_EVQ ||
	    (evq_len & (evq_len - 1)) || !region_size ||
	    region_size > IVSHM_MAX_REGION || region_size % IVSHM_UNIT)
		return -EINVAL;

	/* With the limits above, all of this fits easily in 32 bits. */
	sig_off = ivshm_align(max_dmbs * sizeof(struct ivshm_dmb_desc), 64);
	evq_off = ivshm_align(sig_off + ((max_dmbs + IVSHM_SUMMARY_BITS - 1) /
					 IVSHM_SUMMARY_BITS + max_dmbs) *
			      sizeof(__u32), 64);
	evq_size = sizeof(struct ivshm_evq) +
		   evq_len * sizeof(struct ivshm_evq_entry);
	data_off = ivshm_align(evq_off + max_peers * evq_size, IVSHM_UNIT);
	part_off = ivshm_align(IVSHM_SLOTS_OFF +
			       max_peers * sizeof(struct ivshm_slot),
			       IVSHM_UNIT);
	if (region_size <= part_off)
		return -ENOSPC;
	/* At most 2^28 units: a 32-bit division, on 32-bit kernels too. */
	units = (region_size - part_off) / IVSHM_UNIT;
	part_size = (__u64)(units / max_peers) * IVSHM_UNIT;
	if (part_size < (__u64)data_off + IVSHM_MIN_DATA)
		return -ENOSPC;

	geo->region_size = region_size;
	geo->max_peers = max_peers;
	geo->max_dmbs = max_dmbs;
	geo->evq_len = evq_len;
	geo->part_off = part_off;
	geo->part_size = part_size;
	geo->sig_off = sig_off;
	geo->evq_off = evq_off;
	geo->evq_size = evq_size;
	geo->data_off = data_off;
	geo->data_len = part_size - data_off < IVSHM_MAX_DATA ?
			part_size - data_off : IVSHM_MAX_DATA;
	return 0;
}

/**
 * ivshm_header_geometry() - the geometry of a header's values, if it holds
 * @geo: filled; use it only on success
 * @avail: bytes a reader has of the region (a BAR, a file)
 * @region_size: the header's region_size
 * @max_peers: its max_peers
 * @max_dmbs: its max_dmbs
 * @evq_len: its evq_len
 * @part_off: its part_off
 * @part_size: its part_size
 *
 * For readers of a header whose magic and version matched, with its
 * fields converted to CPU order.
 *
 * Return: 0, or -EINVAL for values out of range, inconsistent with each
 * other (@part_off and @part_size are not what ivshm_geometry() computes)
 * or a region larger than @avail.
 */
static inline int ivshm_header_geometry(struct ivshm_geo *geo, __u64 avail,
					__u64 region_size, __u32 max_peers,
					__u32 max_dmbs, __u32 evq_len,
					__u64 part_off, __u64 part_size)
{
	if (region_size > avail ||
	    ivshm_geometry(geo, region_size, max_peers, max_dmbs, evq_len) ||
	    geo->part_off != part_off || geo->part_size != part_size)
		return -EINVAL;
	return 0;
}

#endif /* _UAPI_LINUX_ISM_IVSHM_H */
