// SPDX-License-Identifier: GPL-2.0
/*
 * Virtual ISM over ivshmem: reading and writing the region layout
 * (ivshm_layout.h). Nothing here knows about PCI or the core: the KUnit
 * suites run it against a region in ordinary memory.
 *
 * Readers copy what a peer could write out of the region and check the
 * copy; every offset they return lies inside the partition it names.
 * Functions that take a slot or DMB index from the caller expect one the
 * caller checked (or owns); those that take one from the region check it.
 * The KUnit suites (ism_ivshm_kunit.ko) call them directly.
 */
#include <asm/barrier.h>
#include <kunit/visibility.h>
#include <linux/atomic.h>
#include <linux/bitops.h>
#include <linux/export.h>
#include <linux/jhash.h>
#include <linux/kernel.h>
#include <linux/string.h>

#include "ivshm_layout.h"

static void *ivshm_part(const struct ivshm_geo *geo, const void *region,
			u32 slot)
{
	return (void *)region + geo->part_off + (u64)slot * geo->part_size;
}

static u32 ivshm_summary_words(const struct ivshm_geo *geo)
{
	return DIV_ROUND_UP(geo->max_dmbs, IVSHM_SUMMARY_BITS);
}

/* The region's u32 words that peers update with atomic operations. */
static atomic_t *ivshm_summary(const struct ivshm_geo *geo, void *region,
			       u32 slot)
{
	return ivshm_part(geo, region, slot) + geo->sig_off;
}

static atomic_t *ivshm_dmbe(const struct ivshm_geo *geo, void *region,
			    u32 slot)
{
	return ivshm_summary(geo, region, slot) + ivshm_summary_words(geo);
}

static struct ivshm_dmb_desc *ivshm_desc(const struct ivshm_geo *geo,
					 const void *region, u32 slot, u32 idx)
{
	struct ivshm_dmb_desc *table = ivshm_part(geo, region, slot);

	return &table[idx];
}

static struct ivshm_evq *ivshm_evq(const struct ivshm_geo *geo,
				   const void *region, u32 sender,
				   u32 receiver)
{
	return ivshm_part(geo, region, sender) + geo->evq_off +
	       receiver * geo->evq_size;
}

/*
 * Copy @len bytes at @src, whose field at @field must read @want before
 * and after the copy. Writers clear that field first and set it last
 * (ivshm_publish_dmb(), ivshm_post_event()), so a copy taken while one
 * wrote is refused.
 */
static bool ivshm_copy_stable(void *dst, const void *src, size_t len,
			      const __le64 *field, u64 want)
{
	if (le64_to_cpu(READ_ONCE(*field)) != want)
		return false;
	/* Pairs with the writer's barriers: field, copy, field again. */
	virt_rmb();
	memcpy(dst, src, len);
	/* The copy is complete before the field is checked again. */
	virt_rmb();
	return le64_to_cpu(READ_ONCE(*field)) == want;
}

/**
 * ivshm_format() - write a new header and an empty peer table
 * @region: the region, at least @geo->region_size bytes
 * @geo: from ivshm_geometry(), with region_id set
 *
 * The magic is written last, so a guest probing meanwhile sees no header
 * rather than half of one. Partitions are reset by the peers that claim
 * them.
 */
void ivshm_format(void *region, const struct ivshm_geo *geo)
{
	struct ivshm_region_hdr *hdr = region;

	WRITE_ONCE(hdr->magic, 0);
	/* No guest takes the header being written for a valid one. */
	virt_wmb();
	memset(region + sizeof(*hdr), 0, geo->part_off - sizeof(*hdr));
	hdr->version = cpu_to_le32(IVSHM_VERSION);
	hdr->max_peers = cpu_to_le32(geo->max_peers);
	hdr->region_size = cpu_to_le64(geo->region_size);
	hdr->max_dmbs = cpu_to_le32(geo->max_dmbs);
	hdr->evq_len = cpu_to_le32(geo->evq_len);
	hdr->part_off = cpu_to_le64(geo->part_off);
	hdr->part_size = cpu_to_le64(geo->part_size);
	memcpy(hdr->region_id, geo->region_id, sizeof(hdr->region_id));
	/* The fields are in place before the magic says they are. */
	virt_wmb();
	WRITE_ONCE(hdr->magic, cpu_to_le64(IVSHM_MAGIC));
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_format);

/**
 * ivshm_read_header() - read and check a region's header
 * @region: the region
 * @bar_size: bytes mapped at @region
 * @geo: filled on success only
 *
 * Return: 0; -ENODEV if the region carries no header of this layout (not
 * ours: leave it alone); -EPROTONOSUPPORT for another version; -EINVAL for
 * a header with a value out of range, inconsistent with the others or
 * larger than @bar_size.
 */
int ivshm_read_header(const void *region, u64 bar_size, struct ivshm_geo *geo)
{
	struct ivshm_region_hdr hdr;
	struct ivshm_geo new;

	if (bar_size < sizeof(hdr))
		return -ENODEV;
	memcpy(&hdr, region, sizeof(hdr));
	if (le64_to_cpu(hdr.magic) != IVSHM_MAGIC)
		return -ENODEV;
	if (le32_to_cpu(hdr.version) != IVSHM_VERSION)
		return -EPROTONOSUPPORT;
	if (ivshm_header_geometry(&new, bar_size, le64_to_cpu(hdr.region_size),
				  le32_to_cpu(hdr.max_peers),
				  le32_to_cpu(hdr.max_dmbs),
				  le32_to_cpu(hdr.evq_len),
				  le64_to_cpu(hdr.part_off),
				  le64_to_cpu(hdr.part_size)))
		return -EINVAL;
	memcpy(new.region_id, hdr.region_id, sizeof(new.region_id));
	*geo = new;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_read_header);

/**
 * ivshm_chid() - the CHID of the region's devices
 * @geo: the region's geometry
 *
 * Every guest derives the same value from the region's identity.
 *
 * Return: a CHID from 0xFF00 to 0xFFFE.
 */
u16 ivshm_chid(const struct ivshm_geo *geo)
{
	return 0xFF00 + jhash(&geo->region_id, sizeof(geo->region_id), 0) % 0xFF;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_chid);

/**
 * ivshm_slot() - a peer slot in the region
 * @geo: the region's geometry
 * @region: the region
 * @slot: a slot below @geo->max_peers
 *
 * For the slot's owner, which writes it, and for claiming it.
 *
 * Return: the slot.
 */
struct ivshm_slot *ivshm_slot(const struct ivshm_geo *geo, void *region,
			      u32 slot)
{
	struct ivshm_slot *table = region + IVSHM_SLOTS_OFF;

	return &table[slot];
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_slot);

/**
 * ivshm_read_slot() - copy a peer slot out of the region and check it
 * @geo: the region's geometry
 * @region: the region
 * @slot: slot number, checked
 * @view: filled on success; cookie 0 for a free slot
 *
 * Return: 0, -EINVAL for a slot out of range, -EBADMSG for a claimed slot
 * with an unknown state, an impossible doorbell or a malformed GID.
 */
int ivshm_read_slot(const struct ivshm_geo *geo, const void *region,
		    u32 slot, struct ivshm_slot_view *view)
{
	struct ivshm_slot copy;
	u32 state, doorbell;

	if (slot >= geo->max_peers)
		return -EINVAL;
	memcpy(&copy, region + IVSHM_SLOTS_OFF + slot * sizeof(copy),
	       sizeof(copy));
	if (!copy.cookie) {
		memset(view, 0, sizeof(*view));
		return 0;
	}
	state = le32_to_cpu(copy.state);
	doorbell = le32_to_cpu(copy.doorbell);
	if ((state != IVSHM_SLOT_JOINING && state != IVSHM_SLOT_ACTIVE) ||
	    (doorbell > U16_MAX && doorbell != IVSHM_NO_DOORBELL) ||
	    !memchr_inv(copy.gid, 0, 8) || memchr_inv(copy.gid + 8, 0, 8))
		return -EBADMSG;
	view->cookie = le64_to_cpu(copy.cookie);
	view->heartbeat = le64_to_cpu(copy.heartbeat);
	import_uuid(&view->gid, copy.gid);
	view->state = state;
	view->doorbell = doorbell;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_read_slot);

/**
 * ivshm_reset_partition() - clear a partition's descriptors, signals and
 * event queues
 * @geo: the region's geometry
 * @region: the region
 * @slot: the caller's own slot
 *
 * For a guest that just claimed @slot: nothing its previous owner
 * published survives. The data area is cleared DMB by DMB on registration.
 */
void ivshm_reset_partition(const struct ivshm_geo *geo, void *region,
			   u32 slot)
{
	memset(ivshm_part(geo, region, slot), 0, geo->data_off);
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_reset_partition);

/**
 * ivshm_token() - make a DMB token
 * @slot: the owner's slot
 * @idx: the DMB index
 * @random: random bits; 45 of them are used
 *
 * Return: a token that is never 0 and names @slot and @idx.
 */
u64 ivshm_token(u32 slot, u32 idx, u64 random)
{
	u32 shift = IVSHM_TOKEN_IDX_BITS + IVSHM_TOKEN_SLOT_BITS;

	return BIT_ULL(63) | ((random << shift) & GENMASK_ULL(62, shift)) |
	       (u64)slot << IVSHM_TOKEN_IDX_BITS | idx;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_token);

/**
 * ivshm_token_split() - the owner slot and DMB index a token names
 * @geo: the region's geometry
 * @token: a token from a client, unchecked
 * @slot: the owner's slot, below @geo->max_peers
 * @idx: the DMB index, below @geo->max_dmbs
 *
 * Return: 0, or -ENOENT if @token cannot be one of this region's.
 */
int ivshm_token_split(const struct ivshm_geo *geo, u64 token, u32 *slot,
		      u32 *idx)
{
	u32 s = (token >> IVSHM_TOKEN_IDX_BITS) &
		GENMASK(IVSHM_TOKEN_SLOT_BITS - 1, 0);
	u32 i = token & GENMASK(IVSHM_TOKEN_IDX_BITS - 1, 0);

	if (!(token & BIT_ULL(63)) || s >= geo->max_peers ||
	    i >= geo->max_dmbs)
		return -ENOENT;
	*slot = s;
	*idx = i;
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_token_split);

/**
 * ivshm_publish_dmb() - publish one of the caller's DMBs
 * @geo: the region's geometry
 * @region: the region
 * @slot: the caller's own slot
 * @idx: the DMB index, below @geo->max_dmbs
 * @desc: the descriptor; its token is written last
 */
void ivshm_publish_dmb(const struct ivshm_geo *geo, void *region, u32 slot,
		       u32 idx, const struct ivshm_dmb_desc *desc)
{
	struct ivshm_dmb_desc *d = ivshm_desc(geo, region, slot, idx);

	WRITE_ONCE(d->token, 0);
	/* Writers stop using the old descriptor before it changes... */
	virt_wmb();
	d->offset = desc->offset;
	d->len = desc->len;
	memcpy(d->rgid, desc->rgid, sizeof(d->rgid));
	d->key = desc->key;
	/* ...and see the new one whole, once its token is there. */
	virt_wmb();
	WRITE_ONCE(d->token, desc->token);
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_publish_dmb);

/**
 * ivshm_retract_dmb() - withdraw one of the caller's DMBs
 * @geo: the region's geometry
 * @region: the region
 * @slot: the caller's own slot
 * @idx: the DMB index, below @geo->max_dmbs
 */
void ivshm_retract_dmb(const struct ivshm_geo *geo, void *region, u32 slot,
		       u32 idx)
{
	WRITE_ONCE(ivshm_desc(geo, region, slot, idx)->token, 0);
	/* Before the caller reuses the DMB's memory. */
	virt_wmb();
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_retract_dmb);

/**
 * ivshm_find_dmb() - find a peer's DMB that the caller may write
 * @geo: the region's geometry
 * @region: the region
 * @token: the DMB's token, unchecked
 * @writer: the caller's GID
 * @data: set to the DMB's offset in the region
 * @len: set to the DMB's length
 * @key: set to the DMB's user key, unless NULL
 *
 * The descriptor is copied out, checked, and its token read again: a
 * descriptor the owner changed meanwhile is not used.
 *
 * Return: 0; -ENOENT for a token no DMB has now; -EACCES if the DMB is
 * not for @writer; -EBADMSG for a descriptor whose range leaves its
 * owner's data area or is not unit-aligned.
 */
int ivshm_find_dmb(const struct ivshm_geo *geo, const void *region,
		   u64 token, const uuid_t *writer, u64 *data, u32 *len,
		   u64 *key)
{
	struct ivshm_dmb_desc *d, copy;
	u32 slot, idx, off, n;

	if (ivshm_token_split(geo, token, &slot, &idx))
		return -ENOENT;
	d = ivshm_desc(geo, region, slot, idx);
	if (!ivshm_copy_stable(&copy, d, sizeof(copy), &d->token, token))
		return -ENOENT;
	if (memcmp(copy.rgid, writer->b, sizeof(copy.rgid)))
		return -EACCES;
	off = le32_to_cpu(copy.offset);
	n = le32_to_cpu(copy.len);
	if (!n || n > geo->data_len || off > geo->data_len - n ||
	    !IS_ALIGNED(off, IVSHM_UNIT))
		return -EBADMSG;
	*data = geo->part_off + (u64)slot * geo->part_size + geo->data_off + off;
	*len = n;
	if (key)
		*key = le64_to_cpu(copy.key);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_find_dmb);

/**
 * ivshm_data() - the address of a place in a partition's data area
 * @geo: the region's geometry
 * @region: the region
 * @slot: a slot below @geo->max_peers
 * @offset: an offset below @geo->data_len
 *
 * Return: the address.
 */
void *ivshm_data(const struct ivshm_geo *geo, void *region, u32 slot,
		 u32 offset)
{
	return ivshm_part(geo, region, slot) + geo->data_off + offset;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_data);

/**
 * ivshm_signal() - set dmbe bits of a DMB and mark it in the summary
 * @geo: the region's geometry
 * @region: the region
 * @slot: the owner's slot, below @geo->max_peers
 * @idx: the DMB index, below @geo->max_dmbs
 * @dmbemask: the bits
 *
 * The mask is set before the summary bit, so an owner that sees the
 * summary bit finds the mask.
 *
 * Return: true if the summary word was empty: the owner must be woken.
 * Otherwise whoever made it non-empty woke the owner, and the owner takes
 * this bit with the word.
 */
bool ivshm_signal(const struct ivshm_geo *geo, void *region, u32 slot,
		  u32 idx, u16 dmbemask)
{
	atomic_or((__force int)cpu_to_le32(dmbemask),
		  &ivshm_dmbe(geo, region, slot)[idx]);
	/* The mask before the summary bit; pairs with the owner's xchg. */
	virt_mb();
	return !atomic_fetch_or((__force int)cpu_to_le32(BIT(idx % IVSHM_SUMMARY_BITS)),
				&ivshm_summary(geo, region, slot)[idx / IVSHM_SUMMARY_BITS]);
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_signal);

/**
 * ivshm_take_signals() - take the signals of the caller's DMBs
 * @geo: the region's geometry
 * @region: the region
 * @slot: the caller's own slot
 * @deliver: called with @ctx, a DMB index below @geo->max_dmbs and the
 *	non-zero dmbe bits taken for it
 * @ctx: passed to @deliver
 *
 * Any peer can set any bit: the caller checks that the index is one of its
 * DMBs. Bits beyond @geo->max_dmbs and summary bits without a mask are
 * dropped.
 *
 * Return: the number of calls of @deliver.
 */
unsigned int ivshm_take_signals(const struct ivshm_geo *geo, void *region,
				u32 slot,
				void (*deliver)(void *ctx, u32 idx, u16 mask),
				void *ctx)
{
	atomic_t *summary = ivshm_summary(geo, region, slot);
	atomic_t *dmbe = ivshm_dmbe(geo, region, slot);
	u32 w, bits, idx, mask;
	unsigned int n = 0;

	for (w = 0; w < ivshm_summary_words(geo); w++) {
		if (!atomic_read(&summary[w]))
			continue;
		bits = le32_to_cpu((__force __le32)atomic_xchg(&summary[w], 0));
		while (bits) {
			idx = w * IVSHM_SUMMARY_BITS + __ffs(bits);
			bits &= bits - 1;
			if (idx >= geo->max_dmbs)
				continue;
			mask = le32_to_cpu((__force __le32)
					   atomic_xchg(&dmbe[idx], 0));
			mask &= GENMASK(ISM_DMBE_BITS - 1, 0);
			if (mask) {
				deliver(ctx, idx, mask);
				n++;
			}
		}
	}
	return n;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_take_signals);

/**
 * ivshm_clear_signals() - drop what was signalled for one of the caller's
 * DMB indexes
 * @geo: the region's geometry
 * @region: the region
 * @slot: the caller's own slot
 * @idx: the DMB index, below @geo->max_dmbs
 */
void ivshm_clear_signals(const struct ivshm_geo *geo, void *region,
			 u32 slot, u32 idx)
{
	atomic_set(&ivshm_dmbe(geo, region, slot)[idx], 0);
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_clear_signals);

/**
 * ivshm_post_event() - write an event into the caller's queue for a peer
 * @geo: the region's geometry
 * @region: the region
 * @sender: the caller's own slot
 * @receiver: the receiver's slot, below @geo->max_peers
 * @seq: the event's sequence number, one more than the last one posted to
 *	this queue (the caller counts privately, from 1)
 * @ev: type, code, token and info of the event
 */
void ivshm_post_event(const struct ivshm_geo *geo, void *region, u32 sender,
		      u32 receiver, u64 seq, const struct ism_event *ev)
{
	struct ivshm_evq *q = ivshm_evq(geo, region, sender, receiver);
	struct ivshm_evq_entry *e = &q->ent[(seq - 1) & (geo->evq_len - 1)];

	WRITE_ONCE(e->seq, 0);
	/* A reader never takes the entry being rewritten for the old one... */
	virt_wmb();
	e->type = cpu_to_le32(ev->type);
	e->code = cpu_to_le32(ev->code);
	e->token = cpu_to_le64(ev->token);
	e->info = cpu_to_le64(ev->info);
	/* ...nor the new one before it is whole... */
	virt_wmb();
	WRITE_ONCE(e->seq, cpu_to_le64(seq));
	/* ...and finds it complete once the head counts it. */
	virt_wmb();
	WRITE_ONCE(q->head, cpu_to_le64(seq));
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_post_event);

/**
 * ivshm_evq_head() - the sequence number of a queue's last event
 * @geo: the region's geometry
 * @region: the region
 * @sender: the sender's slot, below @geo->max_peers
 * @receiver: the caller's own slot
 *
 * Return: the value the sender published, unchecked.
 */
u64 ivshm_evq_head(const struct ivshm_geo *geo, const void *region,
		   u32 sender, u32 receiver)
{
	u64 head = le64_to_cpu(READ_ONCE(ivshm_evq(geo, region, sender,
						   receiver)->head));

	/* Pairs with the last barrier of ivshm_post_event(). */
	virt_rmb();
	return head;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_evq_head);

/**
 * ivshm_read_event() - copy an event out of a peer's queue and check it
 * @geo: the region's geometry
 * @region: the region
 * @sender: the sender's slot, below @geo->max_peers
 * @receiver: the caller's own slot
 * @seq: the sequence number wanted, not 0
 * @ev: type, code, token and info filled on success; the rest is left
 *
 * Return: 0; -EAGAIN if the entry holds another sequence number (not yet
 * written, or already overwritten); -EBADMSG for an event of a type a peer
 * may not send.
 */
int ivshm_read_event(const struct ivshm_geo *geo, const void *region,
		     u32 sender, u32 receiver, u64 seq, struct ism_event *ev)
{
	struct ivshm_evq *q = ivshm_evq(geo, region, sender, receiver);
	struct ivshm_evq_entry *e = &q->ent[(seq - 1) & (geo->evq_len - 1)];
	struct ivshm_evq_entry copy;
	u32 type;

	if (!ivshm_copy_stable(&copy, e, sizeof(copy), &e->seq, seq))
		return -EAGAIN;
	type = le32_to_cpu(copy.type);
	if (type != ISM_EVT_DMB && type != ISM_EVT_SWR &&
	    type != IVSHM_EVT_FENCE)
		return -EBADMSG;
	ev->type = type;
	ev->code = le32_to_cpu(copy.code);
	ev->token = le64_to_cpu(copy.token);
	ev->info = le64_to_cpu(copy.info);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ivshm_read_event);
