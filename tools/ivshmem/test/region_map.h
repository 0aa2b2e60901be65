/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The hostile peers of the virtual ISM tests (region_scribble,
 * region_attack): a region's backing file mapped, and where its parts
 * are, read from the header as Documentation/networking/ism-ivshm.rst
 * ("The region layout") documents it. They are attackers: nothing here
 * checks more than it needs to aim.
 */
#ifndef REGION_MAP_H
#define REGION_MAP_H

#include <stdint.h>

#define ARRAY_SIZE(a)		(sizeof(a) / sizeof((a)[0]))

#define REGION_HDR_LEN		64
#define REGION_SLOTS_OFF	4096
#define REGION_SLOT_LEN		64
#define REGION_DESC_LEN		40

/* Fields of a slot and of a DMB descriptor (little-endian). */
#define SLOT_COOKIE		0
#define SLOT_HEARTBEAT		8
#define SLOT_GID		16
#define SLOT_STATE		32
#define SLOT_DOORBELL		36
#define SLOT_STATE_FREE		0
#define SLOT_STATE_ACTIVE	2
#define DESC_TOKEN		0
#define DESC_OFFSET		8
#define DESC_LEN		12
/* An event queue: head on its own 64-byte line, then the entries. */
#define EVQ_HEAD_LEN		64
#define EVQ_ENTRY_LEN		32
#define EVT_SEQ			0
#define EVT_TYPE		8
#define EVT_CODE		12
#define EVT_INFO		24
#define EVT_SWR			2
#define EVT_FENCE		0x100

struct region {
	unsigned char *mem;
	uint64_t size;
	uint32_t peers;
	uint32_t max_dmbs;
	uint32_t evq_len;
	uint64_t part_off;
	uint64_t part_size;
};

/* Map FILE and read its header; 0, or -1 with the reason printed. */
int region_open(struct region *r, const char *file);

uint64_t region_le64(const unsigned char *p);
uint32_t region_le32(const unsigned char *p);
void region_put_le64(unsigned char *p, uint64_t v);
void region_put_le32(unsigned char *p, uint32_t v);

unsigned char *region_slot(const struct region *r, uint32_t slot);
unsigned char *region_part(const struct region *r, uint32_t slot);
unsigned char *region_evq(const struct region *r, uint32_t sender,
			  uint32_t receiver);
unsigned char *region_sig(const struct region *r, uint32_t slot);
unsigned char *region_dmb(const struct region *r, uint32_t slot,
			  const unsigned char *desc, uint32_t *len);

#endif /* REGION_MAP_H */
