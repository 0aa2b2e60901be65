// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the "ism" generic netlink family (include/uapi/linux/ism.h).
 *
 * Handlers run in process context and take ism_registry_mutex themselves,
 * briefly; with parallel_ops genetlink does not serialise them under its
 * global genl_mutex, so nothing a handler waits for can hold up other
 * families. Requests are validated strictly: unknown attributes are
 * rejected.
 */
#include <kunit/visibility.h>
#include <linux/module.h>

#include "ism_core.h"
#include "ism_netlink.h"

const struct nla_policy ism_nl_policy[ISM_ATTR_MAX + 1] = {
	[ISM_ATTR_DEV_NAME] = { .type = NLA_NUL_STRING, .len = ISM_NAME_MAXLEN },
	[ISM_ATTR_DEV_TYPE] = { .type = NLA_NUL_STRING, .len = ISM_NAME_MAXLEN },
};
EXPORT_SYMBOL_IF_KUNIT(ism_nl_policy);

static const struct genl_ops ism_nl_ops[] = {
	{
		.cmd = ISM_CMD_DEV_GET,
		.doit = ism_nl_dev_get_doit,
		.dumpit = ism_nl_dev_get_dumpit,
	},
	{
		.cmd = ISM_CMD_DMB_GET,
		.start = ism_nl_dmb_get_start,
		.dumpit = ism_nl_dmb_get_dumpit,
	},
	{
		.cmd = ISM_CMD_CLIENT_GET,
		.dumpit = ism_nl_client_get_dumpit,
	},
	{
		.cmd = ISM_CMD_STATS_RESET,
		.doit = ism_nl_stats_reset_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = ISM_CMD_DEV_NEW,
		.doit = ism_nl_dev_new_doit,
		.flags = GENL_ADMIN_PERM,
	},
	{
		.cmd = ISM_CMD_DEV_DEL,
		.doit = ism_nl_dev_del_doit,
		.flags = GENL_ADMIN_PERM,
	},
};

/* Devices are global, so every namespace may look at them; changes need
 * CAP_NET_ADMIN in the initial user namespace (GENL_ADMIN_PERM).
 */
struct genl_family ism_nl_family __ro_after_init = {
	.name = ISM_GENL_NAME,
	.version = ISM_GENL_VERSION,
	.maxattr = ISM_ATTR_MAX,
	.policy = ism_nl_policy,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ism_nl_ops,
	.n_ops = ARRAY_SIZE(ism_nl_ops),
};

int ism_netlink_init(void)
{
	int ret = ism_nl_del_init();

	if (ret)
		return ret;
	ret = genl_register_family(&ism_nl_family);
	if (ret)
		ism_nl_del_exit();
	return ret;
}

void ism_netlink_exit(void)
{
	genl_unregister_family(&ism_nl_family);
	ism_nl_del_exit();
}
