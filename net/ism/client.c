// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the client registry and attaching clients to devices.
 *
 * A client's add_dev and remove_dev run under the device's clients_mutex
 * only (see ism_core.h): a client that waits in remove_dev holds up that
 * device's removal or its own unregistration, and nothing else.
 */
#include <linux/module.h>

#include "ism_core.h"

/* Both under ism_registry_mutex. A leaving client keeps its slot until it
 * has left every device, so that no other client reuses its slot in a
 * device's tables meanwhile.
 */
struct ism_client *ism_clients[ISM_MAX_CLIENTS];
unsigned long ism_clients_leaving;

/* Closes DMB and attachment registration for @client on @dev. A worker of
 * the client may still be registering while remove_dev runs (SMC sets up
 * connections from its own work items), and a record made after
 * ism_release_client_dmbs() looked would outlive the detach. Registrations
 * check the bit and make their record under dmbs_open held for reading;
 * taking it for writing here waits for those in flight, so every record
 * either is made now or is refused.
 */
static void ism_close_client(struct ism_dev *dev, struct ism_client *client)
{
	down_write(&dev->dmbs_open);
	set_bit(client->id, &dev->dmbs_closed);
	up_write(&dev->dmbs_open);
}

/* Releases what @client left on @dev. Its handlers no longer run for @dev
 * and it can register nothing more there.
 */
static void ism_release_client(struct ism_dev *dev, struct ism_client *client)
{
	ism_release_client_dmbs(dev, client);
	ism_release_client_attachments(dev, client);
	dev->client_priv[client->id] = NULL;
}

/* The client in @slot, if it may be added to @dev now: registered, not
 * leaving, and @dev not going. Marks it added. Caller holds
 * dev->clients_mutex.
 */
static struct ism_client *ism_claim_client(struct ism_dev *dev,
					   unsigned int slot)
{
	struct ism_client *client;

	mutex_lock(&ism_registry_mutex);
	client = ism_clients[slot];
	if (!client || test_bit(slot, &ism_clients_leaving) || dev->going ||
	    test_bit(slot, &dev->added) || test_bit(slot, &dev->refused))
		client = NULL;
	else
		set_bit(slot, &dev->added);
	mutex_unlock(&ism_registry_mutex);
	return client;
}

/* Offers @dev to the client in @slot, if it has not seen it, and starts
 * it there once its handlers are live. Caller holds dev->clients_mutex.
 * The added bit, set before add_dev is called, makes a concurrent
 * ism_unregister_client() of the client wait for this call on the mutex,
 * so remove_dev cannot overtake start_dev.
 */
void ism_attach_client(struct ism_dev *dev, unsigned int slot)
{
	struct ism_client *client = ism_claim_client(dev, slot);
	int ret;

	if (!client)
		return;
	clear_bit(slot, &dev->dmbs_closed);
	ret = client->add_dev(dev);
	if (ret) {
		ism_close_client(dev, client);
		ism_release_client(dev, client);
	}
	mutex_lock(&ism_registry_mutex);
	if (ret) {
		clear_bit(slot, &dev->added);
		set_bit(slot, &dev->refused);
	} else {
		/* Publish only now: irqs and events start after add_dev. */
		rcu_assign_pointer(dev->clients[slot], client);
	}
	mutex_unlock(&ism_registry_mutex);
	if (ret)
		dev_warn(&dev->dev, "client %s refused the device: %d\n",
			 client->name, ret);
	else if (client->start_dev)
		client->start_dev(dev);
}

/* Detaching is two steps so that one RCU grace period serves many detaches
 * (it takes a second or more on a loaded emulated machine):
 * ism_unpublish_client() clears the client's slot of @dev, so the irq and
 * event paths, which check it under RCU, stop calling the client, and
 * closes registration; after synchronize_rcu() no handler of the client
 * runs for @dev any more and ism_detach_client() calls remove_dev without
 * racing with them. Both with dev->clients_mutex held.
 */
void ism_unpublish_client(struct ism_dev *dev, struct ism_client *client)
{
	if (!rcu_access_pointer(dev->clients[client->id]))
		return;
	mutex_lock(&ism_registry_mutex);
	RCU_INIT_POINTER(dev->clients[client->id], NULL);
	mutex_unlock(&ism_registry_mutex);
	ism_close_client(dev, client);
}

void ism_detach_client(struct ism_dev *dev, struct ism_client *client)
{
	u8 id = client->id;

	if (test_bit(id, &dev->added)) {
		/* Still published if it was added after the caller unpublished
		 * (a client registration that raced): one more grace period.
		 */
		if (rcu_access_pointer(dev->clients[id])) {
			ism_unpublish_client(dev, client);
			synchronize_rcu();
		}
		client->remove_dev(dev);
		ism_release_client(dev, client);
	}
	mutex_lock(&ism_registry_mutex);
	clear_bit(id, &dev->added);
	clear_bit(id, &dev->refused);
	mutex_unlock(&ism_registry_mutex);
}

/* A registered device on which @client still has work to do, with a
 * reference; NULL when there is none. @published: the client's slot is
 * still set (ism_unpublish_client() to do); else: it was added or refused
 * (ism_detach_client() to do). Each call of those clears the condition,
 * so walking with this ends.
 */
static struct ism_dev *ism_next_dev_of(struct ism_client *client,
				       bool published)
{
	struct ism_dev *dev, *found = NULL;

	mutex_lock(&ism_registry_mutex);
	list_for_each_entry(dev, &ism_devices, list) {
		if (published ?
		    rcu_access_pointer(dev->clients[client->id]) == client :
		    test_bit(client->id, &dev->added) ||
		    test_bit(client->id, &dev->refused)) {
			found = dev;
			get_device(&found->dev);
			break;
		}
	}
	mutex_unlock(&ism_registry_mutex);
	return found;
}

/* A device @client has not been offered yet, with a reference, or NULL. */
static struct ism_dev *ism_next_new_dev(struct ism_client *client)
{
	struct ism_dev *dev, *found = NULL;

	mutex_lock(&ism_registry_mutex);
	list_for_each_entry(dev, &ism_devices, list) {
		if (!dev->going && !test_bit(client->id, &dev->added) &&
		    !test_bit(client->id, &dev->refused)) {
			found = dev;
			get_device(&found->dev);
			break;
		}
	}
	mutex_unlock(&ism_registry_mutex);
	return found;
}

bool ism_client_registered(const struct ism_client *client)
{
	return client->id < ISM_MAX_CLIENTS &&
	       READ_ONCE(ism_clients[client->id]) == client;
}

/**
 * ism_register_client() - register a client of ISM devices
 * @client: client with name, add_dev and remove_dev set
 *
 * Calls @client's add_dev, and after a success its start_dev, for every
 * registered device now, and for every device registered later. Process
 * context; takes no lock across the calls but each device's own.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
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
	mutex_unlock(&ism_registry_mutex);

	while ((dev = ism_next_new_dev(client))) {
		mutex_lock(&dev->clients_mutex);
		ism_attach_client(dev, slot);
		mutex_unlock(&dev->clients_mutex);
		put_device(&dev->dev);
	}
	return 0;
}
EXPORT_SYMBOL_NS_GPL(ism_register_client, ISM);

/**
 * ism_unregister_client() - unregister a client
 * @client: registered client
 *
 * Calls @client's remove_dev for every device it was added to. DMBs and
 * attachments the client still holds on a device after its remove_dev
 * returned are released by the core, with one warning per device naming
 * the client; nothing is left behind. When it returns none of @client's
 * callbacks runs or will run. Process context; takes no lock across
 * remove_dev but each device's own, so a remove_dev that waits delays
 * only this call. Unregistering NULL, a client that is not registered or
 * one already leaving does nothing.
 */
void ism_unregister_client(struct ism_client *client)
{
	struct ism_dev *dev;

	if (!client)
		return;
	mutex_lock(&ism_registry_mutex);
	if (!ism_client_registered(client) ||
	    test_and_set_bit(client->id, &ism_clients_leaving)) {
		mutex_unlock(&ism_registry_mutex);
		return;
	}
	mutex_unlock(&ism_registry_mutex);

	while ((dev = ism_next_dev_of(client, true))) {
		mutex_lock(&dev->clients_mutex);
		ism_unpublish_client(dev, client);
		mutex_unlock(&dev->clients_mutex);
		put_device(&dev->dev);
	}
	synchronize_rcu();
	while ((dev = ism_next_dev_of(client, false))) {
		mutex_lock(&dev->clients_mutex);
		ism_detach_client(dev, client);
		mutex_unlock(&dev->clients_mutex);
		put_device(&dev->dev);
	}

	mutex_lock(&ism_registry_mutex);
	ism_clients[client->id] = NULL;
	clear_bit(client->id, &ism_clients_leaving);
	mutex_unlock(&ism_registry_mutex);
}
EXPORT_SYMBOL_NS_GPL(ism_unregister_client, ISM);

/**
 * ism_get_priv() - a client's private pointer for a device
 * @dev: device
 * @client: registered client
 *
 * Any context, hard irq included.
 *
 * Return: the pointer last set with ism_set_priv() for @client on @dev;
 * NULL if none was set since the client was added to @dev, or if @client
 * is not registered (its slot may be another client's).
 */
void *ism_get_priv(const struct ism_dev *dev, const struct ism_client *client)
{
	if (!dev || !client || !ism_client_registered(client))
		return NULL;
	return READ_ONCE(dev->client_priv[client->id]);
}
EXPORT_SYMBOL_NS_GPL(ism_get_priv, ISM);

/**
 * ism_set_priv() - set a client's private pointer for a device
 * @dev: device
 * @client: registered client
 * @priv: the pointer; the core clears it when the client leaves the device
 *
 * Typically called from the client's add_dev, before it returns: its
 * handle_irq may run as soon as it has. Any context.
 *
 * Return: 0, or an error of its entry in "Client errors"
 * (include/linux/ism.h).
 */
int ism_set_priv(struct ism_dev *dev, const struct ism_client *client,
		 void *priv)
{
	if (!dev || !client || !ism_client_registered(client))
		return -EINVAL;
	WRITE_ONCE(dev->client_priv[client->id], priv);
	return 0;
}
EXPORT_SYMBOL_NS_GPL(ism_set_priv, ISM);
