/* SPDX-License-Identifier: GPL-2.0 */
/*
 * IBM's ISM PCI function (1014:04ed) as the driver sees it: the command
 * blocks it executes, and the status bit array (SBA) and interrupt event
 * queue (IEQ) it writes into host memory. Everything is big-endian, the
 * function's byte order; the fields are declared so, so that sparse checks
 * every conversion and the driver runs the same on little-endian hosts
 * (against the model of pci_model.c).
 *
 * Shared by the driver (ism_pci.ko) and its model (ism_pci_model.ko).
 */
#ifndef _DRIVERS_ISM_PCI_HW_H
#define _DRIVERS_ISM_PCI_HW_H

#include <linux/bits.h>
#include <linux/build_bug.h>
#include <linux/sizes.h>
#include <linux/types.h>

#define ISM_PCI_VENDOR		0x1014
#define ISM_PCI_DEVICE		0x04ed

/* BAR 2 takes command blocks; BAR 0 is the window moves are stored into. */
#define ISM_PCI_CMD_BAR		2
#define ISM_PCI_MOVE_BAR	0

/* DMB slots: the first SBA word is never used, so slots start at 32. */
#define ISM_PCI_NR_DMBS		1920
#define ISM_PCI_FIRST_DMB	32
#define ISM_PCI_MAX_DMB_LEN	SZ_1M

/* VLAN ids are 12 bits. */
#define ISM_PCI_VLAN_MAX	4095

/* Command codes. */
enum ism_pci_cmd {
	ISM_PCI_REG_SBA		= 0x01,
	ISM_PCI_REG_IEQ		= 0x02,
	ISM_PCI_READ_GID	= 0x03,
	ISM_PCI_ADD_VLAN_ID	= 0x04,
	ISM_PCI_DEL_VLAN_ID	= 0x05,
	ISM_PCI_SET_VLAN	= 0x06,
	ISM_PCI_RESET_VLAN	= 0x07,
	ISM_PCI_QUERY_INFO	= 0x08,
	ISM_PCI_QUERY_RGID	= 0x09,
	ISM_PCI_REG_DMB		= 0x0a,
	ISM_PCI_UNREG_DMB	= 0x0b,
	ISM_PCI_SIGNAL_IEQ	= 0x0e,
	ISM_PCI_UNREG_SBA	= 0x11,
	ISM_PCI_UNREG_IEQ	= 0x12,
};

/*
 * The return code the driver presets before reading a response: a
 * function that no longer answers (removed, in error) leaves it there.
 */
#define ISM_PCI_RC_NO_ANSWER	0xffff

/*
 * A command block: the header, then the command's request. The driver
 * stores the request at offset 8 of the command BAR and the header last,
 * at offset 0, which makes the function execute the block; the response
 * (header, then data) is then read from offset 0. Lengths include the
 * header and are multiples of 8.
 */
struct ism_pci_req_hdr {
	__be32 cmd;
	__be16 reserved;
	__be16 len;
};

struct ism_pci_resp_hdr {
	__be32 cmd;
	__be16 ret;
	__be16 len;
};

struct ism_pci_reg_sba_req {
	__be64 sba;
};

struct ism_pci_reg_ieq_req {
	__be64 ieq;
	__be64 len;
};

struct ism_pci_read_gid_resp {
	__be64 gid;
};

struct ism_pci_query_info_resp {
	__be32 version;
	__be32 max_len;
	__be64 state;
	__be64 gid;
	__be64 sba;
	__be64 ieq;
	__be32 ieq_len;
	__be32 reserved;
	__be32 dmbs_owned;
	__be32 dmbs_used;
	__be32 vlan_required;
	__be32 vlan_nr_ids;
	__be16 vlan_id[64];
};

struct ism_pci_query_rgid_req {
	__be64 rgid;
	__be32 vlan_valid;
	__be32 vlan_id;
};

struct ism_pci_reg_dmb_req {
	__be64 dmb;
	__be32 dmb_len;
	__be32 sba_idx;
	__be32 vlan_valid;
	__be32 vlan_id;
	__be64 rgid;
};

struct ism_pci_reg_dmb_resp {
	__be64 token;
};

struct ism_pci_unreg_dmb_req {
	__be64 token;
};

struct ism_pci_signal_ieq_req {
	__be64 rgid;
	__be32 trigger_irq;
	__be32 event_code;
	__be64 info;
};

struct ism_pci_vlan_req {
	__be64 vlan_id;
};

/* The largest block: a header and the query-info response. */
#define ISM_PCI_CMD_MAX	(sizeof(struct ism_pci_resp_hdr) + \
			 sizeof(struct ism_pci_query_info_resp))

/*
 * A move is a store into the move BAR at this address: the DMB's token
 * (its low 32 bits are zero), the dmbe bit to signal, the signal flag and
 * the offset in the DMB. One store never crosses a page of the DMB.
 */
#define ISM_PCI_MOVE_IDX_SHIFT	24
#define ISM_PCI_MOVE_SF		BIT_ULL(23)
#define ISM_PCI_MOVE_OFF_MASK	(ISM_PCI_MOVE_SF - 1)
#define ISM_PCI_TOKEN_MASK	GENMASK_ULL(63, 32)

static inline u64 ism_pci_move_addr(u64 token, unsigned int idx, bool sf,
				    unsigned int offset)
{
	return token | (u64)idx << ISM_PCI_MOVE_IDX_SHIFT |
	       (sf ? ISM_PCI_MOVE_SF : 0) | offset;
}

/*
 * The status bit array, one page the driver registers. The function sets
 * the dmbe bits of a signalled DMB in dmbe_mask[slot], then the slot's
 * bit in dmb_bits (bit 0 is the most significant bit of the first word),
 * then the summary bit, and interrupts; for an event it queues the entry,
 * then sets the event bit and interrupts. The driver clears what it took.
 */
#define ISM_PCI_SBA_SUMMARY	BIT(31)
#define ISM_PCI_SBA_EVENT	BIT(30)

struct ism_pci_sba {
	__be32 status;
	__be32 dmb_bits[ISM_PCI_NR_DMBS / 32];
	__be32 reserved[3];
	__be16 dmbe_mask[ISM_PCI_NR_DMBS];
};
static_assert(sizeof(struct ism_pci_sba) == 4096);

/* The bit of slot @slot in its dmb_bits word, in the function's order. */
static inline u32 ism_pci_sba_bit(unsigned int slot)
{
	return BIT(31 - slot % 32);
}

/* Event types, as in &enum ism_event_type. */
#define ISM_PCI_EV_DMB		0
#define ISM_PCI_EV_GID		1
#define ISM_PCI_EV_SWR		2

/*
 * One event: @tok is the DMB token of a DMB event, the peer's GID of a
 * GID event and the sender's GID of a software event.
 */
struct ism_pci_event {
	__be32 type;
	__be32 code;
	__be64 tok;
	__be64 time;
	__be64 info;
};

/*
 * The interrupt event queue. After writing entry N the function sets
 * @idx to N + 1; the driver reads entries until it has caught up.
 */
struct ism_pci_ieq_hdr {
	__be64 idx;
	__be64 ieq_len;
	__be64 entry_len;
	__be64 reserved;
};

#define ISM_PCI_IEQ_ENTRIES	15

struct ism_pci_ieq {
	struct ism_pci_ieq_hdr hdr;
	struct ism_pci_event entry[ISM_PCI_IEQ_ENTRIES];
};

#endif /* _DRIVERS_ISM_PCI_HW_H */
