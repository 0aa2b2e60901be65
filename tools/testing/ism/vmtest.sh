#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vmtest.sh test|shell: boot the debug test kernel with our modules (see
# init for the modes) and judge the console log.
# SUITE=GLOB loads only the matching KUnit modules. ISM_APPEND adds
# kernel arguments, e.g. module parameters (ism_lo.max_dmbs=100).
# ISM_REUSE_BUILD=1 uses the modules already in $ISM_BUILD/debug (make
# check's lint build).
set -u
. "$(dirname "$0")/lib.sh"

mode=${1:-test}
out=$ISM_BUILD/debug
qemu_accel || exit 1
ksrc || exit 1
tree=$ISM_KSRC

if [ "${ISM_REUSE_BUILD:-0}" != 1 ]; then
	"$ISM_TESTDIR/build-modules.sh" "$tree" "$out" || exit 1
fi
progs=$("$ISM_TESTDIR/tools.sh") || { log "vmtest: building the tools failed"; exit 1; }
kver=$(cat "$tree/include/config/kernel.release")
"$ISM_TESTDIR/modstage.sh" "$tree" "$kver" - "$out" "$out/modroot" || exit 1
# shellcheck disable=SC2086
"$ISM_TESTDIR/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$out/modroot" $progs || exit 1

args="ism.mode=$mode${SUITE:+ ism.suite=$SUITE}${ISM_APPEND:+ $ISM_APPEND}"
args="$args${ISM_E2E_TIMEOUT:+ ism.e2e_timeout=$ISM_E2E_TIMEOUT}"
if [ "$mode" = shell ]; then
	exec "$ISM_TESTDIR/run-vm.sh" "$tree/arch/x86/boot/bzImage" \
		"$out/initramfs.cpio.gz" - ism.shell=1 ${SUITE:+ism.suite=$SUITE} \
		${ISM_APPEND:-}
fi

log "vmtest: booting the test kernel ($args); console log: $out/vm.log"
"$ISM_TESTDIR/run-vm.sh" "$tree/arch/x86/boot/bzImage" \
	"$out/initramfs.cpio.gz" "$out/vm.log" $args
vm_rc=$?
# SUITE=none: no KUnit suite was wanted (ism.e2e_only picks e2e tests).
kunit=--kunit
[ "${SUITE:-}" = none ] && kunit=
"$ISM_TESTDIR/parse-log.py" $kunit --ksrc "$ISM_KSRC" --results "$ISM_RESULTS" debug-vm "$out/vm.log"
judge_vm $vm_rc $? test "$out/vm.log"
