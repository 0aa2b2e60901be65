// SPDX-License-Identifier: GPL-2.0
/*
 * ism_hello: libism's example. Two processes on one ISM device (a
 * loopback) or on two (two virtual machines of one virtual ISM region)
 * meet over TCP; each registers a DMB for the other; the client writes a
 * line into the server's DMB and signals it; the server prints it.
 *
 *   ism_hello -d DEV                  the server, on port 18517
 *   ism_hello -d DEV SERVER [TEXT]    the client
 *
 *   cc -o ism_hello ism_hello.c $(pkg-config --cflags --libs libism)
 */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libism.h>

static int die(const char *what, int err)
{
	fprintf(stderr, "ism_hello: %s: %s\n", what, strerror(-err));
	return 1;
}

int main(int argc, char **argv)
{
	const char *dev = "ismlo0", *host = NULL, *text = "hello over ISM";
	struct ism_peer me = { 0 }, peer;
	struct ism_user_event ev;
	struct ism_user_info info;
	char gid[ISM_GID_STRLEN];
	struct ism_buf dmb;
	struct ism *ism;
	int sock, ret;

	if (argc > 2 && !strcmp(argv[1], "-d")) {
		dev = argv[2];
		argv += 2;
		argc -= 2;
	}
	if (argc > 1)
		host = argv[1];
	if (argc > 2)
		text = argv[2];

	ret = ism_open(dev, &ism);
	if (ret)
		return die(dev, ret);
	ret = ism_info(ism, &info);
	if (ret)
		return die("info", ret);
	ism_gid_format(info.gid, gid);
	printf("%s: GID %s\n", dev, gid);

	/* Swap GIDs, register a DMB for the peer, swap tokens. */
	sock = ism_rendezvous(host, "18517", 30000);
	if (sock < 0)
		return die("rendezvous", sock);
	memcpy(me.gid, info.gid, ISM_GID_LEN);
	ret = ism_exchange(sock, &me, &peer);
	if (!ret)
		ret = ism_register(ism, 4096, peer.gid, &dmb);
	if (ret)
		return die("register", ret);
	me.token = dmb.token;
	me.key = dmb.key;
	me.len = dmb.len;
	ret = ism_exchange(sock, &me, &peer);
	if (ret)
		return die("exchange", ret);

	if (host) {
		/* A MOVE works on every device; ism_attach() where it can
		 * would let us write into the peer's memory directly.
		 */
		ret = ism_write(ism, peer.token, peer.key, 0, text,
				strlen(text) + 1, 0);
		if (ret)
			return die("write", ret);
		printf("sent: %s\n", text);
	} else {
		do {
			ret = ism_wait(ism, &ev, 1, 30000);
		} while (ret > 0 && ev.type != ISM_USER_EVENT_SIGNAL);
		if (ret <= 0)
			return die("wait", ret ? ret : -ETIMEDOUT);
		if (!dmb.addr)
			return die("map", -EOPNOTSUPP);
		printf("received: %.*s\n", (int)dmb.len, (char *)dmb.addr);
	}
	/* Both done before either releases its DMB. */
	ism_exchange(sock, &me, &peer);
	close(sock);
	ism_release(ism, &dmb);
	ism_close(ism);
	return 0;
}
