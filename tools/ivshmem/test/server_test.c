// SPDX-License-Identifier: GPL-2.0
/*
 * make check: server_test SERVER. Starts the ivshmem server in a
 * temporary directory and plays QEMU's side of the protocol of QEMU's
 * ivshmem specification against it: the setup messages in order, the
 * shared memory, eventfds that really connect two peers, joins and
 * departures announced, IDs given in turn, a full server, a client that breaks
 * the protocol, a setup bigger than a socket buffer, bad arguments,
 * SIGTERM. Prints KTAP;
 * SERVER_TEST_VERBOSE=1 keeps the server's log on standard error.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>

#include "ivshmem_client.h"

#define VECTORS	2
#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

static const char *server;
static char sock_path[64], shm_path[64];
static unsigned int n, failed;

static void check(int cond, const char *what)
{
	n++;
	if (!cond)
		failed++;
	printf("%sok %u %s\n", cond ? "" : "not ", n, what);
}

/*
 * run_limited: the server with ARGS (NULL-ended), standard error to
 * /dev/null, and an open-file limit of @nofile if not 0
 */
static pid_t run_limited(const char *const *args, rlim_t nofile)
{
	const char *argv[16] = { server };
	pid_t pid;
	int i;

	for (i = 0; args[i] && i < 14; i++)
		argv[i + 1] = args[i];
	fflush(stdout);
	pid = fork();
	if (pid == 0) {
		struct rlimit rl = { .rlim_cur = nofile, .rlim_max = nofile };

		if (nofile && setrlimit(RLIMIT_NOFILE, &rl))
			_exit(126);
		/* The test's output is KTAP: the server's stays out. */
		if (!freopen("/dev/null", "w", stdout) ||
		    (!getenv("SERVER_TEST_VERBOSE") &&
		     !freopen("/dev/null", "w", stderr)))
			_exit(126);
		execv(server, (char **)argv);
		_exit(127);
	}
	return pid;
}

static pid_t run(const char *const *args)
{
	return run_limited(args, 0);
}

/* status_of: @pid's exit status; a server still running after 5 s is killed */
static int status_of(pid_t pid)
{
	int st, i;

	for (i = 0; i < 500; i++) {
		if (waitpid(pid, &st, WNOHANG) == pid)
			return WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		usleep(10000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	return -1;
}

static int connect_server(void)
{
	return ivshmem_connect(sock_path);
}

/* recv_msg: ivshmem_recv() within 2 s */
static int recv_msg(int s, int64_t *val, int *fd)
{
	return ivshmem_recv(s, val, fd, 2000);
}

/* nothing_pending: no message within 0.2 s */
static int nothing_pending(int s)
{
	struct pollfd p = { .fd = s, .events = POLLIN };

	return poll(&p, 1, 200) == 0;
}

struct client {
	int sock;
	int64_t id;
	int shm;
	int own[VECTORS];
};

/* join: connect and read the setup for a server with @others peers */
static int join(struct client *c, int others, int64_t *other_ids,
		int other_fds[][VECTORS])
{
	int64_t v;
	int fd, i, k;

	c->sock = connect_server();
	if (c->sock < 0 || recv_msg(c->sock, &v, &fd) != 1 || v != 0 ||
	    fd >= 0)
		return -1;
	if (recv_msg(c->sock, &c->id, &fd) != 1 || fd >= 0 || c->id < 0 ||
	    c->id > 65535)
		return -1;
	if (recv_msg(c->sock, &v, &c->shm) != 1 || v != -1 || c->shm < 0)
		return -1;
	for (i = 0; i < others; i++)
		for (k = 0; k < VECTORS; k++)
			if (recv_msg(c->sock, &other_ids[i], &other_fds[i][k]) != 1 ||
			    other_fds[i][k] < 0 || other_ids[i] == c->id)
				return -1;
	for (k = 0; k < VECTORS; k++)
		if (recv_msg(c->sock, &v, &c->own[k]) != 1 || v != c->id ||
		    c->own[k] < 0)
			return -1;
	return nothing_pending(c->sock) ? 0 : -1;
}

/* told_join: @c reads the announcement of peer @id with its fds */
static int told_join(struct client *c, int64_t id, int fds[VECTORS])
{
	int64_t v;
	int k;

	for (k = 0; k < VECTORS; k++)
		if (recv_msg(c->sock, &v, &fds[k]) != 1 || v != id || fds[k] < 0)
			return 0;
	return nothing_pending(c->sock);
}

/* told_leave: @c reads that peer @id left (a message without an fd) */
static int told_leave(struct client *c, int64_t id)
{
	int64_t v;
	int fd;

	return recv_msg(c->sock, &v, &fd) == 1 && v == id && fd < 0 &&
	       nothing_pending(c->sock);
}

/* rings: writing to @peer_fd makes exactly @own readable, not @quiet */
static int rings(int peer_fd, int own, int quiet)
{
	struct pollfd p[2] = { { .fd = own, .events = POLLIN },
			       { .fd = quiet, .events = POLLIN } };
	uint64_t one = 1, got = 0;

	if (write(peer_fd, &one, sizeof(one)) != sizeof(one))
		return 0;
	if (poll(p, 2, 1000) != 1 || !(p[0].revents & POLLIN))
		return 0;
	return read(own, &got, sizeof(got)) == sizeof(got) && got == 1;
}

/* expect: read (and close) exactly @want messages sent to @s */
static int expect(int s, int want)
{
	int64_t v;
	int fd;

	while (want--) {
		if (recv_msg(s, &v, &fd) != 1)
			return 0;
		if (fd >= 0)
			close(fd);
	}
	return 1;
}

/*
 * test_big_setup: 24 peers of 16 vectors; the last one's setup is 387
 * messages, more than a UNIX socket's buffer holds. QEMU reads it as it
 * comes, and so do the peers here.
 */
static void test_big_setup(void)
{
	static const char *const args[] = { "-S", sock_path, "-m", shm_path,
					    "-l", "4K", "-n", "16", "-p", "24",
					    NULL };
	int socks[24], i, k, ok = 1;
	pid_t pid;

	pid = run(args);
	for (i = 0; i < 24 && ok; i++) {
		socks[i] = connect_server();
		ok = socks[i] >= 0 && expect(socks[i], 3 + i * 16 + 16);
		for (k = 0; k < i && ok; k++)
			ok = expect(socks[k], 16);
	}
	/* and nothing more */
	for (k = 0; k < i && ok; k++)
		ok = nothing_pending(socks[k]);
	check(ok, "24 peers of 16 vectors: every setup and announcement whole");
	while (i--)
		close(socks[i]);
	kill(pid, SIGTERM);
	check(status_of(pid) == 0, "24 peers of 16 vectors: SIGTERM, exit 0");
}

static void test_args(void)
{
	static const char *const bad[][3] = {
		{ "-n", "0" }, { "-n", "65" }, { "-p", "0" }, { "-p", "65537" },
		{ "-l", "1000" }, { "-l", "6144" }, { "-l", "2K" }, { "-l", "x" },
		{ "extra" },
	};
	static const char *const help[] = { "--help", NULL };
	static const char *const fd_hungry[] = { "-S", sock_path, "-m", shm_path,
						 "-p", "64", "-n", "8", NULL };
	char what[64];
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(bad); i++) {
		snprintf(what, sizeof(what), "bad arguments '%s%s%s': exit 2",
			 bad[i][0], bad[i][1] ? " " : "",
			 bad[i][1] ? bad[i][1] : "");
		check(status_of(run(bad[i])) == 2, what);
	}
	check(status_of(run(help)) == 0, "--help: exit 0");
	check(status_of(run_limited(fd_hungry, 64)) == 1,
	      "64 peers x 8 vectors under an open-file limit of 64: exit 1");
}

int main(int argc, char **argv)
{
	static const char *const args[] = { "-S", sock_path, "-m", shm_path,
					    "-l", "64K", "-n", "2", "-p", "3",
					    NULL };
	char dir[] = "/tmp/ivshmem-test.XXXXXX";
	int64_t ids[3];
	int fds[3][VECTORS], dfds[3][VECTORS], afd_b[VECTORS], afd_c[VECTORS];
	struct client a, b, c, d;
	struct stat st;
	char *mem, buf[16];
	int extra, fd;
	int64_t v;
	pid_t pid;

	if (argc != 2) {
		fprintf(stderr, "usage: server_test SERVER\n");
		return 2;
	}
	server = argv[1];
	if (!mkdtemp(dir))
		return 2;
	snprintf(sock_path, sizeof(sock_path), "%s/sock", dir);
	snprintf(shm_path, sizeof(shm_path), "%s/shm", dir);
	printf("KTAP version 1\n");

	test_args();
	pid = run(args);

	check(!join(&a, 0, ids, fds), "first peer: version 0, ID, memory, own vectors");
	check(a.id == 0, "first peer: ID 0");
	check(!fstat(a.shm, &st) && st.st_size == 65536, "memory: 64 KiB");
	mem = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_SHARED, a.shm, 0);
	fd = open(shm_path, O_RDONLY);
	check(mem != MAP_FAILED && fd >= 0 &&
	      (memcpy(mem + 4096, "ivshmem", 8), pread(fd, buf, 8, 4096) == 8) &&
	      !memcmp(buf, "ivshmem", 8), "memory: the file, shared");

	check(!join(&b, 1, ids, fds) && b.id == 1 && ids[0] == 0,
	      "second peer: ID 1, told of peer 0 with 2 vectors");
	check(told_join(&a, 1, afd_b), "first peer told of peer 1");
	check(rings(afd_b[1], b.own[1], b.own[0]),
	      "doorbell 0 -> 1, vector 1: only that eventfd");
	check(rings(fds[0][0], a.own[0], a.own[1]),
	      "doorbell 1 -> 0, vector 0: only that eventfd");

	check(!join(&c, 2, ids, fds) && c.id == 2 && ids[0] == 0 && ids[1] == 1,
	      "third peer: ID 2, told of peers 0 and 1");
	check(told_join(&a, 2, afd_c) && told_join(&b, 2, fds[2]),
	      "both told of peer 2");

	extra = connect_server();
	check(extra >= 0 && recv_msg(extra, &v, &fd) == 0,
	      "a fourth peer, over -p 3: connection closed at once");
	check(nothing_pending(a.sock), "the others not told of it");

	close(b.sock);
	check(told_leave(&a, 1) && told_leave(&c, 1), "peer 1 left: both told");
	check(!join(&d, 2, ids, dfds) && d.id == 3 && ids[0] == 0 && ids[1] == 2,
	      "a new peer gets the next ID, 3, not the freed 1; told of peers 0 and 2");
	check(told_join(&a, 3, afd_b) && told_join(&c, 3, fds[1]),
	      "the others told of the new peer 3");
	check(rings(afd_b[0], d.own[0], d.own[1]),
	      "the new peer 3 gets the doorbell sent to ID 3");

	check(write(c.sock, "x", 1) == 1 && recv_msg(c.sock, &v, &fd) == 0,
	      "a peer that writes to the server is dropped");
	check(told_leave(&a, 2) && told_leave(&d, 2), "the others told it left");

	kill(pid, SIGTERM);
	check(status_of(pid) == 0, "SIGTERM: exit 0");
	check(access(sock_path, F_OK) && errno == ENOENT, "SIGTERM: socket removed");
	check(!stat(shm_path, &st) && st.st_size == 65536,
	      "SIGTERM: memory file kept");

	test_big_setup();
	unlink(shm_path);
	rmdir(dir);
	printf("1..%u\n# %u passed, %u failed\n", n, n - failed, failed);
	return failed ? 1 : 0;
}
