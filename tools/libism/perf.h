/* SPDX-License-Identifier: GPL-2.0 */
/*
 * Shared by ism_lat and ism_bw: options, the connection of two processes
 * over one ISM device (each registers a DMB for the other and attaches
 * the other's, or writes into it with MOVE), the words they poll, time.
 */
#ifndef ISM_PERF_H
#define ISM_PERF_H

#include <stdint.h>

#include "../include/compiler.h"
#include "libism.h"

/* A DMB's first cache line holds the words the peer writes last. */
#define PERF_HDR	64

struct perf_opts {
	const char *prog;
	const char *dev;
	const char *host;	/* NULL: the server */
	const char *port;
	unsigned long iters;
	unsigned long warmup;
	uint32_t size;
	unsigned int slots;	/* ism_bw: messages in flight */
	int busy;		/* poll the DMB instead of sleeping */
	int json;
	int verify;		/* ism_bw: the server checks the data */
	int timeout_ms;		/* for the peer, at each step */
};

struct perf_link {
	struct ism *ism;
	struct ism_buf mine;	/* the peer writes into it */
	struct ism_buf theirs;	/* attached, if the device can */
	uint64_t token;		/* the peer's DMB */
	uint64_t key;		/* and its key */
	int sock;
	int busy;
	int timeout_ms;
};

int perf_parse(int argc, char **argv, struct perf_opts *o, int bw);
int perf_connect(const struct perf_opts *o, uint32_t mine, uint32_t theirs,
		 struct perf_link *l);
void perf_close(struct perf_link *l);
int perf_put(struct perf_link *l, uint32_t off, const void *data,
	     uint32_t len);
int perf_put_word(struct perf_link *l, uint32_t off, uint64_t v);
int perf_wait_word(struct perf_link *l, uint32_t off, uint64_t want);
uint64_t perf_now_ns(void);
const char *perf_mode(const struct perf_link *l);
__noreturn void perf_die(const char *prog, const char *what, int err);

#endif /* ISM_PERF_H */
