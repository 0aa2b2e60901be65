#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ivshm-kunit.sh: the KUnit suites of the virtual ISM device
# (ism_ivshm_kunit.ko) in a debug VM with two ivshmem-plain functions
# that map one 16 MiB region file, and a third that maps another; the
# driver formats both (ism_ivshm.format=1). ism_ivshm_peers and
# ism_ivshm_hostile then run between two real devices of one region, as
# two guests' would, with a device of another region beside them, and
# must not be skipped (ism_ivshm_kunit.need_peers=1). Then the e2e test
# ivshm-full.sh fills the devices' DMB space. Console log:
# build/debug/ivshm-kunit/vm.log.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/region.sh"

label="virtual ISM KUnit, two devices of one region"
out=$ISM_BUILD/debug
logs=$out/ivshm-kunit
qemu_accel || exit 1
ksrc && ktree || exit 1
mkdir -p "$logs"
stage_initramfs "$ISM_KTREE" "$out" "$logs/modroot" "$logs/initramfs.cpio" ||
	exit 1

dir=$(mktemp -d /dev/shm/ism-kunit.XXXXXX)
trap 'rm -rf "$dir"' EXIT
truncate -s 16M "$dir/region" "$dir/other"
ISM_QEMU_ARGS="$(ivshmem_plain iv0 "$dir/region" 16M) $(ivshmem_plain iv1 "$dir/region" 16M) $(ivshmem_plain iv2 "$dir/other" 16M)" \
	"$ISM_TESTDIR/run-vm.sh" \
	"$ISM_KTREE/arch/x86/boot/bzImage" "$logs/initramfs.cpio" \
	"$logs/vm.log" ism.mode=test ism.suite=ism_ivshm_kunit ism.e2e_only=ivshm-full \
	ism_ivshm.format=1 ism_ivshm.format_peers=8 ism_ivshm_kunit.need_peers=1
vm_rc=$?
"$ISM_TESTDIR/parse-log.py" --kunit --ksrc "$ISM_KSRC" --results "$ISM_RESULTS" \
	"$label" "$logs/vm.log"
(judge_vm $vm_rc $? "$label" "$logs/vm.log")
