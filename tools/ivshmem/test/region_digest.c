// SPDX-License-Identifier: GPL-2.0
/*
 * region_digest SLOT FILE: a digest of what only SLOT's guest writes in a
 * virtual ISM region and what holds still while that guest and its peers
 * are idle: its slot but for the heartbeat, and its whole partition
 * (descriptors, event queues, signals, DMB memory, used or not). For the
 * three-guest test (tools/testing/ism/trio.sh): taken before and after
 * another guest ran, two equal digests say that guest wrote none of it.
 *
 * Prints "region_digest: slot SLOT descriptors=N digest=HEX", N the
 * descriptors in use and HEX the FNV-1a 64 of it all; exits 1 on a usage
 * or I/O error.
 */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

#include "region_map.h"

/* FNV-1a 64 of @len bytes at @p, continued from @h. */
static uint64_t fnv1a(uint64_t h, const unsigned char *p, uint64_t len)
{
	while (len--)
		h = (h ^ *p++) * 0x100000001b3ULL;
	return h;
}

int main(int argc, char **argv)
{
	uint64_t digest = 0xcbf29ce484222325ULL;
	unsigned long slot, live = 0;
	const unsigned char *d;
	struct region r;
	uint32_t i;
	char *end;

	if (argc != 3) {
		fputs("usage: region_digest SLOT FILE\n", stderr);
		return 1;
	}
	slot = strtoul(argv[1], &end, 0);
	if (*end || region_open(&r, argv[2]))
		return 1;
	if (slot >= r.peers) {
		fprintf(stderr, "region_digest: no slot %lu\n", slot);
		return 1;
	}
	d = region_slot(&r, slot);
	digest = fnv1a(digest, d, SLOT_HEARTBEAT);
	digest = fnv1a(digest, d + SLOT_GID, REGION_SLOT_LEN - SLOT_GID);
	for (i = 0; i < r.max_dmbs; i++)
		live += region_le64(region_part(&r, slot) + i * REGION_DESC_LEN +
				    DESC_TOKEN) != 0;
	digest = fnv1a(digest, region_part(&r, slot), r.part_size);
	printf("region_digest: slot %lu descriptors=%lu digest=%016" PRIx64 "\n",
	       slot, live, digest);
	return 0;
}
