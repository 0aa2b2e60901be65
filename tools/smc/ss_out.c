// SPDX-License-Identifier: GPL-2.0
/*
 * smc_ss output: one text line, or one JSON object, per socket.
 */
#include <stdio.h>
#include <arpa/inet.h>

#include "smc_decl.h"
#include "smc_ss.h"

const char *ss_state_name(uint8_t state)
{
	switch (state) {	/* enum smc_state of net/smc/smc.h */
	case 1:
		return "ACTIVE";
	case 2:
		return "INIT";
	case 7:
		return "CLOSED";
	case 10:
		return "LISTEN";
	case 20:
		return "PEERCLOSEWAIT1";
	case 21:
		return "PEERCLOSEWAIT2";
	case 22:
		return "APPCLOSEWAIT1";
	case 23:
		return "APPCLOSEWAIT2";
	case 24:
		return "APPFINCLOSEWAIT";
	case 25:
		return "PEERFINCLOSEWAIT";
	case 26:
		return "PEERABORTWAIT";
	case 27:
		return "PROCESSABORT";
	default:
		return "UNKNOWN";
	}
}

const char *ss_mode_name(enum ss_mode mode)
{
	static const char *const names[] = {
		[SS_MODE_NONE] = "-",
		[SS_MODE_SMCR] = "SMCR",
		[SS_MODE_SMCD] = "SMCD",
		[SS_MODE_TCP] = "TCP",
	};

	return names[mode];
}

static void ss_addr(const struct ss_sock *s, int local, char *addr,
		    size_t addrsize, char *full, size_t fullsize)
{
	const uint8_t *a = local ? s->src : s->dst;
	uint16_t port = local ? s->sport : s->dport;

	if (!inet_ntop(s->v6 ? AF_INET6 : AF_INET, a, addr, addrsize))
		snprintf(addr, addrsize, "?");
	if (s->v6)
		snprintf(full, fullsize, "[%s]:%u", addr, port);
	else
		snprintf(full, fullsize, "%s:%u", addr, port);
}

void ss_text_header(void)
{
	printf("%-16s %-24s %-24s %-4s %s\n", "State", "Local Address",
	       "Peer Address", "Mode", "Details");
}

static void ss_text_cursors(const struct smc_diag_conninfo *c)
{
	printf(" rx_prod %u:%u rx_cons %u:%u tx_prod %u:%u tx_cons %u:%u",
	       c->rx_prod.wrap, c->rx_prod.count, c->rx_cons.wrap,
	       c->rx_cons.count, c->tx_prod.wrap, c->tx_prod.count,
	       c->tx_cons.wrap, c->tx_cons.count);
	printf(" tx_prep %u:%u tx_sent %u:%u tx_fin %u:%u",
	       c->tx_prep.wrap, c->tx_prep.count, c->tx_sent.wrap,
	       c->tx_sent.count, c->tx_fin.wrap, c->tx_fin.count);
	printf(" flags rx %02x/%02x tx %02x/%02x", c->rx_prod_flags,
	       c->rx_conn_state_flags, c->tx_prod_flags,
	       c->tx_conn_state_flags);
}

void ss_text(const struct ss_sock *s, int extended)
{
	char addr[INET6_ADDRSTRLEN], local[64], peer[64];

	ss_addr(s, 1, addr, sizeof(addr), local, sizeof(local));
	ss_addr(s, 0, addr, sizeof(addr), peer, sizeof(peer));
	printf("%-16s %-24s %-24s %-4s", ss_state_name(s->state), local, peer,
	       ss_mode_name(s->mode));
	if (s->mode == SS_MODE_TCP || s->fallback.reason) {
		printf(" fallback 0x%08x %s", s->fallback.reason,
		       smc_decl_name(s->fallback.reason));
		if (s->fallback.peer_diagnosis)
			printf(" peer 0x%08x %s", s->fallback.peer_diagnosis,
			       smc_decl_name(s->fallback.peer_diagnosis));
	}
	if (s->has_dmb)
		printf(" gid 0x%016llx peer_gid 0x%016llx dmb 0x%llx peer_dmb 0x%llx",
		       (unsigned long long)s->dmb.my_gid,
		       (unsigned long long)s->dmb.peer_gid,
		       (unsigned long long)s->dmb.token,
		       (unsigned long long)s->dmb.peer_token);
	if (s->has_conn)
		printf(" rmbe %u peer_rmbe %u sndbuf %u", s->conn.rmbe_size,
		       s->conn.peer_rmbe_size, s->conn.sndbuf_size);
	if (extended && s->has_conn)
		ss_text_cursors(&s->conn);
	printf("\n");
}

void ss_json_begin(void)
{
	printf("[");
}

void ss_json_end(void)
{
	printf("]\n");
}

static void ss_json_cursor(const char *name, const struct smc_diag_cursor *c)
{
	printf(",\"%s\":{\"wrap\":%u,\"count\":%u}", name, c->wrap, c->count);
}

static void ss_json_conn(const struct smc_diag_conninfo *c)
{
	printf(",\"conn\":{\"token\":%u,\"sndbuf\":%u,\"rmbe\":%u,\"peer_rmbe\":%u",
	       c->token, c->sndbuf_size, c->rmbe_size, c->peer_rmbe_size);
	ss_json_cursor("rx_prod", &c->rx_prod);
	ss_json_cursor("rx_cons", &c->rx_cons);
	ss_json_cursor("tx_prod", &c->tx_prod);
	ss_json_cursor("tx_cons", &c->tx_cons);
	ss_json_cursor("tx_prep", &c->tx_prep);
	ss_json_cursor("tx_sent", &c->tx_sent);
	ss_json_cursor("tx_fin", &c->tx_fin);
	printf("}");
}

static void ss_json_dmb(const struct smcd_diag_dmbinfo *d)
{
	printf(",\"dmb\":{\"linkid\":%u,\"my_gid\":\"0x%016llx\",\"peer_gid\":\"0x%016llx\",\"token\":\"0x%llx\",\"peer_token\":\"0x%llx\"}",
	       d->linkid, (unsigned long long)d->my_gid,
	       (unsigned long long)d->peer_gid, (unsigned long long)d->token,
	       (unsigned long long)d->peer_token);
}

/* All strings printed are ours or addresses: nothing needs escaping. */
void ss_json(const struct ss_sock *s, int first)
{
	char laddr[INET6_ADDRSTRLEN], paddr[INET6_ADDRSTRLEN];
	char local[64], peer[64];
	const struct smc_diag_fallback *f = &s->fallback;

	ss_addr(s, 1, laddr, sizeof(laddr), local, sizeof(local));
	ss_addr(s, 0, paddr, sizeof(paddr), peer, sizeof(peer));
	printf("%s{\"state\":\"%s\",\"state_num\":%u,\"mode\":\"%s\",\"diag_mode\":%u",
	       first ? "" : ",\n", ss_state_name(s->state), s->state,
	       ss_mode_name(s->mode), s->diag_mode);
	printf(",\"family\":\"%s\",\"local\":\"%s\",\"local_addr\":\"%s\",\"local_port\":%u",
	       s->v6 ? "inet6" : "inet", local, laddr, s->sport);
	printf(",\"peer\":\"%s\",\"peer_addr\":\"%s\",\"peer_port\":%u",
	       peer, paddr, s->dport);
	printf(",\"uid\":%u,\"inode\":%llu,\"shutdown\":%u", s->uid,
	       (unsigned long long)s->inode, s->shutdown);
	printf(",\"fallback\":{\"reason\":%u,\"reason_hex\":\"0x%08x\",\"name\":\"%s\",\"text\":\"%s\"",
	       f->reason, f->reason, smc_decl_name(f->reason),
	       smc_decl_text(f->reason));
	printf(",\"peer_diagnosis\":%u,\"peer_diagnosis_hex\":\"0x%08x\",\"peer_name\":\"%s\"}",
	       f->peer_diagnosis, f->peer_diagnosis,
	       smc_decl_name(f->peer_diagnosis));
	if (s->has_conn)
		ss_json_conn(&s->conn);
	if (s->has_dmb)
		ss_json_dmb(&s->dmb);
	printf("}");
}
