// SPDX-License-Identifier: GPL-2.0
/*
 * smc_ss: list AF_SMC sockets through NETLINK_SOCK_DIAG (smc_diag.ko).
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <arpa/inet.h>
#include <sys/socket.h>
#include <linux/sock_diag.h>

#include "../lib/nl/nl.h"
#include "smc_ss.h"

static const char help[] =
"NAME\n"
"    smc_ss - list SMC sockets\n"
"\n"
"SYNOPSIS\n"
"    smc_ss [-a] [-D | -R | -T] [-e] [-j]\n"
"    smc_ss -h | --help\n"
"\n"
"DESCRIPTION\n"
"    Dumps the AF_SMC sockets of the current network namespace through\n"
"    NETLINK_SOCK_DIAG (smc_diag.ko), IPv4 and IPv6 alike, one line per\n"
"    socket: state, local and peer address of the internal TCP socket,\n"
"    mode and details. Modes:\n"
"      SMCD  the connection runs over SMC-D; details: local and peer GID,\n"
"            local DMB token, peer DMB token, DMB and send buffer sizes\n"
"      SMCR  the connection runs over SMC-R (RDMA)\n"
"      TCP   the socket fell back to TCP; details: the reason, a CLC\n"
"            decline code in hex with its short name (e.g. 0x03030008\n"
"            NOUEID), and the peer's diagnosis code if the peer declined\n"
"      -     no connection (yet): listening, new or closed sockets\n"
"    smc_diag does not say whether a socket is IPv4 or IPv6: a socket\n"
"    counts as IPv6 when an address has bits beyond the first 32 set, so\n"
"    an unbound IPv6 socket shows as 0.0.0.0.\n"
"\n"
"OPTIONS\n"
"    -a          all sockets, including listening ones\n"
"    -D          only SMC-D sockets\n"
"    -R          only SMC-R sockets\n"
"    -T          only sockets that fell back to TCP\n"
"    -e          extended: connection cursors and flags (text output)\n"
"    -j          JSON: one array of objects with the fields state, mode,\n"
"                diag_mode, family, local, peer (\"addr:port\"),\n"
"                local_addr, local_port, peer_addr, peer_port, uid, inode,\n"
"                shutdown, fallback {reason, reason_hex, name, text,\n"
"                peer_diagnosis, peer_diagnosis_hex, peer_name} and, when\n"
"                known, conn {token, sndbuf, rmbe, peer_rmbe, rx_prod,\n"
"                rx_cons, tx_prod, tx_cons, tx_prep, tx_sent, tx_fin} and\n"
"                dmb {linkid, my_gid, peer_gid, token, peer_token}\n"
"    -h, --help  show this text\n"
"\n"
"EXIT STATUS\n"
"    0  success (also when no socket matched)\n"
"    1  the dump failed\n"
"    2  usage error\n"
"    3  smc_diag is not available (smc_diag.ko not loaded)\n"
"\n"
"EXAMPLES\n"
"    smc_ss -a\n"
"    smc_ss -D\n"
"    smc_ss -j | grep -c '\"mode\":\"SMCD\"'\n";

struct ss_opts {
	int all;
	int only_mode;		/* enum ss_mode, or -1 for any */
	int extended;
	int json;
	int count;
};

static void ss_attr(const struct nlattr *a, void *v, size_t size, int *has)
{
	*has = !!a;
	nl_attr_copy(a, v, size);
}

static int ss_addr_is_v6(const uint32_t *addr)
{
	return addr[1] || addr[2] || addr[3];
}

static void ss_parse(const struct nlmsghdr *nlh, struct ss_sock *s)
{
	const struct smc_diag_msg *r = NLMSG_DATA(nlh);
	size_t off = NLMSG_HDRLEN + NLMSG_ALIGN(sizeof(*r));
	const struct nlattr *tb[SMC_DIAG_MAX + 1];
	int has;

	memset(s, 0, sizeof(*s));
	nl_attr_parse((const char *)nlh + off, nlh->nlmsg_len - off, tb,
		      SMC_DIAG_MAX);
	s->state = r->diag_state;
	s->diag_mode = r->diag_mode;
	s->v6 = ss_addr_is_v6(r->id.idiag_src) ||
		ss_addr_is_v6(r->id.idiag_dst);
	memcpy(s->src, r->id.idiag_src, sizeof(s->src));
	memcpy(s->dst, r->id.idiag_dst, sizeof(s->dst));
	s->sport = ntohs(r->id.idiag_sport);
	s->dport = ntohs(r->id.idiag_dport);
	s->ifindex = r->id.idiag_if;
	s->uid = r->diag_uid;
	s->inode = r->diag_inode;
	ss_attr(tb[SMC_DIAG_SHUTDOWN], &s->shutdown, sizeof(s->shutdown),
		&has);
	ss_attr(tb[SMC_DIAG_FALLBACK], &s->fallback, sizeof(s->fallback),
		&s->has_fallback);
	ss_attr(tb[SMC_DIAG_CONNINFO], &s->conn, sizeof(s->conn),
		&s->has_conn);
	ss_attr(tb[SMC_DIAG_DMBINFO], &s->dmb, sizeof(s->dmb), &s->has_dmb);
	ss_attr(tb[SMC_DIAG_LGRINFO], &s->lgr, sizeof(s->lgr), &s->has_lgr);

	switch (s->diag_mode) {
	case SMC_DIAG_MODE_FALLBACK_TCP:
		s->mode = SS_MODE_TCP;
		break;
	case SMC_DIAG_MODE_SMCD:
		s->mode = SS_MODE_SMCD;
		break;
	default:
		/* the kernel's default; real SMC-R sockets have a connection */
		s->mode = s->has_conn || s->has_lgr ? SS_MODE_SMCR :
						      SS_MODE_NONE;
		break;
	}
}

static int ss_cb(const struct nlmsghdr *nlh, void *arg)
{
	struct ss_opts *o = arg;
	struct ss_sock s;

	if (nlh->nlmsg_type != SOCK_DIAG_BY_FAMILY ||
	    nlh->nlmsg_len < NLMSG_LENGTH(sizeof(struct smc_diag_msg)))
		return 0;
	ss_parse(nlh, &s);
	if (!o->all && s.state == 10 /* SMC_LISTEN */)
		return 0;
	if (o->only_mode >= 0 && (int)s.mode != o->only_mode)
		return 0;
	if (o->json) {
		ss_json(&s, !o->count);
	} else {
		if (!o->count)
			ss_text_header();
		ss_text(&s, o->extended);
	}
	o->count++;
	return 0;
}

static int ss_dump(struct ss_opts *o)
{
	struct smc_diag_req dreq = {
		.diag_family = AF_SMC,
		.diag_ext = 1 << (SMC_DIAG_CONNINFO - 1) |
			    1 << (SMC_DIAG_LGRINFO - 1) |
			    1 << (SMC_DIAG_DMBINFO - 1),
	};
	struct nl_sock nl;
	struct nl_req req;
	int err;

	err = nl_open(&nl, NETLINK_SOCK_DIAG);
	if (err) {
		fprintf(stderr, "smc_ss: netlink socket: %s\n", strerror(-err));
		return 3;
	}
	nl_req_init(&req, SOCK_DIAG_BY_FAMILY, NLM_F_DUMP);
	nl_req_put(&req, &dreq, sizeof(dreq));
	if (o->json)
		ss_json_begin();
	err = nl_talk(&nl, &req, ss_cb, o);
	if (o->json)
		ss_json_end();
	nl_close(&nl);
	if (err == -ENOENT) {
		fprintf(stderr,
			"smc_ss: no sock_diag handler for AF_SMC: is smc_diag.ko loaded?\n");
		return 3;
	}
	if (err) {
		fprintf(stderr, "smc_ss: dump failed: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	struct ss_opts o = { .only_mode = -1 };
	int i;

	for (i = 1; i < argc; i++) {
		const char *p = argv[i];

		if (!strcmp(p, "-h") || !strcmp(p, "--help")) {
			fputs(help, stdout);
			return 0;
		}
		if (p[0] != '-' || !p[1])
			goto usage;
		for (p++; *p; p++) {
			switch (*p) {
			case 'a':
				o.all = 1;
				break;
			case 'D':
				o.only_mode = SS_MODE_SMCD;
				break;
			case 'R':
				o.only_mode = SS_MODE_SMCR;
				break;
			case 'T':
				o.only_mode = SS_MODE_TCP;
				break;
			case 'e':
				o.extended = 1;
				break;
			case 'j':
				o.json = 1;
				break;
			default:
				goto usage;
			}
		}
	}
	return ss_dump(&o);
usage:
	fprintf(stderr, "smc_ss: usage: smc_ss [-a] [-D|-R|-T] [-e] [-j]\n"
		"Try 'smc_ss --help'.\n");
	return 2;
}
