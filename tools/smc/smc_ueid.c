// SPDX-License-Identifier: GPL-2.0
/*
 * smc_ueid: show and change the User Defined EIDs (UEIDs) of SMC.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "smc_genl.h"

static const char help[] =
"NAME\n"
"    smc_ueid - show and change the SMC User Defined EIDs (UEIDs)\n"
"\n"
"SYNOPSIS\n"
"    smc_ueid [-r] add UEID\n"
"    smc_ueid [-r] del UEID\n"
"    smc_ueid show\n"
"    smc_ueid flush\n"
"    smc_ueid -h | --help\n"
"\n"
"DESCRIPTION\n"
"    SMC-D version 2 and SMC-R version 2 connect two peers only if they\n"
"    share an Enterprise ID (EID). On s390 the firmware supplies a system\n"
"    EID; elsewhere both peers need the same UEID, set with this tool\n"
"    through the generic netlink family SMC_GEN_NETLINK of smc.ko.\n"
"\n"
"    A UEID has 1 to 32 characters: A-Z, 0-9, '.' and '-', starting with a\n"
"    letter or digit. The kernel accepts uppercase only, so the tool\n"
"    uppercases UEID, and pads it with blanks to 32 characters as the\n"
"    kernel expects. The kernel holds at most 4 UEIDs; it compares them\n"
"    exactly, so 'ism-test' and 'ISM-TEST' name the same UEID here.\n"
"\n"
"    add    add UEID (needs CAP_NET_ADMIN)\n"
"    del    remove UEID (needs CAP_NET_ADMIN)\n"
"    show   print the UEIDs, one a line, without the padding\n"
"    flush  remove all UEIDs (needs CAP_NET_ADMIN)\n"
"\n"
"OPTIONS\n"
"    -r, --raw   send UEID as given (only padded), without uppercasing\n"
"                and checking it; for testing the kernel's own checks\n"
"    -h, --help  show this text\n"
"\n"
"EXIT STATUS\n"
"    0  success\n"
"    1  the kernel refused the request (the reason is printed: EPERM,\n"
"       EEXIST, ENOENT, ERANGE, EINVAL, ...)\n"
"    2  usage error or invalid UEID\n"
"    3  SMC is not available (smc.ko not loaded) or netlink failed\n"
"\n"
"EXAMPLES\n"
"    smc_ueid add ISM-TEST     # on both peers, then SMC-D v2 can match\n"
"    smc_ueid show\n"
"    smc_ueid del ism-test\n"
"    smc_ueid flush\n";

#define UEID_LEN	SMC_MAX_EID_LEN

/* The kernel's rule: [A-Z0-9][A-Z0-9.-]*, blank-padded to 32. */
static int ueid_make(const char *arg, char *ueid, int raw)
{
	size_t i, len = strlen(arg);

	if (!len || len > UEID_LEN) {
		fprintf(stderr, "smc_ueid: a UEID has 1 to %d characters\n",
			UEID_LEN);
		return -1;
	}
	memset(ueid, ' ', UEID_LEN);
	ueid[UEID_LEN] = '\0';
	for (i = 0; i < len; i++) {
		unsigned char c = arg[i];

		if (!raw) {
			c = toupper(c);
			if (!isalnum(c) && (!i || (c != '.' && c != '-'))) {
				fprintf(stderr,
					"smc_ueid: invalid character '%c' in UEID: use A-Z, 0-9, '.', '-' (not first)\n",
					arg[i]);
				return -1;
			}
		}
		ueid[i] = c;
	}
	return 0;
}

static const char *ueid_strerror(int cmd, int err)
{
	switch (err) {
	case -EPERM:
		return "operation not permitted: changing UEIDs needs CAP_NET_ADMIN";
	case -EEXIST:
		return "the UEID is already set";
	case -ERANGE:
		return "the UEID table is full (the kernel holds 4 UEIDs)";
	case -ENOENT:
		return cmd == SMC_NETLINK_REMOVE_UEID ?
			"no such UEID" : strerror(-err);
	case -EINVAL:
		return "the kernel rejected the UEID as invalid";
	default:
		return strerror(-err);
	}
}

static int ueid_change(struct smc_genl *g, int cmd, const char *ueid)
{
	struct nl_req req;
	int err;

	smc_genl_req(g, &req, cmd);
	if (ueid && nl_attr_put(&req, SMC_NLA_EID_TABLE_ENTRY, ueid,
				UEID_LEN + 1))
		return -EMSGSIZE;
	err = nl_talk(&g->nl, &req, NULL, NULL);
	/* s390: the last UEID is gone and the system EID is in use again */
	if (err == -EAGAIN && cmd != SMC_NETLINK_ADD_UEID)
		err = 0;
	return err;
}

static int ueid_show_cb(const struct nlmsghdr *nlh, void *arg)
{
	const struct nlattr *tb[SMC_NLA_EID_TABLE_MAX + 1];
	char ueid[UEID_LEN + 1];
	size_t len;

	(void)arg;
	genl_attr_parse(nlh, tb, SMC_NLA_EID_TABLE_MAX);
	if (!tb[SMC_NLA_EID_TABLE_ENTRY])
		return 0;
	nl_attr_str(tb[SMC_NLA_EID_TABLE_ENTRY], ueid, sizeof(ueid));
	len = strlen(ueid);
	while (len && ueid[len - 1] == ' ')
		ueid[--len] = '\0';
	printf("%s\n", ueid);
	return 0;
}

static int usage_error(const char *msg)
{
	fprintf(stderr, "smc_ueid: %s\nTry 'smc_ueid --help'.\n", msg);
	return 2;
}

int main(int argc, char **argv)
{
	char ueid[UEID_LEN + 1];
	const char *sub;
	struct smc_genl g;
	int raw = 0, cmd, err;
	int argi = 1;

	for (; argi < argc && argv[argi][0] == '-'; argi++) {
		if (!strcmp(argv[argi], "-h") || !strcmp(argv[argi], "--help")) {
			fputs(help, stdout);
			return 0;
		} else if (!strcmp(argv[argi], "-r") ||
			   !strcmp(argv[argi], "--raw")) {
			raw = 1;
		} else {
			return usage_error("unknown option");
		}
	}
	if (argi >= argc)
		return usage_error("missing command");
	sub = argv[argi++];
	if (!strcmp(sub, "add") || !strcmp(sub, "del")) {
		if (argc - argi != 1)
			return usage_error("add and del take one UEID");
		if (ueid_make(argv[argi], ueid, raw))
			return 2;
		cmd = sub[0] == 'a' ? SMC_NETLINK_ADD_UEID :
				      SMC_NETLINK_REMOVE_UEID;
	} else if (!strcmp(sub, "show") || !strcmp(sub, "flush")) {
		if (argc != argi)
			return usage_error("show and flush take no argument");
		cmd = sub[0] == 's' ? SMC_NETLINK_DUMP_UEID :
				      SMC_NETLINK_FLUSH_UEID;
	} else {
		return usage_error("unknown command");
	}

	if (smc_genl_open(&g, "smc_ueid"))
		return SMC_EXIT_NOSMC;
	if (cmd == SMC_NETLINK_DUMP_UEID)
		err = smc_genl_dump(&g, cmd, ueid_show_cb, NULL);
	else
		err = ueid_change(&g, cmd, cmd == SMC_NETLINK_FLUSH_UEID ?
				  NULL : ueid);
	smc_genl_close(&g);
	if (err) {
		fprintf(stderr, "smc_ueid: %s: %s\n", sub,
			ueid_strerror(cmd, err));
		return 1;
	}
	return 0;
}
