// SPDX-License-Identifier: GPL-2.0
/*
 * ism-ynl-dump [DEV]: the ism family's devices and clients, read with the
 * code that ynl-gen-c.py generates from the family's YNL spec and the ynl
 * C library: a second client, which shares nothing with ismctl but the
 * spec. One line per object, KEY=VALUE words, keys as ismctl -j names
 * them:
 *   dev name=N type=T gid=HEX chid=N [parent=P] max_dmbs=N max_dmb_len=N
 *	dmbs=N going=0|1 moves=N move_bytes=N ...
 *   client name=N id=N devs=N dmbs=N
 * With DEV, first the reply to a do request (dev-get) for DEV, as a "get"
 * line. Exit status 1 if a request fails.
 */
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <ynl.h>
#include "ism-user.h"

/* The counters of struct ism_stats, named as ismctl -j names them. The
 * kernel sends every one.
 */
#define STAT(f) { #f, offsetof(struct ism_stats, f) }
static const struct {
	const char *name;
	size_t off;
} stats[] = {
	STAT(moves), STAT(move_bytes), STAT(signals), STAT(events_sent),
	STAT(irqs), STAT(events), STAT(dmbs_registered),
	STAT(dmbs_unregistered), STAT(err_token), STAT(err_inval),
	STAT(err_nospc), STAT(err_nomem), STAT(err_irq_dropped),
	STAT(err_other),
};

static void print_stats(const struct ism_stats *s)
{
	const __u64 *val;
	size_t i;

	for (i = 0; i < sizeof(stats) / sizeof(stats[0]); i++) {
		val = (const void *)((const char *)s + stats[i].off);
		printf(" %s=%llu", stats[i].name, (unsigned long long)*val);
	}
}

static void print_dev(const char *tag, const struct ism_dev_get_rsp *d)
{
	const unsigned char *gid = d->dev_gid;
	unsigned int i;

	printf("%s name=%s", tag, d->_present.dev_name_len ? d->dev_name : "");
	if (d->_present.dev_type_len)
		printf(" type=%s", d->dev_type);
	printf(" gid=");
	for (i = 0; i < d->_present.dev_gid_len; i++)
		printf("%02x", gid[i]);
	if (d->_present.dev_chid)
		printf(" chid=%u", d->dev_chid);
	if (d->_present.dev_parent_len)
		printf(" parent=%s", d->dev_parent);
	if (d->_present.dev_max_dmbs)
		printf(" max_dmbs=%u", d->dev_max_dmbs);
	if (d->_present.dev_max_dmb_len)
		printf(" max_dmb_len=%u", d->dev_max_dmb_len);
	if (d->_present.dev_dmbs)
		printf(" dmbs=%u", d->dev_dmbs);
	printf(" going=%u", d->_present.dev_going);
	if (d->_present.dev_stats)
		print_stats(&d->dev_stats);
	printf("\n");
}

static int failed(struct ynl_sock *ys, const char *what)
{
	fprintf(stderr, "ism-ynl-dump: %s: %s\n", what, ys->err.msg);
	return 1;
}

static int get_dev(struct ynl_sock *ys, const char *name)
{
	struct ism_dev_get_req *req = ism_dev_get_req_alloc();
	struct ism_dev_get_rsp *rsp;

	ism_dev_get_req_set_dev_name(req, name);
	rsp = ism_dev_get(ys, req);
	ism_dev_get_req_free(req);
	if (!rsp)
		return failed(ys, "dev-get");
	print_dev("get", rsp);
	ism_dev_get_rsp_free(rsp);
	return 0;
}

static int dump_devs(struct ynl_sock *ys)
{
	struct ism_dev_get_list *devs = ism_dev_get_dump(ys);

	if (!devs)
		return failed(ys, "dev-get dump");
	ynl_dump_foreach(devs, d)
		print_dev("dev", d);
	ism_dev_get_list_free(devs);
	return 0;
}

static int dump_clients(struct ynl_sock *ys)
{
	struct ism_client_get_rsp_list *clients = ism_client_get_dump(ys);

	if (!clients)
		return failed(ys, "client-get dump");
	ynl_dump_foreach(clients, c)
		printf("client name=%s id=%u devs=%u dmbs=%u\n",
		       c->_present.client_name_len ? c->client_name : "",
		       c->client_id, c->client_devs, c->client_dmbs);
	ism_client_get_rsp_list_free(clients);
	return 0;
}

int main(int argc, char **argv)
{
	struct ynl_error yerr;
	struct ynl_sock *ys;
	int ret = 0;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-')) {
		fprintf(stderr, "usage: ism-ynl-dump [DEV]\n");
		return 2;
	}
	ys = ynl_sock_create(&ynl_ism_family, &yerr);
	if (!ys) {
		fprintf(stderr, "ism-ynl-dump: %s\n", yerr.msg);
		return 1;
	}
	if (argc == 2)
		ret = get_dev(ys, argv[1]);
	if (!ret)
		ret = dump_devs(ys) || dump_clients(ys);
	ynl_sock_destroy(ys);
	return ret;
}
