// SPDX-License-Identifier: GPL-2.0
/*
 * smc_xfer: options and help.
 */
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "xfer.h"

static const char help[] =
"NAME\n"
"    smc_xfer - move data over SMC sockets and check its integrity\n"
"\n"
"SYNOPSIS\n"
"    smc_xfer server [-6] [-T] [-a ADDR] [-p PORT] [-n CONNS] [-t SECS] [-v]\n"
"                    [--close-at-once] [--splice]\n"
"    smc_xfer client [-6] [-T] -a ADDR [-p PORT] [-b BYTES] [-c CONNS]\n"
"                    [--bidir] [--abort-after BYTES] [--hold SECS]\n"
"                    [-s SEED] [-t SECS] [-w SECS] [-v] [--close-at-once]\n"
"                    [--splice]\n"
"    smc_xfer -h | --help\n"
"\n"
"DESCRIPTION\n"
"    The client opens CONNS concurrent connections (a thread each) with\n"
"    socket(AF_SMC, SOCK_STREAM, SMCPROTO_SMC or SMCPROTO_SMC6) and sends\n"
"    BYTES bytes on each, in writes of random size (1 B to 256 KiB,\n"
"    log-uniform); with --bidir the server sends BYTES back at the same\n"
"    time. The data is a pseudo-random stream derived from SEED, the\n"
"    connection number and the direction, so every receiver checks every\n"
"    byte (reading in random sizes as well) and keeps a running checksum\n"
"    (FNV-1a 64 over the stream's 64-bit little-endian words); each\n"
"    sender ends its stream with its byte count and checksum, and each\n"
"    receiver answers with its verdict. A connection is\n"
"    ok only if both directions arrived complete, unaltered and with\n"
"    matching checksums.\n"
"\n"
"    The server serves CONNS connections (a thread each) and exits, or\n"
"    serves forever with -n 0. It prints 'smc_xfer: server listening on\n"
"    ADDR port PORT' once it accepts connections. SEED, sizes and the\n"
"    hold time come from the client.\n"
"\n"
"    Both print a line per connection when it fails, with -v, --hold or\n"
"    --abort-after, and end with a summary line:\n"
"      smc_xfer: ROLE conns=N ok=N failed=N ended=N bytes=N secs=S MB/s=R\n"
"    bytes counts payload in both directions, secs runs from the first\n"
"    connect to the end of the last transfer (without the hold), and\n"
"    MB/s is 10^6 bytes per second. ended counts connections whose data\n"
"    was fine but which did not survive the hold. With --hold, both also\n"
"    print 'smc_xfer: ROLE conn N: holding' as each connection's hold\n"
"    begins, at once (a test can remove a device once all hold).\n"
"\n"
"OPTIONS\n"
"    -6                IPv6 (SMCPROTO_SMC6); default IPv4\n"
"    -T, --tcp         plain TCP sockets instead of AF_SMC, for comparison\n"
"    -a, --addr ADDR   client: numeric address to connect to; server:\n"
"                      address to listen on (default: any)\n"
"    -p, --port PORT   port (default 12345; server: 0 picks a free one)\n"
"    -n, --conns CONNS server: connections to serve before exiting\n"
"                      (default 1; 0 = forever)\n"
"    -c, --conns CONNS client: concurrent connections (default 1)\n"
"    -b, --bytes BYTES bytes per connection and direction (default 16M;\n"
"                      suffixes K, M, G are powers of 1024)\n"
"    -B, --bidir       the server sends BYTES to the client as well\n"
"    -A, --abort-after BYTES\n"
"                      send only BYTES, then close at once with SO_LINGER\n"
"                      0 without reading anything; the server, told in\n"
"                      advance, accepts the short stream if what arrived\n"
"                      is intact\n"
"    -H, --hold SECS   after the transfer keep each connection open and\n"
"                      idle for SECS seconds (the client: or until it gets\n"
"                      SIGUSR1), then check it with a ping;\n"
"                      both sides report how each connection ended (for\n"
"                      device-removal tests)\n"
"    -s, --seed SEED   seed of the data and the write sizes (default 1)\n"
"    -t, --timeout SECS\n"
"                      give up on a connection that does not move for\n"
"                      SECS seconds (default 60)\n"
"    -w, --wait-server SECS\n"
"                      client: while a connect is refused, try again\n"
"                      for up to SECS seconds (default 0), each\n"
"                      connection on its own, so a server that starts\n"
"                      late still gets exactly CONNS connections\n"
"    -v, --verbose     a line for every connection\n"
"    --close-at-once   close a connection that ended early at once;\n"
"                      by default it is closed only once the kernel has\n"
"                      finished ending it (at most 10 s), because Linux\n"
"                      6.1's SMC leaks a socket closed while its link\n"
"                      group is being terminated (device removal)\n"
"    --splice          receive with splice() into a pipe, then read the\n"
"                      pipe: SMC's zero-copy receive path, which hands\n"
"                      the receive buffer's pages to the pipe\n"
"    -h, --help        show this text\n"
"\n"
"EXIT STATUS\n"
"    0  every connection transferred its data intact (and survived the\n"
"       hold)\n"
"    1  a connection failed: lost, altered or short data, checksum\n"
"       mismatch, connect or socket errors\n"
"    2  usage error, or no listening socket\n"
"    3  the data was intact, but a connection ended during --hold\n"
"\n"
"EXAMPLES\n"
"    smc_xfer server -n 4 &\n"
"    smc_xfer client -a 127.0.0.1 -c 4 -b 64M --bidir\n"
"    smc_xfer server -6 -p 5000 &\n"
"    smc_xfer client -6 -a ::1 -p 5000 --abort-after 100000\n"
"    smc_xfer client -a 10.0.0.2 -c 8 -b 1M --hold 30   # remove a device\n";

static int parse_u64(const char *s, uint64_t *v, int suffix)
{
	char *end;
	unsigned long long x;

	if (!*s || *s == '-')
		return -1;
	x = strtoull(s, &end, 0);
	if (suffix && *end) {
		const char *sfx = "KMG";
		const char *p = strchr(sfx, *end == 'k' ? 'K' : *end);

		if (!p || !*p || end[1])
			return -1;
		x <<= 10 * (p - sfx + 1);
		end++;
	}
	if (*end)
		return -1;
	*v = x;
	return 0;
}

static int parse_opts(int argc, char **argv, struct xfer_opts *o)
{
	static const struct option longopts[] = {
		{ "tcp", no_argument, NULL, 'T' },
		{ "addr", required_argument, NULL, 'a' },
		{ "port", required_argument, NULL, 'p' },
		{ "conns", required_argument, NULL, 'n' },
		{ "bytes", required_argument, NULL, 'b' },
		{ "bidir", no_argument, NULL, 'B' },
		{ "abort-after", required_argument, NULL, 'A' },
		{ "hold", required_argument, NULL, 'H' },
		{ "seed", required_argument, NULL, 's' },
		{ "timeout", required_argument, NULL, 't' },
		{ "wait-server", required_argument, NULL, 'w' },
		{ "verbose", no_argument, NULL, 'v' },
		{ "close-at-once", no_argument, NULL, 'C' },
		{ "splice", no_argument, NULL, 'S' },
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	uint64_t v;
	int c;

	while ((c = getopt_long(argc, argv, "6Ta:p:n:c:b:BA:H:s:t:w:vh",
				longopts, NULL)) != -1) {
		switch (c) {
		case '6':
			o->v6 = 1;
			break;
		case 'T':
			o->tcp = 1;
			break;
		case 'a':
			o->addr = optarg;
			break;
		case 'p':
			if (parse_u64(optarg, &v, 0) || v > 65535)
				return -1;
			o->port = v;
			break;
		case 'n':
		case 'c':
			if (parse_u64(optarg, &v, 0) || v > 4096)
				return -1;
			o->conns = v;
			break;
		case 'b':
			if (parse_u64(optarg, &o->bytes, 1))
				return -1;
			break;
		case 'B':
			o->bidir = 1;
			break;
		case 'A':
			if (parse_u64(optarg, &o->abort_after, 1) ||
			    !o->abort_after)
				return -1;
			break;
		case 'H':
			if (parse_u64(optarg, &v, 0) || v > 86400)
				return -1;
			o->hold_s = v;
			break;
		case 's':
			if (parse_u64(optarg, &o->seed, 0))
				return -1;
			break;
		case 't':
			if (parse_u64(optarg, &v, 0) || !v || v > 86400)
				return -1;
			o->timeout_s = v;
			break;
		case 'w':
			if (parse_u64(optarg, &v, 0) || v > 86400)
				return -1;
			o->wait_server_s = v;
			break;
		case 'v':
			o->verbose = 1;
			break;
		case 'C':
			o->close_at_once = 1;
			break;
		case 'S':
			o->splice = 1;
			break;
		case 'h':
			fputs(help, stdout);
			exit(0);
		default:
			return -1;
		}
	}
	if (optind != argc - 1)
		return -1;
	if (!strcmp(argv[optind], "server"))
		o->server = 1;
	else if (strcmp(argv[optind], "client"))
		return -1;
	return 0;
}

int main(int argc, char **argv)
{
	struct xfer_opts o = {
		.port = 12345,
		.conns = 1,
		.bytes = 16 << 20,
		.seed = 1,
		.timeout_s = 60,
	};

	if (parse_opts(argc, argv, &o)) {
		fprintf(stderr, "smc_xfer: bad usage; try 'smc_xfer --help'\n");
		return XFER_EXIT_USAGE;
	}
	if (!o.server && !o.conns) {
		fprintf(stderr, "smc_xfer: the client needs at least one connection\n");
		return XFER_EXIT_USAGE;
	}
	if (o.abort_after && o.hold_s) {
		fprintf(stderr, "smc_xfer: --abort-after and --hold exclude each other\n");
		return XFER_EXIT_USAGE;
	}
	signal(SIGPIPE, SIG_IGN);
	return o.server ? xfer_server(&o) : xfer_client(&o);
}
