/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interfaces of the ISM core, shared by its files only.
 *
 * Locks, outermost first:
 *
 * - dev->clients_mutex, one per device: serialises the add_dev, start_dev
 *   and remove_dev calls for the device and the changes of its added and
 *   refused bits and client slots. It is held across those callbacks,
 *   which may wait as long as their own users make them (SMC waits for
 *   applications to close their sockets), so it is never taken with a
 *   global lock held, and no reader takes it.
 * - ism_registry_mutex, global: ism_devices, ism_clients[],
 *   ism_clients_leaving, and each device's going, del_queued, added and
 *   refused (written under both locks, read under either). Held only for
 *   short walks that do not wait for a client, a driver or a user: readers
 *   (netlink, sysfs) never wait for a removal in progress.
 * - dev->dmbs_open, a rwsem: see ism_close_client().
 * - dev->attach_lock and the xarray's lock, spinlocks.
 *
 * The irq and event paths take none of these: they read the DMB records
 * and the client slots under RCU.
 */
#ifndef _NET_ISM_CORE_H
#define _NET_ISM_CORE_H

#include <linux/ism.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

extern struct mutex ism_registry_mutex;
extern struct list_head ism_devices;
extern struct ism_client *ism_clients[ISM_MAX_CLIENTS];
extern unsigned long ism_clients_leaving;
extern struct class ism_class;
extern const struct attribute_group *ism_dev_groups[];

/**
 * struct ism_dmb_rec - the core's record of a registered DMB
 * @dmb: copy of the DMB as the device filled it
 * @client: owner; registered for as long as the record exists
 * @client_id: the owner's slot; the irq path compares the device's client
 *	slot with @client without reading the client, which may be leaving
 * @rcu: the irq path reads records under RCU
 */
struct ism_dmb_rec {
	struct ism_dmb dmb;
	struct ism_client *client;
	u8 client_id;
	struct rcu_head rcu;
};

struct ism_dev *ism_dev_find(const char *name);
bool ism_dev_name_valid(const char *name);
bool ism_client_registered(const struct ism_client *client);

bool ism_dev_type_registered(const struct ism_dev_type *type);
struct ism_dev_type *ism_dev_type_get(const char *name);
void ism_dev_type_put(const struct ism_dev_type *type);

int ism_stats_alloc(struct ism_dev *dev);
void ism_stats_read(struct ism_dev *dev, u64 *vals);
void ism_stats_reset(struct ism_dev *dev);

int ism_netlink_init(void);
void ism_netlink_exit(void);

void ism_release_client_dmbs(struct ism_dev *dev, struct ism_client *client);
void ism_release_client_attachments(struct ism_dev *dev,
				    struct ism_client *client);
void ism_attach_client(struct ism_dev *dev, unsigned int slot);
void ism_unpublish_client(struct ism_dev *dev, struct ism_client *client);
void ism_detach_client(struct ism_dev *dev, struct ism_client *client);

#endif /* _NET_ISM_CORE_H */
