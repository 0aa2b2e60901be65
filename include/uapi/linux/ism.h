/* SPDX-License-Identifier: GPL-2.0 WITH Linux-syscall-note */
/*
 * ISM generic netlink family: inspect and control the ISM device layer.
 *
 * Read requests (the GET dumps) are open to every user, but DMB tokens and
 * peer GIDs, which let a peer write into a DMB, go only to callers with
 * CAP_NET_ADMIN; STATS_RESET, DEV_NEW and DEV_DEL need CAP_NET_ADMIN.
 * Devices are global: every network namespace sees the same ones.
 *
 * See Documentation/networking/ism.rst.
 */
#ifndef _UAPI_LINUX_ISM_H
#define _UAPI_LINUX_ISM_H

#define ISM_GENL_NAME		"ism"
#define ISM_GENL_VERSION	1

/* Longest device or client name, without the terminating NUL. */
#define ISM_NAME_MAXLEN		15
/* Length of a GID in ISM_ATTR_DEV_GID and ISM_ATTR_DMB_RGID. */
#define ISM_GID_LEN		16

/**
 * enum ism_cmd - commands of the ism family
 * @ISM_CMD_UNSPEC: unused
 * @ISM_CMD_DEV_GET: one device (doit, by %ISM_ATTR_DEV_NAME) or all (dump)
 * @ISM_CMD_DMB_GET: dump the registered DMBs, of the device named by
 *	%ISM_ATTR_DEV_NAME if given; one message per DMB. %ISM_ATTR_DMB_TOKEN
 *	and %ISM_ATTR_DMB_RGID only for callers with CAP_NET_ADMIN
 * @ISM_CMD_CLIENT_GET: dump the registered clients
 * @ISM_CMD_STATS_RESET: zero the statistics of the device named by
 *	%ISM_ATTR_DEV_NAME, or of all devices
 * @ISM_CMD_DEV_NEW: create a device of type %ISM_ATTR_DEV_TYPE named
 *	%ISM_ATTR_DEV_NAME; only types whose driver supports it
 * @ISM_CMD_DEV_DEL: start deleting the device named %ISM_ATTR_DEV_NAME and
 *	return; the device shows %ISM_ATTR_DEV_GOING until it is gone, which
 *	may take as long as its clients' users (SMC-D sockets) hold it
 * @__ISM_CMD_MAX: one past the last command
 */
enum ism_cmd {
	ISM_CMD_UNSPEC,
	ISM_CMD_DEV_GET,
	ISM_CMD_DMB_GET,
	ISM_CMD_CLIENT_GET,
	ISM_CMD_STATS_RESET,
	ISM_CMD_DEV_NEW,
	ISM_CMD_DEV_DEL,
	__ISM_CMD_MAX,
};

#define ISM_CMD_MAX (__ISM_CMD_MAX - 1)

/**
 * enum ism_attr - attributes of the ism family
 * @ISM_ATTR_UNSPEC: unused
 * @ISM_ATTR_PAD: padding for 64-bit attributes
 * @ISM_ATTR_DEV_NAME: string, device name
 * @ISM_ATTR_DEV_TYPE: string, the driver's device type ("loopback", ...)
 * @ISM_ATTR_DEV_GID: binary, %ISM_GID_LEN bytes
 * @ISM_ATTR_DEV_CHID: u16, fabric id
 * @ISM_ATTR_DEV_PARENT: string, name of the parent device; absent if none
 * @ISM_ATTR_DEV_MAX_DMBS: u32, number of DMB indexes
 * @ISM_ATTR_DEV_MAX_DMB_LEN: u32, largest DMB in bytes
 * @ISM_ATTR_DEV_DMBS: u32, DMBs registered now
 * @ISM_ATTR_DEV_CLIENTS: nest of %ISM_ATTR_CLIENT_NAME, the clients
 *	attached to the device
 * @ISM_ATTR_DEV_STATS: nest of &enum ism_stat_attr
 * @ISM_ATTR_DMB_TOKEN: u64
 * @ISM_ATTR_DMB_INDEX: u32
 * @ISM_ATTR_DMB_LEN: u32, bytes
 * @ISM_ATTR_DMB_RGID: binary, %ISM_GID_LEN bytes: the only GID that may
 *	write into the DMB
 * @ISM_ATTR_CLIENT_NAME: string; in a DMB message, the DMB's owner
 * @ISM_ATTR_CLIENT_ID: u32, the client's slot
 * @ISM_ATTR_CLIENT_DEVS: u32, devices the client is attached to
 * @ISM_ATTR_CLIENT_DMBS: u32, DMBs the client holds on all devices
 * @ISM_ATTR_DEV_GOING: flag, the device is being removed: it takes no new
 *	clients or DMBs and waits for its clients to let it go
 * @ISM_ATTR_DEV_CLIENTS_REFUSED: nest of %ISM_ATTR_CLIENT_NAME, the clients
 *	that refused the device (their setup for it failed; see the kernel log)
 * @__ISM_ATTR_MAX: one past the last attribute
 */
enum ism_attr {
	ISM_ATTR_UNSPEC,
	ISM_ATTR_PAD,
	ISM_ATTR_DEV_NAME,
	ISM_ATTR_DEV_TYPE,
	ISM_ATTR_DEV_GID,
	ISM_ATTR_DEV_CHID,
	ISM_ATTR_DEV_PARENT,
	ISM_ATTR_DEV_MAX_DMBS,
	ISM_ATTR_DEV_MAX_DMB_LEN,
	ISM_ATTR_DEV_DMBS,
	ISM_ATTR_DEV_CLIENTS,
	ISM_ATTR_DEV_STATS,
	ISM_ATTR_DMB_TOKEN,
	ISM_ATTR_DMB_INDEX,
	ISM_ATTR_DMB_LEN,
	ISM_ATTR_DMB_RGID,
	ISM_ATTR_CLIENT_NAME,
	ISM_ATTR_CLIENT_ID,
	ISM_ATTR_CLIENT_DEVS,
	ISM_ATTR_CLIENT_DMBS,
	ISM_ATTR_DEV_GOING,
	ISM_ATTR_DEV_CLIENTS_REFUSED,
	__ISM_ATTR_MAX,
};

#define ISM_ATTR_MAX (__ISM_ATTR_MAX - 1)

/**
 * enum ism_stat_attr - per-device counters in %ISM_ATTR_DEV_STATS, all u64
 * @ISM_STAT_ATTR_UNSPEC: unused
 * @ISM_STAT_ATTR_PAD: padding
 * @ISM_STAT_ATTR_MOVES: move_data calls that succeeded
 * @ISM_STAT_ATTR_MOVE_BYTES: bytes they wrote
 * @ISM_STAT_ATTR_SIGNALS: of those, calls that signalled the DMB's owner
 * @ISM_STAT_ATTR_EVENTS_SENT: software events sent to peers
 * @ISM_STAT_ATTR_IRQS: DMB signals delivered to a client
 * @ISM_STAT_ATTR_EVENTS: events delivered to clients (one per client)
 * @ISM_STAT_ATTR_DMBS_REGISTERED: DMBs registered
 * @ISM_STAT_ATTR_DMBS_UNREGISTERED: DMBs unregistered
 * @ISM_STAT_ATTR_ERR_TOKEN: requests naming an unknown or stale token
 * @ISM_STAT_ATTR_ERR_INVAL: requests with an invalid argument: a range
 *	outside the DMB, a bad signal bit or length
 * @ISM_STAT_ATTR_ERR_NOSPC: DMB registrations refused: no free index
 * @ISM_STAT_ATTR_ERR_NOMEM: DMB registrations refused: no memory
 * @ISM_STAT_ATTR_ERR_IRQ_DROPPED: signals for an index with no DMB
 * @ISM_STAT_ATTR_ERR_OTHER: other errors a device returned
 * @__ISM_STAT_ATTR_MAX: one past the last counter
 */
enum ism_stat_attr {
	ISM_STAT_ATTR_UNSPEC,
	ISM_STAT_ATTR_PAD,
	ISM_STAT_ATTR_MOVES,
	ISM_STAT_ATTR_MOVE_BYTES,
	ISM_STAT_ATTR_SIGNALS,
	ISM_STAT_ATTR_EVENTS_SENT,
	ISM_STAT_ATTR_IRQS,
	ISM_STAT_ATTR_EVENTS,
	ISM_STAT_ATTR_DMBS_REGISTERED,
	ISM_STAT_ATTR_DMBS_UNREGISTERED,
	ISM_STAT_ATTR_ERR_TOKEN,
	ISM_STAT_ATTR_ERR_INVAL,
	ISM_STAT_ATTR_ERR_NOSPC,
	ISM_STAT_ATTR_ERR_NOMEM,
	ISM_STAT_ATTR_ERR_IRQ_DROPPED,
	ISM_STAT_ATTR_ERR_OTHER,
	__ISM_STAT_ATTR_MAX,
};

#define ISM_STAT_ATTR_MAX (__ISM_STAT_ATTR_MAX - 1)

#endif /* _UAPI_LINUX_ISM_H */
