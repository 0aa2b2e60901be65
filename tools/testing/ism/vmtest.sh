#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vmtest.sh test|shell: boot the debug test kernel with our modules (see
# init for the modes) and judge the console log.
# SUITE=GLOB loads only the matching KUnit modules; SUITE=FOLDER
# (drivers/ism/lo) those built in its tests/ folders. ISM_APPEND adds
# kernel arguments, e.g. module parameters (ism_lo.max_dmbs=100).
# ISM_REUSE_BUILD=1 uses the modules already in $ISM_BUILD/debug (make
# check's lint build). ISM_SHARDS=N (test mode, all suites and e2e tests)
# shares the work among N VMs run at once (see ism.shard in init), whose
# console logs are vm.1.log ... vm.N.log: under TCG one VM uses little
# more than one host CPU.
# ISM_SERIES=6.12 boots the test kernel of that series (build-kernel.sh
# x86_64 6.12) instead of 6.1's, its modules in $ISM_BUILD/debug-6.12
# and its results named "debug-vm 6.12" and "kunit 6.12".
set -u
. "$(dirname "$0")/lib.sh"

mode=${1:-test}
case ${ISM_SHARDS:-1} in
'' | *[!0-9]* | 0*)
	log "vmtest: ISM_SHARDS must be a number from 1, not '${ISM_SHARDS:-}'"
	exit 1 ;;
esac
if [ -n "${SUITE:-}" ]; then
	SUITE=$(suite_glob "$SUITE") || exit 1
fi
qemu_accel || exit 1
ksrc || exit 1
series=${ISM_SERIES:-${ISM_KERNEL_SERIES%% *}}
out=$ISM_BUILD/debug name=debug-vm tag=kunit
tree=$("$ISM_TESTDIR/build-kernel.sh" x86_64 "$series") || exit 1
if [ "$series" != "${ISM_KERNEL_SERIES%% *}" ]; then
	out=$ISM_BUILD/debug-$series name="debug-vm $series" tag="kunit $series"
	# Its kernel has no SMC (kernel-6.12.config): no in-tree module
	# goes before ours.
	ISM_KMODS=
	export ISM_KMODS
fi

stage_initramfs "$tree" "$out" "$out/modroot" "$out/initramfs.cpio" || exit 1

args="ism.mode=$mode${SUITE:+ ism.suite=$SUITE}${ISM_APPEND:+ $ISM_APPEND}"
args="$args${ISM_E2E_TIMEOUT:+ ism.e2e_timeout=$ISM_E2E_TIMEOUT}"
if [ "$mode" = shell ]; then
	exec "$ISM_TESTDIR/run-vm.sh" "$tree/arch/x86/boot/bzImage" \
		"$out/initramfs.cpio" - ism.shell=1 ${SUITE:+ism.suite=$SUITE} \
		${ISM_APPEND:-}
fi

# SUITE=none: no KUnit suite was wanted (ism.e2e_only picks e2e tests).
kunit=--kunit
[ "${SUITE:-}" = none ] && kunit=
# Only a whole test run is shared out.
shards=1
if [ "$mode" = test ] && [ -z "${SUITE:-}" ]; then
	case ${ISM_APPEND:-} in
	*ism.e2e_only=*) ;;
	*) shards=${ISM_SHARDS:-1} ;;
	esac
fi
# One VM's console log, results label and kernel argument; a lone VM's
# are vm.log and debug-vm, without ism.shard.
vm_log() {
	if [ "$shards" -eq 1 ]; then echo "$out/vm.log"; else echo "$out/vm.$1.log"; fi
}
vm_label() {
	if [ "$shards" -eq 1 ]; then echo "$name"; else echo "$name $1/$shards"; fi
}
vm_shard() {
	[ "$shards" -eq 1 ] || echo "ism.shard=$1/$shards"
}

logs=$(vm_log 1)
[ "$shards" -eq 1 ] || logs="$logs ... $(vm_log "$shards")"
log "vmtest: booting the test kernel ($args) in $shards VM(s); console log: $logs"
k=1
while [ $k -le "$shards" ]; do
	# shellcheck disable=SC2046 # vm_shard: one word or none
	"$ISM_TESTDIR/run-vm.sh" "$tree/arch/x86/boot/bzImage" \
		"$out/initramfs.cpio" "$(vm_log $k)" $args $(vm_shard $k) &
	eval "pid_$k=\$!"
	k=$((k + 1))
done
rc=0
k=1
while [ $k -le "$shards" ]; do
	wait "$(eval echo "\$pid_$k")"
	vm_rc=$?
	# The KUnit modules load in the first VM only.
	flag=
	[ $k -eq 1 ] && flag=$kunit
	"$ISM_TESTDIR/parse-log.py" $flag --kunit-tag "$tag" --ksrc "$ISM_KSRC" \
		--results "$ISM_RESULTS" \
		"$(vm_label $k)" "$(vm_log $k)"
	(judge_vm $vm_rc $? "test ($(vm_label $k))" "$(vm_log $k)") || rc=1
	k=$((k + 1))
done
exit $rc
