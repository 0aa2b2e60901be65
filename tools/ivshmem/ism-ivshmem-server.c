// SPDX-License-Identifier: GPL-2.0
/*
 * ism-ivshmem-server: the server of QEMU's ivshmem-doorbell device
 * (docs/specs/ivshmem-spec.txt of QEMU: "The ivshmem Client-Server
 * Protocol"), written from that specification. Debian ships no such
 * server. Each QEMU that connects gets the shared memory's file
 * descriptor, an ID, one eventfd per interrupt vector for itself and those
 * of every other connected QEMU; joins and departures are announced to
 * all. See ism-ivshmem-server.8.
 *
 * One thread, one poll() loop. Clients never write to the server: one
 * that writes anything is dropped. A send waits at most SEND_TIMEOUT_S
 * for a client to make room (a new peer's setup is hundreds of messages
 * with many peers and vectors, more than a socket buffer holds); one
 * that does not read by then is dropped, so a stuck QEMU holds the
 * others up for that long at most.
 *
 * IDs are handed out in turn, 0 to 65535, skipping those in use: an ID
 * comes back only after all the others. QEMU (7.2 at least) frees its
 * table of a departed peer's eventfds but keeps the pointer, and writes
 * through it when a peer with the same ID joins: an ID given again soon
 * corrupts the heap of every QEMU that saw it leave.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <grp.h>
#include <poll.h>
#include <pwd.h>
#include <signal.h>
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <sys/eventfd.h>
#include <sys/resource.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <endian.h>

#include "sd_notify.h"
#include "shm_file.h"

#define MAX_VECTORS	64
/* IDs are 16 bits: the doorbell register's peer field */
#define MAX_IDS		65536
#define SEND_TIMEOUT_S	1

struct peer {
	int sock;		/* -1: the slot is free */
	int dead;		/* a send failed: drop at the next sweep */
	unsigned int id;
	int efd[MAX_VECTORS];
};

static struct {
	const char *sock_path;
	const char *shm_path;
	unsigned long long shm_size;
	unsigned int vectors;
	unsigned int max_peers;
	uid_t sock_uid;		/* -1: leave */
	gid_t sock_gid;		/* -1: leave */
	mode_t sock_mode;
	int verbose;
} opt = {
	.sock_path = "/tmp/ivshmem_socket",
	.shm_path = "/dev/shm/ivshmem",
	.shm_size = 4 << 20,
	.vectors = 1,
	.max_peers = 16,
	.sock_uid = (uid_t)-1,
	.sock_gid = (gid_t)-1,
	.sock_mode = 0600,
};

static struct peer *peers;	/* opt.max_peers slots */
static unsigned char id_used[MAX_IDS / 8];
static unsigned int next_id;
static int shm_fd = -1;

static void say(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	fputs("ism-ivshmem-server: ", stderr);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
}

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: ism-ivshmem-server [-v] [-S SOCKET] [-m FILE] [-l SIZE] [-n VECTORS]\n"
		"                          [-p PEERS] [-o USER[:GROUP]] [-M MODE]\n"
		"Serve QEMU's ivshmem-doorbell devices: shared memory FILE and eventfds.\n"
		"  -S SOCKET   UNIX socket to listen on (default /tmp/ivshmem_socket)\n"
		"  -m FILE     shared memory file, created if missing, grown to SIZE\n"
		"              (default /dev/shm/ivshmem)\n"
		"  -l SIZE     bytes, a power of two of at least 4096; K, M, G suffixes\n"
		"              (default 4M)\n"
		"  -n VECTORS  interrupt vectors per peer, 1 to %d (default 1)\n"
		"  -p PEERS    peers at most, 1 to %d (default 16); IDs are given in\n"
		"              turn from 0 to %d, those in use skipped\n"
		"  -o USER[:GROUP]  owner of SOCKET (names or numbers; :GROUP alone\n"
		"              sets the group only)\n"
		"  -M MODE     permissions of SOCKET, octal (default 0600); QEMU\n"
		"              needs write permission to connect\n"
		"  -v          log every connection and departure\n"
		"  -h, --help  this text\n"
		"Runs in the foreground until SIGINT or SIGTERM.\n",
		MAX_VECTORS, MAX_IDS, MAX_IDS - 1);
}

/* parse_size: "4096", "64K", "4M", "1G" */
static int parse_size(const char *s, unsigned long long *size)
{
	unsigned long long v;
	char *end;

	errno = 0;
	v = strtoull(s, &end, 10);
	if (errno || end == s)
		return -1;
	switch (*end) {
	case 'G':
		v <<= 10;
		/* fall through */
	case 'M':
		v <<= 10;
		/* fall through */
	case 'K':
		v <<= 10;
		end++;
	}
	if (*end || v < 4096 || v > (1ULL << 40) || (v & (v - 1)))
		return -1;
	*size = v;
	return 0;
}

static int parse_uint(const char *s, unsigned int max, unsigned int *v)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || n < 1 || n > max)
		return -1;
	*v = n;
	return 0;
}

/*
 * send_msg: one message, an 8-byte little-endian number and maybe a file
 * descriptor; fails if the client has not made room within the socket's
 * send timeout.
 */
static int send_msg(int sock, int64_t val, int fd)
{
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} c;
	int64_t le = (int64_t)htole64((uint64_t)val);
	struct iovec iov = { .iov_base = &le, .iov_len = sizeof(le) };
	struct msghdr msg = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *cm;

	if (fd >= 0) {
		memset(&c, 0, sizeof(c));
		msg.msg_control = c.buf;
		msg.msg_controllen = sizeof(c.buf);
		cm = CMSG_FIRSTHDR(&msg);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
	}
	return sendmsg(sock, &msg, MSG_NOSIGNAL) ==
	       (ssize_t)sizeof(le) ? 0 : -1;
}

/* announce: tell @to that @p joined (with its eventfds) */
static int announce(const struct peer *to, const struct peer *p)
{
	unsigned int v;

	for (v = 0; v < opt.vectors; v++)
		if (send_msg(to->sock, p->id, p->efd[v]))
			return -1;
	return 0;
}

static void close_peer(struct peer *p)
{
	unsigned int v;

	id_used[p->id / 8] &= ~(1 << p->id % 8);
	close(p->sock);
	for (v = 0; v < opt.vectors; v++)
		close(p->efd[v]);
	p->sock = -1;
	p->dead = 0;
}

/*
 * sweep: drop every peer marked dead and tell the others it left; a
 * peer that cannot be told is dropped in turn.
 */
static void sweep(void)
{
	unsigned int i, to, id;
	int again = 1;

	while (again) {
		again = 0;
		for (i = 0; i < opt.max_peers; i++) {
			if (peers[i].sock < 0 || !peers[i].dead)
				continue;
			id = peers[i].id;
			close_peer(&peers[i]);
			if (opt.verbose)
				say("peer %u left", id);
			for (to = 0; to < opt.max_peers; to++) {
				if (peers[to].sock < 0 || peers[to].dead)
					continue;
				if (send_msg(peers[to].sock, id, -1)) {
					peers[to].dead = 1;
					again = 1;
				}
			}
		}
	}
}

/* welcome: the messages of a new peer's connection, in the spec's order */
static int welcome(struct peer *p)
{
	unsigned int other;

	if (send_msg(p->sock, 0, -1) || send_msg(p->sock, p->id, -1) ||
	    send_msg(p->sock, -1, shm_fd))
		return -1;
	for (other = 0; other < opt.max_peers; other++)
		if (&peers[other] != p && peers[other].sock >= 0 &&
		    !peers[other].dead && announce(p, &peers[other]))
			return -1;
	return announce(p, p);
}

/* take_id: the next ID in turn that no peer has; there is one */
static unsigned int take_id(void)
{
	unsigned int id = next_id;

	while (id_used[id / 8] & 1 << id % 8)
		id = (id + 1) % MAX_IDS;
	id_used[id / 8] |= 1 << id % 8;
	next_id = (id + 1) % MAX_IDS;
	return id;
}

static void accept_peer(int lsock)
{
	struct timeval tmo = { .tv_sec = SEND_TIMEOUT_S };
	unsigned int i, v, other;
	struct peer *p;
	int sock;

	sock = accept4(lsock, NULL, NULL, SOCK_CLOEXEC);
	if (sock < 0)
		return;
	if (setsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tmo, sizeof(tmo))) {
		close(sock);
		return;
	}
	for (i = 0; i < opt.max_peers && peers[i].sock >= 0; i++)
		;
	if (i == opt.max_peers) {
		say("refused a connection: %u peers already", opt.max_peers);
		close(sock);
		return;
	}
	p = &peers[i];
	for (v = 0; v < opt.vectors; v++) {
		p->efd[v] = eventfd(0, EFD_CLOEXEC | EFD_NONBLOCK);
		if (p->efd[v] < 0) {
			say("eventfd: %s", strerror(errno));
			while (v--)
				close(p->efd[v]);
			close(sock);
			return;
		}
	}
	p->sock = sock;
	p->id = take_id();
	if (welcome(p)) {
		say("peer %u: could not be sent its setup", p->id);
		close_peer(p);
		return;
	}
	if (opt.verbose)
		say("peer %u joined", p->id);
	for (other = 0; other < opt.max_peers; other++)
		if (other != i && peers[other].sock >= 0 &&
		    !peers[other].dead && announce(&peers[other], p))
			peers[other].dead = 1;
	sweep();
}

static int open_shm(void)
{
	struct stat st;
	int fd;

	fd = shm_file_open(opt.shm_path, 0600);
	if (fd < 0 || fstat(fd, &st)) {
		say("%s: %s", opt.shm_path, strerror(errno));
		return -1;
	}
	/* Grown, never cut: the file may hold a region in use. */
	if ((unsigned long long)st.st_size < opt.shm_size &&
	    ftruncate(fd, opt.shm_size)) {
		say("%s: %s", opt.shm_path, strerror(errno));
		return -1;
	}
	return fd;
}

/*
 * fd_room: every peer's eventfds must fit under the open-file limit,
 * raised to its hard maximum: refuse at start, not at the Nth peer.
 */
static int fd_room(void)
{
	unsigned long long need;
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl))
		return -1;
	rl.rlim_cur = rl.rlim_max;
	setrlimit(RLIMIT_NOFILE, &rl);
	/* the listening socket, signalfd, memory, stdio and the peers' */
	need = 8 + (unsigned long long)opt.max_peers * (opt.vectors + 1);
	if (rl.rlim_cur != RLIM_INFINITY && need > rl.rlim_cur) {
		say("-p %u peers with -n %u vectors need %llu open files; the limit is %llu",
		    opt.max_peers, opt.vectors, need,
		    (unsigned long long)rl.rlim_cur);
		return -1;
	}
	return 0;
}

static int listen_on(void)
{
	struct sockaddr_un sa = { .sun_family = AF_UNIX };
	mode_t old_mask;
	int s, rc;

	if (strlen(opt.sock_path) >= sizeof(sa.sun_path)) {
		say("%s: path too long", opt.sock_path);
		return -1;
	}
	strcpy(sa.sun_path, opt.sock_path);
	s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return -1;
	unlink(opt.sock_path);
	/* Nobody may connect before the owner and mode are in place. */
	old_mask = umask(0177);
	rc = bind(s, (struct sockaddr *)&sa, sizeof(sa));
	umask(old_mask);
	if (rc || chmod(opt.sock_path, opt.sock_mode) ||
	    chown(opt.sock_path, opt.sock_uid, opt.sock_gid) || listen(s, 16)) {
		say("%s: %s", opt.sock_path, strerror(errno));
		close(s);
		return -1;
	}
	return s;
}

/* parse_id: a number, or a name that @lookup finds (-1 if none) */
static int parse_id(const char *s, long (*lookup)(const char *), long *id)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (!errno && end != s && !*end && n < (unsigned long)(uid_t)-1) {
		*id = n;
		return 0;
	}
	*id = lookup(s);
	return *id < 0 ? -1 : 0;
}

static long user_id(const char *name)
{
	struct passwd *pw = getpwnam(name);

	return pw ? (long)pw->pw_uid : -1;
}

static long group_id(const char *name)
{
	struct group *gr = getgrnam(name);

	return gr ? (long)gr->gr_gid : -1;
}

/* parse_owner: "USER", "USER:GROUP" or ":GROUP" */
static int parse_owner(char *s)
{
	char *colon = strchr(s, ':');
	long id;

	if (colon) {
		*colon = '\0';
		if (parse_id(colon + 1, group_id, &id))
			return -1;
		opt.sock_gid = id;
	}
	if (*s) {
		if (parse_id(s, user_id, &id))
			return -1;
		opt.sock_uid = id;
	}
	return 0;
}

static int parse_mode(const char *s)
{
	unsigned long m;
	char *end;

	errno = 0;
	m = strtoul(s, &end, 8);
	if (errno || end == s || *end || m > 0777)
		return -1;
	opt.sock_mode = m;
	return 0;
}

static int parse_args(int argc, char **argv)
{
	static const struct option longs[] = {
		{ "help", no_argument, NULL, 'h' },
		{ NULL, 0, NULL, 0 },
	};
	int c;

	while ((c = getopt_long(argc, argv, "S:m:l:n:p:o:M:vh", longs, NULL)) != -1) {
		switch (c) {
		case 'S':
			opt.sock_path = optarg;
			break;
		case 'm':
			opt.shm_path = optarg;
			break;
		case 'l':
			if (parse_size(optarg, &opt.shm_size)) {
				say("-l %s: a power of two from 4096 to 1T", optarg);
				return 2;
			}
			break;
		case 'n':
			if (parse_uint(optarg, MAX_VECTORS, &opt.vectors)) {
				say("-n %s: 1 to %d vectors", optarg, MAX_VECTORS);
				return 2;
			}
			break;
		case 'p':
			if (parse_uint(optarg, MAX_IDS, &opt.max_peers)) {
				say("-p %s: 1 to %d peers", optarg, MAX_IDS);
				return 2;
			}
			break;
		case 'o':
			if (parse_owner(optarg)) {
				say("-o %s: no such user or group", optarg);
				return 2;
			}
			break;
		case 'M':
			if (parse_mode(optarg)) {
				say("-M %s: an octal mode up to 0777", optarg);
				return 2;
			}
			break;
		case 'v':
			opt.verbose = 1;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind != argc) {
		print_usage(stderr);
		return 2;
	}
	return -1;
}

int main(int argc, char **argv)
{
	struct pollfd *pfd;
	unsigned int id, n;
	int lsock, sfd, rc;
	sigset_t sigs;

	rc = parse_args(argc, argv);
	if (rc >= 0)
		return rc;
	peers = calloc(opt.max_peers, sizeof(*peers));
	pfd = calloc(opt.max_peers + 2, sizeof(*pfd));
	if (!peers || !pfd) {
		say("out of memory");
		return 1;
	}
	for (id = 0; id < opt.max_peers; id++)
		peers[id].sock = -1;
	if (fd_room())
		return 1;
	shm_fd = open_shm();
	if (shm_fd < 0)
		return 1;
	lsock = listen_on();
	if (lsock < 0)
		return 1;
	/* The signals that end the server come in through the poll loop. */
	sigemptyset(&sigs);
	sigaddset(&sigs, SIGINT);
	sigaddset(&sigs, SIGTERM);
	sigprocmask(SIG_BLOCK, &sigs, NULL);
	sfd = signalfd(-1, &sigs, SFD_CLOEXEC);
	if (sfd < 0) {
		say("signalfd: %s", strerror(errno));
		return 1;
	}
	say("listening on %s; memory %s, %llu bytes; %u vector(s), %u peers",
	    opt.sock_path, opt.shm_path, opt.shm_size, opt.vectors,
	    opt.max_peers);
	sd_ready();

	for (;;) {
		pfd[0] = (struct pollfd){ .fd = lsock, .events = POLLIN };
		pfd[1] = (struct pollfd){ .fd = sfd, .events = POLLIN };
		for (id = 0, n = 2; id < opt.max_peers; id++)
			if (peers[id].sock >= 0)
				pfd[n++] = (struct pollfd){
					.fd = peers[id].sock, .events = POLLIN,
				};
		if (poll(pfd, n, -1) < 0) {
			say("poll: %s", strerror(errno));
			break;
		}
		if (pfd[1].revents)
			break;
		/*
		 * A client never writes: readable means gone (EOF) or
		 * breaking the protocol, both the end of it.
		 */
		for (id = 0, n = 2; id < opt.max_peers; id++) {
			if (peers[id].sock < 0)
				continue;
			if (pfd[n++].revents)
				peers[id].dead = 1;
		}
		sweep();
		if (pfd[0].revents & POLLIN)
			accept_peer(lsock);
	}
	unlink(opt.sock_path);
	return 0;
}
