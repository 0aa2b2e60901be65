// SPDX-License-Identifier: GPL-2.0
/*
 * ism-region: reading a region's configuration and sizing the region.
 *
 * The configuration is "key = value" lines; '#' starts a comment. A
 * region is sized either by "size" or by what it must hold: "guests",
 * "connections" per guest and SMC's "buffer" size. The capacity is
 * counted as the guests' driver allocates (drivers/ism/ivshm/ivshm_dmb.c):
 * a buffer of 2^n bytes is aligned in the region to 2^n, in the data
 * area of its owner's partition.
 */
#include <ctype.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "region_conf.h"

#define DEFAULT_GUESTS		2
#define DEFAULT_CONNECTIONS	64
#define DEFAULT_BUFFER		(64U << 10)
#define DEFAULT_EVQ		64
#define DEFAULT_PERM		0600
/* Regions this small have no room for a partition of 8 peers. */
#define SMALLEST_REGION		(1ULL << 20)

static int say_conf(const char *key, const char *value, const char *want)
{
	fprintf(stderr, "ism-region: %s = %s: %s\n", key, value, want);
	return -1;
}

void conf_defaults(struct region_conf *c, const char *name)
{
	memset(c, 0, sizeof(*c));
	snprintf(c->name, sizeof(c->name), "%s", name);
	c->guests = DEFAULT_GUESTS;
	c->connections = DEFAULT_CONNECTIONS;
	c->buffer = DEFAULT_BUFFER;
	c->evq = DEFAULT_EVQ;
	c->vectors = 1;
	c->perm = DEFAULT_PERM;
	snprintf(c->memory, sizeof(c->memory), "/dev/shm/ism-%s", name);
	snprintf(c->socket, sizeof(c->socket), "/run/ism/%s/ivshmem.sock",
		 name);
}

/* A name becomes part of paths and of a systemd instance: keep it plain. */
int conf_name_ok(const char *name)
{
	size_t i, n = strlen(name);

	if (!n || n > REGION_NAME_MAX || name[0] == '.' || name[0] == '-')
		return 0;
	for (i = 0; i < n; i++)
		if (!isalnum((unsigned char)name[i]) && !strchr("_.-", name[i]))
			return 0;
	return 1;
}

/* parse_bytes: "4096", "64K", "4M", "1G", "1T" */
int parse_bytes(const char *s, unsigned long long *v)
{
	static const char units[] = "KMGT";
	unsigned long long n;
	const char *u;
	char *end;

	errno = 0;
	n = strtoull(s, &end, 10);
	if (errno || end == s || *s == '-')
		return -1;
	if (*end) {
		u = strchr(units, *end);
		if (!u || end[1])
			return -1;
		if (n >> (64 - 10 * (u - units + 1)))
			return -1;
		n <<= 10 * (u - units + 1);
	}
	*v = n;
	return 0;
}

static int parse_count(const char *key, const char *s, unsigned int min,
		       unsigned int max, unsigned int *v)
{
	unsigned long n;
	char *end;

	errno = 0;
	n = strtoul(s, &end, 10);
	if (errno || end == s || *end || *s == '-' || n < min || n > max) {
		fprintf(stderr, "ism-region: %s = %s: a number from %u to %u\n",
			key, s, min, max);
		return -1;
	}
	*v = n;
	return 0;
}

static int set_string(char *dst, size_t n, const char *key,
		      const char *value)
{
	if (strlen(value) >= n)
		return say_conf(key, value, "too long");
	strcpy(dst, value);
	return 0;
}

/* conf_set: one key; 0, or -1 with the reason printed */
int conf_set(struct region_conf *c, const char *key, const char *value)
{
	unsigned long long v;
	char *end;

	if (!strcmp(key, "mode")) {
		if (strcmp(value, "doorbell") && strcmp(value, "plain"))
			return say_conf(key, value, "doorbell or plain");
		c->plain = !strcmp(value, "plain");
	} else if (!strcmp(key, "size")) {
		if (parse_bytes(value, &v) || v < SMALLEST_REGION ||
		    v > IVSHM_MAX_REGION || (v & (v - 1)))
			return say_conf(key, value,
					"a power of two from 1M to 1T (K, M, G, T)");
		c->size = v;
		c->given |= REGION_GIVEN_SIZE;
	} else if (!strcmp(key, "buffer")) {
		if (parse_bytes(value, &v) || v < REGION_BUF_MIN ||
		    v > REGION_BUF_MAX || (v & (v - 1)))
			return say_conf(key, value,
					"a power of two from 16K to 1M, as SMC-D's buffers");
		c->buffer = v;
	} else if (!strcmp(key, "guests")) {
		return parse_count(key, value, 1, IVSHM_MAX_PEERS, &c->guests);
	} else if (!strcmp(key, "connections")) {
		c->given |= REGION_GIVEN_CONNS;
		return parse_count(key, value, 1, IVSHM_MAX_DMBS,
				   &c->connections);
	} else if (!strcmp(key, "peers")) {
		c->given |= REGION_GIVEN_PEERS;
		return parse_count(key, value, IVSHM_MIN_PEERS, IVSHM_MAX_PEERS,
				   &c->peers);
	} else if (!strcmp(key, "dmbs")) {
		c->given |= REGION_GIVEN_DMBS;
		return parse_count(key, value, 1, IVSHM_MAX_DMBS, &c->dmbs);
	} else if (!strcmp(key, "evq")) {
		if (parse_count(key, value, IVSHM_MIN_EVQ, IVSHM_MAX_EVQ,
				&c->evq))
			return -1;
		if (c->evq & (c->evq - 1))
			return say_conf(key, value, "a power of two");
	} else if (!strcmp(key, "vectors")) {
		return parse_count(key, value, 1, 64, &c->vectors);
	} else if (!strcmp(key, "memory") || !strcmp(key, "socket")) {
		if (value[0] != '/')
			return say_conf(key, value, "an absolute path");
		if (!strcmp(key, "memory"))
			c->given |= REGION_GIVEN_MEMORY;
		return set_string(!strcmp(key, "memory") ? c->memory : c->socket,
				  sizeof(c->memory), key, value);
	} else if (!strcmp(key, "user")) {
		return set_string(c->user, sizeof(c->user), key, value);
	} else if (!strcmp(key, "group")) {
		return set_string(c->group, sizeof(c->group), key, value);
	} else if (!strcmp(key, "perm")) {
		errno = 0;
		v = strtoul(value, &end, 8);
		if (errno || end == value || *end || v > 0777)
			return say_conf(key, value, "an octal mode up to 0777");
		c->perm = v;
	} else {
		fprintf(stderr, "ism-region: unknown key %s\n", key);
		return -1;
	}
	return 0;
}

static char *trim(char *s)
{
	char *e;

	s += strspn(s, " \t");
	e = s + strlen(s);
	while (e > s && strchr(" \t\r\n", e[-1]))
		e--;
	*e = '\0';
	return s;
}

/* conf_read: PATH's keys over the defaults; 0, or -1 with the reason */
int conf_read(struct region_conf *c, const char *path)
{
	char line[PATH_MAX + 64], *key, *eq;
	int n = 0, rc = 0;
	FILE *f;

	f = fopen(path, "re");
	if (!f) {
		fprintf(stderr, "ism-region: %s: %s\n", path, strerror(errno));
		return -1;
	}
	while (fgets(line, sizeof(line), f)) {
		n++;
		if (strchr(line, '#'))
			*strchr(line, '#') = '\0';
		key = trim(line);
		if (!*key)
			continue;
		eq = strchr(key, '=');
		if (!eq) {
			fprintf(stderr, "ism-region: %s:%d: not key = value\n",
				path, n);
			rc = -1;
			continue;
		}
		*eq = '\0';
		if (conf_set(c, trim(key), trim(eq + 1))) {
			fprintf(stderr, "ism-region: ... in %s:%d\n", path, n);
			rc = -1;
		}
	}
	fclose(f);
	return rc;
}

/*
 * region_buffers: buffers of @buffer bytes every guest's partition holds,
 * each aligned in the region to its size (at most 1 MiB), and no more
 * than the DMB indexes.
 */
unsigned int region_buffers(const struct ivshm_geo *geo, unsigned int buffer)
{
	unsigned long long start, end, first, n, least = geo->max_dmbs;
	unsigned int slot;

	for (slot = 0; slot < geo->max_peers; slot++) {
		start = geo->part_off + (unsigned long long)slot * geo->part_size +
			geo->data_off;
		end = start + geo->data_len;
		first = ivshm_align(start, buffer);
		n = first < end ? (end - first) / buffer : 0;
		if (n < least)
			least = n;
	}
	return least;
}

static int fits(const struct region_conf *c, unsigned long long size,
		struct ivshm_geo *geo)
{
	return !ivshm_geometry(geo, size, c->peers, c->dmbs, c->evq) &&
	       region_buffers(geo, c->buffer) >= c->connections;
}

/*
 * conf_resolve: peers, DMB indexes and, without "size", the smallest
 * power of two that holds the connections; with "size" and "connections",
 * check that it does. 0, or -1 with the reason printed.
 */
int conf_resolve(struct region_conf *c)
{
	struct ivshm_geo geo;
	unsigned long long size;

	if (!(c->given & REGION_GIVEN_PEERS))
		c->peers = c->guests > IVSHM_MIN_PEERS ? c->guests
						       : IVSHM_MIN_PEERS;
	if (c->guests > c->peers) {
		fprintf(stderr, "ism-region: guests = %u: more than peers = %u\n",
			c->guests, c->peers);
		return -1;
	}
	/* SMC keeps a closed connection's buffer for the next: room for both. */
	if (!(c->given & REGION_GIVEN_DMBS))
		c->dmbs = c->connections * 2 < IVSHM_MAX_DMBS ?
			  c->connections * 2 : IVSHM_MAX_DMBS;
	if (c->dmbs < c->connections) {
		fprintf(stderr, "ism-region: dmbs = %u: fewer than connections = %u\n",
			c->dmbs, c->connections);
		return -1;
	}
	if (c->given & REGION_GIVEN_SIZE) {
		if (ivshm_geometry(&geo, c->size, c->peers, c->dmbs, c->evq)) {
			fprintf(stderr, "ism-region: size = %llu has no room for %u peers of %u DMBs\n",
				c->size, c->peers, c->dmbs);
			return -1;
		}
		if ((c->given & REGION_GIVEN_CONNS) && !fits(c, c->size, &geo)) {
			fprintf(stderr, "ism-region: size = %llu holds %u buffers of %u bytes per guest; connections = %u asks for more\n",
				c->size, region_buffers(&geo, c->buffer),
				c->buffer, c->connections);
			return -1;
		}
		return 0;
	}
	for (size = SMALLEST_REGION; size <= IVSHM_MAX_REGION; size <<= 1)
		if (fits(c, size, &geo)) {
			c->size = size;
			return 0;
		}
	fprintf(stderr, "ism-region: %u connections of %u bytes for %u peers need more than %llu bytes\n",
		c->connections, c->buffer, c->peers, IVSHM_MAX_REGION);
	return -1;
}

/* conf_print: the resolved configuration, in the file's own syntax */
void conf_print(const struct region_conf *c, FILE *f)
{
	fprintf(f, "# region %s, resolved\n", c->name);
	fprintf(f, "mode = %s\n", c->plain ? "plain" : "doorbell");
	fprintf(f, "size = %llu\n", c->size);
	fprintf(f, "guests = %u\nconnections = %u\nbuffer = %u\n", c->guests,
		c->connections, c->buffer);
	fprintf(f, "peers = %u\ndmbs = %u\nevq = %u\nvectors = %u\n", c->peers,
		c->dmbs, c->evq, c->vectors);
	fprintf(f, "memory = %s\n", c->memory);
	if (!c->plain)
		fprintf(f, "socket = %s\n", c->socket);
	if (*c->user)
		fprintf(f, "user = %s\n", c->user);
	if (*c->group)
		fprintf(f, "group = %s\n", c->group);
	fprintf(f, "perm = %04o\n", c->perm);
}
