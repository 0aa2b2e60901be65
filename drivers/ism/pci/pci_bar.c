// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci: reaching a real function. On s390 the BARs are reached with
 * the PCI load and store instructions, as the function is meant to be:
 * a store block carries a whole command request or one page of a move.
 * Elsewhere there is no such function, but the driver builds and would
 * use plain MMIO through mappings of the two BARs; a move outside the
 * mapped move BAR is refused.
 *
 * The interrupt is one MSI vector.
 */
#include <linux/io.h>
#include <linux/pci.h>

#include "ism_pci_glue.h"

static struct pci_dev *ism_pci_pdev(struct ism_pci *ip)
{
	return ip->hw_priv;
}

#ifdef CONFIG_S390
#include <asm/pci_insn.h>
#include <asm/pci_io.h>

static u64 ism_pci_zreq(struct ism_pci *ip, u8 bar, unsigned int len)
{
	return ZPCI_CREATE_REQ(to_zpci(ism_pci_pdev(ip))->fh, bar, len);
}

static void ism_pci_bar_cmd_write(struct ism_pci *ip, unsigned int offset,
				  const void *data, unsigned int len)
{
	__zpci_store_block(data, ism_pci_zreq(ip, ISM_PCI_CMD_BAR, len),
			   offset);
}

static void ism_pci_bar_cmd_read(struct ism_pci *ip, unsigned int offset,
				 void *data, unsigned int len)
{
	u64 *word = data;

	for (; len; len -= 8, offset += 8)
		__zpci_load(word++, ism_pci_zreq(ip, ISM_PCI_CMD_BAR, 8),
			    offset);
}

static int ism_pci_bar_move(struct ism_pci *ip, u64 addr, const void *data,
			    unsigned int len)
{
	return __zpci_store_block(data, ism_pci_zreq(ip, ISM_PCI_MOVE_BAR, len),
				  addr);
}

u16 ism_pci_bar_chid(struct pci_dev *pdev)
{
	return to_zpci(pdev)->pchid;
}
#else
static void __iomem *ism_pci_bar(struct ism_pci *ip, int bar)
{
	return pcim_iomap_table(ism_pci_pdev(ip))[bar];
}

/* Raw accesses: the bytes go as they are, in the function's order. */
static void ism_pci_bar_cmd_write(struct ism_pci *ip, unsigned int offset,
				  const void *data, unsigned int len)
{
	__iowrite64_copy(ism_pci_bar(ip, ISM_PCI_CMD_BAR) + offset, data,
			 len / 8);
}

static void ism_pci_bar_cmd_read(struct ism_pci *ip, unsigned int offset,
				 void *data, unsigned int len)
{
	void __iomem *bar = ism_pci_bar(ip, ISM_PCI_CMD_BAR);
	u64 *word = data;

	for (; len; len -= 8, offset += 8)
		*word++ = __raw_readq(bar + offset);
}

static int ism_pci_bar_move(struct ism_pci *ip, u64 addr, const void *data,
			    unsigned int len)
{
	u64 size = pci_resource_len(ism_pci_pdev(ip), ISM_PCI_MOVE_BAR);

	if (addr > size || len > size - addr)
		return -EINVAL;
	memcpy_toio(ism_pci_bar(ip, ISM_PCI_MOVE_BAR) + addr, data, len);
	return 0;
}

/* Only s390 knows the physical channel of a function. */
u16 ism_pci_bar_chid(struct pci_dev *pdev)
{
	return 0;
}
#endif

static int ism_pci_bar_irq_start(struct ism_pci *ip)
{
	struct pci_dev *pdev = ism_pci_pdev(ip);
	int ret;

	ret = pci_alloc_irq_vectors(pdev, 1, 1, PCI_IRQ_MSI);
	if (ret < 0)
		return ret;
	ret = request_irq(pci_irq_vector(pdev, 0), ism_pci_irq, 0,
			  pci_name(pdev), ip);
	if (ret)
		pci_free_irq_vectors(pdev);
	return ret;
}

static void ism_pci_bar_irq_stop(struct ism_pci *ip)
{
	struct pci_dev *pdev = ism_pci_pdev(ip);

	free_irq(pci_irq_vector(pdev, 0), ip);
	pci_free_irq_vectors(pdev);
}

const struct ism_pci_hw_ops ism_pci_bar_ops = {
	.cmd_write = ism_pci_bar_cmd_write,
	.cmd_read = ism_pci_bar_cmd_read,
	.move = ism_pci_bar_move,
	.irq_start = ism_pci_bar_irq_start,
	.irq_stop = ism_pci_bar_irq_stop,
};
