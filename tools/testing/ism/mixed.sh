#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mixed.sh: a virtual ISM region between guests of the two kernel series
# we build for: guest a boots Debian's stock kernel of the first series
# (6.1), guest b that of the last (6.12), each found by debian-kernel.sh
# with our modules built for it (stock.sh stage-vms), on one region in
# doorbell mode with a virtio-net link. They run the selftest
# pair/ivshm-user.sh in their roles: /dev/ism and libism's programs, one
# side's DMB written by the other's kernel both ways, no SMC (6.12 has
# no SMC-D bridge). ISM_REUSE_BUILD=1 takes the modules stock.sh built
# for each kernel before (make check runs it after them). Console logs
# in $ISM_BUILD/mixed, judged like the debug VM's.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/region.sh"

first=${ISM_KERNEL_SERIES%% *}
last=${ISM_KERNEL_SERIES##* }
label="virtual ISM pair ($first/$last, user space)"
logs=$ISM_BUILD/mixed
mkdir -p "$logs"
rm -f "$logs"/*.log
qemu_accel && ksrc || exit 1

# kernel ROLE SERIES: the initramfs of SERIES's stock kernel and its
# image, as ROLE_initrd and ROLE_image
kernel() {
	"$ISM_TESTDIR/stock.sh" stage-vms || return 1
	_k=$("$ISM_TESTDIR/debian-kernel.sh" "$ISM_SERIES") || return 1
	eval "$1_initrd=\$(stock_out \"\$ISM_SERIES\")/vms-initramfs.cpio"
	eval "$1_image=\${_k% *}/boot/vmlinuz-\${_k#* }"
}
ISM_SERIES=$first kernel a && ISM_SERIES=$last kernel b || {
	result fail "$label" "no stock $first and $last kernels with our modules"
	exit 1
}
region_start doorbell "$logs" || { result fail "$label" "no region"; exit 1; }

# guest ROLE END IMAGE INITRD: boot one guest in the background
guest() {
	region_guest "$1" "$2" "$3" "$4" "$logs/$1.log" ism.mode=pair \
		"ism.env=ISM_PAIR_TEST=user,ISM_PAIR_ROLE=$1" &
}
# shellcheck disable=SC2154 # set by kernel()
guest a 0 "$a_image" "$a_initrd"
a_pid=$!
# shellcheck disable=SC2154
guest b 1 "$b_image" "$b_initrd"
b_pid=$!
wait $a_pid
a_rc=$?
wait $b_pid
b_rc=$?

rc=0
region_judge "$label" "$logs" a $a_rc || rc=1
region_judge "$label" "$logs" b $b_rc || rc=1
exit $rc
