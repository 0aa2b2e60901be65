// SPDX-License-Identifier: GPL-2.0
/*
 * ismctl: show and control ISM devices, DMBs and clients through the
 * "ism" generic netlink family. Options, command dispatch and help.
 */
#include <errno.h>
#include <getopt.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ismctl.h"

static const char help[] =
"NAME\n"
"    ismctl - show and control ISM devices, DMBs and clients\n"
"\n"
"SYNOPSIS\n"
"    ismctl [OPTIONS] dev [show [NAME]]\n"
"    ismctl [OPTIONS] dev add TYPE NAME\n"
"    ismctl [OPTIONS] dev add NAME type TYPE\n"
"    ismctl [OPTIONS] dev del NAME\n"
"    ismctl [OPTIONS] dmb [show] [dev NAME]\n"
"    ismctl [OPTIONS] client [show]\n"
"    ismctl [OPTIONS] stats [show] [dev NAME]\n"
"    ismctl [OPTIONS] stats reset [dev NAME]\n"
"    ismctl [OPTIONS] user [show [NAME]]\n"
"    ismctl user set NAME [unkeyed-writes on|off] [user-dmbs N]\n"
"                         [user-bytes N] [user-rings N]\n"
"    ismctl -h | --help | -V | --version\n"
"\n"
"DESCRIPTION\n"
"    Talks to the ISM layer (ism_core) through its generic netlink family\n"
"    \"ism\". Showing needs no privileges, but DMB tokens and rgids show\n"
"    only with CAP_NET_ADMIN; dev add, dev del and stats reset need\n"
"    CAP_NET_ADMIN. Keywords may be abbreviated (ismctl d sh).\n"
"\n"
"    dev show     the devices: name, type, parent, fabric id (CHID), GID,\n"
"                 going if it is being removed, DMB indexes (max_dmbs),\n"
"                 largest DMB (max_dmb_len), DMBs registered now, the\n"
"                 clients attached and those that refused the device\n"
"                 (refused by, if any); with -s also the counters.\n"
"                 With NAME only that device.\n"
"    dev add      create a device of TYPE named NAME; the driver of TYPE\n"
"                 must support it (loopback: ism_lo).\n"
"    dev del      delete device NAME (devices made with dev add) and wait\n"
"                 until it is gone, which lasts as long as its clients\n"
"                 hold it (SMC-D sockets). Ctrl-C stops waiting; the\n"
"                 kernel goes on removing it. With -n return at once.\n"
"    dmb show     the registered DMBs: device, token, index, length,\n"
"                 owning client and the GID allowed to write (rgid);\n"
"                 token and rgid only with CAP_NET_ADMIN, else \"-\" in\n"
"                 text and no such keys in JSON.\n"
"    client show  the clients: name, slot id, devices, DMBs held.\n"
"    stats show   the same as -s dev show.\n"
"    stats reset  set the counters of device NAME, or of all devices, to 0.\n"
"    user show    what the files of /dev/ism/NAME (ism_user) may do on each\n"
"                 device, from /sys/class/ism_user: unkeyed-writes, on if\n"
"                 they may write into DMBs whose key the device cannot\n"
"                 check (PCI-ISM: other systems' DMBs, SMC-D's included).\n"
"                 user-dmbs and user-bytes: the DMBs, and their bytes,\n"
"                 that the files of one user may hold on the device.\n"
"                 user-rings: the doorbells a second they may ring\n"
"                 (SEND_EVENT, MOVE with a signal).\n"
"    user set     change them for device NAME (root). Defaults:\n"
"                 unkeyed-writes off, each user half the device's DMB\n"
"                 indexes and half its DMB space, 100000 rings a second.\n"
"\n"
"    GIDs are printed in UUID notation (8-4-4-4-12 hex digits), tokens as\n"
"    0x and 16 hex digits. Names from the kernel show bytes other than\n"
"    printable ASCII, and the backslash, as \\xHH in text; JSON escapes\n"
"    control bytes and bytes that are not valid UTF-8 as \\u00XX.\n"
"\n"
"OPTIONS\n"
"    -s, --stats    show the device counters\n"
"    -j, --json     JSON output: an array of objects\n"
"    -p, --pretty   indented JSON (implies -j)\n"
"    -n, --no-wait  dev del: return once the kernel started the removal\n"
"    -h, --help     show this text\n"
"    -V, --version  show the version\n"
"\n"
"EXIT STATUS\n"
"    0  success\n"
"    1  the kernel refused the request (the reason is printed, with the\n"
"       kernel's message if it gave one), e.g. dev del of a device that\n"
"       is already being removed\n"
"    2  usage error\n"
"    3  the ism family is not available (ism_core not loaded) or netlink\n"
"       failed; user: ism_user not loaded\n"
"\n"
"EXAMPLES\n"
"    ismctl dev\n"
"    ismctl -s -p dev show ismlo0\n"
"    ismctl dev add loopback lo2\n"
"    ismctl -j dmb show dev lo2\n"
"    ismctl -n dev del lo2\n"
"    ismctl stats reset\n"
"\n"
"SEE ALSO\n"
"    ismctl(8), Documentation/networking/ism.rst\n";

/* ip's habit: @arg is a non-empty prefix of @word. */
bool matches(const char *arg, const char *word)
{
	size_t len = strlen(arg);

	return len && len <= strlen(word) && !strncmp(arg, word, len);
}

int usage_error(const char *fmt, ...)
{
	va_list ap;

	fflush(stdout);
	fputs("ismctl: ", stderr);
	va_start(ap, fmt);
	vfprintf(stderr, fmt, ap);
	va_end(ap);
	fputs("\nTry 'ismctl --help'.\n", stderr);
	return EXIT_USAGE;
}

/* A device or client name the kernel can hold; else a usage error. */
int check_name(const char *what, const char *name)
{
	size_t len = strlen(name);

	if (!len || len > ISM_NAME_MAXLEN) {
		usage_error("%s name \"%s\": 1 to %d characters", what,
			    out_esc(name), ISM_NAME_MAXLEN);
		return -1;
	}
	return 0;
}

/* The outcome of a request: 0, or EXIT_ERR after printing why. */
int report(struct ismctl *c, int err)
{
	const char *ext = c->nl.ext;

	if (!err)
		return 0;
	fflush(stdout);
	/* The names in what come from the user: any bytes. */
	fprintf(stderr, "ismctl: %s: %s", out_esc(c->what), strerror(-err));
	if (*ext)
		fprintf(stderr, " (kernel: %s)", out_esc(ext));
	else if (err == -EPERM)
		fputs(" (needs CAP_NET_ADMIN)", stderr);
	fputc('\n', stderr);
	return EXIT_ERR;
}

/* A request of the ism family in @req; opens the socket on first use. */
void ism_req(struct ismctl *c, struct nl_req *req, uint8_t cmd,
	     uint16_t flags)
{
	int err;

	if (!c->nl.buf) {
		err = genl_open(&c->nl, ISM_GENL_NAME);
		if (err == -ENOENT) {
			fprintf(stderr,
				"ismctl: no generic netlink family \"%s\": is ism_core loaded?\n",
				ISM_GENL_NAME);
			exit(EXIT_NOISM);
		}
		if (err) {
			fprintf(stderr, "ismctl: netlink: %s\n",
				strerror(-err));
			exit(EXIT_NOISM);
		}
	}
	genl_req_init(req, c->nl.family, cmd, ISM_GENL_VERSION,
		      NLM_F_ACK | flags);
}

static int do_help(struct ismctl *c, int argc, char **argv)
{
	(void)c;
	(void)argc;
	(void)argv;
	fputs(help, stdout);
	return 0;
}

/* In this order, so that "d" is dev, as "ip l" is link. */
static const struct {
	const char *name;
	int (*fn)(struct ismctl *c, int argc, char **argv);
} objects[] = {
	{ "dev", do_dev },
	{ "dmb", do_dmb },
	{ "client", do_client },
	{ "stats", do_stats },
	{ "user", do_user },
	{ "help", do_help },
};

int main(int argc, char **argv)
{
	static const struct option opts[] = {
		{ "stats", no_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "no-wait", no_argument, NULL, 'n' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 },
	};
	struct ismctl c = { 0 };
	bool json = false, pretty = false;
	size_t i;
	int opt, ret;

	/* "+": options only before the object, as ip has them. */
	while ((opt = getopt_long(argc, argv, "+sjpnhV", opts, NULL)) != -1) {
		switch (opt) {
		case 's':
			c.stats++;
			break;
		case 'j':
			json = true;
			break;
		case 'p':
			pretty = true;
			break;
		case 'n':
			c.no_wait = true;
			break;
		case 'h':
			fputs(help, stdout);
			return 0;
		case 'V':
			printf("ismctl %s (ism generic netlink family version %d)\n",
			       ISMCTL_VERSION, ISM_GENL_VERSION);
			return 0;
		default:
			fputs("Try 'ismctl --help'.\n", stderr);
			return EXIT_USAGE;
		}
	}
	argc -= optind;
	argv += optind;
	out_init(json, pretty);
	if (!argc)
		return do_dev(&c, 0, argv);
	for (i = 0; i < ARRAY_SIZE(objects); i++) {
		if (matches(argv[0], objects[i].name)) {
			ret = objects[i].fn(&c, argc - 1, argv + 1);
			nl_close(&c.nl);
			return ret;
		}
	}
	return usage_error("unknown object \"%s\"", argv[0]);
}
