// SPDX-License-Identifier: GPL-2.0
/*
 * region_scribble: the hostile peer of the virtual ISM tests. Maps a
 * region's backing file and, for a while, overwrites what the guests
 * read from it with random and boundary values: the header, the peer
 * table, and the metadata at the start of every partition (DMB
 * descriptors, signal area, event queues). It learns where those are
 * from the header (region_map.h), read before it starts writing.
 * region_attack makes the aimed attacks.
 *
 *   region_scribble [-s SECONDS] [-r WRITES-PER-SECOND] [-S SEED] FILE
 *
 * Prints how many values it wrote where; exits 1 on a usage or I/O error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "region_map.h"

/* Every partition's metadata lies within its first 64 KiB here. */
#define META_LEN	65536

static const uint64_t boundary[] = {
	0, 1, 2, 0x7f, 0x80, 0xff, 0xfff, 0x1000, 0xffff, 0x10000,
	0x7fffffff, 0x80000000, 0xffffffff, 0x100000000ULL,
	0x7fffffffffffffffULL, 0x8000000000000000ULL, UINT64_MAX,
};

struct area {
	const char *name;
	uint64_t off;
	uint64_t len;
	unsigned long writes;
};

static uint64_t rnd(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^ random();
}

static void print_usage(void)
{
	fputs("usage: region_scribble [-s SECONDS] [-r WRITES-PER-SECOND] [-S SEED] FILE\n",
	      stderr);
	exit(1);
}

int main(int argc, char **argv)
{
	unsigned long secs = 10, rate = 20000, seed = time(NULL), i, n;
	struct area areas[2 + 64];
	unsigned int nareas = 0, a;
	struct timespec gap;
	struct region r;
	time_t end;
	uint64_t v;
	int opt;

	while ((opt = getopt(argc, argv, "s:r:S:")) != -1) {
		switch (opt) {
		case 's':
			secs = strtoul(optarg, NULL, 0);
			break;
		case 'r':
			rate = strtoul(optarg, NULL, 0);
			break;
		case 'S':
			seed = strtoul(optarg, NULL, 0);
			break;
		default:
			print_usage();
		}
	}
	if (optind != argc - 1 || !rate || rate > 1000000)
		print_usage();
	srandom(seed);
	if (region_open(&r, argv[optind]))
		return 1;
	memset(areas, 0, sizeof(areas));
	areas[nareas++] = (struct area){ .name = "header",
					 .len = REGION_HDR_LEN };
	areas[nareas++] = (struct area){ .name = "peer table",
					 .off = REGION_SLOTS_OFF,
					 .len = r.peers * REGION_SLOT_LEN };
	for (i = 0; i < r.peers; i++)
		areas[nareas++] = (struct area){
			.name = "partition metadata",
			.off = r.part_off + i * r.part_size,
			.len = r.part_size < META_LEN ? r.part_size : META_LEN,
		};

	/* A pause every 64 writes. */
	gap.tv_sec = 64 / rate;
	gap.tv_nsec = 64 * 1000000000ULL / rate % 1000000000ULL;
	end = time(NULL) + secs;
	for (n = 0; time(NULL) < end; n++) {
		struct area *ar = &areas[rnd() % nareas];
		uint64_t off = ar->off + (rnd() % (ar->len / 8)) * 8;

		v = rnd() % 2 ? rnd() : boundary[rnd() % ARRAY_SIZE(boundary)];
		memcpy(r.mem + off, &v, sizeof(v));
		ar->writes++;
		if (n % 64 == 0)
			nanosleep(&gap, NULL);
	}
	for (a = 0; a < nareas; a++)
		if (a < 2 || areas[a].writes)
			printf("%s at %#llx: %lu writes\n", areas[a].name,
			       (unsigned long long)areas[a].off, areas[a].writes);
	printf("region_scribble: %lu writes in %lu s, seed %lu\n", n, secs, seed);
	return 0;
}
