# SPDX-License-Identifier: GPL-2.0
#
# Shared settings for the test scripts; sourced, not run.
# ISM_SRC   the module sources to build and lint (default: this repo)
# ISM_BUILD where builds, initramfs images and VM logs go (default: build/)
# ISM_RESULTS file that collects "ok NAME" / "not ok NAME" lines

# CI may run without HOME; build-kernel.sh keeps its cache under it.
: "${HOME:=$(getent passwd "$(id -u)" | cut -d: -f6)}"
export HOME
# Debian's programs, which deps.sh installs, and no others: not a Python
# of pyenv's, nor anything in /usr/local, which would make a run depend
# on what a machine happens to have (exectrace.sh, deps-root.sh). Set by
# the first script of a run: a test may put its fakes first for the
# scripts it starts (accel-test.sh).
# Once per run too: as root, the cache must be writable by root alone
# (and the user sudo ran for): root runs what is in it (the test
# kernels' scripts, a Debian root's shell) and writes through its paths,
# so another user able to plant files or links there would get root.
if [ -z "${ISM_PATH:-}" ]; then
	ISM_PATH=/usr/sbin:/usr/bin:/sbin:/bin
	PATH=$ISM_PATH
	export ISM_PATH PATH
	_cache=${ISM_CACHE:-$HOME/.cache/ism}
	if [ "$(id -u)" = 0 ] && [ -d "$_cache" ]; then
		_perm=$(stat -L -c '%u %A' "$_cache")
		case "${_perm%% *} ${_perm#* }" in
		0\ ?????-??-? | "${SUDO_UID:-0}"\ ?????-??-?) ;;
		*)
			echo "lib.sh: $_cache (owner uid, mode: $_perm) is writable by, or belongs to, another user; root will not use it" >&2
			exit 1
			;;
		esac
	fi
fi

ISM_TESTDIR=$(cd "$(dirname "$0")" && pwd)
ISM_ROOT=$(cd "$ISM_TESTDIR/../../.." && pwd)
ISM_SRC=${ISM_SRC:-$ISM_ROOT}
ISM_BUILD=${ISM_BUILD:-$ISM_ROOT/build}
# make check collects results in $ISM_BUILD/results; alone, a step only
# prints them.
ISM_RESULTS=${ISM_RESULTS:-/dev/null}

# ISM_KMODS, the in-tree modules copied into every initramfs and loaded
# (with their dependencies) before ours, and ISM_NOLOAD, ours that are
# built but only loaded on request: the selftests' lib/modlist.sh, which
# ism-load reads too (with ism_modlist, the modules it loads).
. "$ISM_ROOT/tools/testing/selftests/ism/lib/modlist.sh"
# ISM_KERNEL_SERIES: the kernel series the modules build for. A machine
# (or a Debian root) may have other kernels too: the harness boots and
# builds for those of the series only (kernel_newest).
. "$ISM_ROOT/scripts/kernel-series"

# kernel_newest: of the kernel versions on stdin, the newest of a series
# the modules build for; fails if there is none
kernel_newest() {
	while read -r _kn; do
		case " $ISM_KERNEL_SERIES " in
		*" $(echo "$_kn" | cut -d. -f1-2) "*) echo "$_kn" ;;
		esac
	done | sort -V | tail -n 1 | grep .
}
# Debian programs the e2e tests run (sockperf, iperf3 through smc_run;
# jq), and GNU make for
# kselftest's Makefiles, copied into the initramfs with their libraries.
ISM_SYSPROGS=${ISM_SYSPROGS:-sockperf iperf3 make jq}
# Debian's static busybox for s390x, for make check-s390x's initramfs:
# deps.sh s390x unpacks it here, next to build-kernel.sh's kernels.
ISM_BUSYBOX_S390X=${ISM_BUSYBOX_S390X:-${ISM_CACHE:-$HOME/.cache/ism}/busybox-s390x/bin/busybox}

log() {
	echo "$*" >&2
}

# children_cpu SCRATCH: set children_cpu to the CPU seconds (user and
# system) of the processes this shell has waited for so far; times is a
# builtin, not run in a subshell (whose children would have used none),
# so its output goes through the file SCRATCH
children_cpu() {
	times >"$1"
	children_cpu=$(awk -F '[ms ]' 'NR == 2 { printf "%d", $1 * 60 + $2 + $4 * 60 + $5 }' "$1")
	rm -f "$1"
}

# mypid: set mypid to the PID of the shell that runs it, which $$ is not
# in a subshell (read is a builtin: /proc/self is this shell)
mypid() {
	read -r mypid _ </proc/self/stat
}

# programs_begin DIR: record in DIR the programs that this run (the
# calling script, $$, and all it starts) executes (exectrace.sh), and
# the lists of the cached artifacts it uses (programs_used), for
# programs_check at its end
programs_begin() {
	rm -rf "$1"
	mkdir -p "$1"
	ISM_PROGRAMS_USED=$1/used
	export ISM_PROGRAMS_USED
	: >"$ISM_PROGRAMS_USED"
	"$ISM_TESTDIR/exectrace.sh" start "$1/trace" $$ 2>"$1/why" || :
}

# programs_root LIST: once deps.sh has installed the target's list LIST
# of packages (base, s390x, deb, vms; debootstrap is in all), start
# making the Debian 12 root with them alone (deps-root.sh root) in the
# background, at nice 10 (the tests, whose VMs time out if starved,
# come first), for programs_check at the run's end. Not at the idle I/O
# class, which mq-deadline honours: the minbase's debootstrap, mostly
# small dpkg runs, took 708 s of make check for 24 CPU s at nice 10
# alone.
programs_root() {
	_programs_list=$1
	nice -n 10 "$ISM_TESTDIR/deps-root.sh" root "$1" \
		>"$ISM_BUILD/deps-root-$1.log" 2>&1 &
	_programs_root_pid=$!
}

# programs_check DIR LABEL: end programs_begin's recording and record
# whether every program it saw is installed by programs_root's list of
# deps.sh's packages (deps-root.sh)
programs_check() {
	# Its verdict on the root is check's: it makes the root if this one
	# could not.
	wait "$_programs_root_pid"
	if ! "$ISM_TESTDIR/exectrace.sh" stop "$1/trace" 2>>"$1/why"; then
		result fail "$2" "no record of the programs run: $(paste -sd ' ' "$1/why")"
		return 1
	fi
	# shellcheck disable=SC2046 # paths without blanks
	"$ISM_TESTDIR/deps-root.sh" check "$_programs_list" "$2" \
		"$1/trace/programs" $(sort -u "$ISM_PROGRAMS_USED")
}

# build_programs_begin TMP PID: as root, record the programs that PID's
# tree runs to build the cached artifact TMP (exectrace.sh, into
# TMP.trace), for build_programs_keep; as another user, nothing (no
# ftrace). Fails if the recording cannot start. build_programs_drop TMP:
# end it and throw it away (a build's EXIT trap).
build_programs_begin() {
	_bp_traced=
	[ "$(id -u)" = 0 ] || return 0
	"$ISM_TESTDIR/exectrace.sh" start "$1.trace" "$2" && _bp_traced=1
}
build_programs_drop() {
	[ -z "${_bp_traced:-}" ] ||
		"$ISM_TESTDIR/exectrace.sh" stop "$1.trace" 2>/dev/null
	rm -rf "$1.trace"
}

# build_programs_keep TMP [FROM]: end build_programs_begin's recording
# and keep its list in TMP/.ism-programs, with FROM/.ism-programs (an
# artifact TMP was made from): programs_used's list of TMP once cached
build_programs_keep() {
	[ -n "$_bp_traced" ] || return 0
	"$ISM_TESTDIR/exectrace.sh" stop "$1.trace" &&
		sort -u "$1.trace/programs" ${2:+"$2/.ism-programs"} \
			>"$1/.ism-programs" || return 1
	rm -rf "$1.trace"
}

# programs_used FILE: the programs a cached artifact's build ran
# (exectrace.sh), FILE, go into the check of this run's programs
# (deps-root.sh): its name appended to $ISM_PROGRAMS_USED, if set.
# Cached, an artifact is not built again, but what its build needed
# must still be installed by deps.sh.
programs_used() {
	[ -n "${ISM_PROGRAMS_USED:-}" ] || return 0
	echo "$1" >>"$ISM_PROGRAMS_USED"
}

# step TEXT: announce a step of a run that began at $start (date +%s),
# which the sourcing script sets.
# shellcheck disable=SC2154
step() {
	log "== $* (at $(($(date +%s) - start)) s) =="
}

# summary: print the run's results, "N passed, N failed" last, and exit:
# 0 if none failed and one at least passed.
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

# qemu_accel: decide the QEMU accelerator (accel.sh) unless this make
# run already has, and hand the verdict, kvm or tcg, to the scripts
# started from here in ISM_ACCEL_CHOSEN. Fails if ISM_QEMU_ACCEL asks
# for what cannot be had.
qemu_accel() {
	case ${ISM_ACCEL_CHOSEN:-} in
	kvm | tcg)
		[ "${ISM_QEMU_ACCEL:-$ISM_ACCEL_CHOSEN}" = "$ISM_ACCEL_CHOSEN" ] &&
			return 0 ;;
	esac
	ISM_ACCEL_CHOSEN=$("$ISM_TESTDIR/accel.sh") || return 1
	export ISM_ACCEL_CHOSEN
}

# result ok|fail NAME [DETAIL]: record and print one result line.
result() {
	case $1 in
	ok) line="ok $2" ;;
	*) line="not ok $2" ;;
	esac
	[ -n "${3:-}" ] && line="$line # $3"
	mkdir -p "$(dirname "$ISM_RESULTS")"
	echo "$line" >>"$ISM_RESULTS"
	echo "$line"
}

# check NAME CMD...: record CMD's success as NAME. CMD's output stays in
# $out/check.log (the sourcing script's $out) until the next check and
# is appended to $out/checks.log; it is shown when CMD fails, and its
# last $ISM_CHECK_TAIL lines (default none) when it succeeds.
# shellcheck disable=SC2154 # out is the sourcing script's
check() {
	_name=$1
	shift
	"$@" >"$out/check.log" 2>&1
	_rc=$?
	{ echo "== $_name: status $_rc"; cat "$out/check.log"; } >>"$out/checks.log"
	if [ $_rc -eq 0 ]; then
		tail -n "${ISM_CHECK_TAIL:-0}" "$out/check.log" | sed 's/^/    /' >&2
		result ok "$_name"
		return 0
	fi
	sed 's/^/    /' "$out/check.log" >&2
	result fail "$_name" "status $_rc"
	return 1
}

# accounted LABEL OUT CMD...: CMD, its output into OUT, for a run in the
# background; if it fails without a "not ok" line of its own (it gave
# up before any result), LABEL's is recorded, so that summary cannot
# miss it. Returns CMD's status.
accounted() {
	_acc_label=$1 _acc_out=$2
	shift 2
	"$@" >"$_acc_out" 2>&1
	_acc_rc=$?
	[ $_acc_rc -eq 0 ] || grep -q '^not ok ' "$_acc_out" ||
		result fail "$_acc_label" "ended with status $_acc_rc before any result: see $_acc_out"
	return $_acc_rc
}

# judge_vm VM_RC PARSE_RC LABEL LOG: a VM run failed if QEMU or the log
# check did; then show the whole console log and exit 1.
judge_vm() {
	[ "$1" -eq 0 ] && [ "$2" -eq 0 ] && return 0
	log "---- console log of the $3 VM ($4) ----"
	cat "$4" >&2
	log "---- end of console log ----"
	exit 1
}

# modules_key KDIR: what our modules built against KDIR come from: the
# sources the module build reads (their contents, not their times) and
# KDIR's kernel
modules_key() {
	{
		echo "$1"
		cat "$1/include/config/kernel.release" 2>/dev/null
		# shellcheck disable=SC2046 # paths without blanks
		(cd "$ISM_SRC" && tar --sort=name --mtime=@0 --owner=0 --group=0 \
			--numeric-owner --exclude='*.o' --exclude='*.ko' \
			--exclude='*.mod' --exclude='*.mod.c' --exclude='.*.cmd' \
			--exclude=modules.order --exclude=Module.symvers -cf - \
			Kbuild Makefile include net drivers samples scripts \
			$(find tools -name Kbuild -exec dirname {} \;))
	} | sha256sum | cut -d' ' -f1
}

# modules_current KDIR OUT: OUT holds our modules built against KDIR
# from the sources as they are (build-modules.sh's OUT/src.key)
modules_current() {
	[ -f "$2/src.key" ] && [ "$(cat "$2/src.key")" = "$(modules_key "$1")" ]
}

# stage_initramfs TREE OUT MODROOT INITRD: the debug VM's initramfs for
# TREE's kernel: our modules (built into OUT by build-modules.sh unless
# ISM_REUSE_BUILD=1 or they are current there) installed in MODROOT,
# the tools and the selftests.
stage_initramfs() {
	if [ "${ISM_REUSE_BUILD:-0}" != 1 ] && ! modules_current "$1" "$2"; then
		"$ISM_TESTDIR/build-modules.sh" "$1" "$2" || return 1
	fi
	_progs=$("$ISM_TESTDIR/tools.sh") || { log "building the tools failed"; return 1; }
	"$ISM_TESTDIR/modstage.sh" "$1" "$(cat "$1/include/config/kernel.release")" \
		- "$2" "$3" || return 1
	# shellcheck disable=SC2086 # a list of paths without blanks
	"$ISM_TESTDIR/mkinitramfs.sh" "$4" "$3" $_progs
}

# build_checked KDIR OUT TAG [KBUILD-ARGS...]: build our modules against
# KDIR into OUT (build-modules.sh) and record TAG: failed if the build
# failed or its log holds any diagnostic in our code (scan-build-log.py).
build_checked() {
	_kdir=$1 _out=$2 _tag=$3
	shift 3
	if ! "$ISM_TESTDIR/build-modules.sh" "$_kdir" "$_out" "$@"; then
		result fail "$_tag" "build failed"
	elif ! "$ISM_TESTDIR/scan-build-log.py" "$_out/build.log" "$_out/src"; then
		result fail "$_tag" "diagnostics above"
	else
		result ok "$_tag"
		return 0
	fi
	return 1
}

# Our .ko files under a build directory, KUnit modules included.
our_modules() {
	find "$1" -name '*.ko' | sort
}

# suite_glob SUITE: SUITE as ism-load -k takes it. A folder of the tree
# (drivers/ism/lo, net/ism) stands for the KUnit modules its tests/
# folders build, comma-separated; anything else is a glob already.
suite_glob() {
	case $1 in
	*/*) ;;
	*) echo "$1"; return 0 ;;
	esac
	if [ ! -d "$ISM_SRC/$1" ]; then
		log "SUITE=$1: no such folder in $ISM_SRC"
		return 1
	fi
	_sg=$(find "$ISM_SRC/$1" -path '*/tests/Kbuild' -exec sed -n \
		's/^obj-m += \(.*_kunit\)\.o$/\1/p' {} + | sort | paste -sd ,)
	if [ -z "$_sg" ]; then
		log "SUITE=$1: no KUnit module under it (a tests/ folder's Kbuild)"
		return 1
	fi
	echo "$_sg"
}

# sample_result OUT WHAT: record whether build-modules.sh built
# samples/ism/ism_sample.ko under OUT, out of tree against WHAT, with no
# diagnostic in OUT/sample.log.
sample_result() {
	tag="build: samples/ism out of tree against $2 (W=1)"
	if [ ! -f "$1/src/samples/ism/ism_sample.ko" ]; then
		result fail "$tag" "no ism_sample.ko: see $1/sample.log"
		return 1
	fi
	if ! "$ISM_TESTDIR/scan-build-log.py" "$1/sample.log" "$1/src/samples/ism"; then
		result fail "$tag" "diagnostics above"
		return 1
	fi
	result ok "$tag"
}

# ISM_KSRC: the parts of the Linux 6.1 source whose kselftest framework
# the VMs run the selftests with (mkinitramfs.sh) and whose KUnit parser
# reads their logs (ksrc.sh): no kernel need be built for them.
ksrc() {
	ISM_KSRC=$("$ISM_TESTDIR/ksrc.sh") || return 1
	export ISM_KSRC
}

# ISM_KTREE: the debug test kernel of the first series, built
# (build-kernel.sh), which the debug VMs boot with our modules built
# against it
ktree() {
	ISM_KTREE=$("$ISM_TESTDIR/build-kernel.sh") || return 1
	export ISM_KTREE
}

# stock_out SERIES: where stock.sh builds for and logs the stock kernel of
# SERIES: $ISM_BUILD/stock for the first series, stock-SERIES for others
stock_out() {
	if [ "$1" = "${ISM_KERNEL_SERIES%% *}" ]; then
		echo "$ISM_BUILD/stock"
	else
		echo "$ISM_BUILD/stock-$1"
	fi
}

# stock_version [SERIES]: the newest Debian stock kernel version installed
# with both an image and headers, of SERIES or of any series we build for.
stock_version() {
	for k in /boot/vmlinuz-${1:+$1.}*-amd64; do
		v=${k#/boot/vmlinuz-}
		[ ! -d "/usr/src/linux-headers-$v" ] || echo "$v"
	done | kernel_newest
}
