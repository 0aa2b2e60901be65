/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ISM: the Internal Shared Memory device layer.
 *
 * Two audiences, two sections. Clients (SMC-D and others) use only the
 * ism_*() helpers of the first section and never look inside a device.
 * Device drivers (loopback, virtual ISM, PCI-ISM) fill the ops table of the
 * second section and report interrupts and events to the core, never to a
 * client. The core in between keeps the device and client registries, the
 * owner of every DMB, and routes interrupts and events.
 *
 * See Documentation/networking/ism.rst.
 */
#ifndef _LINUX_ISM_H
#define _LINUX_ISM_H

#include <linux/device.h>
#include <linux/atomic.h>
#include <linux/errno.h>
#include <linux/mutex.h>
#include <linux/overflow.h>
#include <linux/percpu.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/tracepoint-defs.h>
#include <linux/types.h>
#include <linux/u64_stats_sync.h>
#include <linux/uuid.h>
#include <linux/xarray.h>
#include <uapi/linux/ism.h>

struct ism_dev;
struct module;
struct netlink_ext_ack;

/* ======================== Common definitions ======================== */

/** define ISM_MAX_CLIENTS - number of clients that can be registered at once */
#define ISM_MAX_CLIENTS		8
/** define ISM_CHID_LOOPBACK - fabric id of software loopback devices */
#define ISM_CHID_LOOPBACK	0xFFFF
/** define ISM_DMBE_BITS - number of signal bits in a DMB's dmbe mask */
#define ISM_DMBE_BITS		16

/**
 * struct ism_dmb - a Direct Memory Buffer
 * @token: set by the device: names the DMB to a writing peer
 * @cpu_addr: set by the device: kernel address of the buffer
 * @dma_addr: set by the device: bus address of the buffer, never 0
 * @len: set by the client: length in bytes
 * @idx: set by the device: index of the DMB on its device, below max_dmbs
 * @rgid: set by the client: GID of the only device allowed to write into it
 * @user_key: set by the client: 0 for a DMB that only kernel clients of
 *	the writing device may reach; otherwise the secret that a writer in
 *	user space must present with the token (ism_check_user_key())
 *
 * A client fills @len, @rgid and @user_key and passes the structure to
 * ism_register_dmb(); the device fills the rest. The core keeps its own
 * copy: the caller's structure need not outlive the call (it may be on
 * the stack), and a copy with the same @token and @idx is what
 * ism_unregister_dmb() needs later. ism_attach_dmb() takes a peer's
 * @token and fills @cpu_addr, @len and @idx (the index on the owner's
 * device) of the peer's DMB; @dma_addr and @rgid stay as they were.
 */
struct ism_dmb {
	u64 token;
	void *cpu_addr;
	dma_addr_t dma_addr;
	u32 len;
	u32 idx;
	uuid_t rgid;
	u64 user_key;
};

/**
 * enum ism_event_type - kinds of &struct ism_event
 * @ISM_EVT_DMB: a DMB this device writes into was unregistered by its owner
 * @ISM_EVT_GID: a peer GID was disabled or failed
 * @ISM_EVT_SWR: a software event sent by a peer with ism_signal_event()
 */
enum ism_event_type {
	ISM_EVT_DMB = 0,
	ISM_EVT_GID = 1,
	ISM_EVT_SWR = 2,
};

/**
 * struct ism_event - an event reported by a device
 * @type: an &enum ism_event_type
 * @code: type-specific code (for %ISM_EVT_SWR the sender's event code)
 * @token: the DMB token for %ISM_EVT_DMB, else 0
 * @time: device timestamp, 0 if the device has none
 * @info: type-specific information (for %ISM_EVT_SWR the sender's info)
 * @gid: the peer GID the event is about
 */
struct ism_event {
	u32 type;
	u32 code;
	u64 token;
	u64 time;
	u64 info;
	uuid_t gid;
};

/* =========================== Client API =========================== */

/**
 * struct ism_client - a user of ISM devices
 * @name: name of the client, for logs and netlink
 * @add_dev: mandatory; a device became available to the client. Return 0
 *	to use it, or a negative errno to refuse it: the core then calls no
 *	other callback of the client for the device, releases what the client
 *	registered on it, logs ``client NAME refused the device: ERRNO``
 *	and shows the client as refusing it (``ismctl dev``).
 *	Process context, with the device's own client lock held and no global
 *	lock: it must not register or unregister clients or devices. The
 *	client may register DMBs from here, but receives no signal or event
 *	until @start_dev.
 * @start_dev: optional; called once after @add_dev returned 0, when
 *	@handle_irq and @handle_event run for the device: work that expects
 *	a signal or an event (a first message, a worker) starts here. Same
 *	context and lock as @add_dev; may sleep. @remove_dev is not called
 *	before it has returned.
 * @remove_dev: mandatory; the device or the client is going away. Called
 *	only after @add_dev returned 0, in the same context. The client must
 *	stop using the device and unregister its DMBs and attachments before
 *	returning. It may wait (SMC waits for its applications to close their
 *	sockets): that delays only this device's removal or this client's
 *	unregistration, not other devices, clients or netlink readers.
 * @handle_irq: optional; a peer signalled DMB @idx (the DMB's index, as
 *	ism_register_dmb() returned it) of this client; @dmbemask has the
 *	dmbe bits (see ism_move_data()) that were set since the last call.
 *	May run in hard-irq context: must not sleep. Signals may be
 *	coalesced, and one may arrive spuriously for a newly registered DMB
 *	that reuses the index of one just unregistered.
 * @handle_event: optional; the device reported @event. May run in hard-irq
 *	context: must not sleep.
 * @id: set by the core: the client's slot, valid while registered
 *
 * @handle_irq and @handle_event are called under rcu_read_lock() only
 * between the end of a successful @add_dev and the start of @remove_dev
 * for that device: a signal the client provokes from @add_dev itself, or
 * from a worker it starts there, may be lost; one from @start_dev is not.
 */
struct ism_client {
	const char *name;
	int (*add_dev)(struct ism_dev *dev);
	void (*start_dev)(struct ism_dev *dev);
	void (*remove_dev)(struct ism_dev *dev);
	void (*handle_irq)(struct ism_dev *dev, unsigned int idx, u16 dmbemask);
	void (*handle_event)(struct ism_dev *dev, const struct ism_event *event);
	u8 id;
};

/**
 * DOC: Client errors
 *
 * Every client helper that returns an int returns 0 or a negative errno
 * from this list, and changes nothing when it fails, but for a device's
 * error from ism_unregister_dmb() or ism_detach_dmb(): the core forgets
 * its record anyway (for detach that is a driver bug, logged). Common
 * to all, and not repeated: -EINVAL for a NULL pointer argument. "The
 * device's error" is what the driver's op returned; the devices of this
 * tree are named where they add one.
 *
 * Once a client leaves a device (the device's removal, the client's
 * unregistration, or its add_dev refusing) the helpers that create
 * something there, ism_register_dmb() and ism_attach_dmb(), return
 * -ENODEV, as they do before add_dev. All others keep working until the
 * client's remove_dev returns, since that is how a client winds down:
 * it unregisters its DMBs, detaches, tells its peers. They return -ENODEV
 * only where the device itself has gone from its fabric (a virtual ISM
 * guest that lost its slot, a PCI-ISM function that no longer answers).
 * After its remove_dev returned, a client must not pass the device to any
 * helper: the device may be freed.
 *
 * ism_register_client()
 *   -EINVAL: no name, add_dev or remove_dev. -EEXIST: already registered,
 *   or still leaving. -ENOSPC: %ISM_MAX_CLIENTS clients are registered
 *   (``ismctl client`` lists them; the SMC-D bridge and ism_user are two).
 * ism_register_dmb()
 *   -EINVAL: client not registered; len 0 or above ism_get_max_dmb_len();
 *   on a loopback device, an rgid other than the device's own GID.
 *   -ENODEV: as above. -ENOSPC: no DMB index or no DMB space left on the
 *   device (counted as err-nospc and logged, rate-limited). -ENOMEM. -EIO:
 *   the driver returned an index in use or not below max_dmbs, or a
 *   dma_addr of 0 (a driver bug); on PCI-ISM, the function refused.
 * ism_unregister_dmb()
 *   -ENOENT: the client has no DMB of this token and index on the device
 *   (a stale token, a second unregister, another client's DMB). -ENODEV:
 *   as above. The device's error: PCI-ISM's -EIO (the function refused).
 *   After a device error the core has forgotten the DMB all the same.
 * ism_attach_dmb()
 *   -EINVAL: client not registered. -EOPNOTSUPP: the device cannot attach
 *   (ism_dev_can_attach()). -ENODEV: as above. -ENOENT: no DMB of this
 *   token; on the virtual ISM device also its owner's DMB for another
 *   writer (-EACCES) or a malformed one (-EBADMSG). -ENOMEM.
 * ism_detach_dmb()
 *   -EOPNOTSUPP: as for attaching. -ENOENT: the client holds no
 *   attachment of this token on the device (never attached, detached
 *   already, attached by another client, or the client is not registered).
 *   The device's error: none of this tree's devices returns one.
 * ism_move_data()
 *   -ENOENT: no DMB of this token, including one its owner unregistered
 *   while the writer is still attached. -EINVAL: a range outside the DMB,
 *   a dmbe bit not below %ISM_DMBE_BITS, NULL data with a non-zero size.
 *   -ENODEV: the device has gone from its fabric. On the virtual ISM
 *   device also -EACCES (the DMB is for another writer) and -EBADMSG
 *   (its owner published a malformed DMB).
 * ism_query_remote_gid()
 *   The device's error for a peer it cannot reach: -EHOSTUNREACH
 *   (loopback: any GID but its own; virtual ISM: no such peer in the
 *   region), -ENOENT (PCI-ISM), -EINVAL (PCI-ISM: a GID that is not 64
 *   bits wide, or a VLAN id above 4095). -ENODEV: as above.
 * ism_dmb_owner()
 *   -EOPNOTSUPP: the device cannot tell (loopback, PCI-ISM). -ENOENT: the
 *   token names no peer present now (one that went away was reported
 *   with an %ISM_EVT_GID event). -ENODEV: as above.
 * ism_check_user_key()
 *   -ENOENT: no DMB of this token that this device may write, a DMB of a
 *   kernel client (key 0), or another key: the three are not told apart.
 *   -EOPNOTSUPP: the device cannot see the key of this token's DMB
 *   (PCI-ISM: none). -ENODEV: as above.
 * ism_get_dmb_space()
 *   -EOPNOTSUPP: the device's DMBs come from no fixed area (loopback,
 *   PCI-ISM: memory of the system).
 * ism_signal_event()
 *   -EOPNOTSUPP: the device sends no software events. -EHOSTUNREACH: as
 *   for ism_query_remote_gid(). -ENODEV: as above. PCI-ISM: -EINVAL, -EIO.
 * ism_add_vlan_id(), ism_del_vlan_id(), ism_set_vlan_required()
 *   -EOPNOTSUPP: the device has no VLANs, or (set_vlan_required) no such
 *   mode: only PCI-ISM has it. -ENODEV: as above. The device's error:
 *   PCI-ISM's -EINVAL (an id above 4095) and -EIO.
 * ism_set_priv()
 *   -EINVAL: client not registered.
 */

int ism_register_client(struct ism_client *client);
void ism_unregister_client(struct ism_client *client);

int ism_register_dmb(struct ism_dev *dev, struct ism_dmb *dmb,
		     struct ism_client *client);
int ism_unregister_dmb(struct ism_dev *dev, struct ism_dmb *dmb,
		       struct ism_client *client);
int ism_attach_dmb(struct ism_dev *dev, struct ism_dmb *dmb,
		   struct ism_client *client);
int ism_detach_dmb(struct ism_dev *dev, u64 token, struct ism_client *client);
int ism_query_remote_gid(struct ism_dev *dev, const uuid_t *rgid,
			 u32 vid_valid, u32 vid);
int ism_dmb_owner(struct ism_dev *dev, u64 token, uuid_t *gid);
int ism_check_user_key(struct ism_dev *dev, u64 token, u64 key, u32 *len);
int ism_signal_event(struct ism_dev *dev, const uuid_t *rgid,
		     u32 trigger_irq, u32 event_code, u64 info);
int ism_add_vlan_id(struct ism_dev *dev, u64 vlan_id);
int ism_del_vlan_id(struct ism_dev *dev, u64 vlan_id);
int ism_set_vlan_required(struct ism_dev *dev, bool required);
void ism_get_local_gid(const struct ism_dev *dev, uuid_t *gid);
u16 ism_get_chid(struct ism_dev *dev);
u32 ism_get_max_dmbs(const struct ism_dev *dev);
u32 ism_get_max_dmb_len(const struct ism_dev *dev);
int ism_get_dmb_space(struct ism_dev *dev, u64 *used, u64 *total);
bool ism_dev_can_attach(const struct ism_dev *dev);
const char *ism_dev_name(const struct ism_dev *dev);
struct device *ism_dev_device(struct ism_dev *dev);
void *ism_get_priv(const struct ism_dev *dev, const struct ism_client *client);
int ism_set_priv(struct ism_dev *dev, const struct ism_client *client,
		 void *priv);

/* ======================= Device driver API ======================== */

/**
 * struct ism_device_ops - what a device driver implements
 * @query_remote_gid: mandatory; 0 if the device can reach @rgid (on VLAN
 *	@vid when @vid_valid), else a negative errno. Process context.
 * @register_dmb: mandatory; allocate a zeroed DMB of @dmb->len bytes that
 *	only @dmb->rgid may write; fill token, idx, cpu_addr and dma_addr.
 *	A device with @dmb_user_key keeps @dmb->user_key where the writer's
 *	kernel finds it, and gives a DMB registered later at the same index
 *	another token (random bits, at least 40): a token whose key was
 *	checked never names a newer DMB. Process context, may sleep.
 * @unregister_dmb: mandatory; free the DMB named by @dmb->token and
 *	@dmb->idx. Process context, may sleep. The core calls it once per
 *	successful @register_dmb.
 * @move_data: mandatory; copy @size bytes from @data to offset @offset of
 *	the peer DMB @token. With @sf set, set bit @idx of that DMB's dmbe
 *	mask and interrupt its owner. Must reject an unknown token (-ENOENT),
 *	a range outside the DMB (-EINVAL, see ism_dmb_range_ok()), @idx
 *	not below %ISM_DMBE_BITS and a NULL @data with a non-zero @size
 *	(-EINVAL), writing nothing. Each aligned 8-byte word of the
 *	destination is written whole (ism_copy_to_dmb() does it), as SMC-D
 *	reads its cursors with atomic64_read(). @data may be
 *	the destination itself (an attached writer) but must not partly
 *	overlap it. A device that left its fabric for good returns -ENODEV
 *	and withdraws itself (ism_dev_unregister()). Any context in
 *	which the caller may be, including softirq; must not sleep.
 * @get_chid: mandatory; the fabric id. Any context.
 * @signal_event: optional; send a software event to @rgid. Process or
 *	softirq context; must not sleep.
 * @add_vlan_id: optional; join VLAN @vlan_id. Process context, may sleep.
 * @del_vlan_id: optional; leave VLAN @vlan_id. Process context, may sleep.
 * @set_vlan_required: optional; with @required, reach peers only on the
 *	VLANs joined with @add_vlan_id; without, on any. Process context,
 *	may sleep.
 * @attach_dmb: optional, with @detach_dmb; map the peer DMB @dmb->token
 *	for zero-copy writing: fill cpu_addr, len and idx. The memory stays
 *	valid until the matching @detach_dmb, even if its owner unregisters
 *	the DMB first. Process context, may sleep.
 * @detach_dmb: optional, with @attach_dmb; undo one @attach_dmb of @token.
 *	The core calls it once per successful @attach_dmb. Process context.
 * @dmb_owner: optional; the GID of the peer that owns the DMB @token, as
 *	far as the token tells it, whether or not the DMB exists (-ENOENT if
 *	it names no present peer). Devices whose peers need not be trusted
 *	(the virtual ISM device) set it, so that a client can end what it
 *	has with a peer whose DMB refused a write; such a device reports
 *	every peer that goes away with an %ISM_EVT_GID event. Any context
 *	but hard irq; must not sleep.
 * @dmb_user_key: optional; the user key the owner registered DMB @token
 *	with (&struct ism_dmb) and its length, for a DMB that this device
 *	may write into: -ENOENT for any other token. Devices that can see the keys of the
 *	DMBs they write (loopback: its own; virtual ISM: the region's
 *	descriptors) set it; without it, ism_user refuses writes from user
 *	space unless the administrator allowed them. Any context but hard
 *	irq; must not sleep.
 * @dmb_space: optional; bytes of the device's DMB space in DMBs now
 *	(@used) and in all (@total), for a device whose DMBs come from a
 *	fixed area (the virtual ISM device: its partition of the region).
 *	Shown by netlink and sysfs, and logged when @register_dmb finds no
 *	room. Any context but hard irq; must not sleep or take a lock the
 *	core may hold (sysfs reads it during device removal).
 *
 * The core copies the driver's const template into each &struct ism_dev,
 * so the data path is one indirect call with no extra dereference.
 */
struct ism_device_ops {
	int (*query_remote_gid)(struct ism_dev *dev, const uuid_t *rgid,
				u32 vid_valid, u32 vid);
	int (*register_dmb)(struct ism_dev *dev, struct ism_dmb *dmb);
	int (*unregister_dmb)(struct ism_dev *dev, struct ism_dmb *dmb);
	int (*move_data)(struct ism_dev *dev, u64 token, unsigned int idx,
			 bool sf, unsigned int offset, const void *data,
			 unsigned int size);
	u16 (*get_chid)(struct ism_dev *dev);
	int (*signal_event)(struct ism_dev *dev, const uuid_t *rgid,
			    u32 trigger_irq, u32 event_code, u64 info);
	int (*add_vlan_id)(struct ism_dev *dev, u64 vlan_id);
	int (*del_vlan_id)(struct ism_dev *dev, u64 vlan_id);
	int (*set_vlan_required)(struct ism_dev *dev, bool required);
	int (*attach_dmb)(struct ism_dev *dev, struct ism_dmb *dmb);
	int (*detach_dmb)(struct ism_dev *dev, u64 token);
	int (*dmb_owner)(struct ism_dev *dev, u64 token, uuid_t *gid);
	int (*dmb_user_key)(struct ism_dev *dev, u64 token, u64 *key,
			    u32 *len);
	void (*dmb_space)(struct ism_dev *dev, u64 *used, u64 *total);
};

/**
 * struct ism_dev_type - a kind of ISM device
 * @name: the type's name, shown by netlink and sysfs ("loopback", ...);
 *	at most %ISM_NAME_MAXLEN characters
 * @owner: the driver's module; the core holds a reference while it calls
 *	@new_dev
 * @new_dev: optional; create and register a device named @name, for
 *	``ismctl dev add``. The name is valid and was free when the core
 *	checked; ism_dev_register() fails with -EEXIST if it was taken since.
 *	Process context, no core lock held. Set a message in @extack on
 *	failure where useful.
 * @del_dev: optional; unregister and free @dev, for ``ismctl dev del``.
 *	Return -ENODEV if @dev is not, or no longer, one of the driver's
 *	devices. The core holds a reference on @dev and calls it from a
 *	work item, with no core lock held; ism_dev_type_unregister() waits
 *	for it.
 * @list: core: entry in the registry of types, see
 *	ism_dev_type_register()
 */
struct ism_dev_type {
	const char *name;
	struct module *owner;
	int (*new_dev)(const char *name, struct netlink_ext_ack *extack);
	int (*del_dev)(struct ism_dev *dev, struct netlink_ext_ack *extack);
	struct list_head list;
};

int ism_dev_type_register(struct ism_dev_type *type);
void ism_dev_type_unregister(struct ism_dev_type *type);

/** define ISM_STAT_NUM - number of per-device counters, &enum ism_stat_attr */
#define ISM_STAT_NUM	(__ISM_STAT_ATTR_MAX - ISM_STAT_ATTR_MOVES)

/**
 * struct ism_pcpu_stats - one CPU's share of a device's counters
 * @cnt: the counter of attribute A of &enum ism_stat_attr is at index
 *	A - %ISM_STAT_ATTR_MOVES
 * @syncp: lets 32-bit readers see whole values
 */
struct ism_pcpu_stats {
	u64_stats_t cnt[ISM_STAT_NUM];
	struct u64_stats_sync syncp;
};

/**
 * struct ism_dev - an ISM device
 * @ops: the driver's operations, copied in by ism_dev_alloc()
 * @dev: the device in class ``ism``; set its name and parent before
 *	ism_dev_register()
 * @gid: the device's GID; set by the driver before ism_dev_register()
 * @max_dmb_len: largest DMB the device accepts; set by the driver
 * @max_dmbs: number of DMB indexes: every DMB index is below it. Set by
 *	the driver before ism_dev_register() and constant from then on
 * @type: the device's type; set by the driver, may stay NULL if the
 *	driver registers no type
 * @list: core: entry in the device registry
 * @clients_mutex: core: serialises the add_dev and remove_dev calls for
 *	this device, see net/ism/ism_core.h
 * @going: core: ism_dev_unregister() has begun; no client is added
 * @del_queued: core: a netlink DEV_DEL of the device is pending
 * @added: core: bit N set from the call of client N's add_dev until its
 *	remove_dev returned
 * @refused: core: bit N set while client N refuses the device
 * @dmbs: core: DMB index to the core's record of the DMB and its owner
 * @dmb_count: core: number of records in @dmbs
 * @client_dmbs: core: number of records in @dmbs owned by each client
 * @attached: core: the zero-copy attachments, &struct ism_attachment
 * @attach_lock: core: protects @attached
 * @clients: core: clients attached to this device, RCU-protected
 * @client_priv: core: each client's private pointer for this device
 * @dmbs_closed: core: bit N clear only while client N may register DMBs
 *	and attachments on this device: from just before its add_dev to the
 *	start of its detach
 * @dmbs_open: core: held for reading by DMB registrations, for writing
 *	to set a bit of @dmbs_closed
 * @stats: core: the device's counters, see ism_stat_add()
 * @stats_base: core: the counters' values at the last reset
 * @priv: the driver's private area, see ism_dev_priv()
 *
 * Fields marked core are owned by the core; drivers and clients do not
 * touch them.
 */
struct ism_dev {
	struct ism_device_ops ops;
	struct device dev;
	uuid_t gid;
	u32 max_dmb_len;
	u32 max_dmbs;
	const struct ism_dev_type *type;
	struct list_head list;
	struct mutex clients_mutex;
	bool going;
	bool del_queued;
	unsigned long added;
	unsigned long refused;
	struct xarray dmbs;
	atomic_t dmb_count;
	atomic_t client_dmbs[ISM_MAX_CLIENTS];
	struct list_head attached;
	spinlock_t attach_lock;
	struct ism_client __rcu *clients[ISM_MAX_CLIENTS];
	void *client_priv[ISM_MAX_CLIENTS];
	unsigned long dmbs_closed;
	struct rw_semaphore dmbs_open;
	struct ism_pcpu_stats __percpu *stats;
	u64 stats_base[ISM_STAT_NUM];
	u8 priv[] __aligned(sizeof(u64));
};

struct ism_dev *ism_dev_alloc(const struct ism_device_ops *ops,
			      size_t priv_size);
int ism_dev_register(struct ism_dev *dev);
void ism_dev_unregister(struct ism_dev *dev);
void ism_handle_irq(struct ism_dev *dev, unsigned int idx, u16 dmbemask);
void ism_handle_event(struct ism_dev *dev, const struct ism_event *event);
void ism_copy_to_dmb(void *dst, const void *src, size_t len);

/**
 * ism_dev_priv() - the driver's private area of a device
 * @dev: device allocated with ism_dev_alloc()
 *
 * Return: the start of the area of the size given to ism_dev_alloc().
 */
static inline void *ism_dev_priv(struct ism_dev *dev)
{
	return dev->priv;
}

/**
 * ism_dmb_range_ok() - check a write of @size bytes at @offset of a DMB
 * @dmb_len: length of the DMB
 * @offset: first byte to write
 * @size: number of bytes
 *
 * For drivers' @move_data. Safe against @offset + @size wrapping around.
 *
 * Return: true if the whole range lies inside the DMB.
 */
static inline bool ism_dmb_range_ok(u32 dmb_len, unsigned int offset,
				    unsigned int size)
{
	unsigned int end;

	return !check_add_overflow(offset, size, &end) && end <= dmb_len;
}

/* ====================== Client inline helpers ====================== */

/*
 * Core: updating a device's counters. ism_stats_begin() pins the CPU and
 * returns its share; __ism_stat_add() adds to one counter; ism_stats_end()
 * unpins. Any context.
 */
static inline struct ism_pcpu_stats *ism_stats_begin(struct ism_dev *dev,
						     unsigned long *flags)
{
	struct ism_pcpu_stats *stats = get_cpu_ptr(dev->stats);

	*flags = u64_stats_update_begin_irqsave(&stats->syncp);
	return stats;
}

static inline void __ism_stat_add(struct ism_pcpu_stats *stats,
				  unsigned int stat, u64 n)
{
	u64_stats_add(&stats->cnt[stat - ISM_STAT_ATTR_MOVES], n);
}

static inline void ism_stats_end(struct ism_dev *dev,
				 struct ism_pcpu_stats *stats,
				 unsigned long flags)
{
	u64_stats_update_end_irqrestore(&stats->syncp, flags);
	put_cpu_ptr(dev->stats);
}

/**
 * ism_stat_add() - add to a device counter
 * @dev: device
 * @stat: the counter, an &enum ism_stat_attr from %ISM_STAT_ATTR_MOVES on
 * @n: amount
 *
 * For the core and its inline helpers. Any context.
 */
static inline void ism_stat_add(struct ism_dev *dev, unsigned int stat, u64 n)
{
	unsigned long flags;
	struct ism_pcpu_stats *stats = ism_stats_begin(dev, &flags);

	__ism_stat_add(stats, stat, n);
	ism_stats_end(dev, stats, flags);
}

/**
 * ism_stat_error() - the counter for an error a device request returned
 * @err: negative errno
 *
 * Return: an ``ISM_STAT_ATTR_ERR_*`` value of &enum ism_stat_attr.
 */
static inline unsigned int ism_stat_error(int err)
{
	switch (err) {
	case -ENOENT:
		return ISM_STAT_ATTR_ERR_TOKEN;
	case -EINVAL:
		return ISM_STAT_ATTR_ERR_INVAL;
	case -ENOSPC:
		return ISM_STAT_ATTR_ERR_NOSPC;
	case -ENOMEM:
		return ISM_STAT_ATTR_ERR_NOMEM;
	default:
		return ISM_STAT_ATTR_ERR_OTHER;
	}
}

DECLARE_TRACEPOINT(ism_move_data);
void ism_trace_move_data(struct ism_dev *dev, u64 token, unsigned int offset,
			 unsigned int size, bool sf, int ret);

/**
 * ism_move_data() - write into a peer's DMB
 * @dev: local device
 * @token: token of the peer DMB
 * @idx: dmbe bit to signal, below %ISM_DMBE_BITS
 * @sf: signal the DMB's owner once the data is in place
 * @offset: offset into the peer DMB
 * @data: source buffer; the destination itself or not overlapping it
 * @size: number of bytes
 *
 * Synchronous: when it returns 0 the bytes are in the peer DMB. Any context
 * but hard irq; does not sleep. One indirect call, then per-CPU counters
 * and the ism_move_data tracepoint: the hot path.
 *
 * @dev must be a device the client was given by add_dev and whose
 * remove_dev has not returned (a client may still write from remove_dev);
 * the call does not check it.
 *
 * Nothing is written on error. Where a peer need not be trusted, it can
 * make any write fail: see ism_dmb_owner().
 *
 * Return: 0, or an error of its entry in "Client errors" above.
 */
static inline int ism_move_data(struct ism_dev *dev, u64 token,
				unsigned int idx, bool sf, unsigned int offset,
				const void *data, unsigned int size)
{
	int ret = dev->ops.move_data(dev, token, idx, sf, offset, data, size);
	struct ism_pcpu_stats *stats;
	unsigned long flags;

	/* One pinned section for all the counters of the call. */
	stats = ism_stats_begin(dev, &flags);
	if (likely(!ret)) {
		__ism_stat_add(stats, ISM_STAT_ATTR_MOVES, 1);
		__ism_stat_add(stats, ISM_STAT_ATTR_MOVE_BYTES, size);
		if (sf)
			__ism_stat_add(stats, ISM_STAT_ATTR_SIGNALS, 1);
	} else {
		__ism_stat_add(stats, ism_stat_error(ret), 1);
	}
	ism_stats_end(dev, stats, flags);
	if (tracepoint_enabled(ism_move_data))
		ism_trace_move_data(dev, token, offset, size, sf, ret);
	return ret;
}

#endif /* _LINUX_ISM_H */
