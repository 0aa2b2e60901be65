#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: removing the loopback device or the SMC-D bridge while SMC-D
# connections are open ends them cleanly; later connections fall back to
# TCP until the device is back. The removals come once every connection
# has moved its data and holds (wait_holding), however fast the guest:
# each connection's end is then "ended", never "failed".
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"
smc_setup

rm -f /tmp/s
timeout 120 smc_xfer server -n 3 -p 5201 >/tmp/s 2>&1 &
spid=$!
wait_listen /tmp/s
srv_mark $spid
smc_xfer client -a 127.0.0.1 -p 5201 -c 3 -b 1M --bidir --hold 30 >/tmp/c 2>&1 &
cpid=$!
wait_conns 6 5201 || bad "3 connections not listed"
m=$(modes 5201)
[ "$m" = "SMCD " ] && ok "before removal: SMCD" || bad "before removal: modes '$m'"
srv_wait_accepted $spid 3 || bad "the server accepted $N of 3 connections"
wait_holding /tmp/s 3 && wait_holding /tmp/c 3 ||
	bad "the 3 connections did not all finish their transfer"
check "rmmod ism_lo with 3 connections open" ism-unload ism_lo
wait $cpid
wait
cat /tmp/s /tmp/c
grep -q 'client conns=3 ok=0 failed=0 ended=3' /tmp/c &&
	ok "removal: the client saw all 3 connections end" || bad "removal: client"
grep -q 'server conns=3 ok=0 failed=0 ended=3' /tmp/s &&
	ok "removal: the server saw all 3 connections end" || bad "removal: server"

timeout 120 smc_xfer server -n 1 -p 5202 >/tmp/s2 2>&1 &
wait_listen /tmp/s2
smc_xfer client -a 127.0.0.1 -p 5202 -b 1M --hold 10 >/tmp/c2 2>&1 &
wait_conns 2 5202 || bad "after removal: connection not listed"
m=$(modes 5202)
[ "$m" = "TCP " ] && ok "after removal: new connections fall back to TCP" ||
	bad "after removal: modes '$m'"
wait
grep -q 'client conns=1 ok=1' /tmp/c2 && ok "after removal: data intact" ||
	bad "after removal: transfer"

check "device back (insmod ism_lo)" ism-load ism_lo
timeout 120 smc_xfer server -n 2 -p 5203 >/tmp/s3 2>&1 &
spid=$!
wait_listen /tmp/s3
srv_mark $spid
smc_xfer client -a 127.0.0.1 -p 5203 -c 2 -b 512K --bidir --hold 30 >/tmp/c3 2>&1 &
cpid=$!
wait_conns 4 5203 || bad "device back: connections not listed"
m=$(modes 5203)
[ "$m" = "SMCD " ] && ok "device back: SMCD again" || bad "device back: modes '$m'"
srv_wait_accepted $spid 2 || bad "device back: the server accepted $N of 2 connections"
wait_holding /tmp/s3 2 && wait_holding /tmp/c3 2 ||
	bad "device back: the 2 connections did not all finish their transfer"
check "rmmod ism_smcd (the bridge) with 2 connections open" ism-unload ism_smcd
wait $cpid
wait
grep -q 'client conns=2 ok=0 failed=0 ended=2' /tmp/c3 &&
	ok "bridge removal: connections ended" || { cat /tmp/s3 /tmp/c3; bad "bridge removal"; }
check "bridge back (insmod ism_smcd)" ism-load ism_smcd
smc_ueid flush
ktap_finish
