#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# s390x.sh: make check-s390x, our modules on a big-endian machine, the
# kind SMC-D was made for (s390x, where Linux 6.1's own ism.ko runs).
# 1. packages: deps.sh s390x (the cross compiler, qemu-system-s390x, an
#    s390x busybox);
# 2. the s390x test kernel, built once and cached like the x86 one
#    (build-kernel.sh s390x: tinyconfig, kernel.config, s390x.config:
#    what the KUnit suites need, none of the x86 kernels' bug catchers),
#    cross-built with Debian's gcc-s390x-linux-gnu;
# 3. our modules cross-built against it from a copy of the sources
#    (build-modules.sh), W=1 and sparse on every file, samples/ism out of
#    tree too: any diagnostic in our code fails, as in make lint;
# 4. an initramfs of busybox and the modules (ours, and smc.ko with what
#    it needs from the s390x tree), booted in qemu-system-s390x under
#    TCG: /init (ism.suite=*) loads ism_core, our other modules and
#    every KUnit module built, whose suites run on load, big-endian, and
#    unloads them; the e2e selftests need the x86 test programs, so they
#    stay on make check;
# 5. parse-log.py judges the console log as for the x86 VMs: the KTAP by
#    the kernel's own parser, one line per suite, and any kernel report
#    (BUG, WARNING, an oops, ...) fails; every
#    KUnit module built must have been loaded (ism_pci_kunit as soon as
#    drivers/ism/pci builds it).
# Ends with "N passed, N failed"; exits 1 on any failure. Everything
# goes under $ISM_BUILD/s390x: results, build/ (the modules' build and
# its logs), vm.log (the console).
set -u
. "$(dirname "$0")/lib.sh"
base=$ISM_BUILD/s390x
ISM_RESULTS=$base/results
export ISM_RESULTS
# kbuild takes both from the environment: every make -C TREE of the
# scripts below (build-modules.sh, modstage.sh) cross-builds for s390.
ARCH=s390
CROSS_COMPILE=s390x-linux-gnu-
export ARCH CROSS_COMPILE
# The guest's architecture, for run-vm.sh and mkinitramfs.sh.
ISM_VM_ARCH=s390x
export ISM_VM_ARCH
# Of the in-tree modules, what the SMC-D bridge needs: the kernel has
# no more (s390x.config).
ISM_KMODS=smc
export ISM_KMODS
# Under TCG an s390x guest boots in seconds and runs the KUnit modules
# in a few minutes.
ISM_VM_TIMEOUT=${ISM_VM_TIMEOUT:-900}
export ISM_VM_TIMEOUT
# Always built, so always run; any other KUnit module built must run too.
kunit_required="ism_core_kunit ism_lo_kunit"

# shellcheck disable=SC2034 # read by step and summary (lib.sh)
start=$(date +%s)
mkdir -p "$base"
: >"$ISM_RESULTS"
# Every program this run executes: deps.sh must install them all.
programs_begin "$base/programs"

step "s390x: packages"
if ! "$ISM_TESTDIR/deps.sh" s390x; then
	result fail "s390x: deps: Debian packages installed"
	summary
fi
programs_root s390x

step "s390x: test kernel"
t0=$(date +%s)
if ! tree=$("$ISM_TESTDIR/build-kernel.sh" s390x); then
	result fail "s390x: build: test kernel"
	summary
fi
result ok "s390x: build: test kernel" "$(($(date +%s) - t0)) s: $tree"

step "s390x: modules (W=1, sparse)"
mods=$base/build
t0=$(date +%s)
build_checked "$tree" "$mods" "s390x: build: modules (W=1, sparse)" W=1 C=2 CHECK=sparse
built=$(our_modules "$mods/src" 2>/dev/null | sed -n 's|.*/\([^/]*_kunit\)\.ko$|\1|p')
sample_result "$mods" "the s390x kernel"
log "s390x: modules built in $(($(date +%s) - t0)) s"
[ -n "$(our_modules "$mods/src" 2>/dev/null)" ] || summary
missing=
for k in $kunit_required; do
	echo "$built" | grep -qx "$k" || missing="$missing $k"
done
if [ -z "$missing" ]; then
	result ok "s390x: build: KUnit modules" "$(echo $built)"
else
	result fail "s390x: build: KUnit modules" "missing:$missing"
fi

step "s390x: initramfs"
kver=$(cat "$tree/include/config/kernel.release")
initrd=$base/initramfs.cpio
if ! "$ISM_TESTDIR/modstage.sh" "$tree" "$kver" - "$mods" "$base/modroot" ||
	! "$ISM_TESTDIR/mkinitramfs.sh" "$initrd" "$base/modroot"; then
	result fail "s390x: initramfs"
	summary
fi

step "s390x: the VM (qemu-system-s390x, TCG): modules and KUnit suites"
vmlog=$base/vm.log
log "s390x: console log: $vmlog"
"$ISM_TESTDIR/run-vm.sh" "$tree/arch/s390/boot/bzImage" "$initrd" "$vmlog" \
	ism.mode=test 'ism.suite=*'
vm_rc=$?
"$ISM_TESTDIR/parse-log.py" --kunit --ksrc "$tree" --results "$ISM_RESULTS" \
	s390x-vm "$vmlog"
parse_rc=$?
[ $vm_rc -eq 0 ] || result fail "s390x-vm: QEMU" "see run-vm's message above"
for k in $built; do
	if sed 's/\r$//' "$vmlog" | grep -q "ism-test: insmod ok $k\$"; then
		result ok "s390x-vm: $k loaded"
	else
		result fail "s390x-vm: $k loaded" "built but not loaded"
	fi
done
(judge_vm $vm_rc $parse_rc s390x "$vmlog") || true

step "s390x: packages: every program this run executed, in a Debian 12 root with deps.sh's packages alone"
programs_check "$base/programs" \
	"s390x: deps.sh installs every program make check-s390x ran (a Debian 12 root with its list)"
summary
