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

static int ism_user_query_peer(struct ism_user_ctx *ctx, void __user *arg)
{
	struct ism_user_peer peer;
	struct ism_dev *ism;
	uuid_t gid;
	int ret;

	if (copy_from_user(&peer, arg, sizeof(peer)))
		return -EFAULT;
	if (peer.flags & ~ISM_USER_PEER_VLAN)
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
static int ism_user_new_buf(struct ism_user_ctx *ctx, void __user *arg,
			    bool attach)
{
	struct ism_user_dmb req;
	int ret;

	if (copy_from_user(&req, arg, sizeof(req)))
		return -EFAULT;
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

static int ism_user_send_event(struct ism_user_ctx *ctx, void __user *arg)
{
	struct ism_user_sw_event ev;
	struct ism_dev *ism;
	uuid_t gid;
	int ret;

	if (copy_from_user(&ev, arg, sizeof(ev)))
		return -EFAULT;
	if (ev.flags || ev.code > ISM_USER_EVENT_CODE_MAX)
		return -EINVAL;
	import_uuid(&gid, ev.gid);
	ism = ism_user_dev_get(ctx);
	if (!ism)
		return -ENODEV;
	ret = ism_signal_event(ism, &gid, 1, ISM_USER_EVENT_CODE_BASE + ev.code,
			       ev.info);
	ism_user_dev_put(ctx);
	return ret;
}

static long ism_user_ioctl(struct file *file, unsigned int cmd,
			   unsigned long arg)
{
	struct ism_user_ctx *ctx = file->private_data;
	void __user *uarg = (void __user *)arg;
	struct ism_user_move move;
	u64 token;
	int fd;

	switch (cmd) {
	case ISM_USER_IOC_INFO:
		return ism_user_info(ctx, uarg);
	case ISM_USER_IOC_QUERY_PEER:
		return ism_user_query_peer(ctx, uarg);
	case ISM_USER_IOC_REGISTER:
		return ism_user_new_buf(ctx, uarg, false);
	case ISM_USER_IOC_ATTACH:
		return ism_user_new_buf(ctx, uarg, true);
	case ISM_USER_IOC_UNREGISTER:
	case ISM_USER_IOC_DETACH:
		if (get_user(token, (u64 __user *)uarg))
			return -EFAULT;
		return ism_user_release_token(ctx, token,
					      cmd == ISM_USER_IOC_DETACH);
	case ISM_USER_IOC_MOVE:
		if (copy_from_user(&move, uarg, sizeof(move)))
			return -EFAULT;
		return ism_user_move(ctx, &move);
	case ISM_USER_IOC_SEND_EVENT:
		return ism_user_send_event(ctx, uarg);
	case ISM_USER_IOC_EVENTFD:
		if (get_user(fd, (int __user *)uarg))
			return -EFAULT;
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
