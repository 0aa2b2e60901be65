# SPDX-License-Identifier: GPL-2.0
#
# The kernel log in the e2e tests; sourced. parse-log.py fails a whole VM
# run on any kernel report; these let a test check its own part of the log
# and say which of its steps made the report. kmsg_mark NAME writes a
# line of its own into the kernel log; kmsg_since NAME prints what the
# kernel logged after it, kmsg_clean NAME fails (printing them) if that
# holds kernel reports. Names are plain words ([A-Za-z0-9_-]).

# What parse-log.py and ism_fault -w count as a report: the file
# $ISM_KERNEL_REPORTS (lib/ktap.sh), one grep -E pattern a line, matched
# against the log without its time stamps.

# kmsg_is_report TEXT: TEXT, a record of the kernel log, is a report
kmsg_is_report() {
	printf '%s\n' "$1" | grep -qEf "$ISM_KERNEL_REPORTS"
}

# kmsg_mark NAME: the line "ism-e2e mark NAME" in the kernel log
kmsg_mark() {
	echo "ism-e2e mark $1" >/dev/kmsg
}

# kmsg_since NAME: the kernel log after the last mark NAME, without time
# stamps; fails if the mark is not (any more) in the log buffer
kmsg_since() {
	dmesg | sed 's/^\[[^]]*\] \{0,1\}//' >/tmp/kmsg.all
	grep -qx "ism-e2e mark $1" /tmp/kmsg.all || return 1
	awk -v m="ism-e2e mark $1" '$0 == m { n = NR } { l[NR] = $0 }
		END { for (i = n + 1; i <= NR; i++) print l[i] }' /tmp/kmsg.all
}

# kmsg_clean NAME: no kernel report since the mark NAME; otherwise print
# the reports (and a little context) as comments and fail
kmsg_clean() {
	if ! kmsg_since "$1" >/tmp/kmsg.since; then
		echo "# kernel log: mark $1 not found (log buffer overrun?)"
		return 1
	fi
	grep -qEf "$ISM_KERNEL_REPORTS" /tmp/kmsg.since || return 0
	echo "# kernel reports since mark $1:"
	grep -E -A 12 -f "$ISM_KERNEL_REPORTS" /tmp/kmsg.since | head -n 80 |
		sed 's/^/#   /'
	return 1
}
