// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user: what an open file learns through read(), poll() and its
 * eventfd. Locking: see ism_user.h.
 *
 * Peers decide how often they signal and send events, so nothing here
 * grows with what they send: a DMB's signals merge into its pending bits
 * (one entry of the ready list per DMB, however many signals), and other
 * events wait in a fixed queue whose overflow is only counted. A signal
 * or a software event goes to the one file that registered its DMB,
 * found by index or token; only a peer's end, which the device reports,
 * goes to every file of the device.
 */
#include <linux/eventfd.h>
#include <linux/pagemap.h>
#include <linux/poll.h>
#include <linux/rculist.h>
#include <linux/sched/signal.h>
#include <linux/uaccess.h>
#include <ism/kcompat.h>

#include "ism_user.h"

/* Records a read() takes from the queue at once, copied out unlocked. */
#define ISM_USER_READ_BATCH	8

/* Readers, pollers and the eventfd, with @mask for the pollers. Caller
 * holds ctx->ev_lock, which keeps ctx->eventfd; both wake-ups take only
 * their own spinlock, so any context will do.
 */
static void ism_user_wake(struct ism_user_ctx *ctx, __poll_t mask)
{
	wake_up_interruptible_poll(&ctx->wait, mask);
	if (ctx->eventfd)
		eventfd_signal(ctx->eventfd);
}

static void ism_user_signal(struct ism_user_buf *buf, u16 mask)
{
	struct ism_user_ctx *ctx = buf->ctx;
	unsigned long flags;

	spin_lock_irqsave(&ctx->ev_lock, flags);
	if (!buf->released && mask) {
		/* A pending DMB's signal merges: nothing new to read. */
		if (!buf->pending) {
			list_add_tail(&buf->ready, &ctx->ready);
			ism_user_wake(ctx, EPOLLIN | EPOLLRDNORM);
		}
		buf->pending |= mask;
	}
	spin_unlock_irqrestore(&ctx->ev_lock, flags);
}

/**
 * ism_user_handle_irq() - the client's handle_irq: a file's DMB signalled
 * @ism: the device
 * @idx: the DMB's index
 * @mask: the dmbe bits
 *
 * Any context, hard irq included.
 */
void ism_user_handle_irq(struct ism_dev *ism, unsigned int idx, u16 mask)
{
	struct ism_user_dev *udev = ism_get_priv(ism, &ism_user_client);
	struct ism_user_buf *buf;

	if (!udev)
		return;
	rcu_read_lock();
	buf = xa_load(&udev->by_idx, idx);
	if (buf)
		ism_user_signal(buf, mask);
	rcu_read_unlock();
}

/* @ev into the queue of @ctx; if @buf, only while it is still the file's
 * (a handler may have found it just before its release).
 */
static void ism_user_queue(struct ism_user_ctx *ctx,
			   const struct ism_user_buf *buf,
			   const struct ism_user_event *ev)
{
	unsigned long flags;

	spin_lock_irqsave(&ctx->ev_lock, flags);
	if (!ctx->gone && !(buf && buf->released)) {
		/* A full queue is readable already: a loss wakes nobody. */
		if (ctx->count < ISM_USER_QUEUE_LEN) {
			ctx->queue[(ctx->head + ctx->count) %
				   ISM_USER_QUEUE_LEN] = *ev;
			ctx->count++;
			ism_user_wake(ctx, EPOLLIN | EPOLLRDNORM);
		} else {
			ctx->lost++;
		}
	}
	spin_unlock_irqrestore(&ctx->ev_lock, flags);
}

/* A software event of a file of the peer's (ISM_USER_EVENT_CODE_BASE, the
 * token in its info) to the file that registered the DMB of that token
 * for the sender. The sender's kernel checked the key; a peer whose kernel
 * does not can name only the DMBs it may write into anyway. Caller holds
 * rcu_read_lock().
 */
static void ism_user_software_event(struct ism_user_dev *udev,
				    const struct ism_event *ev)
{
	struct ism_user_event out = {
		.type = ISM_USER_EVENT_SOFTWARE,
		.code = ev->code - ISM_USER_EVENT_CODE_BASE,
		.token = ev->info,
	};
	struct ism_user_buf *buf;

	export_uuid(out.gid, &ev->gid);
	hash_for_each_possible_rcu(udev->by_token, buf, token_node, ev->info) {
		if (buf->dmb.token == ev->info &&
		    uuid_equal(&buf->dmb.rgid, &ev->gid)) {
			ism_user_queue(buf->ctx, buf, &out);
			return;
		}
	}
}

/**
 * ism_user_handle_event() - the client's handle_event
 * @ism: the device
 * @ev: the event
 *
 * A software event sent by a file (ISM_USER_EVENT_CODE_BASE) goes to the
 * file it is addressed to, a DMB gone to the files that attached it, a
 * peer gone to every file of the device. Software events of other
 * clients are not user space's. Any context, hard irq included.
 */
void ism_user_handle_event(struct ism_dev *ism, const struct ism_event *ev)
{
	struct ism_user_dev *udev = ism_get_priv(ism, &ism_user_client);
	struct ism_user_event out = {};
	struct ism_user_ctx *ctx;

	if (!udev)
		return;
	switch (ev->type) {
	case ISM_EVT_SWR:
		if (ev->code - ISM_USER_EVENT_CODE_BASE > ISM_USER_EVENT_CODE_MAX)
			return;
		rcu_read_lock();
		ism_user_software_event(udev, ev);
		rcu_read_unlock();
		return;
	case ISM_EVT_GID:
		out.type = ISM_USER_EVENT_PEER_GONE;
		break;
	case ISM_EVT_DMB:
		out.type = ISM_USER_EVENT_DMB_GONE;
		out.token = ev->token;
		break;
	default:
		return;
	}
	export_uuid(out.gid, &ev->gid);
	rcu_read_lock();
	list_for_each_entry_rcu(ctx, &udev->ctxs, node)
		if (out.type != ISM_USER_EVENT_DMB_GONE ||
		    xa_load(&ctx->atts, ev->token))
			ism_user_queue(ctx, NULL, &out);
	rcu_read_unlock();
}

/**
 * ism_user_queue_gone() - the device is gone: DEVICE_GONE, then end of file
 * @ctx: a file of the device, already revoked
 */
void ism_user_queue_gone(struct ism_user_ctx *ctx)
{
	unsigned long flags;

	spin_lock_irqsave(&ctx->ev_lock, flags);
	if (!ctx->gone) {
		ctx->gone = 1;
		ism_user_wake(ctx, EPOLLIN | EPOLLHUP | EPOLLERR);
	}
	spin_unlock_irqrestore(&ctx->ev_lock, flags);
}

/**
 * ism_user_forget_ready() - a buffer leaves its file: no more signals
 * @buf: the buffer
 */
void ism_user_forget_ready(struct ism_user_buf *buf)
{
	struct ism_user_ctx *ctx = buf->ctx;
	unsigned long flags;

	spin_lock_irqsave(&ctx->ev_lock, flags);
	if (buf->pending)
		list_del_init(&buf->ready);
	buf->pending = 0;
	buf->released = true;
	spin_unlock_irqrestore(&ctx->ev_lock, flags);
}

/* read() has a record. Without ctx->ev_lock, a hint that the waits of
 * read() and poll() check again after each wake-up.
 */
static bool ism_user_readable(const struct ism_user_ctx *ctx)
{
	return !list_empty_careful(&ctx->ready) || READ_ONCE(ctx->count) ||
	       READ_ONCE(ctx->lost) || READ_ONCE(ctx->gone) == 1;
}

/**
 * ism_user_take_events() - what read() returns
 * @ctx: the file
 * @ev: where to put the events
 * @max: room in @ev, at least 1
 * @eof: set if the file is at its end (DEVICE_GONE was taken before)
 *
 * Takes up to @max events, in this order: the count of those lost, the
 * queue, the signals, and last DEVICE_GONE. The bounded queue goes
 * first: signals merge and are never lost, so a file with many DMBs
 * signalling must not keep the queue full until it overflows. Any
 * context.
 *
 * Return: the number of events taken.
 */
unsigned int ism_user_take_events(struct ism_user_ctx *ctx,
				  struct ism_user_event *ev, unsigned int max,
				  bool *eof)
{
	struct ism_user_buf *buf;
	unsigned long flags;
	unsigned int n = 0;

	spin_lock_irqsave(&ctx->ev_lock, flags);
	*eof = ctx->gone == 2;

	if (ctx->lost) {
		ev[n] = (struct ism_user_event){
			.type = ISM_USER_EVENT_LOST, .info = ctx->lost };
		ctx->lost = 0;
		n++;
	}
	while (n < max && ctx->count) {
		ev[n++] = ctx->queue[ctx->head];
		ctx->head = (ctx->head + 1) % ISM_USER_QUEUE_LEN;
		ctx->count--;
	}
	while (n < max && !list_empty(&ctx->ready)) {
		buf = list_first_entry(&ctx->ready, struct ism_user_buf, ready);
		list_del_init(&buf->ready);
		ev[n] = (struct ism_user_event){ .type = ISM_USER_EVENT_SIGNAL,
			.token = buf->dmb.token, .info = buf->pending };
		buf->pending = 0;
		n++;
	}
	if (n < max && ctx->gone == 1 && list_empty(&ctx->ready) &&
	    !ctx->count && !ctx->lost) {
		ev[n++] = (struct ism_user_event){
			.type = ISM_USER_EVENT_DEVICE_GONE };
		ctx->gone = 2;
	}
	spin_unlock_irqrestore(&ctx->ev_lock, flags);
	return n;
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_take_events);

/* A read() took @n events it could not copy out: the next read() says
 * so (LOST), and still ends with DEVICE_GONE if that was among them.
 */
static void ism_user_lost(struct ism_user_ctx *ctx,
			  const struct ism_user_event *ev, unsigned int n)
{
	unsigned int i;

	spin_lock_irq(&ctx->ev_lock);
	for (i = 0; i < n; i++) {
		if (ev[i].type == ISM_USER_EVENT_DEVICE_GONE)
			ctx->gone = 1;
		else if (ev[i].type == ISM_USER_EVENT_LOST)
			ctx->lost += ev[i].info;
		else
			ctx->lost++;
	}
	spin_unlock_irq(&ctx->ev_lock);
}

/**
 * ism_user_read() - read() of a file: whole &struct ism_user_event records
 * @file: the file
 * @to: user buffer
 * @len: its length, at least one record
 * @ppos: unused
 *
 * Blocks until there is an event, unless the file is non-blocking.
 *
 * Return: the bytes of the records read; 0 (end of file) after
 * DEVICE_GONE was read; -EINVAL for @len below a record; -EAGAIN;
 * -ERESTARTSYS; -EFAULT, having taken nothing, or what it took counted
 * as lost if @to went away after it was checked.
 */
ssize_t ism_user_read(struct file *file, char __user *to, size_t len,
		      loff_t *ppos)
{
	struct ism_user_event ev[ISM_USER_READ_BATCH];
	struct ism_user_ctx *ctx = file->private_data;
	unsigned int max = min_t(size_t, len / sizeof(ev[0]),
				 ISM_USER_READ_BATCH);
	unsigned int n;
	bool eof;
	int ret;

	if (!max)
		return -EINVAL;
	/* Events taken are gone: make sure first that they can be copied
	 * out. A buffer unmapped meanwhile (by another thread) loses them,
	 * and they are counted as lost.
	 */
	if (fault_in_writeable(to, max * sizeof(ev[0])))
		return -EFAULT;
	for (;;) {
		n = ism_user_take_events(ctx, ev, max, &eof);
		if (n || eof)
			break;
		if (file->f_flags & O_NONBLOCK)
			return -EAGAIN;
		ret = wait_event_interruptible(ctx->wait,
					       ism_user_readable(ctx));
		if (ret)
			return ret;
	}
	if (copy_to_user(to, ev, n * sizeof(ev[0]))) {
		ism_user_lost(ctx, ev, n);
		return -EFAULT;
	}
	return n * sizeof(ev[0]);
}

/**
 * ism_user_poll() - poll() of a file
 * @file: the file
 * @wait: the poll table
 *
 * Return: EPOLLIN while read() has a record; EPOLLHUP and EPOLLERR once
 * the device is gone.
 */
__poll_t ism_user_poll(struct file *file, struct poll_table_struct *wait)
{
	struct ism_user_ctx *ctx = file->private_data;
	__poll_t mask = 0;

	poll_wait(file, &ctx->wait, wait);
	spin_lock_irq(&ctx->ev_lock);
	if (ism_user_readable(ctx))
		mask |= EPOLLIN | EPOLLRDNORM;
	if (ctx->gone)
		mask |= EPOLLHUP | EPOLLERR;
	spin_unlock_irq(&ctx->ev_lock);
	return mask;
}

/**
 * ism_user_set_eventfd() - ISM_USER_IOC_EVENTFD
 * @ctx: the file
 * @fd: an eventfd to signal with each event, or -1 for none
 *
 * Return: 0; -EBADF or -EINVAL for an @fd that is no eventfd; -ENODEV
 * for an eventfd once the device is gone. Process context.
 */
int ism_user_set_eventfd(struct ism_user_ctx *ctx, int fd)
{
	struct eventfd_ctx *new = NULL, *old;
	bool refused;

	if (fd != -1) {
		new = eventfd_ctx_fdget(fd);
		if (IS_ERR(new))
			return PTR_ERR(new);
	}
	spin_lock_irq(&ctx->ev_lock);
	/* Once the device is gone, as every request that takes something
	 * on; letting go (-1, also close()'s way) still works.
	 */
	refused = ctx->gone && new;
	if (refused) {
		old = new;
	} else {
		old = ctx->eventfd;
		ctx->eventfd = new;
	}
	spin_unlock_irq(&ctx->ev_lock);
	if (old)
		eventfd_ctx_put(old);
	return refused ? -ENODEV : 0;
}

/* Is the DMB of @token the peer @gid's? Where the device cannot tell
 * (loopback: its one peer is itself; PCI-ISM), the receiving kernel's
 * check of the DMB's rgid is the one there is. Else the owner it names
 * now must be @gid: any other answer, a peer gone meanwhile included, is
 * a refusal like a wrong key's.
 */
static int ism_user_event_owner_ok(struct ism_dev *ism, u64 token,
				   const uuid_t *gid)
{
	uuid_t owner;
	int ret = ism_dmb_owner(ism, token, &owner);

	if (ret == -EOPNOTSUPP)
		return 0;
	return !ret && uuid_equal(&owner, gid) ? 0 : -ENOENT;
}

/**
 * ism_user_send_event() - ISM_USER_IOC_SEND_EVENT
 * @ctx: the file
 * @req: the request, copied in
 *
 * The event is addressed to the file of the peer that registered DMB
 * @req->token: the token and key that open the DMB to writes open its
 * file to events, and to nothing else. A request refused for its
 * arguments costs no ring.
 *
 * Return: 0; -EINVAL for flags or a code above ISM_USER_EVENT_CODE_MAX;
 * -ENOENT for a token and key that name no DMB this device may write, or
 * one whose owner the device knows to be another peer than @req->gid (all
 * alike, as for MOVE); -EPERM where the device cannot check keys and
 * unkeyed writes are off; -EAGAIN past the user's doorbell rate
 * (user_rings); -ENOMEM; -ENODEV once the device is gone; or the device's
 * error (-EHOSTUNREACH: no such peer, as the loopback says of any GID but
 * its own).
 */
int ism_user_send_event(struct ism_user_ctx *ctx,
			const struct ism_user_sw_event *req)
{
	struct ism_dev *ism;
	uuid_t gid;
	u32 len;
	int ret;

	if (req->flags || req->code > ISM_USER_EVENT_CODE_MAX)
		return -EINVAL;
	import_uuid(&gid, req->gid);
	ism = ism_user_dev_get(ctx);
	if (!ism)
		return -ENODEV;
	ret = ism_user_check_key(ctx, ism, req->token, req->key, &len);
	if (!ret)
		ret = ism_user_event_owner_ok(ism, req->token, &gid);
	if (!ret)
		ret = ism_user_share_ring(ctx->udev);
	if (!ret)
		ret = ism_signal_event(ism, &gid, 1,
				       ISM_USER_EVENT_CODE_BASE + req->code,
				       req->token);
	ism_user_dev_put(ctx);
	return ret;
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_send_event);
