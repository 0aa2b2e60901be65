/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism-region: a region's shared file, mapped, and what the host reads and
 * writes in it: the header (formatting), the peer table and the DMB
 * descriptors (show, check). The layout is include/uapi/linux/ism_ivshm.h,
 * which the guests' driver compiles too.
 *
 * Everything but the header was written by guests: it is copied out and
 * judged, never followed.
 */
#ifndef REGION_FILE_H
#define REGION_FILE_H

#include <linux/ism_ivshm.h>
#include <stdint.h>
#include <sys/types.h>

struct region_file {
	const char *path;
	int fd;
	unsigned char *mem;
	unsigned long long len;		/* bytes of the file, all mapped */
};

/* A slot as the host sees it; gid as the guests' sysfs prints it. */
struct region_slot {
	uint64_t cookie;		/* 0: free */
	uint64_t heartbeat;
	uint32_t state;
	uint32_t doorbell;
	uint8_t gid[16];
	unsigned int dmbs;		/* descriptors published */
	unsigned long long dmb_bytes;	/* their lengths */
};

int region_file_open(struct region_file *f, const char *path, int writable);
int region_file_create(struct region_file *f, const char *path,
		       unsigned long long size, uid_t uid, gid_t gid,
		       mode_t perm);
void region_file_close(struct region_file *f);

const char *region_file_header(const struct region_file *f,
			       struct ivshm_geo *geo);
int region_file_format(struct region_file *f, const struct ivshm_geo *geo);

void region_file_slot(const struct region_file *f,
		      const struct ivshm_geo *geo, uint32_t slot,
		      struct region_slot *s);
void region_file_desc(const struct region_file *f,
		      const struct ivshm_geo *geo, uint32_t slot,
		      uint32_t idx, struct ivshm_dmb_desc *d);
void region_gid_str(const uint8_t gid[16], char buf[37]);

#endif /* REGION_FILE_H */
