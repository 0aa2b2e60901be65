#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: ismctl and the ism generic netlink family against the known
# workload of ism_tclient (tools/testing/ism/tclient): devices, DMBs,
# clients and counters as JSON, a dump of thousands of DMBs, devices added
# and deleted at run time (seen by ism_tclient and the SMC-D bridge),
# requests refused to an unprivileged user, and malformed requests
# (ism_nlbad).
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/json.sh"
. "$ISM_LIB/mods.sh"

TC=ism_tclient

# isj NAME ARGS...: ismctl -j ARGS into /tmp/NAME.json, flattened to
# /tmp/NAME.json.flat
isj() {
	f=/tmp/$1.json
	shift
	ismctl -j "$@" >"$f" 2>/tmp/isj.err || { cat /tmp/isj.err; return 1; }
	json_flat "$f"
}

# refused WHAT STATUS PATTERN CMD...: CMD exits with STATUS and says
# PATTERN on stderr
refused() {
	rwhat=$1
	rwant=$2
	rpat=$3
	shift 3
	"$@" >/tmp/ref.out 2>/tmp/ref.err
	r=$?
	if [ $r -eq "$rwant" ] && grep -q "$rpat" /tmp/ref.err; then
		ok "$rwhat # $(head -n 1 /tmp/ref.err)"
	else
		cat /tmp/ref.out /tmp/ref.err
		bad "$rwhat (status $r, want $rwant and '$rpat')"
	fi
}

# dev_field DEV PATH: from ismctl -j -s dev
dev_field() {
	i=$(jidx /tmp/dev.json.flat name "$1")
	[ -n "$i" ] && jget /tmp/dev.json.flat "$i/$2"
}

# has_client DEV CLIENT: CLIENT is in DEV's clients (ismctl -j -s dev)
has_client() {
	i=$(jidx /tmp/dev.json.flat name "$1")
	[ -n "$i" ] && grep -qx "$i/clients/[0-9]*=$2" /tmp/dev.json.flat
}

# client_field CLIENT KEY: from ismctl -j client
client_field() {
	i=$(jidx /tmp/cl.json.flat name "$1")
	[ -n "$i" ] && jget /tmp/cl.json.flat "$i/$2"
}

# ---- without the layer ----
ismctl dev >/dev/null 2>&1
eq "no ism_core: ismctl exits 3" $? 3

# ---- ism_lo, then the known workload ----
ism-load ism_core ism_lo || { bad "ism-load ism_core ism_lo"; exit 1; }
ism-load $TC || { bad "ism-load $TC"; exit 1; }
line="$TC: ismlo0: dmbs=4 moves=100 bytes=409600 irqs=100 mismatches=0"
dmesg | grep -qF "$line" && ok "$TC workload: $line" ||
	{ dmesg | grep "$TC"; bad "$TC workload line"; }

check "ismctl --help" sh -c 'ismctl --help | grep -q SYNOPSIS'
check "ismctl -V" sh -c 'ismctl -V | grep -q "^ismctl "'
check "ismctl -s dev (text)" sh -c 'ismctl -s dev | grep -q "^ismlo0: type loopback"'
check "ismctl d sh ismlo0 (abbreviated)" sh -c 'ismctl d sh ismlo0 | grep -q "^ismlo0:"'
check "ismctl -p -s dev is valid JSON" sh -c 'ismctl -p -s dev | jq . >/dev/null'

check "ismctl -j -s dev" isj dev -s dev
eq "dev: ismlo0 type" "$(dev_field ismlo0 type)" loopback
eq "dev: ismlo0 chid" "$(dev_field ismlo0 chid)" 65535
gid=$(dev_field ismlo0 gid)
echo "$gid" | grep -qxE '[0-9a-f]{8}(-[0-9a-f]{4}){3}-[0-9a-f]{12}' &&
	ok "dev: ismlo0 gid $gid" || bad "dev: gid '$gid'"
eq "dev: ismlo0 max_dmbs" "$(dev_field ismlo0 max_dmbs)" 5000
eq "dev: ismlo0 dmbs" "$(dev_field ismlo0 dmbs)" 4
[ -z "$(dev_field ismlo0 parent)" ] && ok "dev: ismlo0 has no parent" ||
	bad "dev: ismlo0 parent"
has_client ismlo0 $TC && ok "dev: ismlo0 clients has $TC" ||
	bad "dev: ismlo0 clients"
for s in moves=100 move_bytes=409600 signals=100 irqs=100 dmbs_registered=4 \
	 dmbs_unregistered=0 err_token=0 err_inval=0; do
	eq "stats: ismlo0 $s" "${s%=*}=$(dev_field ismlo0 "stats/${s%=*}")" "$s"
done
eq "stats: 14 counters" "$(grep -c "^$(jidx /tmp/dev.json.flat name ismlo0)/stats/" \
	/tmp/dev.json.flat)" 14

check "ismctl -j dev show ismlo0 (one device)" isj one dev show ismlo0
eq "dev show ismlo0: one element" "$(jcount /tmp/one.json.flat name)" 1
isj plain dev && [ -z "$(jget /tmp/plain.json.flat 0/stats/moves)" ] &&
	ok "dev without -s: no stats" || bad "dev without -s: stats"

# ---- DMBs ----
check "ismctl -j dmb dev ismlo0" isj dmb dmb dev ismlo0
F=/tmp/dmb.json.flat
eq "dmb: 4 DMBs" "$(jcount $F token)" 4
eq "dmb: owners" "$(jvalues $F owner | uniq -c | tr -s ' ')" " 4 $TC"
eq "dmb: lengths" "$(jvalues $F len | uniq -c | tr -s ' ')" " 4 65536"
eq "dmb: distinct tokens" "$(jvalues $F token | uniq | wc -l)" 4
eq "dmb: distinct indexes" "$(jvalues $F index | uniq | wc -l)" 4
eq "dmb: rgid is the device's gid" "$(jvalues $F rgid | uniq)" "$gid"
jvalues $F token | grep -qvxE '0x[0-9a-f]{16}' && bad "dmb: token format" ||
	ok "dmb: tokens are 0x and 16 hex digits"
check "ismctl dmb (text)" sh -c "ismctl dmb | grep -q ' $TC '"

# ---- clients ----
check "ismctl -j client" isj cl client
eq "client: $TC devs" "$(client_field $TC devs)" 1
eq "client: $TC dmbs" "$(client_field $TC dmbs)" 4

# ---- counters reset ----
check "ismctl stats reset" ismctl stats reset
isj dev -s dev || bad "ismctl -j -s dev after reset"
i=$(jidx /tmp/dev.json.flat name ismlo0)
nz=$(grep "^$i/stats/" /tmp/dev.json.flat | grep -v '=0$' | tr '\n' ' ')
[ -n "$i" ] && [ -z "$nz" ] && ok "stats reset: all counters 0" ||
	bad "stats reset: left $nz"
eq "stats reset: dmbs stays 4" "$(dev_field ismlo0 dmbs)" 4
check "ismctl stats reset dev ismlo0" ismctl stats reset dev ismlo0

# ---- errors ----
refused "dev show of an unknown device: ENODEV" 1 "No such device" \
	ismctl dev show nosuch
refused "dmb dev of an unknown device: ENODEV" 1 "No such device" \
	ismctl -j dmb dev nosuch
refused "stats reset of an unknown device: ENODEV" 1 "No such device" \
	ismctl stats reset dev nosuch
refused "dev del of an unknown device" 1 "ismctl: dev del nosuch: " \
	ismctl dev del nosuch
refused "usage: unknown command" 2 "Try" ismctl dev frob
refused "usage: dev add without a name" 2 "Try" ismctl dev add loopback
refused "usage: a 16-character name" 2 "Try" \
	ismctl dev add loopback sixteen-chars-xx
# Device names are ASCII letters, digits and _.:- only: the kernel
# refuses others ("caf\351", cafe with e-acute in Latin-1), and no sysfs
# entry appears.
name=$(printf 'caf\351')
before=$(ls /sys/class/ism | wc -l)
refused "dev add of a non-ASCII name: refused by the kernel" 1 \
	"ismctl: dev add" ismctl dev add loopback "$name"
if [ -e "/sys/class/ism/$name" ] || [ "$(ls /sys/class/ism | wc -l)" != "$before" ]; then
	ls /sys/class/ism
	bad "non-ASCII name: a /sys/class/ism entry appeared"
	ismctl dev del "$name" >/dev/null 2>&1
else
	ok "non-ASCII name: no /sys/class/ism entry"
fi

# ---- unprivileged ----
if ! grep -q '^nobody:' /etc/passwd 2>/dev/null; then
	mkdir -p /etc
	echo 'root:x:0:0::/:/bin/sh' >/etc/passwd
	echo 'nobody:x:65534:65534::/:/bin/sh' >>/etc/passwd
	echo 'nogroup:x:65534:' >/etc/group
fi
# su resets PATH: name the tool by its full path.
ISMCTL=$(command -v ismctl)
refused "unprivileged dev add: EPERM" 1 "not permitted" \
	su -s /bin/sh nobody -c "$ISMCTL dev add loopback x"
refused "unprivileged stats reset: EPERM" 1 "not permitted" \
	su -s /bin/sh nobody -c "$ISMCTL stats reset"
refused "unprivileged dev del: EPERM" 1 "not permitted" \
	su -s /bin/sh nobody -c "$ISMCTL dev del ismlo0"
su -s /bin/sh nobody -c "$ISMCTL -j dev" >/tmp/nobody.json &&
	json_flat /tmp/nobody.json &&
	[ -n "$(jidx /tmp/nobody.json.flat name ismlo0)" ] &&
	ok "unprivileged ismctl -j dev" || bad "unprivileged ismctl -j dev"
# DMB tokens and peer GIDs let a peer write into a DMB: only callers with
# CAP_NET_ADMIN get them. An unprivileged dump lists the same DMBs
# without them; root's has them.
isj rdmb dmb || bad "ismctl -j dmb as root"
R=/tmp/rdmb.json.flat
U=/tmp/udmb.json.flat
if su -s /bin/sh nobody -c "$ISMCTL -j dmb" >/tmp/udmb.json 2>/tmp/udmb.err &&
   json_flat /tmp/udmb.json; then
	ok "unprivileged ismctl -j dmb"
else
	cat /tmp/udmb.err
	bad "unprivileged ismctl -j dmb"
fi
eq "root's DMB dump: tokens" "$(jcount $R token)" 4
eq "root's DMB dump: rgids" "$(jcount $R rgid)" 4
eq "unprivileged DMB dump: the same DMBs (indexes)" \
	"$(jvalues $U index | tr '\n' ' ')" "$(jvalues $R index | tr '\n' ' ')"
eq "unprivileged DMB dump: the same owners" \
	"$(jvalues $U owner | uniq -c | tr -s ' ')" " 4 $TC"
eq "unprivileged DMB dump: no token key" "$(grep -c '^[0-9]*/token=' $U)" 0
eq "unprivileged DMB dump: no rgid key" "$(grep -c '^[0-9]*/rgid=' $U)" 0
su -s /bin/sh nobody -c "$ISMCTL dmb" >/tmp/udmb.txt 2>&1
eq "unprivileged ismctl dmb (text): 4 DMBs" "$(grep -c " $TC " /tmp/udmb.txt)" 4
grep -qE '0x[0-9a-f]{16}' /tmp/udmb.txt &&
	{ cat /tmp/udmb.txt; bad "unprivileged ismctl dmb (text) shows tokens"; } ||
	ok "unprivileged ismctl dmb (text): no token"

# ---- malformed requests ----
ktap_relay nlbad ism_nlbad
eq "ism_nlbad exit status" $? 0

# ---- devices at run time, with the SMC-D bridge where it is built ----
bridge=
smc_bridge && bridge="ib_core smc ism_smcd"
# shellcheck disable=SC2086 # module names
[ -z "$bridge" ] || ism-load $bridge || bad "ism-load $bridge"
check "dev add loopback lo2" ismctl dev add loopback lo2
isj dev -s dev || bad "ismctl -j -s dev with lo2"
eq "lo2: type" "$(dev_field lo2 type)" loopback
eq "lo2: dmbs ($TC's)" "$(dev_field lo2 dmbs)" 4
has_client lo2 $TC && ok "lo2: clients has $TC" || bad "lo2: clients"
[ "$(dev_field lo2 gid)" != "$gid" ] && ok "lo2: a GID of its own" ||
	bad "lo2: same GID as ismlo0"
isj cl client || bad "ismctl -j client with lo2"
eq "lo2: $TC devs" "$(client_field $TC devs)" 2
eq "lo2: $TC dmbs" "$(client_field $TC dmbs)" 8
if [ -z "$bridge" ]; then
	skip "lo2: SMC-D device ism-lo2" "$SMC_NO_BRIDGE"
elif { smc_info dev >/tmp/smcdev 2>&1; grep -q ism-lo2 /tmp/smcdev; }; then
	ok "lo2: SMC-D device ism-lo2"
else
	cat /tmp/smcdev
	bad "lo2: smc_info dev"
fi
isj dmb dmb dev lo2 || bad "ismctl -j dmb dev lo2"
eq "lo2: 4 DMBs" "$(jcount /tmp/dmb.json.flat token)" 4
refused "dev add of a name in use: EEXIST" 1 "File exists" \
	ismctl dev add loopback lo2
check "dev add lo3 type loopback" ismctl dev add lo3 type loopback
check "dev del lo3" ismctl dev del lo3
check "dev del lo2" ismctl dev del lo2
isj dev -s dev || bad "ismctl -j -s dev after del"
[ -z "$(jidx /tmp/dev.json.flat name lo2)" ] && ok "lo2: gone" ||
	bad "lo2: still listed"
[ -z "$(jidx /tmp/dev.json.flat name lo3)" ] && ok "lo3: gone" ||
	bad "lo3: still listed"
isj cl client || bad "ismctl -j client after del"
eq "after del: $TC devs" "$(client_field $TC devs)" 1
eq "after del: $TC dmbs" "$(client_field $TC dmbs)" 4
if [ -z "$bridge" ]; then
	skip "lo2: SMC-D device gone" "$SMC_NO_BRIDGE"
else
	smc_info dev >/tmp/smcdev 2>&1
	grep -q ism-lo2 /tmp/smcdev && bad "lo2: still an SMC-D device" ||
		ok "lo2: SMC-D device gone"
fi
refused "dev del lo2 again" 1 "ismctl: dev del lo2: " ismctl dev del lo2

# ---- a dump of thousands of DMBs ----
ism-unload $TC || bad "ism-unload $TC"
# Loaded and unloaded here, unlogged, so ism-load's counts stay even.
mod_path $TC
insmod "$MOD" dmbs=3000 dmb_len=4096 moves=0 ||
	bad "insmod $TC dmbs=3000"
line="$TC: ismlo0: dmbs=3000 moves=0 bytes=0 irqs=0 mismatches=0"
dmesg | grep -qF "$line" && ok "$TC: 3000 DMBs" || bad "$TC: 3000 DMBs"
check "ismctl -j dmb (3000 DMBs)" isj dmb dmb
F=/tmp/dmb.json.flat
eq "dmb dump: 3000 DMBs" "$(jcount $F token)" 3000
eq "dmb dump: distinct tokens" "$(jvalues $F token | uniq | wc -l)" 3000
eq "dmb dump: owners" "$(jvalues $F owner | uniq -c | tr -s ' ')" " 3000 $TC"
eq "dmb dump: text lines" "$(ismctl dmb | wc -l)" 3001
rmmod $TC || bad "rmmod $TC"
isj dmb dmb || bad "ismctl -j dmb after rmmod"
eq "dmb dump: none left" "$(jget /tmp/dmb.json.flat '')" "[]"

# ---- bad module parameters ----
for p in "dmbs=0" "size=65537" "dmb_len=0" "size=0"; do
	# shellcheck disable=SC2086
	if insmod "$MOD" $p 2>/dev/null; then
		rmmod $TC
		bad "$TC $p accepted"
	else
		ok "$TC $p refused"
	fi
done

# ---- the module's own device can go too ----
check "dev del ismlo0" ismctl dev del ismlo0
isj dev dev || bad "ismctl -j dev after del ismlo0"
[ -z "$(jidx /tmp/dev.json.flat name ismlo0)" ] && ok "ismlo0: gone" ||
	bad "ismlo0: still listed"
ktap_finish
