// SPDX-License-Identifier: GPL-2.0
/*
 * Short names for the CLC decline codes that SMC records as the reason a
 * socket fell back to TCP (net/smc/smc_clc.h of Linux 6.1).
 */
#include <stddef.h>

#include "smc_decl.h"

#define ARRAY_SIZE(a)	(sizeof(a) / sizeof((a)[0]))

struct smc_decl {
	uint32_t code;
	const char *name;
	const char *text;
};

static const struct smc_decl smc_decls[] = {
	{ 0x00000000, "NONE", "no fallback" },
	{ 0x01010000, "MEM", "insufficient memory resources" },
	{ 0x02010000, "TIMEOUT_CL", "timeout waiting for confirm link" },
	{ 0x02020000, "TIMEOUT_AL", "timeout waiting for add link" },
	{ 0x03000000, "CNFERR", "configuration error" },
	{ 0x03010000, "PEERNOSMC", "peer did not indicate SMC" },
	{ 0x03020000, "IPSEC", "IPsec in use" },
	{ 0x03030000, "NOSMCDEV", "no SMC device found (R or D)" },
	{ 0x03030001, "NOSMCDDEV", "no SMC-D device found" },
	{ 0x03030002, "NOSMCRDEV", "no SMC-R device found" },
	{ 0x03030003, "NOISM2SUPP", "no SMC-D v2 support" },
	{ 0x03030004, "NOV2EXT", "peer sent no CLC v2 extension" },
	{ 0x03030005, "NOV2DEXT", "peer sent no SMC-D v2 extension" },
	{ 0x03030006, "NOSEID", "peer sent no system EID" },
	{ 0x03030007, "NOSMCD2DEV", "no SMC-D v2 device found" },
	{ 0x03030008, "NOUEID", "no common UEID" },
	{ 0x03040000, "MODEUNSUPP", "SMC modes do not match" },
	{ 0x03050000, "RMBE_EC", "peer has eyecatcher in RMBE" },
	{ 0x03060000, "OPTUNSUPP", "socket option not supported (fastopen)" },
	{ 0x03070000, "DIFFPREFIX", "IP prefix / subnet mismatch" },
	{ 0x03080000, "GETVLANERR", "cannot get VLAN id of IP device" },
	{ 0x03090000, "ISMVLANERR", "cannot register VLAN id on ISM device" },
	{ 0x030a0000, "NOACTLINK", "no active SMC-R link in link group" },
	{ 0x030b0000, "NOSRVLINK", "SMC-R link from server not found" },
	{ 0x030c0000, "VERSMISMAT", "SMC version mismatch" },
	{ 0x030d0000, "MAX_DMB", "SMC-D DMB limit exceeded" },
	{ 0x030e0000, "NOROUTE", "SMC-R v2: no route to peer" },
	{ 0x030f0000, "NOINDIRECT", "SMC-R v2: indirect mismatch" },
	{ 0x04000000, "SYNCERR", "synchronization error" },
	{ 0x05000000, "PEERDECL", "peer declined during handshake" },
	{ 0x09990000, "INTERR", "internal error" },
	{ 0x09990001, "ERR_RTOK", "rtoken handling failed" },
	{ 0x09990002, "ERR_RDYLNK", "IB ready link failed" },
	{ 0x09990003, "ERR_REGBUF", "registering RDMA buffers failed" },
};

static const struct smc_decl *smc_decl_find(uint32_t code)
{
	size_t i;

	for (i = 0; i < ARRAY_SIZE(smc_decls); i++)
		if (smc_decls[i].code == code)
			return &smc_decls[i];
	/* an unknown detail code of a known class */
	for (i = 0; i < ARRAY_SIZE(smc_decls); i++)
		if (smc_decls[i].code == (code & 0xffff0000))
			return &smc_decls[i];
	return NULL;
}

/* A short name such as "NOUEID", or "UNKNOWN". */
const char *smc_decl_name(uint32_t code)
{
	const struct smc_decl *d = smc_decl_find(code);

	return d ? d->name : "UNKNOWN";
}

/* A few words of explanation. */
const char *smc_decl_text(uint32_t code)
{
	const struct smc_decl *d = smc_decl_find(code);

	return d ? d->text : "unknown reason";
}
