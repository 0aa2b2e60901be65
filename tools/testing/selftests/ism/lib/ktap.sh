# SPDX-License-Identifier: GPL-2.0
#
# The results of every ism selftest, in KTAP; sourced first (through
# another lib/ file or directly). Sourcing prints the version line; each
# check is one line "ok N what" / "not ok N what", diagnostics are "# "
# lines, and ktap_finish prints the plan and exits with kselftest's
# status: 0 all passed, 1 something failed. A test skipped as a whole
# exits 4 (ktap_skip).
# ISM_LIB is this directory; ISM_KERNEL_REPORTS the kernel-report
# patterns (lib/kmsg.sh, ism_fault) unless the environment names others.

[ -n "${ISM_LIB:-}" ] || ISM_LIB=$(cd "$(dirname "$0")/lib" && pwd)
ISM_KERNEL_REPORTS=${ISM_KERNEL_REPORTS:-$ISM_LIB/kernel-reports}
export ISM_LIB ISM_KERNEL_REPORTS
# Outside our test VM, which has them in /ism/bin, ism-load and
# ism-unload are lib/bin's, on the modules installed for the running
# kernel (lib/modlist.sh, found once here for all their calls); so are
# they in the VM with ISM_PORTABLE=1, to test that path.
if [ "${ISM_PORTABLE:-0}" = 1 ] || ! command -v ism-load >/dev/null; then
	case $PATH in "$ISM_LIB/bin":*) ;; *) PATH=$ISM_LIB/bin:$PATH ;; esac
	. "$ISM_LIB/modlist.sh"
	[ -n "${ISM_MODULES:-}" ] || ISM_MODULES=$(ism_modnames)
	export PATH ISM_MODULES ISM_NOLOAD
fi
n=0
rc=0
echo "TAP version 13"
case $PATH in
"$ISM_LIB/bin":*)
	# shellcheck disable=SC2086 # one line of names
	echo "# ism-load: $ISM_LIB/bin, modules:" $ISM_MODULES ;;
esac

ok() {
	n=$((n + 1))
	echo "ok $n $*"
}

bad() {
	n=$((n + 1))
	echo "not ok $n $*"
	rc=1
}

# skip WHAT REASON: a check that does not apply here
skip() {
	n=$((n + 1))
	echo "ok $n $1 # SKIP $2"
}

# check WHAT COMMAND...: ok if COMMAND succeeds
check() {
	what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what (status $?)"; fi
}

# eq WHAT GOT WANT: ok if GOT is WANT
eq() {
	if [ "$2" = "$3" ]; then ok "$1"; else bad "$1 (got '$2', want '$3')"; fi
}

# ktap_relay PREFIX COMMAND...: run COMMAND, a program that prints KTAP,
# and count each of its cases as one of ours, named "PREFIX: what"; its
# other lines but the version and the plan pass through. Returns
# COMMAND's exit status.
ktap_relay() {
	_prefix=$1
	shift
	"$@" >/tmp/relay.out 2>&1
	_status=$?
	while IFS= read -r _line; do
		case $_line in
		"ok "*) _line=${_line#ok }; ok "$_prefix: ${_line#* }" ;;
		"not ok "*) _line=${_line#not ok }; bad "$_prefix: ${_line#* }" ;;
		"TAP version "* | 1..*) ;;
		*) echo "$_line" ;;
		esac
	done </tmp/relay.out
	return $_status
}

# ktap_skip REASON: skip the whole test
ktap_skip() {
	echo "1..0 # SKIP $*"
	exit 4
}

# ktap_finish: the plan; exit 0 if every check passed, else 1
ktap_finish() {
	echo "1..$n"
	exit $rc
}
