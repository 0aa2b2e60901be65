#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [lint]: the whole test (make check), or only the lint part
# (make lint). Every test that needs one VM or a stock kernel:
# packages, the QEMU accelerator (accel.sh), the tools, then at once:
# the test kernels (6.1's and 6.12's), the e2e tests on Debian's stock
# kernels, 6.1 then 6.12, and a virtual ISM region between stock 6.1
# and 6.12 guests (mixed.sh); once the 6.1 test kernel is built, the
# W=1 + sparse build against it, its KUnit and e2e tests in the debug
# VMs (ISM_SHARDS of them), then the virtual ISM's KUnit suites between
# two devices of one region (ivshm-kunit.sh); once 6.12's is, its W=1 +
# sparse build and VM (KUnit, and the e2e tests of what kcompat.h gives
# 6.12 another form); alongside, checkpatch, kernel-doc, htmldocs and
# the tools' unit tests. Last, every program the run executed must be in
# a Debian 12 root with deps.sh's packages alone (deps-root.sh). The
# tests between several debug guests (pair.sh, trio.sh) are make
# check-vms's. Ends with one line "N passed, N failed"; exits 1 on any
# failure.
set -u
. "$(dirname "$0")/lib.sh"
ISM_RESULTS=$ISM_BUILD/results
export ISM_RESULTS

what=${1:-all}
# shellcheck disable=SC2034 # read by step and summary (lib.sh)
start=$(date +%s)
mkdir -p "$ISM_BUILD"
: >"$ISM_RESULTS"

# Every program this run executes, from here on, for the check at its
# end that deps.sh installs them all (deps-root.sh).
[ "$what" = lint ] || programs_begin "$ISM_BUILD/programs"

step "packages"
if ! "$ISM_TESTDIR/deps.sh"; then
	result fail "deps: Debian packages installed"
	summary
fi

# In the background from here on, at nice 10 in this run's session
# (one autogroup: nice works between its processes): that check's
# Debian 12 root with deps.sh's packages (mostly downloads and
# unpacking, once per list) and the test kernels of the series after
# the first (6.12). They take what the first's kernel, then its VMs,
# leave: that chain (kernel, W=1 build, two debug VMs, ivshm-kunit) is
# make check's longest, and at the same priority the 6.12 kernel took
# half the CPUs from the 6.1 one (777 s for it; 258 s alone). A separate
# session at nice 19 is no good either: there the root took 1153 s and
# came last. The accelerator is tested (accel-test.sh, fake QEMU) and
# chosen (a probe guest under KVM, up to 30 s) meanwhile.
later=${ISM_KERNEL_SERIES#"${ISM_KERNEL_SERIES%% *}"}
if [ "$what" != lint ]; then
	programs_root base
	for s in $later; do
		nice -n 10 "$ISM_TESTDIR/build-kernel.sh" x86_64 "$s" \
			>"$ISM_BUILD/kernel-$s.log" 2>&1 &
	done
	"$ISM_TESTDIR/accel-test.sh" >"$ISM_BUILD/accel-test.log" 2>&1 &
	accel_test_pid=$!
	"$ISM_TESTDIR/accel.sh" >"$ISM_BUILD/accel.out" 2>"$ISM_BUILD/accel.why" &
	accel_pid=$!
fi

if [ "$what" = lint ]; then
	step "test kernel"
	tree=$("$ISM_TESTDIR/build-kernel.sh") || { result fail "build: test kernel"; summary; }
	step "lint: W=1 sparse build, checkpatch, kernel-doc, htmldocs"
	"$ISM_TESTDIR/lint.sh" "$tree"
	summary
fi

step "tools"
if progs=$("$ISM_TESTDIR/tools.sh" -Werror); then
	result ok "build: tools" "$(echo $progs | wc -w) programs"
	export ISM_TOOLS_BUILT=1
else
	result fail "build: tools"
fi

step "QEMU accelerator: the choice tested (accel-test.sh), then made"
if wait $accel_test_pid; then
	result ok "accel: choice of accelerator" "$(tail -n 1 "$ISM_BUILD/accel-test.log" | sed 's/^# //')"
else
	cat "$ISM_BUILD/accel-test.log" >&2
	result fail "accel: choice of accelerator" "see above"
fi
wait $accel_pid
accel_rc=$?
cat "$ISM_BUILD/accel.why" >&2
if [ $accel_rc -ne 0 ]; then
	result fail "accel: ISM_QEMU_ACCEL=${ISM_QEMU_ACCEL:-}" "see above"
	summary
fi
ISM_ACCEL_CHOSEN=$(cat "$ISM_BUILD/accel.out")
export ISM_ACCEL_CHOSEN

# The stock kernels' VMs need no test kernel: they run while the 6.1
# one builds, one after the other, each into its own .out file, and
# under TCG they leave much of a CPU idle. Not if the tools failed:
# each VM run would rebuild them, in the same place.
step "stock Debian kernels in the background: build, insmod, rmmod, e2e tests; a region between stock 6.1 and 6.12"
stock_pid=
if [ "${ISM_TOOLS_BUILT:-0}" = 1 ]; then
	{
		accounted "stock-vm" "$ISM_BUILD/stock.out" "$ISM_TESTDIR/stock.sh"
		for s in $later; do
			accounted "stock-vm $s" "$ISM_BUILD/stock-$s.out" \
				env ISM_SERIES="$s" "$ISM_TESTDIR/stock.sh"
		done
		[ -z "$later" ] ||
			accounted "mixed: stock guests on one region" "$ISM_BUILD/mixed.out" \
				env ISM_REUSE_BUILD=1 "$ISM_TESTDIR/mixed.sh"
	} &
	stock_pid=$!
else
	result fail "VMs" "skipped: the tools did not build"
fi

step "test kernel"
if ! tree=$("$ISM_TESTDIR/build-kernel.sh"); then
	result fail "build: test kernel"
	summary
fi

step "lint: W=1 sparse build"
"$ISM_TESTDIR/lint.sh" "$tree" build
built=$(our_modules "$ISM_BUILD/debug/src" 2>/dev/null | wc -l)

# The debug VMs, in the background: the 6.1 test kernel's, whose tests
# ISM_SHARDS VMs share (vmtest.sh; under TCG a VM uses little more than
# one CPU), then its two devices of one region (ivshm-kunit.sh); and
# the later series', one after the other, each once its kernel is built
# (debug_later). Their output is shown after.
step "debug VMs in the background: the 6.1 test kernel's, then the later series'"
# later_e2e: on the later series' debug kernels, besides every KUnit
# suite, the e2e tests of what include/ism/kcompat.h gives 6.1 in the
# later form, which 6.1's debug kernel does not run: mappings
# (vm_flags) and events (eventfd) of ism_user, netlink dumps,
# tracepoints.
later_e2e=user-api,user-fuzz,ynl-client,ismctl,sysfs-trace
# debug_later SERIES: on the test kernel of SERIES, our modules built
# with W=1 and sparse, then the KUnit suites and the e2e tests above
debug_later() {
	if ! _t=$("$ISM_TESTDIR/build-kernel.sh" x86_64 "$1"); then
		cat "$ISM_BUILD/kernel-$1.log"
		result fail "build: $1 test kernel"
		return 1
	fi
	build_checked "$_t" "$ISM_BUILD/debug-$1" \
		"build: modules against the $1 test kernel (W=1, sparse)" \
		W=1 C=2 CHECK=sparse || return 1
	sample_result "$ISM_BUILD/debug-$1" "the $1 test kernel"
	ISM_SERIES=$1 ISM_REUSE_BUILD=1 SUITE='ism_*' \
		ISM_APPEND="ism.e2e_only=$later_e2e" "$ISM_TESTDIR/vmtest.sh" test
}
debug_pid='' later_pid=''
if [ "${ISM_TOOLS_BUILT:-0}" = 1 ] && [ "$built" -gt 0 ]; then
	{
		accounted "debug-vm" "$ISM_BUILD/debug.out" env ISM_REUSE_BUILD=1 \
			ISM_SHARDS="${ISM_SHARDS:-2}" "$ISM_TESTDIR/vmtest.sh" test
		accounted "ivshm-kunit" "$ISM_BUILD/ivshm-kunit.out" \
			env ISM_REUSE_BUILD=1 "$ISM_TESTDIR/ivshm-kunit.sh"
	} &
	debug_pid=$!
	{
		for s in $later; do
			accounted "debug-vm $s" "$ISM_BUILD/debug-$s.out" debug_later "$s"
		done
	} &
	later_pid=$!
elif [ "${ISM_TOOLS_BUILT:-0}" = 1 ]; then
	result fail "debug-vm" "skipped: no modules built"
fi

step "lint: checkpatch, kernel-doc, htmldocs, generated files, exports"
"$ISM_TESTDIR/lint.sh" "$tree" source

# tool_check DIR NAME WHAT: the userspace unit test of DIR (make check),
# whose last line is its "# N passed, N failed"; one that hangs (a
# socket read of a message that never comes) fails after 5 minutes
tool_check() {
	_log=$ISM_BUILD/$2-check.log
	if timeout -k 10 300 make -s --no-print-directory -C "$ISM_ROOT/$1" \
		check CFLAGS='-O2 -g -Werror' >"$_log" 2>&1; then
		result ok "tools: $3" "$(tail -n 1 "$_log" | sed 's/^# //')"
	else
		cat "$_log" >&2
		result fail "tools: $3" "see above"
	fi
}
step "tools: unit tests"
tool_check tools/ism ismctl "ismctl bash completion, JSON escaping"
tool_check tools/lib/nl nl "netlink attribute checks (nl_attr_parse_policy)"
tool_check tools/ivshmem ivshmem "ism-region; ivshmem server against QEMU's protocol"
tool_check tools/libism libism "libism: GIDs, the peers' exchange, the rendezvous, ism_lat's wait"
if "$ISM_TESTDIR/exectrace-test.sh" >"$ISM_BUILD/exectrace-test.log" 2>&1; then
	result ok "deps: the record of the programs run, the Debian 12 root's verdict (exectrace-test.sh)" \
		"$(tail -n 1 "$ISM_BUILD/exectrace-test.log" | sed 's/^# //')"
else
	cat "$ISM_BUILD/exectrace-test.log" >&2
	result fail "deps: the record of the programs run, the Debian 12 root's verdict (exectrace-test.sh)" \
		"see above"
fi

step "stock Debian kernels: build, insmod, rmmod, e2e tests; a region between stock 6.1 and 6.12"
if [ -n "$stock_pid" ]; then
	wait $stock_pid
	cat "$ISM_BUILD/stock.out"
	for s in $later; do cat "$ISM_BUILD/stock-$s.out"; done
	[ -z "$later" ] || cat "$ISM_BUILD/mixed.out"
fi

step "KUnit and e2e tests on the debug kernel; two devices of one region in one VM (KUnit)"
if [ -n "$debug_pid" ]; then
	wait $debug_pid
	cat "$ISM_BUILD/debug.out" "$ISM_BUILD/ivshm-kunit.out"
fi

step "KUnit and e2e tests on the later series' test kernels"
if [ -n "$later_pid" ]; then
	wait $later_pid
	for s in $later; do cat "$ISM_BUILD/debug-$s.out"; done
fi

step "packages: every program this run executed, in a Debian 12 root with deps.sh's packages alone"
programs_check "$ISM_BUILD/programs" \
	"deps: deps.sh installs every program make check ran (a Debian 12 root with its list)"

summary
