// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the device registry.
 */
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
	WARN_ON(!list_empty(&dev->attached));
	xa_destroy(&dev->dmbs);
	mutex_destroy(&dev->clients_mutex);
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
 * The driver then sets the GID, max_dmb_len, max_dmbs, the name
 * (dev_set_name()) and the parent, and calls ism_dev_register(). It frees the device with
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
	mutex_init(&dev->clients_mutex);
	xa_init(&dev->dmbs);
	INIT_LIST_HEAD(&dev->attached);
	spin_lock_init(&dev->attach_lock);
	/* No client may register anything before it is added. */
	dev->dmbs_closed = ~0UL;
	init_rwsem(&dev->dmbs_open);
	device_initialize(&dev->dev);
	dev->dev.class = &ism_class;
	dev->dev.release = ism_dev_release;
	return dev;
}
EXPORT_SYMBOL_NS_GPL(ism_dev_alloc, ISM);

/* Caller holds ism_registry_mutex. */
struct ism_dev *ism_dev_find(const char *name)
{
	struct ism_dev *dev;

	list_for_each_entry(dev, &ism_devices, list)
		if (!strcmp(ism_dev_name(dev), name))
			return dev;
	return NULL;
}

/* One byte of a name: ASCII only, byte by byte. isalnum() would also take
 * the kernel's Latin-1 letters 0xC0-0xFF, which are not valid UTF-8 alone.
 */
static bool ism_name_char_valid(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') ||
	       (c >= '0' && c <= '9') || (c && strchr("_.:-", c));
}

/* A name fits netlink's and the tools' limits and is safe in sysfs, in
 * JSON and in a terminal: 1 to ISM_NAME_MAXLEN of [A-Za-z0-9_.:-], not "."
 * or "..".
 */
bool ism_dev_name_valid(const char *name)
{
	size_t len = strnlen(name, ISM_NAME_MAXLEN + 1);
	size_t i;

	if (!len || len > ISM_NAME_MAXLEN || !strcmp(name, ".") ||
	    !strcmp(name, ".."))
		return false;
	for (i = 0; i < len; i++)
		if (!ism_name_char_valid(name[i]))
			return false;
	return true;
}

static bool ism_ops_valid(const struct ism_device_ops *ops)
{
	return ops->query_remote_gid && ops->register_dmb &&
	       ops->unregister_dmb && ops->move_data && ops->get_chid &&
	       !ops->attach_dmb == !ops->detach_dmb;
}

/**
 * ism_dev_register() - make a device available to clients
 * @dev: device from ism_dev_alloc() with GID, max_dmb_len, max_dmbs and
 *	name set
 *
 * Adds the device to sysfs and calls every registered client's add_dev
 * (and start_dev). Process context; takes the registry mutex briefly and
 * the device's clients_mutex across the add_dev and start_dev calls.
 *
 * Return: 0; -EINVAL if a mandatory op is missing, only one of attach_dmb
 * and detach_dmb is set, the name is unset or not a valid name (at most
 * %ISM_NAME_MAXLEN of ASCII letters, digits and ``_.:-``), or max_dmb_len
 * or max_dmbs is 0; -EEXIST if a device of that name is registered, or
 * still being removed; or the error of device_add().
 */
int ism_dev_register(struct ism_dev *dev)
{
	unsigned int slot;
	int ret;

	if (!dev || !ism_ops_valid(&dev->ops) || !dev_name(&dev->dev) ||
	    !ism_dev_name_valid(dev_name(&dev->dev)) || !dev->max_dmb_len ||
	    !dev->max_dmbs)
		return -EINVAL;

	/* Taken first, so that a client registering meanwhile waits for the
	 * add_dev calls below rather than racing with them.
	 */
	mutex_lock(&dev->clients_mutex);
	mutex_lock(&ism_registry_mutex);
	/* Checked under the mutex: sysfs would warn about a duplicate. A
	 * device being removed keeps its name until device_del().
	 */
	ret = -EEXIST;
	if (ism_dev_find(dev_name(&dev->dev)))
		goto unlock;
	ret = device_add(&dev->dev);
	if (ret)
		goto unlock;
	list_add_tail(&dev->list, &ism_devices);
	mutex_unlock(&ism_registry_mutex);

	for (slot = 0; slot < ISM_MAX_CLIENTS; slot++)
		ism_attach_client(dev, slot);
	mutex_unlock(&dev->clients_mutex);
	return 0;

unlock:
	mutex_unlock(&ism_registry_mutex);
	mutex_unlock(&dev->clients_mutex);
	return ret;
}
EXPORT_SYMBOL_NS_GPL(ism_dev_register, ISM);

/**
 * ism_dev_unregister() - withdraw a device from its clients
 * @dev: registered device
 *
 * Marks the device going: no client is added to it and no DMB registered
 * on it from now on, while netlink and sysfs still show it. Then calls
 * every client's remove_dev, releases the DMBs and attachments a client
 * still holds (with a warning naming it), and removes the device from
 * sysfs and the registry. When it returns no client callback runs for
 * @dev, no DMB or attachment of it is registered with the core, and its
 * name is free; the driver may stop interrupts and free its resources,
 * then put_device().
 *
 * Process context. A client's remove_dev may wait for its own users (SMC
 * waits until applications close their sockets on the device); only the
 * device's clients_mutex is held meanwhile, so other devices, clients and
 * readers carry on.
 */
void ism_dev_unregister(struct ism_dev *dev)
{
	struct ism_client *added[ISM_MAX_CLIENTS];
	unsigned int slot;

	mutex_lock(&ism_registry_mutex);
	dev->going = true;
	mutex_unlock(&ism_registry_mutex);

	mutex_lock(&dev->clients_mutex);
	/* Clients keep their slots while they are added to a device. */
	mutex_lock(&ism_registry_mutex);
	for (slot = 0; slot < ISM_MAX_CLIENTS; slot++)
		added[slot] = test_bit(slot, &dev->added) ||
			      test_bit(slot, &dev->refused) ?
			      ism_clients[slot] : NULL;
	mutex_unlock(&ism_registry_mutex);
	for (slot = 0; slot < ISM_MAX_CLIENTS; slot++)
		if (added[slot])
			ism_unpublish_client(dev, added[slot]);
	synchronize_rcu();
	for (slot = 0; slot < ISM_MAX_CLIENTS; slot++)
		if (added[slot])
			ism_detach_client(dev, added[slot]);
	mutex_unlock(&dev->clients_mutex);

	/* Under the registry mutex, so that the name is never free while
	 * sysfs still has it. sysfs readers take no ISM lock.
	 */
	mutex_lock(&ism_registry_mutex);
	device_del(&dev->dev);
	list_del_init(&dev->list);
	mutex_unlock(&ism_registry_mutex);
}
EXPORT_SYMBOL_NS_GPL(ism_dev_unregister, ISM);
