#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: SMC-D over a VLAN. Two network namespaces joined by a veth pair,
# a VLAN sub-interface (id 10) on each end holding the addresses; an
# smc_xfer server in one and its client in the other connect over the
# VLAN addresses: both ends must be SMC-D and the data intact both ways.
# SMC registers the connection's VLAN with the ISM device for its link
# group (smc_ism_get_vlan(), which calls the device's add_vlan_id with a
# spinlock held): the ism_vlan tracepoint must show ismlo0 joining VLAN
# 10 during the connection, and leaving it once the link group is gone.
# SMC keeps an idle link group for 10 minutes; unloading the SMC-D bridge
# ends it at once. The test must leave no kernel report: a sleeping call
# under that spinlock would be one (DEBUG_ATOMIC_SLEEP).
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"
. "$ISM_LIB/kmsg.sh"

D=/tmp/vlan
rm -rf $D
mkdir -p $D
PORT=5301
smc_setup
# 802.1Q: built into the debug kernel (kernel.config); Debian's kernel has
# it as the module 8021q, which ism-load loads if it is installed
# (ISM_KMODS, lib/modlist.sh).
if [ ! -e /proc/net/vlan/config ]; then
	if debug_kernel; then
		bad "no 802.1Q support (/proc/net/vlan/config): CONFIG_VLAN_8021Q=y missing"
		exit 1
	fi
	smc_ueid flush
	ktap_skip "$(uname -r): no 802.1Q support (8021q.ko not in ISM_KMODS)"
fi
kmsg_mark smc-vlan

# ---- the ism_vlan tracepoint ----
T=/sys/kernel/tracing
[ -d $T/events ] || mount -t tracefs tracefs $T 2>/dev/null ||
	T=/sys/kernel/debug/tracing
EV=$T/events/ism/ism_vlan
trace=0
if [ -e $EV/enable ]; then
	echo >$T/trace
	echo 1 >$EV/enable && trace=1
	[ $trace = 1 ] && ok "trace: events/ism/ism_vlan enabled" ||
		bad "trace: cannot enable events/ism/ism_vlan"
else
	ls $T/events/ism 2>&1 | sed 's/^/# events\/ism: /'
	bad "trace: no ism_vlan event ($EV)"
fi

# vlan_events JOIN: the ism_vlan trace lines of ismlo0 and VLAN 10 with
# join=JOIN (1 join, 0 leave), in the trace's order
vlan_events() {
	grep ' ism_vlan: ' $D/trace | grep 'dev=ismlo0 ' | grep ' vid=10 ' |
		grep " join=$1 "
}

# ---- two namespaces, a veth pair, VLAN 10 on each end ----
# own_netns PID: PID runs in a network namespace other than ours
own_netns() {
	[ "$(readlink /proc/"$1"/ns/net)" != "$(readlink /proc/$$/ns/net)" ]
}
smc_ns new sleep 100000 &
ns1=$!
smc_ns new sleep 100000 &
ns2=$!
wait_for 30 own_netns $ns1 && wait_for 30 own_netns $ns2 ||
	bad "netns: smc_ns new made no namespace in 30 s"

# nsx NS CMD...: CMD in the namespace of NS
nsx() {
	_ns=$1
	shift
	smc_ns exec "$_ns" "$@"
}

# vlan NS DEV: DEV.10, VLAN 10 on DEV, in NS: busybox ip, else vconfig;
# says which made it
vlan() {
	if nsx "$1" ip link add link "$2" name "$2.10" type vlan id 10 \
		2>$D/vlan.err; then
		echo "ip link add ... type vlan"
	elif nsx "$1" vconfig set_name_type DEV_PLUS_VID_NO_PAD >/dev/null \
		2>>$D/vlan.err && nsx "$1" vconfig add "$2" 10 >/dev/null \
		2>>$D/vlan.err; then
		echo "vconfig"
	else
		return 1
	fi
}

# vlan_id NS DEV: the VLAN id of DEV in NS (/proc/net/vlan of NS)
vlan_id() {
	nsx "$1" cat "/proc/net/vlan/$2" 2>/dev/null |
		sed -n 's/.*VID: \([0-9]*\).*/\1/p'
}

check "netns: veth pair v0 (ns 1), v1 (ns 2)" nsx $ns1 smc_ns veth v0 v1 $ns2
k=0
for x in "$ns1 v0 10.0.10.1" "$ns2 v1 10.0.10.2"; do
	# shellcheck disable=SC2086
	set -- $x
	k=$((k + 1))
	nsx "$1" ip link set lo up
	nsx "$1" ip link set "$2" up
	if how=$(vlan "$1" "$2"); then
		ok "netns $k: $2.10 made by $how"
	else
		cat $D/vlan.err
		bad "netns $k: cannot make the VLAN interface $2.10"
	fi
	id=$(vlan_id "$1" "$2.10")
	[ "$id" = 10 ] && ok "netns $k: $2.10 is VLAN 10" ||
		bad "netns $k: $2.10 VLAN id '$id'"
	nsx "$1" ip addr add "$3/24" dev "$2.10"
	nsx "$1" ip link set "$2.10" up
done
# ping_vlan: ns 1 reaches ns 2 over VLAN 10
ping_vlan() {
	nsx $ns1 ping -c 1 -W 10 10.0.10.2 >$D/ping 2>&1 && return 0
	cat $D/ping
	return 1
}
check "VLAN 10: ping 10.0.10.2 from ns 1" ping_vlan

# ---- an SMC-D connection over the VLAN ----
nsx $ns2 smc_xfer server -a 10.0.10.2 -n 1 -p $PORT >$D/s 2>&1 &
spid=$!
wait_listen $D/s
nsx $ns1 smc_xfer client -a 10.0.10.2 -p $PORT -b 8M --bidir -s 10 \
	--hold 20 >$D/c 2>&1 &
cpid=$!
wait_holding $D/c 1 && wait_holding $D/s 1 ||
	bad "the connection did not finish its transfer"
wait_conns 1 $PORT $ns1 || bad "ns 1: connection not listed"
m=$(modes $PORT)
[ "$m" = "SMCD " ] && ok "ns 1 (client end): SMCD over VLAN 10" ||
	{ cat /tmp/ss.json; bad "ns 1 (client end): modes '$m'"; }
wait_conns 1 $PORT $ns2 || bad "ns 2: connection not listed"
m=$(modes $PORT)
[ "$m" = "SMCD " ] && ok "ns 2 (server end): SMCD over VLAN 10" ||
	{ cat /tmp/ss.json; bad "ns 2 (server end): modes '$m'"; }

# During the connection (both ends hold it): ismlo0 has joined VLAN 10.
if [ $trace = 1 ]; then
	cat $T/trace >$D/trace
	j=$(vlan_events 1)
	echo "$j" | sed 's/^ */# /'
	echo "$j" | grep -q ' ret=0' &&
		ok "trace: ismlo0 joined VLAN 10 during the connection" ||
		{ grep ism_vlan $D/trace; bad "trace: no join of VLAN 10 with ret=0"; }
	[ -z "$(vlan_events 0)" ] && ok "trace: no leave of VLAN 10 yet" ||
		bad "trace: VLAN 10 left during the connection"
fi

wait $cpid
cr=$?
wait $spid
grep -q 'client conns=1 ok=1 ' $D/c && grep -q 'server conns=1 ok=1 ' $D/s &&
	[ $cr = 0 ] && ok "VLAN 10: 8M each way intact, the connection alive after the hold" ||
	{ cat $D/s $D/c; bad "VLAN 10: transfer (client status $cr)"; }

# After it: the link group goes with the bridge, and with it the VLAN.
check "rmmod ism_smcd (ends the idle link groups)" ism-unload ism_smcd
if [ $trace = 1 ]; then
	cat $T/trace >$D/trace
	l=$(vlan_events 0)
	echo "$l" | sed 's/^ */# /'
	echo "$l" | grep -q ' ret=0' &&
		ok "trace: ismlo0 left VLAN 10 once the link group was gone" ||
		{ grep ism_vlan $D/trace; bad "trace: no leave of VLAN 10 with ret=0"; }
	[ "$(vlan_events 1 | wc -l)" = "$(vlan_events 0 | wc -l)" ] &&
		ok "trace: as many leaves as joins of VLAN 10" ||
		bad "trace: joins and leaves of VLAN 10 differ"
	echo 0 >$EV/enable
	echo >$T/trace
fi

kill $ns1 $ns2
wait
smc_ueid flush
kmsg_clean smc-vlan && ok "no kernel report" || bad "kernel reports"
ktap_finish
