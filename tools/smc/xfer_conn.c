// SPDX-License-Identifier: GPL-2.0
/*
 * smc_xfer connections: the idle hold, per-connection reports and the
 * summary line.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "xfer.h"

static void xfer_append(struct xfer_conn *c, const char *fmt, double t,
			const char *why)
{
	size_t len = strlen(c->what);

	snprintf(c->what + len, sizeof(c->what) - len, fmt, t, why);
}

/* What ended the connection, read from a socket that polled readable. */
static const char *xfer_end_reason(int fd, char *byte)
{
	ssize_t n;

	do {
		n = read(fd, byte, 1);
	} while (n < 0 && errno == EINTR);
	if (n == 0)
		return "end of stream (peer closed)";
	if (n < 0)
		return strerror(errno);
	return NULL;
}

/* Both sides send what they received and read the peer's account of it. */
int xfer_swap_results(struct xfer_conn *c)
{
	int res = xfer_send_result(c->fd, &c->rx);

	return res ? res : xfer_recv_result(c->fd, &c->peer);
}

/*
 * The client's holds also end at SIGUSR1: a test samples the connections
 * once all hold, then ends the holds, however long the slowest transfer
 * took. The handler makes the pipe readable for good, so that every
 * connection's poll sees it.
 */
static int hold_end[2] = { -1, -1 };

static void hold_end_signal(int sig)
{
	int saved = errno;	/* of the code the signal interrupted */
	char byte = (char)sig;

	if (write(hold_end[1], &byte, 1) < 0)
		byte = 0;	/* full: readable already, which is all we need */
	errno = saved;
}

int xfer_hold_end_on_sigusr1(void)
{
	struct sigaction sa = { .sa_handler = hold_end_signal };

	if (pipe2(hold_end, O_CLOEXEC | O_NONBLOCK))
		return -errno;
	return sigaction(SIGUSR1, &sa, NULL) ? -errno : 0;
}

/*
 * Keep the connection idle for hold_s seconds (the client: or until
 * SIGUSR1, see xfer_hold_end_on_sigusr1()), watching for its end. The
 * client then pings; the server waits for the ping (or the end) and
 * answers it. Sets hold_ok and appends how the connection ended.
 */
void xfer_hold(struct xfer_conn *c, int client)
{
	unsigned int wait_s = c->hdr.hold_s + (client ? 0 : c->o->timeout_s);
	struct pollfd p[2] = {
		{ .fd = c->fd, .events = POLLIN | POLLRDHUP },
		{ .fd = client ? hold_end[0] : -1, .events = POLLIN },
	};
	double t0 = xfer_now();
	const char *why;
	char byte = 0;
	int n;

	c->hold_ok = 1;
	if (!c->hdr.hold_s)
		return;
	c->hold_ok = 0;
	/*
	 * Tests remove a device once every connection holds, however fast
	 * the transfers went: say so at once, not when the report is due.
	 */
	printf("smc_xfer: %s conn %u: holding\n", client ? "client" : "server",
	       c->id);
	fflush(stdout);
	do {
		n = poll(p, 2, wait_s * 1000);
	} while (n < 0 && errno == EINTR);
	/* SIGUSR1 alone: as if the hold had run out */
	if (n > 0 && !p[0].revents)
		n = 0;
	if (n < 0) {
		xfer_append(c, "; hold: poll failed after %.1f s: %s",
			    xfer_now() - t0, strerror(errno));
		return;
	}
	if (n == 0 && !client) {
		xfer_append(c, "; hold: no ping within %.0f s%s", wait_s, "");
		return;
	}
	if (n > 0) {
		why = xfer_end_reason(c->fd, &byte);
		if (why) {
			xfer_append(c, "; hold: ended after %.1f s: %s",
				    xfer_now() - t0, why);
			return;
		}
		if (client || byte != XFER_PING) {
			xfer_append(c, "; hold: unexpected data after %.1f s%s",
				    xfer_now() - t0, "");
			return;
		}
		/* server: the ping */
		byte = XFER_PONG;
		n = xfer_write_full(c->fd, &byte, 1);
		if (n) {
			xfer_append(c, "; hold: cannot answer the ping after %.1f s: %s",
				    xfer_now() - t0, strerror(-n));
			return;
		}
		c->hold_ok = 1;
		xfer_append(c, "; hold: alive, pinged after %.1f s%s",
			    xfer_now() - t0, "");
		return;
	}
	/* client: held without incident; is the connection still usable? */
	byte = XFER_PING;
	n = xfer_write_full(c->fd, &byte, 1);
	if (n) {
		xfer_append(c, "; hold: ping failed after %.1f s: %s",
			    xfer_now() - t0, strerror(-n));
		return;
	}
	n = xfer_read_full(c->fd, &byte, 1);
	if (n || byte != XFER_PONG) {
		xfer_append(c, "; hold: no pong after %.1f s: %s",
			    xfer_now() - t0, n > 0 ? "end of stream" :
			    n < 0 ? strerror(-n) : "wrong answer");
		return;
	}
	c->hold_ok = 1;
	xfer_append(c, "; hold: alive after %.1f s, ping ok%s",
		    xfer_now() - t0, "");
}

/*
 * Linux 6.1's SMC leaks a socket that is closed while a link-group
 * termination (the device going) aborts its connection: the abort wakes
 * the socket's waiters first, then smc_close_active_abort() sets
 * SMC_PEERABORTWAIT and drops the socket lock in smc_close_cancel_work();
 * a close() in that window moves the socket to SMC_CLOSED, and the abort,
 * finding the state changed, skips the put of the passive-closing
 * reference. The abort ends in SMC_CLOSED, which poll() reports as
 * POLLHUP; a peer's orderly close shows as POLLRDHUP. Poll's POLLERR ends
 * each wait at once, so the pending error is read first. The bound is
 * generous because the wait ends as soon as SMC is done, and SMC's
 * abort work runs late on a loaded, emulated machine.
 */
static void xfer_settle(int fd)
{
	struct pollfd p = { .fd = fd, .events = POLLRDHUP };
	double end = xfer_now() + XFER_SETTLE_S;
	socklen_t len;
	int err;

	while (xfer_now() < end) {
		len = sizeof(err);
		getsockopt(fd, SOL_SOCKET, SO_ERROR, &err, &len);
		if (poll(&p, 1, 100) > 0 &&
		    p.revents & (POLLHUP | POLLRDHUP | POLLNVAL))
			return;
	}
}

/*
 * Close the connection; one that ended early (a removal, an error) only
 * once the kernel has finished ending it (at most XFER_SETTLE_S), unless
 * --close-at-once.
 */
void xfer_close(struct xfer_conn *c)
{
	if (c->fd < 0)
		return;
	if (!(c->ok && c->hold_ok) && !c->o->close_at_once)
		xfer_settle(c->fd);
	close(c->fd);
	c->fd = -1;
}

void xfer_report(const char *role, const struct xfer_conn *c, int always)
{
	if (!always && c->ok && c->hold_ok)
		return;
	printf("smc_xfer: %s conn %u: %s %s\n", role, c->id,
	       c->ok && c->hold_ok ? "OK" : c->ok ? "ENDED" : "FAILED",
	       c->what[0] ? c->what : "-");
}

/* Prints the summary line; returns the exit status. */
int xfer_summary(const char *role, struct xfer_conn *conns, unsigned int n)
{
	unsigned int i, ok = 0, failed = 0, ended = 0;
	double start = 0, end = 0, secs;
	unsigned long long bytes = 0;

	for (i = 0; i < n; i++) {
		struct xfer_conn *c = &conns[i];

		if (!c->ok)
			failed++;
		else if (!c->hold_ok)
			ended++;
		else
			ok++;
		bytes += c->tx.bytes + c->rx.bytes;
		if (!i || c->start < start)
			start = c->start;
		if (!i || c->end > end)
			end = c->end;
	}
	secs = end - start;
	printf("smc_xfer: %s conns=%u ok=%u failed=%u ended=%u bytes=%llu secs=%.3f MB/s=%.2f\n",
	       role, n, ok, failed, ended, bytes, secs,
	       secs > 0 ? bytes / secs / 1e6 : 0.0);
	fflush(stdout);
	if (failed)
		return XFER_EXIT_FAIL;
	return ended ? XFER_EXIT_HOLD : XFER_EXIT_OK;
}
