// SPDX-License-Identifier: GPL-2.0
/*
 * ism_user: ISM devices for user space. An ISM client that gives each
 * device it is added to a character device, /dev/ism/NAME (class
 * ism_user), and removes it, revoking what its open files hold, when the
 * device goes. See Documentation/userspace-api/ism.rst.
 */
#include <linux/device.h>
#include <linux/fs.h>
#include <linux/idr.h>
#include <linux/log2.h>
#include <linux/module.h>
#include <linux/slab.h>
#include <ism/kcompat.h>

#include "ism_user.h"

/* Character devices, one per ISM device: far more than a system has. */
#define ISM_USER_MINORS		256

unsigned int ism_user_max_buffers = 1024;
module_param_named(max_buffers, ism_user_max_buffers, uint, 0644);
MODULE_PARM_DESC(max_buffers,
		 "DMBs plus attachments one open file may hold (default 1024)");

static dev_t ism_user_devt;
static DEFINE_IDA(ism_user_minors);

static char *ism_user_devnode(ISM_DEVNODE_CONST struct device *dev,
			      umode_t *mode)
{
	return kasprintf(GFP_KERNEL, "ism/%s", dev_name(dev));
}

static struct class ism_user_class = {
	.name = "ism_user",
	.devnode = ism_user_devnode,
};

static void ism_user_dev_release(struct device *dev)
{
	struct ism_user_dev *udev = container_of(dev, struct ism_user_dev, dev);

	ida_free(&ism_user_minors, MINOR(dev->devt));
	xa_destroy(&udev->by_idx);
	ism_user_shares_destroy(udev);
	kfree(udev);
}

/* Process context, the device's client lock held (see ism_client). */
static int ism_user_add_dev(struct ism_dev *ism)
{
	struct ism_user_dev *udev;
	int minor, ret;

	udev = kzalloc(sizeof(*udev), GFP_KERNEL);
	if (!udev)
		return -ENOMEM;
	minor = ida_alloc_max(&ism_user_minors, ISM_USER_MINORS - 1,
			      GFP_KERNEL);
	if (minor < 0) {
		kfree(udev);
		return minor;
	}
	udev->ism = ism;
	mutex_init(&udev->lock);
	INIT_LIST_HEAD(&udev->ctxs);
	xa_init(&udev->by_idx);
	spin_lock_init(&udev->tokens_lock);
	hash_init(udev->by_token);
	ism_user_shares_init(udev);
	device_initialize(&udev->dev);
	udev->dev.class = &ism_user_class;
	udev->dev.parent = ism_dev_device(ism);
	udev->dev.devt = MKDEV(MAJOR(ism_user_devt), minor);
	udev->dev.release = ism_user_dev_release;
	udev->dev.groups = ism_user_dev_groups;
	udev->pgoff_shift = order_base_2(DIV_ROUND_UP(ism_get_max_dmb_len(ism),
						      PAGE_SIZE));
	cdev_init(&udev->cdev, &ism_user_fops);
	udev->cdev.owner = THIS_MODULE;
	ret = dev_set_name(&udev->dev, "%s", ism_dev_name(ism));
	if (ret)
		goto put;
	/* Before the node exists: the handlers find the device through it. */
	ism_set_priv(ism, &ism_user_client, udev);
	ret = cdev_device_add(&udev->cdev, &udev->dev);
	if (ret)
		goto put;
	return 0;

put:
	/* cdev_device_add() makes the cdev live before it adds the device:
	 * a stale node could have opened a file meanwhile.
	 */
	ism_user_revoke(udev);
	ism_set_priv(ism, &ism_user_client, NULL);
	put_device(&udev->dev);
	return ret;
}

/* Process context, the device's client lock held. Open files stay open,
 * with nothing left on the device; the last close frees udev.
 */
static void ism_user_remove_dev(struct ism_dev *ism)
{
	struct ism_user_dev *udev = ism_get_priv(ism, &ism_user_client);

	cdev_device_del(&udev->cdev, &udev->dev);
	ism_user_revoke(udev);
	put_device(&udev->dev);
}

struct ism_client ism_user_client = {
	.name = "ism_user",
	.add_dev = ism_user_add_dev,
	.remove_dev = ism_user_remove_dev,
	.handle_irq = ism_user_handle_irq,
	.handle_event = ism_user_handle_event,
};

ISM_USER_EXPORT_FOR_KUNIT(ism_user_client);

static int __init ism_user_init(void)
{
	int ret;

	ret = alloc_chrdev_region(&ism_user_devt, 0, ISM_USER_MINORS,
				  "ism_user");
	if (ret)
		return ret;
	ret = class_register(&ism_user_class);
	if (ret)
		goto region;
	ret = ism_register_client(&ism_user_client);
	if (ret)
		goto class;
	return 0;

class:
	class_unregister(&ism_user_class);
region:
	unregister_chrdev_region(ism_user_devt, ISM_USER_MINORS);
	return ret;
}

static void __exit ism_user_exit(void)
{
	ism_unregister_client(&ism_user_client);
	class_unregister(&ism_user_class);
	unregister_chrdev_region(ism_user_devt, ISM_USER_MINORS);
}

module_init(ism_user_init);
module_exit(ism_user_exit);

MODULE_DESCRIPTION("ISM devices for user space: /dev/ism/NAME");
MODULE_LICENSE("GPL");
MODULE_IMPORT_NS(ISM);
