/* SPDX-License-Identifier: GPL-2.0 */
/* The ism generic netlink family's handlers, shared by its files and
 * exported to the KUnit suite (namespace EXPORTED_FOR_KUNIT_TESTING).
 */
#ifndef _NET_ISM_NETLINK_H
#define _NET_ISM_NETLINK_H

#include <net/genetlink.h>

extern struct genl_family ism_nl_family;
extern const struct nla_policy ism_nl_policy[ISM_ATTR_MAX + 1];

int ism_nl_fill_dev(struct sk_buff *skb, struct ism_dev *dev, u32 portid,
		    u32 seq, int flags);
struct sk_buff *ism_nl_dev_msg(struct genl_info *info);
int ism_nl_dev_get_doit(struct sk_buff *skb, struct genl_info *info);
int ism_nl_dev_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ism_nl_dev_new_doit(struct sk_buff *skb, struct genl_info *info);
int ism_nl_dev_del_doit(struct sk_buff *skb, struct genl_info *info);
void ism_nl_dev_del_flush(void);
int ism_nl_del_init(void);
void ism_nl_del_exit(void);
int ism_nl_stats_reset_doit(struct sk_buff *skb, struct genl_info *info);
int ism_nl_dmb_get_start(struct netlink_callback *cb);
int ism_nl_dmb_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);
int ism_nl_client_get_dumpit(struct sk_buff *skb, struct netlink_callback *cb);

#endif /* _NET_ISM_NETLINK_H */
