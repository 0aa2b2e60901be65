// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user_test: the user-space API of /dev/ism/NAME (ism_user.ko), on a
 * loopback device, as root with ism_core, ism_lo and ism_user loaded:
 *
 *   ism_user_test api DEV      every call, its bad inputs, mappings, events,
 *                              fork, two processes, limits, keys
 *                              (ism_user_cases.c)
 *   ism_user_test removal DEV  DEV deleted (ismctl dev del) while mapped
 *   ism_user_test hog DEV      as another user: take all the DMBs one may,
 *                              print how many and why no more, hold them
 *   ism_user_test rings DEV [SECONDS]
 *                              as a user held to one doorbell a second:
 *                              events until refused, print how many and
 *                              why; a MOVE's signal refused whole; then
 *                              SECONDS of tries from new files, print
 *                              how many went
 *   ism_user_test attack DEV TOKEN...
 *                              as another user: no ATTACH, MOVE or
 *                              SEND_EVENT reaches the DMBs of the tokens
 *                              (ism_user_cases.c)
 *
 * One KTAP line per case ("ok N what # detail"), then the plan. Exit
 * status: 0 if every case passed, 1 otherwise.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/capability.h>
#include <linux/ism_user.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/resource.h>
#include <sys/syscall.h>
#include <sys/wait.h>

#include "../../include/compiler.h"
#include "ism_user_calls.h"
#include "ism_user_test.h"

int tests, failed;
const char *dev;
long page;

void result(int good, const char *fmt, ...)
{
	va_list ap;

	tests++;
	failed += !good;
	printf("%sok %d ", good ? "" : "not ", tests);
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
}

/* A call that must fail with @want: returns -1 and sets errno. */
void refused(const char *what, int ret, int want)
{
	int err = errno;

	result(ret == -1 && err == want, "%s # %s%s", what,
	       ret == -1 ? strerror(err) : "succeeded",
	       ret == -1 && err != want ? " (wrong errno)" : "");
}

void succeeded(const char *what, int ret)
{
	result(ret == 0, "%s%s%s", what, ret ? " # " : "",
	       ret ? strerror(errno) : "");
}

int open_dev(void)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/dev/ism/%s", dev);
	fd = open(path, O_RDWR | O_CLOEXEC);
	if (fd < 0) {
		printf("# open %s: %s\n", path, strerror(errno));
		printf("1..%d\n", tests + 1);
		printf("not ok %d open %s\n", tests + 1, path);
		exit(1);
	}
	return fd;
}

int all_zero(const char *p, size_t len)
{
	size_t i;

	for (i = 0; i < len; i++)
		if (p[i])
			return 0;
	return 1;
}

static void test_info(int fd)
{
	struct ism_user_info info = {}, zero = {};
	uint8_t none[ISM_USER_GID_LEN] = { 0 };
	struct ism_user_peer peer = {};

	succeeded("INFO", ioctl(fd, ISM_USER_IOC_INFO, &info));
	result(!strcmp(info.name, dev) && info.chid == 0xffff &&
	       memcmp(info.gid, zero.gid, sizeof(info.gid)) &&
	       info.flags == ISM_USER_INFO_ATTACH && info.max_dmb_len &&
	       info.max_dmbs && info.max_buffers && !info.reserved &&
	       !info.reserved2,
	       "INFO: %s, chid 0x%x, attach, max_dmb_len %u, max_buffers %u",
	       info.name, info.chid, info.max_dmb_len, info.max_buffers);
	refused("INFO to a bad address", ioctl(fd, ISM_USER_IOC_INFO, 8),
		EFAULT);

	memcpy(peer.gid, info.gid, sizeof(peer.gid));
	succeeded("QUERY_PEER: the loopback reaches itself",
		  ioctl(fd, ISM_USER_IOC_QUERY_PEER, &peer));
	peer.flags = 2;
	refused("QUERY_PEER with unknown flags",
		ioctl(fd, ISM_USER_IOC_QUERY_PEER, &peer), EINVAL);
	peer.flags = 0;
	memcpy(peer.gid, none, sizeof(peer.gid));
	peer.gid[0] = 0x5a;
	refused("QUERY_PEER: the loopback reaches no other GID",
		ioctl(fd, ISM_USER_IOC_QUERY_PEER, &peer), EHOSTUNREACH);
	refused("an unknown ioctl", ioctl(fd, _IO(ISM_USER_IOC_MAGIC, 0x7f)),
		ENOTTY);
}

static void test_register(int fd)
{
	struct ism_user_info info = info_of(fd);
	struct ism_user_dmb d;

	/* A request that is good but for its flags. */
	reg(fd, 0, &d);
	d.len = page;
	d.flags = 1;
	refused("REGISTER with flags", ioctl(fd, ISM_USER_IOC_REGISTER, &d),
		EINVAL);
	refused("REGISTER of 0 bytes", reg(fd, 0, &d), EINVAL);
	refused("REGISTER of 100 bytes (not pages)", reg(fd, 100, &d), EINVAL);
	refused("REGISTER above max_dmb_len",
		reg(fd, info.max_dmb_len + page, &d), EINVAL);
	refused("REGISTER from a bad address",
		ioctl(fd, ISM_USER_IOC_REGISTER, 8), EFAULT);
	refused("UNREGISTER of an unknown token", unreg(fd, 0x1234), ENOENT);
	refused("UNREGISTER from a bad address",
		ioctl(fd, ISM_USER_IOC_UNREGISTER, 8), EFAULT);
	refused("DETACH of an unknown token", detach(fd, 0x1234), ENOENT);
}

static void test_map(int fd)
{
	struct ism_user_dmb d, a, x2;
	char *p, *q, *r;
	void *x;

	succeeded("REGISTER 64 KiB", reg(fd, 64 * KIB, &d));
	result(d.token && d.key && d.mmap_offset && d.len == 64 * KIB &&
	       d.attr == ISM_USER_DMB_MMAP,
	       "REGISTER: token, mmap offset 0x%llx, mappable",
	       (unsigned long long)d.mmap_offset);
	p = map(fd, &d, 64 * KIB, 0);
	result(p && all_zero(p, 64 * KIB), "mmap of the DMB: zeroed");
	x = mmap(NULL, page, PROT_READ, MAP_PRIVATE, fd, d.mmap_offset);
	refused("mmap MAP_PRIVATE", x == MAP_FAILED ? -1 : 0, EINVAL);
	x = mmap(NULL, page, PROT_READ | PROT_EXEC, MAP_SHARED, fd,
		 d.mmap_offset);
	refused("mmap PROT_EXEC", x == MAP_FAILED ? -1 : 0, EPERM);
	x = mmap(NULL, 128 * KIB, PROT_READ, MAP_SHARED, fd, d.mmap_offset);
	refused("mmap past the DMB's end", x == MAP_FAILED ? -1 : 0, EINVAL);
	x = mmap(NULL, 2 * page, PROT_READ, MAP_SHARED, fd,
		 d.mmap_offset + 64 * KIB - page);
	refused("mmap overlapping the DMB's end", x == MAP_FAILED ? -1 : 0,
		EINVAL);
	x = mmap(NULL, page, PROT_READ, MAP_SHARED, fd,
		 d.mmap_offset + (1ULL << 32));
	refused("mmap of no buffer", x == MAP_FAILED ? -1 : 0, EINVAL);
	q = map(fd, &d, page, page);
	if (p && q) {
		p[page] = 0x42;
		p[page + 1] = 0x43;
	}
	result(q && q[0] == 0x42 && q[1] == 0x43,
	       "a partial mapping (second page) sees the first one's writes");
	x = p ? mremap(p, 64 * KIB, 128 * KIB, MREMAP_MAYMOVE) : MAP_FAILED;
	result(x == MAP_FAILED, "mremap cannot grow a mapping # %s",
	       strerror(errno));

	succeeded("ATTACH the DMB (loopback: its own)", attach(fd, d.token, &a));
	result(a.len == 64 * KIB && a.attr == ISM_USER_DMB_MMAP &&
	       a.mmap_offset && a.mmap_offset != d.mmap_offset,
	       "ATTACH: length, mappable at its own offset");
	refused("ATTACH it twice", attach(fd, d.token, &x2), EEXIST);
	refused("ATTACH an unknown token",
		attach(fd, d.token ^ 1ULL << 40, &x2), ENOENT);
	x2 = (struct ism_user_dmb){ .token = d.token, .key = d.key,
				    .flags = 4 };
	refused("ATTACH with flags", ioctl(fd, ISM_USER_IOC_ATTACH, &x2),
		EINVAL);
	r = map(fd, &a, 64 * KIB, 0);
	if (r)
		memcpy(r + 100, "zero-copy", 10);
	result(r && p && !memcmp(p + 100, "zero-copy", 10),
	       "a write through the attachment's mapping is in the DMB");

	succeeded("UNREGISTER the DMB", unreg(fd, d.token));
	result(p && bus_error(p, 0) && bus_error(q, 0),
	       "its mappings are revoked: SIGBUS");
	result(r && !bus_error(r, 1),
	       "the attachment stays until DETACH");
	refused("UNREGISTER it again", unreg(fd, d.token), ENOENT);
	succeeded("DETACH", detach(fd, d.token));
	result(r && bus_error(r, 0), "the attachment's mapping is revoked");
	x = mmap(NULL, page, PROT_READ, MAP_SHARED, fd, d.mmap_offset);
	refused("mmap of an unregistered DMB", x == MAP_FAILED ? -1 : 0,
		EINVAL);
	munmap(p, 64 * KIB);
	munmap(q, page);
	munmap(r, 64 * KIB);

	succeeded("REGISTER again", reg(fd, 64 * KIB, &d));
	p = map(fd, &d, 64 * KIB, 0);
	result(p && all_zero(p, 64 * KIB),
	       "a new DMB is zeroed (the last one's bytes are gone)");
	munmap(p, 64 * KIB);
	unreg(fd, d.token);
}

static void test_move(int fd)
{
	struct ism_user_event ev[80];
	uint8_t buf[256 * KIB];
	struct ism_user_dmb d;
	struct pollfd pfd = { .fd = fd, .events = POLLIN };
	char *p;
	int i, n;

	reg(fd, 256 * KIB, &d);
	p = map(fd, &d, 256 * KIB, 0);
	for (i = 0; i < (int)sizeof(buf); i++)
		buf[i] = i * 7;
	succeeded("MOVE 200 KiB (in pieces) with a signal",
		  move(fd, d.token, 4096, buf, 200 * KIB, ISM_USER_MOVE_SIGNAL,
		       5));
	result(p && !memcmp(p + 4096, buf, 200 * KIB), "MOVE: the bytes are in");
	result(poll(&pfd, 1, 0) == 1 && pfd.revents == POLLIN,
	       "poll: readable");
	n = events(fd, ev, 8);
	result(n == 1 && ev[0].type == ISM_USER_EVENT_SIGNAL &&
	       ev[0].token == d.token && ev[0].info == 1 << 5,
	       "read: one SIGNAL of the DMB, bit 5");
	refused("read with nothing queued (non-blocking)",
		events(fd, ev, 1) ? 0 : -1, EAGAIN);
	refused("read into less than a record", read(fd, ev, EV_SIZE - 1),
		EINVAL);

	for (i = 0; i < 100; i++)
		move(fd, d.token, 0, NULL, 0, ISM_USER_MOVE_SIGNAL, i % 16);
	n = events(fd, ev, 8);
	result(n == 1 && ev[0].info == 0xffff,
	       "100 signals merge into one event, all 16 bits");

	refused("MOVE with unknown flags", move(fd, d.token, 0, buf, 8, 2, 0),
		EINVAL);
	refused("MOVE with dmbe 16", move(fd, d.token, 0, buf, 8,
					  ISM_USER_MOVE_SIGNAL, 16), EINVAL);
	refused("MOVE with a dmbe but no signal",
		move(fd, d.token, 0, buf, 8, 0, 1), EINVAL);
	refused("MOVE past the DMB's end",
		move(fd, d.token, 256 * KIB - 4, buf, 8, 0, 0), EINVAL);
	refused("MOVE with offset + size past 4 GiB",
		move(fd, d.token, 0xfffffffc, buf, 8, 0, 0), EINVAL);
	refused("MOVE to an unknown token",
		move(fd, d.token ^ 1ULL << 40, 0, buf, 8, 0, 0), ENOENT);
	refused("MOVE from a NULL address", move(fd, d.token, 0, NULL, 8, 0, 0),
		EFAULT);
	refused("MOVE from a bad address",
		move(fd, d.token, 0, (void *)8, 8, 0, 0), EFAULT);
	refused("MOVE request at a bad address",
		ioctl(fd, ISM_USER_IOC_MOVE, 8), EFAULT);
	result(events(fd, ev, 8) == 0, "refused MOVEs signal nothing");
	munmap(p, 256 * KIB);
	unreg(fd, d.token);
}

/*
 * The queue before the signals; a read() into a bad buffer takes
 * nothing; a signal of a DMB whose SIGNAL is unread is no new record
 * (the eventfd does not count it).
 */
static void test_event_order(int fd, const uint8_t *gid)
{
	struct ism_user_event ev[4];
	struct ism_user_dmb d;
	void *none = mmap(NULL, page, PROT_NONE, MAP_PRIVATE | MAP_ANONYMOUS,
			  -1, 0);
	uint64_t count = 0;
	int efd = eventfd(0, EFD_NONBLOCK), n;

	reg(fd, page, &d);
	ioctl(fd, ISM_USER_IOC_EVENTFD, &efd);
	move(fd, d.token, 0, NULL, 0, ISM_USER_MOVE_SIGNAL, 1);
	move(fd, d.token, 0, NULL, 0, ISM_USER_MOVE_SIGNAL, 2);
	send_event(fd, gid, d.token, 5, 0);
	result(read(efd, &count, sizeof(count)) == sizeof(count) && count == 2,
	       "the eventfd counts records: two signals of one DMB, one event (%llu)",
	       (unsigned long long)count);
	refused("read into an inaccessible buffer", read(fd, none, EV_SIZE),
		EFAULT);
	n = events(fd, ev, 4);
	result(n == 2 && ev[0].type == ISM_USER_EVENT_SOFTWARE &&
	       ev[1].type == ISM_USER_EVENT_SIGNAL && ev[1].info == 6,
	       "after it, nothing lost: the queued event first, then the signals");
	n = -1;
	ioctl(fd, ISM_USER_IOC_EVENTFD, &n);
	close(efd);
	munmap(none, page);
	unreg(fd, d.token);
}

static void test_events(int fd)
{
	struct ism_user_info info = info_of(fd);
	struct ism_user_event ev[80];
	struct ism_user_dmb d;
	uint64_t count;
	int efd, n, i;

	reg(fd, page, &d);
	succeeded("SEND_EVENT to a DMB of its own",
		  send_event(fd, info.gid, d.token, 0x1234, 0));
	n = events(fd, ev, 8);
	result(n == 1 && ev[0].type == ISM_USER_EVENT_SOFTWARE &&
	       ev[0].code == 0x1234 && ev[0].token == d.token && !ev[0].info &&
	       !memcmp(ev[0].gid, info.gid, sizeof(info.gid)),
	       "read: SOFTWARE, the code, the DMB and the sender");
	refused("SEND_EVENT with code 0x10000",
		send_event(fd, info.gid, d.token, 0x10000, 0), EINVAL);
	refused("SEND_EVENT with flags",
		send_event(fd, info.gid, d.token, 1, 1), EINVAL);
	refused("SEND_EVENT from a bad address",
		ioctl(fd, ISM_USER_IOC_SEND_EVENT, 8), EFAULT);
	refused("SEND_EVENT with a wrong key",
		send_event_key(fd, info.gid, d.token, key_of(d.token) ^ 1, 1, 0),
		ENOENT);
	refused("SEND_EVENT with no key",
		send_event_key(fd, info.gid, d.token, 0, 1, 0), ENOENT);
	result(events(fd, ev, 8) == 0, "the refused events went nowhere");

	for (i = 0; i < 100; i++)
		send_event(fd, info.gid, d.token, i, 0);
	n = events(fd, ev, 80);
	result(n == 8 && ev[0].type == ISM_USER_EVENT_LOST &&
	       ev[0].info == 36 && ev[1].code == 0,
	       "100 events into a queue of 64: LOST 36 first, then the oldest");
	while (events(fd, ev, 80))
		;

	test_event_order(fd, info.gid);

	efd = eventfd(0, EFD_NONBLOCK);
	succeeded("EVENTFD", ioctl(fd, ISM_USER_IOC_EVENTFD, &efd));
	send_event(fd, info.gid, d.token, 7, 0);
	send_event(fd, info.gid, d.token, 8, 0);
	result(read(efd, &count, sizeof(count)) == sizeof(count) && count == 2,
	       "the eventfd counts the events");
	events(fd, ev, 8);
	n = -1;
	succeeded("EVENTFD -1 (none)", ioctl(fd, ISM_USER_IOC_EVENTFD, &n));
	send_event(fd, info.gid, d.token, 9, 0);
	result(read(efd, &count, sizeof(count)) == -1 && errno == EAGAIN,
	       "no eventfd, no count");
	events(fd, ev, 8);
	n = open("/proc/self/status", O_RDONLY);
	refused("EVENTFD of a file that is no eventfd",
		ioctl(fd, ISM_USER_IOC_EVENTFD, &n), EINVAL);
	close(n);
	n = 999;
	refused("EVENTFD of a closed fd", ioctl(fd, ISM_USER_IOC_EVENTFD, &n),
		EBADF);
	close(efd);
	unreg(fd, d.token);
}

/* Tokens belong to the file that has them, even in one process. */
static void test_per_file(int fd)
{
	struct ism_user_dmb d, a;
	int fd2 = open_dev();
	void *x;

	reg(fd, 64 * KIB, &d);
	refused("UNREGISTER another file's DMB", unreg(fd2, d.token), ENOENT);
	x = mmap(NULL, page, PROT_READ, MAP_SHARED, fd2, d.mmap_offset);
	refused("mmap another file's DMB", x == MAP_FAILED ? -1 : 0, EINVAL);
	attach(fd, d.token, &a);
	refused("DETACH another file's attachment", detach(fd2, d.token),
		ENOENT);
	succeeded("another file ATTACHes with the token it was given",
		  attach(fd2, d.token, &a));
	x = map(fd2, &a, 64 * KIB, 0);
	succeeded("the owner UNREGISTERs", unreg(fd, d.token));
	/* The loopback sends no DMB_GONE: the writer's memory stays. */
	result(x && !bus_error(x, 1),
	       "the other file's attachment stays until it DETACHes");
	close(fd2);
	result(x && !bus_error(x, 0),
	       "and its mapping keeps the file, and the attachment, open");
	munmap(x, 64 * KIB);
	succeeded("DETACH after the other file closed", detach(fd, d.token));
}

/* A child shares the mappings; they go when the parent unregisters. */
static void test_fork(int fd)
{
	int up[2], down[2], status;
	struct ism_user_dmb d;
	char *p, c = 0;
	pid_t pid;

	reg(fd, 64 * KIB, &d);
	p = map(fd, &d, 64 * KIB, 0);
	if (!p || pipe(up) || pipe(down)) {
		result(0, "fork: setup");
		return;
	}
	strcpy(p, "parent");
	pid = fork();
	if (!pid) {
		int ok = !strcmp(p, "parent");

		strcpy(p + 100, "child");
		if (write(up[1], "x", 1) != 1 || read(down[0], &c, 1) != 1)
			_exit(3);
		/* after the parent's unregister */
		_exit(ok ? (bus_error(p, 0) ? 0 : 2) : 1);
	}
	if (read(up[0], &c, 1) != 1)
		c = 0;
	result(c == 'x' && !strcmp(p + 100, "child"),
	       "fork: the child shares the mapping");
	unreg(fd, d.token);
	if (write(down[1], "y", 1) != 1)
		kill(pid, SIGKILL);
	waitpid(pid, &status, 0);
	result(WIFEXITED(status) && WEXITSTATUS(status) == 0,
	       "fork: the child's mapping is revoked too (status %d)",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
	munmap(p, 64 * KIB);
	close(up[0]);
	close(up[1]);
	close(down[0]);
	close(down[1]);
}

/* Two processes, each with its file: the classic use. */
static void test_two_processes(int fd)
{
	struct ism_user_event ev[4];
	struct ism_user_dmb d;
	int pipefd[2], status, n;
	char *p;
	pid_t pid;

	reg(fd, 64 * KIB, &d);
	p = map(fd, &d, 64 * KIB, 0);
	if (!p || pipe(pipefd)) {
		result(0, "two processes: setup");
		return;
	}
	pid = fork();
	if (!pid) {
		struct ism_user_dmb a;
		uint64_t given[2];
		int cfd = open_dev();
		char *w;

		if (read(pipefd[0], given, sizeof(given)) != sizeof(given) ||
		    attach_key(cfd, given[0], given[1], &a))
			_exit(1);
		w = map(cfd, &a, a.len, 0);
		if (!w)
			_exit(1);
		strcpy(w + 8, "from the other process");
		_exit(move_key(cfd, given[0], given[1], 0, NULL, 0,
			       ISM_USER_MOVE_SIGNAL, 3) ? 2 : 0);
	}
	if (write(pipefd[1], (uint64_t[]){ d.token, d.key }, 16) != 16)
		pid = -1;
	waitpid(pid, &status, 0);
	n = events(fd, ev, 4);
	result(WIFEXITED(status) && !WEXITSTATUS(status) && n == 1 &&
	       ev[0].type == ISM_USER_EVENT_SIGNAL && ev[0].info == 1 << 3 &&
	       !strcmp(p + 8, "from the other process"),
	       "two processes: attach by token and key, write, signal, event");
	munmap(p, 64 * KIB);
	unreg(fd, d.token);
	close(pipefd[0]);
	close(pipefd[1]);
}

static long vm_pinned_kb(void)
{
	char line[128];
	long kb = -1;
	FILE *f = fopen("/proc/self/status", "r");

	while (f && fgets(line, sizeof(line), f))
		if (sscanf(line, "VmPin: %ld kB", &kb) == 1)
			break;
	if (f)
		fclose(f);
	return kb;
}

/* RLIMIT_MEMLOCK, in a child without CAP_IPC_LOCK. */
static void test_memlock(void)
{
	int status;
	pid_t pid = fork();

	if (!pid) {
		struct __user_cap_header_struct h = {
			.version = _LINUX_CAPABILITY_VERSION_3 };
		struct __user_cap_data_struct c[2];
		struct rlimit rl = { 64 * KIB, 64 * KIB };
		struct ism_user_dmb d, e;
		int cfd = open_dev(), n;

		if (syscall(SYS_capget, &h, c))
			_exit(10);
		c[0].effective &= ~(1U << CAP_IPC_LOCK);
		c[0].permitted &= ~(1U << CAP_IPC_LOCK);
		if (syscall(SYS_capset, &h, c) || setrlimit(RLIMIT_MEMLOCK, &rl))
			_exit(11);
		if (reg(cfd, 64 * KIB, &d))
			_exit(1);
		if (vm_pinned_kb() != 64)
			_exit(2);
		if (!reg(cfd, page, &e) || errno != ENOMEM)
			_exit(3);
		if (unreg(cfd, d.token) || vm_pinned_kb() != 0)
			_exit(4);
		/* An attachment pins what it maps, after UNREGISTER too:
		 * REGISTER, ATTACH, UNREGISTER in a loop stops at the limit.
		 */
		for (n = 0; n < 8; n++) {
			if (reg(cfd, 16 * KIB, &d))
				break;
			if (attach(cfd, d.token, &e)) {
				unreg(cfd, d.token);
				break;
			}
			unreg(cfd, d.token);
		}
		if (n != 3 || errno != ENOMEM || vm_pinned_kb() != 48)
			_exit(5);
		close(cfd);
		_exit(vm_pinned_kb() ? 6 : 0);
	}
	waitpid(pid, &status, 0);
	result(WIFEXITED(status) && !WEXITSTATUS(status),
	       "RLIMIT_MEMLOCK of 64 KiB: 64 KiB pinned (VmPin), one page more ENOMEM, freed on UNREGISTER; attachments charged too (step %d)",
	       WIFEXITED(status) ? WEXITSTATUS(status) : -1);
}

static int set_max_buffers(unsigned int n)
{
	FILE *f = fopen("/sys/module/ism_user/parameters/max_buffers", "w");
	int ret;

	if (!f)
		return -1;
	ret = fprintf(f, "%u\n", n) < 0;
	return fclose(f) || ret ? -1 : 0;
}

static void test_max_buffers(int fd)
{
	struct ism_user_dmb d[3], a;

	if (set_max_buffers(2)) {
		result(0, "max_buffers: cannot set the parameter");
		return;
	}
	reg(fd, page, &d[0]);
	reg(fd, page, &d[1]);
	refused("a third buffer over max_buffers=2", reg(fd, page, &d[2]),
		ENOBUFS);
	refused("an attachment counts too", attach(fd, d[0].token, &a),
		ENOBUFS);
	set_max_buffers(1024);
	unreg(fd, d[0].token);
	unreg(fd, d[1].token);
}

/* The device's count of DMBs, all clients' (sysfs). */
static long device_dmbs(void)
{
	char path[96], line[32];
	long n = -1;
	FILE *f;

	snprintf(path, sizeof(path), "/sys/class/ism/%s/dmbs", dev);
	f = fopen(path, "r");
	if (f && fgets(line, sizeof(line), f))
		n = atol(line);
	if (f)
		fclose(f);
	return n;
}

/* A request the kernel reads but cannot write back: what it made is
 * undone, as the caller never learns of it.
 */
static void test_unwritable(int fd)
{
	struct ism_user_info info = info_of(fd);
	long before = device_dmbs();
	struct ism_user_dmb d, a, *ro;

	ro = mmap(NULL, page, PROT_READ | PROT_WRITE,
		  MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (ro == MAP_FAILED || reg(fd, 64 * KIB, &d)) {
		result(0, "unwritable requests: setup");
		return;
	}
	*ro = (struct ism_user_dmb){ .len = page };
	memcpy(ro->gid, info.gid, sizeof(ro->gid));
	mprotect(ro, page, PROT_READ);
	refused("REGISTER with a read-only request",
		ioctl(fd, ISM_USER_IOC_REGISTER, ro), EFAULT);
	result(device_dmbs() == before + 1,
	       "the DMB it registered is unregistered (device dmbs %ld, then %ld)",
	       before, device_dmbs());
	mprotect(ro, page, PROT_READ | PROT_WRITE);
	*ro = (struct ism_user_dmb){ .token = d.token, .key = d.key };
	mprotect(ro, page, PROT_READ);
	refused("ATTACH with a read-only request",
		ioctl(fd, ISM_USER_IOC_ATTACH, ro), EFAULT);
	succeeded("the attachment it made is undone: ATTACH again",
		  attach(fd, d.token, &a));
	detach(fd, d.token);
	unreg(fd, d.token);
	munmap(ro, page);
}

/* The file's end gives back everything: the device's DMB count returns. */
static void test_close(void)
{
	long before = device_dmbs(), during, after;
	struct ism_user_dmb d, a;
	int fd = open_dev();

	long mapped;
	char *p;

	reg(fd, 64 * KIB, &d);
	reg(fd, 64 * KIB, &d);
	attach(fd, d.token, &a);
	p = map(fd, &d, 64 * KIB, 0);
	during = device_dmbs();
	close(fd);
	/* A mapping holds the file, as any file's does. */
	mapped = device_dmbs();
	if (p)
		munmap(p, 64 * KIB);
	after = device_dmbs();
	result(p && during == before + 2 && mapped == during && after == before,
	       "the file's DMBs go with its last reference: close, then munmap (device dmbs %ld, %ld, %ld, %ld)",
	       before, during, mapped, after);
}

static void api(void)
{
	int fd = open_dev();

	test_info(fd);
	test_register(fd);
	test_map(fd);
	test_move(fd);
	test_events(fd);
	test_per_file(fd);
	test_read_only(fd);
	test_keys(fd);
	test_sizes(fd);
	test_move_whole(fd);
	test_event_addressed(fd);
	test_fork(fd);
	test_two_processes(fd);
	test_memlock();
	test_max_buffers(fd);
	test_unwritable(fd);
	close(fd);
	test_close();
}

/* The device goes while a file has a DMB mapped and a reader waits. */
static void removal(void)
{
	struct ism_user_info info;
	struct ism_user_event ev[4];
	struct ism_user_dmb d, a;
	struct pollfd pfd;
	char cmd[64];
	int fd = open_dev(), n, fd2;
	char *p;

	reg(fd, 64 * KIB, &d);
	attach(fd, d.token, &a);
	p = map(fd, &d, 64 * KIB, 0);
	if (p)
		strcpy(p, "before");
	snprintf(cmd, sizeof(cmd), "ismctl dev del %s", dev);
	result(system(cmd) == 0, "%s", cmd);
	/* The core deletes the device from a work item: wait for it. */
	pfd = (struct pollfd){ .fd = fd, .events = POLLIN };
	result(poll(&pfd, 1, 30000) == 1 &&
	       (pfd.revents & (POLLIN | POLLHUP | POLLERR)) ==
	       (POLLIN | POLLHUP | POLLERR), "poll: POLLIN, POLLHUP, POLLERR");
	result(p && bus_error(p, 0), "the DMB's mapping is revoked: SIGBUS");
	n = events(fd, ev, 4);
	result(n == 1 && ev[0].type == ISM_USER_EVENT_DEVICE_GONE,
	       "read: DEVICE_GONE");
	result(read(fd, ev, EV_SIZE) == 0, "then end of file");
	refused("REGISTER after", reg(fd, 64 * KIB, &d), ENODEV);
	refused("MOVE after", move(fd, d.token, 0, NULL, 0, 0, 0), ENODEV);
	refused("UNREGISTER after", unreg(fd, d.token), ENODEV);
	refused("INFO after", ioctl(fd, ISM_USER_IOC_INFO, &info), ENODEV);
	refused("ATTACH after", attach(fd, d.token, &a), ENODEV);
	refused("DETACH after", detach(fd, d.token), ENODEV);
	refused("SEND_EVENT after", send_event(fd, info.gid, d.token, 1, 0),
		ENODEV);
	refused("QUERY_PEER after", ioctl(fd, ISM_USER_IOC_QUERY_PEER,
					  &(struct ism_user_peer){ 0 }), ENODEV);
	n = eventfd(0, 0);
	refused("EVENTFD after", ioctl(fd, ISM_USER_IOC_EVENTFD, &n), ENODEV);
	close(n);
	n = -1;
	succeeded("EVENTFD -1 after (letting go)",
		  ioctl(fd, ISM_USER_IOC_EVENTFD, &n));
	refused("mmap after", mmap(NULL, page, PROT_READ, MAP_SHARED, fd,
				   d.mmap_offset) == MAP_FAILED ? -1 : 0,
		ENODEV);
	snprintf(cmd, sizeof(cmd), "/dev/ism/%s", dev);
	fd2 = open(cmd, O_RDWR);
	result(fd2 < 0, "the device node is gone # %s", strerror(errno));
	munmap(p, 64 * KIB);
	close(fd);
}

int main(int argc, char **argv)
{
	if (argc < 3 || (argc > 3 && strcmp(argv[1], "attack") &&
			 strcmp(argv[1], "rings"))) {
		fprintf(stderr, "usage: %s api|removal|hog DEV | rings DEV [SECONDS] | attack DEV TOKEN...\n",
			argv[0]);
		return 2;
	}
	dev = argv[2];
	page = sysconf(_SC_PAGESIZE);
	/* A hang is a failure, not a stalled test run. */
	alarm(300);
	printf("TAP version 13\n");
	if (!strcmp(argv[1], "api"))
		api();
	else if (!strcmp(argv[1], "removal"))
		removal();
	else if (!strcmp(argv[1], "attack"))
		test_attack(argc - 3, argv + 3);
	else if (!strcmp(argv[1], "hog"))
		hog();
	else if (!strcmp(argv[1], "rings"))
		test_rings(argc > 3 ? atoi(argv[3]) : 0);
	else
		return 2;
	printf("1..%d\n", tests);
	return failed ? 1 : 0;
}
