// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the registry of device types that can be created at runtime.
 *
 * The core knows no driver: ``ismctl dev add loopback NAME`` finds the
 * type "loopback" here and calls the driver's new_dev.
 */
#include <linux/module.h>

#include "ism_core.h"
#include "ism_netlink.h"

/* Under ism_registry_mutex. */
static LIST_HEAD(ism_dev_types);

static struct ism_dev_type *ism_dev_type_find(const char *name)
{
	struct ism_dev_type *type;

	list_for_each_entry(type, &ism_dev_types, list)
		if (!strcmp(type->name, name))
			return type;
	return NULL;
}

/**
 * ism_dev_type_register() - let users create devices of a type
 * @type: the type, with name, owner and new_dev or del_dev set
 *
 * Process context; takes the registry mutex.
 *
 * Return: 0; -EINVAL if the name is missing or too long or neither
 * new_dev nor del_dev is set; -EEXIST if a type of that name exists.
 */
int ism_dev_type_register(struct ism_dev_type *type)
{
	int ret = 0;

	if (!type || !type->name || !ism_dev_name_valid(type->name) ||
	    (!type->new_dev && !type->del_dev))
		return -EINVAL;
	mutex_lock(&ism_registry_mutex);
	if (ism_dev_type_find(type->name))
		ret = -EEXIST;
	else
		list_add_tail(&type->list, &ism_dev_types);
	mutex_unlock(&ism_registry_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(ism_dev_type_register, ISM);

/**
 * ism_dev_type_unregister() - undo ism_dev_type_register()
 * @type: registered type
 *
 * Call it from the driver's module exit, before it deletes its devices:
 * the core calls new_dev only with a reference on the module, and this
 * waits for the del_dev calls that ``ismctl dev del`` queued (each as long
 * as that device's clients take to let it go). Process context; takes
 * the registry mutex.
 */
void ism_dev_type_unregister(struct ism_dev_type *type)
{
	mutex_lock(&ism_registry_mutex);
	list_del_init(&type->list);
	mutex_unlock(&ism_registry_mutex);
	/* None is queued for @type from now on: see ism_nl_del_prepare(). */
	ism_nl_dev_del_flush();
}
EXPORT_SYMBOL_NS_GPL(ism_dev_type_unregister, ISM);

/* Caller holds ism_registry_mutex. */
bool ism_dev_type_registered(const struct ism_dev_type *type)
{
	return ism_dev_type_find(type->name) == type;
}

/* The type @name with a reference on its module, or NULL. Takes the
 * registry mutex; release with ism_dev_type_put().
 */
struct ism_dev_type *ism_dev_type_get(const char *name)
{
	struct ism_dev_type *type;

	mutex_lock(&ism_registry_mutex);
	type = ism_dev_type_find(name);
	if (type && !try_module_get(type->owner))
		type = NULL;
	mutex_unlock(&ism_registry_mutex);
	return type;
}

void ism_dev_type_put(const struct ism_dev_type *type)
{
	module_put(type->owner);
}
