// SPDX-License-Identifier: GPL-2.0
/*
 * Opening the SMC generic netlink family, and its dump requests.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "smc_genl.h"

/* 0, or a negative errno after telling the user what went wrong. */
int smc_genl_open(struct smc_genl *g, const char *prog)
{
	int err;

	err = nl_open(&g->nl, NETLINK_GENERIC);
	if (err) {
		fprintf(stderr, "%s: netlink socket: %s\n", prog,
			strerror(-err));
		return err;
	}
	err = genl_family_id(&g->nl, SMC_GENL_FAMILY_NAME, &g->family);
	if (err == -ENOENT) {
		fprintf(stderr,
			"%s: generic netlink family %s not found: is smc.ko loaded?\n",
			prog, SMC_GENL_FAMILY_NAME);
	} else if (err) {
		fprintf(stderr, "%s: resolving %s: %s\n", prog,
			SMC_GENL_FAMILY_NAME, strerror(-err));
	}
	if (err)
		nl_close(&g->nl);
	return err;
}

void smc_genl_close(struct smc_genl *g)
{
	nl_close(&g->nl);
}

void smc_genl_req(struct smc_genl *g, struct nl_req *req, uint8_t cmd)
{
	genl_req_init(req, g->family, cmd, SMC_GENL_FAMILY_VERSION, NLM_F_ACK);
}

int smc_genl_dump(struct smc_genl *g, uint8_t cmd, nl_msg_cb cb, void *arg)
{
	struct nl_req req;

	genl_req_init(&req, g->family, cmd, SMC_GENL_FAMILY_VERSION,
		      NLM_F_DUMP);
	return nl_talk(&g->nl, &req, cb, arg);
}
