/* SPDX-License-Identifier: GPL-2.0 */
/* Internal interfaces of the ISM core, shared by its files only.
 */
#ifndef _NET_ISM_CORE_H
#define _NET_ISM_CORE_H

#include <linux/ism.h>
#include <linux/mutex.h>
#include <linux/rcupdate.h>

/* ism_registry_mutex protects ism_devices, ism_clients[] and every
 * device's clients[] slots against writers. Readers on the irq and event
 * paths use RCU instead. Taken in process context only; clients' add_dev
 * and remove_dev run under it.
 */
extern struct mutex ism_registry_mutex;
extern struct list_head ism_devices;
extern struct ism_client *ism_clients[ISM_MAX_CLIENTS];
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
unsigned int ism_dev_dmb_count(struct ism_dev *dev);

struct ism_dev_type *ism_dev_type_get(const char *name);
void ism_dev_type_put(const struct ism_dev_type *type);

int ism_stats_alloc(struct ism_dev *dev);
void ism_stats_read(struct ism_dev *dev, u64 *vals);
void ism_stats_reset(struct ism_dev *dev);

int ism_netlink_init(void);
void ism_netlink_exit(void);

void ism_release_client_dmbs(struct ism_dev *dev, struct ism_client *client);
void ism_attach_client(struct ism_dev *dev, struct ism_client *client);
void ism_unpublish_client(struct ism_dev *dev, struct ism_client *client);
void ism_detach_client(struct ism_dev *dev, struct ism_client *client);

#endif /* _NET_ISM_CORE_H */
