// SPDX-License-Identifier: GPL-2.0
/*
 * ism_bw: one-way bandwidth between two processes over an ISM device, in
 * the manner of perftest's ib_write_bw. See ism_bw(1).
 *
 * The server's DMB has a counter of messages written (the first word)
 * and, from PERF_HDR on, a ring of --slots messages; the client's DMB a
 * counter of messages the server consumed. The client writes message i
 * into slot i % slots once the server has consumed message i - slots,
 * then the counter; the server copies each message out (as a socket's
 * reader would) and counts it consumed. The time runs from the first
 * message after the warm-up to the server's last count.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

/* The first and last words of message @i carry @i: --verify checks them. */
static void stamp(char *msg, uint32_t size, uint64_t i)
{
	memcpy(msg, &i, sizeof(i));
	memcpy(msg + size - sizeof(i), &i, sizeof(i));
}

static int stamped(const char *msg, uint32_t size, uint64_t i)
{
	return !memcmp(msg, &i, sizeof(i)) &&
	       !memcmp(msg + size - sizeof(i), &i, sizeof(i));
}

static void report(const struct perf_opts *o, const struct perf_link *l,
		   uint64_t ns)
{
	double s = ns / 1e9, mb = (double)o->size * o->iters / 1e6;

	if (!o->json) {
		printf("ism_bw %s, %s, %s, %u bytes x %lu in %u slots: ",
		       o->dev, perf_mode(l), o->busy ? "busy-poll" : "event",
		       o->size, o->iters, o->slots);
		printf("%.1f MB/s, %.0f messages/s\n", mb / s, o->iters / s);
		return;
	}
	printf("{\"tool\":\"ism_bw\",\"device\":\"%s\",\"mode\":\"%s\",",
	       o->dev, perf_mode(l));
	printf("\"wait\":\"%s\",\"size\":%u,\"slots\":%u,\"iterations\":%lu,",
	       o->busy ? "busy-poll" : "event", o->size, o->slots, o->iters);
	printf("\"seconds\":%.6f,\"MBps\":%.1f,\"msgps\":%.0f}\n",
	       s, mb / s, o->iters / s);
}

static int client(const struct perf_opts *o, struct perf_link *l,
		  unsigned long total, char *msg)
{
	uint64_t t = 0;
	unsigned long i;
	int ret = 0;

	for (i = 0; i < total && !ret; i++) {
		if (i == o->warmup)
			t = perf_now_ns();
		if (i >= o->slots)
			ret = perf_wait_word(l, 0, i - o->slots + 1);
		stamp(msg, o->size, i);
		ret = ret ?: perf_put(l, PERF_HDR + (i % o->slots) * o->size,
				      msg, o->size) ?:
		      perf_put_word(l, 0, i + 1);
	}
	ret = ret ?: perf_wait_word(l, 0, total);
	if (!ret)
		report(o, l, perf_now_ns() - t);
	return ret;
}

static int server(const struct perf_opts *o, struct perf_link *l,
		  unsigned long total, char *msg)
{
	const char *ring = (const char *)l->mine.addr + PERF_HDR;
	unsigned long i, bad = 0;
	int ret = 0;

	for (i = 0; i < total && !ret; i++) {
		ret = perf_wait_word(l, 0, i + 1);
		if (ret)
			break;
		memcpy(msg, ring + (i % o->slots) * o->size, o->size);
		if (o->verify && !stamped(msg, o->size, i))
			bad++;
		ret = perf_put_word(l, 0, i + 1);
	}
	if (bad) {
		fprintf(stderr, "%s: %lu of %lu messages corrupt\n", o->prog,
			bad, total);
		return -EBADMSG;
	}
	if (!ret && o->verify)
		printf("%s: %lu messages of %u bytes verified\n", o->prog,
		       total, o->size);
	return ret;
}

int main(int argc, char **argv)
{
	struct perf_opts o;
	struct perf_link l;
	unsigned long total;
	uint32_t ring;
	char *msg;
	int ret;

	perf_parse(argc, argv, &o, 1);
	total = o.warmup + o.iters;
	msg = calloc(1, o.size);
	if (!msg)
		perf_die(o.prog, "memory", -ENOMEM);
	memset(msg, 0x5a, o.size);
	ring = PERF_HDR + o.slots * o.size;
	/* The server's DMB holds the ring, the client's only its counter. */
	ret = perf_connect(&o, o.host ? PERF_HDR : ring,
			   o.host ? ring : PERF_HDR, &l);
	if (ret)
		perf_die(o.prog, "setting up", ret);
	ret = o.host ? client(&o, &l, total, msg) : server(&o, &l, total, msg);
	if (ret)
		perf_die(o.prog, "transfer", ret);
	perf_close(&l);
	free(msg);
	return 0;
}
