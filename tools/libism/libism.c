// SPDX-License-Identifier: LGPL-2.1-or-later
/*
 * libism: the device calls, each a thin layer over one ioctl of
 * <linux/ism_user.h> plus the mmap() a buffer needs. See libism(3).
 */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/ioctl.h>
#include <sys/mman.h>

#include "libism.h"

struct ism {
	int fd;
};

/* -errno of the call that just failed */
static int fail(void)
{
	return errno ? -errno : -EIO;
}

int ism_open(const char *dev, struct ism **ismp)
{
	char path[64];
	struct ism *ism;

	if (!dev || !*dev || !ismp)
		return -EINVAL;
	if (strchr(dev, '/'))
		snprintf(path, sizeof(path), "%s", dev);
	else if (snprintf(path, sizeof(path), "/dev/ism/%s", dev) >=
		 (int)sizeof(path))
		return -ENAMETOOLONG;
	ism = calloc(1, sizeof(*ism));
	if (!ism)
		return -ENOMEM;
	ism->fd = open(path, O_RDWR | O_CLOEXEC);
	if (ism->fd < 0) {
		int err = fail();

		free(ism);
		return err;
	}
	*ismp = ism;
	return 0;
}

void ism_close(struct ism *ism)
{
	if (ism) {
		close(ism->fd);
		free(ism);
	}
}

int ism_fd(const struct ism *ism)
{
	return ism->fd;
}

int ism_info(struct ism *ism, struct ism_user_info *info)
{
	return ioctl(ism->fd, ISM_USER_IOC_INFO, info) ? fail() : 0;
}

int ism_query_peer(struct ism *ism, const uint8_t gid[ISM_GID_LEN])
{
	struct ism_user_peer peer = { 0 };

	memcpy(peer.gid, gid, ISM_GID_LEN);
	return ioctl(ism->fd, ISM_USER_IOC_QUERY_PEER, &peer) ? fail() : 0;
}

/* Maps what the kernel returned in @d, if it can be mapped. */
static int ism_map(struct ism *ism, const struct ism_user_dmb *d,
		   struct ism_buf *buf, unsigned long release)
{
	void *addr = NULL;

	if (d->attr & ISM_USER_DMB_MMAP) {
		addr = mmap(NULL, d->len, PROT_READ | PROT_WRITE, MAP_SHARED,
			    ism->fd, d->mmap_offset);
		if (addr == MAP_FAILED) {
			int err = fail();
			uint64_t token = d->token;

			ioctl(ism->fd, release, &token);
			return err;
		}
	}
	buf->token = d->token;
	buf->key = d->key;
	buf->addr = addr;
	buf->len = d->len;
	buf->attached = release == ISM_USER_IOC_DETACH;
	return 0;
}

int ism_register(struct ism *ism, size_t len, const uint8_t peer[ISM_GID_LEN],
		 struct ism_buf *buf)
{
	struct ism_user_dmb d = { 0 };

	if (len > UINT32_MAX)
		return -EINVAL;
	d.len = len;
	memcpy(d.gid, peer, ISM_GID_LEN);
	if (ioctl(ism->fd, ISM_USER_IOC_REGISTER, &d))
		return fail();
	return ism_map(ism, &d, buf, ISM_USER_IOC_UNREGISTER);
}

int ism_attach(struct ism *ism, uint64_t token, uint64_t key,
	       struct ism_buf *buf)
{
	struct ism_user_dmb d = { .token = token, .key = key };

	if (ioctl(ism->fd, ISM_USER_IOC_ATTACH, &d))
		return fail();
	return ism_map(ism, &d, buf, ISM_USER_IOC_DETACH);
}

int ism_release(struct ism *ism, struct ism_buf *buf)
{
	uint64_t token = buf->token;

	if (buf->addr)
		munmap(buf->addr, buf->len);
	buf->addr = NULL;
	if (ioctl(ism->fd, buf->attached ? ISM_USER_IOC_DETACH :
		  ISM_USER_IOC_UNREGISTER, &token))
		return fail();
	return 0;
}

int ism_write(struct ism *ism, uint64_t token, uint64_t key, uint32_t offset,
	      const void *data, uint32_t len, int dmbe)
{
	struct ism_user_move m = {
		.token = token,
		.key = key,
		.data = (uintptr_t)data,
		.offset = offset,
		.size = len,
		.flags = dmbe >= 0 ? ISM_USER_MOVE_SIGNAL : 0,
		.dmbe = dmbe >= 0 ? dmbe : 0,
	};

	return ioctl(ism->fd, ISM_USER_IOC_MOVE, &m) ? fail() : 0;
}

int ism_signal(struct ism *ism, uint64_t token, uint64_t key,
	       unsigned int dmbe)
{
	if (dmbe > 15)
		return -EINVAL;
	return ism_write(ism, token, key, 0, NULL, 0, dmbe);
}

int ism_send_event(struct ism *ism, const uint8_t gid[ISM_GID_LEN],
		   uint64_t token, uint64_t key, uint16_t code)
{
	struct ism_user_sw_event e = { .token = token, .key = key,
				       .code = code };

	memcpy(e.gid, gid, ISM_GID_LEN);
	return ioctl(ism->fd, ISM_USER_IOC_SEND_EVENT, &e) ? fail() : 0;
}

int ism_wait(struct ism *ism, struct ism_user_event *ev, int max,
	     int timeout_ms)
{
	struct pollfd pfd = { .fd = ism->fd, .events = POLLIN };
	ssize_t n;
	int ret;

	if (max < 1)
		return -EINVAL;
	ret = poll(&pfd, 1, timeout_ms);
	if (ret <= 0)
		return ret ? fail() : 0;
	n = read(ism->fd, ev, max * sizeof(*ev));
	if (n < 0)
		return errno == EAGAIN ? 0 : fail();
	/* End of file: DEVICE_GONE was read; 0 would read as a time-out. */
	if (!n)
		return -ENODEV;
	return n / sizeof(*ev);
}

void ism_gid_format(const uint8_t gid[ISM_GID_LEN], char out[ISM_GID_STRLEN])
{
	char *p = out;
	int i;

	for (i = 0; i < ISM_GID_LEN; i++) {
		p += sprintf(p, "%02x", gid[i]);
		if (i == 3 || i == 5 || i == 7 || i == 9)
			*p++ = '-';
	}
	*p = '\0';
}

int ism_gid_parse(const char *s, uint8_t gid[ISM_GID_LEN])
{
	uint8_t g[ISM_GID_LEN];
	unsigned int v;
	int i;

	if (!s || strlen(s) != ISM_GID_STRLEN - 1)
		return -EINVAL;
	for (i = 0; i < ISM_GID_LEN; i++) {
		if (*s == '-' && (i == 4 || i == 6 || i == 8 || i == 10))
			s++;
		if (!strchr("0123456789abcdefABCDEF", s[0]) || !s[0] ||
		    !strchr("0123456789abcdefABCDEF", s[1]) || !s[1] ||
		    sscanf(s, "%2x", &v) != 1)
			return -EINVAL;
		g[i] = v;
		s += 2;
	}
	if (*s)
		return -EINVAL;
	memcpy(gid, g, ISM_GID_LEN);
	return 0;
}
