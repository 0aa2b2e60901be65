// SPDX-License-Identifier: GPL-2.0
/*
 * region_scribble: the hostile peer of the virtual ISM tests. Maps a
 * region's backing file and, for a while, overwrites what the guests
 * read from it with random and boundary values: the header, the peer
 * table, and the metadata at the start of every partition (DMB
 * descriptors, signal area, event queues). It learns where those are
 * from the header as the layout documents it
 * (Documentation/networking/ism-ivshm.rst), read before it starts writing.
 *
 *   region_scribble [-s SECONDS] [-r WRITES-PER-SECOND] [-S SEED] FILE
 *
 * Prints how many values it wrote where; exits 1 on a usage or I/O error.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

/* Where the header keeps what the scribbler needs (little-endian). */
#define HDR_MAX_PEERS	12
#define HDR_PART_OFF	32
#define HDR_PART_SIZE	40
#define HDR_LEN		64
#define SLOTS_OFF	4096
#define SLOT_LEN	64
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

static uint64_t le64(const unsigned char *p)
{
	uint64_t v = 0;
	int i;

	for (i = 7; i >= 0; i--)
		v = v << 8 | p[i];
	return v;
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
	uint64_t peers, part_off, part_size, v;
	unsigned int nareas = 0, a;
	struct timespec gap;
	unsigned char *mem;
	struct stat st;
	time_t end;
	int fd, opt;

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
	fd = open(argv[optind], O_RDWR);
	if (fd < 0 || fstat(fd, &st)) {
		perror(argv[optind]);
		return 1;
	}
	if (st.st_size < SLOTS_OFF + SLOT_LEN) {
		fprintf(stderr, "%s: too small for a region\n", argv[optind]);
		return 1;
	}
	mem = mmap(NULL, st.st_size, PROT_READ | PROT_WRITE, MAP_SHARED, fd, 0);
	if (mem == MAP_FAILED) {
		perror("mmap");
		return 1;
	}
	peers = le64(mem + HDR_MAX_PEERS - 4) >> 32;
	part_off = le64(mem + HDR_PART_OFF);
	part_size = le64(mem + HDR_PART_SIZE);
	if (peers < 8 || peers > 64 || part_off > (uint64_t)st.st_size ||
	    !part_size || part_size > (uint64_t)st.st_size ||
	    part_off + peers * part_size > (uint64_t)st.st_size) {
		fprintf(stderr, "%s: no virtual ISM header to aim by\n",
			argv[optind]);
		return 1;
	}
	memset(areas, 0, sizeof(areas));
	areas[nareas++] = (struct area){ .name = "header", .len = HDR_LEN };
	areas[nareas++] = (struct area){ .name = "peer table",
					 .off = SLOTS_OFF,
					 .len = peers * SLOT_LEN };
	for (i = 0; i < peers; i++)
		areas[nareas++] = (struct area){
			.name = "partition metadata",
			.off = part_off + i * part_size,
			.len = part_size < META_LEN ? part_size : META_LEN,
		};

	/* A pause every 64 writes. */
	gap.tv_sec = 64 / rate;
	gap.tv_nsec = 64 * 1000000000ULL / rate % 1000000000ULL;
	end = time(NULL) + secs;
	for (n = 0; time(NULL) < end; n++) {
		struct area *ar = &areas[rnd() % nareas];
		uint64_t off = ar->off + (rnd() % (ar->len / 8)) * 8;

		v = rnd() % 2 ? rnd() : boundary[rnd() % ARRAY_SIZE(boundary)];
		memcpy(mem + off, &v, sizeof(v));
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
