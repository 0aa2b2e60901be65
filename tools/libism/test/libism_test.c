// SPDX-License-Identifier: GPL-2.0
/*
 * libism_test: what of libism needs no ISM device: GIDs as text, the
 * exchange of struct ism_peer and its refusals, the TCP rendezvous and
 * its failures, ism_open() of what is no device; and how ism_lat's and
 * ism_bw's wait (perf.c) takes a peer's leaving, on a scripted
 * ism_wait() (linked with --wrap=ism_wait). KTAP, then a line
 * "# N passed, N failed"; exit status 0 if every case passed. The device
 * calls are tested in the debug VM (tools/testing/selftests/ism/user-api.sh).
 */
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "libism.h"
#include "perf.h"

static int tests, failed;

static void check(int good, const char *what)
{
	tests++;
	failed += !good;
	printf("%sok %d %s\n", good ? "" : "not ", tests, what);
}

static void test_gid(void)
{
	const uint8_t g[ISM_GID_LEN] = { 0x01, 0x23, 0x45, 0x67, 0x89, 0xab,
					 0xcd, 0xef, 0xfe, 0xdc, 0xba, 0x98,
					 0x76, 0x54, 0x32, 0x10 };
	static const char *const bad[] = {
		"", "0123456789abcdeffedcba9876543210",
		"01234567-89ab-cdef-fedc-ba987654321",
		"01234567-89ab-cdef-fedc-ba98765432100",
		"0123456-789ab-cdef-fedc-ba9876543210",
		"01234567-89ab-cdef-fedc-ba98765432g0",
		"01234567+89ab-cdef-fedc-ba9876543210",
	};
	char s[ISM_GID_STRLEN];
	uint8_t back[ISM_GID_LEN];
	unsigned int i;
	int all = 1;

	ism_gid_format(g, s);
	check(!strcmp(s, "01234567-89ab-cdef-fedc-ba9876543210"),
	      "ism_gid_format: the UUID form");
	check(!ism_gid_parse(s, back) && !memcmp(back, g, sizeof(g)),
	      "ism_gid_parse: back to the same GID");
	check(!ism_gid_parse("01234567-89AB-CDEF-FEDC-BA9876543210", back) &&
	      !memcmp(back, g, sizeof(g)), "ism_gid_parse: upper case");
	memset(back, 0x77, sizeof(back));
	for (i = 0; i < ARRAY_SIZE(bad); i++)
		all &= ism_gid_parse(bad[i], back) == -EINVAL;
	check(all && back[0] == 0x77,
	      "ism_gid_parse: -EINVAL for 7 malformed GIDs, nothing written");
	check(ism_gid_parse(NULL, back) == -EINVAL, "ism_gid_parse: NULL");
}

static void test_exchange(void)
{
	struct ism_peer a = { .token = 0x1122334455667788ULL,
			      .key = 0x0102030405060708ULL, .len = 65536,
			      .data = 7 }, b = { 0 }, got;
	uint8_t wire[48];
	int sv[2];

	memset(a.gid, 0xa5, ISM_GID_LEN);
	socketpair(AF_UNIX, SOCK_STREAM, 0, sv);
	/* The other side's message goes first: the socket buffers it. */
	if (write(sv[1], "ISM2", 4) != 4)
		return;
	memset(wire, 0, sizeof(wire));
	memcpy(wire, "ISM2", 4);
	memcpy(wire + 4, a.gid, ISM_GID_LEN);
	wire[20] = 0x11;
	wire[27] = 0x88;
	wire[28] = 0x01;
	wire[35] = 0x08;
	wire[37] = 1;		/* len 65536 */
	wire[43] = 7;
	if (write(sv[1], wire + 4, sizeof(wire) - 4) != sizeof(wire) - 4)
		return;
	check(!ism_exchange(sv[0], &b, &got) &&
	      !memcmp(got.gid, a.gid, ISM_GID_LEN) &&
	      got.token == 0x1100000000000088ULL &&
	      got.key == 0x0100000000000008ULL && got.len == 65536 &&
	      got.data == 7, "ism_exchange: big-endian fields on the wire");
	check(read(sv[1], wire, sizeof(wire)) == sizeof(wire) &&
	      !memcmp(wire, "ISM2", 4), "ism_exchange: sends 48 bytes");

	memset(wire, 0, sizeof(wire));
	memcpy(wire, "ISM1", 4);
	if (write(sv[1], wire, sizeof(wire)) != sizeof(wire))
		return;
	check(ism_exchange(sv[0], &a, &got) == -EPROTO,
	      "ism_exchange: -EPROTO for another magic (the keyless ISM1)");
	if (read(sv[1], wire, sizeof(wire)) != sizeof(wire))
		return;
	memcpy(wire, "ISM2", 4);
	wire[47] = 1;
	if (write(sv[1], wire, sizeof(wire)) != sizeof(wire))
		return;
	check(ism_exchange(sv[0], &a, &got) == -EPROTO,
	      "ism_exchange: -EPROTO for non-zero padding");
	if (read(sv[1], wire, sizeof(wire)) != sizeof(wire))
		return;
	if (write(sv[1], wire, 10) != 10)
		return;
	shutdown(sv[1], SHUT_WR);
	check(ism_exchange(sv[0], &a, &got) == -ECONNRESET,
	      "ism_exchange: -ECONNRESET for a peer gone mid-message");
	close(sv[1]);
	close(sv[0]);
}

static void test_rendezvous(void)
{
	struct ism_peer me = { .data = 1 }, peer;
	int s, status;
	pid_t pid;

	check(ism_rendezvous(NULL, "18599", 100) == -ETIMEDOUT,
	      "ism_rendezvous: listening, -ETIMEDOUT when nobody comes");
	check(ism_rendezvous("127.0.0.1", "18599", 0) == -ETIMEDOUT,
	      "ism_rendezvous: connecting, -ETIMEDOUT when nobody listens");
	check(ism_rendezvous("127.0.0.1", "no-port", 0) < 0,
	      "ism_rendezvous: refuses a port that is no number");
	pid = fork();
	if (!pid) {
		struct ism_peer c = { .data = 2 }, p;

		s = ism_rendezvous("127.0.0.1", "18599", 5000);
		_exit(s < 0 || ism_exchange(s, &c, &p) || p.data != 1);
	}
	s = ism_rendezvous(NULL, "18599", 5000);
	check(s >= 0 && !ism_exchange(s, &me, &peer) && peer.data == 2,
	      "ism_rendezvous: a client that comes late meets the server");
	waitpid(pid, &status, 0);
	check(WIFEXITED(status) && !WEXITSTATUS(status),
	      "ism_rendezvous: and the client got the server's data");
	if (s >= 0)
		close(s);

	/* A peer that connects and then says nothing. */
	pid = fork();
	if (!pid) {
		s = ism_rendezvous("127.0.0.1", "18599", 5000);
		sleep(10);
		_exit(s < 0);
	}
	s = ism_rendezvous(NULL, "18599", 2000);
	check(s >= 0 && ism_exchange(s, &me, &peer) == -ETIMEDOUT,
	      "ism_exchange: -ETIMEDOUT from a silent peer, after the time-out");
	if (s >= 0)
		close(s);
	kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
}

static void test_open(void)
{
	struct ism *ism = NULL;
	char name[80];

	check(ism_open("no-such-device", &ism) == -ENOENT && !ism,
	      "ism_open: -ENOENT for a device that is not there");
	check(ism_open("", &ism) == -EINVAL && ism_open(NULL, &ism) == -EINVAL,
	      "ism_open: -EINVAL for no name");
	memset(name, 'x', sizeof(name) - 1);
	name[sizeof(name) - 1] = '\0';
	check(ism_open(name, &ism) == -ENAMETOOLONG,
	      "ism_open: -ENAMETOOLONG");
	check(ism_open("/dev/null", &ism) == 0 && ism_fd(ism) >= 0,
	      "ism_open: a path opens as given");
	check(ism_info(ism, &(struct ism_user_info){ 0 }) == -ENOTTY,
	      "ism_info: -ENOTTY from a file that is no ISM device");
	ism_close(ism);
}

/* perf_wait_word()'s ism_wait(): each call runs the next step. */
struct wait_step {
	uint64_t word;		/* what the peer wrote into our DMB by then */
	int nev;
	struct ism_user_event ev[2];
};

static const struct wait_step *steps;
static int nsteps, step_calls;
static uint64_t wait_dmb[PERF_HDR / sizeof(uint64_t)];

int __wrap_ism_wait(struct ism *ism, struct ism_user_event *ev, int max,
		    int timeout_ms)
{
	const struct wait_step *st;

	(void)ism;
	(void)timeout_ms;
	if (step_calls >= nsteps)
		return -EIO;	/* the wait went on after the script */
	st = &steps[step_calls++];
	__atomic_store_n(&wait_dmb[0], st->word, __ATOMIC_RELEASE);
	memcpy(ev, st->ev, sizeof(*ev) * (st->nev < max ? st->nev : max));
	return st->nev;
}

/* Runs perf_wait_word() for the word 1 on @n steps; its result. */
static int wait_on(const struct wait_step *script, int n)
{
	struct perf_link l = {
		.mine = { .addr = wait_dmb },
		.token = 0x1234,
		.timeout_ms = 1000,
	};

	steps = script;
	nsteps = n;
	step_calls = 0;
	wait_dmb[0] = 0;
	return perf_wait_word(&l, 0, 1);
}

static void test_perf_wait(void)
{
	/* read() gives the queued events before the signals. */
	static const struct wait_step last_write[] = {
		{ 1, 2, { { .type = ISM_USER_EVENT_DMB_GONE, .token = 0x1234 },
			  { .type = ISM_USER_EVENT_SIGNAL } } },
	};
	static const struct wait_step peer_gone[] = {
		{ 0, 1, { { .type = ISM_USER_EVENT_PEER_GONE } } },
	};
	static const struct wait_step device_gone[] = {
		{ 1, 1, { { .type = ISM_USER_EVENT_DEVICE_GONE } } },
	};
	static const struct wait_step other_dmb[] = {
		{ 0, 1, { { .type = ISM_USER_EVENT_DMB_GONE, .token = 0x99 } } },
		{ 1, 1, { { .type = ISM_USER_EVENT_SIGNAL } } },
	};
	int ret;

	ret = wait_on(last_write, 1);
	check(ret == 0 && step_calls == 1,
	      "perf wait: the peer's last write and its DMB_GONE in one read: done");
	ret = wait_on(peer_gone, 1);
	check(ret == -ENOTCONN && step_calls == 1,
	      "perf wait: PEER_GONE without the word: -ENOTCONN at once");
	ret = wait_on(device_gone, 1);
	check(ret == -ENOTCONN,
	      "perf wait: DEVICE_GONE: -ENOTCONN, the revoked DMB not read again");
	ret = wait_on(other_dmb, 2);
	check(ret == 0 && step_calls == 2,
	      "perf wait: DMB_GONE of another token: waits on");
}

int main(void)
{
	printf("TAP version 13\n");
	test_gid();
	test_exchange();
	test_rendezvous();
	test_open();
	test_perf_wait();
	printf("1..%d\n", tests);
	printf("# %d passed, %d failed\n", tests - failed, failed);
	return failed ? 1 : 0;
}
