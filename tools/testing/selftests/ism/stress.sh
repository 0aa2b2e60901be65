#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: concurrency stress. For ISM_STRESS_SECS seconds (default 10),
# ism_stress's kthreads (tools/testing/ism/stress) register, write,
# signal, attach and unregister on every device and a second client comes
# and goes, while this script adds and deletes loopback devices with
# ismctl and unloads and reloads ism_lo. Every write, and on loopback
# devices every signal and event, is verified; the module's summary must
# show work of every kind and no failure.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"

secs=${ISM_STRESS_SECS:-10}

# field NAME: NAME=value from ism_stress's last lines in the kernel log
field() {
	sed -n "s/.*ism_stress:.*[ ]$1=\([0-9-]*\).*/\1/p" /tmp/stress.log | tail -n 1
}

ism-load ism_core ism_lo || { bad "ism-load ism_core ism_lo"; exit 1; }
check "ismctl dev add loopback st1" ismctl dev add loopback st1
ism-load ism_stress || { bad "ism-load ism_stress"; exit 1; }

end=$(($(date +%s) + secs))
cycles=0
fails=0
while [ "$(date +%s)" -lt "$end" ]; do
	ismctl dev add loopback st2 && sleep 0.3 && ismctl dev del st2 ||
		fails=$((fails + 1))
	cycles=$((cycles + 1))
	if [ $((cycles % 4)) -eq 0 ]; then
		ism-unload ism_lo >/dev/null && ism-load ism_lo >/dev/null ||
			fails=$((fails + 1))
	fi
done
[ $fails -eq 0 ] && ok "device churn: $cycles add/del cycles, $((cycles / 4)) ism_lo reloads" ||
	bad "device churn: $fails of $cycles cycles failed"

ism-unload ism_stress || bad "ism-unload ism_stress"
dmesg | grep 'ism_stress: ' >/tmp/stress.log
sed 's/^\[[ 0-9.]*\] /# /' /tmp/stress.log

for op in register unregister move move_signal attach \
	detach_after_unregister event bad_input; do
	v=$(field "$op")
	[ "${v:-0}" -gt 0 ] && ok "stress: $op done $v times" ||
		bad "stress: $op never done"
done
for f in verified irqs_checked events client_churns client_dmbs \
	client_dmbs_left client_events devs_added devs_removed devs_checked; do
	v=$(field "$f")
	[ "${v:-0}" -gt 0 ] && ok "stress: $f=$v" || bad "stress: $f=${v:-none}"
done
vf=$(field verify_failures)
un=$(field unexpected)
[ "$vf" = 0 ] && ok "stress: no verification failure" ||
	bad "stress: verify_failures=${vf:-none}"
[ "$un" = 0 ] && ok "stress: no unexpected error" ||
	bad "stress: unexpected=${un:-none}"
echo "# summary stress_ops=$(field ops)"
echo "# summary stress_ms=$(field ms)"
echo "# summary verify_failures=${vf:-1}"
echo "# summary bad_inputs=$(field bad_input)"
ktap_finish
