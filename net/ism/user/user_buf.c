// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user: the buffers of an open file. DMBs it registered and peer DMBs
 * it attached, their mappings into user space, and writes into peers'
 * DMBs. Locking: see ism_user.h.
 *
 * A mapping is filled page by page at fault time, from the buffer the
 * file still has, so that taking the buffer away (unregister, detach, the
 * device going) is: forget it under ctx->lock, zap its pages from every
 * mapping of the file, then give the memory back to the device. A later
 * access finds no buffer and gets SIGBUS; none can reach freed memory.
 */
#include <linux/io.h>
#include <linux/mm.h>
#include <linux/pagemap.h>
#include <linux/random.h>
#include <linux/sched/mm.h>
#include <linux/sched/signal.h>
#include <linux/slab.h>
#include <linux/uaccess.h>
#include <ism/kcompat.h>

#include "ism_user.h"

/* The pages of a DMB, or of an attachment, count as pinned memory of the
 * process that registered or attached it, as RDMA's registered memory
 * does: RLIMIT_MEMLOCK bounds them unless the process has CAP_IPC_LOCK.
 * A caller without an address space, a kernel thread (the KUnit
 * suite's), has no process to charge.
 */
static int ism_user_charge(struct ism_user_buf *buf)
{
	unsigned long limit = rlimit(RLIMIT_MEMLOCK) >> PAGE_SHIFT;
	struct mm_struct *mm = current->mm;

	if (!mm)
		return 0;
	if (atomic64_add_return(buf->pages, &mm->pinned_vm) > limit &&
	    !capable(CAP_IPC_LOCK)) {
		atomic64_sub(buf->pages, &mm->pinned_vm);
		return -ENOMEM;
	}
	mmgrab(mm);
	buf->mm = mm;
	return 0;
}

static void ism_user_buf_free(struct ism_user_buf *buf)
{
	ism_user_share_uncharge(buf);
	if (buf->mm) {
		atomic64_sub(buf->pages, &buf->mm->pinned_vm);
		mmdrop(buf->mm);
	}
	kfree_rcu(buf, rcu);
}

/* Memory the kernel maps directly, in whole pages, can be mapped by page
 * frame: the loopback's and the virtual ISM device's DMBs are. Anything
 * else (a remapped DMA buffer, a peer DMB of a length that is not a
 * multiple of the page size, whose last page would show what follows it)
 * is reached through MOVE only.
 */
static void ism_user_buf_set_map(struct ism_user_buf *buf)
{
	unsigned int shift = buf->ctx->udev->pgoff_shift + PAGE_SHIFT;
	void *addr = buf->dmb.cpu_addr;
	u32 len = buf->dmb.len;

	buf->mappable = addr && len && (u64)len <= 1ULL << shift &&
			PAGE_ALIGNED(addr) &&
			PAGE_ALIGNED(len) && virt_addr_valid(addr) &&
			virt_addr_valid(addr + len - 1);
	if (buf->mappable)
		buf->pfn = PHYS_PFN(virt_to_phys(addr));
}

/* Where the buffer is in the file's mmap offsets, in bytes. */
static loff_t ism_user_buf_offset(const struct ism_user_buf *buf)
{
	return (loff_t)buf->id << (buf->ctx->udev->pgoff_shift + PAGE_SHIFT);
}

static void ism_user_buf_out(const struct ism_user_buf *buf,
			     struct ism_user_dmb *req)
{
	req->len = buf->dmb.len;
	req->attr = buf->mappable ? ISM_USER_DMB_MMAP : 0;
	req->mmap_offset = buf->mappable ? ism_user_buf_offset(buf) : 0;
}

static struct ism_user_buf *ism_user_buf_new(struct ism_user_ctx *ctx)
{
	struct ism_user_buf *buf = kzalloc(sizeof(*buf), GFP_KERNEL_ACCOUNT);

	if (buf) {
		buf->ctx = ctx;
		INIT_LIST_HEAD(&buf->ready);
	}
	return buf;
}

/* Caller holds ctx->lock for writing. */
static int ism_user_buf_add(struct ism_user_ctx *ctx, struct ism_user_buf *buf)
{
	int ret;

	lockdep_assert_held_write(&ctx->lock);
	if (ctx->dead)
		return -ENODEV;
	if (ctx->nbufs >= ism_user_max_buffers)
		return -ENOBUFS;
	ret = xa_alloc_cyclic(&ctx->bufs, &buf->id, buf,
			      XA_LIMIT(1, ism_user_max_id(ctx->udev)),
			      &ctx->next_id, GFP_KERNEL);
	if (ret < 0)
		return ret == -EBUSY ? -ENOBUFS : ret;
	ctx->nbufs++;
	return 0;
}

/* Caller holds ctx->lock for writing. */
static void ism_user_buf_del(struct ism_user_ctx *ctx, struct ism_user_buf *buf)
{
	lockdep_assert_held_write(&ctx->lock);
	xa_erase(&ctx->bufs, buf->id);
	ctx->nbufs--;
}

/**
 * ism_user_register() - ISM_USER_IOC_REGISTER
 * @ctx: the file
 * @req: the request, copied in; filled on success
 *
 * Return: 0; -EINVAL for flags, an out field that is not 0, or a length
 * of 0, not a multiple of the page size or above the device's largest;
 * -EDQUOT when the user's files hold their share of the device; -ENOMEM
 * over RLIMIT_MEMLOCK or without memory; -ENOBUFS when the file holds its
 * maximum of buffers;
 * -ENODEV once the device is gone; or the core's and device's error
 * (-ENOSPC: no room on the device).
 */
int ism_user_register(struct ism_user_ctx *ctx, struct ism_user_dmb *req)
{
	struct ism_dev *ism = ctx->udev->ism;
	struct ism_user_buf *buf;
	int ret;

	if (req->flags || req->token || req->key || req->mmap_offset ||
	    req->attr || req->reserved || !req->len ||
	    !PAGE_ALIGNED(req->len))
		return -EINVAL;
	buf = ism_user_buf_new(ctx);
	if (!buf)
		return -ENOMEM;
	buf->pages = req->len >> PAGE_SHIFT;
	buf->dmb.len = req->len;
	import_uuid(&buf->dmb.rgid, req->gid);
	/* 0 is a kernel client's: never reachable from user space. */
	do {
		buf->dmb.user_key = get_random_u64();
	} while (!buf->dmb.user_key);

	down_write(&ctx->lock);
	ret = ism_user_buf_add(ctx, buf);
	if (ret)
		goto unlock;
	/* Charged only for a request the device may take (ism is alive
	 * while the file is not dead, which buf_add checked), so that a
	 * refused one does not fail another's charge meanwhile.
	 */
	ret = -EINVAL;
	if (req->len > ism_get_max_dmb_len(ism))
		goto del;
	ret = ism_user_share_charge(buf);
	if (!ret)
		ret = ism_user_charge(buf);
	if (ret)
		goto del;
	ret = ism_register_dmb(ism, &buf->dmb, &ism_user_client);
	if (ret)
		goto del;
	ism_user_buf_set_map(buf);
	/* The irq handler's way to the buffer; the index is the device's
	 * until the DMB is unregistered, which erases this first.
	 */
	ret = xa_insert(&ctx->udev->by_idx, buf->dmb.idx, buf, GFP_KERNEL);
	if (ret) {
		ism_unregister_dmb(ism, &buf->dmb, &ism_user_client);
		ret = ret == -EBUSY ? -EIO : ret;
		goto del;
	}
	/* The software events addressed to the DMB find it by token. */
	spin_lock(&ctx->udev->tokens_lock);
	hash_add_rcu(ctx->udev->by_token, &buf->token_node, buf->dmb.token);
	spin_unlock(&ctx->udev->tokens_lock);
	req->token = buf->dmb.token;
	req->key = buf->dmb.user_key;
	ism_user_buf_out(buf, req);
	up_write(&ctx->lock);
	return 0;

del:
	ism_user_buf_del(ctx, buf);
unlock:
	up_write(&ctx->lock);
	ism_user_buf_free(buf);
	return ret;
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_register);

/* May the file write into DMB @token with @key? The device checks the key
 * where it can see it. Where it cannot (PCI-ISM: the DMB is in another
 * system), only the administrator's unkeyed_writes lets the write go,
 * unchecked; @len is then 0, unknown. Caller keeps the device (ctx->lock).
 */
int ism_user_check_key(struct ism_user_ctx *ctx, struct ism_dev *ism,
		       u64 token, u64 key, u32 *len)
{
	int ret = ism_check_user_key(ism, token, key, len);

	if (ret != -EOPNOTSUPP)
		return ret;
	*len = 0;
	return READ_ONCE(ctx->udev->unkeyed_writes) ? 0 : -EPERM;
}

/**
 * ism_user_attach() - ISM_USER_IOC_ATTACH
 * @ctx: the file
 * @req: the request, copied in (token, key); filled on success
 *
 * Return: 0; -EINVAL for flags or an out field that is not 0; -EEXIST if
 * the file has the token attached already; -EOPNOTSUPP if the device
 * cannot attach; -ENOENT for a token and key that name no DMB this
 * device may write (unknown, another writer's, a kernel client's, a
 * wrong key: all alike); -EPERM where the device cannot check keys and
 * unkeyed writes are off; -EDQUOT past the user's share and -ENOMEM over
 * RLIMIT_MEMLOCK (an attachment counts as a registration does) or
 * without memory; -ENOBUFS, -ENODEV as for registering; or the device's
 * error.
 */
int ism_user_attach(struct ism_user_ctx *ctx, struct ism_user_dmb *req)
{
	struct ism_dev *ism = ctx->udev->ism;
	struct ism_user_buf *buf;
	uuid_t owner;
	u32 len;
	int ret;

	if (req->flags || req->mmap_offset || req->len ||
	    memchr_inv(req->gid, 0, sizeof(req->gid)) || req->attr ||
	    req->reserved)
		return -EINVAL;
	buf = ism_user_buf_new(ctx);
	if (!buf)
		return -ENOMEM;
	buf->attached = true;
	buf->dmb.token = req->token;

	down_write(&ctx->lock);
	ret = -EEXIST;
	if (xa_load(&ctx->atts, req->token))
		goto unlock;
	ret = ism_user_buf_add(ctx, buf);
	if (ret)
		goto unlock;
	ret = -EOPNOTSUPP;
	if (!ism_dev_can_attach(ism))
		goto del;
	ret = ism_user_check_key(ctx, ism, req->token, req->key, &len);
	if (ret)
		goto del;
	ret = ism_attach_dmb(ism, &buf->dmb, &ism_user_client);
	if (ret)
		goto del;
	/* What it maps stays pinned while it lasts, and holds the DMB's
	 * index and memory on the device: its own DMB's after an UNREGISTER
	 * too. So it counts as a DMB in the user's share, and as pinned.
	 */
	buf->pages = DIV_ROUND_UP(buf->dmb.len, PAGE_SIZE);
	ret = ism_user_share_charge(buf);
	if (!ret)
		ret = ism_user_charge(buf);
	if (!ret)
		ret = xa_insert(&ctx->atts, req->token, buf, GFP_KERNEL);
	if (ret) {
		ism_detach_dmb(ism, req->token, &ism_user_client);
		goto del;
	}
	ism_user_buf_set_map(buf);
	if (ism_dmb_owner(ism, req->token, &owner))
		owner = uuid_null;
	export_uuid(req->gid, &owner);
	ism_user_buf_out(buf, req);
	up_write(&ctx->lock);
	return 0;

del:
	ism_user_buf_del(ctx, buf);
unlock:
	up_write(&ctx->lock);
	ism_user_buf_free(buf);
	return ret;
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_attach);

/* Caller holds ctx->lock for writing, and @buf is no longer in ctx->bufs:
 * no fault maps it again. Its pages leave every mapping of the file
 * before the device may reuse the memory. The file's address space is
 * its inode's, which the device's other open files share: their pages
 * at the same offsets go too, and come back at their next fault.
 */
static void ism_user_buf_release(struct ism_user_ctx *ctx,
				 struct ism_user_buf *buf)
{
	struct ism_dev *ism = ctx->udev->ism;

	ism_user_forget_ready(buf);
	if (buf->mappable && ctx->mapping)
		unmap_mapping_range(ctx->mapping, ism_user_buf_offset(buf),
				    buf->dmb.len, 1);
	if (buf->attached) {
		xa_erase(&ctx->atts, buf->dmb.token);
		ism_detach_dmb(ism, buf->dmb.token, &ism_user_client);
	} else {
		xa_erase(&ctx->udev->by_idx, buf->dmb.idx);
		spin_lock(&ctx->udev->tokens_lock);
		hash_del_rcu(&buf->token_node);
		spin_unlock(&ctx->udev->tokens_lock);
		ism_unregister_dmb(ism, &buf->dmb, &ism_user_client);
	}
}

/**
 * ism_user_release_token() - ISM_USER_IOC_UNREGISTER and _DETACH
 * @ctx: the file
 * @token: a DMB of the file, or a peer DMB the file attached
 * @attached: which of the two
 *
 * Return: 0; -ENOENT if the file has no such buffer (whoever else has
 * it); -ENODEV once the device is gone.
 */
int ism_user_release_token(struct ism_user_ctx *ctx, u64 token, bool attached)
{
	struct ism_user_buf *buf = NULL, *b;
	unsigned long id;
	int ret;

	down_write(&ctx->lock);
	ret = -ENODEV;
	if (ctx->dead)
		goto unlock;
	if (attached) {
		buf = xa_load(&ctx->atts, token);
	} else {
		xa_for_each(&ctx->bufs, id, b) {
			if (!b->attached && b->dmb.token == token) {
				buf = b;
				break;
			}
		}
	}
	ret = -ENOENT;
	if (!buf)
		goto unlock;
	ism_user_buf_del(ctx, buf);
	ism_user_buf_release(ctx, buf);
	ret = 0;
unlock:
	up_write(&ctx->lock);
	if (!ret)
		ism_user_buf_free(buf);
	return ret;
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_release_token);

/**
 * ism_user_release_bufs() - end what a file has on its device
 * @ctx: the file, being released or revoked
 *
 * Marks the file dead and releases all its buffers, revoking their
 * mappings. Caller holds udev->lock, so that the device stays.
 */
void ism_user_release_bufs(struct ism_user_ctx *ctx)
{
	struct ism_user_buf *buf, *tmp;
	unsigned long id;
	LIST_HEAD(freed);

	down_write(&ctx->lock);
	if (ctx->dead) {
		up_write(&ctx->lock);
		return;
	}
	ctx->dead = true;
	xa_for_each(&ctx->bufs, id, buf) {
		ism_user_buf_del(ctx, buf);
		ism_user_buf_release(ctx, buf);
		list_add_tail(&buf->link, &freed);
	}
	up_write(&ctx->lock);
	list_for_each_entry_safe(buf, tmp, &freed, link)
		ism_user_buf_free(buf);
}

/* One piece of a MOVE, with the device kept for it. The first piece also
 * checks the token and key, and the whole range where the device knows
 * the DMB's length, so that a refused request has written nothing; and
 * for a MOVE with a signal, which rings the owner's doorbell, takes a
 * ring of the user's rate.
 */
static int ism_user_move_piece(struct ism_user_ctx *ctx,
			       const struct ism_user_move *req, bool first,
			       bool sf, unsigned int offset, const void *data,
			       unsigned int size)
{
	struct ism_dev *ism = ism_user_dev_get(ctx);
	u32 len;
	int ret;

	if (!ism)
		return -ENODEV;
	if (first) {
		ret = ism_user_check_key(ctx, ism, req->token, req->key, &len);
		if (!ret && len && !ism_dmb_range_ok(len, req->offset, req->size))
			ret = -EINVAL;
		if (!ret && req->flags & ISM_USER_MOVE_SIGNAL)
			ret = ism_user_share_ring(ctx->udev);
		if (ret)
			goto put;
	}
	/* Each piece, and each MOVE, lands after the earlier ones: a peer
	 * that polls a word written last must not see it before the data.
	 */
	smp_wmb();
	ret = ism_move_data(ism, req->token, req->dmbe, sf, offset, data, size);
put:
	ism_user_dev_put(ctx);
	return ret;
}

/**
 * ism_user_move() - ISM_USER_IOC_MOVE
 * @ctx: the file
 * @req: the request, copied in
 *
 * The bytes go through a bounce buffer, copied from user space with no
 * lock held (the copy may fault on a mapping of this very file), in
 * pieces of at most %ISM_USER_BOUNCE_LEN. The whole request is checked
 * first: flags, range, token and key, and that the source can be read.
 *
 * Return: 0; -EINVAL for unknown flags, a dmbe bit of 16 or more (or one
 * without ISM_USER_MOVE_SIGNAL), a @req->data with no bytes to move, a
 * range past 4 GiB or outside the DMB (where the device does not know
 * the DMB's length, unkeyed PCI-ISM writes, each piece's range is
 * checked as it goes);
 * -EFAULT for a bad @req->data; -ENOENT for a token and key that name no
 * DMB this device may write; -EPERM where the device cannot check keys
 * and unkeyed writes are off; -EAGAIN for a signal past the user's
 * doorbell rate (user_rings); -ENOMEM; -EINTR if a fatal signal came
 * between pieces; -ENODEV once the device is gone; or the device's error. Only
 * an error after the first piece (-EINTR, -ENODEV, the device's, or
 * -EFAULT for a source another thread unmapped meanwhile) leaves the
 * earlier pieces in the DMB.
 */
int ism_user_move(struct ism_user_ctx *ctx, const struct ism_user_move *req)
{
	const void __user *from = u64_to_user_ptr(req->data);
	bool sf = req->flags & ISM_USER_MOVE_SIGNAL;
	unsigned int done = 0, end, n;
	void *bounce;
	int ret;

	if (req->flags & ~ISM_USER_MOVE_SIGNAL ||
	    req->dmbe >= (sf ? ISM_DMBE_BITS : 1) ||
	    check_add_overflow(req->offset, req->size, &end) ||
	    (!req->size && req->data))
		return -EINVAL;
	if (!req->size)
		return ism_user_move_piece(ctx, req, true, sf, req->offset,
					   NULL, 0);
	if (fault_in_readable(from, req->size))
		return -EFAULT;

	bounce = kvmalloc(min_t(u32, req->size, ISM_USER_BOUNCE_LEN),
			  GFP_KERNEL);
	if (!bounce)
		return -ENOMEM;
	do {
		n = min_t(u32, req->size - done, ISM_USER_BOUNCE_LEN);
		ret = -EFAULT;
		if (copy_from_user(bounce, from + done, n))
			break;
		ret = ism_user_move_piece(ctx, req, !done,
					  sf && done + n == req->size,
					  req->offset + done, bounce, n);
		done += n;
		if (!ret && done < req->size && fatal_signal_pending(current))
			ret = -EINTR;
		cond_resched();
	} while (!ret && done < req->size);
	kvfree(bounce);
	return ret;
}

ISM_USER_EXPORT_FOR_KUNIT(ism_user_move);

static vm_fault_t ism_user_fault(struct vm_fault *vmf)
{
	struct ism_user_ctx *ctx = vmf->vma->vm_file->private_data;
	unsigned int shift = ctx->udev->pgoff_shift;
	unsigned long page = vmf->pgoff & ((1UL << shift) - 1);
	vm_fault_t ret = VM_FAULT_SIGBUS;
	struct ism_user_buf *buf;

	down_read(&ctx->lock);
	buf = ctx->dead ? NULL : xa_load(&ctx->bufs, vmf->pgoff >> shift);
	if (buf && buf->mappable && page < buf->dmb.len >> PAGE_SHIFT)
		ret = vmf_insert_pfn(vmf->vma, vmf->address, buf->pfn + page);
	up_read(&ctx->lock);
	return ret;
}

static const struct vm_operations_struct ism_user_vm_ops = {
	.fault = ism_user_fault,
};

/**
 * ism_user_mmap() - map a buffer of the file, or part of it
 * @file: the file
 * @vma: shared, not executable, within one buffer: its offset is the
 *	buffer's mmap_offset plus a multiple of the page size
 *
 * Pages are filled at fault time. The mapping cannot grow (mremap) and
 * stays out of core dumps; a child process shares it (fork()).
 *
 * Return: 0; -EINVAL for a private mapping or one that is not within a
 * buffer of the file; -EPERM for an executable one; -EOPNOTSUPP for a
 * buffer that cannot be mapped; -ENODEV once the device is gone.
 */
int ism_user_mmap(struct file *file, struct vm_area_struct *vma)
{
	struct ism_user_ctx *ctx = file->private_data;
	unsigned int shift = ctx->udev->pgoff_shift;
	unsigned long page = vma->vm_pgoff & ((1UL << shift) - 1);
	unsigned long pages = vma_pages(vma);
	struct ism_user_buf *buf;
	int ret;

	/* VM_MAYSHARE: a shared mapping of a read-only file has no
	 * VM_SHARED, and cannot be made writable either.
	 */
	if (!(vma->vm_flags & VM_MAYSHARE))
		return -EINVAL;
	if (vma->vm_flags & VM_EXEC)
		return -EPERM;
	down_read(&ctx->lock);
	ret = -ENODEV;
	if (ctx->dead)
		goto unlock;
	ret = -EINVAL;
	buf = xa_load(&ctx->bufs, vma->vm_pgoff >> shift);
	if (!buf || page >= buf->dmb.len >> PAGE_SHIFT ||
	    pages > (buf->dmb.len >> PAGE_SHIFT) - page)
		goto unlock;
	ret = -EOPNOTSUPP;
	if (!buf->mappable)
		goto unlock;
	vm_flags_set(vma, VM_PFNMAP | VM_IO | VM_DONTEXPAND | VM_DONTDUMP);
	vm_flags_clear(vma, VM_MAYEXEC);
	vma->vm_ops = &ism_user_vm_ops;
	ret = 0;
unlock:
	up_read(&ctx->lock);
	return ret;
}
