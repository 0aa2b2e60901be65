/* SPDX-License-Identifier: GPL-2.0 */
/*
 * ismctl: show and control ISM devices through the "ism" generic netlink
 * family. Shared declarations of the tool's files:
 *   main.c    options, command dispatch, help
 *   ../lib/nl the netlink layer of the tools: socket, requests, dumps,
 *             extended ACKs
 *   attr.c    attribute policies and parsing of the ism family
 *   out.c     plain text and JSON output
 *   dev.c, dmb.c, client.c, stats.c   the objects
 */
#ifndef ISMCTL_H
#define ISMCTL_H

#include <stdbool.h>
#include <stdint.h>
#include <linux/ism.h>

#include "../lib/nl/nl.h"
#include "../include/compiler.h"

#define ISMCTL_VERSION	"1.0"

/* Exit statuses, as the tools/smc tools have them. */
#define EXIT_ERR	1	/* the kernel refused a request */
#define EXIT_USAGE	2	/* bad command line */
#define EXIT_NOISM	3	/* no ism family (ism_core not loaded) */

/* ---- main.c ---- */
struct ismctl {
	struct nl_sock nl;	/* opened by the first ism_req() */
	int stats;		/* -s */
	bool no_wait;		/* -n: dev del returns once the kernel accepted */
	char what[64];		/* the command, for error messages */
};

bool matches(const char *arg, const char *word);
int usage_error(const char *fmt, ...) __printf(1, 2);
int check_name(const char *what, const char *name);
int report(struct ismctl *c, int err);
void ism_req(struct ismctl *c, struct nl_req *req, uint8_t cmd,
	     uint16_t flags);

int do_dev(struct ismctl *c, int argc, char **argv);
int do_dmb(struct ismctl *c, int argc, char **argv);
int do_client(struct ismctl *c, int argc, char **argv);
int do_stats(struct ismctl *c, int argc, char **argv);
int do_user(struct ismctl *c, int argc, char **argv);
int dev_show(struct ismctl *c, const char *name);

/* ---- attr.c ---- */
#define GID_STR_LEN	36	/* xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx */

int ism_parse(const struct nlmsghdr *nlh, const struct nlattr **tb);
int ism_parse_stats(const struct nlattr *nest, const struct nlattr **tb);
const char *ism_stat_key(unsigned int type, char *buf, size_t size);
const char *ism_str(const struct nlattr *a);
uint64_t ism_uint(const struct nlattr *a);
void ism_gid_str(const struct nlattr *a, char *buf);

/* ---- out.c ---- */
void out_init(bool json, bool pretty);
bool out_is_json(void);
void out_list_start(void);
void out_list_end(void);
void out_obj_start(const char *key);
void out_obj_end(void);
void out_arr_start(const char *key);
void out_arr_end(void);
/*
 * In JSON, "key": value (no key inside an array); in text, printf(@fmt,
 * value) if @fmt is not NULL. Strings are escaped for either form.
 */
void out_str(const char *key, const char *fmt, const char *val);
void out_uint(const char *key, const char *fmt, unsigned long long val);
/* In JSON, "key": true; in text, @text if not NULL. */
void out_flag(const char *key, const char *text);
void out_kv_str(const char *key, const char *val);
void out_kv_uint(const char *key, unsigned long long val);
/* Text only. */
void out_text(const char *fmt, ...) __printf(1, 2);
/* A string from the kernel for a terminal: non-printable bytes as \xHH. */
const char *out_esc(const char *str);

/* ---- stats.c ---- */
int stats_print(const struct nlattr *nest);

#endif /* ISMCTL_H */
