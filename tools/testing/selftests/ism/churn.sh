#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: lifetime churn. ISM_CHURN_CYCLES cycles (default 4) of loading and
# unloading ism_core, ism_lo, ism_smcd (with SMC) and ism_tclient, in a
# different order each cycle (in turn, the 6 x 6 load and unload orders
# that respect the dependencies), with ism_tclient holding DMBs on every
# device, a device added at run time (ismctl dev add; then deleted with
# ismctl, or left for rmmod ism_lo), ism_lo with one or two devices, and
# every fourth cycle three SMC-D connections, then SMC unloaded (right
# after the bridge or last; next loaded first or just before the
# bridge). The connections stay open while ism_lo or the bridge goes
# and must end then (ISM_CHURN_HELD=0: closed before). smc_xfer closes
# them only once SMC has finished ending them; closed while SMC was
# still at it, SMC 6.1 leaked a socket in about one of four such cycles
# (see xfer_close() in tools/smc/xfer_conn.c).
# Along the way a plain rmmod of ism_core must fail while any of the
# others is loaded, and after each step the layer must show what is left:
# devices in /sys/class/ism and ismctl, the clients' devices and DMBs
# (ismctl -j client), SMC-D devices (smc_info); no device, DMB or SMC-D
# device once ism_lo is gone, no /sys/class/ism and no ism family once
# ism_core is. One "ok"/"not ok" line per cycle (its failures as comments
# before it); last, every module, SMC included, must load and unload with
# ism-load and ism-unload.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"

cycles=${ISM_CHURN_CYCLES:-4}
TC=ism_tclient
# The bridge, where it is built, needs SMC: modules in the initramfs, or
# built in.
SMCD=
smc_bridge && { [ -n "$MODS_SMC" ] || [ -d /sys/module/smc ]; } && SMCD=ism_smcd
# Without the bridge no cycle loads SMC, nor checks it.
[ -n "$SMCD" ] || MODS_SMC=
held=${ISM_CHURN_HELD:-1}
ip link set lo up

# perm K: sets P to the K-th (0-5) order of ism_lo, the bridge and
# ism_tclient
perm() {
	case $1 in
	0) P="ism_lo $SMCD $TC" ;;
	1) P="ism_lo $TC $SMCD" ;;
	2) P="$SMCD ism_lo $TC" ;;
	3) P="$SMCD $TC ism_lo" ;;
	4) P="$TC ism_lo $SMCD" ;;
	*) P="$TC $SMCD ism_lo" ;;
	esac
}

# short NAME...: sets S to the names without "ism_", comma-separated
short() {
	S=
	for _n in "$@"; do
		S="$S,${_n#ism_}"
	done
	S=${S#,}
}

# fail WHAT: a failure of this cycle
fail() {
	cerr="$cerr; $1"
	echo "# cycle $cy: $1"
}

# expect WHAT GOT WANT
expect() {
	[ "$2" = "$3" ] || fail "$1: got '$2', want '$3'"
}

# cfield CLIENT KEY: sets CF to KEY of CLIENT in $CLIENTS (ismctl -j
# client, compact JSON)
cfield() {
	CF=
	_s=${CLIENTS#*"{\"name\":\"$1\""}
	[ "$_s" = "$CLIENTS" ] && return
	_s=${_s%%\}*}
	case $_s in *"\"$2\":"*) ;; *) return ;; esac
	_s=${_s#*"\"$2\":"}
	CF=${_s%%,*}
}

# ours: sets OURS to which of ism_lo, the bridge and ism_tclient are loaded
ours() {
	OURS=
	for _n in ism_lo $SMCD $TC; do
		mod_loaded $_n && OURS="$OURS $_n"
	done
}

# smcd_devs WHEN WANT: smc_info lists WANT SMC-D devices
smcd_devs() {
	_o=$(smc_info dev 2>&1)
	occurs "$_o" " ism-"
	expect "$1: SMC-D devices" $OCC "$2"
}

# layer WHEN DEVS [full]: with ism_core loaded, the layer shows DEVS
# devices in sysfs and the clients hold them (ismctl -j client); with
# full also in ismctl -j dev and, with the bridge, as SMC-D devices; with
# DEVS 0 also no DMB, and the clients hold nothing
layer() {
	when=$1
	want=$2
	full=${3:-}
	set -- /sys/class/ism/*
	[ -e "$1" ] || set --
	expect "$when: /sys/class/ism entries" $# "$want"
	if ! CLIENTS=$(ismctl -j client 2>&1); then
		fail "$when: ismctl -j client: $CLIENTS"
		return
	fi
	if mod_loaded $TC; then
		cfield $TC devs
		expect "$when: $TC devs" "$CF" "$want"
		cfield $TC dmbs
		expect "$when: $TC dmbs" "$CF" $((4 * want))
	fi
	if [ -n "$SMCD" ] && mod_loaded $SMCD; then
		cfield smc-d devs
		expect "$when: smc-d devs" "$CF" "$want"
	fi
	[ -n "$full" ] || return
	if ! DEVS=$(ismctl -j dev 2>&1); then
		fail "$when: ismctl -j dev: $DEVS"
		return
	fi
	occurs "$DEVS" '"name":'
	expect "$when: ismctl devices" $OCC "$want"
	if [ -n "$SMCD" ] && mod_loaded $SMCD; then
		smcd_devs "$when" "$want"
	elif mod_loaded smc; then
		smcd_devs "$when (no bridge)" 0
	fi
	[ "$want" = 0 ] || return
	case $CLIENTS in *'"devs":'[1-9]* | *'"dmbs":'[1-9]*)
		fail "$when: clients still hold something: $CLIENTS" ;;
	esac
	_o=$(ismctl -j dmb 2>&1)
	expect "$when: DMBs" "$_o" "[]"
}

# load NAME [PARAM...]
load() {
	mod_load "$@" || fail "insmod $1: $(cat /tmp/mod.err)"
}

# unload NAME [TRIES]: rmmod NAME
unload() {
	mod_unload "$@" || fail "rmmod $1: $(cat /tmp/mod.err)"
}

smc_load() {
	for _k in $MODS_SMC; do
		load $_k
	done
}

# smc_unload [all]: smc_diag and smc (and with all, ib_core); for a busy
# smc.ko, its users (with no SMC module left, its sockets) and the SMC
# sockets smc_diag lists
smc_unload() {
	mod_loaded smc && smc_ueid flush >/dev/null 2>&1
	for _k in smc_diag smc ib_core; do
		case " $MODS_SMC " in *" $_k "*) ;; *) continue ;; esac
		[ $_k = ib_core ] && [ "${1:-}" != all ] && continue
		mod_unload $_k 20 && continue
		fail "rmmod $_k: $(cat /tmp/mod.err) (smc.ko users: $(awk \
			'$1 == "smc" { print $3 }' /proc/modules), SMC sockets listed: $(
			smc_ss -a 2>/dev/null | grep -vc '^State'))"
		return
	done
}

# refused: ism_core is in use: a plain rmmod must fail
refused() {
	mod_refused ism_core && return
	ours
	if mod_loaded ism_core; then
		fail "rmmod ism_core with$OURS loaded: failed, but $(cat /tmp/mod.err)"
	else
		fail "rmmod ism_core with$OURS loaded: succeeded"
	fi
}

# conns_open PORT: three SMC-D connections on PORT; unless ISM_CHURN_HELD=0
# they stay open (--hold) for the removal, otherwise they complete here
conns_open() {
	smc_ueid add ISM-TEST >/dev/null 2>&1
	rm -f /tmp/cs
	timeout 200 smc_xfer server -n 3 -p "$1" -t 60 >/tmp/cs 2>&1 &
	spid=$!
	wait_listen /tmp/cs
	srv_mark $spid
	hold=
	[ $held = 1 ] && hold="--hold 150"
	# shellcheck disable=SC2086
	smc_xfer client -a 127.0.0.1 -p "$1" -c 3 -b 64K --bidir -s "$cy" $hold \
		>/tmp/cc 2>&1 &
	cpid=$!
	if [ $held = 0 ]; then
		wait $cpid $spid
		grep -q 'client conns=3 ok=3 ' /tmp/cc &&
			grep -q 'server conns=3 ok=3 ' /tmp/cs ||
			{ cat /tmp/cs /tmp/cc; fail "connections before the removal"; }
		conns=closed
		return
	fi
	if ! wait_conns 6 "$1"; then
		fail "3 SMC-D connections not listed"
	else
		_o=$(modes "$1")
		[ "$_o" = "SMCD " ] || fail "connections: modes '$_o'"
	fi
	srv_wait_accepted $spid 3 ||
		fail "the server accepted $N of 3 connections"
	# conns_ended wants them idle, not moving data, when they end.
	wait_holding /tmp/cs 3 && wait_holding /tmp/cc 3 ||
		fail "the 3 connections did not all finish their transfer"
	conns=open
}

# conns_ended: the removal just done ended the held connections
conns_ended() {
	wait $cpid $spid
	grep -q 'client conns=3 ok=0 failed=0 ended=3' /tmp/cc &&
		grep -q 'server conns=3 ok=0 failed=0 ended=3' /tmp/cs ||
		{ cat /tmp/cs /tmp/cc; fail "connections did not all end at rmmod $m"; }
	conns=ended
}

# cleanup: after a failed cycle, unload what is left so the next one
# starts clean; exit if that fails
cleanup() {
	[ -n "$cpid" ] && kill $cpid $spid 2>/dev/null
	wait
	for m in $TC $SMCD ism_lo ism_core; do
		mod_unload $m 20 && continue
		bad "cleanup: rmmod $m: $(cat /tmp/mod.err)"
		cat /proc/modules
		exit 1
	done
}

cycle() {
	c0=$(cut -d. -f1 /proc/uptime)
	cerr=
	conns=none
	cpid=
	spid=
	perm $((cy % 6))
	lorder=$P
	perm $(((cy + cy / 6) % 6))
	uorder=$P
	ndev=1
	[ $((cy % 4)) = 3 ] && ndev=2
	smc_drop=0
	[ $((cy % 4)) = 2 ] && smc_drop=1
	rt=c$cy
	rt_del=$(((cy + 1) % 2))

	# ---- load: SMC first or just before the bridge ----
	smc_was=
	first=$((cy / 4 % 2))
	mod_loaded smc || smc_was=", smc loaded $([ $first = 1 ] && echo first || echo before the bridge)"
	[ -n "$SMCD" ] && [ $first = 1 ] && smc_load
	load ism_core
	for m in $lorder; do
		case $m in
		ism_lo) load ism_lo num_devs=$ndev ;;
		"$SMCD") smc_load; load $m ;;
		*) load $m ;;
		esac
	done
	refused
	layer "all loaded" $ndev full

	# ---- a device at run time ----
	if ismctl dev add loopback $rt 2>/tmp/rt.err; then
		layer "$rt added" $((ndev + 1)) full
		[ -e /sys/class/ism/$rt ] || fail "$rt: not in /sys/class/ism"
		if [ $rt_del = 1 ]; then
			ismctl dev del $rt 2>/tmp/rt.err || fail "dev del $rt: $(cat /tmp/rt.err)"
			layer "$rt deleted" $ndev
		fi
	else
		fail "dev add loopback $rt: $(cat /tmp/rt.err)"
	fi

	# ---- SMC-D connections ----
	[ -n "$SMCD" ] && [ $smc_drop = 1 ] && conns_open $((20000 + cy))

	# ---- unload ----
	left=$ndev
	[ $rt_del = 0 ] && left=$((left + 1))
	for m in $uorder; do
		unload $m
		[ $conns = open ] && [ $m != $TC ] && conns_ended
		case $m in
		ism_lo)
			left=0
			ismctl dev add loopback x$cy >/dev/null 2>&1
			r=$?
			[ $r = 1 ] || fail "dev add loopback without ism_lo: status $r"
			;;
		"$SMCD")
			[ $smc_drop = 1 ] && [ $((cy / 4 % 2)) = 0 ] && smc_unload ;;
		esac
		full=
		[ $m = ism_lo ] && full=full
		layer "rmmod ${m#ism_}" $left $full
		ours
		[ -n "$OURS" ] && refused
	done
	unload ism_core
	[ -d /sys/class/ism ] && fail "/sys/class/ism still there after rmmod ism_core"
	ismctl dev >/dev/null 2>&1
	r=$?
	[ $r = 3 ] || fail "ismctl dev without ism_core: status $r"
	[ $smc_drop = 1 ] && smc_unload
	if [ -n "$MODS_SMC" ]; then
		if [ $smc_drop = 1 ]; then
			mod_loaded smc && fail "smc still loaded"
		elif ! mod_loaded smc; then
			fail "smc not loaded"
		else
			smcd_devs "no ism_core" 0
		fi
	fi
	for m in ism_core ism_lo $SMCD $TC; do
		mod_loaded $m && fail "$m still loaded"
	done

	short ism_core $lorder
	what="cycle $cy: load $S"
	short $uorder ism_core
	what="$what, unload $S, $ndev dev, $rt"
	[ $rt_del = 1 ] && what="$what deleted" || what="$what left"
	what="$what, connections $conns$smc_was"
	if [ -n "$MODS_SMC" ]; then
		[ $smc_drop = 1 ] && what="$what, smc unloaded" || what="$what, smc kept"
	fi
	what="$what ($(($(cut -d. -f1 /proc/uptime) - c0)) s)"
	if [ -z "$cerr" ]; then
		ok "$what"
	else
		bad "$what:${cerr#;}"
		cleanup
	fi
}

t0=$(cut -d. -f1 /proc/uptime)
cy=0
while [ $cy -lt "$cycles" ]; do
	cycle
	cy=$((cy + 1))
done
echo "# $cycles cycles in $(($(cut -d. -f1 /proc/uptime) - t0)) s"

cerr=
smc_unload all
[ -z "$cerr" ] && ok "after the churn: the SMC modules unload" ||
	bad "after the churn: the SMC modules unload:$cerr"
check "after the churn: ism-load loads every module" ism-load
check "after the churn: ism-unload unloads every module, smc included" ism-unload
echo "# summary churn_cycles=$cy"
ktap_finish
