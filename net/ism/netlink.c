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

/* The policy and the op table are generated from the family's spec
 * (nl_gen.c). Only the 6.1 form of one op is added here: ynl-gen-c.py of
 * Linux 6.12 emits a dump's "pre" hook (.start) only into split ops, which
 * 6.1 does not have, and its 6.1-compatible table, struct genl_small_ops,
 * has no .start. So the generated ops are copied into struct genl_ops and
 * dmb-get gets the start hook its spec names.
 */
EXPORT_SYMBOL_IF_KUNIT(ism_nl_policy);

static struct genl_ops ism_nl_full_ops[ARRAY_SIZE(ism_nl_ops)] __ro_after_init;

static void ism_nl_ops_init(void)
{
	unsigned int i;

	for (i = 0; i < ARRAY_SIZE(ism_nl_ops); i++) {
		const struct genl_small_ops *small = &ism_nl_ops[i];
		struct genl_ops *op = &ism_nl_full_ops[i];

		op->cmd = small->cmd;
		op->internal_flags = small->internal_flags;
		op->flags = small->flags;
		op->validate = small->validate;
		op->doit = small->doit;
		op->dumpit = small->dumpit;
		if (op->cmd == ISM_CMD_DMB_GET)
			op->start = ism_nl_dmb_get_start;
	}
}

/* Devices are global, so every namespace may look at them; changes need
 * CAP_NET_ADMIN in the initial user namespace (GENL_ADMIN_PERM).
 */
struct genl_family ism_nl_family __ro_after_init = {
	.name = ISM_GENL_NAME,
	.version = ISM_GENL_VERSION,
	.maxattr = ISM_NL_MAXATTR,
	.policy = ism_nl_policy,
	.netnsok = true,
	.parallel_ops = true,
	.module = THIS_MODULE,
	.ops = ism_nl_full_ops,
	.n_ops = ARRAY_SIZE(ism_nl_full_ops),
};

int ism_netlink_init(void)
{
	int ret = ism_nl_del_init();

	if (ret)
		return ret;
	ism_nl_ops_init();
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
