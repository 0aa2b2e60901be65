/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The kernel interfaces that changed between the kernels this tree builds
 * for, from Debian 12's 6.1 to its 6.12, in one place. Our sources use
 * the newest kernel's form; for an older kernel this header supplies it.
 * Not part of the ISM interface (that is <linux/ism.h>).
 */
#ifndef _ISM_KCOMPAT_H
#define _ISM_KCOMPAT_H

#include <linux/eventfd.h>
#include <linux/mm.h>
#include <linux/version.h>

/* 6.12: <asm/unaligned.h> became <linux/unaligned.h>. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 12, 0)
#include <linux/unaligned.h>
#else
#include <asm/unaligned.h>
#endif

/* 6.2: a class's devnode() takes a const device. */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ISM_DEVNODE_CONST const
#else
#define ISM_DEVNODE_CONST
#endif

/*
 * 6.2: dma_alloc_coherent() refuses compound pages. 6.1's SMC, the only
 * user that needs them, splices a DMB's pages, taking references to them.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 2, 0)
#define ISM_DMA_GFP_COMP 0
#else
#define ISM_DMA_GFP_COMP __GFP_COMP
#endif

/* 6.3: vma->vm_flags is written only through these. */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 3, 0)
static inline void vm_flags_set(struct vm_area_struct *vma, vm_flags_t flags)
{
	vma->vm_flags |= flags;
}

static inline void vm_flags_clear(struct vm_area_struct *vma,
				  vm_flags_t flags)
{
	vma->vm_flags &= ~flags;
}
#endif

/* 6.6: a dump's request is a struct genl_info, genl_info_dump(cb). */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 6, 0)
#define ism_genl_dump_attrs(cb) (genl_info_dump(cb)->attrs)
#else
#define ism_genl_dump_attrs(cb) (genl_dumpit_info(cb)->attrs)
#endif

/* 6.8: eventfd_signal() always adds 1. (A macro does not expand itself:
 * this calls the older kernel's function.)
 */
#if LINUX_VERSION_CODE < KERNEL_VERSION(6, 8, 0)
#define eventfd_signal(ctx) eventfd_signal(ctx, 1)
#endif

/*
 * 6.10: a trace event's __assign_str() takes the destination only (the
 * source is __string()'s). The trace headers redefine __assign_str()
 * at each stage, so ours say ism_assign_str(), which expands to the
 * stage's own.
 */
#if LINUX_VERSION_CODE >= KERNEL_VERSION(6, 10, 0)
#define ism_assign_str(dst, src) __assign_str(dst)
#else
#define ism_assign_str(dst, src) __assign_str(dst, src)
#endif

#endif /* _ISM_KCOMPAT_H */
