/* SPDX-License-Identifier: GPL-2.0 */
/* The ism generic netlink family's handlers, shared by its files and
 * exported to the KUnit suite (namespace EXPORTED_FOR_KUNIT_TESTING).
 */
#ifndef _NET_ISM_NETLINK_H
#define _NET_ISM_NETLINK_H

#include <net/genetlink.h>

#include "nl_gen.h"

/* The policy covers the request attributes, the first ones of the family:
 * the highest of them is the family's maxattr (the size of the parsed
 * attribute table); requests with later ones are refused as unknown.
 */
#define ISM_NL_MAXATTR	(ARRAY_SIZE(ism_nl_policy) - 1)

extern struct genl_family ism_nl_family;

int ism_nl_fill_dev(struct sk_buff *skb, struct ism_dev *dev, u32 portid,
		    u32 seq, int flags);
struct sk_buff *ism_nl_dev_msg(struct genl_info *info);
void ism_nl_dev_del_flush(void);
int ism_nl_del_init(void);
void ism_nl_del_exit(void);

#endif /* _NET_ISM_NETLINK_H */
