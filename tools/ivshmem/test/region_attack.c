// SPDX-License-Identifier: GPL-2.0
/*
 * region_attack: aimed attacks of a hostile member of a virtual ISM region
 * on its guests, for the two-guest test (tools/testing/ism/pair.sh), each
 * with an outcome the guests check:
 *
 *   region_attack desc FILE
 *	Rewrite the length of every DMB descriptor in use, in every
 *	partition, to 1 byte, under its live token: every write into those
 *	DMBs is refused. The connections using them must end with an error
 *	on both sides, and new ones must work.
 *   region_attack flap [-s SECONDS] FILE
 *	Fake peers in every free slot, each a new peer (cookie and GID)
 *	every 20 ms, for SECONDS (default 5); the slots are freed after. The
 *	guests see thousands of peers come and go: their logs must stay
 *	within the driver's budget and their traffic must go on.
 *   region_attack cookie SLOT FILE
 *	Take SLOT's claim, as a newcomer would: a new cookie. Its guest must
 *	write nothing more into the region and leave it.
 *   region_attack flood [-s SECONDS] [-r EVENTS-PER-SECOND] SLOT FILE
 *	A fake peer in the first free slot, alive (its heartbeat moves),
 *	floods SLOT with SMC's TESTLINK requests (to which SMC answers) for
 *	SECONDS (default 5), EVENTS-PER-SECOND (default 100000) at most;
 *	the slot is freed after. The guest's receive path must take a bounded
 *	share of the flood, and its traffic must go on.
 *
 *   region_attack storm [-s SECONDS] FILE
 *	Every summary bit and every dmbe mask of every partition set, each
 *	millisecond, then every event queue's head rewritten with random and
 *	boundary values, each 10 ms, SECONDS (default 5) each. Spurious
 *	signals and lost events: the traffic under way must go on intact.
 *   region_attack shutdown FILE
 *	SMC's SHUTDOWN event, spoofed in the queue of every claimed slot for
 *	every other: the connections between them end, on both ends, with
 *	an error; new ones must work.
 *
 * Prints what it did; exits 1 on a usage or I/O error.
 */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "region_map.h"

static uint64_t rnd(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^ random();
}

static void print_usage(void)
{
	fputs("usage: region_attack desc FILE\n"
	      "       region_attack flap [-s SECONDS] FILE\n"
	      "       region_attack cookie SLOT FILE\n"
	      "       region_attack flood [-s SECONDS] [-r EVENTS-PER-SECOND] SLOT FILE\n"
	      "       region_attack storm [-s SECONDS] FILE\n"
	      "       region_attack shutdown FILE\n",
	      stderr);
	exit(1);
}

static int attack_desc(const struct region *r)
{
	unsigned long n = 0;
	uint32_t s, i;

	for (s = 0; s < r->peers; s++) {
		for (i = 0; i < r->max_dmbs; i++) {
			unsigned char *d = region_part(r, s) +
					   i * REGION_DESC_LEN;

			if (!region_le64(d + DESC_TOKEN))
				continue;
			region_put_le32(d + DESC_LEN, 1);
			n++;
		}
	}
	printf("region_attack desc: %lu live descriptors now 1 byte long\n",
	       n);
	return 0;
}

/* A new peer in @slot: cookie, GID (8 random bytes, 8 zero), heartbeat. */
static void fake_peer(unsigned char *slot, uint64_t beat)
{
	uint64_t cookie = rnd() | 1;

	region_put_le64(slot + SLOT_GID, rnd() | 1);
	region_put_le64(slot + SLOT_GID + 8, 0);
	region_put_le64(slot + SLOT_HEARTBEAT, beat);
	region_put_le32(slot + SLOT_DOORBELL, 0xffffffff);
	region_put_le32(slot + SLOT_STATE, SLOT_STATE_ACTIVE);
	region_put_le64(slot + SLOT_COOKIE, cookie);
}

static int attack_flap(const struct region *r, unsigned long secs)
{
	const struct timespec gap = { .tv_nsec = 20 * 1000 * 1000 };
	unsigned char *free_slots[64];
	unsigned long peers = 0;
	unsigned int n = 0, i;
	time_t end;

	for (i = 0; i < r->peers; i++)
		if (!region_le64(region_slot(r, i) + SLOT_COOKIE))
			free_slots[n++] = region_slot(r, i);
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (i = 0; i < n; i++)
			fake_peer(free_slots[i], peers + i);
		peers += n;
		nanosleep(&gap, NULL);
	}
	for (i = 0; i < n; i++) {
		region_put_le32(free_slots[i] + SLOT_STATE, SLOT_STATE_FREE);
		region_put_le64(free_slots[i] + SLOT_COOKIE, 0);
	}
	printf("region_attack flap: %lu fake peers in %u free slots in %lu s\n",
	       peers, n, secs);
	return 0;
}

/* SMC 6.1's TESTLINK request: code 0x83, request 1 in the info's top u16. */
#define TESTLINK_CODE	0x83
#define TESTLINK_INFO	(1ULL << 48)
/* SMC 6.1's SHUTDOWN request for all VLANs (0xfff in bits 32 to 47). */
#define SHUTDOWN_CODE	0x80
#define SHUTDOWN_INFO	(1ULL << 48 | 0xfffULL << 32)

/* Post an event as the next entry of queue @q. */
static void post_event(const struct region *r, unsigned char *q,
		       uint32_t code, uint64_t info)
{
	uint64_t head = region_le64(q) + 1;
	unsigned char *e = q + EVQ_HEAD_LEN +
			   (head - 1) % r->evq_len * EVQ_ENTRY_LEN;

	region_put_le32(e + EVT_TYPE, EVT_SWR);
	region_put_le32(e + EVT_CODE, code);
	region_put_le64(e + EVT_INFO, info);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	region_put_le64(e + EVT_SEQ, head);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	region_put_le64(q, head);
}

static int claimed(const struct region *r, uint32_t s)
{
	return region_le64(region_slot(r, s) + SLOT_COOKIE) != 0;
}

static int attack_shutdown(const struct region *r)
{
	unsigned int n = 0;
	uint32_t s, t;

	for (s = 0; s < r->peers; s++)
		for (t = 0; t < r->peers; t++)
			if (s != t && claimed(r, s) && claimed(r, t)) {
				post_event(r, region_evq(r, s, t),
					   SHUTDOWN_CODE, SHUTDOWN_INFO);
				n++;
			}
	printf("region_attack shutdown: %u spoofed SHUTDOWN events\n", n);
	return 0;
}

static const uint64_t heads[] = {
	0, 1, 63, 64, 65, 0x7fffffffffffffffULL, 0x8000000000000000ULL,
	UINT64_MAX - 1, UINT64_MAX,
};

static int attack_storm(const struct region *r, unsigned long secs)
{
	const struct timespec ms = { .tv_nsec = 1000 * 1000 };
	const struct timespec ten_ms = { .tv_nsec = 10 * 1000 * 1000 };
	uint32_t words = (r->max_dmbs + 31) / 32, s, t, i;
	unsigned long storms = 0, rewrites = 0, tick;
	unsigned char *sig;
	time_t end;

	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (s = 0; s < r->peers; s++) {
			sig = region_sig(r, s);
			for (i = words; i < words + r->max_dmbs; i++)
				region_put_le32(sig + i * 4, 0xffff);
			for (i = 0; i < words; i++)
				region_put_le32(sig + i * 4, 0xffffffff);
		}
		storms++;
		nanosleep(&ms, NULL);
	}
	end = time(NULL) + secs;
	for (tick = 0; time(NULL) < end; tick++) {
		for (s = 0; s < r->peers; s++)
			for (t = 0; t < r->peers; t++) {
				uint64_t v = tick % 2 ? rnd() :
					     heads[rnd() % ARRAY_SIZE(heads)];

				region_put_le64(region_evq(r, s, t), v);
				rewrites++;
			}
		nanosleep(&ten_ms, NULL);
	}
	printf("region_attack storm: every signal set %lu times, %lu queue heads rewritten\n",
	       storms, rewrites);
	return 0;
}

static int attack_flood(const struct region *r, unsigned long victim,
			unsigned long secs, unsigned long rate)
{
	const unsigned long batch = 64;
	struct timespec gap = { .tv_nsec = batch * 1000000000ULL / rate };
	unsigned char *slot = NULL, *q;
	unsigned long n = 0, i;
	time_t end;
	uint32_t f;

	if (victim >= r->peers) {
		fprintf(stderr, "region_attack: no slot %lu\n", victim);
		return 1;
	}
	for (f = 0; f < r->peers && !slot; f++)
		if (!region_le64(region_slot(r, f) + SLOT_COOKIE))
			slot = region_slot(r, f);
	if (!slot) {
		fprintf(stderr, "region_attack: no free slot to flood from\n");
		return 1;
	}
	f--;
	q = region_evq(r, f, victim);
	memset(q, 0, EVQ_HEAD_LEN + (uint64_t)r->evq_len * EVQ_ENTRY_LEN);
	fake_peer(slot, 1);
	/* The victim's scan takes the peer in, and skips what came before. */
	sleep(1);
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (i = 0; i < batch; i++)
			post_event(r, q, TESTLINK_CODE, TESTLINK_INFO);
		n += batch;
		/* Alive: a heartbeat every few batches. */
		region_put_le64(slot + SLOT_HEARTBEAT, 2 + n / batch);
		nanosleep(&gap, NULL);
	}
	region_put_le32(slot + SLOT_STATE, SLOT_STATE_FREE);
	region_put_le64(slot + SLOT_COOKIE, 0);
	printf("region_attack flood: %lu events from slot %u to slot %lu in %lu s\n",
	       n, f, victim, secs);
	return 0;
}

static int attack_cookie(const struct region *r, unsigned long slot)
{
	unsigned char *s;

	if (slot >= r->peers) {
		fprintf(stderr, "region_attack: no slot %lu\n", slot);
		return 1;
	}
	s = region_slot(r, slot);
	region_put_le64(s + SLOT_COOKIE, region_le64(s + SLOT_COOKIE) ^ rnd() ^ 1);
	printf("region_attack cookie: slot %lu claimed by another party\n",
	       slot);
	return 0;
}

int main(int argc, char **argv)
{
	unsigned long secs = 5, slot = 0, rate = 100000;
	const char *mode;
	struct region r;
	int opt;

	if (argc < 2)
		print_usage();
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "s:r:")) != -1) {
		if (opt == 's')
			secs = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			rate = strtoul(optarg, NULL, 0);
		else
			print_usage();
	}
	if (!rate || rate > 10000000)
		print_usage();
	if (!strcmp(mode, "cookie") || !strcmp(mode, "flood")) {
		if (optind != argc - 2)
			print_usage();
		slot = strtoul(argv[optind++], NULL, 0);
	} else if (optind != argc - 1 ||
		   (strcmp(mode, "desc") && strcmp(mode, "flap") &&
		    strcmp(mode, "storm") && strcmp(mode, "shutdown"))) {
		print_usage();
	}
	srandom(time(NULL) ^ getpid());
	if (region_open(&r, argv[optind]))
		return 1;
	if (!strcmp(mode, "desc"))
		return attack_desc(&r);
	if (!strcmp(mode, "flap"))
		return attack_flap(&r, secs);
	if (!strcmp(mode, "flood"))
		return attack_flood(&r, slot, secs, rate);
	if (!strcmp(mode, "storm"))
		return attack_storm(&r, secs);
	if (!strcmp(mode, "shutdown"))
		return attack_shutdown(&r);
	return attack_cookie(&r, slot);
}
