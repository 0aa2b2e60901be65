#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# check.sh [lint]: the whole test (make check), or only the lint part
# (make lint): packages, QEMU accelerator (accel.sh), test kernel, W=1 +
# sparse build, checkpatch, kernel-doc, KUnit and e2e tests in the
# debug VM, e2e tests on the stock kernel. Ends with one line "N passed,
# N failed"; exits 1 on any failure.
set -u
. "$(dirname "$0")/lib.sh"
ISM_RESULTS=$ISM_BUILD/results
export ISM_RESULTS

what=${1:-all}
start=$(date +%s)
mkdir -p "$ISM_BUILD"
: >"$ISM_RESULTS"

summary() {
	echo
	accel=${ISM_ACCEL_CHOSEN:+; QEMU $ISM_ACCEL_CHOSEN}
	echo "== summary ($(($(date +%s) - start)) s$accel) =="
	cat "$ISM_RESULTS"
	pass=$(grep -c '^ok ' "$ISM_RESULTS")
	fail=$(grep -c '^not ok ' "$ISM_RESULTS")
	echo "$pass passed, $fail failed"
	[ "$fail" -eq 0 ] && [ "$pass" -gt 0 ]
	exit
}

step() {
	log "== $* =="
}

step "packages"
if ! "$ISM_TESTDIR/deps.sh"; then
	result fail "deps: Debian packages installed"
	summary
fi

# Before the long builds, so that a KVM forced but not working fails
# in seconds; every VM below reuses the verdict.
if [ "$what" != lint ]; then
	step "QEMU accelerator: the choice tested (accel-test.sh), then made"
	if "$ISM_TESTDIR/accel-test.sh" >"$ISM_BUILD/accel-test.log" 2>&1; then
		result ok "accel: choice of accelerator" "$(tail -n 1 "$ISM_BUILD/accel-test.log" | sed 's/^# //')"
	else
		cat "$ISM_BUILD/accel-test.log" >&2
		result fail "accel: choice of accelerator" "see above"
	fi
	qemu_accel || { result fail "accel: ISM_QEMU_ACCEL=${ISM_QEMU_ACCEL:-}" "see above"; summary; }
fi

step "test kernel"
if ! tree=$("$ISM_TESTDIR/build-kernel.sh"); then
	result fail "build: test kernel"
	summary
fi

step "lint: W=1 sparse build, checkpatch, kernel-doc"
"$ISM_TESTDIR/lint.sh" "$tree"
[ "$what" = lint ] && summary
built=$(our_modules "$ISM_BUILD/debug/src" 2>/dev/null | wc -l)

step "tools"
if progs=$("$ISM_TESTDIR/tools.sh" -Werror); then
	result ok "build: tools" "$(echo $progs | wc -w) programs"
	export ISM_TOOLS_BUILT=1
else
	result fail "build: tools"
fi
# tool_check DIR NAME WHAT: the userspace unit test of DIR (make check),
# whose last line is its "# N passed, N failed"
tool_check() {
	_log=$ISM_BUILD/$2-check.log
	if make -s -C "$ISM_ROOT/$1" check CFLAGS='-O2 -g -Werror' >"$_log" 2>&1; then
		result ok "tools: $3" "$(tail -n 1 "$_log" | sed 's/^# //')"
	else
		cat "$_log" >&2
		result fail "tools: $3" "see above"
	fi
}
tool_check tools/ism ismctl "ismctl JSON escaping"
tool_check tools/lib/nl nl "netlink attribute checks (nl_attr_parse_policy)"

# The stock VM runs alongside the debug VM (its output is shown after):
# the debug VM's tests spend much of their time waiting. Not if the
# tools failed: each VM run would rebuild them, in the same place.
step "stock Debian kernel, in the background: build, insmod, rmmod, e2e tests"
: >"$ISM_BUILD/stock.out"
stock_pid=
if [ "${ISM_TOOLS_BUILT:-0}" = 1 ]; then
	"$ISM_TESTDIR/stock.sh" >"$ISM_BUILD/stock.out" 2>&1 &
	stock_pid=$!
fi

step "KUnit and e2e tests on the debug kernel"
if [ "$built" -gt 0 ]; then
	ISM_REUSE_BUILD=1 "$ISM_TESTDIR/vmtest.sh" test
else
	result fail "debug-vm" "skipped: no modules built"
fi

step "stock Debian kernel: build, insmod, rmmod, e2e tests"
if [ -n "$stock_pid" ]; then
	wait $stock_pid
	cat "$ISM_BUILD/stock.out"
else
	"$ISM_TESTDIR/stock.sh"
fi

summary
