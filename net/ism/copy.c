// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the copy into a DMB that device drivers share.
 */
#include <linux/minmax.h>
#include <linux/module.h>
#include <linux/string.h>
#include <ism/kcompat.h>

#include "ism_core.h"

/**
 * ism_copy_to_dmb() - write into a DMB the way an ISM device does
 * @dst: where in the DMB
 * @src: the data
 * @len: bytes to copy; @dst and @src must not overlap
 *
 * For drivers' @move_data. Every naturally aligned 8-byte word of the
 * destination that the copy covers whole is written with one 64-bit
 * store, so a reader on another CPU, or in another guest, that loads such
 * a word while it changes sees the old or the new value, never a mix of
 * the two. SMC-D relies on this: it reads each cursor of a CDC message
 * (wrap, count and flags in one word) with atomic64_read(). memcpy()
 * promises no such thing: x86's "rep movsb" may store byte by byte, and
 * does under QEMU's TCG. The bytes before the first and after the last
 * whole word are copied without that promise. Any context.
 */
void ism_copy_to_dmb(void *dst, const void *src, size_t len)
{
	size_t head = min_t(size_t, len, -(uintptr_t)dst & (sizeof(u64) - 1));
	const u8 *s = src;
	u8 *d = dst;

	memcpy(d, s, head);
	d += head;
	s += head;
	len -= head;
	for (; len >= sizeof(u64); len -= sizeof(u64)) {
		WRITE_ONCE(*(u64 *)d, get_unaligned((const u64 *)s));
		d += sizeof(u64);
		s += sizeof(u64);
	}
	memcpy(d, s, len);
}
EXPORT_SYMBOL_NS_GPL(ism_copy_to_dmb, ISM);
