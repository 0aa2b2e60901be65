// SPDX-License-Identifier: GPL-2.0
/*
 * The SMC-D bridge: the peers of the connections that write to a DMB.
 *
 * SMC 6.1 hands a device only the token of the DMB a connection writes
 * into, which the connection's peer chose in the handshake: the token
 * names a DMB, not the peer. The one interface of SMC 6.1 that pairs a
 * connection's peer GID with the token it writes to is its socket
 * diagnostics (smc_diag: NETLINK_SOCK_DIAG, family AF_SMC, extension
 * SMC_DIAG_DMBINFO), which answer for the asker's network namespace. The
 * bridge asks them in each namespace, as a kernel socket of its own.
 *
 * A kernel thread (the bridge's work items): sleeps, allocates, releases
 * its sockets synchronously (__fput_sync()). Holds net_rwsem (read)
 * across the queries: namespaces can then not be torn down under them,
 * and only their creation and destruction wait, for as long as SMC takes
 * to list its sockets; no peer has a say in how long that is.
 */
#include <linux/file.h>
#include <linux/kmod.h>
#include <linux/net.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <linux/smc_diag.h>
#include <linux/uio.h>
#include <net/net_namespace.h>
#include <net/netlink.h>

#include "ism_smcd.h"

/* smc_diag's dump parts are at most this long (its min_dump_alloc). */
#define ISM_SMCD_DIAG_BUF	SZ_64K
/* A dump that stalls this long is abandoned. */
#define ISM_SMCD_DIAG_TIMEOUT	(2 * HZ)

/* smc_diag answered once: it need not be loaded again. */
static bool ism_smcd_diag_loaded;

/**
 * struct ism_smcd_diag - one search, over every namespace
 * @gid64: the local SMC-D GID whose connections count
 * @tokens: the peer tokens looked for
 * @ntokens: how many
 * @peers: the peer GIDs found, each once
 * @npeers: how many
 * @buf: where a dump part is received
 */
struct ism_smcd_diag {
	u64 gid64;
	const u64 *tokens;
	int ntokens;
	u64 peers[ISM_SMCD_FAILED_MAX];
	int npeers;
	void *buf;
};

static bool ism_smcd_diag_has(const u64 *v, int n, u64 x)
{
	while (n--)
		if (v[n] == x)
			return true;
	return false;
}

/* A connection that SMC ended already (a peer gone, a fence) writes on
 * while its socket closes, and those writes are refused too. Ending its
 * peer's link groups again would end the ones made since, with a peer
 * that came back: the connections that count are those still open.
 */
static bool ism_smcd_diag_ended(u8 state)
{
	return state == ISM_SMCD_SK_CLOSED ||
	       state == ISM_SMCD_SK_PEERABORTWAIT ||
	       state == ISM_SMCD_SK_PROCESSABORT;
}

/* One socket of the dump: its peer, if it writes to a token looked for. */
static void ism_smcd_diag_sock(struct ism_smcd_diag *d,
			       const struct nlmsghdr *nlh)
{
	const struct smc_diag_msg *r = nlmsg_data(nlh);
	struct smcd_diag_dmbinfo info;
	const struct nlattr *a;

	if (nlmsg_len(nlh) < sizeof(*r) || r->diag_mode != SMC_DIAG_MODE_SMCD ||
	    ism_smcd_diag_ended(r->diag_state))
		return;
	a = nla_find(nlmsg_attrdata(nlh, sizeof(*r)),
		     nlmsg_attrlen(nlh, sizeof(*r)), SMC_DIAG_DMBINFO);
	if (!a || nla_len(a) < sizeof(info))
		return;
	/* Attributes are only 4-byte aligned. */
	memcpy(&info, nla_data(a), sizeof(info));
	if (info.my_gid != d->gid64 ||
	    !ism_smcd_diag_has(d->tokens, d->ntokens, info.peer_token) ||
	    ism_smcd_diag_has(d->peers, d->npeers, info.peer_gid) ||
	    d->npeers == ARRAY_SIZE(d->peers))
		return;
	d->peers[d->npeers++] = info.peer_gid;
}

/* Receive a dump part into d->buf and take its sockets. Return: 1 for
 * more to come, 0 at the dump's end, or an error.
 */
static int ism_smcd_diag_recv(struct socket *sock, struct ism_smcd_diag *d)
{
	struct kvec kv = { .iov_base = d->buf, .iov_len = ISM_SMCD_DIAG_BUF };
	struct msghdr msg = { };
	struct nlmsghdr *nlh;
	int len, err;

	len = kernel_recvmsg(sock, &msg, &kv, 1, kv.iov_len, 0);
	if (len < 0)
		return len;
	if (msg.msg_flags & MSG_TRUNC)
		return -EMSGSIZE;
	for (nlh = d->buf; nlmsg_ok(nlh, len); nlh = nlmsg_next(nlh, &len)) {
		if (nlh->nlmsg_type == NLMSG_DONE)
			return 0;
		if (nlh->nlmsg_type == NLMSG_ERROR) {
			err = nlmsg_len(nlh) >= sizeof(struct nlmsgerr) ?
			      ((struct nlmsgerr *)nlmsg_data(nlh))->error : 0;
			return err ? err : -EPROTO;
		}
		if (nlh->nlmsg_type == SOCK_DIAG_BY_FAMILY)
			ism_smcd_diag_sock(d, nlh);
	}
	return 1;
}

/* The SMC sockets of namespace @net. */
static int ism_smcd_diag_net(struct net *net, struct ism_smcd_diag *d)
{
	struct {
		struct nlmsghdr nlh;
		struct smc_diag_req req;
	} ask = {
		.nlh = {
			.nlmsg_len = sizeof(ask),
			.nlmsg_type = SOCK_DIAG_BY_FAMILY,
			.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP,
		},
		.req = {
			.diag_family = AF_SMC,
			.diag_ext = 1 << (SMC_DIAG_DMBINFO - 1),
		},
	};
	struct kvec kv = { .iov_base = &ask, .iov_len = sizeof(ask) };
	struct msghdr msg = { };
	struct socket *sock;
	struct file *file;
	int ret;

	ret = sock_create_kern(net, AF_NETLINK, SOCK_RAW, NETLINK_SOCK_DIAG,
			       &sock);
	if (ret)
		return ret;
	/* smc_diag reads the asker's user namespace through its socket's
	 * file (sk_user_ns()), and a kernel socket has none: without one,
	 * the first SMC socket listed is a NULL dereference. Released here,
	 * synchronously, while @net is held.
	 */
	file = sock_alloc_file(sock, 0, NULL);
	if (IS_ERR(file))
		return PTR_ERR(file);
	sock->sk->sk_rcvtimeo = ISM_SMCD_DIAG_TIMEOUT;
	ret = kernel_sendmsg(sock, &msg, &kv, 1, kv.iov_len);
	if (ret >= 0)
		do
			ret = ism_smcd_diag_recv(sock, d);
		while (ret > 0);
	__fput_sync(file);
	return ret;
}

/**
 * ism_smcd_diag_peers() - the peers of the SMC-D connections writing to tokens
 * @gid64: the local GID of the SMC-D device the connections are on
 * @tokens: the DMB tokens the connections write to
 * @ntokens: how many, at most %ISM_SMCD_FAILED_MAX
 * @peers: the peer GIDs of those connections, each once, at most
 *	%ISM_SMCD_FAILED_MAX
 *
 * A kernel thread; see the top of this file.
 *
 * Return: how many peers, or an error if a namespace could not be asked
 * (smc_diag missing, no memory).
 */
int ism_smcd_diag_peers(u64 gid64, const u64 *tokens, int ntokens,
			u64 *peers)
{
	struct ism_smcd_diag *d;
	struct net *net;
	int ret = 0;

	/* Before net_rwsem, as loading it runs modprobe; once it answered,
	 * not on every lookup.
	 */
	if (!READ_ONCE(ism_smcd_diag_loaded))
		request_module("net-pf-%d-proto-%d-type-%d", PF_NETLINK,
			       NETLINK_SOCK_DIAG, AF_SMC);
	d = kzalloc(sizeof(*d), GFP_KERNEL);
	if (!d)
		return -ENOMEM;
	d->buf = kvmalloc(ISM_SMCD_DIAG_BUF, GFP_KERNEL);
	if (!d->buf) {
		kfree(d);
		return -ENOMEM;
	}
	d->gid64 = gid64;
	d->tokens = tokens;
	d->ntokens = ntokens;
	down_read(&net_rwsem);
	for_each_net(net) {
		/* Namespaces on their way out have no sockets to ask. */
		if (!maybe_get_net(net))
			continue;
		ret = ism_smcd_diag_net(net, d);
		put_net(net);
		if (ret)
			break;
	}
	up_read(&net_rwsem);
	if (!ret) {
		WRITE_ONCE(ism_smcd_diag_loaded, true);
		memcpy(peers, d->peers, d->npeers * sizeof(*peers));
		ret = d->npeers;
	}
	kvfree(d->buf);
	kfree(d);
	return ret;
}
