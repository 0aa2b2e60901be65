#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vms-debug.sh [doorbell|plain...]: make check-vms's guests of the debug
# test kernel, on regions this harness makes and serves (vms-test.sh
# runs it first): the two-guest test of the virtual ISM device
# (pair.sh), in doorbell and plain mode (or those named) side by side,
# and, with doorbell mode, its three-guest test (trio.sh), all with
# KASAN, lockdep, UBSAN and kmemleak watching. Their result lines go to
# $ISM_RESULTS, their output after them. Our modules are built against
# the test kernel first, unless they were from these sources already
# (make check's, modules_current).
set -u
. "$(dirname "$0")/lib.sh"

if ! qemu_accel || ! ksrc || ! ktree; then
	result fail "vms: debug guests" "no accelerator or no test kernel"
	exit 1
fi
out=$ISM_BUILD/debug
if ! modules_current "$ISM_KTREE" "$out" &&
	! "$ISM_TESTDIR/build-modules.sh" "$ISM_KTREE" "$out"; then
	result fail "vms: debug guests: our modules against the test kernel" "build failed"
	exit 1
fi
if ! "$ISM_TESTDIR/tools.sh" >/dev/null; then
	result fail "vms: debug guests: the tools" "build failed"
	exit 1
fi
# The runs at once must not rebuild what they share.
ISM_TOOLS_BUILT=1 ISM_REUSE_BUILD=1
export ISM_TOOLS_BUILT ISM_REUSE_BUILD

# Doorbell and plain mode side by side: their guests often wait for
# each other, so two runs keep the CPUs busier than one. The plain run
# starts once the doorbell run's guests are past their first SMC-D
# connection, the three-guest test once the plain run's are: four
# debug kernels booting at once on two CPUs starved a vCPU long enough
# for RCU to report a stall, and SMC's handshake waits at most 6 s for
# each CLC message (CLC_WAIT_TIME) before it falls back to TCP, which
# the tests count as a failure.
# settled LOGDIR: both guests of the pair run logging to LOGDIR have
# checked their first connection (ok or not)
settled() {
	for _g in a b; do
		grep -qs 'ism-ktap: .*ok [0-9]* SMC-D end of the connection' \
			"$1/$_g.log" || return 1
	done
}
modes=${*:-doorbell plain}
pids='' outs=''
for m in $modes; do
	# Not the last run's logs, which pair.sh removes only later.
	rm -f "$out/pair-$m"/*.log
	accounted "virtual ISM pair ($m)" "$ISM_BUILD/pair-$m.out" \
		"$ISM_TESTDIR/pair.sh" "$m" &
	pids="$pids $!" outs="$outs $ISM_BUILD/pair-$m.out"
	i=0
	while [ $i -lt 600 ] && kill -0 $! 2>/dev/null && ! settled "$out/pair-$m"; do
		i=$((i + 1))
		sleep 0.5
	done
done
case " $modes " in
*" doorbell "*)
	accounted "virtual ISM trio" "$ISM_BUILD/trio.out" "$ISM_TESTDIR/trio.sh" &
	pids="$pids $!" outs="$outs $ISM_BUILD/trio.out"
	;;
esac
rc=0
for p in $pids; do
	wait "$p" || rc=1
done
# shellcheck disable=SC2086 # paths without blanks
cat $outs
exit $rc
