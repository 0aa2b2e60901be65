// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user: the open files of /dev/ism/NAME and their ioctls. Locking:
 * see ism_user.h. Requests are copied in before any lock is taken and
 * results copied out after, as a copy may fault on a mapping of the file.
 */
#include <linux/fs.h>
#include <linux/rculist.h>
#include <linux/slab.h>
#include <linux/string.h>
#include <linux/uaccess.h>

#include "ism_user.h"

/**
 * ism_user_ctx_open() - a new user of a device
 * @udev: the device
 * @mapping: where the user's mappings are, to revoke them; NULL for a
 *	user without a file (KUnit)
 *
 * Return: the context, or ERR_PTR(-ENOMEM), or ERR_PTR(-ENODEV) once the
 * device is gone.
 */
struct ism_user_ctx *ism_user_ctx_open(struct ism_user_dev *udev,
				       struct address_space *mapping)
{
	struct ism_user_ctx *ctx;

	ctx = kzalloc(sizeof(*ctx), GFP_KERNEL_ACCOUNT);
	if (!ctx)
		return ERR_PTR(-ENOMEM);
	ctx->udev = udev;
	ctx->mapping = mapping;
	init_rwsem(&ctx->lock);
	xa_init_flags(&ctx->bufs, XA_FLAGS_ALLOC1);
	ctx->next_id = 1;
	xa_init(&ctx->atts);
	spin_lock_init(&ctx->ev_lock);
	init_waitqueue_head(&ctx->wait);
	INIT_LIST_HEAD(&ctx->ready);

	mutex_lock(&udev->lock);
	if (udev->gone) {
		mutex_unlock(&udev->lock);
		kfree(ctx);
		return ERR_PTR(-ENODEV);
	}
	get_device(&udev->dev);
	list_add_tail_rcu(&ctx->node, &udev->ctxs);
	mutex_unlock(&udev->lock);
	return ctx;
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_ctx_open);

/**
 * ism_user_ctx_close() - the user is done: release all it has
 * @ctx: from ism_user_ctx_open()
 */
void ism_user_ctx_close(struct ism_user_ctx *ctx)
{
	struct ism_user_dev *udev = ctx->udev;

	/* Under udev->lock: a remove_dev waits, so the device stays. */
	mutex_lock(&udev->lock);
	list_del_rcu(&ctx->node);
	ism_user_release_bufs(ctx);
	mutex_unlock(&udev->lock);
	ism_user_set_eventfd(ctx, -1);
	xa_destroy(&ctx->bufs);
	xa_destroy(&ctx->atts);
	kfree_rcu(ctx, rcu);
	put_device(&udev->dev);
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_ctx_close);

static int ism_user_open(struct inode *inode, struct file *file)
{
	struct ism_user_dev *udev = container_of(inode->i_cdev,
						 struct ism_user_dev, cdev);
	struct ism_user_ctx *ctx = ism_user_ctx_open(udev, file->f_mapping);

	if (IS_ERR(ctx))
		return PTR_ERR(ctx);
	file->private_data = ctx;
	return nonseekable_open(inode, file);
}

static int ism_user_release(struct inode *inode, struct file *file)
{
	ism_user_ctx_close(file->private_data);
	return 0;
}

/**
 * ism_user_revoke() - the device is going: end every file's use of it
 * @udev: the device, no longer openable
 *
 * Called from remove_dev, before the device goes: every file's buffers
 * are released and its mappings revoked; the files stay open and read
 * DEVICE_GONE.
 */
void ism_user_revoke(struct ism_user_dev *udev)
{
	struct ism_user_ctx *ctx;

	mutex_lock(&udev->lock);
	udev->gone = true;
	list_for_each_entry(ctx, &udev->ctxs, node) {
		ism_user_release_bufs(ctx);
		ism_user_queue_gone(ctx);
	}
	mutex_unlock(&udev->lock);
}

/* An ioctl's argument, of the size its number carries (see the UAPI
 * header): at least this kernel's, the rest all zero. Requests and
 * results are this kernel's size; a larger caller's tail is left alone.
 */
static int ism_user_copy_in(void *req, size_t size, unsigned int cmd,
			    const void __user *arg)
{
	if (_IOC_SIZE(cmd) < size)
		return -EINVAL;
	return copy_struct_from_user(req, size, arg, _IOC_SIZE(cmd));
}

static int ism_user_info(struct ism_user_ctx *ctx, void __user *arg)
{
	struct ism_user_info info = {};
	struct ism_dev *ism;
	uuid_t gid;

	ism = ism_user_dev_get(ctx);
	if (!ism)
		return -ENODEV;
	ism_get_local_gid(ism, &gid);
	export_uuid(info.gid, &gid);
	strscpy(info.name, ism_dev_name(ism), sizeof(info.name));
	info.chid = ism_get_chid(ism);
	info.flags = ism_dev_can_attach(ism) ? ISM_USER_INFO_ATTACH : 0;
	info.max_dmb_len = ism_get_max_dmb_len(ism);
	info.max_dmbs = ism_get_max_dmbs(ism);
	info.max_buffers = ism_user_max_buffers;
	ism_user_dev_put(ctx);
	return copy_to_user(arg, &info, sizeof(info)) ? -EFAULT : 0;
}

static int ism_user_query_peer(struct ism_user_ctx *ctx, unsigned int cmd,
			       void __user *arg)
{
	struct ism_user_peer peer;
	struct ism_dev *ism;
	uuid_t gid;
	int ret;

	ret = ism_user_copy_in(&peer, sizeof(peer), cmd, arg);
	if (ret)
		return ret;
	if (peer.flags & ~ISM_USER_PEER_VLAN ||
	    (!(peer.flags & ISM_USER_PEER_VLAN) && peer.vlan))
		return -EINVAL;
	import_uuid(&gid, peer.gid);
	ism = ism_user_dev_get(ctx);
	if (!ism)
		return -ENODEV;
	ret = ism_query_remote_gid(ism, &gid, peer.flags & ISM_USER_PEER_VLAN,
				   peer.vlan);
	ism_user_dev_put(ctx);
	return ret;
}

/* REGISTER and ATTACH: what the file got is undone if the caller cannot
 * be told about it.
 */
static int ism_user_new_buf(struct ism_user_ctx *ctx, unsigned int cmd,
			    void __user *arg, bool attach)
{
	struct ism_user_dmb req;
	int ret;

	ret = ism_user_copy_in(&req, sizeof(req), cmd, arg);
	if (ret)
		return ret;
	ret = attach ? ism_user_attach(ctx, &req) :
		       ism_user_register(ctx, &req);
	if (ret)
		return ret;
	if (copy_to_user(arg, &req, sizeof(req))) {
		ism_user_release_token(ctx, req.token, attach);
		return -EFAULT;
	}
	return 0;
}

static int ism_user_sw_event_ioctl(struct ism_user_ctx *ctx,
				   unsigned int cmd, void __user *arg)
{
	struct ism_user_sw_event ev;
	int ret;

	ret = ism_user_copy_in(&ev, sizeof(ev), cmd, arg);
	return ret ?: ism_user_send_event(ctx, &ev);
}

/* An ioctl number without its size, which may grow (see the UAPI header). */
#define ISM_USER_IOC_BASE(cmd)	((cmd) & ~(_IOC_SIZEMASK << _IOC_SIZESHIFT))

static long ism_user_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct ism_user_ctx *ctx = file->private_data;
	bool writer = file->f_mode & FMODE_WRITE;
	void __user *uarg = (void __user *)arg;
	struct ism_user_move move;
	u64 token;
	s32 fd;
	int ret;

	switch (ISM_USER_IOC_BASE(cmd)) {
	case ISM_USER_IOC_BASE(ISM_USER_IOC_INFO):
		if (_IOC_SIZE(cmd) < sizeof(struct ism_user_info))
			return -EINVAL;
		return ism_user_info(ctx, uarg);
	case ISM_USER_IOC_BASE(ISM_USER_IOC_QUERY_PEER):
		return ism_user_query_peer(ctx, cmd, uarg);
	case ISM_USER_IOC_BASE(ISM_USER_IOC_REGISTER):
		/* What a read-only file may not do: write, or take memory. */
		if (!writer)
			return -EBADF;
		return ism_user_new_buf(ctx, cmd, uarg, false);
	case ISM_USER_IOC_BASE(ISM_USER_IOC_ATTACH):
		return ism_user_new_buf(ctx, cmd, uarg, true);
	case ISM_USER_IOC_BASE(ISM_USER_IOC_UNREGISTER):
	case ISM_USER_IOC_BASE(ISM_USER_IOC_DETACH):
		ret = ism_user_copy_in(&token, sizeof(token), cmd, uarg);
		if (ret)
			return ret;
		return ism_user_release_token(ctx, token,
					      ISM_USER_IOC_BASE(cmd) ==
					      ISM_USER_IOC_BASE(ISM_USER_IOC_DETACH));
	case ISM_USER_IOC_BASE(ISM_USER_IOC_MOVE):
		if (!writer)
			return -EBADF;
		ret = ism_user_copy_in(&move, sizeof(move), cmd, uarg);
		if (ret)
			return ret;
		return ism_user_move(ctx, &move);
	case ISM_USER_IOC_BASE(ISM_USER_IOC_SEND_EVENT):
		if (!writer)
			return -EBADF;
		return ism_user_sw_event_ioctl(ctx, cmd, uarg);
	case ISM_USER_IOC_BASE(ISM_USER_IOC_EVENTFD):
		ret = ism_user_copy_in(&fd, sizeof(fd), cmd, uarg);
		if (ret)
			return ret;
		return ism_user_set_eventfd(ctx, fd);
	default:
		return -ENOTTY;
	}
}

const struct file_operations ism_user_fops = {
	.owner = THIS_MODULE,
	.open = ism_user_open,
	.release = ism_user_release,
	.read = ism_user_read,
	.poll = ism_user_poll,
	.mmap = ism_user_mmap,
	.unlocked_ioctl = ism_user_ioctl,
	.compat_ioctl = compat_ptr_ioctl,
};
