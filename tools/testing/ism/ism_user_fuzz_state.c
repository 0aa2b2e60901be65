// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user_fuzz: what a worker holds and what its calls may return (see
 * ism_user_fuzz.h).
 */
#define _GNU_SOURCE
#include "ism_user_fuzz.h"

const char *devs[2];
int ndevs;
long page;
unsigned long step, seed;
struct file files[FILES];
struct buf bufs[BUFS];
struct map maps[MAPS];
unsigned int file_ids;
int bad;

unsigned long rnd(unsigned long n)
{
	return n ? (unsigned long)random() % n : 0;
}

bool chance(int percent)
{
	return rnd(100) < (unsigned long)percent;
}

void fail(const char *fmt, ...)
{
	va_list ap;

	printf("# seed %lu step %lu pid %d: ", seed, step, getpid());
	va_start(ap, fmt);
	vprintf(fmt, ap);
	va_end(ap);
	putchar('\n');
	fflush(stdout);
	bad = 1;
}

/*
 * @ret of @call (-1 and errno on failure) must be @want: 0 for success,
 * else that errno, or @also (0: nothing else). On the volatile device
 * -ENODEV is allowed too. Return: whether the call succeeded.
 */
bool expect_or(const char *call, int dev, long ret, int want, int also)
{
	int err = ret < 0 ? errno : 0;

	if (err == want || (also && err == also) ||
	    (dev == 1 && err == ENODEV))
		return !err;
	fail("%s on %s: %s, wanted %s", call, devs[dev],
	     err ? strerror(err) : "success", want ? strerror(want) : "success");
	return !err;
}

bool expect(const char *call, int dev, long ret, int want)
{
	return expect_or(call, dev, ret, want, 0);
}

/* Removal revokes a device's files one by one: another file's DMB may be
 * gone (-ENOENT) before this file is revoked.
 */
int gone_meanwhile(int o, int f)
{
	return o >= 0 && bufs[o].dev == 1 && bufs[o].id != files[f].id ?
	       ENOENT : 0;
}

int pick_file(void)
{
	int i = rnd(FILES);

	return files[i].fd >= 0 ? i : -1;
}

int pick_buf(void)
{
	int i = rnd(BUFS);

	return bufs[i].used ? i : -1;
}

int free_buf(void)
{
	int i;

	for (i = 0; i < BUFS; i++)
		if (!bufs[i].used)
			return i;
	return -1;
}

/* Whether a mapping holds buffer @b (@whole_file: any of its file's). */
bool mapped(int b, bool whole_file)
{
	int i;

	for (i = 0; i < MAPS; i++)
		if (maps[i].p && (maps[i].b == b ||
				  (whole_file && bufs[maps[i].b].id == bufs[b].id)))
			return true;
	return false;
}

/*
 * Forget what is gone: a released buffer without mappings; all buffers
 * of a closed file once none of them is mapped (the file is released).
 */
void forget_buf(int b)
{
	int i;

	if (!bufs[b].used)
		return;
	if (bufs[b].f >= 0) {
		bufs[b].used = bufs[b].live || mapped(b, false);
		return;
	}
	if (mapped(b, true))
		return;
	for (i = 0; i < BUFS; i++)
		if (bufs[i].id == bufs[b].id && bufs[i].f < 0)
			bufs[i].used = false;
}

/* Whether buffer @b is on the device file @f is of (the same GID). */
bool same_dev(int b, int f)
{
	return bufs[b].dev == files[f].dev &&
	       !memcmp(bufs[b].gid, files[f].gid, ISM_USER_GID_LEN);
}

/* The buffer of file @f with @token, an attachment or not, if live. */
int find_buf(int f, uint64_t token, bool att)
{
	int i;

	for (i = 0; i < BUFS; i++)
		if (bufs[i].used && bufs[i].live && bufs[i].f == f &&
		    bufs[i].token == token && bufs[i].att == att)
			return i;
	return -1;
}

/* The DMB of @token, registered and live, on file @f's device. */
int owner_of(uint64_t token, int f)
{
	int i;

	for (i = 0; i < BUFS; i++)
		if (bufs[i].used && bufs[i].live && !bufs[i].att &&
		    bufs[i].token == token && same_dev(i, f))
			return i;
	return -1;
}

/* A token: mostly one this process knows, else a random one. */
uint64_t pick_token(int *b)
{
	*b = chance(80) ? pick_buf() : -1;
	return *b >= 0 ? bufs[*b].token : ((uint64_t)random() << 32) | random();
}

/* The key of buffer @b (-1: none), one bit off at times. */
uint64_t pick_key(int b)
{
	uint64_t key = b >= 0 ? bufs[b].key : 0;

	return chance(10) ? key ^ 1ULL << rnd(64) : key;
}
