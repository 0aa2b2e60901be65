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
 * its DMB descriptors), so a failure must never reach SMC.
 *
 * Instead the bridge ends the link groups with the DMB's owner the way
 * SMC ends them when a peer is gone: it hands SMC a GID event for the
 * owner, which terminates them in SMC's event worker and wakes every
 * reader and writer with ECONNABORTED. It also asks the owner to end its
 * side (SMC's SHUTDOWN software event for all VLANs), and tells SMC the
 * write succeeded: the data is dropped with the connection it belonged
 * to. Only devices that can name a token's owner (ism_dmb_owner(): those
 * whose peers need not be trusted) are handled so; on the others, whose
 * peers are the same kernel or the machine's firmware, the error goes to
 * SMC as before.
 */
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

/**
 * ism_smcd_write_failed() - what SMC is told of a refused write
 * @bridge: the bridge of the writing device
 * @token: the DMB the write was for
 * @err: the device's error
 *
 * Any context of SMC's writes (process or softirq, SMC's spinlocks held):
 * allocates nothing itself; smcd_handle_event() queues one work item.
 *
 * Return: 0 if the link groups with the owner are being ended (or the
 * device is leaving, when SMC ends all of them), else @err.
 */
int ism_smcd_write_failed(struct ism_smcd *bridge, u64 token, int err)
{
	struct smcd_event ev = { .type = ISM_EVENT_GID };
	uuid_t owner;
	int ret;

	/* The device is leaving: its removal ends every connection on it. */
	if (err == -ENODEV)
		return 0;
	ret = ism_dmb_owner(bridge->ism, token, &owner);
	/* The owner is gone, and the device reported it (a GID event), or
	 * the device is leaving: SMC is ending those link groups already.
	 */
	if (ret == -ENOENT || ret == -ENODEV)
		return 0;
	if (ret || uuid_equal(&owner, &bridge->gid))
		return err;
	dev_warn_ratelimited(ism_dev_device(bridge->ism),
			     "ism_smcd: a write to a DMB of %pUb failed (%d): ending the connections with it\n",
			     &owner, err);
	ism_signal_event(bridge->ism, &owner, 1, ISM_SMCD_EV_SHUTDOWN,
			 ism_smcd_shutdown_info());
	ev.tok = ism_smcd_gid64(&owner);
	smcd_handle_event(bridge->smcd, &ev);
	return 0;
}
