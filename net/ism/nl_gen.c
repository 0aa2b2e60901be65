// SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause)
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/ism.yaml */
/* YNL-GEN kernel source */

#include <net/netlink.h>
#include <net/genetlink.h>

#include "nl_gen.h"

#include <uapi/linux/ism.h>

/* Global operation policy for ism */
const struct nla_policy ism_nl_policy[ISM_ATTR_DEV_TYPE + 1] = {
	[ISM_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ISM_NAME_MAXLEN, },
	[ISM_ATTR_DEV_TYPE] = { .type = NLA_NUL_STRING, .len = ISM_NAME_MAXLEN, },
};

/* Ops table for ism */
const struct genl_small_ops ism_nl_ops[6] = {
	{
		.cmd	= ISM_CMD_DEV_GET,
		.doit	= ism_nl_dev_get_doit,
		.dumpit	= ism_nl_dev_get_dumpit,
	},
	{
		.cmd	= ISM_CMD_DMB_GET,
		.dumpit	= ism_nl_dmb_get_dumpit,
	},
	{
		.cmd	= ISM_CMD_CLIENT_GET,
		.dumpit	= ism_nl_client_get_dumpit,
	},
	{
		.cmd	= ISM_CMD_STATS_RESET,
		.doit	= ism_nl_stats_reset_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= ISM_CMD_DEV_NEW,
		.doit	= ism_nl_dev_new_doit,
		.flags	= GENL_ADMIN_PERM,
	},
	{
		.cmd	= ISM_CMD_DEV_DEL,
		.doit	= ism_nl_dev_del_doit,
		.flags	= GENL_ADMIN_PERM,
	},
};
