// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: routing of device interrupts and events to clients.
 *
 * Both paths may run in hard-irq context and take no lock: they read the
 * DMB records and the device's client slots under RCU. A client's slot is
 * set from the end of its add_dev to the start of its remove_dev, so no
 * handler runs outside that window.
 */
#include <linux/module.h>

#include "ism_core.h"
#include "ism_trace.h"

/**
 * ism_handle_irq() - report a signalled DMB
 * @dev: device
 * @idx: index of the DMB
 * @dmbemask: the DMB's dmbe bits that were signalled
 *
 * Calls the handle_irq of the client owning DMB @idx. An index with no
 * registered DMB is only counted as dropped: the DMB may just have been
 * unregistered.
 * Any context, including hard irq; the driver must not report an irq for
 * @dev once ism_dev_unregister() has returned.
 */
void ism_handle_irq(struct ism_dev *dev, unsigned int idx, u16 dmbemask)
{
	struct ism_client *client;
	struct ism_dmb_rec *rec;
	bool delivered = false;

	rcu_read_lock();
	rec = xa_load(&dev->dmbs, idx);
	if (rec) {
		client = rcu_dereference(dev->clients[rec->client_id]);
		delivered = client == rec->client && client->handle_irq;
		if (delivered)
			client->handle_irq(dev, idx, dmbemask);
	}
	rcu_read_unlock();
	ism_stat_add(dev, delivered ? ISM_STAT_ATTR_IRQS :
		     ISM_STAT_ATTR_ERR_IRQ_DROPPED, 1);
	trace_ism_irq(dev, idx, dmbemask, delivered);
}
EXPORT_SYMBOL_NS_GPL(ism_handle_irq, ISM);

/**
 * ism_handle_event() - report a device event
 * @dev: device
 * @event: the event; read only during the call
 *
 * Calls the handle_event of every client attached to @dev. Any context,
 * including hard irq; same lifetime rule as ism_handle_irq().
 */
void ism_handle_event(struct ism_dev *dev, const struct ism_event *event)
{
	struct ism_client *client;
	unsigned int delivered = 0;
	int i;

	rcu_read_lock();
	for (i = 0; i < ISM_MAX_CLIENTS; i++) {
		client = rcu_dereference(dev->clients[i]);
		if (client && client->handle_event) {
			client->handle_event(dev, event);
			delivered++;
		}
	}
	rcu_read_unlock();
	ism_stat_add(dev, ISM_STAT_ATTR_EVENTS, delivered);
	trace_ism_event(dev, event, delivered);
}
EXPORT_SYMBOL_NS_GPL(ism_handle_event, ISM);
