#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# completion_test.sh [COMPLETION]: the bash completion of ismctl
# (completion/ismctl) against a stand-in ismctl that reports two
# devices; KTAP on stdout, exit 1 on any failure.
# shellcheck source=tools/ism/completion/ismctl
. "${1:-$(dirname "$0")/../completion/ismctl}"

ismctl() {
	[ "$*" = "-j dev show" ] || return 1
	echo '[{"name": "ismlo0", "type": "loopback"}, {"name":"ismiv1"}]'
}

n=0
failed=0
# expect "WORDS" "WANTED": complete the last of WORDS (empty: a new word)
expect() {
	read -r -a COMP_WORDS <<<"ismctl $1"
	[[ $1 == *" " || -z $1 ]] && COMP_WORDS+=("")
	COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
	COMPREPLY=()
	_ismctl
	got="${COMPREPLY[*]}"
	n=$((n + 1))
	if [ "$got" = "$2" ]; then
		echo "ok $n ismctl $1<TAB>: $got"
	else
		echo "not ok $n ismctl $1<TAB>: got '$got', wanted '$2'"
		failed=$((failed + 1))
	fi
}

echo "TAP version 13"
echo "1..14"
expect "" "dev dmb client stats user"
expect "d" "dev dmb"
expect "dev " "show add del"
expect "-j dev show " "ismlo0 ismiv1"
expect "dev del ismi" "ismiv1"
expect "dev add " "loopback"
expect "dev add x type " "loopback"
expect "dmb dev " "ismlo0 ismiv1"
expect "stats " "show reset dev"
expect "user " "show set"
expect "user set " "ismlo0 ismiv1"
expect "user set ismlo0 " "unkeyed-writes user-dmbs user-bytes user-rings"
expect "user set ismlo0 unkeyed-writes " "on off"
expect "--p" "--pretty"
echo "# $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
