/* SPDX-License-Identifier: GPL-2.0 */
/*
 * The SMC-D bridge: every ISM device becomes an SMC-D device of the
 * unmodified SMC of Linux 6.1.
 */
#ifndef _NET_SMC_ISM_SMCD_H
#define _NET_SMC_ISM_SMCD_H

#include <linux/if_vlan.h>
#include <linux/ism.h>
#include <linux/list.h>
#include <linux/pci.h>
#include <linux/spinlock.h>
#include <linux/workqueue.h>
#include <net/smc.h>

/* Refused writes whose connections one lookup ends (smcd_fail.c). */
#define ISM_SMCD_FAILED_MAX	16

/**
 * struct ism_smcd - one ISM device as seen by SMC
 * @ism: the ISM device
 * @smcd: the SMC-D device registered for it
 * @gid: the ISM device's GID
 * @gid64: the 64-bit GID SMC knows it by, see ism_smcd_gid64()
 * @list: entry in the list of bridged devices, for GID lookups
 * @vlan_lock: protects @vlan_wanted; taken in SMC's atomic context
 * @vlan_wanted: the VLANs SMC has asked the device to be in
 * @vlan_joined: the VLANs the device is in; only @vlan_work writes it
 * @vlan_work: makes the device's VLANs what SMC wants, see smcd_vlan.c
 * @fail_lock: protects @fail_tokens, @failed and @leaving; taken in SMC's
 *	atomic context
 * @fail_tokens: tokens of refused writes whose connections are to end
 * @failed: how many
 * @leaving: SMC is letting go of the device: no more refused writes are
 *	looked up
 * @fail_work: ends the connections of the refused writes, see smcd_fail.c
 * @fail_taken: @fail_work's copy of @fail_tokens
 * @fail_peers: the peers of their connections, as @fail_work found them
 * @parent: a PCI-shaped parent for @smcd. SMC 6.1's netlink device dump
 *	calls to_pci_dev() on every SMC-D device's parent without checking;
 *	this makes that read our zeroed structure rather than memory next
 *	to a non-PCI device.
 */
struct ism_smcd {
	struct ism_dev *ism;
	struct smcd_dev *smcd;
	uuid_t gid;
	u64 gid64;
	struct list_head list;
	spinlock_t vlan_lock;	/* for SMC's calls with irqs off */
	DECLARE_BITMAP(vlan_wanted, VLAN_N_VID);
	DECLARE_BITMAP(vlan_joined, VLAN_N_VID);
	struct work_struct vlan_work;
	spinlock_t fail_lock;	/* for SMC's calls with irqs off */
	u64 fail_tokens[ISM_SMCD_FAILED_MAX];
	int failed;
	bool leaving;
	struct work_struct fail_work;
	u64 fail_taken[ISM_SMCD_FAILED_MAX];
	u64 fail_peers[ISM_SMCD_FAILED_MAX];
	struct pci_dev parent;
};

/* SMC 6.1's states of a socket that an abort ended (net/smc/smc.h's
 * enum smc_state, as smc_diag shows it).
 */
#define ISM_SMCD_SK_CLOSED		7
#define ISM_SMCD_SK_PEERABORTWAIT	26
#define ISM_SMCD_SK_PROCESSABORT	27

/* SMC 6.1's software event codes and requests (net/smc/smc_ism.c). */
#define ISM_SMCD_EV_SHUTDOWN	0x80
#define ISM_SMCD_EV_TESTLINK	0x83
#define ISM_SMCD_EV_REQUEST	0x0001
#define ISM_SMCD_EV_RESPONSE	0x0002

/**
 * struct ism_smcd_ev_info - the info of SMC 6.1's software events
 * @lgr_id: the link group's ID
 * @vlan_id: the VLAN; %VLAN_VID_MASK for all (SHUTDOWN)
 * @code: %ISM_SMCD_EV_REQUEST or %ISM_SMCD_EV_RESPONSE
 *
 * SMC reads an event's u64 info as this, in native byte order.
 */
struct ism_smcd_ev_info {
	u8 lgr_id[4];
	u16 vlan_id;
	u16 code;
} __packed;

extern const struct smcd_ops ism_smcd_ops;
extern struct ism_client ism_smcd_client;
#if IS_ENABLED(CONFIG_KUNIT)
bool ism_smcd_event_for_smc(const struct ism_event *event);
#endif

u64 ism_smcd_gid64(const uuid_t *gid);
void ism_smcd_gid_add(struct ism_smcd *bridge);
void ism_smcd_gid_del(struct ism_smcd *bridge);
void ism_smcd_gid_lookup(u64 gid64, uuid_t *gid);

void ism_smcd_fail_init(struct ism_smcd *bridge);
void ism_smcd_fail_stop(struct ism_smcd *bridge);
int ism_smcd_write_failed(struct ism_smcd *bridge, u64 token, int err);
int ism_smcd_diag_peers(u64 gid64, const u64 *tokens, int ntokens,
			u64 *peers);

void ism_smcd_vlan_init(struct ism_smcd *bridge);
int ism_smcd_vlan_want(struct ism_smcd *bridge, u64 vlan_id, bool want);
void ism_smcd_vlan_flush(struct ism_smcd *bridge);

#endif /* _NET_SMC_ISM_SMCD_H */
