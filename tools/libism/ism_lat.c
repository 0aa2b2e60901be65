// SPDX-License-Identifier: GPL-2.0
/*
 * ism_lat: ping-pong latency between two processes over an ISM device,
 * in the manner of perftest's ib_write_lat. See ism_lat(1).
 *
 * Each side's DMB holds a sequence number (the first word) and, from
 * PERF_HDR on, the message. The client writes message i and then i into
 * the server's DMB; the server waits for i, answers the same way; the
 * client times the round trip. Latency is half of it, as sockperf's.
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "perf.h"

static int cmp(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static void report(const struct perf_opts *o, const struct perf_link *l,
		   uint64_t *rtt, unsigned long n)
{
	double sum = 0, us[5];
	unsigned long i;

	qsort(rtt, n, sizeof(*rtt), cmp);
	for (i = 0; i < n; i++)
		sum += rtt[i];
	/* one-way: half the round trip, in microseconds */
	us[0] = sum / n / 2000;
	us[1] = rtt[n / 2] / 2000.0;
	us[2] = rtt[n * 99 / 100] / 2000.0;
	us[3] = rtt[0] / 2000.0;
	us[4] = rtt[n - 1] / 2000.0;
	if (!o->json) {
		printf("ism_lat %s, %s, %s, %u bytes, %lu round trips: ",
		       o->dev, perf_mode(l), o->busy ? "busy-poll" : "event",
		       o->size, n);
		printf("latency avg %.3f us, p50 %.3f, p99 %.3f, min %.3f, max %.3f\n",
		       us[0], us[1], us[2], us[3], us[4]);
		return;
	}
	printf("{\"tool\":\"ism_lat\",\"device\":\"%s\",\"mode\":\"%s\",",
	       o->dev, perf_mode(l));
	printf("\"wait\":\"%s\",\"size\":%u,\"iterations\":%lu,",
	       o->busy ? "busy-poll" : "event", o->size, n);
	printf("\"latency_us\":{\"avg\":%.3f,\"p50\":%.3f,\"p99\":%.3f,",
	       us[0], us[1], us[2]);
	printf("\"min\":%.3f,\"max\":%.3f}}\n", us[3], us[4]);
}

int main(int argc, char **argv)
{
	unsigned long i, total;
	struct perf_opts o;
	struct perf_link l;
	uint64_t *rtt, t;
	char *msg;
	int ret;

	perf_parse(argc, argv, &o, 0);
	total = o.warmup + o.iters;
	rtt = calloc(o.iters, sizeof(*rtt));
	msg = calloc(1, o.size);
	if (!rtt || !msg)
		perf_die(o.prog, "memory", -ENOMEM);
	ret = perf_connect(&o, PERF_HDR + o.size, PERF_HDR + o.size, &l);
	if (ret)
		perf_die(o.prog, "setting up", ret);
	for (i = 1; i <= total && !ret; i++) {
		memcpy(msg, &i, sizeof(i) < o.size ? sizeof(i) : o.size);
		if (o.host) {
			t = perf_now_ns();
			ret = perf_put(&l, PERF_HDR, msg, o.size) ?:
			      perf_put_word(&l, 0, i) ?:
			      perf_wait_word(&l, 0, i);
			if (i > o.warmup)
				rtt[i - o.warmup - 1] = perf_now_ns() - t;
		} else {
			ret = perf_wait_word(&l, 0, i) ?:
			      perf_put(&l, PERF_HDR, msg, o.size) ?:
			      perf_put_word(&l, 0, i);
		}
	}
	if (ret)
		perf_die(o.prog, "ping-pong", ret);
	if (o.host)
		report(&o, &l, rtt, o.iters);
	perf_close(&l);
	free(rtt);
	free(msg);
	return 0;
}
