// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D bridge: struct smcd_ops of Linux 6.1 on top of the ism_*()
 * helpers. SMC calls every op without a NULL check, so all are set.
 */
#include "ism_smcd.h"

/* SMC enables SMC-D v2 only if the first SMC-D device ever registered has
 * a system EID whose byte 24 or 28 is not '0'. Peers on x86 match on user
 * EIDs (UEIDs) instead, which the administrator sets on both sides.
 */
static u8 ism_smcd_system_eid[32] = "ISM-LAYER-LINUX-SEID-V2-1---1---";

static struct ism_smcd *ism_smcd_of(struct smcd_dev *smcd)
{
	return smcd->priv;
}

static int ism_smcd_query_remote_gid(struct smcd_dev *smcd, u64 rgid,
				     u32 vid_valid, u32 vid)
{
	uuid_t gid;

	ism_smcd_gid_lookup(rgid, &gid);
	return ism_query_remote_gid(ism_smcd_of(smcd)->ism, &gid, vid_valid,
				    vid);
}

static int ism_smcd_register_dmb(struct smcd_dev *smcd, struct smcd_dmb *dmb)
{
	struct ism_dmb ism_dmb = { .len = dmb->dmb_len };
	int ret;

	ism_smcd_gid_lookup(dmb->rgid, &ism_dmb.rgid);
	ret = ism_register_dmb(ism_smcd_of(smcd)->ism, &ism_dmb,
			       &ism_smcd_client);
	if (ret)
		return ret;
	dmb->dmb_tok = ism_dmb.token;
	dmb->sba_idx = ism_dmb.idx;
	dmb->cpu_addr = ism_dmb.cpu_addr;
	dmb->dma_addr = ism_dmb.dma_addr;
	return 0;
}

static int ism_smcd_unregister_dmb(struct smcd_dev *smcd,
				   struct smcd_dmb *dmb)
{
	struct ism_dmb ism_dmb = {
		.token = dmb->dmb_tok,
		.idx = dmb->sba_idx,
	};

	return ism_unregister_dmb(ism_smcd_of(smcd)->ism, &ism_dmb,
				  &ism_smcd_client);
}

/* SMC 6.1 calls these under its device spinlock with interrupts off, while
 * the devices' VLAN ops may sleep: they only record the wish here.
 */
static int ism_smcd_add_vlan_id(struct smcd_dev *smcd, u64 vlan_id)
{
	return ism_smcd_vlan_want(ism_smcd_of(smcd), vlan_id, true);
}

static int ism_smcd_del_vlan_id(struct smcd_dev *smcd, u64 vlan_id)
{
	return ism_smcd_vlan_want(ism_smcd_of(smcd), vlan_id, false);
}

/* SMC 6.1 never calls these; a device without the mode (all but PCI-ISM)
 * separates nothing by VLAN, which is what "not required" means.
 */
static int ism_smcd_vlan_required(struct smcd_dev *smcd, bool required)
{
	int ret = ism_set_vlan_required(ism_smcd_of(smcd)->ism, required);

	return ret == -EOPNOTSUPP && !required ? 0 : ret;
}

static int ism_smcd_set_vlan_required(struct smcd_dev *smcd)
{
	return ism_smcd_vlan_required(smcd, true);
}

static int ism_smcd_reset_vlan_required(struct smcd_dev *smcd)
{
	return ism_smcd_vlan_required(smcd, false);
}

static int ism_smcd_signal_event(struct smcd_dev *smcd, u64 rgid,
				 u32 trigger_irq, u32 event_code, u64 info)
{
	uuid_t gid;

	/* SMC 6.1 tells a peer that it freed a link group by a software event
	 * to the peer's GID, and the receiver then terminates every link
	 * group with the sender's GID. On a device that reaches only itself
	 * that would end all its connections whenever one idle link group
	 * is freed, so such events to our own GID are not sent.
	 */
	if (rgid == ism_smcd_of(smcd)->gid64)
		return 0;
	ism_smcd_gid_lookup(rgid, &gid);
	return ism_signal_event(ism_smcd_of(smcd)->ism, &gid, trigger_irq,
				event_code, info);
}

/* SMC cannot survive a failed write: see smcd_fail.c. */
static int ism_smcd_move_data(struct smcd_dev *smcd, u64 dmb_tok,
			      unsigned int idx, bool sf, unsigned int offset,
			      void *data, unsigned int size)
{
	struct ism_smcd *bridge = ism_smcd_of(smcd);
	int ret;

	ret = ism_move_data(bridge->ism, dmb_tok, idx, sf, offset, data, size);
	return unlikely(ret) ? ism_smcd_write_failed(bridge, dmb_tok, ret) : 0;
}

static u8 *ism_smcd_get_system_eid(void)
{
	return ism_smcd_system_eid;
}

static u16 ism_smcd_get_chid(struct smcd_dev *smcd)
{
	return ism_get_chid(ism_smcd_of(smcd)->ism);
}

const struct smcd_ops ism_smcd_ops = {
	.query_remote_gid = ism_smcd_query_remote_gid,
	.register_dmb = ism_smcd_register_dmb,
	.unregister_dmb = ism_smcd_unregister_dmb,
	.add_vlan_id = ism_smcd_add_vlan_id,
	.del_vlan_id = ism_smcd_del_vlan_id,
	.set_vlan_required = ism_smcd_set_vlan_required,
	.reset_vlan_required = ism_smcd_reset_vlan_required,
	.signal_event = ism_smcd_signal_event,
	.move_data = ism_smcd_move_data,
	.get_system_eid = ism_smcd_get_system_eid,
	.get_chid = ism_smcd_get_chid,
};
