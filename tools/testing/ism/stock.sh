#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# stock.sh [test|bench|demo]: build our modules (not the KUnit ones) against
# Debian's newest stock kernel headers and boot that kernel under QEMU.
# test (default): insmod them in dependency order, rmmod them in reverse,
# then run the e2e tests; any error or kernel report fails.
# bench: also run ism_bench.ko and print its tables. The benchmark runs
# here rather than on the debug kernel, whose KASAN, lockdep and kmemleak
# would dominate what it measures; this is the kernel users run.
# demo: run sockperf over TCP and SMC-D (guest-demo.sh) and print its
# table.
set -u
. "$(dirname "$0")/lib.sh"

mode=${1:-test}

out=$ISM_BUILD/stock
ver=$(stock_version) || {
	result fail "stock: kernel" "no /boot/vmlinuz-*-amd64 with matching headers"
	exit 1
}
qemu_accel || exit 1
ksrc || exit 1
tag="build: modules against the stock $ver headers"
if ! "$ISM_TESTDIR/build-modules.sh" "/usr/src/linux-headers-$ver" "$out"; then
	result fail "$tag" "build failed"
	exit 1
fi
if ! "$ISM_TESTDIR/scan-build-log.py" "$out/build.log" "$out/src"; then
	result fail "$tag" "diagnostics above"
	exit 1
fi
result ok "$tag"
# Recorded; without ism_sample.ko the VM still runs (its e2e test fails).
sample_result "$out" "the stock $ver headers"

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
ISM_KUNIT=0 "$ISM_TESTDIR/modstage.sh" "/usr/src/linux-headers-$ver" "$ver" / "$out" "$out/modroot" || exit 1
progs=$("$ISM_TESTDIR/tools.sh") || { log "stock: building the tools failed"; exit 1; }
# shellcheck disable=SC2086
"$ISM_TESTDIR/mkinitramfs.sh" "$out/initramfs.cpio.gz" "$out/modroot" $progs || exit 1

log "stock: booting /boot/vmlinuz-$ver; console log: $out/vm.log"
"$ISM_TESTDIR/run-vm.sh" "/boot/vmlinuz-$ver" "$out/initramfs.cpio.gz" \
	"$out/vm.log" $args
vm_rc=$?
# shellcheck disable=SC2086
"$ISM_TESTDIR/parse-log.py" $flags --ksrc "$ISM_KSRC" --results "$ISM_RESULTS" stock-vm "$out/vm.log"
judge_vm $vm_rc $? stock "$out/vm.log"
if [ "$mode" = demo ]; then
	echo
	sed -n 's/\r$//; s/^ism-demo: \{0,1\}//p' "$out/vm.log"
	grep -q 'SMC-D / TCP' "$out/vm.log" || { log "demo: no figures"; exit 1; }
fi
