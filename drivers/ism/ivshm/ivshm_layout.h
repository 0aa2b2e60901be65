/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Virtual ISM over QEMU's ivshmem: the driver's side of the region layout.
 * The layout itself, its trust rules and ivshm_geometry() are in
 * include/uapi/linux/ism_ivshm.h, which the host's tools share; here are
 * the checked views and the accessors guests use (ivshm_layout.c).
 */
#ifndef _DRIVERS_ISM_IVSHM_LAYOUT_H
#define _DRIVERS_ISM_IVSHM_LAYOUT_H

#include <linux/ism.h>
#include <linux/types.h>
#include <linux/uuid.h>
#include <uapi/linux/ism_ivshm.h>

/**
 * struct ivshm_slot_view - a peer slot, copied out and checked
 * @cookie: the claim's cookie, 0 for a free slot
 * @heartbeat: the heartbeat counter
 * @gid: the peer's GID
 * @state: %IVSHM_SLOT_JOINING or %IVSHM_SLOT_ACTIVE
 * @doorbell: ivshmem peer ID below 65536, or %IVSHM_NO_DOORBELL
 */
struct ivshm_slot_view {
	u64 cookie;
	u64 heartbeat;
	uuid_t gid;
	u32 state;
	u32 doorbell;
};

void ivshm_format(void *region, const struct ivshm_geo *geo);
int ivshm_read_header(const void *region, u64 bar_size,
		      struct ivshm_geo *geo);
u16 ivshm_chid(const struct ivshm_geo *geo);

struct ivshm_slot *ivshm_slot(const struct ivshm_geo *geo, void *region,
			      u32 slot);
int ivshm_read_slot(const struct ivshm_geo *geo, const void *region,
		    u32 slot, struct ivshm_slot_view *view);
void ivshm_reset_partition(const struct ivshm_geo *geo, void *region,
			   u32 slot);

u64 ivshm_token(u32 slot, u32 idx, u64 random);
int ivshm_token_split(const struct ivshm_geo *geo, u64 token, u32 *slot,
		      u32 *idx);
void ivshm_publish_dmb(const struct ivshm_geo *geo, void *region, u32 slot,
		       u32 idx, const struct ivshm_dmb_desc *desc);
void ivshm_retract_dmb(const struct ivshm_geo *geo, void *region, u32 slot,
		       u32 idx);
int ivshm_find_dmb(const struct ivshm_geo *geo, const void *region,
		   u64 token, const uuid_t *writer, u64 *data, u32 *len,
		   u64 *key);
void *ivshm_data(const struct ivshm_geo *geo, void *region, u32 slot,
		 u32 offset);

bool ivshm_signal(const struct ivshm_geo *geo, void *region, u32 slot,
		  u32 idx, u16 dmbemask);
unsigned int ivshm_take_signals(const struct ivshm_geo *geo, void *region,
				u32 slot,
				void (*deliver)(void *ctx, u32 idx, u16 mask),
				void *ctx);
void ivshm_clear_signals(const struct ivshm_geo *geo, void *region,
			 u32 slot, u32 idx);

void ivshm_post_event(const struct ivshm_geo *geo, void *region, u32 sender,
		      u32 receiver, u64 seq, const struct ism_event *ev);
u64 ivshm_evq_head(const struct ivshm_geo *geo, const void *region,
		   u32 sender, u32 receiver);
int ivshm_read_event(const struct ivshm_geo *geo, const void *region,
		     u32 sender, u32 receiver, u64 seq, struct ism_event *ev);

#endif /* _DRIVERS_ISM_IVSHM_LAYOUT_H */
