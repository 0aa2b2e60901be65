/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism_user_fuzz's model of what one worker process holds (files, buffers,
 * mappings) and the helpers that keep and check it
 * (ism_user_fuzz_state.c); the calls are in ism_user_fuzz.c.
 */
#ifndef ISM_USER_FUZZ_H
#define ISM_USER_FUZZ_H

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/wait.h>

#include "../../include/compiler.h"
#include "ism_user_calls.h"

#define WORKERS		3
#define FILES		4
#define BUFS		24
#define MAPS		16
#define MAX_PAGES	64

/*
 * An open file of device @dev, numbered @id, on the device whose GID is
 * @gid (a volatile device comes back with another); @fd -1: a free slot.
 */
struct file {
	int fd, dev;
	unsigned int id;
	uint32_t max_len;	/* the device's largest DMB, in whole pages */
	uint8_t gid[ISM_USER_GID_LEN];
};

/*
 * A DMB of file @id (REGISTER) or an attachment (@att). A file closed
 * while mapped stays open with its buffers, as any of its mappings holds
 * it: @f is then -1, and the buffers live until the file's last mapping
 * goes.
 */
struct buf {
	bool used, live, att;
	int f, dev;
	unsigned int id;
	uint8_t gid[ISM_USER_GID_LEN];
	uint64_t token, key, off;
	uint32_t len;
};

/* A mapping of buffer @b, @len bytes from @skip into it. */
struct map {
	char *p;
	size_t len, skip;
	int b;
};

extern const char *devs[2];
extern int ndevs;
extern long page;
extern unsigned long step, seed;
extern struct file files[FILES];
extern struct buf bufs[BUFS];
extern struct map maps[MAPS];
extern unsigned int file_ids;
extern int bad;

unsigned long rnd(unsigned long n);
bool chance(int percent);
__printf(1, 2) void fail(const char *fmt, ...);
bool expect_or(const char *call, int dev, long ret, int want, int also);
bool expect(const char *call, int dev, long ret, int want);
int gone_meanwhile(int o, int f);
int pick_file(void);
int pick_buf(void);
int free_buf(void);
bool mapped(int b, bool whole_file);
void forget_buf(int b);
bool same_dev(int b, int f);
int find_buf(int f, uint64_t token, bool att);
int owner_of(uint64_t token, int f);
uint64_t pick_token(int *b);
uint64_t pick_key(int b);

#endif /* ISM_USER_FUZZ_H */
