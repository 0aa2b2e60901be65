#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stock.sh [test|bench|demo]: build our modules (not the KUnit ones) against
# a Debian stock kernel's headers and boot that kernel under QEMU: of the
# series ISM_SERIES (default: the first of scripts/kernel-series, 6.1),
# found by debian-kernel.sh (6.1: the host's; 6.12: Debian's packages
# unpacked into the cache, never installed).
# test (default): insmod them in dependency order, rmmod them in reverse,
# then run the e2e tests; any error or kernel report fails.
# bench: also run ism_bench.ko and print its tables. The benchmark runs
# here rather than on the debug kernel, whose KASAN, lockdep and kmemleak
# would dominate what it measures; this is the kernel users run.
# demo: run sockperf over TCP and SMC-D, and libism's ism_lat and ism_bw
# (guest-demo.sh), and print their table.
# demo-vms [doorbell|plain]: the same between two such VMs, TCP over
# virtio-net against SMC-D and ism_lat/ism_bw over a virtual ISM region
# (region.sh) in doorbell (default) or plain mode.
# stage-vms: only the initramfs of such VMs (virtio-net too), in
# $out/vms-initramfs.cpio, for mixed.sh; with ISM_REUSE_BUILD=1 of
# the modules an earlier run built.
set -u
. "$(dirname "$0")/lib.sh"
. "$(dirname "$0")/region.sh"

mode=${1:-test}
ivmode=${2:-doorbell}
case $mode.$ivmode in
test.* | bench.* | demo.* | demo-vms.doorbell | demo-vms.plain | stage-vms.*) ;;
*) log "stock: usage: stock.sh [test|bench|demo|demo-vms [doorbell|plain]|stage-vms]"; exit 1 ;;
esac

series=${ISM_SERIES:-${ISM_KERNEL_SERIES%% *}}
out=$(stock_out "$series")
# The first series' results keep their names; another's say which.
label=stock-vm
[ "$series" = "${ISM_KERNEL_SERIES%% *}" ] || label="stock-vm $series"
initrd=$out/initramfs.cpio modroot=$out/modroot
case $mode in
demo-vms | stage-vms)
	# The VMs talk over virtio-net, a module in Debian's kernel.
	ISM_KMODS="$ISM_KMODS virtio_pci virtio_net"
	export ISM_KMODS
	initrd=$out/vms-initramfs.cpio modroot=$out/vms-modroot
	;;
esac
kernel=$("$ISM_TESTDIR/debian-kernel.sh" "$series") || {
	result fail "$label: kernel" "no Debian $series kernel with its headers"
	exit 1
}
root=${kernel% *} ver=${kernel#* }
[ "$root" != / ] || root=
qemu_accel || exit 1
ksrc || exit 1
tag="build: modules against the stock $ver headers"
if [ "$mode" = stage-vms ] && [ "${ISM_REUSE_BUILD:-0}" = 1 ] &&
	[ -n "$(our_modules "$out/src" 2>/dev/null)" ]; then
	log "stock: the modules built against $ver before, in $out/src"
elif ! "$ISM_TESTDIR/build-modules.sh" "$root/usr/src/linux-headers-$ver" "$out"; then
	result fail "$tag" "build failed"
	exit 1
elif ! "$ISM_TESTDIR/scan-build-log.py" "$out/build.log" "$out/src"; then
	result fail "$tag" "diagnostics above"
	exit 1
else
	result ok "$tag"
	# Recorded; without ism_sample.ko the VM still runs (its e2e
	# test fails).
	sample_result "$out" "the stock $ver headers"
fi

mods=$(our_modules "$out/src" | grep -v '_kunit\.ko$')
args=ism.mode=$mode
# ISM_STOCK_SKIP (comma-separated e2e test names) reports those as SKIP.
[ "$mode" = test ] && [ -n "${ISM_STOCK_SKIP:-}" ] &&
	args="$args ism.e2e_skip=$ISM_STOCK_SKIP"
flags=
if [ "$mode" = bench ]; then
	if ! echo "$mods" | grep -q '/ism_bench\.ko$'; then
		result fail "bench" "no ism_bench.ko was built"
		exit 1
	fi
	# ism_bench needs room for 10,000 live DMBs on the loopback device.
	args="$args ${ISM_BENCH_ARGS:-ism_lo.max_dmbs=10001}"
	flags=--bench
fi
# No KUnit module is loaded on the stock kernel.
ISM_KUNIT=0 "$ISM_TESTDIR/modstage.sh" "$root/usr/src/linux-headers-$ver" "$ver" \
	"${root:-/}" "$out" "$modroot" || exit 1
progs=$("$ISM_TESTDIR/tools.sh") || { log "stock: building the tools failed"; exit 1; }
# shellcheck disable=SC2086
"$ISM_TESTDIR/mkinitramfs.sh" "$initrd" "$modroot" $progs || exit 1
[ "$mode" != stage-vms ] || exit 0

if [ "$mode" = demo-vms ]; then
	region_start "$ivmode" "$out" || exit 1
	log "stock: two VMs of $root/boot/vmlinuz-$ver on a virtual ISM region ($ivmode mode); console logs: $out/vms-*.log"
	# vms ROLE END KERNEL-ARG...
	vms() {
		_r=$1
		_e=$2
		shift 2
		region_guest "$_r" "$_e" "$root/boot/vmlinuz-$ver" "$initrd" \
			"$out/vms-$_r.log" ism.mode=demo "ism.env=ISM_DEMO_ROLE=$_r" "$@"
	}
	vms server 0 &
	s_pid=$!
	vms client 1
	c_rc=$?
	wait $s_pid
	s_rc=$?
	for r in server.$s_rc client.$c_rc; do
		"$ISM_TESTDIR/parse-log.py" --ksrc "$ISM_KSRC" --results "$ISM_RESULTS" \
			"demo-vms ${r%.*}" "$out/vms-${r%.*}.log"
		judge_vm "${r#*.}" $? "demo-vms ${r%.*}" "$out/vms-${r%.*}.log"
	done
	echo
	sed -n 's/\r$//; s/^ism-demo: \{0,1\}//p' "$out/vms-client.log"
	grep -q 'SMC-D / TCP' "$out/vms-client.log" || { log "demo-vms: no figures"; exit 1; }
	grep -q "DMB by: zero-copy" "$out/vms-client.log" ||
		{ log "demo-vms: ism_lat and ism_bw did not write zero-copy"; exit 1; }
	grep -q ' SMCD ' "$out/vms-client.log" ||
		{ log "demo-vms: the SMC-D run was not listed as SMCD"; exit 1; }
	exit 0
fi
log "stock: booting $root/boot/vmlinuz-$ver; console log: $out/vm.log"
"$ISM_TESTDIR/run-vm.sh" "$root/boot/vmlinuz-$ver" "$initrd" \
	"$out/vm.log" $args
vm_rc=$?
# shellcheck disable=SC2086
"$ISM_TESTDIR/parse-log.py" $flags --ksrc "$ISM_KSRC" --results "$ISM_RESULTS" "$label" "$out/vm.log"
judge_vm $vm_rc $? "$label" "$out/vm.log"
if [ "$mode" = demo ]; then
	echo
	sed -n 's/\r$//; s/^ism-demo: \{0,1\}//p' "$out/vm.log"
	grep -q 'SMC-D / TCP' "$out/vm.log" || { log "demo: no figures"; exit 1; }
	grep -q "DMB by: zero-copy" "$out/vm.log" ||
		{ log "demo: ism_lat and ism_bw did not write zero-copy"; exit 1; }
fi
