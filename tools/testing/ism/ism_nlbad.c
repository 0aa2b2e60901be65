// SPDX-License-Identifier: GPL-2.0
/*
 * ism_nlbad: send malformed or refused requests to the "ism" generic
 * netlink family and check that each fails with the expected errno and,
 * where the kernel has one to give, an extended ACK. Run as root, with
 * ism_core and ism_lo loaded. Prints one KTAP-like line per case:
 *   ok N what # errno, kernel message
 *   not ok N what # what went wrong
 * Exit status: 0 if every case passed, 1 otherwise.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <linux/ism.h>

#include "../../lib/nl/nl.h"

static struct nl_sock nl;

/* A request of the ism family in @r, acknowledged either way. */
static void req(struct nl_req *r, uint8_t cmd, uint16_t flags)
{
	genl_req_init(r, nl.family, cmd, ISM_GENL_VERSION, NLM_F_ACK | flags);
}

/* Send @r. Return: 0 or a negative errno, the kernel's message in nl.ext. */
static int talk(struct nl_req *r)
{
	return nl_talk(&nl, r, NULL, NULL);
}

static const char *errname(int err)
{
	static char other[32];

	switch (-err) {
	case 0: return "success";
	case EINVAL: return "EINVAL";
	case ERANGE: return "ERANGE";
	case EOPNOTSUPP: return "EOPNOTSUPP";
	case ENODEV: return "ENODEV";
	case EEXIST: return "EEXIST";
	case EPERM: return "EPERM";
	case ENOENT: return "ENOENT";
	}
	snprintf(other, sizeof(other), "errno %d", -err);
	return other;
}

static int tests, failed;

/*
 * One case: @err is what the request returned, its extended ACK in
 * nl.ext; @want and @alt the accepted errnos (alt 0: none); @need_ext: an
 * extended ACK must have come back.
 */
static void judge(const char *what, int err, int want, int alt, int need_ext)
{
	int good = err == -want || (alt && err == -alt);

	tests++;
	if (good && (!need_ext || nl.ext[0])) {
		printf("ok %d %s: %s # %s\n", tests, what, errname(err),
		       nl.ext[0] ? nl.ext : "no kernel message");
		return;
	}
	failed++;
	if (!good)
		printf("not ok %d %s # got %s, want %s%s%s\n", tests, what,
		       errname(err), errname(-want), alt ? " or " : "",
		       alt ? errname(-alt) : "");
	else
		printf("not ok %d %s # %s but no extended ACK\n", tests, what,
		       errname(err));
}

/* If a DEV_NEW wrongly succeeded (@err 0), remove what it made. */
static void cleanup(int err, const char *name)
{
	struct nl_req r;

	if (err)
		return;
	req(&r, ISM_CMD_DEV_DEL, 0);
	nl_attr_put_str(&r, ISM_ATTR_DEV_NAME, name);
	printf("# removed device %s: %s\n", name, errname(talk(&r)));
}

int main(void)
{
	static const char long_name[] = "a-name-of-forty-characters-is-too-long40";
	struct nl_req r;
	uint32_t one = 1;
	int err;

	err = genl_open(&nl, ISM_GENL_NAME);
	if (err) {
		fprintf(stderr, "ism_nlbad: no family %s: %s\n", ISM_GENL_NAME,
			strerror(-err));
		return 1;
	}

	req(&r, ISM_CMD_DEV_NEW, 0);
	judge("DEV_NEW without attributes", talk(&r), EINVAL, 0, 1);

	req(&r, ISM_CMD_DEV_NEW, 0);
	nl_attr_put_str(&r, ISM_ATTR_DEV_TYPE, "loopback");
	nl_attr_put_str(&r, ISM_ATTR_DEV_NAME, long_name);
	err = talk(&r);
	judge("DEV_NEW with a 40-character name", err, ERANGE, EINVAL, 1);
	cleanup(err, long_name);

	req(&r, ISM_CMD_DEV_DEL, 0);
	nl_attr_put_str(&r, ISM_ATTR_DEV_NAME, "nlbad0");
	nl_attr_put(&r, 200, &one, sizeof(one));
	judge("DEV_DEL with unknown attribute 200", talk(&r), EINVAL, 0, 1);

	/* "nlbd" as a u32: no NUL. */
	req(&r, ISM_CMD_DEV_NEW, 0);
	nl_attr_put_str(&r, ISM_ATTR_DEV_TYPE, "loopback");
	nl_attr_put(&r, ISM_ATTR_DEV_NAME, "nlbd", 4);
	err = talk(&r);
	judge("DEV_NEW with DEV_NAME a u32 without NUL", err, EINVAL, 0, 1);
	cleanup(err, "nlbd");

	req(&r, 99, 0);
	judge("unknown command 99", talk(&r), EOPNOTSUPP, 0, 0);

	req(&r, ISM_CMD_DEV_NEW, 0);
	nl_attr_put_str(&r, ISM_ATTR_DEV_TYPE, "nosuchtype");
	nl_attr_put_str(&r, ISM_ATTR_DEV_NAME, "nlbad1");
	err = talk(&r);
	judge("DEV_NEW of type nosuchtype", err, EOPNOTSUPP, 0, 1);
	cleanup(err, "nlbad1");

	req(&r, ISM_CMD_DMB_GET, NLM_F_DUMP);
	nl_attr_put_str(&r, ISM_ATTR_DEV_NAME, "nlbad2");
	judge("DMB_GET dump of an unknown device", talk(&r), ENODEV, 0, 0);

	nl_close(&nl);
	printf("# %d of %d cases failed\n", failed, tests);
	return failed ? 1 : 0;
}
