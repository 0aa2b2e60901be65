#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# record.sh NAME BEGIN COMMAND...: run COMMAND (make bench, demo, stress)
# and, if it succeeds, append its figures to the one file of dated
# measurements, Documentation/networking/ism-results.rst: the lines of
# COMMAND's standard output from the first one matching the extended
# regular expression BEGIN to the end, under a heading with the date,
# NAME, the commit and the host. The output also goes to the terminal.
# Review and commit the entry like any other change; ISM_RECORD=0 only
# prints.
set -u
. "$(dirname "$0")/lib.sh"

name=$1 begin=$2
shift 2
results=$ISM_ROOT/Documentation/networking/ism-results.rst
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

{
	"$@"
	echo $? >"$tmp/rc"
} | tee "$tmp/out"
rc=$(cat "$tmp/rc")
[ "$rc" = 0 ] || exit "$rc"
[ "${ISM_RECORD:-1}" = 0 ] && exit 0

sed -En "/$begin/,\$p" "$tmp/out" | sed 's/\r$//; s/^/  /; s/^  $//' >"$tmp/fig"
if ! [ -s "$tmp/fig" ]; then
	log "record: no line of the output matches /$begin/; nothing recorded"
	exit 1
fi

commit=$(git -C "$ISM_ROOT" describe --always --dirty 2>/dev/null || echo unknown)
cpus=$(nproc)
model=$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo | head -n 1)
title="$(date -u +%Y-%m-%d) \`\`$name\`\`"
{
	echo
	echo "$title"
	echo "$title" | sed 's/./-/g'
	echo
	echo "Commit $commit; host: $cpus CPUs${model:+, $model}, load average" \
		"$(cut -d' ' -f1-3 /proc/loadavg) at the end::"
	echo
	cat "$tmp/fig"
} >>"$results"
log "record: appended to ${results#"$ISM_ROOT"/}"
