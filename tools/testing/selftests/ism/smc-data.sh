#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: SMC-D over the loopback ISM device: mode SMCD for every connection
# over 127.0.0.1, ::1 and between two network namespaces joined by veth;
# data integrity in random-sized writes both ways; 100 concurrent
# connections; splice(); a client waiting for a late server; abrupt close
# mid-transfer; the SMC-D device dump.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"
smc_setup

# xfer PORT CLIENT-ARGS...: one server for the client's connections; ok
# if both sides report every connection intact and all were SMC-D
xfer() {
	port=$1
	shift
	conns=1
	case " $* " in *" -c "*) conns=$(echo "$*" | sed 's/.*-c \([0-9]*\).*/\1/') ;; esac
	rm -f /tmp/s.$port
	timeout 300 smc_xfer server -n "$conns" -p "$port" \
		>/tmp/s.$port 2>&1 &
	wait_listen /tmp/s.$port
	smc_xfer client -p "$port" "$@" >/tmp/c.$port 2>&1
	r=$?
	wait
	if [ $r -eq 0 ] && grep -q "server conns=$conns ok=$conns" /tmp/s.$port; then
		return 0
	fi
	cat /tmp/s.$port /tmp/c.$port
	return 1
}

smc_info dev >/tmp/dev
cat /tmp/dev
grep -q ismlo0 /tmp/dev && ok "SMC-D device dump lists ismlo0" ||
	bad "SMC-D device dump"

rm -f /tmp/s
timeout 120 smc_xfer server -n 1 -p 5101 >/tmp/s 2>&1 &
wait_listen /tmp/s
smc_xfer client -a 127.0.0.1 -p 5101 -b 1M --hold 10 >/tmp/c 2>&1 &
wait_conns 2 5101 || bad "127.0.0.1: connection not listed"
smc_ss -a
m=$(modes 5101)
[ "$m" = "SMCD " ] && ok "127.0.0.1: both ends SMCD" || bad "127.0.0.1: modes '$m'"
wait

check "integrity: 64M each way, random-sized writes, SMC-D" \
	xfer 5102 -a 127.0.0.1 -b 64M --bidir -s 11
check "integrity: 4 connections x 8M each way" \
	xfer 5103 -a 127.0.0.1 -c 4 -b 8M --bidir -s 7
check "100 concurrent connections" xfer 5104 -a 127.0.0.1 -c 100 -b 64K --bidir
# SMC's splice() hands the pipe a DMB's first page with an offset up to
# the DMB's length: the kernel checks that against the compound page.
check "splice(): 8M from the server read with splice(), checksummed" \
	xfer 5109 -a 127.0.0.1 -b 8M --bidir --splice

timeout 120 smc_xfer server -6 -n 1 -p 5105 >/tmp/s6 2>&1 &
wait_listen /tmp/s6
smc_xfer client -6 -a ::1 -p 5105 -b 2M --bidir --hold 10 >/tmp/c6 2>&1 &
wait_conns 2 5105 || bad "::1: connection not listed"
m=$(modes 5105)
[ "$m" = "SMCD " ] && ok "::1: both ends SMCD" || bad "::1: modes '$m'"
wait
grep -q 'client conns=1 ok=1' /tmp/c6 && ok "::1: data intact" || bad "::1: transfer"

abort_mid() {
	timeout 120 smc_xfer server -n 2 -p 5106 >/tmp/sa 2>&1 &
	wait_listen /tmp/sa
	smc_xfer client -a 127.0.0.1 -p 5106 -b 8M --bidir --abort-after 300000 &&
		smc_xfer client -a 127.0.0.1 -p 5106 -b 1M
	r=$?
	wait
	[ $r -eq 0 ] && grep -q "server conns=2 ok=2" /tmp/sa && return 0
	cat /tmp/sa
	return 1
}
check "abrupt close (SO_LINGER 0) mid-transfer, then a clean one" abort_mid

# --wait-server: a client of 8 connections started before its server
# retries each refused connect on its own, so the server, starting 2 s
# late, gets exactly those 8; without a server it gives up after 2 s.
late_server() {
	smc_xfer client -a 127.0.0.1 -p 5110 -c 8 -b 256K --bidir -w 60 \
		>/tmp/cw 2>&1 &
	cpid=$!
	sleep 2
	timeout 120 smc_xfer server -n 8 -p 5110 >/tmp/sw 2>&1
	wait $cpid && grep -q 'server conns=8 ok=8 ' /tmp/sw && {
		t0=$(cut -d' ' -f1 /proc/uptime)
		! smc_xfer client -a 127.0.0.1 -p 5110 -w 2 >/tmp/cw 2>&1
	} && grep -q 'Connection refused' /tmp/cw &&
		awk -v t0="$t0" '{ exit !($1 - t0 >= 2) }' /proc/uptime && return 0
	cat /tmp/sw /tmp/cw
	return 1
}
check "a client started before its server waits for it (--wait-server)" \
	late_server

# The client sends more than any guest moves in the test's time, so the
# kill, once the server has the connection, always lands mid-transfer.
kill_mid() {
	timeout 120 smc_xfer server -n 1 -p 5107 >/tmp/sk 2>&1 &
	spid=$!
	wait_listen /tmp/sk || return 1
	srv_mark $spid
	smc_xfer client -a 127.0.0.1 -p 5107 -b 1024G >/tmp/ck 2>&1 &
	cpid=$!
	srv_wait_accepted $spid 1 || echo "# the server accepted no connection"
	kill -9 $cpid
	wait $spid
	r=$?
	cat /tmp/sk
	# The server must see the connection fail, not hang or crash.
	[ $r -eq 1 ] && grep -q 'server conns=1 ok=0 failed=1 ' /tmp/sk
}
check "process killed mid-transfer: the peer sees the end" kill_mid

# own_netns PID: PID runs in a network namespace other than ours
own_netns() {
	[ "$(readlink /proc/"$1"/ns/net)" != "$(readlink /proc/$$/ns/net)" ]
}
smc_ns new sleep 100000 &
ns=$!
wait_for 30 own_netns $ns || bad "netns: smc_ns new made no namespace in 30 s"
smc_ns veth v0 v1 $ns && ok "netns: veth pair" || bad "netns: veth pair"
ip addr add 10.0.0.1/24 dev v0
ip link set v0 up
smc_ns exec $ns ip link set lo up
smc_ns exec $ns ip addr add 10.0.0.2/24 dev v1
smc_ns exec $ns ip link set v1 up
timeout 120 smc_ns exec $ns smc_xfer server -n 1 -p 5108 >/tmp/sn 2>&1 &
spid=$!
wait_listen /tmp/sn
smc_xfer client -a 10.0.0.2 -p 5108 -b 8M --bidir --hold 10 >/tmp/cn 2>&1 &
cpid=$!
wait_conns 1 5108 || bad "netns: connection not listed"
m=$(modes 5108)
[ "$m" = "SMCD " ] && ok "netns: client end SMCD" || bad "netns: client modes '$m'"
smc_ns exec $ns smc_ss -j >/tmp/ss.json
m=$(modes 5108)
[ "$m" = "SMCD " ] && ok "netns: server end SMCD" || bad "netns: server modes '$m'"
wait $cpid $spid
kill $ns
wait $ns 2>/dev/null
grep -q 'client conns=1 ok=1' /tmp/cn && ok "netns: data intact" ||
	{ cat /tmp/sn /tmp/cn; bad "netns: transfer"; }
smc_ueid flush
ktap_finish
