#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [lint]: the whole test (make check), or only the lint part
# (make lint): packages, QEMU accelerator (accel.sh), test kernel (6.1's;
# 6.12's builds in the background), W=1 + sparse build, tools, then at
# once: KUnit and e2e tests in the debug VMs, and one after the other the
# e2e tests on Debian's stock 6.1 kernel, the W=1 + sparse build and the
# KUnit suites on the 6.12 test kernel, the e2e tests on Debian's stock
# 6.12 and a virtual ISM region between stock 6.1 and 6.12 guests
# (mixed.sh); alongside, checkpatch, kernel-doc, htmldocs and the tools'
# unit tests; after the debug VMs,
# the two-guest tests of the virtual ISM (pair.sh), its KUnit suites
# between two devices of one region (ivshm-kunit.sh), then its
# three-guest test (trio.sh). Ends with one line "N passed, N failed";
# exits 1 on any failure.
set -u
. "$(dirname "$0")/lib.sh"
ISM_RESULTS=$ISM_BUILD/results
export ISM_RESULTS

what=${1:-all}
# shellcheck disable=SC2034 # read by step and summary (lib.sh)
start=$(date +%s)
mkdir -p "$ISM_BUILD"
: >"$ISM_RESULTS"

step "packages"
if ! "$ISM_TESTDIR/deps.sh"; then
	result fail "deps: Debian packages installed"
	summary
fi

# The accelerator is tested (accel-test.sh, fake QEMU) and chosen (a
# probe guest under KVM, up to 30 s) in the background while the modules
# build; the VMs wait for the verdict, and a forced KVM that does not
# work ends the run before any of them starts.
if [ "$what" != lint ]; then
	"$ISM_TESTDIR/accel-test.sh" >"$ISM_BUILD/accel-test.log" 2>&1 &
	accel_test_pid=$!
	"$ISM_TESTDIR/accel.sh" >"$ISM_BUILD/accel.out" 2>"$ISM_BUILD/accel.why" &
	accel_pid=$!
fi

# The series after the first (6.12): their test kernels, the debug
# kernel's fragments on their sources, build from here on in the
# background at the lowest priority, on the CPU time the first series'
# build and VMs leave idle; their runs (later_runs) wait for them (the
# build's lock) and raise the priority then. Each in a session of its
# own, for renice -g; with autogroup scheduling (Debian's default) a
# session competes with the others as a whole, whatever its processes'
# nice, so its autogroup gets nice 19 too (a fresh machine's make check
# measured 29 min for the 6.1 kernel beside it, without).
later=${ISM_KERNEL_SERIES#"${ISM_KERNEL_SERIES%% *}"}
later_kernels=
if [ "$what" != lint ]; then
	for s in $later; do
		setsid sh -c 'echo 19 >/proc/self/autogroup 2>/dev/null
			exec nice -n 19 "$@"' sh \
			"$ISM_TESTDIR/build-kernel.sh" x86_64 "$s" \
			>"$ISM_BUILD/kernel-$s.log" 2>&1 &
		later_kernels="$later_kernels $!"
	done
fi

step "test kernel"
if ! tree=$("$ISM_TESTDIR/build-kernel.sh"); then
	result fail "build: test kernel"
	summary
fi

if [ "$what" = lint ]; then
	step "lint: W=1 sparse build, checkpatch, kernel-doc, htmldocs"
	"$ISM_TESTDIR/lint.sh" "$tree"
	summary
fi

step "lint: W=1 sparse build"
"$ISM_TESTDIR/lint.sh" "$tree" build
built=$(our_modules "$ISM_BUILD/debug/src" 2>/dev/null | wc -l)

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

# The VMs run at once, in the background, with the source checks
# alongside: under TCG a VM uses little more than one CPU, and the debug
# VM's tests are shared by ISM_SHARDS VMs (vmtest.sh). Their output is
# shown after. Not if the tools failed: each VM run would rebuild them,
# in the same place.
step "VMs in the background: the stock Debian kernels, the debug kernels"
: >"$ISM_BUILD/stock.out"
: >"$ISM_BUILD/debug.out"
stock_pid='' debug_pid=''
# later_runs: the VM runs of the later series, one after the other, each
# into its own .out file in $ISM_BUILD, after the stock 6.1 run. On their
# debug kernels, besides every KUnit suite, the e2e tests of what
# include/ism/kcompat.h gives 6.1 in the later form, which 6.1's debug
# kernel does not run: mappings (vm_flags) and events (eventfd) of
# ism_user, netlink dumps, tracepoints.
later_e2e=user-api,user-fuzz,ynl-client,ismctl,sysfs-trace
later_runs() {
	for p in $later_kernels; do
		echo 0 >"/proc/$p/autogroup" 2>/dev/null
		renice -n 0 -g "$p" >/dev/null 2>&1
	done
	for s in $later; do
		debug_later "$s" >"$ISM_BUILD/debug-$s.out" 2>&1
	done
	for s in $later; do
		ISM_SERIES=$s "$ISM_TESTDIR/stock.sh" >"$ISM_BUILD/stock-$s.out" 2>&1
	done
	[ -z "$later" ] ||
		ISM_REUSE_BUILD=1 "$ISM_TESTDIR/mixed.sh" >"$ISM_BUILD/mixed.out" 2>&1
}
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
if [ "${ISM_TOOLS_BUILT:-0}" = 1 ]; then
	{
		"$ISM_TESTDIR/stock.sh" >"$ISM_BUILD/stock.out" 2>&1
		later_runs
	} &
	stock_pid=$!
	if [ "$built" -gt 0 ]; then
		ISM_REUSE_BUILD=1 ISM_SHARDS=${ISM_SHARDS:-2} \
			"$ISM_TESTDIR/vmtest.sh" test >"$ISM_BUILD/debug.out" 2>&1 &
		debug_pid=$!
	else
		result fail "debug-vm" "skipped: no modules built"
	fi
else
	result fail "VMs" "skipped: the tools did not build"
fi

step "lint: checkpatch, kernel-doc, htmldocs, generated files, exports"
"$ISM_TESTDIR/lint.sh" "$tree" source

# tool_check DIR NAME WHAT: the userspace unit test of DIR (make check),
# whose last line is its "# N passed, N failed"
tool_check() {
	_log=$ISM_BUILD/$2-check.log
	if make -s --no-print-directory -C "$ISM_ROOT/$1" check CFLAGS='-O2 -g -Werror' >"$_log" 2>&1; then
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

step "KUnit and e2e tests on the debug kernel"
if [ -n "$debug_pid" ]; then
	wait $debug_pid
	cat "$ISM_BUILD/debug.out"
fi

# The two-guest tests of the virtual ISM device (pair.sh), doorbell and
# plain mode side by side, once the debug VMs are done: their guests
# often wait for each other, so two runs keep the CPUs busier than one.
# The plain run starts once the doorbell run's guests have booted: four
# debug kernels booting at once on two CPUs starved a vCPU long enough
# for RCU to report a stall. The KUnit VM with two devices of one region
# (ivshm-kunit.sh) starts once the plain run's guests have booted too,
# and the three-guest test (trio.sh) once that VM is done.
# booted LOGDIR: the pair run logging to LOGDIR has both guests running
booted() {
	grep -qs 'ism-test: begin' "$1/a.log" && grep -qs 'ism-test: begin' "$1/b.log"
}
pair_pids=''
if [ -n "$debug_pid" ]; then
	for m in doorbell plain; do
		ISM_REUSE_BUILD=1 "$ISM_TESTDIR/pair.sh" $m \
			>"$ISM_BUILD/pair-$m.out" 2>&1 &
		pair_pids="$pair_pids $!"
		i=0
		while [ $i -lt 600 ] && kill -0 $! 2>/dev/null &&
			! booted "$ISM_BUILD/debug/pair-$m"; do
			i=$((i + 1))
			sleep 0.5
		done
	done
	{
		ISM_REUSE_BUILD=1 "$ISM_TESTDIR/ivshm-kunit.sh" \
			>"$ISM_BUILD/ivshm-kunit.out" 2>&1
		ISM_REUSE_BUILD=1 "$ISM_TESTDIR/trio.sh" \
			>"$ISM_BUILD/trio.out" 2>&1
	} &
	pair_pids="$pair_pids $!"
fi

step "stock Debian kernels: build, insmod, rmmod, e2e tests; KUnit on the later series' test kernels; a region between stock 6.1 and 6.12"
if [ -n "$stock_pid" ]; then
	wait $stock_pid
	cat "$ISM_BUILD/stock.out"
	for s in $later; do cat "$ISM_BUILD/debug-$s.out"; done
	for s in $later; do cat "$ISM_BUILD/stock-$s.out"; done
	[ -z "$later" ] || cat "$ISM_BUILD/mixed.out"
fi

step "virtual ISM: two debug VMs on one region, doorbell and plain mode; two devices of one region in one VM (KUnit); three debug VMs"
if [ -n "$pair_pids" ]; then
	# shellcheck disable=SC2086 # a list of PIDs
	wait $pair_pids
	cat "$ISM_BUILD/pair-doorbell.out" "$ISM_BUILD/pair-plain.out" \
		"$ISM_BUILD/ivshm-kunit.out" "$ISM_BUILD/trio.out"
fi

summary
