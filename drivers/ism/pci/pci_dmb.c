// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci: the ISM device operations, on the function's commands.
 *
 * The function's GIDs are 64 bits. In the layer's 128-bit form they are
 * those bits big-endian, then zeros, as the SMC-D bridge and the virtual
 * ISM device write them; a GID with any other bit set names no function.
 */
#include <ism/kcompat.h>
#include <kunit/visibility.h>
#include <linux/dma-mapping.h>
#include <linux/string.h>

#include "ism_pci.h"

static struct ism_pci *ism_pci_of(struct ism_dev *ism)
{
	return ism_dev_priv(ism);
}

static bool ism_pci_gid_ok(const uuid_t *gid)
{
	return !memchr_inv(gid->b + 8, 0, 8);
}

/* The function's form of a GID ism_pci_gid_ok() accepted. */
u64 ism_pci_gid64(const uuid_t *gid)
{
	return get_unaligned_be64(gid->b);
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_gid64);

static int ism_pci_query_rgid(struct ism_dev *ism, const uuid_t *rgid,
			      u32 vid_valid, u32 vid)
{
	struct ism_pci_query_rgid_req req = {
		.rgid = cpu_to_be64(ism_pci_gid64(rgid)),
		.vlan_valid = cpu_to_be32(!!vid_valid),
		.vlan_id = cpu_to_be32(vid_valid ? vid : 0),
	};
	int ret;

	if (!ism_pci_gid_ok(rgid) || (vid_valid && vid > ISM_PCI_VLAN_MAX))
		return -EINVAL;
	ret = ism_pci_cmd(ism_pci_of(ism), ISM_PCI_QUERY_RGID, &req,
			  sizeof(req), NULL, 0);
	/* A refusal is the function's "not reachable". */
	return ret == -EIO ? -ENOENT : ret;
}

/* 0 once the function no longer writes into the DMB @token. */
static int ism_pci_unreg_token(struct ism_pci *ip, u64 token)
{
	struct ism_pci_unreg_dmb_req req = { .token = cpu_to_be64(token) };
	int ret;

	ret = ism_pci_cmd(ip, ISM_PCI_UNREG_DMB, &req, sizeof(req), NULL, 0);
	/* A function that no longer answers no longer writes either. */
	return ret == -ENODEV ? 0 : ret;
}

static int ism_pci_register_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_pci *ip = ism_pci_of(ism);
	struct ism_pci_reg_dmb_resp resp;
	struct ism_pci_reg_dmb_req req;
	unsigned int slot;
	dma_addr_t dma;
	u64 token;
	void *cpu;
	int ret;

	if (!dmb->len || dmb->len > ISM_PCI_MAX_DMB_LEN ||
	    !ism_pci_gid_ok(&dmb->rgid))
		return -EINVAL;
	do {
		slot = find_next_zero_bit(ip->slots, ISM_PCI_NR_DMBS,
					  ISM_PCI_FIRST_DMB);
		if (slot >= ISM_PCI_NR_DMBS)
			return -ENOSPC;
	} while (test_and_set_bit(slot, ip->slots));

	/*
	 * Coherent: SMC reads DMBs with no sync. Compound where SMC-D is
	 * (6.1): its splice() takes references to the pages of a DMB.
	 * Zeroed, as all coherent memory.
	 */
	ret = -ENOMEM;
	cpu = dma_alloc_coherent(ip->dma_dev, dmb->len, &dma,
				 GFP_KERNEL | __GFP_NOWARN | __GFP_NORETRY |
				 ISM_DMA_GFP_COMP);
	if (!cpu)
		goto free_slot;

	memset(&req, 0, sizeof(req));
	req.dmb = cpu_to_be64(dma);
	req.dmb_len = cpu_to_be32(dmb->len);
	req.sba_idx = cpu_to_be32(slot);
	req.rgid = cpu_to_be64(ism_pci_gid64(&dmb->rgid));
	ret = ism_pci_cmd(ip, ISM_PCI_REG_DMB, &req, sizeof(req), &resp,
			  sizeof(resp));
	if (ret)
		goto free_mem;
	token = be64_to_cpu(resp.token);
	/* A move carries slot bit, signal flag and offset in the low half. */
	if (!token || token & ~ISM_PCI_TOKEN_MASK) {
		dev_err(ip->dma_dev, "the function named DMB %u by token %#llx, which moves cannot use\n",
			slot, token);
		if (ism_pci_unreg_token(ip, token))
			return -EIO;	/* it may write: keep slot and memory */
		ret = -EIO;
		goto free_mem;
	}
	dmb->token = token;
	dmb->idx = slot;
	dmb->cpu_addr = cpu;
	dmb->dma_addr = dma;
	return 0;

free_mem:
	dma_free_coherent(ip->dma_dev, dmb->len, cpu, dma);
free_slot:
	clear_bit(slot, ip->slots);
	return ret;
}

/* The core passes its record of the DMB: every field is the driver's. */
static int ism_pci_unregister_dmb(struct ism_dev *ism, struct ism_dmb *dmb)
{
	struct ism_pci *ip = ism_pci_of(ism);
	int ret;

	if (dmb->idx < ISM_PCI_FIRST_DMB || dmb->idx >= ISM_PCI_NR_DMBS ||
	    !test_bit(dmb->idx, ip->slots))
		return -ENOENT;
	ret = ism_pci_unreg_token(ip, dmb->token);
	if (ret) {
		/* The function may still write into it: never reuse it. */
		dev_err(ip->dma_dev, "DMB %u stays allocated: the function did not unregister it: %d\n",
			dmb->idx, ret);
		return ret;
	}
	dma_free_coherent(ip->dma_dev, dmb->len, dmb->cpu_addr, dmb->dma_addr);
	clear_bit(dmb->idx, ip->slots);
	return 0;
}

/*
 * The function takes at most a page of the DMB per store: a move is split
 * at page boundaries of the DMB, and only its last store signals. The
 * function checks token, writer and range per store; as it knows no
 * other DMB's length, a move running past the end of one writes the
 * stores before the one refused (see ism-pci.rst).
 */
static int ism_pci_move_data(struct ism_dev *ism, u64 token, unsigned int idx,
			     bool sf, unsigned int offset, const void *data,
			     unsigned int size)
{
	struct ism_pci *ip = ism_pci_of(ism);
	unsigned int piece;
	bool last;
	int ret;

	if (idx >= ISM_DMBE_BITS || (size && !data) ||
	    !ism_dmb_range_ok(ISM_PCI_MAX_DMB_LEN, offset, size))
		return -EINVAL;
	if (!token || token & ~ISM_PCI_TOKEN_MASK)
		return -ENOENT;
	if (!size && !sf)
		return 0;
	do {
		piece = min_t(unsigned int, size,
			      PAGE_SIZE - offset_in_page(offset));
		last = piece == size;
		ret = ip->hw->move(ip, ism_pci_move_addr(token, idx, sf && last,
							 offset),
				   data, piece);
		if (ret)
			return ret;
		data += piece;
		offset += piece;
		size -= piece;
	} while (!last);
	return 0;
}

static int ism_pci_signal_event(struct ism_dev *ism, const uuid_t *rgid,
				u32 trigger_irq, u32 event_code, u64 info)
{
	struct ism_pci_signal_ieq_req req = {
		.rgid = cpu_to_be64(ism_pci_gid64(rgid)),
		.trigger_irq = cpu_to_be32(!!trigger_irq),
		.event_code = cpu_to_be32(event_code),
		.info = cpu_to_be64(info),
	};

	if (!ism_pci_gid_ok(rgid))
		return -EINVAL;
	return ism_pci_cmd(ism_pci_of(ism), ISM_PCI_SIGNAL_IEQ, &req,
			   sizeof(req), NULL, 0);
}

static int ism_pci_vlan(struct ism_dev *ism, u32 cmd, u64 vlan_id)
{
	struct ism_pci_vlan_req req = { .vlan_id = cpu_to_be64(vlan_id) };

	if (vlan_id > ISM_PCI_VLAN_MAX)
		return -EINVAL;
	return ism_pci_cmd(ism_pci_of(ism), cmd, &req, sizeof(req), NULL, 0);
}

static int ism_pci_add_vlan_id(struct ism_dev *ism, u64 vlan_id)
{
	return ism_pci_vlan(ism, ISM_PCI_ADD_VLAN_ID, vlan_id);
}

static int ism_pci_del_vlan_id(struct ism_dev *ism, u64 vlan_id)
{
	return ism_pci_vlan(ism, ISM_PCI_DEL_VLAN_ID, vlan_id);
}

static int ism_pci_set_vlan_required(struct ism_dev *ism, bool required)
{
	return ism_pci_cmd_simple(ism_pci_of(ism), required ?
				  ISM_PCI_SET_VLAN : ISM_PCI_RESET_VLAN);
}

static u16 ism_pci_get_chid(struct ism_dev *ism)
{
	return ism_pci_of(ism)->chid;
}

const struct ism_device_ops ism_pci_ops = {
	.query_remote_gid = ism_pci_query_rgid,
	.register_dmb = ism_pci_register_dmb,
	.unregister_dmb = ism_pci_unregister_dmb,
	.move_data = ism_pci_move_data,
	.get_chid = ism_pci_get_chid,
	.signal_event = ism_pci_signal_event,
	.add_vlan_id = ism_pci_add_vlan_id,
	.del_vlan_id = ism_pci_del_vlan_id,
	.set_vlan_required = ism_pci_set_vlan_required,
};
