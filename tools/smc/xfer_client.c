// SPDX-License-Identifier: GPL-2.0
/*
 * smc_xfer client: CONNS concurrent connections, one thread each.
 */
#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "xfer.h"

static void *client_rx(void *arg)
{
	struct xfer_conn *c = arg;

	xfer_recv_stream(c->fd, c->o->splice, c->hdr.seed, c->id, XFER_DIR_SC,
			 c->hdr.len_sc, 1, &c->rx);
	return NULL;
}

/*
 * Connect; while refused, try again for up to --wait-server seconds, each
 * connection on its own: a server that starts listening during a burst
 * of connects must see exactly this client's connections.
 */
static int client_connect(struct xfer_conn *c)
{
	const struct xfer_opts *o = c->o;
	const struct timespec pause = { .tv_nsec = 200 * 1000 * 1000 };
	double give_up = xfer_now() + o->wait_server_s;
	union xfer_addr a;
	socklen_t alen;
	int err;

	xfer_addr(o, o->addr, &a, &alen);
	for (;;) {
		c->fd = xfer_socket(o);
		if (c->fd < 0) {
			snprintf(c->what, sizeof(c->what), "socket: %s",
				 strerror(errno));
			return -1;
		}
		xfer_set_timeout(c->fd, o->timeout_s);
		if (!connect(c->fd, &a.sa, alen))
			return 0;
		err = errno;
		close(c->fd);
		c->fd = -1;
		if (err != ECONNREFUSED || xfer_now() >= give_up)
			break;
		nanosleep(&pause, NULL);
	}
	snprintf(c->what, sizeof(c->what), "connect: %s", strerror(err));
	return -1;
}

static int client_send_hdr(struct xfer_conn *c)
{
	struct xfer_hdr h = {
		.magic = xfer_be32(XFER_MAGIC_HDR),
		.version = xfer_be32(XFER_VERSION),
		.flags = xfer_be32(c->hdr.flags),
		.conn_id = xfer_be32(c->id),
		.len_cs = xfer_be64(c->hdr.len_cs),
		.len_sc = xfer_be64(c->hdr.len_sc),
		.seed = xfer_be64(c->hdr.seed),
		.hold_s = xfer_be32(c->hdr.hold_s),
	};
	int err = xfer_write_full(c->fd, &h, sizeof(h));

	if (err)
		snprintf(c->what, sizeof(c->what), "sending header: %s",
			 strerror(-err));
	return err;
}

/* SO_LINGER 0: close without waiting for unsent data (TCP: a reset). */
static void client_abort(struct xfer_conn *c)
{
	struct linger l = { .l_onoff = 1, .l_linger = 0 };

	if (setsockopt(c->fd, SOL_SOCKET, SO_LINGER, &l, sizeof(l)) < 0)
		perror("smc_xfer: SO_LINGER");
	close(c->fd);
	c->fd = -1;
	c->end = xfer_now();
	c->ok = c->tx.status == XFER_OK;
	c->hold_ok = 1;
	snprintf(c->what, sizeof(c->what),
		 "aborted after %llu bytes as asked (SO_LINGER 0)%s%s",
		 (unsigned long long)c->tx.bytes, c->ok ? "" : ": ",
		 c->ok ? "" : strerror(c->tx.err));
}

static void client_check(struct xfer_conn *c, int res)
{
	if (c->tx.status != XFER_OK) {
		snprintf(c->what, sizeof(c->what), "sending: %s after %llu bytes: %s",
			 xfer_status_name(c->tx.status),
			 (unsigned long long)c->tx.bytes, strerror(c->tx.err));
	} else if (c->rx.status != XFER_OK) {
		snprintf(c->what, sizeof(c->what),
			 "receiving: %s after %llu bytes%s%s",
			 xfer_status_name(c->rx.status),
			 (unsigned long long)c->rx.bytes,
			 c->rx.err ? ": " : "",
			 c->rx.err ? strerror(c->rx.err) : "");
		if (c->rx.status == XFER_BAD_DATA)
			snprintf(c->what + strlen(c->what),
				 sizeof(c->what) - strlen(c->what),
				 " (first bad byte at offset %llu)",
				 (unsigned long long)c->rx.bad_offset);
	} else if (res) {
		snprintf(c->what, sizeof(c->what), "no result from server: %s",
			 res > 0 ? "end of stream" : strerror(-res));
	} else if (c->peer.status != XFER_OK ||
		   c->peer.bytes != c->tx.bytes ||
		   c->peer.csum != c->tx.csum) {
		snprintf(c->what, sizeof(c->what),
			 "server saw %s: %llu bytes csum %016llx (sent %llu csum %016llx, first bad byte %llu)",
			 xfer_status_name(c->peer.status),
			 (unsigned long long)c->peer.bytes,
			 (unsigned long long)c->peer.csum,
			 (unsigned long long)c->tx.bytes,
			 (unsigned long long)c->tx.csum,
			 (unsigned long long)c->peer.bad_offset);
	} else {
		c->ok = 1;
		snprintf(c->what, sizeof(c->what),
			 "ok: sent %llu (csum %016llx) received %llu (csum %016llx)",
			 (unsigned long long)c->tx.bytes,
			 (unsigned long long)c->tx.csum,
			 (unsigned long long)c->rx.bytes,
			 (unsigned long long)c->rx.csum);
	}
}

static void *client_conn(void *arg)
{
	struct xfer_conn *c = arg;
	int abort = c->hdr.flags & XFER_F_ABORT;
	pthread_t rx;
	int rx_started = 0, res = 0;

	c->start = xfer_now();
	c->end = c->start;
	c->tx.csum = XFER_FNV_INIT;
	c->rx.csum = XFER_FNV_INIT;
	if (client_connect(c) || client_send_hdr(c))
		goto out;
	if (c->hdr.len_sc && !abort) {
		if (pthread_create(&rx, NULL, client_rx, c)) {
			snprintf(c->what, sizeof(c->what), "no thread");
			goto out;
		}
		rx_started = 1;
	}
	xfer_send_stream(c->fd, c->hdr.seed, c->id, XFER_DIR_CS,
			 c->hdr.len_cs, !abort, &c->tx);
	if (abort) {
		client_abort(c);
		goto out;
	}
	if (rx_started)
		pthread_join(rx, NULL);
	if (c->tx.status == XFER_OK)
		res = xfer_swap_results(c);
	c->end = xfer_now();
	client_check(c, res);
	if (c->ok)
		xfer_hold(c, 1);
	else
		c->hold_ok = 1;
out:
	xfer_close(c);
	xfer_report("client", c, c->o->verbose || c->hdr.hold_s ||
		    (c->hdr.flags & XFER_F_ABORT));
	return NULL;
}

int xfer_client(const struct xfer_opts *o)
{
	struct xfer_conn *conns;
	pthread_t *th;
	union xfer_addr a;
	socklen_t alen;
	unsigned int i;
	int ret;

	if (!o->addr || xfer_addr(o, o->addr, &a, &alen)) {
		fprintf(stderr, "smc_xfer: client needs -a with a numeric IPv%d address\n",
			o->v6 ? 6 : 4);
		return XFER_EXIT_USAGE;
	}
	if (o->hold_s && xfer_hold_end_on_sigusr1()) {
		fprintf(stderr, "smc_xfer: cannot set up SIGUSR1: %s\n",
			strerror(errno));
		return XFER_EXIT_USAGE;
	}
	conns = calloc(o->conns, sizeof(*conns));
	th = calloc(o->conns, sizeof(*th));
	if (!conns || !th) {
		fprintf(stderr, "smc_xfer: out of memory\n");
		return XFER_EXIT_USAGE;
	}
	for (i = 0; i < o->conns; i++) {
		struct xfer_conn *c = &conns[i];

		c->id = i;
		c->fd = -1;
		c->o = o;
		c->hdr.flags = o->abort_after ? XFER_F_ABORT : 0;
		c->hdr.len_cs = o->abort_after ? o->abort_after : o->bytes;
		c->hdr.len_sc = o->bidir ? o->bytes : 0;
		c->hdr.seed = o->seed;
		c->hdr.hold_s = o->hold_s;
		if (pthread_create(&th[i], NULL, client_conn, c)) {
			fprintf(stderr, "smc_xfer: cannot start thread %u\n", i);
			return XFER_EXIT_USAGE;
		}
	}
	for (i = 0; i < o->conns; i++)
		pthread_join(th[i], NULL);
	ret = xfer_summary("client", conns, o->conns);
	free(th);
	free(conns);
	return ret;
}
