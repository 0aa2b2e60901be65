// SPDX-License-Identifier: GPL-2.0
/*
 * smc_xfer server: a thread per accepted connection.
 */
#define _GNU_SOURCE
#include <arpa/inet.h>
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "xfer.h"

struct server_conn {
	struct xfer_conn c;
	pthread_t th;
	int detached;		/* serving forever: nobody joins or frees */
};

static void *server_tx(void *arg)
{
	struct xfer_conn *c = arg;

	xfer_send_stream(c->fd, c->hdr.seed, c->hdr.conn_id, XFER_DIR_SC,
			 c->hdr.len_sc, 1, &c->tx);
	return NULL;
}

static int server_read_hdr(struct xfer_conn *c)
{
	struct xfer_hdr *h = &c->hdr;
	int ret = xfer_read_full(c->fd, h, sizeof(*h));

	if (ret) {
		snprintf(c->what, sizeof(c->what), "reading header: %s",
			 ret > 0 ? "end of stream" : strerror(-ret));
		return -1;
	}
	h->magic = xfer_be32(h->magic);
	h->version = xfer_be32(h->version);
	h->flags = xfer_be32(h->flags);
	h->conn_id = xfer_be32(h->conn_id);
	h->len_cs = xfer_be64(h->len_cs);
	h->len_sc = xfer_be64(h->len_sc);
	h->seed = xfer_be64(h->seed);
	h->hold_s = xfer_be32(h->hold_s);
	if (h->magic != XFER_MAGIC_HDR || h->version != XFER_VERSION) {
		snprintf(c->what, sizeof(c->what), "bad header (not smc_xfer %d?)",
			 XFER_VERSION);
		return -1;
	}
	return 0;
}

/* The client announced an abort: a short stream is expected, bad data not. */
static void server_check_abort(struct xfer_conn *c)
{
	const char *end;
	char byte;
	int ret;

	if (c->rx.status == XFER_OK) {
		ret = xfer_read_full(c->fd, &byte, 1);
		end = ret > 0 ? "end of stream" : ret < 0 ? strerror(-ret) :
			"more data than announced";
		if (!ret)
			c->rx.status = XFER_BAD_CSUM;
	} else if (c->rx.status == XFER_SHORT) {
		end = "end of stream";
	} else {
		end = strerror(c->rx.err);
	}
	c->ok = c->rx.status == XFER_OK || c->rx.status == XFER_SHORT ||
		c->rx.status == XFER_IO;
	c->hold_ok = 1;
	snprintf(c->what, sizeof(c->what),
		 "client %u aborted as announced: received %llu of %llu bytes%s, then %s",
		 c->hdr.conn_id, (unsigned long long)c->rx.bytes,
		 (unsigned long long)c->hdr.len_cs,
		 c->rx.status == XFER_BAD_DATA ? " WITH BAD DATA" : " intact",
		 end);
}

static void server_check(struct xfer_conn *c, int res)
{
	if (c->rx.status != XFER_OK) {
		snprintf(c->what, sizeof(c->what),
			 "client %u: receiving: %s after %llu bytes%s%s",
			 c->hdr.conn_id, xfer_status_name(c->rx.status),
			 (unsigned long long)c->rx.bytes, c->rx.err ? ": " : "",
			 c->rx.err ? strerror(c->rx.err) : "");
		if (c->rx.status == XFER_BAD_DATA)
			snprintf(c->what + strlen(c->what),
				 sizeof(c->what) - strlen(c->what),
				 " (first bad byte at offset %llu)",
				 (unsigned long long)c->rx.bad_offset);
	} else if (c->tx.status != XFER_OK) {
		snprintf(c->what, sizeof(c->what),
			 "client %u: sending: %s after %llu bytes: %s",
			 c->hdr.conn_id, xfer_status_name(c->tx.status),
			 (unsigned long long)c->tx.bytes, strerror(c->tx.err));
	} else if (res) {
		snprintf(c->what, sizeof(c->what),
			 "client %u: no result from client: %s", c->hdr.conn_id,
			 res > 0 ? "end of stream" : strerror(-res));
	} else if (c->peer.status != XFER_OK ||
		   c->peer.bytes != c->tx.bytes ||
		   c->peer.csum != c->tx.csum) {
		snprintf(c->what, sizeof(c->what),
			 "client %u saw %s: %llu bytes csum %016llx (sent %llu csum %016llx)",
			 c->hdr.conn_id, xfer_status_name(c->peer.status),
			 (unsigned long long)c->peer.bytes,
			 (unsigned long long)c->peer.csum,
			 (unsigned long long)c->tx.bytes,
			 (unsigned long long)c->tx.csum);
	} else {
		c->ok = 1;
		snprintf(c->what, sizeof(c->what),
			 "client %u ok: received %llu (csum %016llx) sent %llu (csum %016llx)",
			 c->hdr.conn_id, (unsigned long long)c->rx.bytes,
			 (unsigned long long)c->rx.csum,
			 (unsigned long long)c->tx.bytes,
			 (unsigned long long)c->tx.csum);
	}
}

static void *server_conn(void *arg)
{
	struct server_conn *sc = arg;
	struct xfer_conn *c = &sc->c;
	int abort, tx_started = 0, res = 0;
	pthread_t tx;

	c->start = xfer_now();
	c->end = c->start;
	c->tx.csum = XFER_FNV_INIT;
	c->rx.csum = XFER_FNV_INIT;
	if (server_read_hdr(c))
		goto out;
	abort = c->hdr.flags & XFER_F_ABORT;
	if (c->hdr.len_sc) {
		if (pthread_create(&tx, NULL, server_tx, c)) {
			snprintf(c->what, sizeof(c->what), "no thread");
			goto out;
		}
		tx_started = 1;
	}
	xfer_recv_stream(c->fd, c->o->splice, c->hdr.seed, c->hdr.conn_id,
			 XFER_DIR_CS, c->hdr.len_cs, !abort, &c->rx);
	if (abort) {
		/* unblock a sender the client no longer reads from */
		server_check_abort(c);
		shutdown(c->fd, SHUT_RDWR);
		if (tx_started)
			pthread_join(tx, NULL);
		c->end = xfer_now();
		goto out;
	}
	if (tx_started)
		pthread_join(tx, NULL);
	if (c->rx.status == XFER_OK && c->tx.status == XFER_OK)
		res = xfer_swap_results(c);
	c->end = xfer_now();
	server_check(c, res);
	if (c->ok)
		xfer_hold(c, 0);
	else
		c->hold_ok = 1;
out:
	xfer_close(c);
	xfer_report("server", c, c->o->verbose || c->hdr.hold_s ||
		    (c->hdr.flags & XFER_F_ABORT));
	if (sc->detached)
		free(sc);
	return NULL;
}

static int server_listen(const struct xfer_opts *o)
{
	char host[INET6_ADDRSTRLEN];
	union xfer_addr a;
	socklen_t alen;
	int fd, one = 1;

	if (xfer_addr(o, o->addr, &a, &alen)) {
		fprintf(stderr, "smc_xfer: bad IPv%d address '%s'\n",
			o->v6 ? 6 : 4, o->addr);
		return -1;
	}
	fd = xfer_socket(o);
	if (fd < 0)
		return -1;
	setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, &a.sa, alen) < 0 || listen(fd, 128) < 0 ||
	    getsockname(fd, &a.sa, &alen) < 0) {
		perror("smc_xfer: bind/listen");
		close(fd);
		return -1;
	}
	inet_ntop(o->v6 ? AF_INET6 : AF_INET,
		  o->v6 ? (void *)&a.in6.sin6_addr : (void *)&a.in.sin_addr,
		  host, sizeof(host));
	printf("smc_xfer: server listening on %s port %u (%s)\n", host,
	       ntohs(o->v6 ? a.in6.sin6_port : a.in.sin_port),
	       o->tcp ? "TCP" : "AF_SMC");
	fflush(stdout);
	return fd;
}

int xfer_server(const struct xfer_opts *o)
{
	struct server_conn **conns = NULL;
	struct xfer_conn *all = NULL;
	unsigned int i, n = o->conns;
	int lfd, ret;

	lfd = server_listen(o);
	if (lfd < 0)
		return XFER_EXIT_USAGE;
	if (n) {
		conns = calloc(n, sizeof(*conns));
		all = calloc(n, sizeof(*all));
		if (!conns || !all) {
			fprintf(stderr, "smc_xfer: out of memory\n");
			return XFER_EXIT_USAGE;
		}
	}
	for (i = 0; !n || i < n; i++) {
		struct server_conn *sc = calloc(1, sizeof(*sc));
		int fd;

		if (!sc) {
			fprintf(stderr, "smc_xfer: out of memory\n");
			return XFER_EXIT_USAGE;
		}
		do {
			fd = accept4(lfd, NULL, NULL, SOCK_CLOEXEC);
		} while (fd < 0 && (errno == EINTR || errno == ECONNABORTED));
		if (fd < 0) {
			perror("smc_xfer: accept");
			return XFER_EXIT_FAIL;
		}
		xfer_set_timeout(fd, o->timeout_s);
		sc->c.id = i;
		sc->c.fd = fd;
		sc->c.o = o;
		sc->detached = !n;
		if (pthread_create(&sc->th, NULL, server_conn, sc)) {
			fprintf(stderr, "smc_xfer: cannot start a thread\n");
			return XFER_EXIT_FAIL;
		}
		if (n)
			conns[i] = sc;
		else
			pthread_detach(sc->th);
	}
	close(lfd);
	for (i = 0; i < n; i++) {
		pthread_join(conns[i]->th, NULL);
		all[i] = conns[i]->c;
		free(conns[i]);
	}
	ret = xfer_summary("server", all, n);
	free(conns);
	free(all);
	return ret;
}
