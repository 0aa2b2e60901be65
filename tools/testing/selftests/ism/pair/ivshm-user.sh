#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One guest of two on a virtual ISM region (ism_ivshm), in user space
# only (ism_user, /dev/ism, libism's programs), no SMC: what works on
# every kernel we build for, between guests of different kernels.
# tools/testing/ism/mixed.sh boots a on Debian's 6.1 and b on its 6.12.
# ISM_PAIR_ROLE says which guest this is:
#   a   10.77.0.1: the server of ism_lat (which waits for b as long as
#       b may take to boot; the runs after it start in step), ism_hello
#       (whose line must name b's kernel) and ism_bw with --verify (b
#       writes into a's DMB), then the client of b's ism_bw
#   b   10.77.0.2: their client, then the server of ism_bw with
#       --verify (a writes into b's DMB)
# Each side checks what it sees: the peer's line, the results in
# zero-copy mode (the device maps the peer's DMB), every message
# verified, and no kernel report.
ISM_LIB=$(cd "$(dirname "$0")/../lib" && pwd)
. "$ISM_LIB/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/kmsg.sh"
. "$ISM_LIB/ivshm.sh"

role=${ISM_PAIR_ROLE:?}
case $role in
a) addr=10.77.0.1 peer=10.77.0.2 ;;
b) addr=10.77.0.2 peer=10.77.0.1 ;;
*) ktap_skip "ISM_PAIR_ROLE=$role: not a or b" ;;
esac
echo "# role $role on Linux $(uname -r)"

kmsg_mark user-pair
# Every module (virtio-net's too), then ism_user, loaded on request only.
ism-load && ism-load ism_user || { bad "ism-load, ism-load ism_user"; ktap_finish; }
check "the virtio-net link is up" sh -c \
	"ip addr add $addr/24 dev eth0 && ip link set eth0 up"
check "the virtual ISM device is bound" wait_for 120 bind_ivshm
dev=$(ivshm_dev)
check "/dev/ism/$dev is there" wait_for 10 test -c "/dev/ism/$dev"
drvlog | sed 's/^/# /'

# The peer may boot a minute later under TCG: clients wait that long
# for their server (-t), servers for their client.
T=120000
# One message size and count for both ism_bw runs; 100 warm-up messages
# come before them, and --verify counts those too.
BW="-s 64k -n 300 -t $T"
BW_VERIFIED="400 messages of 65536 bytes verified"

# run NAME COMMAND...: COMMAND's output in /tmp/NAME.out; fails (and
# shows it) unless it exits 0
run() {
	_n=$1
	shift
	"$@" >"/tmp/$_n.out" 2>&1 && return 0
	sed 's/^/# /' "/tmp/$_n.out"
	return 1
}

# lat_ok: ism_lat's JSON result in zero-copy event mode, 500 round trips
lat_ok() {
	_got=$(jq -r '"\(.mode) \(.wait) \(.iterations)"' /tmp/lat.out)
	[ "$_got" = "zero-copy event 500" ] && return 0
	echo "# ism_lat: got '$_got'"
	return 1
}

if [ "$role" = a ]; then
	check "ism_lat server" run lat ism_lat -d "$dev" -p 18601 -n 500 -t $T
	run hello ism_hello -d "$dev" &&
		grep -q "^received: hello from Linux " /tmp/hello.out &&
		ok "ism_hello: the peer's line arrived: $(sed -n \
			's/^received: hello from //p' /tmp/hello.out)" ||
		bad "ism_hello server"
	# shellcheck disable=SC2086 # BW: a list of options
	run bw ism_bw -d "$dev" -p 18602 -v $BW &&
		grep -q "$BW_VERIFIED" /tmp/bw.out &&
		ok "ism_bw, the peer writing: $BW_VERIFIED" ||
		bad "ism_bw server (the peer writing)"
	# shellcheck disable=SC2086
	run bw2 ism_bw -d "$dev" -p 18603 -j $BW "$peer" &&
		ok "ism_bw, writing to the peer: $(jq -r .mode /tmp/bw2.out), $(jq -r \
			.MBps /tmp/bw2.out) MB/s" || bad "ism_bw client (writing to the peer)"
else
	if run lat ism_lat -d "$dev" -p 18601 -n 500 -t $T -j "$peer" && lat_ok; then
		ok "ism_lat: zero-copy, 500 round trips, p50 $(jq -r \
			.latency_us.p50 /tmp/lat.out) us"
	else
		bad "ism_lat client"
	fi
	check "ism_hello client" run hello ism_hello -d "$dev" "$peer" \
		"hello from Linux $(uname -r)"
	# shellcheck disable=SC2086
	run bw ism_bw -d "$dev" -p 18602 -j $BW "$peer" &&
		ok "ism_bw, writing to the peer: $(jq -r .mode /tmp/bw.out), $(jq -r \
			.MBps /tmp/bw.out) MB/s" || bad "ism_bw client (writing to the peer)"
	# shellcheck disable=SC2086
	run bw2 ism_bw -d "$dev" -p 18603 -v $BW &&
		grep -q "$BW_VERIFIED" /tmp/bw2.out &&
		ok "ism_bw, the peer writing: $BW_VERIFIED" ||
		bad "ism_bw server (the peer writing)"
fi

check "no kernel report" kmsg_clean user-pair
ism-unload || bad "ism-unload"
ktap_finish
