#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh KERNEL INITRD LOG [KERNEL-ARG...]
# Boot KERNEL with INITRD under QEMU; the serial console goes to LOG.
# The VM powers itself off (reboot -f with -no-reboot); after
# ISM_VM_TIMEOUT seconds (default 600 under KVM, 1800 under TCG, which
# runs the debug VM's tests in 10 to 15 minutes on a slow 2-core
# machine) it is killed and this script fails. With LOG "-" the
# console is interactive (-nographic; Ctrl-A X quits QEMU).
#
# The accelerator is decided once per make run (qemu_accel in lib.sh,
# accel.sh): KVM only where a probe guest booted under it, else TCG;
# ISM_QEMU_ACCEL=kvm|tcg forces it. The guest learns it as ism.accel=.
# The CPU model is host under KVM and max under TCG; ISM_QEMU_CPU sets
# another. ISM_QEMU_ARGS adds QEMU arguments (devices), split at blanks.
# x86_64 guests boot through qboot (QEMU's qboot.rom), not SeaBIOS.
# ISM_VM_ARCH=s390x (make check-s390x) boots an s390x kernel instead, on
# qemu-system-s390x's s390-ccw-virtio machine with its console on the
# SCLP (ttysclp0), always under TCG: an x86 host has no KVM for s390x.
set -u
. "$(dirname "$0")/lib.sh"

kernel=$1
initrd=$2
logf=$3
shift 3

if [ "${ISM_VM_ARCH:-x86_64}" = s390x ]; then
	accel=tcg
	machine="qemu-system-s390x -machine s390-ccw-virtio,accel=tcg"
	firmware=
	console=ttysclp0
else
	qemu_accel || exit 1
	accel=$ISM_ACCEL_CHOSEN
	# qboot, QEMU's firmware for booting a -kernel straight away: no
	# BIOS POST, and an MP table of every CPU besides QEMU's ACPI
	# tables, so that the test kernels, built without ACPI (x86.config),
	# run SMP; Debian's kernels take the ACPI tables as under SeaBIOS.
	machine="qemu-system-x86_64 -machine q35,accel=$accel"
	firmware="-bios qboot.rom"
	console=ttyS0
fi
cpu=max
limit=1800
if [ "$accel" = kvm ]; then
	cpu=host
	limit=600
fi
timeout_s=${ISM_VM_TIMEOUT:-$limit}
# panic=-1: reboot at once on panic, which -no-reboot turns into exit.
# oops=panic: the first oops ends the run rather than wedging it.
# printk.devkmsg=on: don't rate-limit the protocol lines from /init.
append="console=$console loglevel=7 panic=-1 oops=panic printk.devkmsg=on ism.accel=$accel $*"
# shellcheck disable=SC2086 # $machine, $firmware, ISM_QEMU_ARGS: QEMU arguments without blanks
set -- $machine -cpu "${ISM_QEMU_CPU:-$cpu}" -smp 2 \
	-m "${ISM_VM_MEM:-1024}" $firmware -no-reboot -kernel "$kernel" -initrd "$initrd" \
	-append "$append" ${ISM_QEMU_ARGS:-}

if [ "$logf" = - ]; then
	exec "$@" -nographic
fi
start=$(date +%s)
timeout -k 10 "$timeout_s" "$@" -nodefaults -display none -serial stdio \
	</dev/null >"$logf" 2>&1
rc=$?
# The CPU time tells a slow machine from a busy one: under TCG a VM
# sharing the host's CPUs takes longer for the same CPU time.
children_cpu "$logf.times"
log "run-vm: $(basename "$kernel") finished in $(($(date +%s) - start)) s, $children_cpu CPU s"
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	# On a line of its own: the console may have stopped mid-line.
	printf '\nrun-vm: TIMEOUT: killed after %s s\n' "$timeout_s" >>"$logf"
	log "run-vm: the VM did not finish within ${timeout_s} s (ISM_VM_TIMEOUT)"
	exit 1
elif [ $rc -ne 0 ]; then
	log "run-vm: qemu exited with status $rc"
	exit 1
fi
