/* SPDX-License-Identifier: GPL-2.0 */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/ism.yaml */
/* by tools/testing/ism/ynl-attr-table.py */
#ifndef ISM_ATTR_GEN_H
#define ISM_ATTR_GEN_H

#include <stddef.h>
#include <libmnl/libmnl.h>
#include <linux/ism.h>

/* An attribute as the spec has it; len: exact length, if checked. */
struct ism_attr_info {
	const char *name;
	enum mnl_attr_data_type type;
	size_t len;
};

static const struct ism_attr_info ism_attr_info[ISM_ATTR_MAX + 1] = {
	[ISM_ATTR_DEV_NAME] = { "dev-name", MNL_TYPE_NUL_STRING },
	[ISM_ATTR_DEV_TYPE] = { "dev-type", MNL_TYPE_NUL_STRING },
	[ISM_ATTR_DEV_GID] = { "dev-gid", MNL_TYPE_BINARY, ISM_GID_LEN },
	[ISM_ATTR_DEV_CHID] = { "dev-chid", MNL_TYPE_U16 },
	[ISM_ATTR_DEV_PARENT] = { "dev-parent", MNL_TYPE_NUL_STRING },
	[ISM_ATTR_DEV_MAX_DMBS] = { "dev-max-dmbs", MNL_TYPE_U32 },
	[ISM_ATTR_DEV_MAX_DMB_LEN] = { "dev-max-dmb-len", MNL_TYPE_U32 },
	[ISM_ATTR_DEV_DMBS] = { "dev-dmbs", MNL_TYPE_U32 },
	[ISM_ATTR_DEV_CLIENTS] = { "dev-clients", MNL_TYPE_NESTED },
	[ISM_ATTR_DEV_STATS] = { "dev-stats", MNL_TYPE_NESTED },
	[ISM_ATTR_DMB_TOKEN] = { "dmb-token", MNL_TYPE_U64 },
	[ISM_ATTR_DMB_INDEX] = { "dmb-index", MNL_TYPE_U32 },
	[ISM_ATTR_DMB_LEN] = { "dmb-len", MNL_TYPE_U32 },
	[ISM_ATTR_DMB_RGID] = { "dmb-rgid", MNL_TYPE_BINARY, ISM_GID_LEN },
	[ISM_ATTR_CLIENT_NAME] = { "client-name", MNL_TYPE_NUL_STRING },
	[ISM_ATTR_CLIENT_ID] = { "client-id", MNL_TYPE_U32 },
	[ISM_ATTR_CLIENT_DEVS] = { "client-devs", MNL_TYPE_U32 },
	[ISM_ATTR_CLIENT_DMBS] = { "client-dmbs", MNL_TYPE_U32 },
	[ISM_ATTR_DEV_GOING] = { "dev-going", MNL_TYPE_FLAG },
	[ISM_ATTR_DEV_CLIENTS_REFUSED] = { "dev-clients-refused", MNL_TYPE_NESTED },
};

static const struct ism_attr_info ism_stat_attr_info[ISM_STAT_ATTR_MAX + 1] = {
	[ISM_STAT_ATTR_MOVES] = { "moves", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_MOVE_BYTES] = { "move-bytes", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_SIGNALS] = { "signals", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_EVENTS_SENT] = { "events-sent", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_IRQS] = { "irqs", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_EVENTS] = { "events", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_DMBS_REGISTERED] = { "dmbs-registered", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_DMBS_UNREGISTERED] = { "dmbs-unregistered", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_ERR_TOKEN] = { "err-token", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_ERR_INVAL] = { "err-inval", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_ERR_NOSPC] = { "err-nospc", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_ERR_NOMEM] = { "err-nomem", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_ERR_IRQ_DROPPED] = { "err-irq-dropped", MNL_TYPE_U64 },
	[ISM_STAT_ATTR_ERR_OTHER] = { "err-other", MNL_TYPE_U64 },
};

#endif /* ISM_ATTR_GEN_H */
