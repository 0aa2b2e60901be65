// SPDX-License-Identifier: GPL-2.0
/*
 * smc_ns: network namespaces and veth pairs for SMC tests, for systems
 * whose ip(8) (busybox) knows neither netns nor veth.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <sched.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <linux/veth.h>

#include "../lib/nl/nl.h"

static const char help[] =
"NAME\n"
"    smc_ns - network namespaces and veth pairs for SMC tests\n"
"\n"
"SYNOPSIS\n"
"    smc_ns new COMMAND [ARG...]\n"
"    smc_ns exec PID COMMAND [ARG...]\n"
"    smc_ns veth NAME PEER [PID]\n"
"    smc_ns move IFACE PID\n"
"    smc_ns -h | --help\n"
"\n"
"DESCRIPTION\n"
"    A namespace is named by the PID of a process in it, as in\n"
"    /proc/PID/ns/net.\n"
"\n"
"    new   run COMMAND in a new network namespace (unshare(CLONE_NEWNET));\n"
"          only lo exists there, and it is down. 'smc_ns new sleep 1000 &'\n"
"          keeps a namespace alive as long as the sleep; $! names it.\n"
"    exec  run COMMAND in the network namespace of PID (setns()).\n"
"    veth  create the veth pair NAME and PEER; with PID, PEER is created\n"
"          in the network namespace of PID. Both ends start down.\n"
"    move  move the interface IFACE into the network namespace of PID.\n"
"\n"
"OPTIONS\n"
"    -h, --help  show this text\n"
"\n"
"EXIT STATUS\n"
"    0 on success (new and exec: the status of COMMAND, which replaces\n"
"    smc_ns); 1 if a system call failed; 2 on a usage error.\n"
"\n"
"EXAMPLES\n"
"    smc_ns new sleep 100000 & NS=$!\n"
"    smc_ns veth v0 v1 $NS\n"
"    ip addr add 10.0.0.1/24 dev v0; ip link set v0 up\n"
"    smc_ns exec $NS ip addr add 10.0.0.2/24 dev v1\n"
"    smc_ns exec $NS ip link set v1 up\n"
"    smc_ns exec $NS ip link set lo up\n"
"    smc_ns exec $NS smc_xfer server &\n";

static int ns_fail(const char *what, int err)
{
	fprintf(stderr, "smc_ns: %s: %s\n", what, strerror(err));
	return 1;
}

static int ns_exec(char **argv)
{
	execvp(argv[0], argv);
	fprintf(stderr, "smc_ns: cannot run %s: %s\n", argv[0],
		strerror(errno));
	return 127;
}

static int ns_pid(const char *s, int *pid)
{
	char *end;
	long v = strtol(s, &end, 10);

	if (!*s || *end || v <= 0)
		return -1;
	*pid = v;
	return 0;
}

static int ns_enter(int pid)
{
	char path[64];
	int fd;

	snprintf(path, sizeof(path), "/proc/%d/ns/net", pid);
	fd = open(path, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return ns_fail(path, errno);
	if (setns(fd, CLONE_NEWNET) < 0) {
		close(fd);
		return ns_fail("setns", errno);
	}
	close(fd);
	return 0;
}

static int ns_rtnl(struct nl_req *req, const char *what)
{
	struct nl_sock nl;
	int err;

	err = nl_open(&nl, NETLINK_ROUTE);
	if (err)
		return ns_fail("netlink socket", -err);
	err = nl_talk(&nl, req, NULL, NULL);
	nl_close(&nl);
	return err ? ns_fail(what, -err) : 0;
}

static int ns_veth(const char *name, const char *peer, int pid)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	struct nlattr *linkinfo, *data, *peerinfo;
	struct nl_req req;

	nl_req_init(&req, RTM_NEWLINK, NLM_F_CREATE | NLM_F_EXCL | NLM_F_ACK);
	nl_req_put(&req, &ifi, sizeof(ifi));
	nl_attr_put_str(&req, IFLA_IFNAME, name);
	linkinfo = nl_nest_start(&req, IFLA_LINKINFO);
	nl_attr_put_str(&req, IFLA_INFO_KIND, "veth");
	data = nl_nest_start(&req, IFLA_INFO_DATA);
	peerinfo = nl_nest_start(&req, VETH_INFO_PEER);
	nl_req_put(&req, &ifi, sizeof(ifi));
	nl_attr_put_str(&req, IFLA_IFNAME, peer);
	if (pid) {
		uint32_t p = pid;

		nl_attr_put(&req, IFLA_NET_NS_PID, &p, sizeof(p));
	}
	nl_nest_end(&req, peerinfo);
	nl_nest_end(&req, data);
	nl_nest_end(&req, linkinfo);
	return ns_rtnl(&req, "creating the veth pair");
}

static int ns_move(const char *ifname, int pid)
{
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC };
	uint32_t p = pid;
	struct nl_req req;

	ifi.ifi_index = if_nametoindex(ifname);
	if (!ifi.ifi_index)
		return ns_fail(ifname, errno);
	nl_req_init(&req, RTM_NEWLINK, NLM_F_ACK);
	nl_req_put(&req, &ifi, sizeof(ifi));
	nl_attr_put(&req, IFLA_NET_NS_PID, &p, sizeof(p));
	return ns_rtnl(&req, "moving the interface");
}

int main(int argc, char **argv)
{
	const char *cmd = argc > 1 ? argv[1] : "";
	int pid = 0;

	if (!strcmp(cmd, "-h") || !strcmp(cmd, "--help")) {
		fputs(help, stdout);
		return 0;
	}
	if (!strcmp(cmd, "new") && argc >= 3) {
		if (unshare(CLONE_NEWNET) < 0)
			return ns_fail("unshare", errno);
		return ns_exec(argv + 2);
	}
	if (!strcmp(cmd, "exec") && argc >= 4 && !ns_pid(argv[2], &pid))
		return ns_enter(pid) ?: ns_exec(argv + 3);
	if (!strcmp(cmd, "veth") && (argc == 4 ||
				     (argc == 5 && !ns_pid(argv[4], &pid))))
		return ns_veth(argv[2], argv[3], pid);
	if (!strcmp(cmd, "move") && argc == 4 && !ns_pid(argv[3], &pid))
		return ns_move(argv[2], pid);
	fprintf(stderr, "smc_ns: bad usage; try 'smc_ns --help'\n");
	return 2;
}
