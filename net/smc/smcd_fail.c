// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D bridge: a write that the device refuses.
 *
 * SMC 6.1 cannot survive one. smcd_tx_ism_write() then marks the
 * connection aborted without setting an error on the socket or shutting
 * it down, and smc_rx_recvmsg() loops on that mark without sleeping: a
 * reader spins until a signal (soft lockups, RCU stalls). During a
 * handshake the listener's early cleanup takes a lock it holds. A peer
 * of a virtual ISM region can make any write fail at will (it rewrites
 * its DMB descriptors, or names in the handshake a token that is not its
 * own), so a failure must never reach SMC.
 *
 * Instead the bridge tells SMC the write succeeded (the data is dropped
 * with the connection it belonged to) and ends that connection: it finds
 * the peer of every connection writing to the refused token in SMC's
 * socket diagnostics (smcd_diag.c) and ends the link groups with that
 * peer the way SMC ends them when a peer is gone, with a GID event,
 * which terminates them in SMC's event worker and wakes every reader and
 * writer with ECONNABORTED. It also asks that peer to end its side
 * (SMC's SHUTDOWN software event for all VLANs). The peer is the
 * connection's, never the one the token's slot names: a hostile peer
 * chooses its tokens, and one naming another guest's DMB must not end
 * the connections with that guest, nor one naming nobody leave its own
 * connection waiting, nor one naming the writer itself make SMC spin.
 * Only devices that can name a token's owner (ism_dmb_owner(): those
 * whose peers need not be trusted) are handled so; on the others, whose
 * peers are the same kernel or the machine's firmware, the error goes to
 * SMC as before.
 */
#include <linux/module.h>

#include "ism_smcd.h"

/* A SHUTDOWN request: end the link groups with the sender on all VLANs. */
static u64 ism_smcd_shutdown_info(void)
{
	struct ism_smcd_ev_info info = {
		.vlan_id = VLAN_VID_MASK,
		.code = ISM_SMCD_EV_REQUEST,
	};
	u64 v;

	BUILD_BUG_ON(sizeof(info) != sizeof(v));
	memcpy(&v, &info, sizeof(v));
	return v;
}

/* Process context: the link groups with @peer64 end, on both sides. */
static void ism_smcd_end_peer(struct ism_smcd *bridge, u64 peer64)
{
	struct smcd_event ev = { .type = ISM_EVENT_GID, .tok = peer64 };
	uuid_t peer;

	ism_smcd_gid_lookup(peer64, &peer);
	dev_warn_ratelimited(ism_dev_device(bridge->ism),
			     "ism_smcd: a write for a connection with %pUb failed: ending the connections with it\n",
			     &peer);
	ism_signal_event(bridge->ism, &peer, 1, ISM_SMCD_EV_SHUTDOWN,
			 ism_smcd_shutdown_info());
	smcd_handle_event(bridge->smcd, &ev);
}

/* The refused tokens recorded since the last run: the connections that
 * wrote to them, and so their peers, are looked up in SMC's socket
 * diagnostics, which sleep. One run at a time (a work item).
 */
static void ism_smcd_fail_work(struct work_struct *work)
{
	struct ism_smcd *bridge = container_of(work, struct ism_smcd,
					       fail_work);
	u64 *tokens = bridge->fail_taken;
	unsigned long flags;
	int ntokens, n, i;

	spin_lock_irqsave(&bridge->fail_lock, flags);
	ntokens = bridge->failed;
	memcpy(tokens, bridge->fail_tokens, ntokens * sizeof(*tokens));
	bridge->failed = 0;
	spin_unlock_irqrestore(&bridge->fail_lock, flags);

	n = ism_smcd_diag_peers(bridge->gid64, tokens, ntokens,
				bridge->fail_peers);
	if (n < 0)
		dev_err_ratelimited(ism_dev_device(bridge->ism),
				    "ism_smcd: cannot find the connections whose writes failed: %d (smc_diag is needed)\n",
				    n);
	for (i = 0; i < n; i++)
		ism_smcd_end_peer(bridge, bridge->fail_peers[i]);
}

void ism_smcd_fail_init(struct ism_smcd *bridge)
{
	spin_lock_init(&bridge->fail_lock);
	INIT_WORK(&bridge->fail_work, ism_smcd_fail_work);
}

/* Process context, before SMC lets go of the device: no refused write
 * is looked up from now on (SMC ends every connection on it anyway).
 */
void ism_smcd_fail_stop(struct ism_smcd *bridge)
{
	unsigned long flags;

	spin_lock_irqsave(&bridge->fail_lock, flags);
	bridge->leaving = true;
	spin_unlock_irqrestore(&bridge->fail_lock, flags);
	cancel_work_sync(&bridge->fail_work);
}

/* Record @token for ism_smcd_fail_work(), once. Any context. */
static void ism_smcd_fail_record(struct ism_smcd *bridge, u64 token,
				 int err)
{
	unsigned long flags;
	bool full = false;
	int i;

	spin_lock_irqsave(&bridge->fail_lock, flags);
	for (i = 0; i < bridge->failed; i++)
		if (bridge->fail_tokens[i] == token)
			break;
	if (bridge->leaving) {
		/* SMC is ending every connection on the device. */
	} else if (i < bridge->failed) {
		queue_work(system_long_wq, &bridge->fail_work);
	} else if (bridge->failed < ISM_SMCD_FAILED_MAX) {
		bridge->fail_tokens[bridge->failed++] = token;
		queue_work(system_long_wq, &bridge->fail_work);
	} else {
		full = true;
	}
	spin_unlock_irqrestore(&bridge->fail_lock, flags);
	dev_warn_ratelimited(ism_dev_device(bridge->ism),
			     "ism_smcd: a write to DMB %#llx was refused (%d): ending its connection\n",
			     token, err);
	/* Its connection's next write is refused too, and recorded then. */
	if (full)
		dev_warn_ratelimited(ism_dev_device(bridge->ism),
				     "ism_smcd: more refused writes than %d at once\n",
				     ISM_SMCD_FAILED_MAX);
}

/**
 * ism_smcd_write_failed() - what SMC is told of a refused write
 * @bridge: the bridge of the writing device
 * @token: the DMB the write was for
 * @err: the device's error
 *
 * Any context of SMC's writes (process or softirq, SMC's spinlocks held):
 * allocates nothing; the connections are ended by a work item.
 *
 * Return: 0 if the connections writing to @token are being ended (or the
 * device is leaving, when SMC ends all of them), else @err.
 */
int ism_smcd_write_failed(struct ism_smcd *bridge, u64 token, int err)
{
	uuid_t owner;
	int ret;

	/* The device is leaving: its removal ends every connection on it. */
	if (err == -ENODEV)
		return 0;
	/* Only whether the device can tell: the token is the peer's word. */
	ret = ism_dmb_owner(bridge->ism, token, &owner);
	if (ret == -ENODEV)
		return 0;
	/* Peers the device trusts: SMC gets their failures, as before. */
	if (ret == -EOPNOTSUPP)
		return err;
	ism_smcd_fail_record(bridge, token, err);
	return 0;
}
