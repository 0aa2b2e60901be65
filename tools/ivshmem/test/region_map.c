// SPDX-License-Identifier: GPL-2.0
/*
 * The hostile peers' view of a region: see region_map.h.
 */
#include <fcntl.h>
#include <stdio.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#include "region_map.h"

/* Where the header keeps what the attackers aim by. */
#define HDR_MAX_PEERS	12
#define HDR_MAX_DMBS	24
#define HDR_EVQ_LEN	28
#define HDR_PART_OFF	32
#define HDR_PART_SIZE	40

/* The little-endian value of the @n bytes at @p. */
static uint64_t region_le(const unsigned char *p, int n)
{
	uint64_t v = 0;

	while (n--)
		v = v << 8 | p[n];
	return v;
}

uint64_t region_le64(const unsigned char *p)
{
	return region_le(p, 8);
}

uint32_t region_le32(const unsigned char *p)
{
	return region_le(p, 4);
}

void region_put_le64(unsigned char *p, uint64_t v)
{
	int i;

	for (i = 0; i < 8; i++, v >>= 8)
		p[i] = v & 0xff;
}

void region_put_le32(unsigned char *p, uint32_t v)
{
	int i;

	for (i = 0; i < 4; i++, v >>= 8)
		p[i] = v & 0xff;
}

unsigned char *region_slot(const struct region *r, uint32_t slot)
{
	return r->mem + REGION_SLOTS_OFF + (uint64_t)slot * REGION_SLOT_LEN;
}

unsigned char *region_part(const struct region *r, uint32_t slot)
{
	return r->mem + r->part_off + slot * r->part_size;
}

#define ALIGN64(x)	(((x) + 63) & ~(uint64_t)63)

/* A partition's signal area: summary words, then a mask per index. */
unsigned char *region_sig(const struct region *r, uint32_t slot)
{
	return region_part(r, slot) +
	       ALIGN64((uint64_t)r->max_dmbs * REGION_DESC_LEN);
}

/* The queue @sender keeps for @receiver, where the layout puts it. */
unsigned char *region_evq(const struct region *r, uint32_t sender,
			  uint32_t receiver)
{
	uint64_t sig = region_sig(r, sender) - region_part(r, sender);
	uint64_t evq = ALIGN64(sig + ((r->max_dmbs + 31) / 32 + r->max_dmbs) * 4);
	uint64_t size = EVQ_HEAD_LEN + (uint64_t)r->evq_len * EVQ_ENTRY_LEN;

	return region_part(r, sender) + evq + receiver * size;
}

/*
 * The DMB descriptor @desc of @slot's partition names, with its length in
 * @len; NULL if it does not lie in the partition's data area.
 */
unsigned char *region_dmb(const struct region *r, uint32_t slot,
			  const unsigned char *desc, uint32_t *len)
{
	uint64_t q = region_evq(r, slot, 0) - region_part(r, slot);
	uint64_t data = q + r->peers * (EVQ_HEAD_LEN +
					(uint64_t)r->evq_len * EVQ_ENTRY_LEN);
	uint64_t off = region_le32(desc + DESC_OFFSET);

	data = (data + 4095) & ~(uint64_t)4095;
	*len = region_le32(desc + DESC_LEN);
	if (data + off + *len > r->part_size)
		return NULL;
	return region_part(r, slot) + data + off;
}

int region_open(struct region *r, const char *file)
{
	struct stat st;
	int fd;

	fd = open(file, O_RDWR);
	if (fd < 0 || fstat(fd, &st)) {
		perror(file);
		return -1;
	}
	r->size = st.st_size;
	if (r->size < REGION_SLOTS_OFF + REGION_SLOT_LEN) {
		fprintf(stderr, "%s: too small for a region\n", file);
		close(fd);
		return -1;
	}
	r->mem = mmap(NULL, r->size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	close(fd);
	if (r->mem == MAP_FAILED) {
		perror("mmap");
		return -1;
	}
	r->peers = region_le32(r->mem + HDR_MAX_PEERS);
	r->max_dmbs = region_le32(r->mem + HDR_MAX_DMBS);
	r->evq_len = region_le32(r->mem + HDR_EVQ_LEN);
	r->part_off = region_le64(r->mem + HDR_PART_OFF);
	r->part_size = region_le64(r->mem + HDR_PART_SIZE);
	if (r->peers < 8 || r->peers > 64 || !r->max_dmbs ||
	    r->max_dmbs > 4096 || r->evq_len < 8 || r->evq_len > 1024 ||
	    (r->evq_len & (r->evq_len - 1)) ||
	    r->part_off > r->size || !r->part_size ||
	    r->part_size > r->size ||
	    r->part_off + r->peers * r->part_size > r->size ||
	    (uint64_t)r->max_dmbs * REGION_DESC_LEN > r->part_size ||
	    r->part_off < REGION_SLOTS_OFF + r->peers * REGION_SLOT_LEN) {
		fprintf(stderr, "%s: no virtual ISM header to aim by\n", file);
		return -1;
	}
	return 0;
}
