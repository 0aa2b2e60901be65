// SPDX-License-Identifier: GPL-2.0
/*
 * The software model of IBM's ISM PCI function, see pci_model.h.
 *
 * Everything runs under the fabric's lock with interrupts off: command
 * execution (the driver's store of a header), moves (from any context but
 * hard irq) and the tests' injections. The function's side of the SBA is
 * updated with atomic operations, as the driver's handler clears bits
 * without the model's lock. Bus addresses are those of dma-direct, as the
 * model's devices have no IOMMU.
 */
#include <linux/dma-direct.h>
#include <linux/dma-mapping.h>
#include <linux/slab.h>
#include <linux/string.h>

#include "pci_model.h"

/* The slot an interrupt injected during a command names. */
#define ISM_MODEL_INJECT_SLOT	40

static void *ism_model_virt(struct ism_model_fn *fn, u64 dma)
{
	return phys_to_virt(dma_to_phys(fn->dev, dma));
}

/*
 * Set status bits; with @irq, interrupt. An interrupt raised while one is
 * held back or not yet handled is the same interrupt.
 */
static void ism_model_status(struct ism_model_fn *fn, u32 bit, bool irq)
{
	atomic_or((__force int)cpu_to_be32(bit), (atomic_t *)&fn->sba->status);
	if (!irq || !fn->irq_on)
		return;
	if (fn->irq_held)
		fn->irq_pending = true;
	else
		irq_work_queue(&fn->irq);
}

static void ism_model_irq(struct irq_work *work)
{
	struct ism_model_fn *fn = container_of(work, struct ism_model_fn, irq);

	atomic_inc(&fn->irqs);
	ism_pci_irq(0, fn->ip);
}

static void ism_model_signal(struct ism_model_fn *fn, unsigned int slot,
			     unsigned int idx)
{
	/* On the plain word, as pci_irq.c does, for sparse on s390. */
	u16 *mask = (__force u16 *)&fn->sba->dmbe_mask[slot];
	u16 old = READ_ONCE(*mask);

	while (!try_cmpxchg(mask, &old,
			    old | (__force u16)cpu_to_be16(BIT(idx))))
		;
	atomic_or((__force int)cpu_to_be32(ism_pci_sba_bit(slot)),
		  (atomic_t *)&fn->sba->dmb_bits[slot / 32]);
	ism_model_status(fn, ISM_PCI_SBA_SUMMARY, true);
}

/* Queue an event; only with @irq does it interrupt at once. */
static void ism_model_event(struct ism_model_fn *fn, u32 type, u32 code,
			    u64 tok, u64 info, bool irq)
{
	struct ism_pci_event *e;
	unsigned int i;

	if (!fn->ieq || !fn->sba)
		return;
	i = fn->ieq_written++ % fn->ieq_entries;
	e = &fn->ieq->entry[i];
	e->type = cpu_to_be32(type);
	e->code = cpu_to_be32(code);
	e->tok = cpu_to_be64(tok);
	e->time = cpu_to_be64(fn->ieq_written);
	e->info = cpu_to_be64(info);
	dma_wmb();
	WRITE_ONCE(fn->ieq->hdr.idx, cpu_to_be64(i + 1));
	ism_model_status(fn, ISM_PCI_SBA_EVENT, irq);
}

static struct ism_model_fn *ism_model_by_gid(struct ism_model_fabric *fab,
					     u64 gid)
{
	struct ism_model_fn *fn;

	list_for_each_entry(fn, &fab->fns, node)
		if (fn->gid == gid && fn->sba && !fn->broken)
			return fn;
	return NULL;
}

static struct ism_model_dmb *ism_model_by_token(struct ism_model_fabric *fab,
						u64 token,
						struct ism_model_fn **owner,
						unsigned int *slot)
{
	struct ism_model_fn *fn;
	unsigned int i;

	list_for_each_entry(fn, &fab->fns, node) {
		for (i = ISM_PCI_FIRST_DMB; i < ISM_PCI_NR_DMBS; i++) {
			if (fn->dmbs[i].token == token) {
				*owner = fn;
				*slot = i;
				return &fn->dmbs[i];
			}
		}
	}
	return NULL;
}

static bool ism_model_vlan_ok(struct ism_model_fn *fn, u32 valid, u32 vid)
{
	if (!valid)
		return !fn->vlan_required;
	return vid <= ISM_PCI_VLAN_MAX && test_bit(vid, fn->vlans);
}

static u16 ism_model_reg_dmb(struct ism_model_fn *fn,
			     const struct ism_pci_reg_dmb_req *req,
			     struct ism_pci_reg_dmb_resp *resp)
{
	u32 slot = be32_to_cpu(req->sba_idx);
	u32 len = be32_to_cpu(req->dmb_len);
	struct ism_model_dmb *d;

	if (!fn->sba || !len || len > ISM_PCI_MAX_DMB_LEN ||
	    slot < ISM_PCI_FIRST_DMB || slot >= ISM_PCI_NR_DMBS ||
	    fn->dmbs[slot].token ||
	    !ism_model_vlan_ok(fn, be32_to_cpu(req->vlan_valid),
			       be32_to_cpu(req->vlan_id)))
		return ISM_MODEL_RC_REFUSED;
	d = &fn->dmbs[slot];
	fn->fab->tokens++;
	d->token = (u64)fn->fab->tokens << 32;
	d->cpu = ism_model_virt(fn, be64_to_cpu(req->dmb));
	d->len = len;
	d->rgid = be64_to_cpu(req->rgid);
	resp->token = cpu_to_be64(d->token);
	return 0;
}

static u16 ism_model_unreg_dmb(struct ism_model_fn *fn, u64 token)
{
	struct ism_model_fn *owner, *writer;
	struct ism_model_dmb *d;
	unsigned int slot;

	d = token ? ism_model_by_token(fn->fab, token, &owner, &slot) : NULL;
	if (!d || owner != fn)
		return ISM_MODEL_RC_REFUSED;
	writer = ism_model_by_gid(fn->fab, d->rgid);
	if (writer)
		ism_model_event(writer, ISM_PCI_EV_DMB, 0, token, 0, true);
	memset(d, 0, sizeof(*d));
	return 0;
}

static u16 ism_model_query_info(struct ism_model_fn *fn,
				struct ism_pci_query_info_resp *resp)
{
	unsigned int vid, n = 0;

	memset(resp, 0, sizeof(*resp));
	resp->version = cpu_to_be32(1);
	resp->max_len = cpu_to_be32(ISM_PCI_MAX_DMB_LEN);
	resp->gid = cpu_to_be64(fn->gid);
	resp->dmbs_owned = cpu_to_be32(ism_model_dmbs(fn));
	resp->vlan_required = cpu_to_be32(fn->vlan_required);
	for_each_set_bit(vid, fn->vlans, ISM_PCI_VLAN_MAX + 1)
		if (n < ARRAY_SIZE(resp->vlan_id))
			resp->vlan_id[n++] = cpu_to_be16(vid);
	resp->vlan_nr_ids = cpu_to_be32(n);
	return 0;
}

/* Execute one block; @resp gets the response data, *@resp_len its size. */
static u16 ism_model_do(struct ism_model_fn *fn, u32 cmd, const void *req,
			unsigned int len, void *resp, unsigned int *resp_len)
{
	const struct ism_pci_signal_ieq_req *sig = req;
	const struct ism_pci_query_rgid_req *qr = req;
	const struct ism_pci_reg_ieq_req *ieq = req;
	const struct ism_pci_vlan_req *vlan = req;
	const __be64 *word = req;
	struct ism_model_fn *peer;
	u64 vid;

	switch (cmd) {
	case ISM_PCI_REG_SBA:
		if (len < sizeof(__be64) || fn->sba)
			return ISM_MODEL_RC_REFUSED;
		fn->sba = ism_model_virt(fn, be64_to_cpu(word[0]));
		return 0;
	case ISM_PCI_REG_IEQ:
		if (len < sizeof(*ieq) || fn->ieq ||
		    be64_to_cpu(ieq->len) < sizeof(struct ism_pci_ieq))
			return ISM_MODEL_RC_REFUSED;
		fn->ieq = ism_model_virt(fn, be64_to_cpu(ieq->ieq));
		fn->ieq_entries = ISM_PCI_IEQ_ENTRIES;
		fn->ieq_written = 0;
		return 0;
	case ISM_PCI_UNREG_SBA:
		if (!fn->sba)
			return ISM_MODEL_RC_REFUSED;
		fn->sba = NULL;
		return 0;
	case ISM_PCI_UNREG_IEQ:
		if (!fn->ieq)
			return ISM_MODEL_RC_REFUSED;
		fn->ieq = NULL;
		return 0;
	case ISM_PCI_READ_GID:
		*(__be64 *)resp = cpu_to_be64(fn->gid);
		*resp_len = sizeof(__be64);
		return 0;
	case ISM_PCI_QUERY_INFO:
		*resp_len = sizeof(struct ism_pci_query_info_resp);
		return ism_model_query_info(fn, resp);
	case ISM_PCI_QUERY_RGID:
		if (len < sizeof(*qr))
			return ISM_MODEL_RC_SHORT;
		peer = ism_model_by_gid(fn->fab, be64_to_cpu(qr->rgid));
		if (!peer || !ism_model_vlan_ok(fn, be32_to_cpu(qr->vlan_valid),
						be32_to_cpu(qr->vlan_id)))
			return ISM_MODEL_RC_REFUSED;
		return 0;
	case ISM_PCI_REG_DMB:
		if (len < sizeof(struct ism_pci_reg_dmb_req))
			return ISM_MODEL_RC_SHORT;
		*resp_len = sizeof(struct ism_pci_reg_dmb_resp);
		return ism_model_reg_dmb(fn, req, resp);
	case ISM_PCI_UNREG_DMB:
		if (len < sizeof(__be64))
			return ISM_MODEL_RC_SHORT;
		return ism_model_unreg_dmb(fn, be64_to_cpu(word[0]));
	case ISM_PCI_SIGNAL_IEQ:
		if (len < sizeof(*sig))
			return ISM_MODEL_RC_SHORT;
		peer = ism_model_by_gid(fn->fab, be64_to_cpu(sig->rgid));
		if (!peer || !peer->ieq)
			return ISM_MODEL_RC_REFUSED;
		ism_model_event(peer, ISM_PCI_EV_SWR,
				be32_to_cpu(sig->event_code), fn->gid,
				be64_to_cpu(sig->info),
				be32_to_cpu(sig->trigger_irq));
		return 0;
	case ISM_PCI_ADD_VLAN_ID:
	case ISM_PCI_DEL_VLAN_ID:
		if (len < sizeof(*vlan))
			return ISM_MODEL_RC_SHORT;
		vid = be64_to_cpu(vlan->vlan_id);
		if (vid > ISM_PCI_VLAN_MAX ||
		    test_bit(vid, fn->vlans) != (cmd == ISM_PCI_DEL_VLAN_ID))
			return ISM_MODEL_RC_REFUSED;
		change_bit(vid, fn->vlans);
		return 0;
	case ISM_PCI_SET_VLAN:
	case ISM_PCI_RESET_VLAN:
		fn->vlan_required = cmd == ISM_PCI_SET_VLAN;
		return 0;
	}
	return ISM_MODEL_RC_UNKNOWN;
}

/* The driver stored a header: execute the block, write the response. */
static void ism_model_exec(struct ism_model_fn *fn)
{
	struct ism_pci_req_hdr *rq = (void *)fn->cmd;
	struct ism_pci_resp_hdr *rs = (void *)fn->cmd;
	u32 cmd = be32_to_cpu(rq->cmd);
	unsigned int len = be16_to_cpu(rq->len);
	u64 resp[ISM_PCI_CMD_MAX / sizeof(u64)] = {};
	unsigned int resp_len = 0;
	u16 rc;

	if (cmd < ISM_MODEL_CMDS)
		fn->cmds[cmd]++;
	if (fn->broken) {
		rc = ISM_PCI_RC_NO_ANSWER;
	} else if (fn->fail_cmd && cmd == fn->fail_cmd && !fn->fail_skip--) {
		rc = fn->fail_rc;
		fn->fail_cmd = 0;
	} else if (len < sizeof(*rq) || len > sizeof(fn->cmd)) {
		rc = ISM_MODEL_RC_SHORT;
	} else {
		rc = ism_model_do(fn, cmd, rq + 1, len - sizeof(*rq), resp,
				  &resp_len);
	}
	if (rc)
		resp_len = 0;
	rs->ret = cpu_to_be16(rc);
	rs->len = cpu_to_be16(sizeof(*rs) + resp_len);
	memcpy(rs + 1, resp, resp_len);

	if (cmd == fn->irq_on_cmd && fn->sba) {
		fn->irq_on_cmd = 0;
		ism_model_signal(fn, ISM_MODEL_INJECT_SLOT, 0);
		ism_model_event(fn, ISM_PCI_EV_GID, 0, fn->gid + 1, 0, false);
	}
}

static struct ism_model_fn *ism_model_of(struct ism_pci *ip)
{
	return ip->hw_priv;
}

static void ism_model_cmd_write(struct ism_pci *ip, unsigned int offset,
				const void *data, unsigned int len)
{
	struct ism_model_fn *fn = ism_model_of(ip);
	unsigned long flags;

	if (WARN_ON(offset > sizeof(fn->cmd) || len > sizeof(fn->cmd) - offset))
		return;
	spin_lock_irqsave(&fn->fab->lock, flags);
	memcpy((u8 *)fn->cmd + offset, data, len);
	if (!offset)
		ism_model_exec(fn);
	spin_unlock_irqrestore(&fn->fab->lock, flags);
}

static void ism_model_cmd_read(struct ism_pci *ip, unsigned int offset,
			       void *data, unsigned int len)
{
	struct ism_model_fn *fn = ism_model_of(ip);
	unsigned long flags;

	if (WARN_ON(offset > sizeof(fn->cmd) || len > sizeof(fn->cmd) - offset))
		return;
	spin_lock_irqsave(&fn->fab->lock, flags);
	memcpy(data, (u8 *)fn->cmd + offset, len);
	spin_unlock_irqrestore(&fn->fab->lock, flags);
}

static int ism_model_move_locked(struct ism_model_fn *fn, u64 addr,
				 const void *data, unsigned int len)
{
	unsigned int idx = (addr >> ISM_PCI_MOVE_IDX_SHIFT) & 0xff;
	unsigned int off = addr & ISM_PCI_MOVE_OFF_MASK;
	struct ism_model_fn *owner;
	struct ism_model_dmb *d;
	unsigned int slot;

	fn->move_log[fn->moves++ % ISM_MODEL_MOVE_LOG] =
		(struct ism_model_move){ .addr = addr, .len = len };
	if (fn->broken)
		return -EIO;
	d = ism_model_by_token(fn->fab, addr & ISM_PCI_TOKEN_MASK, &owner,
			       &slot);
	if (!d || !owner->sba)
		return -ENOENT;
	if (d->rgid != fn->gid)
		return -EACCES;
	if (idx >= ISM_DMBE_BITS || len > PAGE_SIZE ||
	    offset_in_page(off) + len > PAGE_SIZE || off + len > d->len)
		return -EINVAL;
	memcpy(d->cpu + off, data, len);
	if (addr & ISM_PCI_MOVE_SF)
		ism_model_signal(owner, slot, idx);
	return 0;
}

static int ism_model_move(struct ism_pci *ip, u64 addr, const void *data,
			  unsigned int len)
{
	struct ism_model_fn *fn = ism_model_of(ip);
	unsigned long flags;
	int ret;

	spin_lock_irqsave(&fn->fab->lock, flags);
	ret = ism_model_move_locked(fn, addr, data, len);
	spin_unlock_irqrestore(&fn->fab->lock, flags);
	return ret;
}

static int ism_model_irq_start(struct ism_pci *ip)
{
	struct ism_model_fn *fn = ism_model_of(ip);
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	fn->irq_on = true;
	spin_unlock_irqrestore(&fn->fab->lock, flags);
	return 0;
}

static void ism_model_irq_stop(struct ism_pci *ip)
{
	struct ism_model_fn *fn = ism_model_of(ip);
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	fn->irq_on = false;
	fn->irq_pending = false;
	spin_unlock_irqrestore(&fn->fab->lock, flags);
	irq_work_sync(&fn->irq);
}

static void ism_model_dev_release(struct device *dev)
{
	kfree(dev);
}

/*
 * A bare device to DMA for: root_device_register() links the device to
 * its module in sysfs, which fails while the module's init (where the
 * KUnit suites run) has not returned.
 */
static struct device *ism_model_dev_add(void)
{
	static atomic_t ism_model_count = ATOMIC_INIT(0);
	struct device *dev;
	int ret;

	dev = kzalloc(sizeof(*dev), GFP_KERNEL);
	if (!dev)
		return ERR_PTR(-ENOMEM);
	device_initialize(dev);
	dev->release = ism_model_dev_release;
	dev->coherent_dma_mask = DMA_BIT_MASK(64);
	dev->dma_mask = &dev->coherent_dma_mask;
	ret = dev_set_name(dev, "ism_model%d",
			   atomic_inc_return(&ism_model_count));
	if (!ret)
		ret = device_add(dev);
	if (ret) {
		put_device(dev);
		return ERR_PTR(ret);
	}
	return dev;
}

static const struct ism_pci_hw_ops ism_model_hw_ops = {
	.cmd_write = ism_model_cmd_write,
	.cmd_read = ism_model_cmd_read,
	.move = ism_model_move,
	.irq_start = ism_model_irq_start,
	.irq_stop = ism_model_irq_stop,
};

void ism_model_fabric_init(struct ism_model_fabric *fab, u16 chid)
{
	spin_lock_init(&fab->lock);
	INIT_LIST_HEAD(&fab->fns);
	fab->chid = chid;
	fab->tokens = 0;
}

/**
 * ism_model_fn_create() - a function on @fab, its driver instance not started
 * @fab: the fabric
 * @gid: the function's GID
 *
 * Process context. Free with ism_model_fn_destroy().
 *
 * Return: the function, or an ERR_PTR().
 */
struct ism_model_fn *ism_model_fn_create(struct ism_model_fabric *fab,
					 u64 gid)
{
	struct ism_model_fn *fn;
	struct ism_pci *ip;
	unsigned long flags;
	int ret;

	fn = kvzalloc(sizeof(*fn), GFP_KERNEL);
	if (!fn)
		return ERR_PTR(-ENOMEM);
	fn->fab = fab;
	fn->gid = gid;
	init_irq_work(&fn->irq, ism_model_irq);
	fn->dev = ism_model_dev_add();
	ret = PTR_ERR_OR_ZERO(fn->dev);
	if (ret)
		goto free;
	ip = ism_pci_alloc(fn->dev, fn->dev, &ism_model_hw_ops, fn, fab->chid);
	ret = PTR_ERR_OR_ZERO(ip);
	if (ret)
		goto unregister;
	fn->ip = ip;
	spin_lock_irqsave(&fab->lock, flags);
	list_add_tail(&fn->node, &fab->fns);
	spin_unlock_irqrestore(&fab->lock, flags);
	return fn;

unregister:
	device_unregister(fn->dev);
free:
	kvfree(fn);
	return ERR_PTR(ret);
}

/* Start the driver on @fn: ism_pci_start(). */
int ism_model_fn_start(struct ism_model_fn *fn)
{
	int ret = ism_pci_start(fn->ip);

	fn->started = !ret;
	return ret;
}

/* Stop the driver if started, then free the function. Process context. */
void ism_model_fn_destroy(struct ism_model_fn *fn)
{
	unsigned long flags;

	if (fn->started)
		ism_pci_stop(fn->ip);
	ism_pci_put(fn->ip);
	spin_lock_irqsave(&fn->fab->lock, flags);
	list_del(&fn->node);
	spin_unlock_irqrestore(&fn->fab->lock, flags);
	device_unregister(fn->dev);
	kvfree(fn);
}

/* Refuse the execution @skip + 1 of @cmd with @rc. */
void ism_model_fail(struct ism_model_fn *fn, u32 cmd, unsigned int skip,
		    u16 rc)
{
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	fn->fail_cmd = cmd;
	fn->fail_skip = skip;
	fn->fail_rc = rc;
	spin_unlock_irqrestore(&fn->fab->lock, flags);
}

/*
 * Put @fn in error: it answers nothing and moves nothing from now on, and
 * every other function of the fabric gets a GID event for it.
 */
void ism_model_break(struct ism_model_fn *fn)
{
	struct ism_model_fn *peer;
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	fn->broken = true;
	list_for_each_entry(peer, &fn->fab->fns, node)
		if (peer != fn)
			ism_model_event(peer, ISM_PCI_EV_GID, 0, fn->gid, 0,
					true);
	spin_unlock_irqrestore(&fn->fab->lock, flags);
}

/* Hold @fn's interrupts back until ism_model_release(). */
void ism_model_hold(struct ism_model_fn *fn)
{
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	fn->irq_held = true;
	spin_unlock_irqrestore(&fn->fab->lock, flags);
}

/* Deliver what was held back, and wait until it has been handled. */
void ism_model_release(struct ism_model_fn *fn)
{
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	fn->irq_held = false;
	if (fn->irq_pending && fn->irq_on)
		irq_work_queue(&fn->irq);
	fn->irq_pending = false;
	spin_unlock_irqrestore(&fn->fab->lock, flags);
	ism_model_sync(fn);
}

/* Wait until an interrupt raised for @fn has been handled. */
void ism_model_sync(struct ism_model_fn *fn)
{
	irq_work_sync(&fn->irq);
}

/* The fabric tells @fn that @gid is gone (a GID event). */
void ism_model_gid_event(struct ism_model_fn *fn, u64 gid)
{
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	ism_model_event(fn, ISM_PCI_EV_GID, 0, gid, 0, true);
	spin_unlock_irqrestore(&fn->fab->lock, flags);
	ism_model_sync(fn);
}

/* Set status bits and interrupt, whatever the SBA and IEQ hold. */
void ism_model_raise(struct ism_model_fn *fn, u32 status)
{
	unsigned long flags;

	spin_lock_irqsave(&fn->fab->lock, flags);
	if (fn->sba)
		ism_model_status(fn, status, true);
	spin_unlock_irqrestore(&fn->fab->lock, flags);
	ism_model_sync(fn);
}

/* DMBs registered with @fn. Under the lock or from the test's thread. */
unsigned int ism_model_dmbs(struct ism_model_fn *fn)
{
	unsigned int i, n = 0;

	for (i = ISM_PCI_FIRST_DMB; i < ISM_PCI_NR_DMBS; i++)
		n += !!fn->dmbs[i].token;
	return n;
}
