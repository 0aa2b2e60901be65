// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: module entry and the ``ism`` device class.
 */
#include <linux/module.h>

#include "ism_core.h"

struct class ism_class = {
	.name = "ism",
	.owner = THIS_MODULE,
};

static int __init ism_core_init(void)
{
	return class_register(&ism_class);
}

static void __exit ism_core_exit(void)
{
	class_unregister(&ism_class);
}

module_init(ism_core_init);
module_exit(ism_core_exit);

MODULE_DESCRIPTION("ISM shared memory device layer: core");
MODULE_LICENSE("GPL");
