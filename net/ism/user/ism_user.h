/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism_user: ISM devices for user space (include/uapi/linux/ism_user.h).
 * Shared by the files of ism_user.ko only.
 *
 * One ISM client for all user space. Each ISM device it is given gets a
 * &struct ism_user_dev and a character device; each open file of it a
 * &struct ism_user_ctx, which owns the DMBs it registered and the peer
 * DMBs it attached (&struct ism_user_buf, one kind of record for both).
 *
 * Locks, outermost first:
 *
 * - the core's client lock of a device, held around add_dev and
 *   remove_dev (see &struct ism_client).
 * - mmap_lock of a process: held by the mm around our mmap() (for
 *   writing) and fault handler (for reading), and taken by
 *   copy_{from,to}_user() faults. So we never copy from or to user space
 *   with the locks below held. The pinned-memory charge is an atomic
 *   counter of the mm (pinned_vm) and takes no lock.
 * - udev->lock, a mutex: the device's list of contexts and its @gone
 *   flag. remove_dev holds it while it revokes every context.
 * - ctx->lock, a rw_semaphore: the context's buffers (@bufs, @next_id,
 *   @nbufs), the writers of @atts and of its entries in udev->by_idx
 *   (whose readers are the handlers, under RCU), and @dead.
 *   Readers: the fault handler, mmap(), MOVE and the other calls that
 *   only use a buffer; writers: what adds or removes one, and revocation.
 *   A context that is not @dead has its device: remove_dev marks it dead
 *   under the write lock before the device goes.
 * - the core's and the device's DMB locks (taken in ism_register_dmb()
 *   and the like) and the file mapping's i_mmap_rwsem (taken by
 *   unmap_mapping_range() when a buffer is revoked).
 * - the lock of udev->shares (xa_lock): each user's share of the device,
 *   &struct ism_user_share (its holdings and its rings), and the limits
 *   user_dmbs, user_bytes and user_rings (written under it, read under it
 *   by the charges). Nothing is taken inside it.
 * - ctx->ev_lock, a spinlock taken with irqs off: the context's event
 *   queue and the signal bits its DMBs have pending. Inside it only the
 *   wait queue's and the eventfd's own spinlocks are taken.
 *
 * - udev->tokens_lock, a spinlock: the writers of udev->by_token, inside
 *   ctx->lock. Nothing is taken inside it.
 *
 * The irq and event handlers, which may run in hard-irq context, take only
 * ev_lock. They find a DMB by index in udev->by_idx, by token in
 * udev->by_token, and a device's contexts in udev->ctxs under RCU;
 * buffers and contexts are freed after a grace period.
 */
#ifndef _NET_ISM_USER_H
#define _NET_ISM_USER_H

#include <linux/cdev.h>
#include <linux/export.h>
#include <linux/hashtable.h>
#include <linux/ism.h>
#include <linux/list.h>
#include <linux/mutex.h>
#include <linux/rwsem.h>
#include <linux/spinlock.h>
#include <linux/types.h>
#include <linux/wait.h>
#include <linux/xarray.h>
#include <uapi/linux/ism_user.h>

struct eventfd_ctx;
struct mm_struct;

/* What ism_user_kunit.ko calls, exported to it only, and only where the
 * kernel has KUnit.
 */
#if IS_ENABLED(CONFIG_KUNIT)
#define ISM_USER_EXPORT_FOR_KUNIT(sym)	EXPORT_SYMBOL_NS_GPL(sym, ISM_USER_KUNIT)
#else
#define ISM_USER_EXPORT_FOR_KUNIT(sym)
#endif

/* Events that wait in a context's queue; signals do not count. */
#define ISM_USER_QUEUE_LEN	64
/* Default of user_rings: doorbells a second, far above what one
 * ping-pong of ism_lat rings, far below what a loop of ioctls could.
 */
#define ISM_USER_RINGS_DEFAULT	100000
/* Largest piece of a MOVE copied through the kernel at once. */
#define ISM_USER_BOUNCE_LEN	(64 * 1024)

extern struct ism_client ism_user_client;
extern unsigned int ism_user_max_buffers;
extern const struct attribute_group *ism_user_dev_groups[];

/**
 * struct ism_user_dev - an ISM device as user space sees it
 * @ism: the device; valid until remove_dev returned
 * @dev: the character device's device, in class ism_user; its release
 *	frees this structure once the last open file is gone
 * @cdev: /dev/ism/NAME
 * @lock: protects @ctxs (writers) and @gone
 * @gone: remove_dev ran: no file opens, every context is dead
 * @ctxs: the open files' contexts, RCU list
 * @by_idx: the files' DMBs by DMB index, for the irq handler (RCU)
 * @tokens_lock: taken by the writers of @by_token
 * @by_token: the files' DMBs by token, for the software events addressed
 *	to them (RCU)
 * @pgoff_shift: mmap offsets, in pages, are a buffer's id above this many
 *	bits of page number: enough for the device's largest DMB, so that
 *	a 32-bit page offset leaves many ids (see ism_user_max_id())
 * @unkeyed_writes: the administrator lets the files write into DMBs whose
 *	key the device cannot check (sysfs unkeyed_writes)
 * @user_dmbs: the DMBs one user's files may hold registered on the device
 *	(sysfs user_dmbs; default half its DMB indexes)
 * @user_bytes: their bytes (sysfs user_bytes; default half its DMB space)
 * @user_rings: the peer doorbells one user's files may ring a second, by
 *	SEND_EVENT and by MOVE with a signal (sysfs user_rings)
 * @shares: user id to &struct ism_user_share, the users' holdings
 */
struct ism_user_dev {
	struct ism_dev *ism;
	struct device dev;
	struct cdev cdev;
	struct mutex lock;	/* the contexts and @gone, see above */
	bool gone;
	struct list_head ctxs;
	struct xarray by_idx;
	spinlock_t tokens_lock;	/* writers of @by_token */
	DECLARE_HASHTABLE(by_token, 8);
	u8 pgoff_shift;
	bool unkeyed_writes;
	u64 user_dmbs;
	u64 user_bytes;
	u64 user_rings;
	struct xarray shares;
};

/**
 * struct ism_user_share - what one user's files hold on a device, and
 *	may still ring
 * @dmbs: DMBs
 * @bytes: their lengths
 * @rings: the doorbells the user's files may ring now
 * @rings_stamp: when @rings was last topped up (ktime_get_ns())
 */
struct ism_user_share {
	u32 dmbs;
	u64 bytes;
	u64 rings;
	u64 rings_stamp;
};

/* The largest buffer id: its page offset fits an unsigned long. */
static inline u32 ism_user_max_id(const struct ism_user_dev *udev)
{
	return min_t(unsigned long, INT_MAX, ULONG_MAX >> udev->pgoff_shift);
}

/**
 * struct ism_user_ctx - an open file of a device
 * @udev: the device; the file holds a reference on udev->dev
 * @mapping: the file's address space, where its mappings are revoked
 * @node: entry in udev->ctxs
 * @lock: see the top of this file
 * @dead: the device is gone, or the file is being released
 * @bufs: buffer id to &struct ism_user_buf
 * @next_id: where the search for a free id starts (ids are reused only
 *	after they wrapped, so that an old mapping does not find a new buffer)
 * @nbufs: number of entries of @bufs
 * @atts: the attached peer DMBs by token, for their DMB_GONE events (RCU)
 * @ev_lock: protects what follows
 * @wait: readers and pollers
 * @ready: DMBs with signal bits pending, &struct ism_user_buf.ready
 * @queue: other events, oldest at @head
 * @head: index of the oldest event of @queue
 * @count: events in @queue
 * @lost: events dropped since the last ISM_USER_EVENT_LOST was read
 * @gone: the device is gone: 1 until DEVICE_GONE was read, then 2
 * @eventfd: signalled with each event, or NULL
 * @rcu: freed after a grace period, as the handlers read it under RCU
 */
struct ism_user_ctx {
	struct ism_user_dev *udev;
	struct address_space *mapping;
	struct list_head node;
	struct rw_semaphore lock;
	bool dead;
	struct xarray bufs;
	u32 next_id;
	unsigned int nbufs;
	struct xarray atts;
	spinlock_t ev_lock;	/* the event state below, see above */
	wait_queue_head_t wait;
	struct list_head ready;
	struct ism_user_event queue[ISM_USER_QUEUE_LEN];
	unsigned int head;
	unsigned int count;
	u64 lost;
	u8 gone;
	struct eventfd_ctx *eventfd;
	struct rcu_head rcu;
};

/**
 * struct ism_user_buf - a DMB a file registered, or a peer's it attached
 * @ctx: the file's context
 * @dmb: the DMB as the core filled it
 * @attached: a peer's DMB attached, not one of the file's
 * @id: key in ctx->bufs, and the mmap offset's high bits
 * @pfn: first page frame of the memory, if @mappable
 * @mappable: whole pages of memory the kernel maps directly
 * @mm: the address space charged for the pages of the DMB or attachment
 * @pages: the pages charged
 * @share: the user share the DMB or attachment is counted in, or NULL
 * @token_node: entry in udev->by_token while a DMB of the file is
 *	registered
 * @ready: entry in ctx->ready while signal bits are pending
 * @pending: the dmbe bits signalled since the last read
 * @released: no longer the file's: signals to it are ignored (ev_lock)
 * @link: entry in a list of buffers being released
 * @rcu: freed after a grace period (the irq handler)
 */
struct ism_user_buf {
	struct ism_user_ctx *ctx;
	struct ism_dmb dmb;
	bool attached;
	u32 id;
	unsigned long pfn;
	bool mappable;
	struct mm_struct *mm;
	unsigned long pages;
	struct ism_user_share *share;
	struct hlist_node token_node;
	struct list_head ready;
	u16 pending;
	bool released;
	struct list_head link;
	struct rcu_head rcu;
};

/**
 * ism_user_dev_get() - the file's device, kept for one call
 * @ctx: the file
 *
 * Takes ctx->lock for reading: remove_dev marks the file dead under the
 * write lock, so the device stays until ism_user_dev_put(). Process
 * context; may sleep.
 *
 * Return: the device, or NULL, with nothing held, once it is gone.
 */
static inline struct ism_dev *ism_user_dev_get(struct ism_user_ctx *ctx)
{
	down_read(&ctx->lock);
	if (!ctx->dead)
		return ctx->udev->ism;
	up_read(&ctx->lock);
	return NULL;
}

/**
 * ism_user_dev_put() - end a call that ism_user_dev_get() began
 * @ctx: the file
 */
static inline void ism_user_dev_put(struct ism_user_ctx *ctx)
{
	up_read(&ctx->lock);
}

/* user_buf.c */
int ism_user_register(struct ism_user_ctx *ctx, struct ism_user_dmb *req);
int ism_user_attach(struct ism_user_ctx *ctx, struct ism_user_dmb *req);
int ism_user_release_token(struct ism_user_ctx *ctx, u64 token,
			   bool attached);
void ism_user_release_bufs(struct ism_user_ctx *ctx);
int ism_user_check_key(struct ism_user_ctx *ctx, struct ism_dev *ism,
		       u64 token, u64 key, u32 *len);
int ism_user_move(struct ism_user_ctx *ctx, const struct ism_user_move *req);
int ism_user_mmap(struct file *file, struct vm_area_struct *vma);

/* user_event.c */
void ism_user_handle_irq(struct ism_dev *ism, unsigned int idx, u16 mask);
void ism_user_handle_event(struct ism_dev *ism, const struct ism_event *ev);
void ism_user_queue_gone(struct ism_user_ctx *ctx);
void ism_user_forget_ready(struct ism_user_buf *buf);
unsigned int ism_user_take_events(struct ism_user_ctx *ctx,
				  struct ism_user_event *ev, unsigned int max,
				  bool *eof);
ssize_t ism_user_read(struct file *file, char __user *to, size_t len,
		      loff_t *ppos);
__poll_t ism_user_poll(struct file *file, struct poll_table_struct *wait);
int ism_user_set_eventfd(struct ism_user_ctx *ctx, int fd);
int ism_user_send_event(struct ism_user_ctx *ctx,
			const struct ism_user_sw_event *req);

/* user_share.c */
void ism_user_shares_init(struct ism_user_dev *udev);
void ism_user_shares_destroy(struct ism_user_dev *udev);
int ism_user_share_charge(struct ism_user_buf *buf);
void ism_user_share_uncharge(struct ism_user_buf *buf);
int ism_user_share_ring(struct ism_user_dev *udev);

/* user_file.c */
extern const struct file_operations ism_user_fops;
struct ism_user_ctx *ism_user_ctx_open(struct ism_user_dev *udev,
				       struct address_space *mapping);
void ism_user_ctx_close(struct ism_user_ctx *ctx);
void ism_user_revoke(struct ism_user_dev *udev);

#endif /* _NET_ISM_USER_H */
