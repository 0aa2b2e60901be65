// SPDX-License-Identifier: GPL-2.0
/*
 * Shared by ism_lat and ism_bw: see perf.h.
 *
 * A writer puts its data into the peer's DMB, then one 64-bit word (a
 * sequence number or a counter) with release order; the reader waits
 * until the word in its own DMB reaches a value, with acquire order, and
 * then reads the data. In busy-poll mode the reader spins on the word;
 * in event mode the writer also signals the DMB and the reader sleeps in
 * ism_wait() until a signal comes. Where the device cannot attach, the
 * data and the word go with MOVE, the word after the data.
 */
#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "perf.h"

void perf_die(const char *prog, const char *what, int err)
{
	fprintf(stderr, "%s: %s: %s\n", prog, what, strerror(-err));
	exit(1);
}

static unsigned long parse_count(const char *prog, const char *s)
{
	char *end;
	unsigned long v;

	errno = 0;
	v = strtoul(s, &end, 0);
	if (errno || end == s)
		goto bad;
	if (*end == 'k' || *end == 'K') {
		v <<= 10;
		end++;
	} else if (*end == 'm' || *end == 'M') {
		v <<= 20;
		end++;
	}
	if (!*end)
		return v;
bad:
	fprintf(stderr, "%s: not a count: %s\n", prog, s);
	exit(2);
}

static void print_help(const struct perf_opts *o, int bw, int status)
{
	const char *name = bw ? "ism_bw" : "ism_lat";
	FILE *f = status ? stderr : stdout;

	fprintf(f, "NAME\n    %s - %s over an ISM device, between two processes\n\n",
		name, bw ? "one-way bandwidth" : "ping-pong latency");
	fprintf(f, "SYNOPSIS\n    %s [-d DEV] [-p PORT] [-s BYTES] [-n N] [-w N]%s [-b]\n",
		name, bw ? " [-k N] [-v]" : "");
	fprintf(f, "           [-t MS] [-j] [SERVER]\n    %s -h | --help\n\n", name);
	fprintf(f, "DESCRIPTION\n");
	fprintf(f, "    Two processes, on one system (a loopback ISM device) or on two\n");
	fprintf(f, "    (two virtual machines on one virtual ISM region), meet over TCP:\n");
	fprintf(f, "    without SERVER, %s waits for the client on PORT; with it, it\n", name);
	fprintf(f, "    connects there. Each side registers a DMB for the other on\n");
	fprintf(f, "    /dev/ism/DEV (ism_user.ko) and attaches the other's, where the\n");
	fprintf(f, "    device can, to write into it directly (mode zero-copy); else it\n");
	fprintf(f, "    writes with the MOVE request (mode move).\n\n");
	if (bw) {
		fprintf(f, "    The client writes N messages into a ring of the server's\n");
		fprintf(f, "    DMB, -k at a time; the server copies each out, as a\n");
		fprintf(f, "    socket's reader would, and counts it consumed. The client\n");
		fprintf(f, "    prints MB/s (10^6 bytes) and messages per second.\n\n");
	} else {
		fprintf(f, "    The client writes a message into the server's DMB; the\n");
		fprintf(f, "    server answers the same way. The client prints the\n");
		fprintf(f, "    latency, half the round trip, as sockperf does: average,\n");
		fprintf(f, "    median, 99th percentile, minimum and maximum.\n\n");
	}
	fprintf(f, "    By default a side that waits sleeps until the peer's signal\n");
	fprintf(f, "    (event mode); with -b it spins on its DMB (busy-poll mode), the\n");
	fprintf(f, "    lowest latency at the cost of a CPU.\n\n");
	fprintf(f, "OPTIONS\n");
	fprintf(f, "    -d, --device DEV    the ISM device (default ismlo0)\n");
	fprintf(f, "    -p, --port PORT     TCP port of the meeting (default %s)\n", o->port);
	fprintf(f, "    -s, --size BYTES    message size (default %s; k and M suffixes%s)\n",
		bw ? "65536" : "8", bw ? "; 16 at least" : "");
	fprintf(f, "    -n, --iters N       messages measured (default %s)\n",
		bw ? "2000" : "10000");
	fprintf(f, "    -w, --warmup N      messages before the measurement (default 100)\n");
	if (bw) {
		fprintf(f, "    -k, --slots N       messages in flight, 1 to 64 (default 4)\n");
		fprintf(f, "    -v, --verify        the server checks every message\n");
	}
	fprintf(f, "    -b, --busy-poll     spin on the DMB instead of sleeping\n");
	fprintf(f, "    -t, --timeout MS    give up when the peer is silent that long\n");
	fprintf(f, "                        (default 10000)\n");
	fprintf(f, "    -j, --json          the client's result as one JSON object\n");
	fprintf(f, "    -h, --help          this text\n\n");
	fprintf(f, "    Both sides need the same size, count, warm-up%s and -b: they\n",
		bw ? ", slots" : "");
	fprintf(f, "    compare them when they meet, and refuse to go on otherwise\n");
	fprintf(f, "    (\"Protocol error\").\n\n");
	fprintf(f, "EXAMPLES\n    %s -d ismlo0 -b &\n    %s -d ismlo0 -b 127.0.0.1\n\n",
		name, name);
	fprintf(f, "EXIT STATUS\n    0 success; 1 an error, said on stderr; 2 a bad command line.\n\n");
	fprintf(f, "SEE ALSO\n    %s(1), libism(3)\n", bw ? "ism_lat" : "ism_bw");
	exit(status);
}

int perf_parse(int argc, char **argv, struct perf_opts *o, int bw)
{
	static const struct option lopts[] = {
		{ "device", required_argument, NULL, 'd' },
		{ "port", required_argument, NULL, 'p' },
		{ "size", required_argument, NULL, 's' },
		{ "iters", required_argument, NULL, 'n' },
		{ "warmup", required_argument, NULL, 'w' },
		{ "slots", required_argument, NULL, 'k' },
		{ "verify", no_argument, NULL, 'v' },
		{ "busy-poll", no_argument, NULL, 'b' },
		{ "timeout", required_argument, NULL, 't' },
		{ "json", no_argument, NULL, 'j' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	*o = (struct perf_opts){
		.prog = argv[0], .dev = "ismlo0", .port = bw ? "18516" : "18515",
		.iters = bw ? 2000 : 10000, .warmup = 100, .size = bw ? 65536 : 8,
		.slots = 4, .timeout_ms = 10000,
	};
	while ((c = getopt_long(argc, argv, bw ? "d:p:s:n:w:k:vbt:jh" :
				"d:p:s:n:w:bt:jh", lopts, NULL)) != -1) {
		switch (c) {
		case 'd':
			o->dev = optarg;
			break;
		case 'p':
			o->port = optarg;
			break;
		case 's':
			o->size = parse_count(o->prog, optarg);
			break;
		case 'n':
			o->iters = parse_count(o->prog, optarg);
			break;
		case 'w':
			o->warmup = parse_count(o->prog, optarg);
			break;
		case 'k':
			o->slots = parse_count(o->prog, optarg);
			break;
		case 'v':
			o->verify = 1;
			break;
		case 'b':
			o->busy = 1;
			break;
		case 't':
			o->timeout_ms = parse_count(o->prog, optarg);
			break;
		case 'j':
			o->json = 1;
			break;
		case 'h':
			print_help(o, bw, 0);
			break;
		default:
			print_help(o, bw, 2);
		}
	}
	if (optind < argc)
		o->host = argv[optind++];
	if (optind < argc || !o->iters || !o->size || !o->slots ||
	    o->slots > 64 || o->size > (1U << 30) ||
	    (bw && o->size < 16) ||
	    (uint64_t)o->slots * o->size > (1U << 30))
		print_help(o, bw, 2);
	return 0;
}

/* Each side registers @mine bytes for the other and learns the other's
 * DMB (@theirs bytes at least), attaching it if it can.
 */
/* What both sides must agree on, folded into the exchange's 32 bits. */
static uint32_t perf_params(const struct perf_opts *o)
{
	const uint64_t v[] = { o->size, o->slots, o->warmup, o->iters, o->busy };
	uint32_t h = 2166136261U;	/* FNV-1a */
	size_t i;

	for (i = 0; i < ARRAY_SIZE(v); i++)
		h = (h ^ (uint32_t)(v[i] ^ v[i] >> 32)) * 16777619U;
	return h;
}

int perf_connect(const struct perf_opts *o, uint32_t mine, uint32_t theirs,
		 struct perf_link *l)
{
	struct ism_user_info info;
	struct ism_peer me = { 0 }, peer;
	long page = sysconf(_SC_PAGESIZE);
	int ret;

	*l = (struct perf_link){ .busy = o->busy, .timeout_ms = o->timeout_ms,
				 .sock = -1 };
	ret = ism_open(o->dev, &l->ism);
	if (!ret)
		ret = ism_info(l->ism, &info);
	if (ret)
		return ret;
	l->sock = ism_rendezvous(o->host, o->port, o->timeout_ms);
	if (l->sock < 0)
		return l->sock;
	memcpy(me.gid, info.gid, ISM_GID_LEN);
	me.data = perf_params(o);
	ret = ism_exchange(l->sock, &me, &peer);
	if (ret)
		return ret;
	if (peer.data != me.data)
		return -EPROTO;
	ret = ism_register(l->ism, (mine + page - 1) / page * page, peer.gid,
			   &l->mine);
	if (ret)
		return ret;
	if (!l->mine.addr)
		return -EOPNOTSUPP;
	me.token = l->mine.token;
	me.key = l->mine.key;
	me.len = l->mine.len;
	ret = ism_exchange(l->sock, &me, &peer);
	if (ret)
		return ret;
	if (peer.len < theirs)
		return -EMSGSIZE;
	l->token = peer.token;
	l->key = peer.key;
	/* The peer's word is not the kernel's: the attachment's length is. */
	if (info.flags & ISM_USER_INFO_ATTACH) {
		ret = ism_attach(l->ism, l->token, l->key, &l->theirs);
		if (ret)
			return ret;
		if (l->theirs.len < theirs)
			return -EMSGSIZE;
	}
	/* Both sides set up before either writes. */
	return ism_exchange(l->sock, &me, &peer);
}

void perf_close(struct perf_link *l)
{
	if (l->theirs.token)
		ism_release(l->ism, &l->theirs);
	if (l->mine.token)
		ism_release(l->ism, &l->mine);
	if (l->sock >= 0)
		close(l->sock);
	ism_close(l->ism);
}

const char *perf_mode(const struct perf_link *l)
{
	return l->theirs.addr ? "zero-copy" : "move";
}

int perf_put(struct perf_link *l, uint32_t off, const void *data, uint32_t len)
{
	if (l->theirs.addr) {
		memcpy((char *)l->theirs.addr + off, data, len);
		return 0;
	}
	return ism_write(l->ism, l->token, l->key, off, data, len, -1);
}

int perf_put_word(struct perf_link *l, uint32_t off, uint64_t v)
{
	int ret = 0;

	if (l->theirs.addr)
		__atomic_store_n((uint64_t *)((char *)l->theirs.addr + off), v,
				 __ATOMIC_RELEASE);
	else
		ret = ism_write(l->ism, l->token, l->key, off, &v, sizeof(v),
				-1);
	if (!ret && !l->busy)
		ret = ism_signal(l->ism, l->token, l->key, 0);
	return ret;
}

uint64_t perf_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ULL + ts.tv_nsec;
}

/*
 * Until the word at @off of our DMB is at least @want. A peer that
 * leaves ends the wait only after the word is read once more: its last
 * write comes before its leaving, often in the same batch of events.
 * A device that goes ends it at once: our DMB's mapping is revoked.
 */
int perf_wait_word(struct perf_link *l, uint32_t off, uint64_t want)
{
	const uint64_t *w = (uint64_t *)((char *)l->mine.addr + off);
	uint64_t now, deadline = perf_now_ns() + l->timeout_ms * 1000000ULL;
	struct ism_user_event ev[8];
	unsigned long spins = 0;
	int i, n, gone = 0;

	while (__atomic_load_n(w, __ATOMIC_ACQUIRE) < want) {
		if (gone)
			return -ENOTCONN;
		now = perf_now_ns();
		if (l->busy) {
			if (++spins % 4096 || now < deadline)
				continue;
			return -ETIMEDOUT;
		}
		/* Other events (any peer may send software events) do not
		 * move the deadline.
		 */
		if (now >= deadline)
			return -ETIMEDOUT;
		n = ism_wait(l->ism, ev, 8, (deadline - now) / 1000000 + 1);
		if (n < 0)
			return n;
		for (i = 0; i < n; i++) {
			if (ev[i].type == ISM_USER_EVENT_DEVICE_GONE)
				return -ENOTCONN;
			gone |= ev[i].type == ISM_USER_EVENT_PEER_GONE ||
				(ev[i].type == ISM_USER_EVENT_DMB_GONE &&
				 ev[i].token == l->token);
		}
	}
	return 0;
}
