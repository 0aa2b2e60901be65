// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user: the administrator's settings of a device's files, as sysfs
 * attributes of /sys/class/ism_user/NAME (ismctl shows and sets them).
 * Writable by root only (0644): they decide what the device's group may
 * do. Read and written without a lock; a call that is under way sees the
 * old or the new value.
 */
#include <linux/device.h>
#include <linux/kstrtox.h>
#include <linux/sysfs.h>

#include "ism_user.h"

static struct ism_user_dev *ism_user_dev_of(struct device *dev)
{
	return container_of(dev, struct ism_user_dev, dev);
}

/* Writes into DMBs whose key the device cannot check (PCI-ISM: DMBs of
 * other systems). Off by default: with it on, any process that may open
 * the device can write into every DMB of a peer whose token it learns,
 * kernel clients' (SMC-D) included.
 */
static ssize_t unkeyed_writes_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%d\n",
			  READ_ONCE(ism_user_dev_of(dev)->unkeyed_writes));
}

static ssize_t unkeyed_writes_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	bool on;
	int ret = kstrtobool(buf, &on);

	if (ret)
		return ret;
	WRITE_ONCE(ism_user_dev_of(dev)->unkeyed_writes, on);
	return count;
}
static DEVICE_ATTR_RW(unkeyed_writes);

/* Each user's share of the device (user_share.c): DMBs, bytes, and
 * doorbells a second (SEND_EVENTs and MOVEs with a signal), each a u64 of
 * struct ism_user_dev at @offset. Read and written under the shares'
 * lock, which the charges read them in: whole, also on 32-bit.
 */
struct ism_user_limit_attr {
	struct device_attribute attr;
	size_t offset;
};

static u64 *ism_user_limit(struct device *dev, struct device_attribute *attr)
{
	return (u64 *)((u8 *)ism_user_dev_of(dev) +
		       container_of(attr, struct ism_user_limit_attr, attr)->offset);
}

static ssize_t ism_user_limit_show(struct device *dev,
				   struct device_attribute *attr, char *buf)
{
	struct ism_user_dev *udev = ism_user_dev_of(dev);
	u64 val;

	xa_lock(&udev->shares);
	val = *ism_user_limit(dev, attr);
	xa_unlock(&udev->shares);
	return sysfs_emit(buf, "%llu\n", val);
}

static ssize_t ism_user_limit_store(struct device *dev,
				    struct device_attribute *attr,
				    const char *buf, size_t count)
{
	struct ism_user_dev *udev = ism_user_dev_of(dev);
	u64 val;
	int ret = kstrtou64(buf, 0, &val);

	if (ret)
		return ret;
	xa_lock(&udev->shares);
	*ism_user_limit(dev, attr) = val;
	xa_unlock(&udev->shares);
	return count;
}

static struct ism_user_limit_attr ism_user_limits[] = {
	{ __ATTR(user_dmbs, 0644, ism_user_limit_show, ism_user_limit_store),
	  offsetof(struct ism_user_dev, user_dmbs) },
	{ __ATTR(user_bytes, 0644, ism_user_limit_show, ism_user_limit_store),
	  offsetof(struct ism_user_dev, user_bytes) },
	{ __ATTR(user_rings, 0644, ism_user_limit_show, ism_user_limit_store),
	  offsetof(struct ism_user_dev, user_rings) },
};

static struct attribute *ism_user_dev_attrs[] = {
	&dev_attr_unkeyed_writes.attr,
	&ism_user_limits[0].attr.attr,
	&ism_user_limits[1].attr.attr,
	&ism_user_limits[2].attr.attr,
	NULL,
};

static const struct attribute_group ism_user_dev_group = {
	.attrs = ism_user_dev_attrs,
};

const struct attribute_group *ism_user_dev_groups[] = {
	&ism_user_dev_group,
	NULL,
};
