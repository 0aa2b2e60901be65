// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci: the PCI driver for IBM's ISM function (1014:04ed), one ISM
 * device (ismpciN) per function.
 *
 * On s390 the kernel's own driver for the function is "ism": the two must
 * not both be loaded, see Documentation/networking/ism-pci.rst.
 */
#include <linux/dma-mapping.h>
#include <linux/module.h>
#include <linux/pci.h>

#include "ism_pci_glue.h"

static int ism_pci_probe(struct pci_dev *pdev, const struct pci_device_id *id)
{
	struct ism_pci *ip;
	int ret;

	ret = pcim_enable_device(pdev);
	if (ret)
		return ret;
	ret = pcim_iomap_regions(pdev, BIT(ISM_PCI_CMD_BAR) |
				 BIT(ISM_PCI_MOVE_BAR), ISM_PCI_DRV_NAME);
	if (ret)
		return ret;
	ret = dma_set_mask_and_coherent(&pdev->dev, DMA_BIT_MASK(64));
	if (ret)
		return ret;
	/* A DMB is one DMA segment of at most 1 MiB. */
	dma_set_seg_boundary(&pdev->dev, ISM_PCI_MAX_DMB_LEN - 1);
	dma_set_max_seg_size(&pdev->dev, ISM_PCI_MAX_DMB_LEN);
	pci_set_master(pdev);

	ip = ism_pci_alloc(&pdev->dev, &pdev->dev, &ism_pci_bar_ops, pdev,
			   ism_pci_bar_chid(pdev));
	if (IS_ERR(ip))
		return PTR_ERR(ip);
	ret = ism_pci_start(ip);
	if (ret) {
		ism_pci_put(ip);
		return ret;
	}
	pci_set_drvdata(pdev, ip);
	return 0;
}

static void ism_pci_remove(struct pci_dev *pdev)
{
	struct ism_pci *ip = pci_get_drvdata(pdev);

	ism_pci_stop(ip);
	ism_pci_put(ip);
}

static const struct pci_device_id ism_pci_ids[] = {
	{ PCI_DEVICE(ISM_PCI_VENDOR, ISM_PCI_DEVICE) },
	{ }
};
MODULE_DEVICE_TABLE(pci, ism_pci_ids);

static struct pci_driver ism_pci_driver = {
	.name = ISM_PCI_DRV_NAME,
	.id_table = ism_pci_ids,
	.probe = ism_pci_probe,
	.remove = ism_pci_remove,
};
module_pci_driver(ism_pci_driver);

MODULE_DESCRIPTION("IBM ISM PCI function as a device of the ISM layer");
MODULE_IMPORT_NS(ISM);
MODULE_LICENSE("GPL");
