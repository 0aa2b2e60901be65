# SPDX-License-Identifier: GPL-2.0
#
# Fault injection knobs for the e2e tests that use ism_fault; sourced.
# fault_setup makes fail-nth fail sleeping allocations too (by default
# only atomic ones can) and logs one line per injected fault (the default
# verbosity adds a stack dump that the log check would count as a kernel
# report; ism_fault -w keeps those lines off the console). knobs_restore
# puts every knob back. Sources kmsg.sh: the kmsg: lines of ism_fault -w
# are judged with kmsg_is_report.
. "$ISM_LIB/kmsg.sh"

DBG=/sys/kernel/debug
knobs_saved=

# knob FILE VALUE: set a debugfs or tracefs knob, restored by
# knobs_restore (the value of a list like "[local] global" is the one in
# brackets)
knob() {
	_v=$(cat "$1")
	case $_v in *\[*) _v=$(echo "$_v" | sed 's/.*\[\(.*\)\].*/\1/') ;; esac
	knobs_saved="$knobs_saved $1=$_v"
	echo "$2" >"$1" || bad "echo $2 > $1"
}

knobs_restore() {
	for kv in $knobs_saved; do
		echo "${kv#*=}" >"${kv%%=*}"
	done
	knobs_saved=
}

# fault_usable: fail-nth, failslab and fail_page_alloc are there
fault_usable() {
	[ -e /proc/self/fail-nth ] && [ -d $DBG/failslab ] &&
		[ -d $DBG/fail_page_alloc ]
}

fault_setup() {
	for f in failslab fail_page_alloc; do
		knob $DBG/$f/ignore-gfp-wait N
		knob $DBG/$f/verbose 1
	done
	knob $DBG/fail_page_alloc/min-order 0
}
