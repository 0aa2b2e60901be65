/* SPDX-License-Identifier: GPL-2.0 */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/ism.yaml */
/* by tools/testing/ism/ynl-attr-table.py */
#ifndef ISM_ATTR_GEN_H
#define ISM_ATTR_GEN_H

#include <linux/ism.h>
#include "../lib/nl/nl.h"

static const struct nl_policy ism_attr_info[ISM_ATTR_MAX + 1] = {
	[ISM_ATTR_DEV_NAME] = { "dev-name", NL_ATTR_STRING },
	[ISM_ATTR_DEV_TYPE] = { "dev-type", NL_ATTR_STRING },
	[ISM_ATTR_DEV_GID] = { "dev-gid", NL_ATTR_BINARY, ISM_GID_LEN },
	[ISM_ATTR_DEV_CHID] = { "dev-chid", NL_ATTR_U16 },
	[ISM_ATTR_DEV_PARENT] = { "dev-parent", NL_ATTR_STRING },
	[ISM_ATTR_DEV_MAX_DMBS] = { "dev-max-dmbs", NL_ATTR_U32 },
	[ISM_ATTR_DEV_MAX_DMB_LEN] = { "dev-max-dmb-len", NL_ATTR_U32 },
	[ISM_ATTR_DEV_DMBS] = { "dev-dmbs", NL_ATTR_U32 },
	[ISM_ATTR_DEV_CLIENTS] = { "dev-clients", NL_ATTR_NESTED },
	[ISM_ATTR_DEV_STATS] = { "dev-stats", NL_ATTR_NESTED },
	[ISM_ATTR_DMB_TOKEN] = { "dmb-token", NL_ATTR_U64 },
	[ISM_ATTR_DMB_INDEX] = { "dmb-index", NL_ATTR_U32 },
	[ISM_ATTR_DMB_LEN] = { "dmb-len", NL_ATTR_U32 },
	[ISM_ATTR_DMB_RGID] = { "dmb-rgid", NL_ATTR_BINARY, ISM_GID_LEN },
	[ISM_ATTR_CLIENT_NAME] = { "client-name", NL_ATTR_STRING },
	[ISM_ATTR_CLIENT_ID] = { "client-id", NL_ATTR_U32 },
	[ISM_ATTR_CLIENT_DEVS] = { "client-devs", NL_ATTR_U32 },
	[ISM_ATTR_CLIENT_DMBS] = { "client-dmbs", NL_ATTR_U32 },
	[ISM_ATTR_DEV_GOING] = { "dev-going", NL_ATTR_FLAG },
	[ISM_ATTR_DEV_CLIENTS_REFUSED] = { "dev-clients-refused", NL_ATTR_NESTED },
	[ISM_ATTR_DEV_DMB_SPACE] = { "dev-dmb-space", NL_ATTR_U64 },
	[ISM_ATTR_DEV_DMB_SPACE_USED] = { "dev-dmb-space-used", NL_ATTR_U64 },
};

static const struct nl_policy ism_stat_attr_info[ISM_STAT_ATTR_MAX + 1] = {
	[ISM_STAT_ATTR_MOVES] = { "moves", NL_ATTR_U64 },
	[ISM_STAT_ATTR_MOVE_BYTES] = { "move-bytes", NL_ATTR_U64 },
	[ISM_STAT_ATTR_SIGNALS] = { "signals", NL_ATTR_U64 },
	[ISM_STAT_ATTR_EVENTS_SENT] = { "events-sent", NL_ATTR_U64 },
	[ISM_STAT_ATTR_IRQS] = { "irqs", NL_ATTR_U64 },
	[ISM_STAT_ATTR_EVENTS] = { "events", NL_ATTR_U64 },
	[ISM_STAT_ATTR_DMBS_REGISTERED] = { "dmbs-registered", NL_ATTR_U64 },
	[ISM_STAT_ATTR_DMBS_UNREGISTERED] = { "dmbs-unregistered", NL_ATTR_U64 },
	[ISM_STAT_ATTR_ERR_TOKEN] = { "err-token", NL_ATTR_U64 },
	[ISM_STAT_ATTR_ERR_INVAL] = { "err-inval", NL_ATTR_U64 },
	[ISM_STAT_ATTR_ERR_NOSPC] = { "err-nospc", NL_ATTR_U64 },
	[ISM_STAT_ATTR_ERR_NOMEM] = { "err-nomem", NL_ATTR_U64 },
	[ISM_STAT_ATTR_ERR_IRQ_DROPPED] = { "err-irq-dropped", NL_ATTR_U64 },
	[ISM_STAT_ATTR_ERR_OTHER] = { "err-other", NL_ATTR_U64 },
};

#endif /* ISM_ATTR_GEN_H */
