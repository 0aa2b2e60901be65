// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user_fuzz: random sequences of /dev/ism/NAME calls (ism_user.ko) on
 * loopback devices, for the debug kernel's KASAN, lockdep, UBSAN and
 * kmemleak to judge (tools/testing/selftests/ism/user-fuzz.sh):
 *
 *   ism_user_fuzz SECONDS SEED STABLE [VOLATILE]
 *
 * Three processes, each with its own random sequence from SEED, make one
 * call at a time (for SECONDS, then on until each has made each kind of
 * call, for at most five times SECONDS more) on files of the devices
 * STABLE and VOLATILE (which the caller deletes and adds again
 * meanwhile): open and close, INFO, QUERY_PEER, REGISTER, UNREGISTER,
 * ATTACH, DETACH, MOVE, SEND_EVENT, EVENTFD, read and poll; mmap, munmap
 * (whole or a tail), mremap (grow, shrink), touching a mapping, fork.
 * About a third of the arguments are bad: lengths, flags, tokens,
 * offsets, addresses, peers.
 *
 * Each result is checked against what the call may return given what
 * the process did before: the success or the one error its arguments
 * call for (on VOLATILE also -ENODEV, and SIGBUS from a mapping, the
 * device being gone); a mapping of a live buffer must not raise SIGBUS,
 * one of a released buffer must; what MOVE wrote must be in the DMB's
 * mapping. The first difference is printed with the seed and step; the
 * counts of calls per kind at the end ("# worker N (seed S): T calls in
 * D s: NAME=COUNT..."). A seed repeats a run on STABLE alone; with
 * VOLATILE, where its removals fall changes what follows. Exit status: 0
 * if every result was allowed, 1 otherwise, 2 for a bad command line.
 */
#define _GNU_SOURCE
#include "ism_user_fuzz.h"

static void do_open(void)
{
	struct ism_user_info info = {};
	char path[64];
	int i, dev = rnd(ndevs), fd;

	for (i = 0; i < FILES && files[i].fd >= 0; i++)
		;
	if (i == FILES)
		return;
	snprintf(path, sizeof(path), "/dev/ism/%s", devs[dev]);
	fd = open(path, O_RDWR | O_CLOEXEC);
	/* The volatile device's node comes and goes. */
	if (fd < 0 && dev == 1 && (errno == ENOENT || errno == ENXIO))
		return;
	if (!expect("open", dev, fd, 0))
		return;
	ioctl(fd, ISM_USER_IOC_INFO, &info);
	files[i] = (struct file){ .fd = fd, .dev = dev, .id = ++file_ids,
				  .max_len = info.max_dmb_len / page * page };
	memcpy(files[i].gid, info.gid, ISM_USER_GID_LEN);
}

static void do_close(int f)
{
	int b;

	expect("close", files[f].dev, close(files[f].fd), 0);
	files[f].fd = -1;
	/* The file's buffers cannot be named any more. */
	for (b = 0; b < BUFS; b++)
		if (bufs[b].used && bufs[b].f == f)
			bufs[b].f = -1;
	for (b = 0; b < BUFS; b++)
		if (bufs[b].used && bufs[b].id == files[f].id)
			forget_buf(b);
}

static void do_info(int f)
{
	struct ism_user_info info;
	int dev = files[f].dev;

	if (chance(10)) {
		expect("info", dev, ioctl(files[f].fd, ISM_USER_IOC_INFO, 8),
		       EFAULT);
		return;
	}
	if (expect("info", dev, ioctl(files[f].fd, ISM_USER_IOC_INFO, &info),
		   0) && (strcmp(info.name, devs[dev]) || info.reserved ||
			  info.reserved2 || info.chid != 0xffff))
		fail("info: name %.16s, chid 0x%x", info.name, info.chid);
}

static void do_query(int f)
{
	struct ism_user_peer peer = {};
	int want = 0;

	memcpy(peer.gid, files[f].gid, sizeof(peer.gid));
	switch (rnd(8)) {
	case 0:
		peer.flags = 2 << rnd(8);
		want = EINVAL;
		break;
	case 1:
		/* The loopback reaches itself on any VLAN. */
		peer.flags = ISM_USER_PEER_VLAN;
		peer.vlan = rnd(4096);
		break;
	case 2:
	case 3:
		peer.gid[rnd(ISM_USER_GID_LEN)] ^= 1 + rnd(255);
		want = EHOSTUNREACH;
		break;
	}
	expect("query_peer", files[f].dev,
	       ioctl(files[f].fd, ISM_USER_IOC_QUERY_PEER, &peer), want);
}

static void new_buf(int b, int f, bool att, const struct ism_user_dmb *d)
{
	bufs[b] = (struct buf){ .used = true, .live = true, .att = att,
				.f = f, .dev = files[f].dev, .id = files[f].id,
				.token = d->token, .key = d->key,
				.off = d->mmap_offset,
				.len = d->len };
	memcpy(bufs[b].gid, files[f].gid, ISM_USER_GID_LEN);
}

static void do_register(int f)
{
	uint8_t gid[ISM_USER_GID_LEN];
	struct ism_user_dmb d;
	int dev = files[f].dev, b = free_buf(), want = 0, ret;
	uint32_t len = (1 + rnd(MAX_PAGES)) * page;

	/* No INFO at open (the device was going): nothing to size by. */
	if (b < 0 || !files[f].max_len)
		return;
	if (len > files[f].max_len)
		len = files[f].max_len;
	memcpy(gid, files[f].gid, sizeof(gid));
	switch (rnd(12)) {
	case 0:
		len = rnd(2) ? 0 : len + 1 + rnd(page - 1);
		want = EINVAL;
		break;
	case 1:
		gid[0] ^= 0xff;	/* the loopback writes only its own */
		want = EINVAL;
		break;
	case 2:
		expect("register", dev,
		       ioctl(files[f].fd, ISM_USER_IOC_REGISTER, 8), EFAULT);
		return;
	case 3:
		d = (struct ism_user_dmb){ .len = len, .flags = 1 << rnd(32) };
		memcpy(d.gid, gid, sizeof(gid));
		expect("register", dev,
		       ioctl(files[f].fd, ISM_USER_IOC_REGISTER, &d), EINVAL);
		return;
	}
	ret = reg_for(files[f].fd, len, gid, &d);
	/* Memory for the DMB's pages may be short; the device's DMB
	 * indexes are all the clients' (max_dmbs).
	 */
	if (!want && ret && (errno == ENOMEM || errno == ENOSPC))
		return;
	if (!expect("register", dev, ret, want))
		return;
	if (d.len != len || d.attr != ISM_USER_DMB_MMAP || !d.mmap_offset ||
	    !d.key)
		fail("register: len %u, attr 0x%x, key %s", d.len, d.attr,
		     d.key ? "set" : "0");
	new_buf(b, f, false, &d);
}

/* UNREGISTER or DETACH: only the file's own tokens, of the right kind. */
static void release(int f, bool att)
{
	const char *call = att ? "detach" : "unregister";
	int b, dev = files[f].dev;
	uint64_t token = pick_token(&b);

	if (chance(5)) {
		expect(call, dev, ioctl(files[f].fd, att ? ISM_USER_IOC_DETACH :
					ISM_USER_IOC_UNREGISTER, 8), EFAULT);
		return;
	}
	b = find_buf(f, token, att);
	if (expect(call, dev, att ? detach(files[f].fd, token) :
		   unreg(files[f].fd, token), b >= 0 ? 0 : ENOENT) && b >= 0) {
		bufs[b].live = false;
		forget_buf(b);
	}
}

static void do_unregister(int f)
{
	release(f, false);
}

static void do_detach(int f)
{
	release(f, true);
}

/* The owner's unregistration ends new attachments, not old ones. */
static void do_attach(int f)
{
	int b, n = free_buf(), want = ENOENT, dev = files[f].dev, o, ret;
	uint64_t token = pick_token(&b), key = pick_key(b);
	struct ism_user_dmb d;

	if (n < 0)
		return;
	if (chance(5)) {
		d = (struct ism_user_dmb){ .token = token, .key = key,
					   .flags = 1 << rnd(32) };
		expect("attach", dev,
		       ioctl(files[f].fd, ISM_USER_IOC_ATTACH, &d), EINVAL);
		return;
	}
	o = owner_of(token, f);
	if (find_buf(f, token, true) >= 0)
		want = EEXIST;
	else if (o >= 0 && key == bufs[o].key)
		want = 0;
	ret = attach_key(files[f].fd, token, key, &d);
	if (!want && ret && errno == ENOMEM)
		return;
	if (expect_or("attach", dev, ret, want,
		      gone_meanwhile(owner_of(token, f), f)))
		new_buf(n, f, true, &d);
}

/* What MOVE wrote is in every mapping of the DMB that covers it. */
static void check_moved(int b, uint32_t off, const uint8_t *data,
			uint32_t size)
{
	int i;

	for (i = 0; i < MAPS; i++) {
		struct map *m = &maps[i];

		if (!m->p || m->b != b || off < m->skip ||
		    off + size > m->skip + m->len)
			continue;
		/* The volatile device may be gone meanwhile: SIGBUS. */
		switch (bus_memcmp(m->p + off - m->skip, data, size)) {
		case 0:
			break;
		case 1:
			fail("move: the bytes at %u (%u) are not in the mapping",
			     off, size);
			break;
		default:
			if (bufs[b].dev != 1)
				fail("move: SIGBUS from a live DMB's mapping");
		}
	}
}

/*
 * Errors in the order the kernel finds them: flags and dmbe, the
 * source, the token and key, the range.
 */
static void do_move(int f)
{
	static uint8_t *data;
	int b, o, want = 0, also = 0, ret;
	bool range = false;
	uint64_t token = pick_token(&b), key = pick_key(b);
	uint32_t off, size, len, flags = 0, dmbe = 0;
	const void *src;
	char what[128];
	size_t i;

	if (!data)
		data = malloc(MAX_PAGES * page);
	if (!data) {
		fail("move: no memory");
		return;
	}
	src = data;

	o = owner_of(token, f);
	len = o >= 0 ? bufs[o].len : 4096;
	off = rnd(len + 1);
	size = rnd(len - off + 1);
	if (chance(50)) {
		flags = ISM_USER_MOVE_SIGNAL;
		dmbe = rnd(16);
	}
	for (i = 0; i < size; i++)
		data[i] = random();
	if (chance(5))
		flags |= 2 << rnd(31);
	if (chance(5))
		dmbe = 16 + rnd(100);
	if (size && chance(5))
		src = rnd(2) ? NULL : (void *)8;
	if (chance(10))
		off = len - size + 1 + rnd(2 * page);
	if (flags & ~ISM_USER_MOVE_SIGNAL ||
	    dmbe >= (flags & ISM_USER_MOVE_SIGNAL ? 16U : 1U) ||
	    (!size && src))
		want = EINVAL;
	else if (src != data)
		want = EFAULT;
	else if (o < 0 || key != bufs[o].key)
		want = ENOENT;
	else
		range = off + size > len;
	if (range)
		want = EINVAL;
	/* The key is checked before the range: a DMB gone meanwhile is
	 * ENOENT for a range too long as well.
	 */
	if (!want || range)
		also = gone_meanwhile(o, f);
	snprintf(what, sizeof(what), "move from file %u to a DMB of file %d",
		 files[f].id, o >= 0 ? (int)bufs[o].id : -1);
	ret = move_key(files[f].fd, token, key, off, src, size, flags, dmbe);
	/* A signal past the user's rings (user_rings) moves nothing. */
	if (ret && errno == EAGAIN && !want && flags & ISM_USER_MOVE_SIGNAL)
		return;
	if (expect_or(what, files[f].dev, ret, want, also) && o >= 0)
		check_moved(o, off, data, size);
}

/*
 * A software event to a DMB of the device: the token and key as MOVE
 * takes them. To another GID with the right key: the device knows the
 * DMB is not that peer's (ENOENT), or cannot tell and knows no such peer
 * (EHOSTUNREACH).
 */
static void do_send(int f)
{
	uint8_t gid[ISM_USER_GID_LEN];
	int b, o, dev = files[f].dev, want = 0, also = 0, ret;
	uint64_t token = pick_token(&b), key = pick_key(b);
	uint32_t code = rnd(0x10000), flags = 0;
	bool other = false;

	memcpy(gid, files[f].gid, sizeof(gid));
	o = owner_of(token, f);
	switch (rnd(8)) {
	case 0:
		code = 0x10000 + rnd(1 << 20);
		want = EINVAL;
		break;
	case 1:
		flags = 1 + rnd(8);
		want = EINVAL;
		break;
	case 2:
		gid[rnd(sizeof(gid))] ^= 1 + rnd(255);
		other = true;
		break;
	}
	if (!want && o >= 0 && key == bufs[o].key)
		also = other ? EHOSTUNREACH : gone_meanwhile(o, f);
	if (!want && (o < 0 || key != bufs[o].key || other))
		want = ENOENT;
	ret = send_event_key(files[f].fd, gid, token, key, code, flags);
	/* Past the user's rings (user_rings): one that would have gone. */
	if (ret && errno == EAGAIN && (!want || also == EHOSTUNREACH))
		return;
	expect_or("send_event", dev, ret, want, also);
}

static void do_eventfd(int f)
{
	int dev = files[f].dev, efd = -1, want = 0, arg;

	switch (rnd(4)) {
	case 0:
		arg = -1;
		break;
	case 1:
		arg = 900 + rnd(100);	/* no such file */
		want = EBADF;
		break;
	default:
		efd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
		arg = efd;
	}
	expect("eventfd", dev, ioctl(files[f].fd, ISM_USER_IOC_EVENTFD, &arg),
	       want);
	/* The file holds its own reference to the eventfd. */
	if (efd >= 0)
		close(efd);
}

static void do_read(int f)
{
	struct ism_user_event ev[16];
	struct pollfd pfd = { .fd = files[f].fd, .events = POLLIN };
	int n, i, dev = files[f].dev;

	if (poll(&pfd, 1, 0) < 0)
		fail("poll: %s", strerror(errno));
	n = events(files[f].fd, ev, 1 + rnd(16));
	for (i = 0; i < n; i++)
		if (!ev[i].type || ev[i].type > ISM_USER_EVENT_LOST ||
		    (ev[i].type == ISM_USER_EVENT_DEVICE_GONE && dev != 1))
			fail("read: an event of type %u", ev[i].type);
}

static void do_mmap(void)
{
	int b = pick_buf(), i, prot = PROT_READ | PROT_WRITE, want = 0;
	size_t skip, len;
	char what[96];
	void *p;

	for (i = 0; i < MAPS && maps[i].p; i++)
		;
	if (b < 0 || bufs[b].f < 0 || i == MAPS)
		return;
	skip = rnd(bufs[b].len / page) * page;
	len = (1 + rnd((bufs[b].len - skip) / page)) * page;
	if (!bufs[b].live)
		want = EINVAL;
	switch (rnd(10)) {
	case 0:
		len = bufs[b].len - skip + page * (1 + rnd(4));
		want = EINVAL;
		break;
	case 1:
		prot |= PROT_EXEC;	/* refused before anything else */
		want = EPERM;
		break;
	}
	p = mmap(NULL, len, prot, MAP_SHARED, files[bufs[b].f].fd,
		 bufs[b].off + skip);
	snprintf(what, sizeof(what),
		 "mmap of %zu at %zu of a %s %s of %u bytes (file %u)", len,
		 skip, bufs[b].live ? "live" : "released",
		 bufs[b].att ? "attachment" : "DMB", bufs[b].len, bufs[b].id);
	if (expect(what, bufs[b].dev, p == MAP_FAILED ? -1 : 0, want))
		maps[i] = (struct map){ .p = p, .len = len, .skip = skip,
					.b = b };
}

static void unmap_tail(struct map *m, size_t keep)
{
	expect("munmap", 0, munmap(m->p + keep, m->len - keep), 0);
	m->len = keep;
	if (!keep) {
		m->p = NULL;
		forget_buf(m->b);
	}
}

static void do_munmap(struct map *m)
{
	unmap_tail(m, chance(70) ? 0 : rnd(m->len / page) * page);
}

static void do_mremap(struct map *m)
{
	void *p;

	if (chance(50)) {
		p = mremap(m->p, m->len, m->len + page, MREMAP_MAYMOVE);
		if (p != MAP_FAILED)
			fail("mremap grew a mapping");
		return;
	}
	if (m->len == (size_t)page)
		return;
	p = mremap(m->p, m->len, m->len - page, 0);
	if (expect("mremap", 0, p == MAP_FAILED ? -1 : 0, 0))
		m->len -= page;
}

/* A live buffer's mapping is there; a released one's raises SIGBUS. */
static void do_touch(struct map *m)
{
	size_t at = rnd(m->len / page) * page + rnd(page);
	bool bus = bus_error(m->p + at, chance(50));

	if (bus != !bufs[m->b].live && !(bufs[m->b].dev == 1 && bus))
		fail("a touch: %s of a %s buffer's mapping", bus ? "SIGBUS" :
		     "no SIGBUS", bufs[m->b].live ? "live" : "released");
}

/* A child sees the same mappings, reads events and leaves. */
static void do_fork(void)
{
	int i, status;
	pid_t pid = fork();

	if (pid < 0) {
		fail("fork: %s", strerror(errno));
		return;
	}
	if (!pid) {
		for (i = 0; i < MAPS; i++)
			if (maps[i].p)
				do_touch(&maps[i]);
		for (i = 0; i < FILES; i++)
			if (files[i].fd >= 0)
				do_info(i);
		_exit(bad);
	}
	if (waitpid(pid, &status, 0) != pid || !WIFEXITED(status) ||
	    WEXITSTATUS(status))
		fail("fork: the child failed (status 0x%x)", status);
}

/* Each kind of call: on a file, on a mapping or on neither. */
static const struct call {
	const char *name;
	void (*on_file)(int f);
	void (*on_map)(struct map *m);
	void (*on_none)(void);
} calls[] = {
	{ "open", .on_none = do_open },
	{ "close", .on_file = do_close },
	{ "info", .on_file = do_info },
	{ "query_peer", .on_file = do_query },
	{ "register", .on_file = do_register },
	{ "unregister", .on_file = do_unregister },
	{ "attach", .on_file = do_attach },
	{ "detach", .on_file = do_detach },
	{ "move", .on_file = do_move },
	{ "send_event", .on_file = do_send },
	{ "eventfd", .on_file = do_eventfd },
	{ "read", .on_file = do_read },
	{ "mmap", .on_none = do_mmap },
	{ "munmap", .on_map = do_munmap },
	{ "mremap", .on_map = do_mremap },
	{ "touch", .on_map = do_touch },
	{ "fork", .on_none = do_fork },
};

#define CALLS	ARRAY_SIZE(calls)

static unsigned long counts[CALLS];

static void one_call(void)
{
	unsigned int c = rnd(CALLS);
	const struct call *call = &calls[c];
	struct map *m = &maps[rnd(MAPS)];
	int f = pick_file();

	if ((call->on_file && f < 0) || (call->on_map && !m->p))
		return;
	/* Files should live long enough to do things; forks are slow. */
	if ((call->on_file == do_close && chance(70)) ||
	    (call->on_none == do_fork && chance(75)))
		return;
	counts[c]++;
	if (call->on_file)
		call->on_file(f);
	else if (call->on_map)
		call->on_map(m);
	else
		call->on_none();
}

/* made_every_kind: each kind of call was made at least once */
static bool made_every_kind(void)
{
	unsigned int i;

	for (i = 0; i < CALLS; i++)
		if (!counts[i])
			return false;
	return true;
}

/*
 * Run for @secs, then on until each kind of call was made, for at most
 * EXTRA_RUNS times @secs more: a slow machine (a debug kernel under TCG
 * beside a build) makes few calls in @secs, and the rarest kinds (a
 * mapping's calls, fork) may not have come up yet. A kind that never
 * comes up even then is still a failure, found by user-fuzz.sh.
 */
#define EXTRA_RUNS	5

static int run_worker(int n, unsigned int secs)
{
	time_t start = time(NULL);
	time_t end = start + secs, last = end + EXTRA_RUNS * secs;
	unsigned long total = 0;
	time_t now;
	int i;

	seed += n;
	srandom(seed);
	/* A call that hangs is a failure; alarms do not pass to a child. */
	alarm((EXTRA_RUNS + 1) * secs + 120);
	for (i = 0; i < FILES; i++)
		files[i].fd = -1;
	while (!bad) {
		now = time(NULL);
		if (now >= last || (now >= end && made_every_kind()))
			break;
		step++;
		one_call();
	}
	for (i = 0; i < (int)CALLS; i++)
		total += counts[i];
	printf("# worker %d (seed %lu): %lu calls in %ld s:", n, seed, total,
	       (long)(time(NULL) - start));
	for (i = 0; i < (int)CALLS; i++)
		printf(" %s=%lu", calls[i].name, counts[i]);
	putchar('\n');
	return bad;
}

int main(int argc, char **argv)
{
	unsigned int secs;
	int i, status, rc = 0;
	pid_t pid;

	if (argc < 4 || argc > 5) {
		fprintf(stderr, "usage: %s SECONDS SEED STABLE [VOLATILE]\n",
			argv[0]);
		return 2;
	}
	secs = strtoul(argv[1], NULL, 0);
	seed = strtoul(argv[2], NULL, 0);
	devs[0] = argv[3];
	devs[1] = argc == 5 ? argv[4] : NULL;
	ndevs = argc - 3;
	page = sysconf(_SC_PAGESIZE);
	/* A call that hangs is a failure, not a stalled test run. */
	alarm((EXTRA_RUNS + 1) * secs + 180);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (i = 0; i < WORKERS; i++) {
		pid = fork();
		if (!pid)
			return run_worker(i, secs);
		if (pid < 0)
			fail("fork: %s", strerror(errno));
	}
	while ((pid = wait(&status)) > 0)
		if (WIFSIGNALED(status))
			fail("worker pid %d killed by signal %d (%s)", pid,
			     WTERMSIG(status), strsignal(WTERMSIG(status)));
		else if (WEXITSTATUS(status))
			rc = 1;
	return rc || bad;
}
