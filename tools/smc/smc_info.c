// SPDX-License-Identifier: GPL-2.0
/*
 * smc_info: SMC system information, SMC-D devices and SMC-D link groups,
 * from the generic netlink family of smc.ko.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "smc_genl.h"

static const char help[] =
"NAME\n"
"    smc_info - show SMC system information, SMC-D devices and link groups\n"
"\n"
"SYNOPSIS\n"
"    smc_info [sys | dev | lgr | all]\n"
"    smc_info -h | --help\n"
"\n"
"DESCRIPTION\n"
"    Reads the generic netlink family SMC_GEN_NETLINK of smc.ko; no\n"
"    privileges are needed.\n"
"\n"
"    sys  SMC version, whether SMC-D v2 and SMC-R v2 are available, the\n"
"         system EID (only reported when SMC-D v2 is available: SMC enables\n"
"         it if the first SMC-D device registered has a suitable system\n"
"         EID), whether the system EID is used for matching peers (s390\n"
"         only), and the UEIDs (see smc_ueid). Without a common system EID,\n"
"         SMC-D v2 peers need a common UEID.\n"
"    dev  the SMC-D devices: PCI name of the parent device, PCI function\n"
"         id, PCHID, vendor and device id (all 0 off s390 / for software\n"
"         devices), link groups using the device, and its PNETID (\"*\" if\n"
"         the PNETID was set by the user).\n"
"    lgr  the SMC-D link groups: id, local and peer GID, CHID (the ISM\n"
"         fabric id; 0xffff for loopback), VLAN, connections, SMC version\n"
"         and, for version 2, the negotiated EID and the peer's host name.\n"
"    all  all of the above (the default).\n"
"\n"
"OPTIONS\n"
"    -h, --help  show this text\n"
"\n"
"EXIT STATUS\n"
"    0  success\n"
"    1  a dump failed\n"
"    2  usage error\n"
"    3  SMC is not available (smc.ko not loaded) or netlink failed\n"
"\n"
"EXAMPLES\n"
"    smc_info\n"
"    smc_info sys | grep 'SMC-D v2 capable: yes'\n"
"    smc_info lgr\n";

static const char *yes_no(uint64_t v)
{
	return v ? "yes" : "no";
}

static void str_or_none(char *s)
{
	size_t len = strlen(s);

	while (len && s[len - 1] == ' ')
		s[--len] = '\0';
	if (!len)
		strcpy(s, "-");
}

static int sys_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *top[SMC_GEN_MAX + 1];
	const struct nlattr *tb[SMC_NLA_SYS_MAX + 1];
	char host[SMC_MAX_HOSTNAME_LEN + 1];
	char seid[SMC_MAX_EID_LEN + 1];

	(void)arg;
	genl_attr_parse(nlh, top, SMC_GEN_MAX);
	if (!top[SMC_GEN_SYS_INFO])
		return 0;
	nl_attr_parse_nested(top[SMC_GEN_SYS_INFO], tb, SMC_NLA_SYS_MAX);
	nl_attr_str(tb[SMC_NLA_SYS_LOCAL_HOST], host, sizeof(host));
	nl_attr_str(tb[SMC_NLA_SYS_SEID], seid, sizeof(seid));
	str_or_none(host);
	str_or_none(seid);
	printf("SMC system\n");
	printf("  version: %u.%u\n",
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_SYS_VER]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_SYS_REL]));
	printf("  SMC-D v2 capable: %s\n",
	       yes_no(nl_attr_uint(tb[SMC_NLA_SYS_IS_ISM_V2])));
	printf("  SMC-R v2 capable: %s\n",
	       yes_no(nl_attr_uint(tb[SMC_NLA_SYS_IS_SMCR_V2])));
	printf("  host name: %s\n", host);
	printf("  system EID: %s\n", seid);
	return 0;
}

static int seid_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[SMC_NLA_SEID_TABLE_MAX + 1];

	genl_attr_parse(nlh, tb, SMC_NLA_SEID_TABLE_MAX);
	if (tb[SMC_NLA_SEID_ENABLED])
		*(int *)arg = nl_attr_uint(tb[SMC_NLA_SEID_ENABLED]);
	return 0;
}

static int ueid_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[SMC_NLA_EID_TABLE_MAX + 1];
	char ueid[SMC_MAX_EID_LEN + 1];

	genl_attr_parse(nlh, tb, SMC_NLA_EID_TABLE_MAX);
	if (!tb[SMC_NLA_EID_TABLE_ENTRY])
		return 0;
	nl_attr_str(tb[SMC_NLA_EID_TABLE_ENTRY], ueid, sizeof(ueid));
	str_or_none(ueid);
	printf(" %s", ueid);
	++*(int *)arg;
	return 0;
}

static int show_sys(struct smc_genl *g)
{
	int seid_enabled = -1, n = 0, err;

	err = smc_genl_dump(g, SMC_NETLINK_GET_SYS_INFO, sys_cb, NULL);
	if (err)
		return err;
	err = smc_genl_dump(g, SMC_NETLINK_DUMP_SEID, seid_cb, &seid_enabled);
	if (err)
		return err;
	printf("  system EID matching: %s\n",
	       seid_enabled < 0 ? "- (no SMC-D v2)" :
	       seid_enabled ? "enabled" : "disabled (peers need a common UEID)");
	printf("  UEIDs:");
	err = smc_genl_dump(g, SMC_NETLINK_DUMP_UEID, ueid_cb, &n);
	printf("%s\n", n ? "" : " -");
	return err;
}

static int dev_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *top[SMC_GEN_MAX + 1];
	const struct nlattr *tb[SMC_NLA_DEV_MAX + 1];
	const struct nlattr *port[SMC_NLA_DEV_PORT_MAX + 1];
	char pci_id[SMC_PCI_ID_STR_LEN + 1];
	char pnetid[SMC_MAX_EID_LEN + 1];
	int by_user;

	genl_attr_parse(nlh, top, SMC_GEN_MAX);
	if (!top[SMC_GEN_DEV_SMCD])
		return 0;
	nl_attr_parse_nested(top[SMC_GEN_DEV_SMCD], tb, SMC_NLA_DEV_MAX);
	nl_attr_parse(NULL, 0, port, SMC_NLA_DEV_PORT_MAX);
	if (tb[SMC_NLA_DEV_PORT])
		nl_attr_parse_nested(tb[SMC_NLA_DEV_PORT], port,
				     SMC_NLA_DEV_PORT_MAX);
	nl_attr_str(tb[SMC_NLA_DEV_PCI_ID], pci_id, sizeof(pci_id));
	nl_attr_str(port[SMC_NLA_DEV_PORT_PNETID], pnetid, sizeof(pnetid));
	str_or_none(pci_id);
	str_or_none(pnetid);
	by_user = nl_attr_uint(port[SMC_NLA_DEV_PORT_PNET_USR]);
	if (!(*(int *)arg)++)
		printf("  %-16s %-10s %-6s %-6s %-6s %5s %-4s %s\n", "PCI-ID",
		       "FID", "PCHID", "VENDOR", "DEVICE", "LGRS", "CRIT",
		       "PNETID");
	printf("  %-16s 0x%08x 0x%04x 0x%04x 0x%04x %5u %-4s %s%s\n", pci_id,
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_DEV_PCI_FID]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_DEV_PCI_CHID]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_DEV_PCI_VENDOR]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_DEV_PCI_DEVICE]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_DEV_USE_CNT]),
	       yes_no(nl_attr_uint(tb[SMC_NLA_DEV_IS_CRIT])), pnetid,
	       by_user ? " *" : "");
	return 0;
}

static int lgr_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *top[SMC_GEN_MAX + 1];
	const struct nlattr *tb[SMC_NLA_LGR_D_MAX + 1];
	const struct nlattr *v2[SMC_NLA_LGR_V2_MAX + 1];
	char eid[SMC_MAX_EID_LEN + 1];
	char host[SMC_MAX_HOSTNAME_LEN + 1];
	unsigned int ver = 1;

	genl_attr_parse(nlh, top, SMC_GEN_MAX);
	if (!top[SMC_GEN_LGR_SMCD])
		return 0;
	nl_attr_parse_nested(top[SMC_GEN_LGR_SMCD], tb, SMC_NLA_LGR_D_MAX);
	nl_attr_parse(NULL, 0, v2, SMC_NLA_LGR_V2_MAX);
	if (tb[SMC_NLA_LGR_D_V2_COMMON]) {
		nl_attr_parse_nested(tb[SMC_NLA_LGR_D_V2_COMMON], v2,
				     SMC_NLA_LGR_V2_MAX);
		ver = nl_attr_uint(v2[SMC_NLA_LGR_V2_VER]);
	}
	nl_attr_str(v2[SMC_NLA_LGR_V2_NEG_EID], eid, sizeof(eid));
	nl_attr_str(v2[SMC_NLA_LGR_V2_PEER_HOST], host, sizeof(host));
	str_or_none(eid);
	str_or_none(host);
	if (!(*(int *)arg)++)
		printf("  %-8s %-18s %-18s %-6s %4s %5s %3s %-32s %s\n", "ID",
		       "GID", "PEER-GID", "CHID", "VLAN", "CONNS", "VER",
		       "EID", "PEER-HOST");
	printf("  %08x 0x%016llx 0x%016llx 0x%04x %4u %5u %3u %-32s %s\n",
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_LGR_D_ID]),
	       (unsigned long long)nl_attr_uint(tb[SMC_NLA_LGR_D_GID]),
	       (unsigned long long)nl_attr_uint(tb[SMC_NLA_LGR_D_PEER_GID]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_LGR_D_CHID]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_LGR_D_VLAN_ID]),
	       (unsigned int)nl_attr_uint(tb[SMC_NLA_LGR_D_CONNS_NUM]), ver,
	       eid, host);
	return 0;
}

static int show_list(struct smc_genl *g, const char *title, uint8_t cmd,
		     nl_msg_cb cb)
{
	int n = 0, err;

	printf("%s\n", title);
	err = smc_genl_dump(g, cmd, cb, &n);
	if (!n)
		printf("  (none)\n");
	return err;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "all";
	int all, err = 0;
	struct smc_genl g;

	if (!strcmp(what, "-h") || !strcmp(what, "--help")) {
		fputs(help, stdout);
		return 0;
	}
	all = !strcmp(what, "all");
	if (argc > 2 || (!all && strcmp(what, "sys") && strcmp(what, "dev") &&
			 strcmp(what, "lgr"))) {
		fprintf(stderr, "smc_info: usage: smc_info [sys|dev|lgr|all]\n"
			"Try 'smc_info --help'.\n");
		return 2;
	}
	if (smc_genl_open(&g, "smc_info"))
		return SMC_EXIT_NOSMC;
	if (all || !strcmp(what, "sys"))
		err = show_sys(&g);
	if (!err && (all || !strcmp(what, "dev")))
		err = show_list(&g, "SMC-D devices", SMC_NETLINK_GET_DEV_SMCD,
				dev_cb);
	if (!err && (all || !strcmp(what, "lgr")))
		err = show_list(&g, "SMC-D link groups",
				SMC_NETLINK_GET_LGR_SMCD, lgr_cb);
	smc_genl_close(&g);
	if (err) {
		fflush(stdout);
		fprintf(stderr, "smc_info: dump failed: %s\n", strerror(-err));
		return 1;
	}
	return 0;
}
