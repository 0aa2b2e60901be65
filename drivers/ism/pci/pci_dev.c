// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci: bringing a function up and down, the same for the PCI glue and
 * the model.
 *
 * Up: interrupt, SBA, IEQ, GID, then the device is registered with the
 * core. The SBA and IEQ are visible to the interrupt handler before the
 * function is told about them, so an interrupt that comes while the rest
 * is still being set up is drained (and reaches no client) rather than
 * left pending. Down, or when a step of the way up fails: the core's
 * clients leave first (the core unregisters what DMBs they left), then
 * the function is told to stop writing to the IEQ and SBA, then the
 * interrupt is stopped, and only then is the memory freed. A page the
 * function refused to give back is never freed.
 */
#include <ism/kcompat.h>
#include <kunit/visibility.h>
#include <linux/dma-mapping.h>
#include <linux/idr.h>

#include "ism_pci.h"

static DEFINE_IDA(ism_pci_ida);

/* One page, zeroed, shown to the interrupt handler at *@slot. */
static void *ism_pci_queue_alloc(struct ism_pci *ip, void **slot,
				 dma_addr_t *dma)
{
	void *page = dma_alloc_coherent(ip->dma_dev, PAGE_SIZE, dma,
					GFP_KERNEL);

	if (page) {
		spin_lock_irq(&ip->irq_lock);
		*slot = page;
		spin_unlock_irq(&ip->irq_lock);
	}
	return page;
}

/* Hide the page from the handler; free it unless the function keeps it. */
static void ism_pci_queue_free(struct ism_pci *ip, void **slot,
			       dma_addr_t dma, bool kept)
{
	void *page;

	spin_lock_irq(&ip->irq_lock);
	page = *slot;
	*slot = NULL;
	spin_unlock_irq(&ip->irq_lock);
	if (page && !kept)
		dma_free_coherent(ip->dma_dev, PAGE_SIZE, page, dma);
}

static int ism_pci_reg_sba(struct ism_pci *ip)
{
	struct ism_pci_reg_sba_req req;
	int ret;

	if (!ism_pci_queue_alloc(ip, (void **)&ip->sba, &ip->sba_dma))
		return -ENOMEM;
	req.sba = cpu_to_be64(ip->sba_dma);
	ret = ism_pci_cmd(ip, ISM_PCI_REG_SBA, &req, sizeof(req), NULL, 0);
	if (ret)
		ism_pci_queue_free(ip, (void **)&ip->sba, ip->sba_dma, false);
	return ret;
}

static int ism_pci_reg_ieq(struct ism_pci *ip)
{
	struct ism_pci_reg_ieq_req req;
	int ret;

	ip->ieq_next = 0;
	if (!ism_pci_queue_alloc(ip, (void **)&ip->ieq, &ip->ieq_dma))
		return -ENOMEM;
	req.ieq = cpu_to_be64(ip->ieq_dma);
	req.len = cpu_to_be64(sizeof(struct ism_pci_ieq));
	ret = ism_pci_cmd(ip, ISM_PCI_REG_IEQ, &req, sizeof(req), NULL, 0);
	if (ret)
		ism_pci_queue_free(ip, (void **)&ip->ieq, ip->ieq_dma, false);
	return ret;
}

/*
 * Unregister one queue. Only a refusal keeps the page: a function that
 * does not answer writes no more.
 */
static bool ism_pci_unreg_queue(struct ism_pci *ip, void *page, u32 cmd)
{
	int ret;

	if (!page)
		return false;
	ret = ism_pci_cmd_simple(ip, cmd);
	if (ret != -EIO)
		return false;
	dev_err(ip->dma_dev, "command %#x refused: its page stays allocated\n",
		cmd);
	return true;
}

/* Everything after the interrupt, in the order of ism_pci_start(). */
static void ism_pci_unreg_queues(struct ism_pci *ip)
{
	bool keep_ieq = ism_pci_unreg_queue(ip, ip->ieq, ISM_PCI_UNREG_IEQ);
	bool keep_sba = ism_pci_unreg_queue(ip, ip->sba, ISM_PCI_UNREG_SBA);

	/* No handler runs from here on: the memory can go. */
	ip->hw->irq_stop(ip);
	ism_pci_queue_free(ip, (void **)&ip->ieq, ip->ieq_dma, keep_ieq);
	ism_pci_queue_free(ip, (void **)&ip->sba, ip->sba_dma, keep_sba);
}

static int ism_pci_read_gid(struct ism_pci *ip)
{
	struct ism_pci_read_gid_resp resp;
	int ret;

	ret = ism_pci_cmd(ip, ISM_PCI_READ_GID, NULL, 0, &resp, sizeof(resp));
	if (ret)
		return ret;
	ip->gid = be64_to_cpu(resp.gid);
	if (!ip->gid) {
		dev_err(ip->dma_dev, "the function has GID 0\n");
		return -EIO;
	}
	memset(&ip->ism->gid, 0, sizeof(ip->ism->gid));
	put_unaligned_be64(ip->gid, ip->ism->gid.b);
	return 0;
}

/**
 * ism_pci_alloc() - a device for one function, not yet started
 * @parent: parent of the ISM device (the PCI function)
 * @dma_dev: the device DMA memory is allocated for
 * @hw: how to reach the function
 * @hw_priv: @hw's data
 * @chid: the function's CHID
 *
 * Process context. Free with ism_pci_put().
 *
 * Return: the device, or an ERR_PTR().
 */
struct ism_pci *ism_pci_alloc(struct device *parent, struct device *dma_dev,
			      const struct ism_pci_hw_ops *hw, void *hw_priv,
			      u16 chid)
{
	struct ism_pci *ip;
	struct ism_dev *ism;
	int id, ret;

	id = ida_alloc(&ism_pci_ida, GFP_KERNEL);
	if (id < 0)
		return ERR_PTR(id);
	ism = ism_dev_alloc(&ism_pci_ops, sizeof(*ip));
	if (!ism) {
		ida_free(&ism_pci_ida, id);
		return ERR_PTR(-ENOMEM);
	}
	ip = ism_dev_priv(ism);
	ip->ism = ism;
	ip->dma_dev = dma_dev;
	ip->hw = hw;
	ip->hw_priv = hw_priv;
	ip->chid = chid;
	ip->id = id;
	spin_lock_init(&ip->cmd_lock);
	spin_lock_init(&ip->irq_lock);
	ism->max_dmbs = ISM_PCI_NR_DMBS;
	ism->max_dmb_len = ISM_PCI_MAX_DMB_LEN;
	ism->dev.parent = parent;
	ret = dev_set_name(&ism->dev, "ismpci%d", id);
	if (ret) {
		ism_pci_put(ip);
		return ERR_PTR(ret);
	}
	return ip;
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_alloc);

/**
 * ism_pci_put() - free a device of ism_pci_alloc(), stopped or never started
 * @ip: the device
 *
 * Process context.
 */
void ism_pci_put(struct ism_pci *ip)
{
	int id = ip->id;

	put_device(&ip->ism->dev);
	ida_free(&ism_pci_ida, id);
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_put);

/**
 * ism_pci_start() - bring the function up and register its ISM device
 * @ip: a device of ism_pci_alloc()
 *
 * Process context. On failure everything done so far is undone.
 *
 * Return: 0, or a negative errno.
 */
int ism_pci_start(struct ism_pci *ip)
{
	struct ism_pci_info info;
	int ret;

	ret = ip->hw->irq_start(ip);
	if (ret)
		return ret;
	ret = ism_pci_reg_sba(ip);
	if (!ret)
		ret = ism_pci_reg_ieq(ip);
	if (!ret)
		ret = ism_pci_read_gid(ip);
	if (ret)
		goto undo;
	/* For the log only: a function that cannot tell still works. */
	if (ism_pci_query_info(ip, &info))
		memset(&info, 0, sizeof(info));
	ret = ism_dev_register(ip->ism);
	if (ret)
		goto undo;
	dev_info(ip->dma_dev, "%s: GID %016llx, CHID %#06x, interface version %u, %u DMBs registered\n",
		 dev_name(&ip->ism->dev), ip->gid, ip->chid, info.version,
		 info.dmbs_owned);
	return 0;

undo:
	ism_pci_unreg_queues(ip);
	return ret;
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_start);

/**
 * ism_pci_stop() - unregister the ISM device and bring the function down
 * @ip: a device ism_pci_start() started
 *
 * Process context. Waits for the clients to leave the device.
 */
void ism_pci_stop(struct ism_pci *ip)
{
	ism_dev_unregister(ip->ism);
	ism_pci_unreg_queues(ip);
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_stop);
