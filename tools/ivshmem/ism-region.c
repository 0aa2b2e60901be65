// SPDX-License-Identifier: GPL-2.0
/*
 * ism-region: the host's tool for virtual ISM regions (ism-region.8).
 * A region is configured in /etc/ism/regions/NAME.conf; the tool sizes
 * it, creates and formats its shared file before any guest maps it,
 * shows and checks what the guests published, and starts the doorbell
 * server with the configured socket (ism-ivshmem-server@NAME.service).
 *
 * Formatting is idempotent: a file that already holds the configured
 * layout is left as it is, guests and all, so restarting the service
 * does not pull the region from under running guests. A file formatted
 * otherwise is formatted again only when no slot is claimed, or with -f.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <getopt.h>
#include <grp.h>
#include <libgen.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "region_conf.h"
#include "region_file.h"
#include "region_show.h"
#include "sd_notify.h"

#define SERVER	"ism-ivshmem-server"

static void print_usage(FILE *f)
{
	fprintf(f,
		"usage: ism-region [-C DIR] [-s KEY=VALUE]... COMMAND [-f] [-j] [NAME | FILE]\n"
		"The host's side of virtual ISM regions; NAME is configured in\n"
		"DIR/NAME.conf (DIR: " REGION_CONF_DIR "); -s sets a key over it.\n"
		"  config NAME   print the configuration, sized\n"
		"  format NAME   create the shared file and write the layout, unless it\n"
		"                holds it already; -f: even with slots claimed\n"
		"  serve NAME    format, then run " SERVER " on its socket\n"
		"  show NAME|FILE   header, capacity and peer table (-j: JSON)\n"
		"  check NAME|FILE  exit 1 if the guests' entries are inconsistent\n"
		"Without NAME, -s memory=FILE and the other keys describe the region.\n");
}

/* The owner a configuration names, as numbers (-1: leave). */
static int conf_owner(const struct region_conf *c, uid_t *uid, gid_t *gid)
{
	struct passwd *pw;
	struct group *gr;

	*uid = (uid_t)-1;
	*gid = (gid_t)-1;
	if (*c->user) {
		pw = getpwnam(c->user);
		if (!pw) {
			fprintf(stderr, "ism-region: user = %s: no such user\n",
				c->user);
			return -1;
		}
		*uid = pw->pw_uid;
	}
	if (*c->group) {
		gr = getgrnam(c->group);
		if (!gr) {
			fprintf(stderr, "ism-region: group = %s: no such group\n",
				c->group);
			return -1;
		}
		*gid = gr->gr_gid;
	}
	return 0;
}

static int slots_claimed(const struct region_file *f,
			 const struct ivshm_geo *geo)
{
	struct region_slot s;
	uint32_t i;
	int n = 0;

	for (i = 0; i < geo->max_peers; i++) {
		region_file_slot(f, geo, i, &s);
		n += !!s.cookie;
	}
	return n;
}

static int cmd_format(const struct region_conf *c, int force)
{
	struct ivshm_geo want, have;
	struct region_file f;
	const char *why;
	char id[37];
	uid_t uid;
	gid_t gid;
	int rc = 1, n;

	if (conf_owner(c, &uid, &gid) ||
	    ivshm_geometry(&want, c->size, c->peers, c->dmbs, c->evq) ||
	    region_file_create(&f, c->memory, c->size, uid, gid, c->perm))
		return 1;
	why = region_file_header(&f, &have);
	if (!why && have.region_size == want.region_size &&
	    have.max_peers == want.max_peers &&
	    have.max_dmbs == want.max_dmbs && have.evq_len == want.evq_len &&
	    !force) {
		region_gid_str(have.region_id, id);
		printf("%s: formatted already (region %s), left as it is\n",
		       c->memory, id);
		rc = 0;
		goto out;
	}
	n = why ? 0 : slots_claimed(&f, &have);
	if (n && !force) {
		fprintf(stderr, "ism-region: %s: formatted otherwise and %d slot(s) claimed: stop the guests, or -f\n",
			c->memory, n);
		goto out;
	}
	if (region_file_format(&f, &want))
		goto out;
	printf("%s: formatted: %llu bytes, %u peers, %u DMBs each; %u buffers of %u bytes per guest\n",
	       c->memory, (unsigned long long)want.region_size, want.max_peers,
	       want.max_dmbs, region_buffers(&want, c->buffer), c->buffer);
	rc = 0;
out:
	region_file_close(&f);
	return rc;
}

/* mkdir -p DIR, mode 0755 */
static int mkdir_p(char *dir)
{
	struct stat st;
	char *slash;

	if (!stat(dir, &st))
		return 0;
	slash = strrchr(dir, '/');
	if (slash && slash != dir) {
		*slash = '\0';
		if (mkdir_p(dir))
			return -1;
		*slash = '/';
	}
	if (mkdir(dir, 0755) && errno != EEXIST) {
		fprintf(stderr, "ism-region: %s: %s\n", dir, strerror(errno));
		return -1;
	}
	return 0;
}

/* The server beside this program: installed together, or both built here. */
static int cmd_serve(const struct region_conf *c, char *self)
{
	char server[PATH_MAX], sockdir[PATH_MAX], size[32], vec[16], peers[16];
	char owner[130], perm[8], *dir;

	if (cmd_format(c, 0))
		return 1;
	if (c->plain) {
		printf("region %s is plain: formatted, no server to run\n",
		       c->name);
		sd_ready();
		return 0;
	}
	dir = dirname(self);
	snprintf(server, sizeof(server), "%s/" SERVER, dir);
	/* Under systemd, RuntimeDirectory= made it; by hand, make it here. */
	snprintf(sockdir, sizeof(sockdir), "%s", c->socket);
	if (mkdir_p(dirname(sockdir)))
		return 1;
	snprintf(size, sizeof(size), "%llu", c->size);
	snprintf(vec, sizeof(vec), "%u", c->vectors);
	/* Every guest is one of the server's peers; one more for a restart. */
	snprintf(peers, sizeof(peers), "%u", c->peers + 1);
	snprintf(owner, sizeof(owner), "%s%s%s", c->user, *c->group ? ":" : "",
		 c->group);
	snprintf(perm, sizeof(perm), "%o", c->perm);
	fflush(stdout);
	if (*owner)
		execl(server, SERVER, "-v", "-S", c->socket, "-m", c->memory,
		      "-l", size, "-n", vec, "-p", peers, "-M", perm, "-o",
		      owner, (char *)NULL);
	else
		execl(server, SERVER, "-v", "-S", c->socket, "-m", c->memory,
		      "-l", size, "-n", vec, "-p", peers, "-M", perm,
		      (char *)NULL);
	fprintf(stderr, "ism-region: %s: %s\n", server, strerror(errno));
	return 1;
}

static int cmd_read(const struct region_conf *c, const char *path, int check,
		    int json)
{
	struct region_file f;
	struct ivshm_geo geo;
	const char *why;
	int n;

	if (region_file_open(&f, path, 0))
		return 1;
	why = region_file_header(&f, &geo);
	if (why) {
		fprintf(stderr, "ism-region: %s: %s\n", path, why);
		region_file_close(&f);
		return 1;
	}
	if (!check) {
		region_show(&f, &geo, c, json);
		n = 0;
	} else {
		n = region_check(&f, &geo, c);
		if (!n)
			printf("%s: consistent\n", path);
	}
	region_file_close(&f);
	return !!n;
}

int main(int argc, char **argv)
{
	const char *dir = REGION_CONF_DIR, *cmd, *arg;
	char path[PATH_MAX], self[PATH_MAX];
	struct region_conf c;
	int force = 0, json = 0, sets = 0, opt, i;
	char **set = calloc(argc, sizeof(*set));

	if (!set)
		return 1;
	while ((opt = getopt(argc, argv, "+C:s:fjh")) != -1) {
		switch (opt) {
		case 'C':
			dir = optarg;
			break;
		case 's':
			set[sets++] = optarg;
			break;
		case 'f':
			force = 1;
			break;
		case 'j':
			json = 1;
			break;
		case 'h':
			print_usage(stdout);
			return 0;
		default:
			print_usage(stderr);
			return 2;
		}
	}
	if (optind >= argc) {
		print_usage(stderr);
		return 2;
	}
	cmd = argv[optind++];
	/* Options may follow the command too: ism-region show -j NAME. */
	while ((opt = getopt(argc, argv, "fj")) != -1) {
		if (opt == '?') {
			print_usage(stderr);
			return 2;
		}
		force |= opt == 'f';
		json |= opt == 'j';
	}
	if (argc - optind > 1) {
		print_usage(stderr);
		return 2;
	}
	arg = optind < argc ? argv[optind] : NULL;

	/* show and check read a file by its path: no configuration. */
	if (arg && strchr(arg, '/')) {
		if (strcmp(cmd, "show") && strcmp(cmd, "check")) {
			fprintf(stderr, "ism-region: %s takes a region's NAME\n", cmd);
			return 2;
		}
		return cmd_read(NULL, arg, !strcmp(cmd, "check"), json);
	}
	if (arg && !conf_name_ok(arg)) {
		fprintf(stderr, "ism-region: %s: a name is letters, digits, '_', '.' and '-', 32 at most\n",
			arg);
		return 2;
	}
	conf_defaults(&c, arg ? arg : "region");
	if (arg) {
		snprintf(path, sizeof(path), "%s/%s.conf", dir, arg);
		if (conf_read(&c, path))
			return 1;
	}
	for (i = 0; i < sets; i++) {
		char *eq = strchr(set[i], '=');

		if (!eq) {
			fprintf(stderr, "ism-region: -s %s: KEY=VALUE\n", set[i]);
			return 2;
		}
		*eq = '\0';
		if (conf_set(&c, set[i], eq + 1))
			return 2;
	}
	if (!arg && !(c.given & REGION_GIVEN_MEMORY)) {
		fprintf(stderr, "ism-region: no NAME: -s memory=FILE names the region\n");
		return 2;
	}
	if (conf_resolve(&c))
		return 1;

	if (!strcmp(cmd, "config")) {
		conf_print(&c, stdout);
		return 0;
	}
	if (!strcmp(cmd, "format"))
		return cmd_format(&c, force);
	if (!strcmp(cmd, "show") || !strcmp(cmd, "check"))
		return cmd_read(&c, c.memory, !strcmp(cmd, "check"), json);
	if (!strcmp(cmd, "serve")) {
		i = readlink("/proc/self/exe", self, sizeof(self) - 1);
		if (i < 0) {
			fprintf(stderr, "ism-region: /proc/self/exe: %s\n",
				strerror(errno));
			return 1;
		}
		self[i] = '\0';
		return cmd_serve(&c, self);
	}
	fprintf(stderr, "ism-region: unknown command %s\n", cmd);
	print_usage(stderr);
	return 2;
}
