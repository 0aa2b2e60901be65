#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: random sequences of /dev/ism calls. For ISM_USER_FUZZ_SECS seconds
# (default 10; make stress: 60; longer, up to six times that, until each
# process has made each kind of call), ism_user_fuzz (tools/testing/ism) runs
# three processes' random calls, bad arguments among them, on the
# loopback devices ismlo0 and fz1, while this script deletes fz1 and adds
# it again every second or so. Every result must be one the call may
# return (ism_user_fuzz checks it, and what MOVE wrote, and which
# mappings raise SIGBUS); each process must have made each kind of call;
# nothing may be left on either device after; no kernel report (KASAN,
# lockdep, UBSAN, kmemleak). ISM_USER_FUZZ_SEED repeats a run's sequence
# (printed, as is each worker's own seed).
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/kmsg.sh"

secs=${ISM_USER_FUZZ_SECS:-10}
seed=${ISM_USER_FUZZ_SEED:-$(date +%s)}

# dmbs DEV: the DMBs registered on DEV, all clients' (sysfs)
dmbs() {
	cat "/sys/class/ism/$1/dmbs"
}

kmsg_mark user-fuzz
ism-load ism_core ism_lo ism_user ||
	{ bad "ism-load ism_core ism_lo ism_user"; ktap_finish; }
check "ismctl dev add loopback fz1" ismctl dev add loopback fz1
wait_for 10 test -c /dev/ism/fz1 && wait_for 10 test -c /dev/ism/ismlo0 &&
	ok "/dev/ism/ismlo0 and /dev/ism/fz1 are there" ||
	{ bad "no /dev/ism/ismlo0 or /dev/ism/fz1"; ktap_finish; }
before=$(dmbs ismlo0)

echo "# ism_user_fuzz $secs $seed ismlo0 fz1"
ism_user_fuzz "$secs" "$seed" ismlo0 fz1 >/tmp/fuzz.out 2>&1 &
fuzz=$!
cycles=0 fails=0
while kill -0 $fuzz 2>/dev/null; do
	sleep 1
	ismctl dev del fz1 && sleep 0.2 && ismctl dev add loopback fz1 ||
		fails=$((fails + 1))
	cycles=$((cycles + 1))
done
wait $fuzz
rc=$?
cat /tmp/fuzz.out
# The first wrong result, if any, named in the case for the summaries.
first=$(sed -n 's/^# \(seed [0-9]*[ :].*\)/\1/p' /tmp/fuzz.out | head -n 1 | tr -d '#')
eq "ism_user_fuzz, seed $seed: every result one the call may return${first:+ (first: $first)}" \
	$rc 0
eq "fz1 deleted and added again $cycles times" $fails 0

# made_all N: worker N made each kind of call at least once
made_all() {
	_line=$(grep "^# worker $1 " /tmp/fuzz.out) || return 1
	! echo "$_line" | grep -q '=0\b'
}
for w in 0 1 2; do
	check "worker $w made every kind of call" made_all $w
done
eq "no DMB left on ismlo0" "$(dmbs ismlo0)" "$before"
check "ismctl dev del fz1" ismctl dev del fz1
check "no kernel report" kmsg_clean user-fuzz
ism-unload ism_user ism_lo ism_core || bad "ism-unload"
calls=$(sed -n 's/^# worker [0-9]* (seed [0-9]*): \([0-9]*\) calls .*/\1/p' /tmp/fuzz.out |
	awk '{ n += $1 } END { print n + 0 }')
echo "# summary user_fuzz_calls=$calls"
# The longest worker's time: the run goes on past $secs on a slow machine.
took=$(sed -n 's/^# worker .* calls in \([0-9]*\) s:.*/\1/p' /tmp/fuzz.out |
	sort -n | tail -n 1)
echo "# summary user_fuzz_secs=${took:-$secs}"
ktap_finish
