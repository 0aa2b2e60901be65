// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: module entry, the ``ism`` device class and the netlink family.
 */
#include <linux/module.h>

#include "ism_core.h"

struct class ism_class = {
	.name = "ism",
	.dev_groups = ism_dev_groups,
};

static int __init ism_core_init(void)
{
	int ret = class_register(&ism_class);

	if (ret)
		return ret;
	ret = ism_netlink_init();
	if (ret)
		class_unregister(&ism_class);
	return ret;
}

static void __exit ism_core_exit(void)
{
	ism_netlink_exit();
	class_unregister(&ism_class);
}

module_init(ism_core_init);
module_exit(ism_core_exit);

MODULE_DESCRIPTION("ISM shared memory device layer: core");
MODULE_LICENSE("GPL");
