// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci: command blocks through the command BAR.
 *
 * The function executes one block at a time: the request is stored first,
 * the header last, and the response read back from the same place, all
 * under @cmd_lock. Responses come from the function and are checked like
 * any input: a response shorter than the command's is an error.
 */
#include <kunit/visibility.h>
#include <linux/string.h>

#include "ism_pci.h"

/*
 * The function's return codes other than 0 are not documented; the driver
 * tells only "no answer" (a function gone or in error, see
 * %ISM_PCI_RC_NO_ANSWER) from a refusal.
 */
static int ism_pci_errno(struct ism_pci *ip, u32 cmd, u16 rc)
{
	if (!rc)
		return 0;
	dev_warn_ratelimited(ip->dma_dev, "command %#x failed: return code %#06x\n",
			     cmd, rc);
	return rc == ISM_PCI_RC_NO_ANSWER ? -ENODEV : -EIO;
}

/**
 * ism_pci_cmd() - execute one command block
 * @ip: the function
 * @cmd: an &enum ism_pci_cmd
 * @req: the request after the header, or NULL
 * @req_len: its length, a multiple of 8
 * @resp: where the response after the header goes, or NULL
 * @resp_len: its length, a multiple of 8
 *
 * Any context; does not sleep.
 *
 * Return: 0; -ENODEV if the function did not answer, -EIO if it refused
 * the command or answered short.
 */
int ism_pci_cmd(struct ism_pci *ip, u32 cmd, const void *req,
		unsigned int req_len, void *resp, unsigned int resp_len)
{
	u64 blk[ISM_PCI_CMD_MAX / sizeof(u64)] = {};
	struct ism_pci_req_hdr *rq = (void *)blk;
	struct ism_pci_resp_hdr *rs = (void *)blk;
	const unsigned int hdr = sizeof(*rq);
	unsigned long flags;
	u16 rc, len = 0;

	if (WARN_ON_ONCE(req_len > sizeof(blk) - hdr || req_len % 8 ||
			 resp_len > sizeof(blk) - hdr || resp_len % 8))
		return -EINVAL;
	rq->cmd = cpu_to_be32(cmd);
	rq->len = cpu_to_be16(hdr + req_len);
	if (req_len)
		memcpy(rq + 1, req, req_len);

	spin_lock_irqsave(&ip->cmd_lock, flags);
	if (req_len)
		ip->hw->cmd_write(ip, hdr, rq + 1, req_len);
	ip->hw->cmd_write(ip, 0, rq, hdr);
	/* Left as it is if the function cannot be read. */
	rs->ret = cpu_to_be16(ISM_PCI_RC_NO_ANSWER);
	ip->hw->cmd_read(ip, 0, rs, hdr);
	rc = be16_to_cpu(rs->ret);
	if (!rc && resp_len) {
		len = be16_to_cpu(rs->len);
		if (len >= hdr + resp_len)
			ip->hw->cmd_read(ip, hdr, resp, resp_len);
	}
	spin_unlock_irqrestore(&ip->cmd_lock, flags);
	if (!rc && resp_len && len < hdr + resp_len) {
		dev_warn_ratelimited(ip->dma_dev, "command %#x: response of %u bytes, %u expected\n",
				     cmd, len, hdr + resp_len);
		return -EIO;
	}
	return ism_pci_errno(ip, cmd, rc);
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_cmd);

/* A command that is only its header. */
int ism_pci_cmd_simple(struct ism_pci *ip, u32 cmd)
{
	return ism_pci_cmd(ip, cmd, NULL, 0, NULL, 0);
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_cmd_simple);

/**
 * ism_pci_query_info() - ask the function for its state
 * @ip: the function
 * @info: filled on success
 *
 * Any context; does not sleep.
 *
 * Return: 0, or an error of ism_pci_cmd().
 */
int ism_pci_query_info(struct ism_pci *ip, struct ism_pci_info *info)
{
	struct ism_pci_query_info_resp resp;
	int ret;

	ret = ism_pci_cmd(ip, ISM_PCI_QUERY_INFO, NULL, 0, &resp, sizeof(resp));
	if (ret)
		return ret;
	info->version = be32_to_cpu(resp.version);
	info->max_len = be32_to_cpu(resp.max_len);
	info->dmbs_owned = be32_to_cpu(resp.dmbs_owned);
	info->vlan_required = be32_to_cpu(resp.vlan_required);
	info->vlan_nr_ids = be32_to_cpu(resp.vlan_nr_ids);
	return 0;
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_query_info);
