/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SMC generic netlink family "SMC_GEN_NETLINK" of smc.ko.
 */
#ifndef SMC_TOOLS_SMC_GENL_H
#define SMC_TOOLS_SMC_GENL_H

#include <linux/smc.h>

#include "../lib/nl/nl.h"

struct smc_genl {
	struct nl_sock nl;
	uint16_t family;
};

/* Exit status of the tools when SMC cannot be reached at all. */
#define SMC_EXIT_NOSMC	3

int smc_genl_open(struct smc_genl *g, const char *prog);
void smc_genl_close(struct smc_genl *g);
int smc_genl_dump(struct smc_genl *g, uint8_t cmd, nl_msg_cb cb, void *arg);
void smc_genl_req(struct smc_genl *g, struct nl_req *req, uint8_t cmd);

#endif /* SMC_TOOLS_SMC_GENL_H */
