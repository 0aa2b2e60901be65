// SPDX-License-Identifier: GPL-2.0
/*
 * ism_pci: the interrupt.
 *
 * The function sets a DMB's dmbe bits and slot bit in the SBA, or queues
 * an event in the IEQ, then sets the summary or event bit and interrupts;
 * signals that come while a bit is still set share its interrupt. The
 * handler takes everything there is and reports it to the core, which
 * gives it to the DMB's owner or to every client: the driver never calls
 * a client itself.
 *
 * Both areas are written by the function, so they are untrusted input:
 * a slot bit below the first DMB slot, a queue index past the queue or an
 * event of a type the layer does not know is counted (@bad_ieq) and
 * dropped, never followed.
 *
 * Hard-irq context (or the model's irq_work); @irq_lock keeps two CPUs
 * from draining at once and is held while the core runs the clients'
 * handlers, which do not sleep.
 */
#include <ism/kcompat.h>
#include <kunit/visibility.h>
#include <linux/bitops.h>

#include "ism_pci.h"

/*
 * Take a big-endian word of the SBA whole, leaving 0. The exchange is on
 * the plain word: s390's xchg() casts through unsigned long, which sparse
 * refuses for __be types.
 */
static u32 ism_pci_take32(__be32 *word)
{
	return be32_to_cpu((__force __be32)xchg((__force u32 *)word, 0));
}

static u16 ism_pci_take16(__be16 *word)
{
	return be16_to_cpu((__force __be16)xchg((__force u16 *)word, 0));
}

static void ism_pci_drain_sba(struct ism_pci *ip, struct ism_pci_sba *sba)
{
	unsigned int word, slot, bit;
	u32 bits;
	u16 mask;

	/* The function owns the first word: its bits are never a slot's. */
	for (word = ISM_PCI_FIRST_DMB / 32; word < ARRAY_SIZE(sba->dmb_bits);
	     word++) {
		if (!READ_ONCE(sba->dmb_bits[word]))
			continue;
		bits = ism_pci_take32(&sba->dmb_bits[word]);
		while (bits) {
			bit = __fls(bits);
			bits &= ~BIT(bit);
			slot = word * 32 + 31 - bit;
			/* Set before the slot bit: complete by now. */
			mask = ism_pci_take16(&sba->dmbe_mask[slot]);
			ism_handle_irq(ip->ism, slot, mask);
		}
	}
}

/* Report one entry, read once from the queue. */
static void ism_pci_report_event(struct ism_pci *ip,
				 const struct ism_pci_event *entry)
{
	struct ism_pci_event e = *entry;
	struct ism_event ev = {
		.type = be32_to_cpu(e.type),
		.code = be32_to_cpu(e.code),
		.time = be64_to_cpu(e.time),
		.info = be64_to_cpu(e.info),
	};
	u64 tok = be64_to_cpu(e.tok);

	switch (ev.type) {
	case ISM_PCI_EV_DMB:
		ev.token = tok;
		break;
	case ISM_PCI_EV_GID:
	case ISM_PCI_EV_SWR:
		put_unaligned_be64(tok, ev.gid.b);
		break;
	default:
		atomic_inc(&ip->bad_ieq);
		dev_warn_ratelimited(ip->dma_dev, "event of unknown type %u dropped\n",
				     ev.type);
		return;
	}
	ism_handle_event(ip->ism, &ev);
}

/*
 * At most one queue's worth per interrupt: a function that keeps moving
 * the index cannot hold the CPU here; what it wrote meanwhile comes with
 * its own interrupt.
 */
static void ism_pci_drain_ieq(struct ism_pci *ip, struct ism_pci_ieq *ieq)
{
	unsigned int n;
	u64 written;

	for (n = 0; n < ISM_PCI_IEQ_ENTRIES; n++) {
		written = be64_to_cpu(READ_ONCE(ieq->hdr.idx));
		if (written > ISM_PCI_IEQ_ENTRIES) {
			atomic_inc(&ip->bad_ieq);
			dev_warn_ratelimited(ip->dma_dev, "event queue index %llu is past the queue's %u entries: ignored\n",
					     written, ISM_PCI_IEQ_ENTRIES);
			return;
		}
		if (written % ISM_PCI_IEQ_ENTRIES == ip->ieq_next)
			return;
		/* The function writes an entry before moving the index. */
		dma_rmb();
		ism_pci_report_event(ip, &ieq->entry[ip->ieq_next]);
		ip->ieq_next = (ip->ieq_next + 1) % ISM_PCI_IEQ_ENTRIES;
	}
}

/**
 * ism_pci_irq() - the function's interrupt handler
 * @irq: the interrupt, unused
 * @data: the &struct ism_pci
 *
 * Hard-irq context. Also called before the device is registered with the
 * core or once its SBA is gone: it then drains what there is, which
 * reaches no client, or nothing.
 *
 * Return: IRQ_HANDLED, or IRQ_NONE if there was nothing to take.
 */
irqreturn_t ism_pci_irq(int irq, void *data)
{
	struct ism_pci *ip = data;
	u32 status = 0;

	spin_lock(&ip->irq_lock);
	if (ip->sba)
		status = ism_pci_take32(&ip->sba->status);
	if (status & ISM_PCI_SBA_SUMMARY)
		ism_pci_drain_sba(ip, ip->sba);
	if (status & ISM_PCI_SBA_EVENT && ip->ieq)
		ism_pci_drain_ieq(ip, ip->ieq);
	spin_unlock(&ip->irq_lock);
	if (status)
		return IRQ_HANDLED;
	atomic_inc(&ip->stale_irq);
	return IRQ_NONE;
}
EXPORT_SYMBOL_IF_KUNIT(ism_pci_irq);
