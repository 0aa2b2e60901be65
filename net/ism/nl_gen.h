/* SPDX-License-Identifier: ((GPL-2.0 WITH Linux-syscall-note) OR BSD-3-Clause) */
/* Do not edit directly, auto-generated from: */
/*	Documentation/netlink/specs/ism.yaml */
/* YNL-GEN kernel header */

#ifndef _LINUX_ISM_GEN_H
#define _LINUX_ISM_GEN_H

#include <net/netlink.h>
#include <net/genetlink.h>

#include <uapi/linux/ism.h>

/* Global operation policy for ism */
extern const struct nla_policy ism_nl_policy[ISM_ATTR_DEV_TYPE + 1];

/* Ops table for ism */
extern const struct genl_small_ops ism_nl_ops[6];

int ism_nl_dmb_get_start(struct netlink_callback *cb);

int ism_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int ism_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ism_nl_dmb_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ism_nl_client_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ism_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int ism_nl_dev_new_doit(struct sk_buff *skb, struct genl_info *info);
int ism_nl_dev_del_doit(struct sk_buff *skb, struct genl_info *info);

#endif /* _LINUX_ISM_GEN_H */
