// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libism: how two processes find each other. ISM has no connection
 * setup of its own: each side must learn the other's GID and the tokens
 * of the DMBs registered for it. ism_rendezvous() makes a TCP connection
 * (one side listens, the other connects) and ism_exchange() swaps a
 * struct ism_peer over it, or over any connected stream socket.
 *
 * On the wire, 48 bytes: "ISM2", the GID, then token, key, len and data
 * in network byte order, then four zero bytes. The key is the right to
 * write into the DMB: exchange over a socket only the peer can read.
 */
#define _GNU_SOURCE
#include <endian.h>
#include <errno.h>
#include <netdb.h>
#include <poll.h>
#include <stdint.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <sys/socket.h>
#include <sys/time.h>

#include "libism.h"

#define ISM_WIRE_LEN	48
static const char ism_wire_magic[4] = "ISM2";

static int xfer(int sock, void *buf, size_t len, int out)
{
	char *p = buf;
	ssize_t n;

	while (len) {
		n = out ? send(sock, p, len, MSG_NOSIGNAL) : recv(sock, p, len, 0);
		if (n < 0 && errno == EINTR)
			continue;
		/* The socket's time-out (ism_rendezvous()) ran out. */
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return -ETIMEDOUT;
		if (n < 0)
			return -errno;
		if (!n)
			return -ECONNRESET;
		p += n;
		len -= n;
	}
	return 0;
}

int ism_exchange(int sock, const struct ism_peer *mine,
		 struct ism_peer *theirs)
{
	uint8_t w[ISM_WIRE_LEN] = { 0 };
	uint64_t u;
	uint32_t v;
	int ret;

	memcpy(w, ism_wire_magic, 4);
	memcpy(w + 4, mine->gid, ISM_GID_LEN);
	u = htobe64(mine->token);
	memcpy(w + 20, &u, 8);
	u = htobe64(mine->key);
	memcpy(w + 28, &u, 8);
	v = htobe32(mine->len);
	memcpy(w + 36, &v, 4);
	v = htobe32(mine->data);
	memcpy(w + 40, &v, 4);
	ret = xfer(sock, w, sizeof(w), 1);
	if (!ret)
		ret = xfer(sock, w, sizeof(w), 0);
	if (ret)
		return ret;
	if (memcmp(w, ism_wire_magic, 4) || w[44] || w[45] || w[46] || w[47])
		return -EPROTO;
	memcpy(theirs->gid, w + 4, ISM_GID_LEN);
	memcpy(&u, w + 20, 8);
	theirs->token = be64toh(u);
	memcpy(&u, w + 28, 8);
	theirs->key = be64toh(u);
	memcpy(&v, w + 36, 4);
	theirs->len = be32toh(v);
	memcpy(&v, w + 40, 4);
	theirs->data = be32toh(v);
	return 0;
}

/*
 * A socket whose connect(), send() and recv() each give up after
 * @timeout_ms (negative: never), so that a peer that stalls half-way
 * cannot hold the caller.
 */
static int tcp_socket(const struct addrinfo *ai, int timeout_ms)
{
	struct timeval tv = { .tv_sec = timeout_ms / 1000,
			      .tv_usec = timeout_ms % 1000 * 1000 };
	int one = 1;
	int s = socket(ai->ai_family, ai->ai_socktype | SOCK_CLOEXEC,
		       ai->ai_protocol);

	if (s < 0)
		return s;
	setsockopt(s, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	setsockopt(s, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	if (timeout_ms >= 0 &&
	    (setsockopt(s, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv)) ||
	     setsockopt(s, SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv)))) {
		close(s);
		return -1;
	}
	return s;
}

/* Listen on @port, accept one connection within @timeout_ms. */
static int tcp_accept(const struct addrinfo *ai, int timeout_ms)
{
	struct pollfd pfd = { .events = POLLIN };
	int s = tcp_socket(ai, timeout_ms), c = -1, err;

	if (s < 0)
		return -errno;
	pfd.fd = s;
	if (bind(s, ai->ai_addr, ai->ai_addrlen) || listen(s, 1))
		goto fail;
	err = poll(&pfd, 1, timeout_ms);
	if (err <= 0) {
		close(s);
		return err ? -errno : -ETIMEDOUT;
	}
	/* The accepted socket inherits the time-outs. */
	c = accept4(s, NULL, NULL, SOCK_CLOEXEC);
	if (c < 0)
		goto fail;
	close(s);
	return c;
fail:
	err = -errno;
	close(s);
	return err;
}

static uint64_t now_ms(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000ULL + ts.tv_nsec / 1000000;
}

/*
 * Connect to @ai, retrying for @timeout_ms (negative: forever) while the
 * peer is not up: nobody listens yet, or its host (a virtual machine
 * still booting) is not reachable yet.
 */
static int tcp_connect(const struct addrinfo *ai, int timeout_ms)
{
	uint64_t end = now_ms() + (timeout_ms < 0 ? 0 : timeout_ms);
	int s, err;

	for (;;) {
		s = tcp_socket(ai, timeout_ms);
		if (s < 0)
			return -errno;
		if (!connect(s, ai->ai_addr, ai->ai_addrlen))
			return s;
		err = errno == EINPROGRESS ? -ETIMEDOUT : -errno;
		close(s);
		if (err != -ECONNREFUSED && err != -EHOSTUNREACH &&
		    err != -ENETUNREACH)
			return err;
		/* Nobody came in time, whichever way the last try failed. */
		if (timeout_ms >= 0 && now_ms() >= end)
			return -ETIMEDOUT;
		usleep(100 * 1000);
	}
}

/**
 * ism_rendezvous() - a TCP connection to the other process
 * @host: the listening side's host; NULL to be the listening side
 * @port: the TCP port
 * @timeout_ms: how long to wait for the other side (negative: forever)
 *
 * Return: the connected socket, or a negative errno.
 */
int ism_rendezvous(const char *host, const char *port, int timeout_ms)
{
	struct addrinfo hints = {
		.ai_family = AF_UNSPEC,
		.ai_socktype = SOCK_STREAM,
		.ai_flags = AI_NUMERICSERV | AI_NUMERICHOST |
			    (host ? 0 : AI_PASSIVE),
	};
	struct addrinfo *ai;
	int ret;

	/* A numeric address first: it needs no name service, which a
	 * statically linked program may not have.
	 */
	ret = getaddrinfo(host, port, &hints, &ai);
	if (ret == EAI_NONAME) {
		hints.ai_flags &= ~AI_NUMERICHOST;
		ret = getaddrinfo(host, port, &hints, &ai);
	}
	if (ret)
		return ret == EAI_SYSTEM ? -errno : -EHOSTUNREACH;
	ret = host ? tcp_connect(ai, timeout_ms) : tcp_accept(ai, timeout_ms);
	freeaddrinfo(ai);
	return ret;
}
