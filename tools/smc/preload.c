// SPDX-License-Identifier: GPL-2.0
/*
 * libsmc-preload.so: with LD_PRELOAD, TCP sockets become SMC sockets.
 *
 * socket(AF_INET or AF_INET6, SOCK_STREAM, 0 or IPPROTO_TCP) is turned
 * into socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC or SMCPROTO_SMC6), keeping
 * SOCK_NONBLOCK and SOCK_CLOEXEC. SMC takes the same sockaddr_in/_in6
 * addresses and falls back to TCP by itself when the peer does not speak
 * SMC. If the AF_SMC socket cannot be created (smc.ko missing), the
 * original call is made. SMC_RUN_DEBUG=1 logs every decision to stderr.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "../include/compiler.h"

#ifndef AF_SMC
#define AF_SMC		43
#endif
#define SMCPROTO_SMC	0	/* SMC over IPv4 */
#define SMCPROTO_SMC6	1	/* SMC over IPv6 */

typedef int (*socket_fn)(int domain, int type, int protocol);

static socket_fn real_socket;
static int debug = -1;

static void __printf(1, 2) smc_preload_log(const char *fmt, ...)
{
	char line[192];
	va_list ap;
	int n;

	n = snprintf(line, sizeof(line), "smc_run[%d]: ", (int)getpid());
	va_start(ap, fmt);
	n += vsnprintf(line + n, sizeof(line) - n, fmt, ap);
	va_end(ap);
	if (n > (int)sizeof(line) - 2)
		n = sizeof(line) - 2;
	line[n++] = '\n';
	/* write(2), not stdio: no locks, no buffers in the target process */
	if (write(STDERR_FILENO, line, n) < 0)
		return;
}

static const char *smc_preload_family(int domain)
{
	return domain == AF_INET ? "AF_INET" : "AF_INET6";
}

static int smc_preload_debug(void)
{
	int d = __atomic_load_n(&debug, __ATOMIC_RELAXED);

	if (d < 0) {
		const char *env = getenv("SMC_RUN_DEBUG");

		d = env && *env && strcmp(env, "0");
		__atomic_store_n(&debug, d, __ATOMIC_RELAXED);
	}
	return d;
}

static socket_fn smc_preload_real(void)
{
	socket_fn fn = __atomic_load_n(&real_socket, __ATOMIC_ACQUIRE);

	if (!fn) {
		fn = (socket_fn)dlsym(RTLD_NEXT, "socket");
		__atomic_store_n(&real_socket, fn, __ATOMIC_RELEASE);
	}
	return fn;
}

int socket(int domain, int type, int protocol)
{
	socket_fn real = smc_preload_real();
	int base = type & ~(SOCK_NONBLOCK | SOCK_CLOEXEC);
	int saved, fd;

	if (!real) {
		/* No socket() behind us to call: as if the family were absent. */
		errno = EAFNOSUPPORT;
		return -1;
	}
	if ((domain != AF_INET && domain != AF_INET6) || base != SOCK_STREAM ||
	    (protocol != 0 && protocol != IPPROTO_TCP))
		return real(domain, type, protocol);

	saved = errno;
	fd = real(AF_SMC, type,
		  domain == AF_INET ? SMCPROTO_SMC : SMCPROTO_SMC6);
	if (fd >= 0) {
		if (smc_preload_debug())
			smc_preload_log("%s(%s, 0x%x, %d) -> %s(AF_SMC, 0x%x, %s) = %d",
					__func__, smc_preload_family(domain), type,
					protocol, __func__, type,
					domain == AF_INET ? "SMCPROTO_SMC" :
							    "SMCPROTO_SMC6",
					fd);
		errno = saved;
		return fd;
	}
	if (smc_preload_debug())
		smc_preload_log("%s(AF_SMC) failed: %s; %s(%s, 0x%x, %d) unchanged",
				__func__, strerror(errno), __func__,
				smc_preload_family(domain),
				type, protocol);
	errno = saved;
	return real(domain, type, protocol);
}
