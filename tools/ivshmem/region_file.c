// SPDX-License-Identifier: GPL-2.0
/*
 * ism-region: the region's file (region_file.h).
 *
 * Formatting follows the guests' own (ivshm_format() in
 * drivers/ism/ivshm/ivshm_layout.c): the magic is written last, so a
 * guest that probes meanwhile sees no header rather than half of one.
 * The old contents are dropped by punching a hole over the whole file,
 * which a QEMU that still maps it sees as zeroes, never as a SIGBUS.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/random.h>
#include <sys/stat.h>
#include <unistd.h>

#include "region_file.h"
#include "shm_file.h"

static int region_map(struct region_file *f, int writable)
{
	struct stat st;

	if (fstat(f->fd, &st)) {
		fprintf(stderr, "ism-region: %s: %s\n", f->path, strerror(errno));
		return -1;
	}
	f->len = st.st_size;
	if (f->len < sizeof(struct ivshm_region_hdr)) {
		fprintf(stderr, "ism-region: %s: %llu bytes, too small for a region\n",
			f->path, f->len);
		return -1;
	}
	f->mem = mmap(NULL, f->len, PROT_READ | (writable ? PROT_WRITE : 0),
		      MAP_SHARED, f->fd, 0);
	if (f->mem == MAP_FAILED) {
		fprintf(stderr, "ism-region: %s: mmap: %s\n", f->path,
			strerror(errno));
		f->mem = NULL;
		return -1;
	}
	return 0;
}

/* region_file_open: map PATH; 0, or -1 with the reason printed */
int region_file_open(struct region_file *f, const char *path, int writable)
{
	f->path = path;
	f->mem = NULL;
	f->fd = open(path, (writable ? O_RDWR : O_RDONLY) | O_CLOEXEC);
	if (f->fd < 0) {
		fprintf(stderr, "ism-region: %s: %s\n", path, strerror(errno));
		return -1;
	}
	if (region_map(f, writable)) {
		close(f->fd);
		return -1;
	}
	return 0;
}

/*
 * region_file_create: open or create PATH, owned by @uid:@gid (-1: leave)
 * with @perm, at least @size bytes (grown, never cut: guests may map it);
 * then map it.
 */
int region_file_create(struct region_file *f, const char *path,
		       unsigned long long size, uid_t uid, gid_t gid,
		       mode_t perm)
{
	struct stat st;

	f->path = path;
	f->mem = NULL;
	f->fd = shm_file_open(path, perm);
	if (f->fd < 0 || fstat(f->fd, &st) ||
	    fchmod(f->fd, perm) || fchown(f->fd, uid, gid) ||
	    ((unsigned long long)st.st_size < size && ftruncate(f->fd, size))) {
		fprintf(stderr, "ism-region: %s: %s\n", path, strerror(errno));
		if (f->fd >= 0)
			close(f->fd);
		return -1;
	}
	if (region_map(f, 1)) {
		close(f->fd);
		return -1;
	}
	return 0;
}

void region_file_close(struct region_file *f)
{
	if (f->mem)
		munmap(f->mem, f->len);
	close(f->fd);
}

/*
 * region_file_header: read and check the header as a guest does; NULL,
 * or why the file holds no usable region.
 */
const char *region_file_header(const struct region_file *f,
			       struct ivshm_geo *geo)
{
	struct ivshm_region_hdr h;

	memcpy(&h, f->mem, sizeof(h));
	if (le64toh(h.magic) != IVSHM_MAGIC)
		return "no virtual ISM layout (not formatted)";
	if (le32toh(h.version) != IVSHM_VERSION)
		return "another version of the layout";
	if (ivshm_header_geometry(geo, f->len, le64toh(h.region_size),
				  le32toh(h.max_peers), le32toh(h.max_dmbs),
				  le32toh(h.evq_len), le64toh(h.part_off),
				  le64toh(h.part_size)))
		return "a header with inconsistent values, or larger than the file";
	memcpy(geo->region_id, h.region_id, sizeof(geo->region_id));
	return NULL;
}

/* region_file_format: an empty region of @geo, a new identity; 0 or -1 */
int region_file_format(struct region_file *f, const struct ivshm_geo *geo)
{
	struct ivshm_region_hdr h = {
		.version = htole32(IVSHM_VERSION),
		.max_peers = htole32(geo->max_peers),
		.region_size = htole64(geo->region_size),
		.max_dmbs = htole32(geo->max_dmbs),
		.evq_len = htole32(geo->evq_len),
		.part_off = htole64(geo->part_off),
		.part_size = htole64(geo->part_size),
	};
	uint64_t *magic = (uint64_t *)f->mem;

	if (getrandom(h.region_id, sizeof(h.region_id), 0) !=
	    sizeof(h.region_id)) {
		fprintf(stderr, "ism-region: getrandom: %s\n", strerror(errno));
		return -1;
	}
	/* No guest takes the header being written for a valid one. */
	__atomic_store_n(magic, 0, __ATOMIC_SEQ_CST);
	if (fallocate(f->fd, FALLOC_FL_PUNCH_HOLE | FALLOC_FL_KEEP_SIZE, 0,
		      f->len))
		memset(f->mem, 0, f->len);
	memcpy(f->mem + sizeof(h.magic), (unsigned char *)&h + sizeof(h.magic),
	       sizeof(h) - sizeof(h.magic));
	/* The fields are in place before the magic says they are. */
	__atomic_store_n(magic, htole64(IVSHM_MAGIC), __ATOMIC_SEQ_CST);
	if (msync(f->mem, f->len, MS_SYNC)) {
		fprintf(stderr, "ism-region: %s: msync: %s\n", f->path,
			strerror(errno));
		return -1;
	}
	return 0;
}

void region_file_desc(const struct region_file *f,
		      const struct ivshm_geo *geo, uint32_t slot,
		      uint32_t idx, struct ivshm_dmb_desc *d)
{
	memcpy(d, f->mem + geo->part_off + slot * geo->part_size +
	       idx * sizeof(*d), sizeof(*d));
}

/* region_file_slot: slot @slot copied out, with its published DMBs */
void region_file_slot(const struct region_file *f,
		      const struct ivshm_geo *geo, uint32_t slot,
		      struct region_slot *s)
{
	struct ivshm_slot copy;
	struct ivshm_dmb_desc d;
	uint32_t idx;

	memcpy(&copy, f->mem + IVSHM_SLOTS_OFF + slot * sizeof(copy),
	       sizeof(copy));
	memset(s, 0, sizeof(*s));
	s->cookie = le64toh(copy.cookie);
	if (!s->cookie)
		return;
	s->heartbeat = le64toh(copy.heartbeat);
	s->state = le32toh(copy.state);
	s->doorbell = le32toh(copy.doorbell);
	memcpy(s->gid, copy.gid, sizeof(s->gid));
	for (idx = 0; idx < geo->max_dmbs; idx++) {
		region_file_desc(f, geo, slot, idx, &d);
		if (!d.token)
			continue;
		s->dmbs++;
		s->dmb_bytes += le32toh(d.len);
	}
}

/* region_gid_str: as %pUb prints it, the form of /sys/class/ism/DEV/gid */
void region_gid_str(const uint8_t gid[16], char buf[37])
{
	int i, n = 0;

	for (i = 0; i < 16; i++) {
		n += sprintf(buf + n, "%02x", gid[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			buf[n++] = '-';
	}
	buf[n] = '\0';
}
