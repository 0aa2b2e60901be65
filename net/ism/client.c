// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the client registry and attaching clients to devices.
 */
#include <linux/module.h>

#include "ism_core.h"

struct ism_client *ism_clients[ISM_MAX_CLIENTS];

/* Caller holds ism_registry_mutex. */
void ism_attach_client(struct ism_dev *dev, struct ism_client *client)
{
	clear_bit(client->id, &dev->dmbs_closed);
	client->add_dev(dev);
	/* Publish only now: irqs and events start after add_dev returned. */
	rcu_assign_pointer(dev->clients[client->id], client);
}

/* Detaching is two steps so that one RCU grace period serves many detaches
 * (it takes a second or more on a loaded emulated machine):
 * ism_unpublish_client() clears the client's slot of @dev, so the irq and
 * event paths, which check it under RCU, stop calling the client; after
 * synchronize_rcu() no handler of the client runs for @dev any more and
 * ism_detach_client() calls remove_dev without racing with them.
 * Both with ism_registry_mutex held.
 *
 * Unpublishing also closes DMB registration for the client on @dev: a
 * client's worker may still be registering a DMB while remove_dev runs
 * (SMC sets up connections from its own work items), and a DMB recorded
 * after ism_release_client_dmbs() looked would outlive the detach. A
 * registration checks the bit and records its DMB under dmbs_open held
 * for reading; taking it for writing here waits for those in flight, so
 * every DMB either is recorded now or is refused.
 */
void ism_unpublish_client(struct ism_dev *dev, struct ism_client *client)
{
	RCU_INIT_POINTER(dev->clients[client->id], NULL);
	down_write(&dev->dmbs_open);
	set_bit(client->id, &dev->dmbs_closed);
	up_write(&dev->dmbs_open);
}

void ism_detach_client(struct ism_dev *dev, struct ism_client *client)
{
	client->remove_dev(dev);
	ism_release_client_dmbs(dev, client);
	dev->client_priv[client->id] = NULL;
}

/**
 * ism_register_client() - register a client of ISM devices
 * @client: client with name, add_dev and remove_dev set
 *
 * Calls @client's add_dev for every registered device now, and for every
 * device registered later. Process context; takes the registry mutex.
 *
 * Return: 0; -EINVAL if a mandatory callback is missing; -EEXIST if @client
 * is already registered; -ENOSPC if %ISM_MAX_CLIENTS clients are.
 */
int ism_register_client(struct ism_client *client)
{
	struct ism_dev *dev;
	int i, slot = -1;

	if (!client || !client->name || !client->add_dev || !client->remove_dev)
		return -EINVAL;

	mutex_lock(&ism_registry_mutex);
	for (i = ISM_MAX_CLIENTS - 1; i >= 0; i--) {
		if (ism_clients[i] == client) {
			mutex_unlock(&ism_registry_mutex);
			return -EEXIST;
		}
		if (!ism_clients[i])
			slot = i;
	}
	if (slot < 0) {
		mutex_unlock(&ism_registry_mutex);
		return -ENOSPC;
	}
	client->id = slot;
	ism_clients[slot] = client;
	list_for_each_entry(dev, &ism_devices, list)
		ism_attach_client(dev, client);
	mutex_unlock(&ism_registry_mutex);
	return 0;
}
EXPORT_SYMBOL_GPL(ism_register_client);

/**
 * ism_unregister_client() - unregister a client
 * @client: registered client
 *
 * Calls @client's remove_dev for every device. DMBs the client still holds
 * on a device after its remove_dev returned are unregistered by the core,
 * with one warning per device naming the client; nothing is left behind.
 * When it returns none of @client's callbacks runs or will run. Process
 * context; takes the registry mutex. Unregistering NULL or a client that
 * is not registered does nothing.
 */
void ism_unregister_client(struct ism_client *client)
{
	struct ism_dev *dev;

	if (!client)
		return;
	mutex_lock(&ism_registry_mutex);
	if (client->id >= ISM_MAX_CLIENTS || ism_clients[client->id] != client) {
		mutex_unlock(&ism_registry_mutex);
		return;
	}
	list_for_each_entry(dev, &ism_devices, list)
		ism_unpublish_client(dev, client);
	synchronize_rcu();
	list_for_each_entry(dev, &ism_devices, list)
		ism_detach_client(dev, client);
	ism_clients[client->id] = NULL;
	mutex_unlock(&ism_registry_mutex);
}
EXPORT_SYMBOL_GPL(ism_unregister_client);
