#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest helper, installed in the initramfs as /ism/bin/ism-load and
# /ism/bin/ism-unload. /ism/modules.list holds the module names in load
# order, dependencies first (modstage.sh); modprobe loads them.
#
# ism-load [-k GLOB] [NAME...]
#   Load NAMEs in list order; with no NAME, every module on the list but
#   the KUnit ones and those in $ISM_NOLOAD. -k also loads the KUnit
#   modules whose name, or name without _kunit, matches GLOB.
# ism-unload [NAME...]
#   rmmod, in reverse order, every module of the list that is loaded (or
#   only the NAMEs).
# Module parameters come from the kernel command line (NAME.PARAM=VALUE),
# which modprobe reads. Each step is logged to the kernel log as
# "ism-test: insmod ok NAME" etc.
# Exit status: 1 at the first module that fails.

set -f
list=/ism/modules.list
[ -r /ism/config ] && . /ism/config

msg() {
	echo "ism-test: $*" >/dev/kmsg 2>/dev/null || echo "ism-test: $*"
}

loaded() {
	grep -q "^$1 " /proc/modules
}

wanted() {
	n=$1
	shift
	if [ $# -gt 0 ]; then
		for w in "$@"; do
			[ "$w" = "$n" ] && return 0
		done
		return 1
	fi
	case $n in
	*_kunit)
		[ -n "$kglob" ] || return 1
		# shellcheck disable=SC2254
		case $n in $kglob | ${kglob}_kunit) return 0 ;; esac
		# shellcheck disable=SC2254
		case ${n%_kunit} in $kglob) return 0 ;; esac
		return 1
		;;
	esac
	for x in $ISM_NOLOAD; do
		[ "$x" = "$n" ] && return 1
	done
	return 0
}

do_load() {
	kglob=
	if [ "${1:-}" = -k ]; then
		kglob=$2
		shift 2
	fi
	while read -r n; do
		wanted "$n" "$@" || continue
		loaded "$n" && continue
		case $n in *_kunit) msg "kunit-module $n" ;; esac
		msg "insmod $n"
		if modprobe "$n"; then
			msg "insmod ok $n"
		else
			msg "insmod failed $n"
			return 1
		fi
	done <"$list"
}

# SMC frees closed sockets asynchronously (close work, link group
# teardown), and each holds a reference on smc.ko until then: retry for
# up to 10 s before calling a module busy.
rmmod_settled() {
	i=0
	while ! rmmod "$1" 2>/dev/null; do
		i=$((i + 1))
		if [ $i -ge 20 ]; then
			grep "^$1 " /proc/modules
			rmmod "$1"
			return
		fi
		sleep 0.5
	done
}

do_unload() {
	rc=0
	for n in $(sed '1!G;h;$!d' "$list"); do
		loaded "$n" || continue
		if [ $# -gt 0 ]; then
			case " $* " in *" $n "*) ;; *) continue ;; esac
		fi
		if rmmod_settled "$n"; then
			msg "rmmod ok $n"
		else
			msg "rmmod failed $n"
			rc=1
		fi
	done
	return $rc
}

case ${0##*/} in
ism-load) do_load "$@" ;;
ism-unload) do_unload "$@" ;;
*) echo "usage: ism-load [-k GLOB] [NAME...] | ism-unload [NAME...]" >&2; exit 2 ;;
esac
