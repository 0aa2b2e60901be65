// SPDX-License-Identifier: GPL-2.0
/*
 * A region's file lives in /dev/shm, a sticky, world-writable directory,
 * and is given to the user of libvirt's QEMU. There, with
 * fs.protected_regular set (Debian: 2), an open with O_CREAT of a file
 * that neither the caller nor the directory's owner owns fails with
 * EACCES, for root too: a restarted server would find its own file
 * closed to it. So the file is opened as it is, and created only when
 * absent.
 */
#include <errno.h>
#include <fcntl.h>

#include "shm_file.h"

/* shm_file_open: PATH read-write, created with MODE if absent; fd or -1 */
int shm_file_open(const char *path, mode_t mode)
{
	int fd, tries;

	/* Created or removed by another between the two opens: once more. */
	for (tries = 0; tries < 2; tries++) {
		fd = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW);
		if (fd >= 0 || errno != ENOENT)
			return fd;
		fd = open(path, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC | O_NOFOLLOW,
			  mode);
		if (fd >= 0 || errno != EEXIST)
			return fd;
	}
	return -1;
}
