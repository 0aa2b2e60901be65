#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# accel.sh: decide which QEMU accelerator the test VMs use. Prints kvm
# or tcg on stdout and one line saying why on stderr. Scripts call it
# through qemu_accel (lib.sh), so one make run decides once.
#
# ISM_QEMU_ACCEL=tcg forces TCG. ISM_QEMU_ACCEL=kvm forces KVM, but KVM
# is still probed, and a failed probe is an error (exit 1) rather than a
# VM that hangs until ISM_VM_TIMEOUT. Unset: KVM when the probe passes,
# else TCG.
#
# Why probe: a writable /dev/kvm does not mean KVM runs guests. Under
# some nested hypervisors every guest stops after "Probing EDD" and
# prints nothing more. So the probe boots a kernel (ISM_PROBE_KERNEL,
# default Debian's newest /boot/vmlinuz-*-amd64 of the series the
# modules build for) under KVM, through
# run-vm.sh with the same QEMU options as the tests, with a bare
# initramfs whose /init (ism.mode=probe) prints its end marker and
# powers off; KVM only if that marker arrives within
# ISM_KVM_PROBE_TIMEOUT seconds (default 30). A guest that has printed
# nothing after ISM_KVM_PROBE_QUIET seconds (default 10; a working KVM
# guest prints its first line within a second or two) is stopped then:
# a hung one keeps a host CPU busy, which the builds running alongside
# would miss.
# The console log stays in $ISM_BUILD/accel-probe.log.
# ISM_KVM_DEV (default /dev/kvm) is for accel-test.sh.
set -u
. "$(dirname "$0")/lib.sh"

want=${ISM_QEMU_ACCEL:-}
kvm_dev=${ISM_KVM_DEV:-/dev/kvm}
limit=${ISM_KVM_PROBE_TIMEOUT:-30}
quiet=${ISM_KVM_PROBE_QUIET:-10}
probe_log=$ISM_BUILD/accel-probe.log

# choose ACCEL REASON: the verdict. A forced kvm that could not be
# given fails instead.
choose() {
	if [ "$want" = kvm ] && [ "$1" != kvm ]; then
		log "accel: ISM_QEMU_ACCEL=kvm cannot be honoured: $2"
		exit 1
	fi
	log "accel: $1: $2"
	echo "$1"
	exit 0
}

case $want in
'' | kvm) ;;
tcg) choose tcg "forced by ISM_QEMU_ACCEL=tcg" ;;
*)
	log "accel: ISM_QEMU_ACCEL must be kvm or tcg, not '$want'"
	exit 1
	;;
esac

[ -e "$kvm_dev" ] || choose tcg "no $kvm_dev"
if [ ! -r "$kvm_dev" ] || [ ! -w "$kvm_dev" ]; then
	choose tcg "$kvm_dev is not readable and writable by $(id -un)"
fi
kernel=${ISM_PROBE_KERNEL:-/boot/vmlinuz-$(for k in /boot/vmlinuz-*-amd64; do
	echo "${k#/boot/vmlinuz-}"; done | kernel_newest)}
[ -r "$kernel" ] ||
	choose tcg "no kernel to probe KVM with: '$kernel' (apt-get install linux-image-amd64, or set ISM_PROBE_KERNEL)"

mkdir -p "$ISM_BUILD"
initrd=$(mktemp "$ISM_BUILD/accel-probe.XXXXXX")
trap 'rm -f "$initrd"' EXIT
"$ISM_TESTDIR/mkinitramfs.sh" "$initrd" || choose tcg "making the probe's initramfs failed"

start=$(date +%s)
: >"$probe_log"
ISM_ACCEL_CHOSEN=kvm ISM_VM_TIMEOUT=$limit ISM_VM_MEM=256 \
	"$ISM_TESTDIR/run-vm.sh" "$kernel" "$initrd" "$probe_log" ism.mode=probe 2>/dev/null &
vm=$!
# Seconds counted in sleeps, not read off the clock: date's whole
# seconds can make "1 s" last a hair, less than QEMU needs to start.
silent=0 waited=0
while kill -0 $vm 2>/dev/null; do
	if [ $waited -ge "$quiet" ] && ! grep -q '[^[:space:]]' "$probe_log"; then
		# run-vm.sh's timeout passes the signal on to QEMU.
		pkill -TERM -P $vm
		silent=1
		break
	fi
	sleep 1
	waited=$((waited + 1))
done
wait $vm
took=$(($(date +%s) - start))
[ $silent = 1 ] && choose tcg "$kvm_dev present but the probe guest printed nothing in $quiet s"
# The marker is the guest /init's last line, so userspace ran to the end.
grep -q 'ism-test: done' "$probe_log" &&
	choose kvm "probe booted $(basename "$kernel") in $took s"
# What the guest or QEMU said last, QEMU's note that it was killed
# aside: "failed to initialize kvm" and the like when QEMU gives up.
last=$(grep -v -e '^[[:space:]]*$' -e '^run-vm:' -e 'terminating on signal' \
	"$probe_log" | tail -n 1 | tr -d '\r')
if ! grep -q '^run-vm: TIMEOUT' "$probe_log"; then
	choose tcg "$kvm_dev present but QEMU failed under KVM (last line: '$last'; log: $probe_log)"
elif [ -z "$last" ]; then
	choose tcg "$kvm_dev present but the probe guest printed nothing in $limit s"
fi
choose tcg "$kvm_dev present but the probe guest did not boot to its marker in $limit s (last line: '$last'; log: $probe_log)"
