// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user_test's cases of who may write what, and of requests that are
 * refused whole: a file opened read-only, the DMB keys, the sizes of a
 * growing struct, a MOVE that fails before its first byte moves, software
 * events to the one file they are for, doorbells within a rate.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <linux/ism_user.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/random.h>

#include "ism_user_calls.h"
#include "ism_user_test.h"

/* Whether @n bytes at @p are all @c. */
static int all_are(const char *p, int c, size_t n)
{
	size_t i;

	for (i = 0; i < n; i++)
		if (p[i] != c)
			return 0;
	return 1;
}

/*
 * A file opened read-only writes nothing and takes no memory: no
 * REGISTER, MOVE or SEND_EVENT. It may attach, and map for reading.
 */
void test_read_only(int fd)
{
	struct ism_user_info info = info_of(fd);
	struct ism_user_dmb d, a;
	char path[64];
	void *x;
	char *q;
	int ro;

	snprintf(path, sizeof(path), "/dev/ism/%s", dev);
	ro = open(path, O_RDONLY | O_CLOEXEC);
	refused("REGISTER on a read-only file", reg(ro, page, &d), EBADF);
	reg(fd, page, &d);
	refused("MOVE on a read-only file", move(ro, d.token, 0, "ro", 3, 0, 0),
		EBADF);
	refused("SEND_EVENT on a read-only file",
		send_event(ro, info.gid, d.token, 1, 0), EBADF);
	succeeded("ATTACH on a read-only file", attach(ro, d.token, &a));
	q = mmap(NULL, page, PROT_READ, MAP_SHARED, ro, a.mmap_offset);
	result(q != MAP_FAILED, "mmap PROT_READ, MAP_SHARED of it # %s",
	       q == MAP_FAILED ? strerror(errno) : "mapped");
	x = mmap(NULL, page, PROT_READ | PROT_WRITE, MAP_SHARED, ro,
		 a.mmap_offset);
	refused("mmap PROT_WRITE of it", x == MAP_FAILED ? -1 : 0, EACCES);
	move(fd, d.token, 0, "ro", 3, 0, 0);
	result(q != MAP_FAILED && !strcmp(q, "ro"),
	       "the read-only mapping sees what MOVE wrote");
	if (q != MAP_FAILED)
		munmap(q, page);
	close(ro);
	unreg(fd, d.token);
}

/*
 * A DMB opens to its key only: a wrong one, none, and an unknown token
 * fail alike (ENOENT), even for a MOVE of no bytes, and write nothing.
 */
void test_keys(int fd)
{
	struct ism_user_dmb d, d2, a;
	int fd2 = open_dev();
	char buf[8] = "mallory";
	char *p;

	reg(fd, 64 * KIB, &d);
	reg(fd, 64 * KIB, &d2);
	result(d.key && d2.key && d.key != d2.key,
	       "REGISTER: each DMB its own key, never 0");
	p = map(fd, &d, 64 * KIB, 0);
	refused("MOVE without the key",
		move_key(fd2, d.token, 0, 0, buf, 8, ISM_USER_MOVE_SIGNAL, 0),
		ENOENT);
	refused("MOVE with another DMB's key",
		move_key(fd2, d.token, d2.key, 0, buf, 8, 0, 0), ENOENT);
	refused("MOVE with a key one bit off",
		move_key(fd2, d.token, d.key ^ 1, 0, buf, 8, 0, 0), ENOENT);
	refused("ATTACH without the key", attach_key(fd2, d.token, 0, &a),
		ENOENT);
	refused("ATTACH with a key one bit off",
		attach_key(fd2, d.token, d.key ^ 1ULL << 63, &a), ENOENT);
	refused("MOVE of no bytes, wrong key: no answer about the token",
		move_key(fd2, d.token, d.key ^ 2, 0, NULL, 0, 0, 0), ENOENT);
	refused("MOVE of no bytes, unknown token: the same answer",
		move_key(fd2, d.token ^ 1ULL << 40, d.key, 0, NULL, 0, 0, 0),
		ENOENT);
	result(p && all_zero(p, 64 * KIB), "the refused writes wrote nothing");
	result(events(fd, &(struct ism_user_event){ 0 }, 1) == 0,
	       "and signalled nothing");
	succeeded("MOVE with the key, from another file",
		  move_key(fd2, d.token, d.key, 0, buf, 8, 0, 0));
	result(p && !memcmp(p, buf, 8), "its bytes are in");
	succeeded("ATTACH with the key, from another file",
		  attach_key(fd2, d.token, d.key, &a));
	detach(fd2, d.token);
	if (p)
		munmap(p, 64 * KIB);
	unreg(fd, d.token);
	unreg(fd, d2.token);
	close(fd2);
}

/* An ioctl number of @cmd's with another size: a struct that grew. */
#define SIZED(cmd, size)	_IOC(_IOC_DIR(cmd), _IOC_TYPE(cmd), \
				     _IOC_NR(cmd), (size))

/*
 * The structs can grow: a larger one with a zero tail is taken, its tail
 * left alone; a non-zero tail is refused (E2BIG), a smaller one too.
 */
void test_sizes(int fd)
{
	struct ism_user_info info = info_of(fd);
	struct {
		struct ism_user_dmb d;
		uint64_t tail;
	} big = { .d.len = 4096 };
	unsigned long cmd = SIZED(ISM_USER_IOC_REGISTER, sizeof(big));

	memcpy(big.d.gid, info.gid, sizeof(big.d.gid));
	big.d.len = page;
	succeeded("REGISTER with a larger struct, its tail 0",
		  ioctl(fd, cmd, &big));
	result(big.d.token && big.d.key && !big.tail,
	       "the result is there, the tail untouched");
	unreg(fd, big.d.token);
	big.d.token = 0;
	big.d.key = 0;
	big.d.mmap_offset = 0;
	big.d.attr = 0;
	big.tail = 1;
	refused("REGISTER with a larger struct, its tail not 0",
		ioctl(fd, cmd, &big), E2BIG);
	big.tail = 0;
	refused("REGISTER with a smaller struct",
		ioctl(fd, SIZED(ISM_USER_IOC_REGISTER, sizeof(big.d) - 8),
		      &big), EINVAL);
	refused("MOVE with a smaller struct",
		ioctl(fd, SIZED(ISM_USER_IOC_MOVE, 8), &big), EINVAL);
	refused("QUERY_PEER with a VLAN id but no VLAN flag",
		ioctl(fd, ISM_USER_IOC_QUERY_PEER,
		      &(struct ism_user_peer){ .vlan = 1 }), EINVAL);
}

/*
 * A MOVE is checked whole before its first byte moves: one past the
 * DMB's end, or from a source that faults after the first piece (the
 * kernel copies 64 KiB at a time), changes nothing.
 */
void test_move_whole(int fd)
{
	size_t len = 256 * KIB;
	struct ism_user_dmb d;
	char *p, *src;

	reg(fd, len, &d);
	p = map(fd, &d, len, 0);
	src = mmap(NULL, len + 64 * KIB, PROT_READ | PROT_WRITE,
		   MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (!p || src == MAP_FAILED) {
		result(0, "whole MOVEs: setup");
		return;
	}
	memset(p, 0x11, len);
	memset(src, 0x22, len + 64 * KIB);
	refused("MOVE of the DMB's length + 1 byte",
		move(fd, d.token, 0, src, len + 1, 0, 0), EINVAL);
	result(all_are(p, 0x11, len), "wrote nothing (not even its first 64 KiB)");
	munmap(src + 64 * KIB, 64 * KIB);
	refused("MOVE from a source that faults after 64 KiB",
		move(fd, d.token, 0, src, 128 * KIB, ISM_USER_MOVE_SIGNAL, 0),
		EFAULT);
	result(all_are(p, 0x11, len) &&
	       !events(fd, &(struct ism_user_event){ 0 }, 1),
	       "wrote and signalled nothing");
	munmap(src, 64 * KIB);
	munmap(src + 128 * KIB, len - 64 * KIB);
	munmap(p, len);
	unreg(fd, d.token);
}

/*
 * Run as another user: the DMBs behind @n tokens that smc_diag shows to
 * anyone (SMC-D's, a kernel client's) open to no ATTACH, MOVE or
 * SEND_EVENT, with no key or any; the refusals are alike (ENOENT) and
 * signal nothing.
 */
void test_attack(int n, char **tokens)
{
	/* A forged CDC header: producer cursor 8 ahead, and 8 bytes. */
	static const uint8_t forged[16] = { 0xfe, 0, 0, 44, 0, 0, 0, 1,
					    0, 0, 0, 8, 'm', 'a', 'l', 'o' };
	uint64_t keys[2] = { 0 }, token;
	struct ism_user_dmb a;
	char what[128];
	int fd = open_dev(), i, k;
	struct ism_user_info info = info_of(fd);

	if (getrandom(&keys[1], sizeof(keys[1]), 0) != sizeof(keys[1]))
		keys[1] = 0x5eed;
	for (i = 0; i < n; i++) {
		token = strtoull(tokens[i], NULL, 0);
		for (k = 0; k < 2; k++) {
			snprintf(what, sizeof(what),
				 "SEND_EVENT to %#llx, key %#llx",
				 (unsigned long long)token,
				 (unsigned long long)keys[k]);
			refused(what, send_event_key(fd, info.gid, token,
						     keys[k], 1, 0), ENOENT);
			snprintf(what, sizeof(what), "ATTACH %#llx, key %#llx",
				 (unsigned long long)token,
				 (unsigned long long)keys[k]);
			refused(what, attach_key(fd, token, keys[k], &a), ENOENT);
			snprintf(what, sizeof(what),
				 "MOVE a CDC header and a signal into %#llx, key %#llx",
				 (unsigned long long)token,
				 (unsigned long long)keys[k]);
			refused(what, move_key(fd, token, keys[k], 0, forged,
					       sizeof(forged),
					       ISM_USER_MOVE_SIGNAL, 0),
				ENOENT);
		}
	}
	close(fd);
}

/*
 * A software event goes to the file that registered its DMB, and to no
 * other file of the device, the sender's included; a key opens only its
 * own DMB's file.
 */
void test_event_addressed(int fd)
{
	struct ism_user_info info = info_of(fd);
	struct ism_user_event ev[4];
	struct ism_user_dmb d1, d2;
	int f1 = open_dev(), f2 = open_dev();

	reg(f1, page, &d1);
	reg(f2, page, &d2);
	succeeded("SEND_EVENT to a DMB of another file",
		  send_event(fd, info.gid, d1.token, 0x51, 0));
	result(events(f1, ev, 4) == 1 && ev[0].type == ISM_USER_EVENT_SOFTWARE &&
	       ev[0].code == 0x51 && ev[0].token == d1.token,
	       "the file of that DMB reads it");
	result(events(f2, ev, 4) == 0, "another file of the device does not");
	result(events(fd, ev, 4) == 0, "nor does the sender's");
	refused("SEND_EVENT to one DMB with another's key",
		send_event_key(fd, info.gid, d2.token, key_of(d1.token), 1, 0),
		ENOENT);
	result(events(f2, ev, 4) == 0, "... reaches nobody");
	unreg(f1, d1.token);
	refused("SEND_EVENT to an unregistered DMB",
		send_event(fd, info.gid, d1.token, 1, 0), ENOENT);
	close(f1);
	close(f2);
}

/*
 * Run as a user whose doorbells the administrator holds to one a second
 * (user_rings 1): software events to a DMB of her own until one is
 * refused, then a MOVE with a signal, refused whole, and one without,
 * which goes. Prints "COUNT ERRNO-NAME": the events that went, and why
 * no more. Then, for @hold seconds by the clock, an event every 10 ms,
 * each from a new file, and prints "held COUNT": those that went, which
 * only the user's rate lets through, whatever her files.
 */
void test_rings(int hold)
{
	struct ism_user_dmb d;
	int fd = open_dev(), n = 0, f;
	struct ism_user_info info = info_of(fd);
	struct timespec now, end;
	char *p;

	reg(fd, page, &d);
	p = map(fd, &d, page, 0);
	while (n < 1000 && !send_event(fd, info.gid, d.token, 1, 0))
		n++;
	printf("%d %s\n", n, errno == EAGAIN ? "EAGAIN" : strerror(errno));
	fflush(stdout);
	refused("MOVE with a signal past the rate",
		move(fd, d.token, 0, "x", 1, ISM_USER_MOVE_SIGNAL, 0), EAGAIN);
	result(p && !p[0], "... wrote nothing");
	succeeded("MOVE without a signal",
		  move(fd, d.token, 0, "x", 1, 0, 0));
	result(p && p[0] == 'x', "... wrote");
	close(fd);
	clock_gettime(CLOCK_MONOTONIC, &end);
	end.tv_sec += hold;
	for (n = 0; hold; usleep(10000)) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		if (now.tv_sec > end.tv_sec ||
		    (now.tv_sec == end.tv_sec && now.tv_nsec >= end.tv_nsec))
			break;
		f = open_dev();
		if (!reg(f, page, &d) && !send_event(f, info.gid, d.token, 1, 0))
			n++;
		close(f);
	}
	if (hold)
		printf("held %d\n", n);
}

/*
 * Run as a user who takes all she may: one-page DMBs, in as many files as
 * it takes, until the kernel refuses one for another reason than the
 * file's max_buffers. Prints "COUNT ERRNO-NAME", then holds them until
 * killed.
 */
void hog(void)
{
	struct ism_user_dmb d;
	int fd = open_dev(), n = 0;

	for (;;) {
		if (!reg(fd, page, &d)) {
			n++;
			continue;
		}
		if (errno != ENOBUFS)
			break;
		fd = open_dev();
	}
	printf("%d %s\n", n, errno == EDQUOT ? "EDQUOT" :
	       errno == ENOSPC ? "ENOSPC" : errno == ENOMEM ? "ENOMEM" :
	       strerror(errno));
	fflush(stdout);
	for (;;)
		pause();
}
