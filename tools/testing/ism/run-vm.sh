#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# run-vm.sh KERNEL INITRD LOG [KERNEL-ARG...]
# Boot KERNEL with INITRD under QEMU (TCG when there is no KVM); the
# serial console goes to LOG. The VM powers itself off (reboot -f with
# -no-reboot); after ISM_VM_TIMEOUT seconds (default 600) it is killed
# and this script fails. With LOG "-" the console is interactive
# (-nographic; Ctrl-A X quits QEMU). ISM_QEMU_CPU sets the CPU model
# (default max).
set -u
. "$(dirname "$0")/lib.sh"

kernel=$1
initrd=$2
logf=$3
shift 3
timeout_s=${ISM_VM_TIMEOUT:-600}

accel=tcg
[ -w /dev/kvm ] && accel=kvm:tcg
# panic=-1: reboot at once on panic, which -no-reboot turns into exit.
# oops=panic: the first oops ends the run rather than wedging it.
# printk.devkmsg=on: don't rate-limit the protocol lines from /init.
append="console=ttyS0 loglevel=7 panic=-1 oops=panic printk.devkmsg=on $*"
set -- qemu-system-x86_64 -machine q35,accel=$accel -cpu "${ISM_QEMU_CPU:-max}" -smp 2 \
	-m "${ISM_VM_MEM:-1024}" -no-reboot -kernel "$kernel" -initrd "$initrd" \
	-append "$append"

if [ "$logf" = - ]; then
	exec "$@" -nographic
fi
start=$(date +%s)
timeout -k 10 "$timeout_s" "$@" -nodefaults -display none -serial stdio \
	</dev/null >"$logf" 2>&1
rc=$?
log "run-vm: $(basename "$kernel") finished in $(($(date +%s) - start)) s"
if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
	echo "run-vm: TIMEOUT: killed after ${timeout_s} s" >>"$logf"
	log "run-vm: the VM did not finish within ${timeout_s} s (ISM_VM_TIMEOUT)"
	exit 1
elif [ $rc -ne 0 ]; then
	log "run-vm: qemu exited with status $rc"
	exit 1
fi
