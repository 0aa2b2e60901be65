// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the device registry.
 */
#include <linux/ctype.h>
#include <linux/module.h>
#include <linux/slab.h>

#include "ism_core.h"

/* Both described in ism_core.h. */
DEFINE_MUTEX(ism_registry_mutex);
LIST_HEAD(ism_devices);

static void ism_dev_release(struct device *device)
{
	struct ism_dev *dev = container_of(device, struct ism_dev, dev);

	WARN_ON(!xa_empty(&dev->dmbs));
	xa_destroy(&dev->dmbs);
	free_percpu(dev->stats);
	kfree(dev);
}

/**
 * ism_dev_alloc() - allocate an ISM device
 * @ops: the driver's operations; copied into the device
 * @priv_size: size of the driver's private area, see ism_dev_priv()
 *
 * Everything the core's irq and event paths use is initialised here, so a
 * driver may enable its interrupts as soon as ism_dev_register() returns.
 * The driver then sets the GID, max_dmb_len, the name (dev_set_name()) and
 * the parent, and calls ism_dev_register(). It frees the device with
 * put_device(), also when registration failed. Process context.
 *
 * Return: the zeroed device, or NULL if @ops is NULL or memory is short.
 */
struct ism_dev *ism_dev_alloc(const struct ism_device_ops *ops,
			      size_t priv_size)
{
	struct ism_dev *dev;

	if (!ops)
		return NULL;
	dev = kzalloc(struct_size(dev, priv, priv_size), GFP_KERNEL);
	if (!dev)
		return NULL;
	if (ism_stats_alloc(dev)) {
		kfree(dev);
		return NULL;
	}
	dev->ops = *ops;
	INIT_LIST_HEAD(&dev->list);
	xa_init(&dev->dmbs);
	init_rwsem(&dev->dmbs_open);
	device_initialize(&dev->dev);
	dev->dev.class = &ism_class;
	dev->dev.release = ism_dev_release;
	return dev;
}
EXPORT_SYMBOL_GPL(ism_dev_alloc);

/* Caller holds ism_registry_mutex. */
struct ism_dev *ism_dev_find(const char *name)
{
	struct ism_dev *dev;

	list_for_each_entry(dev, &ism_devices, list)
		if (!strcmp(ism_dev_name(dev), name))
			return dev;
	return NULL;
}

/* A name fits netlink's and the tools' limits and is safe in sysfs and in
 * a terminal: 1 to ISM_NAME_MAXLEN of [A-Za-z0-9_.:-], not "." or "..".
 */
bool ism_dev_name_valid(const char *name)
{
	size_t len = strnlen(name, ISM_NAME_MAXLEN + 1);
	size_t i;

	if (!len || len > ISM_NAME_MAXLEN || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	for (i = 0; i < len; i++)
		if (!isalnum(name[i]) && !strchr("_.:-", name[i]))
			return false;
	return true;
}

static bool ism_ops_valid(const struct ism_device_ops *ops)
{
	return ops->query_remote_gid && ops->register_dmb &&
	       ops->unregister_dmb && ops->move_data && ops->max_dmbs &&
	       ops->get_chid && !ops->attach_dmb == !ops->detach_dmb;
}

/**
 * ism_dev_register() - make a device available to clients
 * @dev: device from ism_dev_alloc() with GID, max_dmb_len and name set
 *
 * Adds the device to sysfs and calls every registered client's add_dev.
 * Process context; takes the registry mutex.
 *
 * Return: 0; -EINVAL if a mandatory op is missing, only one of attach_dmb
 * and detach_dmb is set, the name is unset or not a valid name (at most
 * %ISM_NAME_MAXLEN of letters, digits and ``_.:-``), or max_dmb_len or
 * max_dmbs is 0; -EEXIST if a device of that name is registered; or the
 * error of device_add().
 */
int ism_dev_register(struct ism_dev *dev)
{
	struct ism_client *client;
	int ret, i;

	if (!dev || !ism_ops_valid(&dev->ops) || !dev_name(&dev->dev) ||
	    !ism_dev_name_valid(dev_name(&dev->dev)) || !dev->max_dmb_len ||
	    !dev->ops.max_dmbs(dev))
		return -EINVAL;

	mutex_lock(&ism_registry_mutex);
	/* Checked under the mutex: sysfs would warn about a duplicate. */
	ret = -EEXIST;
	if (ism_dev_find(dev_name(&dev->dev)))
		goto unlock;
	ret = device_add(&dev->dev);
	if (ret)
		goto unlock;
	list_add_tail(&dev->list, &ism_devices);
	for (i = 0; i < ISM_MAX_CLIENTS; i++) {
		client = ism_clients[i];
		if (client)
			ism_attach_client(dev, client);
	}
unlock:
	mutex_unlock(&ism_registry_mutex);
	return ret;
}
EXPORT_SYMBOL_GPL(ism_dev_register);

/**
 * ism_dev_unregister() - withdraw a device from its clients
 * @dev: registered device
 *
 * Calls every client's remove_dev, then releases the DMBs a client still
 * holds (with a warning naming it), then removes the device from sysfs.
 * When it returns no client callback runs for @dev and no DMB of it is
 * registered with the core; the driver may stop interrupts and free its
 * resources, then put_device(). Process context; takes the registry mutex.
 */
void ism_dev_unregister(struct ism_dev *dev)
{
	struct ism_client *attached[ISM_MAX_CLIENTS];
	int i;

	mutex_lock(&ism_registry_mutex);
	list_del_init(&dev->list);
	for (i = 0; i < ISM_MAX_CLIENTS; i++) {
		attached[i] = rcu_dereference_protected(dev->clients[i],
							lockdep_is_held(&ism_registry_mutex));
		if (attached[i])
			ism_unpublish_client(dev, attached[i]);
	}
	synchronize_rcu();
	for (i = 0; i < ISM_MAX_CLIENTS; i++)
		if (attached[i])
			ism_detach_client(dev, attached[i]);
	mutex_unlock(&ism_registry_mutex);
	device_del(&dev->dev);
}
EXPORT_SYMBOL_GPL(ism_dev_unregister);
