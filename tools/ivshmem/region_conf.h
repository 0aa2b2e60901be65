/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ism-region: a region's configuration, /etc/ism/regions/NAME.conf
 * (ism-region.8 documents the keys), and the capacity arithmetic that
 * sizes a region for a number of guests and SMC-D connections.
 */
#ifndef REGION_CONF_H
#define REGION_CONF_H

#include <limits.h>
#include <linux/ism_ivshm.h>
#include <stdio.h>

#define REGION_CONF_DIR		"/etc/ism/regions"
#define REGION_NAME_MAX		32
/* SMC's receive buffers: powers of two from 16 KiB to 1 MiB for SMC-D. */
#define REGION_BUF_MIN		(16U << 10)
#define REGION_BUF_MAX		(1U << 20)

struct region_conf {
	char name[REGION_NAME_MAX + 1];
	int plain;			/* mode = plain: no doorbell server */
	unsigned long long size;	/* bytes of the region */
	unsigned int guests;		/* guests that share it */
	unsigned int connections;	/* SMC-D connections per guest */
	unsigned int buffer;		/* bytes of SMC's buffer (net.smc.rmem) */
	unsigned int peers;		/* peer slots, at least guests */
	unsigned int dmbs;		/* DMB indexes per peer */
	unsigned int evq;		/* event queue entries */
	unsigned int vectors;		/* interrupt vectors per guest */
	char memory[PATH_MAX];		/* the shared file */
	char socket[PATH_MAX];		/* the doorbell server's socket */
	char user[64];			/* owner of both, "" to leave */
	char group[64];
	unsigned int perm;		/* their permissions */
	unsigned int given;		/* REGION_GIVEN_* of keys set */
};

#define REGION_GIVEN_SIZE	0x1
#define REGION_GIVEN_CONNS	0x2
#define REGION_GIVEN_PEERS	0x4
#define REGION_GIVEN_DMBS	0x8
#define REGION_GIVEN_MEMORY	0x10

void conf_defaults(struct region_conf *c, const char *name);
int conf_read(struct region_conf *c, const char *path);
int conf_set(struct region_conf *c, const char *key, const char *value);
int conf_resolve(struct region_conf *c);
void conf_print(const struct region_conf *c, FILE *f);
int conf_name_ok(const char *name);
int parse_bytes(const char *s, unsigned long long *v);

unsigned int region_buffers(const struct ivshm_geo *geo, unsigned int buffer);

#endif /* REGION_CONF_H */
