// SPDX-License-Identifier: GPL-2.0
/*
 * ism-region show: a region's header, capacity and peer table, as text or
 * JSON; check: whether what the guests published is consistent with the
 * layout (a guest's driver refuses what is not, so an inconsistency is a
 * broken or hostile guest, or a host that wrote into the file).
 *
 * A region in use changes while it is read: a descriptor being rewritten
 * can be seen half-way. Check a live region twice before believing it.
 */
#include <endian.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "compiler.h"
#include "region_show.h"

static const char *state_name(const struct region_slot *s)
{
	if (!s->cookie)
		return "free";
	if (s->state == IVSHM_SLOT_JOINING)
		return "joining";
	if (s->state == IVSHM_SLOT_ACTIVE)
		return "active";
	return "bad";
}

static void json_str(const char *key, const char *v, const char *sep)
{
	printf("\"%s\":\"", key);
	for (; *v; v++)
		if (*v == '"' || *v == '\\')
			printf("\\%c", *v);
		else if ((unsigned char)*v < 0x20)
			printf("\\u%04x", *v);
		else
			putchar(*v);
	printf("\"%s", sep);
}

static void show_json(const struct region_file *f, const struct ivshm_geo *geo,
		      const struct region_conf *c, const char *id)
{
	struct region_slot s;
	char gid[37];
	uint32_t i;

	putchar('{');
	json_str("file", f->path, ",");
	json_str("region_id", id, ",");
	printf("\"size\":%llu,\"peers\":%u,\"dmbs\":%u,\"evq\":%u,",
	       (unsigned long long)geo->region_size, geo->max_peers,
	       geo->max_dmbs, geo->evq_len);
	printf("\"part_off\":%llu,\"part_size\":%llu,\"data_off\":%u,\"data_len\":%u,",
	       (unsigned long long)geo->part_off,
	       (unsigned long long)geo->part_size, geo->data_off,
	       geo->data_len);
	if (c)
		printf("\"buffer\":%u,\"buffers_per_guest\":%u,", c->buffer,
		       region_buffers(geo, c->buffer));
	printf("\"slots\":[");
	for (i = 0; i < geo->max_peers; i++) {
		region_file_slot(f, geo, i, &s);
		printf("%s{\"slot\":%u,", i ? "," : "", i);
		json_str("state", state_name(&s), "");
		if (s.cookie) {
			region_gid_str(s.gid, gid);
			printf(",");
			json_str("gid", gid, ",");
			printf("\"doorbell\":%d,\"heartbeat\":%llu,\"dmbs\":%u,\"dmb_bytes\":%llu,\"data_free\":%llu",
			       s.doorbell == IVSHM_NO_DOORBELL ? -1 : (int)s.doorbell,
			       (unsigned long long)s.heartbeat, s.dmbs,
			       s.dmb_bytes,
			       s.dmb_bytes < geo->data_len ?
			       geo->data_len - s.dmb_bytes : 0);
		}
		putchar('}');
	}
	printf("]}\n");
}

void region_show(const struct region_file *f, const struct ivshm_geo *geo,
		 const struct region_conf *c, int json)
{
	struct region_slot s;
	char id[37], gid[37];
	uint32_t i;

	region_gid_str(geo->region_id, id);
	if (json) {
		show_json(f, geo, c, id);
		return;
	}
	printf("region %s: %llu bytes, layout version %d, id %s\n", f->path,
	       (unsigned long long)geo->region_size, IVSHM_VERSION, id);
	printf("  %u peer slots, %u DMB indexes each, event queues of %u\n",
	       geo->max_peers, geo->max_dmbs, geo->evq_len);
	printf("  partitions of %llu bytes from %llu; data area %u bytes each\n",
	       (unsigned long long)geo->part_size,
	       (unsigned long long)geo->part_off, geo->data_len);
	if (c)
		printf("  capacity: %u buffers of %u bytes per guest\n",
		       region_buffers(geo, c->buffer), c->buffer);
	printf("slot  state    gid                                   doorbell  heartbeat  dmbs  bytes\n");
	for (i = 0; i < geo->max_peers; i++) {
		region_file_slot(f, geo, i, &s);
		if (!s.cookie) {
			printf("%-5u free\n", i);
			continue;
		}
		region_gid_str(s.gid, gid);
		printf("%-5u %-8s %s  ", i, state_name(&s), gid);
		if (s.doorbell == IVSHM_NO_DOORBELL)
			printf("%-8s", "-");
		else
			printf("%-8u", s.doorbell);
		printf("  %-9llu  %-4u  %llu\n", (unsigned long long)s.heartbeat,
		       s.dmbs, s.dmb_bytes);
	}
}

static __printf(4, 5) void problem(int *n, const char *path, uint32_t slot,
				   const char *fmt, ...)
{
	va_list ap;

	printf("%s: slot %u: ", path, slot);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	++*n;
}

struct extent {
	uint32_t off, len, idx;
};

static int extent_cmp(const void *a, const void *b)
{
	const struct extent *x = a, *y = b;

	return x->off < y->off ? -1 : x->off > y->off;
}

/*
 * The descriptors of a claimed slot: each names its own place and lies in
 * the data area, and no two overlap (sorted by offset: neighbours only).
 */
static void check_descs(const struct region_file *f,
			const struct ivshm_geo *geo, uint32_t slot,
			struct extent *ext, int *n)
{
	uint32_t idx, off, len, mask, k = 0;
	struct ivshm_dmb_desc d;
	uint64_t token;

	mask = (1U << IVSHM_TOKEN_SLOT_BITS) - 1;
	for (idx = 0; idx < geo->max_dmbs; idx++) {
		region_file_desc(f, geo, slot, idx, &d);
		token = le64toh(d.token);
		if (!token)
			continue;
		off = le32toh(d.offset);
		len = le32toh(d.len);
		if (!(token >> 63) ||
		    ((token >> IVSHM_TOKEN_IDX_BITS) & mask) != slot ||
		    (token & ((1U << IVSHM_TOKEN_IDX_BITS) - 1)) != idx)
			problem(n, f->path, slot,
				"DMB index %u: token %#llx names another place",
				idx, (unsigned long long)token);
		if (!len || len > geo->data_len || off > geo->data_len - len ||
		    off % IVSHM_UNIT) {
			problem(n, f->path, slot,
				"DMB index %u: offset %#x, length %u: outside the data area",
				idx, off, len);
			continue;
		}
		ext[k++] = (struct extent){ .off = off, .len = len, .idx = idx };
	}
	qsort(ext, k, sizeof(*ext), extent_cmp);
	for (idx = 1; idx < k; idx++)
		if (ext[idx - 1].off + ext[idx - 1].len > ext[idx].off)
			problem(n, f->path, slot, "DMB indexes %u and %u overlap",
				ext[idx - 1].idx, ext[idx].idx);
}

static int gid_ok(const uint8_t gid[16])
{
	static const uint8_t zero[8];

	return memcmp(gid, zero, 8) && !memcmp(gid + 8, zero, 8);
}

/*
 * region_check: the header against the configuration, every claimed slot
 * and its descriptors; each problem a line. Return: the problems.
 */
int region_check(const struct region_file *f, const struct ivshm_geo *geo,
		 const struct region_conf *c)
{
	struct region_slot s[IVSHM_MAX_PEERS];
	struct extent *ext;
	uint32_t i, j;
	int n = 0;

	if (c && (c->size != geo->region_size || c->peers != geo->max_peers ||
		  c->dmbs != geo->max_dmbs || c->evq != geo->evq_len)) {
		printf("%s: formatted for %llu bytes, %u peers of %u DMBs, queues of %u; region %s is configured for %llu, %u, %u, %u\n",
		       f->path, (unsigned long long)geo->region_size,
		       geo->max_peers, geo->max_dmbs, geo->evq_len, c->name,
		       c->size, c->peers, c->dmbs, c->evq);
		n++;
	}
	ext = calloc(geo->max_dmbs, sizeof(*ext));
	if (!ext) {
		printf("%s: out of memory\n", f->path);
		return n + 1;
	}
	for (i = 0; i < geo->max_peers; i++) {
		region_file_slot(f, geo, i, &s[i]);
		if (!s[i].cookie)
			continue;
		if (s[i].state != IVSHM_SLOT_JOINING &&
		    s[i].state != IVSHM_SLOT_ACTIVE)
			problem(&n, f->path, i, "state %u", s[i].state);
		if (s[i].doorbell > 0xffff && s[i].doorbell != IVSHM_NO_DOORBELL)
			problem(&n, f->path, i, "doorbell %u", s[i].doorbell);
		if (!gid_ok(s[i].gid))
			problem(&n, f->path, i, "malformed GID");
		for (j = 0; j < i; j++)
			if (s[j].cookie && !memcmp(s[i].gid, s[j].gid,
						   sizeof(s[i].gid)))
				problem(&n, f->path, i, "the GID of slot %u", j);
		check_descs(f, geo, i, ext, &n);
	}
	free(ext);
	return n;
}
