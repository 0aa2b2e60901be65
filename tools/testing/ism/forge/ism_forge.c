// SPDX-License-Identifier: GPL-2.0
/*
 * ism_forge: makes this kernel a hostile SMC-D peer of a virtual ISM
 * region, for the three-guest test (tools/testing/ism/trio.sh). While
 * slot= names a slot (it is writable in sysfs), every DMB that SMC
 * registers gets a forged token: the virtual ISM token layout (index in
 * bits 0 to 11, slot in bits 12 to 17) with slot= and index= put in. SMC
 * sends that token to its peer in the handshake, so the peer's writes
 * for the connection go to a DMB of another guest (or of nobody) and are
 * refused: the peer must end the connection with this guest, not with
 * the guest the token names, and not leave it waiting.
 *
 * Kretprobes, not a change to any module: ism_register_dmb() returns the
 * forged token to SMC, ism_unregister_dmb() gets the real one back, so
 * that SMC frees its DMBs as usual. Test code: never in a package.
 */
#define pr_fmt(fmt) KBUILD_MODNAME ": " fmt

#include <linux/bits.h>
#include <linux/ism.h>
#include <linux/kprobes.h>
#include <linux/atomic.h>
#include <linux/module.h>
#include <linux/string.h>

static int slot = -1;
module_param(slot, int, 0644);
MODULE_PARM_DESC(slot, "the slot SMC's tokens name from now on; -1 (the default): forge none");

static uint dmb_index = 1023;
module_param_named(index, dmb_index, uint, 0644);
MODULE_PARM_DESC(index, "the DMB index they name (default 1023)");

#define FORGE_SLOT_SHIFT	12
#define FORGE_MASK		GENMASK_ULL(17, 0)
#define FORGE_MAX		256

/*
 * The tokens forged, and the real ones, of DMBs still registered. No
 * lock: a kprobe's handler runs where none may be taken (x86's int3 is
 * an NMI to lockdep). An entry is claimed by its real token (never 0),
 * published by its forged one, and freed in the reverse order; SMC
 * unregisters a DMB only after its registration returned.
 */
static struct {
	u64 forged;
	u64 real;
} forged[FORGE_MAX];
static atomic_long_t forges;

/* What ism_register_dmb() was called with. */
struct forge_call {
	struct ism_dev *dev;
	struct ism_dmb *dmb;
	struct ism_client *client;
};

static int forge_register_entry(struct kretprobe_instance *ri,
				struct pt_regs *regs)
{
	struct forge_call *call = (struct forge_call *)ri->data;

	call->dev = (struct ism_dev *)regs_get_kernel_argument(regs, 0);
	call->dmb = (struct ism_dmb *)regs_get_kernel_argument(regs, 1);
	call->client = (struct ism_client *)regs_get_kernel_argument(regs, 2);
	return 0;
}

static int forge_register_ret(struct kretprobe_instance *ri,
			      struct pt_regs *regs)
{
	struct forge_call *call = (struct forge_call *)ri->data;
	int s = READ_ONCE(slot), i;
	u64 token;

	if (regs_return_value(regs) || s < 0 || !call->client ||
	    strcmp(call->client->name, "smc-d"))
		return 0;
	token = (call->dmb->token & ~FORGE_MASK) |
		(u64)s << FORGE_SLOT_SHIFT | (READ_ONCE(dmb_index) & 0xfff);
	for (i = 0; i < FORGE_MAX; i++)
		if (!cmpxchg(&forged[i].real, 0, call->dmb->token))
			break;
	if (i == FORGE_MAX)
		return 0;
	/* The real token first: whoever sees the forged one finds it. */
	smp_store_release(&forged[i].forged, token);
	pr_info("%s: DMB %#llx handed to SMC as %#llx\n",
		ism_dev_name(call->dev), call->dmb->token, token);
	call->dmb->token = token;
	atomic_long_inc(&forges);
	return 0;
}

static struct kretprobe forge_register = {
	.kp.symbol_name = "ism_register_dmb",
	.entry_handler = forge_register_entry,
	.handler = forge_register_ret,
	.data_size = sizeof(struct forge_call),
	.maxactive = 64,
};

/* SMC unregisters a DMB by the token it was given: give the real one. */
static int forge_unregister_pre(struct kprobe *p, struct pt_regs *regs)
{
	struct ism_dmb *dmb = (struct ism_dmb *)regs_get_kernel_argument(regs, 1);
	u64 token;
	int i;

	for (i = 0; i < FORGE_MAX && dmb->token; i++) {
		/* Pairs with the release in forge_register_ret(). */
		token = smp_load_acquire(&forged[i].forged);
		if (token != dmb->token)
			continue;
		dmb->token = forged[i].real;
		WRITE_ONCE(forged[i].forged, 0);
		/* The entry is free once both are cleared, in order. */
		smp_store_release(&forged[i].real, 0);
		break;
	}
	return 0;
}

static struct kprobe forge_unregister = {
	.symbol_name = "ism_unregister_dmb",
	.pre_handler = forge_unregister_pre,
};

static int __init forge_init(void)
{
	int ret = register_kretprobe(&forge_register);

	if (ret)
		return ret;
	ret = register_kprobe(&forge_unregister);
	if (ret)
		unregister_kretprobe(&forge_register);
	return ret;
}

/* Forged DMBs still registered then fail to unregister: SMC keeps them
 * until the bridge leaves the device, which releases them.
 */
static void __exit forge_exit(void)
{
	unregister_kprobe(&forge_unregister);
	unregister_kretprobe(&forge_register);
	pr_info("%ld tokens forged\n", atomic_long_read(&forges));
}

module_init(forge_init);
module_exit(forge_exit);

MODULE_DESCRIPTION("Test: SMC-D tokens that name another guest's DMB");
MODULE_IMPORT_NS(ISM);
MODULE_LICENSE("GPL");
