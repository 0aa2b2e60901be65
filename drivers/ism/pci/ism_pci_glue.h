/* SPDX-License-Identifier: GPL-2.0 */
/* ism_pci: the PCI glue's BAR access (pci_bar.c), for pci_main.c. */
#ifndef _DRIVERS_ISM_ISM_PCI_GLUE_H
#define _DRIVERS_ISM_ISM_PCI_GLUE_H

#include <linux/pci.h>

#include "ism_pci.h"

/* BAR access and interrupt of a PCI function; hw_priv is its pci_dev. */
extern const struct ism_pci_hw_ops ism_pci_bar_ops;

u16 ism_pci_bar_chid(struct pci_dev *pdev);

#endif /* _DRIVERS_ISM_ISM_PCI_GLUE_H */
