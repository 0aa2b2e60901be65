// SPDX-License-Identifier: GPL-2.0
/*
 * smc_xfer I/O: sockets, whole reads and writes, the checked streams and
 * the result messages.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <arpa/inet.h>
#include <sys/time.h>

#include "xfer.h"

#ifndef AF_SMC
#define AF_SMC		43
#endif
#define SMCPROTO_SMC	0
#define SMCPROTO_SMC6	1

int xfer_socket(const struct xfer_opts *o)
{
	int fd;

	if (o->tcp)
		fd = socket(o->v6 ? AF_INET6 : AF_INET,
			    SOCK_STREAM | SOCK_CLOEXEC, 0);
	else
		fd = socket(AF_SMC, SOCK_STREAM | SOCK_CLOEXEC,
			    o->v6 ? SMCPROTO_SMC6 : SMCPROTO_SMC);
	if (fd < 0 && !o->tcp && errno == EAFNOSUPPORT)
		fprintf(stderr, "smc_xfer: AF_SMC is not supported: is smc.ko loaded?\n");
	else if (fd < 0)
		perror("smc_xfer: socket");
	return fd;
}

/* Numeric addresses only (no resolver in a static binary). */
int xfer_addr(const struct xfer_opts *o, const char *host,
	      union xfer_addr *a, socklen_t *len)
{
	memset(a, 0, sizeof(*a));
	if (o->v6) {
		a->in6.sin6_family = AF_INET6;
		a->in6.sin6_port = htons(o->port);
		*len = sizeof(a->in6);
		if (!host)
			return 0;	/* in6addr_any */
		return inet_pton(AF_INET6, host, &a->in6.sin6_addr) == 1 ?
			0 : -1;
	}
	a->in.sin_family = AF_INET;
	a->in.sin_port = htons(o->port);
	*len = sizeof(a->in);
	if (!host)
		return 0;		/* INADDR_ANY */
	return inet_pton(AF_INET, host, &a->in.sin_addr) == 1 ? 0 : -1;
}

void xfer_set_timeout(int fd, unsigned int seconds)
{
	struct timeval tv = { .tv_sec = seconds };

	setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
}

/* 0: all read; 1: end of stream first; -errno: error (-EAGAIN: timeout). */
int xfer_read_full(int fd, void *buf, size_t len)
{
	char *p = buf;

	while (len) {
		ssize_t n = read(fd, p, len);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			return 1;
		p += n;
		len -= n;
	}
	return 0;
}

/* 0, or -errno (-EPIPE/-ECONNRESET: the peer is gone). */
int xfer_write_full(int fd, const void *buf, size_t len)
{
	const char *p = buf;

	while (len) {
		ssize_t n = send(fd, p, len, MSG_NOSIGNAL);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		p += n;
		len -= n;
	}
	return 0;
}

static void xfer_fail(struct xfer_stream *st, enum xfer_status status,
		      int err)
{
	if (st->status != XFER_OK)
		return;
	st->status = status;
	st->err = err;
}

void xfer_send_stream(int fd, uint64_t seed, uint32_t conn_id, int dir,
		      uint64_t len, int with_trailer, struct xfer_stream *st)
{
	struct xfer_trailer t;
	struct xfer_sum sum;
	struct xfer_rng rng;
	struct xfer_gen gen;
	uint8_t *buf;
	int err;

	memset(st, 0, sizeof(*st));
	xfer_sum_init(&sum);
	st->csum = xfer_sum_final(&sum);
	buf = malloc(XFER_MAX_CHUNK);
	if (!buf) {
		xfer_fail(st, XFER_IO, ENOMEM);
		return;
	}
	xfer_gen_init(&gen, seed, conn_id, dir);
	xfer_rng_init(&rng, seed, conn_id, dir);
	while (st->bytes < len) {
		size_t n = xfer_rng_chunk(&rng);

		if (n > len - st->bytes)
			n = len - st->bytes;
		xfer_gen_fill(&gen, buf, n);
		err = xfer_write_full(fd, buf, n);
		if (err) {
			xfer_fail(st, XFER_IO, -err);
			goto out;
		}
		xfer_sum_update(&sum, buf, n);
		st->bytes += n;
	}
	st->csum = xfer_sum_final(&sum);
	if (with_trailer) {
		t.bytes = xfer_be64(st->bytes);
		t.csum = xfer_be64(st->csum);
		err = xfer_write_full(fd, &t, sizeof(t));
		if (err)
			xfer_fail(st, XFER_IO, -err);
	}
out:
	free(buf);
}

/*
 * One read of at most @len bytes from @fd; with @pipefd, by splice() into
 * the pipe and then from it, as a zero-copy receiver does: SMC then hands
 * the pages of its receive buffer to the pipe.
 */
static ssize_t xfer_read_some(int fd, void *buf, size_t len,
			      const int *pipefd)
{
	ssize_t n;
	int ret;

	if (!pipefd)
		return read(fd, buf, len);
	n = splice(fd, NULL, pipefd[1], NULL, len, SPLICE_F_MOVE);
	if (n <= 0)
		return n;
	ret = xfer_read_full(pipefd[0], buf, n);
	if (ret) {
		errno = ret < 0 ? -ret : EIO;
		return -1;
	}
	return n;
}

/* Reads in random sizes too, so the receiver's side is exercised alike. */
void xfer_recv_stream(int fd, int use_splice, uint64_t seed, uint32_t conn_id,
		      int dir, uint64_t len, int with_trailer,
		      struct xfer_stream *st)
{
	int pipefd[2] = { -1, -1 };
	uint8_t *buf, *want;
	struct xfer_trailer t;
	struct xfer_sum sum;
	struct xfer_rng rng;
	struct xfer_gen gen;
	int ret;

	memset(st, 0, sizeof(*st));
	xfer_sum_init(&sum);
	buf = malloc(XFER_MAX_CHUNK);
	want = malloc(XFER_MAX_CHUNK);
	if (!buf || !want) {
		xfer_fail(st, XFER_IO, ENOMEM);
		goto out;
	}
	if (use_splice && pipe2(pipefd, O_CLOEXEC)) {
		xfer_fail(st, XFER_IO, errno);
		goto out;
	}
	xfer_gen_init(&gen, seed, conn_id, dir);
	xfer_rng_init(&rng, seed, conn_id, dir | 0x80);
	while (st->bytes < len) {
		size_t want_n = xfer_rng_chunk(&rng);
		ssize_t n;

		if (want_n > len - st->bytes)
			want_n = len - st->bytes;
		n = xfer_read_some(fd, buf, want_n,
				   use_splice ? pipefd : NULL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			xfer_fail(st, XFER_IO, errno);
			goto out;
		}
		if (n == 0) {
			xfer_fail(st, XFER_SHORT, 0);
			goto out;
		}
		xfer_gen_fill(&gen, want, n);
		if (st->status == XFER_OK && memcmp(buf, want, n)) {
			ssize_t i = 0;

			while (buf[i] == want[i])
				i++;
			st->bad_offset = st->bytes + i;
			xfer_fail(st, XFER_BAD_DATA, 0);
		}
		xfer_sum_update(&sum, buf, n);
		st->bytes += n;
	}
	st->csum = xfer_sum_final(&sum);
	if (!with_trailer)
		goto out;
	ret = xfer_read_full(fd, &t, sizeof(t));
	if (ret) {
		xfer_fail(st, ret > 0 ? XFER_SHORT : XFER_IO,
			  ret > 0 ? 0 : -ret);
		goto out;
	}
	if (xfer_be64(t.bytes) != st->bytes || xfer_be64(t.csum) != st->csum)
		xfer_fail(st, XFER_BAD_CSUM, 0);
out:
	st->csum = xfer_sum_final(&sum);
	if (pipefd[0] >= 0) {
		close(pipefd[0]);
		close(pipefd[1]);
	}
	free(buf);
	free(want);
}

int xfer_send_result(int fd, const struct xfer_stream *st)
{
	struct xfer_result r = {
		.magic = xfer_be32(XFER_MAGIC_RESULT),
		.status = xfer_be32(st->status),
		.bytes = xfer_be64(st->bytes),
		.csum = xfer_be64(st->csum),
		.bad_offset = xfer_be64(st->bad_offset),
	};

	return xfer_write_full(fd, &r, sizeof(r));
}

/* 0, 1 (end of stream), -errno, or -EPROTO for a malformed message. */
int xfer_recv_result(int fd, struct xfer_result *r)
{
	int ret = xfer_read_full(fd, r, sizeof(*r));

	if (ret)
		return ret;
	r->magic = xfer_be32(r->magic);
	r->status = xfer_be32(r->status);
	r->bytes = xfer_be64(r->bytes);
	r->csum = xfer_be64(r->csum);
	r->bad_offset = xfer_be64(r->bad_offset);
	return r->magic == XFER_MAGIC_RESULT ? 0 : -EPROTO;
}

const char *xfer_status_name(enum xfer_status s)
{
	switch (s) {
	case XFER_OK:
		return "ok";
	case XFER_BAD_DATA:
		return "data mismatch";
	case XFER_BAD_CSUM:
		return "checksum mismatch";
	case XFER_SHORT:
		return "stream ended early";
	case XFER_IO:
		return "socket error";
	}
	return "?";
}

double xfer_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec + ts.tv_nsec / 1e9;
}
