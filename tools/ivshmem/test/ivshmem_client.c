// SPDX-License-Identifier: GPL-2.0
/*
 * The client's side of QEMU's ivshmem server protocol: see
 * ivshmem_client.h.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>
#include <endian.h>
#include <sys/socket.h>
#include <sys/un.h>

#include "ivshmem_client.h"

/*
 * ivshmem_connect: a connection to the server at @path, tried for 2 s
 * (a server just started may not listen yet); -1 if none
 */
int ivshmem_connect(const char *path)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	int s, i;

	if (strlen(path) >= sizeof(sa.sun_path))
		return -1;
	strcpy(sa.sun_path, path);
	for (i = 0; i < 100; i++) {
		s = socket(AF_UNIX, SOCK_STREAM, 0);
		if (s < 0)
			return -1;
		if (!connect(s, (struct sockaddr *)&sa, sizeof(sa)))
			return s;
		close(s);
		usleep(20000);
	}
	return -1;
}

/*
 * ivshmem_recv: the next message within @timeout_ms: 1 and *val (and
 * *fd, or -1), 0 at the end of the connection, -1 on a timeout or a
 * malformed one
 */
int ivshmem_recv(int s, int64_t *val, int *fd, int timeout_ms)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} c;
	uint64_t le;
	struct iovec iov = { .iov_base = &le, .iov_len = sizeof(le) };
	struct msghdr msg = {
		.msg_iov = &iov, .msg_iovlen = 1,
		.msg_control = c.buf, .msg_controllen = sizeof(c.buf),
	};
	struct pollfd p = { .fd = s, .events = POLLIN };
	struct cmsghdr *cm;
	ssize_t r;

	*fd = -1;
	if (poll(&p, 1, timeout_ms) != 1)
		return -1;
	r = recvmsg(s, &msg, MSG_CMSG_CLOEXEC);
	/* A close with our bytes unread ends the connection with a reset. */
	if (r == 0 || (r < 0 && errno == ECONNRESET))
		return 0;
	if (r != sizeof(le))
		return -1;
	cm = CMSG_FIRSTHDR(&msg);
	if (cm && cm->cmsg_type == SCM_RIGHTS)
		memcpy(fd, CMSG_DATA(cm), sizeof(int));
	*val = (int64_t)le64toh(le);
	return 1;
}

/*
 * ivshmem_peers: join the server at @path as a QEMU would and collect,
 * for each peer its setup announces (this client too), the peer's ID in
 * @ids and the eventfd of its first interrupt vector in @fds, at most
 * @max of them: writing 1 to such an eventfd rings that guest's
 * doorbell. Return: how many, or -1 if no server answered. The
 * connection stays open, or the server would announce our departure
 * at once; it drops us once we leave its messages unread.
 */
int ivshmem_peers(const char *path, int64_t *ids, int *fds, int max)
{
	int s = ivshmem_connect(path), n = 0, fd;
	int64_t val;

	if (s < 0)
		return -1;
	/* The setup comes at once; 0.5 s of silence ends it. */
	while (ivshmem_recv(s, &val, &fd, 500) == 1) {
		if (fd < 0)
			continue;
		if (val < 0 || n == max || (n && ids[n - 1] == val)) {
			close(fd);
			continue;
		}
		ids[n] = val;
		fds[n++] = fd;
	}
	return n;
}
