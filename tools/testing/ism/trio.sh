#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# trio.sh: three debug VMs on one virtual ISM region (doorbell mode),
# running the selftest pair/ivshm-trio.sh, in two acts.
#
# A guest that lost its slot writes nothing more into the region. a and b
# join and talk over SMC-D; b keeps a connection open; the host fills
# every other slot with live fake peers (test/region_attack fill), so
# the region is full, and freezes b (stops its QEMU). c, started once
# b's heartbeat stood still for longer than the peer timeout, can only
# take b's slot, and holds an SMC-D connection with a there. Then the
# host thaws b, which must find its claim taken, leave the region and
# SMC-D (closing its connection: SMC zeroes the DMB it had, which is in
# c's partition now) and talk to a over TCP. The host takes a digest of
# c's slot and partition (test/region_digest) before b runs again and
# after it is done: equal digests, c's slot the one b had, and c's
# connection intact (checksummed both ways, then pinged) say that b
# wrote nothing there.
#
# A hostile peer's token ends only its own connections. The host frees
# the fake peers' slots; b binds its device again (a fresh claim) and
# loads ism_forge (tools/testing/ism/forge): the tokens its SMC hands out
# now name a DMB of c's, then of an empty slot, then of a's own slot.
# a's writes for b's connections are refused: a must end them, on both
# ends, while c's connection with a, held meanwhile, goes on intact.
#
# The three console logs are judged like the debug VM's (parse-log.py).
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/region.sh"

label="virtual ISM trio"
region_prepare "trio" || exit 1

region_start doorbell "$logs" || { result fail "$label" "no region"; exit 1; }

# guest ROLE HUB-PORT KERNEL-ARGS...: boot one guest in the background,
# with RCU's stall report at 60 s as in pair.sh
guest() {
	_role=$1
	_port=$2
	shift 2
	region_guest "$_role" "$_port" "$ISM_KTREE/arch/x86/boot/bzImage" \
		"$logs/initramfs.cpio" "$logs/$_role.log" ism.mode=pair \
		ism.e2e_timeout=1500 rcupdate.rcu_cpu_stall_timeout=60 \
		"ism.env=ISM_PAIR_TEST=trio,ISM_PAIR_ROLE=$_role" "$@"
}

# slot_of ROLE: the slot the driver of guest ROLE logged it took first
slot_of() {
	sed -n 's/.*ism_ivshm .*, slot \([0-9]*\) of .*/\1/p' "$logs/$1.log" |
		head -n 1
}

# digest: region_digest of c's slot, also appended to digest.log
digest() {
	# shellcheck disable=SC2154 # region: set by region_start
	"$ISM_ROOT/tools/ivshmem/test/region_digest" "$(slot_of c)" "$region" |
		tee -a "$logs/digest.log"
}

guest a hub1 &
a_pid=$!
guest b hub2 &
b_pid=$!
fill_pid=''
if wait_line "$logs/b.log" 'trio: fill the region' $b_pid; then
	"$ISM_ROOT/tools/ivshmem/test/region_attack" fill -s 1800 "$region" \
		>"$logs/fill.log" 2>&1 &
	fill_pid=$!
fi
c_pid=''
if wait_line "$logs/b.log" 'trio: freeze this guest' $b_pid; then
	region_freeze b
	log "trio: b frozen; c starts once b's heartbeat stood still for 5 s"
	sleep 5
	guest c hub3 &
	c_pid=$!
fi
: >"$logs/digest.log"
before='' after=''
if [ -n "$c_pid" ] &&
	wait_line "$logs/c.log" 'trio: the newcomer holds its connection' $c_pid; then
	before=$(digest)
fi
region_thaw b
if [ -n "$before" ] &&
	wait_line "$logs/b.log" 'trio: the old guest is done' $b_pid; then
	after=$(digest)
fi
# The second act: b binds its device again, in a slot the fake peers free.
fill_rc=1
if [ -n "$fill_pid" ]; then
	kill -TERM $fill_pid
	wait $fill_pid
	fill_rc=$?
fi
wait $a_pid
a_rc=$?
wait $b_pid
b_rc=$?
c_rc=1
[ -z "$c_pid" ] || { wait $c_pid; c_rc=$?; }

rc=0
if [ $fill_rc -ne 0 ] || ! grep -q 'fake peers in [1-9]' "$logs/fill.log"; then
	result fail "$label: the host filled the region" "see $logs/fill.log"
	rc=1
else
	result ok "$label: the host filled the region" "$(head -n 1 "$logs/fill.log")"
fi
if [ -z "$(slot_of c)" ] || [ "$(slot_of c)" != "$(slot_of b)" ]; then
	result fail "$label: c took b's slot" \
		"b's slot '$(slot_of b)', c's '$(slot_of c)'"
	rc=1
else
	result ok "$label: c took b's slot" "slot $(slot_of c)"
fi
if [ -z "$before" ] || [ "$before" != "$after" ]; then
	result fail "$label: c's slot and partition untouched by the lost b" \
		"see $logs/digest.log"
	rc=1
else
	result ok "$label: c's slot and partition untouched by the lost b" \
		"${before#region_digest: }"
fi
# judge ROLE RUN-VM-STATUS: region_judge, failing the run
judge() {
	region_judge "$label" "$logs" "$1" "$2" || rc=1
}
judge a $a_rc
judge b $b_rc
judge c $c_rc
exit $rc
