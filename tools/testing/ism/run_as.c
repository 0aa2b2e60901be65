// SPDX-License-Identifier: GPL-2.0
/*
 * run_as: run a program as another user, for the tests' two users in the
 * busybox VM, whose setpriv cannot change ids:
 *
 *   run_as [-U ID] UID GID[,GID...] PROG [ARGS...]
 *
 * The first GID is the primary group, the others the supplementary
 * groups. Run as root; the ids are numbers (the VM has no user database).
 * With -U, the user then makes a user namespace of her own, prints
 * "userns PID", waits until someone (root) has written its uid_map, and
 * runs PROG as ID of the namespace: one of the other ids a user can map
 * there, as newuidmap does from /etc/subuid.
 */
#define _GNU_SOURCE
#include <grp.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* Whether this process's uid_map has been written, within 30 s. */
static int mapped(void)
{
	char line[128];
	int i;

	for (i = 0; i < 3000; i++) {
		FILE *f = fopen("/proc/self/uid_map", "r");
		int got = f && fgets(line, sizeof(line), f);

		if (f)
			fclose(f);
		if (got)
			return 1;
		usleep(10 * 1000);
	}
	return 0;
}

int main(int argc, char **argv)
{
	long ns_id = -1;
	gid_t groups[16];
	size_t n = 0;
	char *s, *end;
	uid_t uid;

	if (argc > 2 && !strcmp(argv[1], "-U")) {
		ns_id = strtol(argv[2], &end, 10);
		if (*end || ns_id < 0)
			return 2;
		argc -= 2;
		argv += 2;
	}
	if (argc < 4) {
		fprintf(stderr, "usage: run_as [-U ID] UID GID[,GID...] PROG [ARGS...]\n");
		return 2;
	}
	uid = strtoul(argv[1], &end, 10);
	if (*end)
		return 2;
	for (s = strtok(argv[2], ","); s && n < 16; s = strtok(NULL, ",")) {
		groups[n++] = strtoul(s, &end, 10);
		if (*end)
			return 2;
	}
	if (!n || setgroups(n - 1, groups + 1) || setgid(groups[0]) ||
	    setuid(uid)) {
		perror("run_as");
		return 1;
	}
	if (ns_id >= 0) {
		if (unshare(CLONE_NEWUSER)) {
			perror("run_as: unshare");
			return 1;
		}
		printf("userns %d\n", getpid());
		fflush(stdout);
		/* Its creator has every capability in it until the exec. */
		if (!mapped() || setresuid(ns_id, ns_id, ns_id)) {
			perror("run_as: the namespace's id");
			return 1;
		}
	}
	execvp(argv[3], argv + 3);
	perror(argv[3]);
	return 127;
}
