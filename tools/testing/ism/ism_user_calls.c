// SPDX-License-Identifier: GPL-2.0
/* The calls of /dev/ism/NAME for the test programs: ism_user_calls.h. */
#include <errno.h>
#include <fcntl.h>
#include <setjmp.h>
#include <signal.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "../../include/compiler.h"
#include "ism_user_calls.h"

struct ism_user_info info_of(int fd)
{
	struct ism_user_info info = {};

	if (ioctl(fd, ISM_USER_IOC_INFO, &info))
		printf("# INFO: %s\n", strerror(errno));
	return info;
}

/*
 * The keys of the DMBs this process registered (and its parent, before
 * a fork) and has not unregistered, by token: what a peer would be given
 * with each token. A full table forgets its oldest entry.
 */
#define KEYS	1024
static struct { uint64_t token, key; } keys[KEYS];
static unsigned int next_key;

static int key_slot(uint64_t token)
{
	unsigned int i;

	for (i = 0; i < KEYS; i++)
		if (keys[i].token == token)
			return i;
	return -1;
}

uint64_t key_of(uint64_t token)
{
	int i = token ? key_slot(token) : -1;

	return i < 0 ? 0 : keys[i].key;
}

/* Register a DMB of @len for the peer @gid. */
int reg_for(int fd, uint32_t len, const uint8_t *gid, struct ism_user_dmb *d)
{
	int ret;

	memset(d, 0, sizeof(*d));
	d->len = len;
	memcpy(d->gid, gid, sizeof(d->gid));
	ret = ioctl(fd, ISM_USER_IOC_REGISTER, d);
	if (!ret) {
		int i = key_slot(0);

		if (i < 0)
			i = next_key++ % KEYS;
		keys[i].token = d->token;
		keys[i].key = d->key;
	}
	return ret;
}

/* Register a DMB of @len for the device's own GID (loopback). */
int reg(int fd, uint32_t len, struct ism_user_dmb *d)
{
	struct ism_user_info info = info_of(fd);

	return reg_for(fd, len, info.gid, d);
}

int attach_key(int fd, uint64_t token, uint64_t key, struct ism_user_dmb *d)
{
	memset(d, 0, sizeof(*d));
	d->token = token;
	d->key = key;
	return ioctl(fd, ISM_USER_IOC_ATTACH, d);
}

int attach(int fd, uint64_t token, struct ism_user_dmb *d)
{
	return attach_key(fd, token, key_of(token), d);
}

int unreg(int fd, uint64_t token)
{
	int ret = ioctl(fd, ISM_USER_IOC_UNREGISTER, &token);
	int i = ret || !token ? -1 : key_slot(token);

	if (i >= 0)
		keys[i].token = 0;
	return ret;
}

int detach(int fd, uint64_t token)
{
	return ioctl(fd, ISM_USER_IOC_DETACH, &token);
}

int move_key(int fd, uint64_t token, uint64_t key, uint32_t off,
	     const void *data, uint32_t size, uint32_t flags, uint32_t dmbe)
{
	struct ism_user_move m = {
		.token = token, .key = key, .data = (uintptr_t)data,
		.offset = off, .size = size, .flags = flags, .dmbe = dmbe,
	};

	return ioctl(fd, ISM_USER_IOC_MOVE, &m);
}

int move(int fd, uint64_t token, uint32_t off, const void *data,
	 uint32_t size, uint32_t flags, uint32_t dmbe)
{
	return move_key(fd, token, key_of(token), off, data, size, flags,
			dmbe);
}

int send_event_key(int fd, const uint8_t *gid, uint64_t token, uint64_t key,
		   uint32_t code, uint32_t flags)
{
	struct ism_user_sw_event e = { .token = token, .key = key,
				       .code = code, .flags = flags };

	memcpy(e.gid, gid, sizeof(e.gid));
	return ioctl(fd, ISM_USER_IOC_SEND_EVENT, &e);
}

int send_event(int fd, const uint8_t *gid, uint64_t token, uint32_t code,
	       uint32_t flags)
{
	return send_event_key(fd, gid, token, key_of(token), code, flags);
}

char *map(int fd, const struct ism_user_dmb *d, size_t len, off_t skip)
{
	void *p = mmap(NULL, len, PROT_READ | PROT_WRITE, MAP_SHARED, fd,
		       d->mmap_offset + skip);

	return p == MAP_FAILED ? NULL : p;
}

/* Events read without blocking into @ev (at most @max). Return: count. */
int events(int fd, struct ism_user_event *ev, int max)
{
	int fl = fcntl(fd, F_GETFL);
	ssize_t n;

	fcntl(fd, F_SETFL, fl | O_NONBLOCK);
	n = read(fd, ev, max * EV_SIZE);
	fcntl(fd, F_SETFL, fl);
	return n < 0 ? 0 : n / EV_SIZE;
}

static sigjmp_buf bus_jmp;

static void on_bus(int sig __maybe_unused)
{
	siglongjmp(bus_jmp, 1);
}

/* Whether reading (or writing) *@p raises SIGBUS. */
/* Runs @fn(@arg); whether it raised SIGBUS, which cut it short. */
static int sigbus_in(void (*fn)(void *arg), void *arg)
{
	struct sigaction sa = { .sa_handler = on_bus }, old;
	int bus = 0;

	sigaction(SIGBUS, &sa, &old);
	if (sigsetjmp(bus_jmp, 1))
		bus = 1;
	else
		fn(arg);
	sigaction(SIGBUS, &old, NULL);
	return bus;
}

static void load_byte(void *p)
{
	(void)__atomic_load_n((char *)p, __ATOMIC_RELAXED);
}

static void store_byte(void *p)
{
	__atomic_store_n((char *)p, 1, __ATOMIC_RELAXED);
}

int bus_error(char *p, int write)
{
	return sigbus_in(write ? store_byte : load_byte, p);
}

struct cmp {
	const void *p, *q;
	size_t n;
	int differ;
};

static void do_cmp(void *arg)
{
	struct cmp *c = arg;

	c->differ = !!memcmp(c->p, c->q, c->n);
}

int bus_memcmp(const void *p, const void *q, size_t n)
{
	struct cmp c = { .p = p, .q = q, .n = n };

	return sigbus_in(do_cmp, &c) ? -1 : c.differ;
}
