// SPDX-License-Identifier: GPL-2.0
/*
 * "READY=1" to $NOTIFY_SOCKET, as systemd's sd_notify(3) protocol has it,
 * without linking libsystemd: the server is ready once its socket listens
 * (ism-ivshmem-server@.service is Type=notify, so that units ordered
 * after it find the socket). Outside systemd there is no such variable
 * and nothing is sent.
 */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "sd_notify.h"

void sd_ready(void)
{
	static const char msg[] = "READY=1";
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	const char *path = getenv("NOTIFY_SOCKET");
	size_t n;
	int s;

	if (!path || (path[0] != '/' && path[0] != '@'))
		return;
	n = strlen(path);
	if (n >= sizeof(sa.sun_path))
		return;
	memcpy(sa.sun_path, path, n);
	/* '@': an abstract socket, whose name starts with a NUL byte */
	if (path[0] == '@')
		sa.sun_path[0] = '\0';
	s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return;
	sendto(s, msg, sizeof(msg) - 1, MSG_NOSIGNAL, (struct sockaddr *)&sa,
	       offsetof(struct sockaddr_un, sun_path) + n);
	close(s);
}
