/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/*
 * ISM devices for user space: the character device /dev/ism/NAME that
 * ism_user.ko gives each ISM device. Documentation/userspace-api/ism.rst
 * describes it; this header is its definition.
 *
 * A process opens the device, registers DMBs for a peer GID and maps them
 * (mmap() at the offset the registration returned), attaches a peer's
 * DMB by its token and maps it for zero-copy writing where the device can
 * attach, or writes into it with ISM_USER_IOC_MOVE; it learns of signals,
 * software events and the device going away through read() and poll().
 * All that an open file holds is released when the file is closed.
 *
 * A DMB is reached by its token and its key, both returned by REGISTER:
 * the token names it, the key (64 random bits) is the right to write into
 * it. Give both only to the peer meant to write, the GID the DMB was
 * registered for: any process of that peer's device that has them can
 * write into the DMB, and no one else can, with or without them. DMBs of
 * kernel clients (SMC-D) have no key and are never reachable from here.
 * UNREGISTER and DETACH take only the tokens of the file's own DMBs and
 * attachments: another file, even of the same process, gets -ENOENT.
 *
 * The structures can grow. Each ioctl's number carries the size of its
 * argument (_IOC_SIZE): the kernel takes the sizes of this header and
 * larger ones whose extra bytes are all zero (-E2BIG otherwise), and
 * writes back only as many bytes as the caller's size says. Every field
 * that a call does not read must be 0 (-EINVAL otherwise), so that it
 * can be given a meaning later.
 */
#ifndef _UAPI_LINUX_ISM_USER_H
#define _UAPI_LINUX_ISM_USER_H

#include <linux/ioctl.h>
#include <linux/types.h>

#define ISM_USER_GID_LEN	16
#define ISM_USER_NAME_LEN	16

/* struct ism_user_info.flags */
/* The device can attach peers' DMBs (ISM_USER_IOC_ATTACH). */
#define ISM_USER_INFO_ATTACH	(1U << 0)

/**
 * struct ism_user_info - the device, for ISM_USER_IOC_INFO
 * @gid: the device's GID, what peers name it by
 * @name: the device's name, NUL-terminated
 * @chid: the fabric id: devices of one fabric (one region, one system)
 *	have the same; 0xffff for loopback devices
 * @flags: ISM_USER_INFO_*
 * @max_dmb_len: largest DMB the device registers
 * @max_dmbs: number of DMB indexes of the device, for all its clients
 * @max_buffers: DMBs plus attachments one open file may hold
 * @reserved: 0
 * @reserved2: 0
 */
struct ism_user_info {
	__u8 gid[ISM_USER_GID_LEN];
	char name[ISM_USER_NAME_LEN];
	__u16 chid;
	__u16 reserved;
	__u32 flags;
	__u32 max_dmb_len;
	__u32 max_dmbs;
	__u32 max_buffers;
	__u32 reserved2;
};

/**
 * struct ism_user_peer - a peer, for ISM_USER_IOC_QUERY_PEER
 * @gid: the peer's GID
 * @flags: ISM_USER_PEER_VLAN if @vlan is to be used; no other bit
 * @vlan: VLAN id the peer is to be reached on
 */
struct ism_user_peer {
	__u8 gid[ISM_USER_GID_LEN];
	__u32 flags;
	__u32 vlan;
};

#define ISM_USER_PEER_VLAN	(1U << 0)

/* struct ism_user_dmb.attr, set by the kernel */
/* The DMB can be mapped: mmap() at mmap_offset. */
#define ISM_USER_DMB_MMAP	(1U << 0)

/**
 * struct ism_user_dmb - ISM_USER_IOC_REGISTER and ISM_USER_IOC_ATTACH
 * @token: REGISTER: out, the new DMB's token. ATTACH: in, the peer DMB's
 * @key: REGISTER: out, the new DMB's key, never 0. ATTACH: in, the key
 *	that came with the token
 * @mmap_offset: out: the offset of the buffer for mmap(); 0 if it cannot
 *	be mapped
 * @len: REGISTER: in, the length, a multiple of the page size. ATTACH:
 *	out, the peer DMB's length
 * @flags: in: 0, no flag is defined yet
 * @gid: REGISTER: in, the GID of the only peer allowed to write into the
 *	DMB. ATTACH: out, the owner's GID where the device tells it, else 0
 * @attr: out: ISM_USER_DMB_*
 * @reserved: 0
 *
 * Fields that are out only for a call must be 0 when it is made.
 */
struct ism_user_dmb {
	__u64 token;
	__u64 key;
	__u64 mmap_offset;
	__u32 len;
	__u32 flags;
	__u8 gid[ISM_USER_GID_LEN];
	__u32 attr;
	__u32 reserved;
};

/* struct ism_user_move.flags */
/* Signal the DMB's owner once the data is in place (dmbe bit @dmbe). */
#define ISM_USER_MOVE_SIGNAL	(1U << 0)

/**
 * struct ism_user_move - ISM_USER_IOC_MOVE: write into a peer's DMB
 * @token: the peer DMB's token
 * @key: the peer DMB's key
 * @data: user address of the bytes to write; may be 0 with @size 0
 * @offset: where in the DMB
 * @size: number of bytes; 0 with ISM_USER_MOVE_SIGNAL only signals, as a
 *	writer through an attachment's mapping does
 * @flags: ISM_USER_MOVE_*
 * @dmbe: the signal bit, below 16, with ISM_USER_MOVE_SIGNAL
 *
 * The bytes are in the DMB when the call returns 0; the signal follows
 * them. The whole request is checked before the first byte moves; a
 * write larger than the kernel's bounce buffer then goes in several
 * pieces, the signal with the last. A signal rings the owner's doorbell,
 * within the user's rate (struct ism_user_sw_event).
 */
struct ism_user_move {
	__u64 token;
	__u64 key;
	__u64 data;
	__u32 offset;
	__u32 size;
	__u32 flags;
	__u32 dmbe;
};

/**
 * struct ism_user_sw_event - ISM_USER_IOC_SEND_EVENT
 * @gid: the peer to send to
 * @code: the event's code, 0..0xffff (ISM_USER_EVENT_CODE_MAX)
 * @flags: 0
 * @token: a DMB of that peer, registered for this device's GID: the
 *	event goes to the open file that registered it
 * @key: the DMB's key
 *
 * The token and key that open a DMB to writes open its file to events,
 * and no other file. That file reads an ISM_USER_EVENT_SOFTWARE event
 * with @code, @token and this device's GID. On the fabric, the code is
 * sent as ISM_USER_EVENT_CODE_BASE + @code and the token as the event's
 * info: kernel clients of the peer (SMC-D) never act on those codes, and
 * files never see another client's events. Each SEND_EVENT, as each MOVE
 * with a signal, rings the peer's doorbell: a user's files may ring
 * user_rings a second on a device (ismctl user show), -EAGAIN beyond.
 */
struct ism_user_sw_event {
	__u8 gid[ISM_USER_GID_LEN];
	__u32 code;
	__u32 flags;
	__u64 token;
	__u64 key;
};

#define ISM_USER_EVENT_CODE_BASE	0x49550000U
#define ISM_USER_EVENT_CODE_MAX		0xffffU

/* struct ism_user_event.type */
enum ism_user_event_type {
	/* A peer signalled a DMB of this file: token, info = dmbe bits */
	ISM_USER_EVENT_SIGNAL = 1,
	/* A peer sent a software event to a DMB of this file: gid, code,
	 * token
	 */
	ISM_USER_EVENT_SOFTWARE = 2,
	/* The owner of a DMB this file attached unregistered it: token */
	ISM_USER_EVENT_DMB_GONE = 3,
	/* A peer is gone (left the fabric or failed): gid */
	ISM_USER_EVENT_PEER_GONE = 4,
	/* The device is gone: all the file held is released, mappings are
	 * revoked (an access raises SIGBUS); only close() remains. Last.
	 */
	ISM_USER_EVENT_DEVICE_GONE = 5,
	/* Events were dropped, the file's queue being full, or taken by a
	 * read() whose buffer went away before the copy: info = how many.
	 * Signals are dropped only so: they merge into one event per DMB.
	 */
	ISM_USER_EVENT_LOST = 6,
};

/**
 * struct ism_user_event - what read() returns, one or more whole records
 * @type: an &enum ism_user_event_type
 * @code: ISM_USER_EVENT_SOFTWARE: the sender's code
 * @token: the DMB, for SIGNAL, SOFTWARE and DMB_GONE
 * @info: SIGNAL: the dmbe bits signalled since the last event of the DMB;
 *	LOST: the number of events dropped
 * @gid: SOFTWARE: the sender; PEER_GONE: the peer
 */
struct ism_user_event {
	__u32 type;
	__u32 code;
	__u64 token;
	__u64 info;
	__u8 gid[ISM_USER_GID_LEN];
};

#define ISM_USER_IOC_MAGIC	0xC7

#define ISM_USER_IOC_INFO	_IOR(ISM_USER_IOC_MAGIC, 0x00, struct ism_user_info)
#define ISM_USER_IOC_QUERY_PEER	_IOW(ISM_USER_IOC_MAGIC, 0x01, struct ism_user_peer)
#define ISM_USER_IOC_REGISTER	_IOWR(ISM_USER_IOC_MAGIC, 0x02, struct ism_user_dmb)
#define ISM_USER_IOC_UNREGISTER	_IOW(ISM_USER_IOC_MAGIC, 0x03, __u64)
#define ISM_USER_IOC_ATTACH	_IOWR(ISM_USER_IOC_MAGIC, 0x04, struct ism_user_dmb)
#define ISM_USER_IOC_DETACH	_IOW(ISM_USER_IOC_MAGIC, 0x05, __u64)
#define ISM_USER_IOC_MOVE	_IOW(ISM_USER_IOC_MAGIC, 0x06, struct ism_user_move)
#define ISM_USER_IOC_SEND_EVENT	_IOW(ISM_USER_IOC_MAGIC, 0x07, struct ism_user_sw_event)
/* An eventfd signalled with each event queued (argument: its fd, or -1
 * for none)
 */
#define ISM_USER_IOC_EVENTFD	_IOW(ISM_USER_IOC_MAGIC, 0x08, __s32)

#endif /* _UAPI_LINUX_ISM_USER_H */
