// SPDX-License-Identifier: GPL-2.0
/*
 * ISM core: the read-only attributes of /sys/class/ism/<name>.
 *
 * sysfs drains readers before device_del() returns, and ism_dev_unregister()
 * calls it before the driver may free anything the ops use. It calls it
 * with ism_registry_mutex held, so these take no ISM lock: constant
 * fields and counters only.
 */
#include <linux/module.h>
#include <linux/sysfs.h>

#include "ism_core.h"

#define to_ism_dev(d) container_of(d, struct ism_dev, dev)

static ssize_t gid_show(struct device *d, struct device_attribute *attr,
			char *buf)
{
	return sysfs_emit(buf, "%pUb\n", &to_ism_dev(d)->gid);
}
static DEVICE_ATTR_RO(gid);

static ssize_t chid_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "0x%04x\n", ism_get_chid(to_ism_dev(d)));
}
static DEVICE_ATTR_RO(chid);

static ssize_t type_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	const struct ism_dev_type *type = to_ism_dev(d)->type;

	return sysfs_emit(buf, "%s\n", type ? type->name : "unknown");
}
static DEVICE_ATTR_RO(type);

static ssize_t max_dmbs_show(struct device *d, struct device_attribute *attr,
			     char *buf)
{
	return sysfs_emit(buf, "%u\n", to_ism_dev(d)->max_dmbs);
}
static DEVICE_ATTR_RO(max_dmbs);

static ssize_t max_dmb_len_show(struct device *d,
				struct device_attribute *attr, char *buf)
{
	return sysfs_emit(buf, "%u\n", to_ism_dev(d)->max_dmb_len);
}
static DEVICE_ATTR_RO(max_dmb_len);

static ssize_t dmbs_show(struct device *d, struct device_attribute *attr,
			 char *buf)
{
	return sysfs_emit(buf, "%u\n", atomic_read(&to_ism_dev(d)->dmb_count));
}
static DEVICE_ATTR_RO(dmbs);

/* The device's DMB space, where it has a fixed one (ops.dmb_space). */
static ssize_t dmb_space_show(struct device *d, struct device_attribute *attr,
			      char *buf)
{
	struct ism_dev *dev = to_ism_dev(d);
	u64 used, total;

	dev->ops.dmb_space(dev, &used, &total);
	return sysfs_emit(buf, "%llu\n", total);
}
static DEVICE_ATTR_RO(dmb_space);

static ssize_t dmb_space_used_show(struct device *d,
				   struct device_attribute *attr, char *buf)
{
	struct ism_dev *dev = to_ism_dev(d);
	u64 used, total;

	dev->ops.dmb_space(dev, &used, &total);
	return sysfs_emit(buf, "%llu\n", used);
}
static DEVICE_ATTR_RO(dmb_space_used);

static struct attribute *ism_dev_attrs[] = {
	&dev_attr_gid.attr,
	&dev_attr_chid.attr,
	&dev_attr_type.attr,
	&dev_attr_max_dmbs.attr,
	&dev_attr_max_dmb_len.attr,
	&dev_attr_dmbs.attr,
	&dev_attr_dmb_space.attr,
	&dev_attr_dmb_space_used.attr,
	NULL,
};

static umode_t ism_dev_attr_visible(struct kobject *kobj,
				    struct attribute *attr, int n)
{
	struct ism_dev *dev = to_ism_dev(kobj_to_dev(kobj));

	if ((attr == &dev_attr_dmb_space.attr ||
	     attr == &dev_attr_dmb_space_used.attr) && !dev->ops.dmb_space)
		return 0;
	return attr->mode;
}

static const struct attribute_group ism_dev_group = {
	.attrs = ism_dev_attrs,
	.is_visible = ism_dev_attr_visible,
};

/* The class's dev_groups: every device gets them. */
const struct attribute_group *ism_dev_groups[] = {
	&ism_dev_group,
	NULL,
};
