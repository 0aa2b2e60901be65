#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pair.sh [doorbell|plain]: the two-guest test of the virtual ISM device
# (ism_ivshm). Two debug VMs share a 64 MiB region: through
# ism-ivshmem-server and ivshmem-doorbell (doorbell mode, the default),
# or as a file mapped by ivshmem-plain (plain mode, polling). A UDP
# virtio-net link between them carries SMC's TCP handshake. Each runs the
# selftest pair/ivshm-pair.sh in its role (a, b); once b has begun its
# endless transfer (and the host saw both in the region it formatted
# with ism-region: show and check) its QEMU is killed, and a restarted b (role b2) must
# rejoin the region and talk to a. During one of its transfers b2 is
# paused for 8 s (its QEMU stopped), past the peer timeout of 3 s: both
# ends must end that transfer. Then test/region_attack makes its aimed
# attacks as b2 (or a) announces each, ringing the guests' doorbells in
# doorbell mode: every live DMB descriptor rewritten during a transfer,
# fake peers coming and going in the free slots for 6 s, a flood of
# events into a's queues for 12 s (15 events a batch, 30,000 a second),
# SMC's SHUTDOWN spoofed both ways, the driver's fence spoofed both
# ways, a signal storm and garbage
# queue heads for 3 s each, b2's claim of its slot taken. Each attack
# must have run (a result line each: its status and its counts) and
# shown on the guests, whose traffic it hit was SMC-D. Last, while a
# and b2 run traffic, test/region_scribble overwrites the region's
# metadata for 8 s. In doorbell mode the guests have a second region
# (region.sh, "second"), which carries b2's SMC-D traffic once its claim
# of the first was taken, through the scribbling: that traffic must
# stay intact. The
# console logs of a and b2 are judged like the debug VM's (parse-log.py),
# b's, cut short by the kill, for kernel reports and its checks so far.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/region.sh"

mode=${1:-doorbell}
case $mode in
doorbell | plain) ;;
*) log "pair: the mode is doorbell or plain, not '$mode'"; exit 1 ;;
esac
label="virtual ISM pair ($mode)"
region_prepare "pair-$mode" || exit 1

# In doorbell mode the guests share a second region too, another trust
# domain: the traffic over it must not notice the attacks on the first.
# In plain mode they poll every millisecond, not every 200 us: the
# polls of four emulated guests would take much of two CPUs.
second='' poll=''
if [ "$mode" = plain ]; then
	poll=ism_ivshm.poll_us=1000
else
	second=second
fi
region_start "$mode" "$logs" $second || { result fail "$label" "no region"; exit 1; }

# guest ROLE END KERNEL-ARGS...: boot one guest in the background. Up
# to four debug guests share two CPUs under TCG (make check runs both
# modes at once): RCU's stall report waits 60 s rather than 21 s, as a
# vCPU starved by the host for 26 s was reported once.
guest() {
	_role=$1
	_end=$2
	shift 2
	region_guest "$_role" "$_end" "$ISM_KTREE/arch/x86/boot/bzImage" \
		"$logs/initramfs.cpio" "$logs/$_role.log" ism.mode=pair ism.e2e_timeout=1500 \
		rcupdate.rcu_cpu_stall_timeout=60 \
		"ism.env=ISM_PAIR_ROLE=$_role,ISM_IVSHM_PCI=$region_pci,ISM_IVSHM_PCI2=$region2_pci" \
		${poll:+"$poll"} "$@"
}
guest a 0 &
a_pid=$!
guest b 1 &
b_pid=$!

# b announces its endless transfer; a few seconds in, it dies.
view=1
wait_line "$logs/b.log" 'pair: the endless transfer begins' $b_pid && sleep 5 &&
	region_view "$label" "$logs" 2 && view=0
region_kill b
wait $b_pid
log "pair: b's QEMU killed on purpose: its run-vm lines above say so"
guest b2 1 &
b2_pid=$!
wait_line "$logs/b2.log" 'pair: the pause begins' $b2_pid &&
	sleep 3 && region_pause b2 8
# attack MIN MODE ARGS...: attack_region (region.sh): a result line
# says whether it ran, doing MIN things at least; any that did not fails
# the run. The attack must also show on the guests, which check it.
attacks_ran=0
attack() {
	attack_region "$label" "$logs" "$@" || attacks_ran=1
}
: >"$logs/attack.log"
wait_line "$logs/b2.log" 'pair: attack desc begins' $b2_pid &&
	sleep 2 && attack 2 desc
wait_line "$logs/b2.log" 'pair: attack flap begins' $b2_pid &&
	attack 100 flap -s 6
if wait_line "$logs/a.log" 'pair: attack flood on slot' $a_pid; then
	# Paced just under the receive path's budget: 15 events a batch,
	# 30,000 a second, each batch with a doorbell in doorbell mode. A
	# receiver that starts a pass per doorbell or poll takes them all.
	attack 20000 flood -s 12 "$(sed -n 's/.*pair: attack flood on slot \([0-9]*\).*/\1/p' \
		"$logs/a.log" | head -n 1)"
fi
wait_line "$logs/b2.log" 'pair: attack shutdown begins' $b2_pid &&
	sleep 2 && attack 2 shutdown
wait_line "$logs/b2.log" 'pair: attack fence begins' $b2_pid &&
	sleep 2 && attack 2 fence
wait_line "$logs/b2.log" 'pair: attack storm begins' $b2_pid &&
	sleep 1 && attack 100 storm -s 3
if wait_line "$logs/b2.log" 'pair: attack cookie on slot' $b2_pid; then
	attack 0 cookie "$(sed -n 's/.*pair: attack cookie on slot \([0-9]*\).*/\1/p' \
		"$logs/b2.log" | head -n 1)"
fi
if wait_line "$logs/b2.log" 'pair: the hostile phase begins' $b2_pid; then
	# shellcheck disable=SC2154 # region: set by region_start
	"$ISM_ROOT/tools/ivshmem/test/region_scribble" -s 8 "$region" \
		>"$logs/scribble.log" 2>&1
	tail -n 1 "$logs/scribble.log" >&2
fi
wait $a_pid
a_rc=$?
wait $b2_pid
b2_rc=$?

rc=$((attacks_ran | view))
# judge ROLE RUN-VM-STATUS: region_judge, failing the run
judge() {
	region_judge "$label" "$logs" "$1" "$2" || rc=1
}
judge a $a_rc
judge b2 $b2_rc
if ! grep -q 'ism-test: begin' "$logs/b.log" 2>/dev/null; then
	result fail "$label b (killed)" "it never ran: see $logs/b.log"
	rc=1
elif grep -E -f "$ISM_ROOT/tools/testing/selftests/ism/lib/kernel-reports" \
	"$logs/b.log" >&2; then
	result fail "$label b (killed)" "kernel reports in $logs/b.log"
	rc=1
elif grep -B 8 'ism-ktap: not ok ' "$logs/b.log" >&2; then
	# Its checks before the kill count: a's end of a connection can
	# pass where b's fails.
	result fail "$label b (killed)" "checks failed before the kill: $logs/b.log"
	rc=1
else
	result ok "$label b (killed)" "no kernel report and every check ok before the kill"
fi
exit $rc
