// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user: each user's share of a device. A device's DMB indexes and
 * space are all its clients' (SMC-D's too): the files of one user, however
 * many processes and files they spread over, may hold at most user_dmbs
 * DMBs of user_bytes in all on it, so that what is left stays for the
 * others, SMC-D's connections included. An attachment counts as a DMB:
 * it holds the DMB's index and memory, after its owner unregistered it
 * too. A user is the real user id of the process that registers, as for
 * RLIMIT_NPROC, seen from the initial user namespace: a process in a user
 * namespace counts as the namespace's owner (the effective user id that
 * created it), so that the many ids a user may map there (/etc/subuid)
 * are one share. The containers that root starts are all root's.
 *
 * A share also bounds how often the user's files ring peers' doorbells:
 * each SEND_EVENT and each MOVE with a signal interrupts the DMB's owner,
 * another guest or this system's own device, and makes it run its signal
 * or event handlers. Locking: see ism_user.h.
 */
#include <linux/cred.h>
#include <linux/math64.h>
#include <linux/slab.h>
#include <linux/uidgid.h>
#include <linux/user_namespace.h>

#include "ism_user.h"

/**
 * ism_user_shares_init() - the default shares of a new device
 * @udev: the device, not yet visible
 *
 * Half of the device's DMB indexes and half of its DMB space (where the
 * device has a fixed one; else of the most its indexes could hold).
 */
void ism_user_shares_init(struct ism_user_dev *udev)
{
	struct ism_dev *ism = udev->ism;
	u64 used, total;

	xa_init(&udev->shares);
	udev->user_dmbs = max(1U, ism_get_max_dmbs(ism) / 2);
	if (ism_get_dmb_space(ism, &used, &total))
		total = (u64)ism_get_max_dmbs(ism) * ism_get_max_dmb_len(ism);
	udev->user_bytes = total / 2;
	udev->user_rings = ISM_USER_RINGS_DEFAULT;
}

/**
 * ism_user_shares_destroy() - forget the users of a device being freed
 * @udev: the device; no buffer of it is left
 */
void ism_user_shares_destroy(struct ism_user_dev *udev)
{
	struct ism_user_share *share;
	unsigned long uid;

	xa_for_each(&udev->shares, uid, share)
		kfree(share);
	xa_destroy(&udev->shares);
}

/* The user a share is kept for: the caller's, or that of the creator of
 * the outermost user namespace it is in.
 */
static unsigned long ism_user_share_uid(void)
{
	const struct user_namespace *ns = current_user_ns();
	kuid_t uid = current_uid();

	for (; ns != &init_user_ns; ns = ns->parent)
		uid = ns->owner;
	return from_kuid(&init_user_ns, uid);
}

/* The share of the calling process's user, made on its first DMB or ring.
 * Shares stay until the device goes: there are as many as users that
 * registered or rang.
 */
static struct ism_user_share *ism_user_share_of(struct ism_user_dev *udev)
{
	unsigned long uid = ism_user_share_uid();
	struct ism_user_share *share, *new;

	share = xa_load(&udev->shares, uid);
	if (share)
		return share;
	new = kzalloc(sizeof(*new), GFP_KERNEL_ACCOUNT);
	if (!new)
		return ERR_PTR(-ENOMEM);
	share = xa_cmpxchg(&udev->shares, uid, NULL, new, GFP_KERNEL);
	if (share || xa_is_err(share))
		kfree(new);
	if (xa_is_err(share))
		return ERR_PTR(xa_err(share));
	return share ?: new;
}

/**
 * ism_user_share_charge() - count a DMB about to be registered, or an
 *	attachment just made
 * @buf: the DMB or attachment, its length set
 *
 * Process context, in the process that registers.
 *
 * Return: 0; -EDQUOT if the user's files hold their share of the device
 * already; -ENOMEM.
 */
int ism_user_share_charge(struct ism_user_buf *buf)
{
	struct ism_user_dev *udev = buf->ctx->udev;
	struct ism_user_share *share = ism_user_share_of(udev);
	int ret = -EDQUOT;

	if (IS_ERR(share))
		return PTR_ERR(share);
	xa_lock(&udev->shares);
	if (share->dmbs < udev->user_dmbs &&
	    share->bytes + buf->dmb.len <= udev->user_bytes) {
		share->dmbs++;
		share->bytes += buf->dmb.len;
		buf->share = share;
		ret = 0;
	}
	xa_unlock(&udev->shares);
	return ret;
}

/**
 * ism_user_share_uncharge() - a DMB that ism_user_share_charge() counted
 *	is gone
 * @buf: the DMB; nothing happens if it was not counted
 */
void ism_user_share_uncharge(struct ism_user_buf *buf)
{
	struct ism_user_dev *udev = buf->ctx->udev;

	if (!buf->share)
		return;
	xa_lock(&udev->shares);
	buf->share->dmbs--;
	buf->share->bytes -= buf->dmb.len;
	xa_unlock(&udev->shares);
	buf->share = NULL;
}

/**
 * ism_user_share_ring() - may the calling process's user ring a peer's
 *	doorbell now?
 * @udev: the device
 *
 * A token bucket: the user's files may ring user_rings doorbells a second
 * on the device, and up to a tenth of a second's worth at once (at least
 * one); 0 allows none. Process context, in the process that rings.
 *
 * Return: 0, having counted the ring; -EAGAIN past the rate; -ENOMEM.
 */
int ism_user_share_ring(struct ism_user_dev *udev)
{
	struct ism_user_share *share = ism_user_share_of(udev);
	u64 now, rate, burst, more, elapsed;
	int ret = -EAGAIN;

	if (IS_ERR(share))
		return PTR_ERR(share);
	xa_lock(&udev->shares);
	now = ktime_get_ns();
	rate = udev->user_rings;
	burst = rate ? max(rate / 10, 1ULL) : 0;
	elapsed = now - share->rings_stamp;
	if (elapsed >= NSEC_PER_SEC) {
		more = burst;
		share->rings_stamp = now;
	} else {
		/* The stamp moves by the time of the whole rings only, so
		 * that what is left of one counts towards the next.
		 */
		more = mul_u64_u64_div_u64(elapsed, rate, NSEC_PER_SEC);
		share->rings_stamp += mul_u64_u64_div_u64(more, NSEC_PER_SEC,
							  rate ?: 1);
	}
	share->rings = min(share->rings, burst);
	share->rings += min(more, burst - share->rings);
	if (share->rings) {
		share->rings--;
		ret = 0;
	}
	xa_unlock(&udev->shares);
	return ret;
}
