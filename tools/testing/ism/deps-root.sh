#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps-root.sh root [LIST] | check LIST LABEL PROGRAMS...
# Does deps.sh install everything the harness runs? A machine that
# already had a package the list lacks passes every test, and a fresh one
# fails (Debian 12's 6.12 headers run pahole, from dwarves, for every
# module they build). So the answer is taken from a Debian 12 root that
# has nothing but the minbase (debootstrap's smallest) and the list
# LIST of deps.sh that the target installs (base, make check's, or
# s390x, deb, vms: deps.sh's argument), installed with apt as deps.sh
# installs it (debroot.sh's debroot_tools, cached by the list; the
# others a copy of base's root, vms's of deb's, with the rest
# installed, as on a machine where make check ran first): the programs
# a run executed (exectrace.sh's lists PROGRAMS: the run's own and
# those of the builds of the cached artifacts it used, programs_used in
# lib.sh) must all be there. A program in a directory of the harness's
# PATH is looked up by name there, as the harness would; any other by
# its path.
#   root   builds (or finds) the root of LIST (base if not given) and
#          prints its path
#   check  records one result line LABEL: ok, or the programs missing
#          from the root and the host's packages that have them
# Root only (debootstrap, chroot).
set -u
. "$(dirname "$0")/lib.sh"
. "$ISM_TESTDIR/debroot.sh"

# root LIST: the root for deps.sh's list LIST, or ISM_DEPS_ROOT
# (exectrace-test.sh's)
root() {
	if [ -n "${ISM_DEPS_ROOT:-}" ]; then
		echo "$ISM_DEPS_ROOT"
		return 0
	fi
	case $1 in
	base) _from= ;;
	s390x | deb) _from=$(root base) || return 1 ;;
	vms) _from=$(root deb) || return 1 ;;
	*)
		log "deps-root: no list $1 (base, s390x, deb, vms)"
		return 1
		;;
	esac
	_list=$1
	[ "$_list" != base ] || _list=
	debroot_tools "$("$ISM_TESTDIR/deps.sh" --list $_list | sort -u)" $_from
}

case ${1:-} in
root)
	root "${2:-base}"
	exit
	;;
check) ;;
*)
	log "usage: deps-root.sh root [LIST] | check LIST LABEL PROGRAMS..."
	exit 2
	;;
esac
list=${2:?usage: deps-root.sh check LIST LABEL PROGRAMS...}
label=${3:?usage: deps-root.sh check LIST LABEL PROGRAMS...}
shift 3
if ! r=$(root "$list"); then
	result fail "$label" "no Debian 12 root with deps.sh's $list packages (debroot.sh)"
	exit 1
fi
for f; do
	[ -r "$f" ] && continue
	# A cached artifact built without tracing (not as root).
	result fail "$label" "$f missing: what ran to make ${f%/*} is unknown; remove it to build it again"
	exit 1
done
progs=$(sort -u "$@")
[ -n "$progs" ] || { result fail "$label" "no program was recorded"; exit 1; }
# The lookup runs in the root itself (chroot, no mounts needed: it
# uses no /proc or /dev), so that its symbolic links resolve there. It
# ends with a line "looked up": no verdict without it (a root whose
# shell does not run says nothing, which is not "nothing missing").
# shellcheck disable=SC2016,SC2086 # the inner script; a list of paths
out=$(chroot "$r" /bin/sh -c '
	PATH=$1
	shift
	for p; do
		case ":$PATH:" in
		*":${p%/*}:"*) [ -n "$(command -v "${p##*/}")" ] ;;
		*) [ -x "$p" ] ;;
		esac || echo "$p"
	done
	echo looked up' sh "$PATH" $progs)
rc=$?
if [ $rc -ne 0 ] || [ "$(echo "$out" | tail -n 1)" != "looked up" ]; then
	result fail "$label" "the lookup in $r failed (status $rc)"
	exit 1
fi
missing=$(echo "$out" | sed '$d')
n=$(echo "$progs" | wc -l)
if [ -z "$missing" ]; then
	result ok "$label" "$n programs, all in $(basename "$r")"
	exit 0
fi
names=$(for p in $missing; do
	pkg=$(dpkg -S "$p" 2>/dev/null | head -n 1 | cut -d: -f1)
	[ -n "$pkg" ] ||
		pkg=$(dpkg -S "$(readlink -f "$p")" 2>/dev/null | head -n 1 | cut -d: -f1)
	log "deps-root: $p ran, and no package of deps.sh's $list list has it (here: ${pkg:-no package})"
	echo "${p##*/}${pkg:+ ($pkg)}"
done | paste -sd , | sed 's/,/, /g')
result fail "$label" "not in deps.sh's $list packages: $names"
exit 1
