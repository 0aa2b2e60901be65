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
 *   region_attack fill [-s SECONDS] FILE
 *	Fake peers in every free slot, alive (their heartbeats move every
 *	100 ms), for SECONDS (default 60) or until SIGTERM; the slots are
 *	freed after. The region is full: a newcomer can only take the slot
 *	of a guest whose heartbeat stood still.
 *   region_attack cookie SLOT FILE
 *	Take SLOT's claim, as a newcomer would: a new cookie. Its guest must
 *	write nothing more into the region and leave it.
 *   region_attack flood [-s SECONDS] [-r EVENTS-PER-SECOND] [-b BATCH] SLOT FILE
 *	A fake peer in the first free slot, alive (its heartbeat moves),
 *	floods SLOT with SMC's TESTLINK requests (to which SMC answers) for
 *	SECONDS (default 5), EVENTS-PER-SECOND (default 30000) at most, in
 *	batches of BATCH (default 15, just under the receive path's budget
 *	of 16 a pass, so that each batch fits one pass), ringing SLOT's
 *	doorbell after each (-S); the slot is freed after. The guest's
 *	receive path must take a bounded share of the flood, and its traffic
 *	must go on.
 *   region_attack storm [-s SECONDS] FILE
 *	Every summary bit and every dmbe mask of every partition set, each
 *	millisecond, every guest's doorbell rung after each round (-S), then
 *	every event queue's head rewritten with random and boundary values,
 *	each 10 ms, SECONDS (default 5) each. Spurious signals and lost
 *	events: the traffic under way must go on intact.
 *   region_attack shutdown FILE
 *	SMC's SHUTDOWN event, spoofed in the queue of every claimed slot for
 *	every other: the connections between them end, on both ends, with
 *	an error; new ones must work.
 *   region_attack fence FILE
 *	The driver's fence event, spoofed in the same queues, each with the
 *	receiver's cookie: every receiver drops every sender as if the
 *	sender had taken it for gone. The connections between them end, on
 *	both ends, with an error; new ones must work.
 *   region_attack cursor [-s SECONDS] FILE
 *	Garbage in SMC's cursors: the producer and consumer cursors of the
 *	CDC message at the start of every live DMB (SMC-D keeps them there)
 *	rewritten, flags included, and the DMB signalled (and its owner's
 *	doorbell rung, -S), each 10 ms for SECONDS (default 3): by turns
 *	random and boundary values, and
 *	urgent data announced far beyond the DMB. The connections
 *	using them may end or see their data damaged, but both ends must
 *	end them within seconds, without a kernel report, and new ones must
 *	work.
 *
 * -S SOCKET, before FILE, names the region's ivshmem server (doorbell
 * mode): the attacker joins it as a QEMU would and gets the eventfds that
 * ring the guests' doorbells, so that its signals and events reach the
 * guests' interrupt handlers at once, as a hostile guest's would.
 *
 * Prints what it did; exits 1 on a usage or I/O error.
 */
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "ivshmem_client.h"
#include "region_map.h"

static uint64_t rnd(void)
{
	return (uint64_t)random() << 33 ^ (uint64_t)random() << 11 ^ random();
}

static void print_usage(void)
{
	fputs("usage: region_attack MODE [-S SOCKET] ... FILE, MODE one of\n"
	      "       region_attack desc FILE\n"
	      "       region_attack flap [-s SECONDS] FILE\n"
	      "       region_attack fill [-s SECONDS] FILE\n"
	      "       region_attack cookie SLOT FILE\n"
	      "       region_attack flood [-s SECONDS] [-r EVENTS-PER-SECOND] [-b BATCH] SLOT FILE\n"
	      "       region_attack storm [-s SECONDS] FILE\n"
	      "       region_attack shutdown FILE\n"
	      "       region_attack fence FILE\n"
	      "       region_attack cursor [-s SECONDS] FILE\n",
	      stderr);
	exit(1);
}

/* The guests' doorbells, from the region's server (-S): IDs and eventfds. */
static struct {
	int n;
	int64_t ids[64];
	int fds[64];
	unsigned long rung;
} bells;

/* Ring the doorbell of the guest in @slot, if -S gave the server. */
static void ring(const struct region *r, uint32_t slot)
{
	int64_t id = region_le32(region_slot(r, slot) + SLOT_DOORBELL);
	uint64_t one = 1;
	int i;

	for (i = 0; i < bells.n; i++)
		if (bells.ids[i] == id) {
			if (write(bells.fds[i], &one, sizeof(one)) ==
			    sizeof(one))
				bells.rung++;
			return;
		}
}

/* Slot @s's descriptor of DMB index @i if it is in use, else NULL. */
static unsigned char *live_desc(const struct region *r, uint32_t s, uint32_t i)
{
	unsigned char *d = region_part(r, s) + i * REGION_DESC_LEN;

	return region_le64(d + DESC_TOKEN) ? d : NULL;
}

static int attack_desc(const struct region *r)
{
	unsigned long n = 0;
	unsigned char *d;
	uint32_t s, i;

	for (s = 0; s < r->peers; s++) {
		for (i = 0; i < r->max_dmbs; i++) {
			d = live_desc(r, s, i);
			if (!d)
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

/* The slots no guest claims, into @slots (64 at most); how many. */
static unsigned int free_slots(const struct region *r, unsigned char **slots)
{
	unsigned int n = 0, i;

	for (i = 0; i < r->peers; i++)
		if (!region_le64(region_slot(r, i) + SLOT_COOKIE))
			slots[n++] = region_slot(r, i);
	return n;
}

/* Free the @n slots of @slots again. */
static void release_slots(unsigned char **slots, unsigned int n)
{
	unsigned int i;

	for (i = 0; i < n; i++) {
		region_put_le32(slots[i] + SLOT_STATE, SLOT_STATE_FREE);
		region_put_le64(slots[i] + SLOT_COOKIE, 0);
	}
}

static int attack_flap(const struct region *r, unsigned long secs)
{
	const struct timespec gap = { .tv_nsec = 20 * 1000 * 1000 };
	unsigned char *slots[64];
	unsigned int n = free_slots(r, slots), i;
	unsigned long peers = 0;
	time_t end;

	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (i = 0; i < n; i++)
			fake_peer(slots[i], peers + i);
		peers += n;
		nanosleep(&gap, NULL);
	}
	release_slots(slots, n);
	printf("region_attack flap: %lu fake peers in %u free slots in %lu s\n",
	       peers, n, secs);
	return 0;
}

/* Set by SIGTERM's handler: atomics, as the loop reads it in between. */
static int stop;

static void on_term(int sig)
{
	__atomic_store_n(&stop, sig, __ATOMIC_RELAXED);
}

static int attack_fill(const struct region *r, unsigned long secs)
{
	const struct timespec gap = { .tv_nsec = 100 * 1000 * 1000 };
	unsigned char *slots[64];
	unsigned int n = free_slots(r, slots), i;
	uint64_t beat = 1;
	time_t start, end;

	/* Before the slots are taken: a SIGTERM from now on frees them. */
	signal(SIGTERM, on_term);
	for (i = 0; i < n; i++)
		fake_peer(slots[i], beat);
	printf("region_attack fill: fake peers in %u free slots\n", n);
	fflush(stdout);
	start = time(NULL);
	end = start + secs;
	while (time(NULL) < end && !__atomic_load_n(&stop, __ATOMIC_RELAXED)) {
		nanosleep(&gap, NULL);
		beat++;
		for (i = 0; i < n; i++)
			region_put_le64(slots[i] + SLOT_HEARTBEAT, beat);
	}
	release_slots(slots, n);
	printf("region_attack fill: %u slots freed after %ld s\n", n,
	       (long)(time(NULL) - start));
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
		       uint32_t type, uint32_t code, uint64_t info)
{
	uint64_t head = region_le64(q) + 1;
	unsigned char *e = q + EVQ_HEAD_LEN +
			   (head - 1) % r->evq_len * EVQ_ENTRY_LEN;

	region_put_le32(e + EVT_TYPE, type);
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

/*
 * An event of @type and @code spoofed in the queue of every claimed slot
 * for every other; a fence's info is the receiver's cookie, as the
 * driver's own fences carry it. Returns how many.
 */
static unsigned int spoof_all(const struct region *r, uint32_t type,
			      uint32_t code, uint64_t info)
{
	unsigned int n = 0;
	uint32_t s, t;

	for (s = 0; s < r->peers; s++)
		for (t = 0; t < r->peers; t++) {
			if (s == t || !claimed(r, s) || !claimed(r, t))
				continue;
			if (type == EVT_FENCE)
				info = region_le64(region_slot(r, t) +
						   SLOT_COOKIE);
			post_event(r, region_evq(r, s, t), type, code, info);
			n++;
		}
	return n;
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
			if (claimed(r, s))
				ring(r, s);
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
	printf("region_attack storm: every signal set %lu times, %lu doorbells rung, %lu queue heads rewritten\n",
	       storms, bells.rung, rewrites);
	return 0;
}

/*
 * SMC 6.1's CDC message of an SMC-D connection, at the start of the DMB:
 * the producer and the consumer cursor, each a u16 wrap count, a u32
 * count and two bytes of flags.
 */
#define CDC_PROD	8
#define CDC_CONS	16
#define CDC_LEN		32

/* A cursor for a DMB of @len bytes: a boundary value or a random one. */
static uint64_t garbage_cursor(uint32_t len)
{
	const uint32_t counts[] = {
		len - CDC_LEN, len - CDC_LEN + 1, len, UINT32_MAX,
		UINT32_MAX / 2 + 1,
	};
	uint64_t flags = rnd() & 0xffff;
	uint64_t count = rnd() % 2 ? (uint32_t)rnd() :
			 counts[rnd() % ARRAY_SIZE(counts)];

	return flags << 48 | count << 16 | (rnd() & 0xffff);
}

static void random_cursors(unsigned char *cdc, uint32_t len)
{
	region_put_le64(cdc + CDC_PROD, garbage_cursor(len));
	region_put_le64(cdc + CDC_CONS, garbage_cursor(len));
}

/*
 * Aimed at SMC 6.1's receive path: data produced 1 to 2 GiB beyond the
 * DMB, in the same wrap (SMC takes the difference as an int: any more
 * would be none), flagged urgent (SMC reads the urgent byte at the
 * producer cursor), no close flag (the connection lives on to read it).
 */
#define CDC_URG_PRESENT	0x20
static void aimed_cursors(unsigned char *cdc)
{
	uint64_t prod = region_le64(cdc + CDC_PROD);
	uint64_t cons = region_le64(cdc + CDC_CONS);
	uint64_t count = 0x40000000ULL | (rnd() & 0x3fffffff);

	region_put_le64(cdc + CDC_PROD, (prod & 0xffff) | count << 16);
	region_put_le64(cdc + CDC_CONS, (cons & 0xffffffffffffULL) |
					(uint64_t)CDC_URG_PRESENT << 48);
}

static int attack_cursor(const struct region *r, unsigned long secs)
{
	const struct timespec ten_ms = { .tv_nsec = 10 * 1000 * 1000 };
	uint32_t words = (r->max_dmbs + 31) / 32, s, i, len;
	unsigned long n = 0;
	unsigned char *d, *dmb, *sig;
	time_t end;

	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (s = 0; s < r->peers; s++) {
			sig = region_sig(r, s);
			for (i = 0; i < r->max_dmbs; i++) {
				d = live_desc(r, s, i);
				dmb = d ? region_dmb(r, s, d, &len) : NULL;
				if (!dmb || len < CDC_LEN)
					continue;
				if (n % 2)
					aimed_cursors(dmb);
				else
					random_cursors(dmb, len);
				__atomic_thread_fence(__ATOMIC_RELEASE);
				region_put_le32(sig + (words + i) * 4, 0xffff);
				region_put_le32(sig + i / 32 * 4, 0xffffffff);
				n++;
			}
			if (claimed(r, s))
				ring(r, s);
		}
		nanosleep(&ten_ms, NULL);
	}
	printf("region_attack cursor: %lu CDC messages rewritten in %lu s, %lu doorbells rung\n",
	       n, secs, bells.rung);
	return 0;
}

static int attack_flood(const struct region *r, unsigned long victim,
			unsigned long secs, unsigned long rate,
			unsigned long batch)
{
	struct timespec gap = { .tv_nsec = batch * 1000000000ULL / rate };
	unsigned char *slots[64], *slot, *q;
	unsigned long n = 0, i;
	time_t end;
	uint32_t f;

	if (victim >= r->peers) {
		fprintf(stderr, "region_attack: no slot %lu\n", victim);
		return 1;
	}
	if (!free_slots(r, slots)) {
		fprintf(stderr, "region_attack: no free slot to flood from\n");
		return 1;
	}
	slot = slots[0];
	f = (slot - region_slot(r, 0)) / REGION_SLOT_LEN;
	q = region_evq(r, f, victim);
	memset(q, 0, EVQ_HEAD_LEN + (uint64_t)r->evq_len * EVQ_ENTRY_LEN);
	fake_peer(slot, 1);
	/* The victim's scan takes the peer in, and skips what came before. */
	sleep(1);
	end = time(NULL) + secs;
	while (time(NULL) < end) {
		for (i = 0; i < batch; i++)
			post_event(r, q, EVT_SWR, TESTLINK_CODE,
				   TESTLINK_INFO);
		n += batch;
		ring(r, victim);
		/* Alive: a heartbeat every batch. */
		region_put_le64(slot + SLOT_HEARTBEAT, 2 + n / batch);
		nanosleep(&gap, NULL);
	}
	release_slots(&slot, 1);
	printf("region_attack flood: %lu events from slot %u to slot %lu in %lu s, %lu doorbells rung\n",
	       n, f, victim, secs, bells.rung);
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
	unsigned long secs = 0, slot = 0, rate = 30000, batch = 15;
	const char *mode, *server = NULL;
	struct region r;
	int opt;

	if (argc < 2)
		print_usage();
	mode = argv[1];
	optind = 2;
	while ((opt = getopt(argc, argv, "s:r:b:S:")) != -1) {
		if (opt == 's')
			secs = strtoul(optarg, NULL, 0);
		else if (opt == 'r')
			rate = strtoul(optarg, NULL, 0);
		else if (opt == 'b')
			batch = strtoul(optarg, NULL, 0);
		else if (opt == 'S')
			server = optarg;
		else
			print_usage();
	}
	if (!rate || rate > 10000000 || !batch || batch > rate)
		print_usage();
	if (!strcmp(mode, "cookie") || !strcmp(mode, "flood")) {
		if (optind != argc - 2)
			print_usage();
		slot = strtoul(argv[optind++], NULL, 0);
	} else if (optind != argc - 1 ||
		   (strcmp(mode, "desc") && strcmp(mode, "flap") &&
		    strcmp(mode, "storm") && strcmp(mode, "shutdown") &&
		    strcmp(mode, "fence") && strcmp(mode, "cursor") &&
		    strcmp(mode, "fill"))) {
		print_usage();
	}
	srandom(time(NULL) ^ getpid());
	if (region_open(&r, argv[optind]))
		return 1;
	if (server) {
		bells.n = ivshmem_peers(server, bells.ids, bells.fds,
					ARRAY_SIZE(bells.ids));
		if (bells.n < 0) {
			fprintf(stderr, "region_attack: no ivshmem server at %s\n",
				server);
			return 1;
		}
	}
	if (!strcmp(mode, "desc"))
		return attack_desc(&r);
	if (!strcmp(mode, "flap"))
		return attack_flap(&r, secs ? secs : 5);
	if (!strcmp(mode, "flood"))
		return attack_flood(&r, slot, secs ? secs : 5, rate, batch);
	if (!strcmp(mode, "storm"))
		return attack_storm(&r, secs ? secs : 5);
	if (!strcmp(mode, "shutdown")) {
		printf("region_attack shutdown: %u spoofed SHUTDOWN events\n",
		       spoof_all(&r, EVT_SWR, SHUTDOWN_CODE, SHUTDOWN_INFO));
		return 0;
	}
	if (!strcmp(mode, "fence")) {
		printf("region_attack fence: %u spoofed fences\n",
		       spoof_all(&r, EVT_FENCE, 0, 0));
		return 0;
	}
	if (!strcmp(mode, "cursor"))
		return attack_cursor(&r, secs ? secs : 3);
	if (!strcmp(mode, "fill"))
		return attack_fill(&r, secs ? secs : 60);
	return attack_cookie(&r, slot);
}
