#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# exectrace-test.sh: test the check that deps.sh installs every program
# the harness runs: exectrace.sh's list of the programs in a trace
# (which processes count, which paths, a script's interpreter), its
# recording of a real process tree, and deps-root.sh's verdict on a
# small root made here (ISM_DEPS_ROOT): a program missing there, by name
# or by path, fails it and is named. Prints KTAP-like lines; exits 1 if
# any case failed. Root only (ftrace, chroot).
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0 failed=0

# expect WHAT WANT GOT: a case passes if GOT is WANT
expect() {
	n=$((n + 1))
	if [ "$3" = "$2" ]; then
		echo "ok $n $1"
	else
		echo "not ok $n $1"
		echo "# want: $(echo "$2" | paste -sd ' ')"
		echo "# got:  $(echo "$3" | paste -sd ' ')"
		failed=$((failed + 1))
	fi
}

# A trace as ftrace prints the two events: 100 runs make, which runs
# gcc (a child), a script of the checkout, a chroot whose command and
# its child are another root's, dpkg whose maintainer script is a
# package's, an exec by a name that is no path, and ldd, whose loaders
# are the machine's.
perl_script=$tmp/tool.pl
printf '#!/usr/bin/perl -w\nprint 1;\n' >"$perl_script"
py_script=$ISM_ROOT/tools/testing/ism/parse-log.py
ev() {
	echo "           $1-$2     [000] .....   1.000000: $3"
}
{
	ev sh 100 "sched_process_exec: filename=/usr/bin/make pid=100 old_pid=100"
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=101"
	ev gcc 101 "sched_process_exec: filename=/usr/bin/gcc pid=101 old_pid=101"
	ev gcc 101 "sched_process_fork: comm=gcc pid=101 child_comm=gcc child_pid=102"
	ev cc1 102 "sched_process_exec: filename=/usr/lib/gcc/x86_64-linux-gnu/12/cc1 pid=102 old_pid=102"
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=103"
	ev parse 103 "sched_process_exec: filename=$py_script pid=103 old_pid=103"
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=104"
	ev chroot 104 "sched_process_exec: filename=/usr/sbin/chroot pid=104 old_pid=104"
	ev apt 104 "sched_process_exec: filename=/usr/bin/apt-get pid=104 old_pid=104"
	ev apt 104 "sched_process_fork: comm=apt-get pid=104 child_comm=apt-get child_pid=105"
	ev http 105 "sched_process_exec: filename=/usr/lib/apt/methods/http pid=105 old_pid=105"
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=106"
	ev dpkg 106 "sched_process_exec: filename=/usr/bin/dpkg pid=106 old_pid=106"
	ev dpkg 106 "sched_process_fork: comm=dpkg pid=106 child_comm=dpkg child_pid=107"
	ev post 107 "sched_process_exec: filename=/var/lib/dpkg/info/x.postinst pid=107 old_pid=107"
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=108"
	ev tool 108 "sched_process_exec: filename=$perl_script pid=108 old_pid=108"
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=109"
	ev sh 109 "sched_process_exec: filename=./relative pid=109 old_pid=109"
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=110"
	ev ldd 110 "sched_process_exec: filename=/usr/bin/ldd pid=110 old_pid=110"
	ev ldd 110 "sched_process_fork: comm=ldd pid=110 child_comm=ldd child_pid=111"
	ev ld 111 "sched_process_exec: filename=/lib/ld-linux.so.2 pid=111 old_pid=111"
	# A pid that ran chroot, reused by a process of the tree: counted
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=104"
	ev ld 104 "sched_process_exec: filename=/usr/bin/ld pid=104 old_pid=104"
	# libvirtd, which probes every QEMU emulator installed and runs the
	# guests' x86_64 one: only that one counts, and its other programs
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=112"
	ev libvirtd 112 "sched_process_exec: filename=/usr/sbin/libvirtd pid=112 old_pid=112"
	ev libvirtd 112 "sched_process_fork: comm=libvirtd pid=112 child_comm=libvirtd child_pid=113"
	ev qemu 113 "sched_process_exec: filename=/usr/bin/qemu-system-alpha pid=113 old_pid=113"
	ev libvirtd 112 "sched_process_fork: comm=libvirtd pid=112 child_comm=libvirtd child_pid=114"
	ev qemu 114 "sched_process_exec: filename=/usr/bin/qemu-system-x86_64 pid=114 old_pid=114"
	ev libvirtd 112 "sched_process_fork: comm=libvirtd pid=112 child_comm=libvirtd child_pid=115"
	ev dnsmasq 115 "sched_process_exec: filename=/usr/sbin/dnsmasq pid=115 old_pid=115"
	# An emulator run by the tree itself counts, whatever its name.
	ev make 100 "sched_process_fork: comm=make pid=100 child_comm=make child_pid=116"
	ev qemu 116 "sched_process_exec: filename=/usr/bin/qemu-system-s390x pid=116 old_pid=116"
} >"$tmp/trace"
# parse-log.py's #! names /usr/bin/env (which runs python3 with an event
# of its own), tool.pl's /usr/bin/perl, ldd's /bin/bash.
want=$(printf '%s\n' /bin/bash /usr/bin/dpkg /usr/bin/env /usr/bin/gcc \
	/usr/bin/ld /usr/bin/ldd /usr/bin/make /usr/bin/perl \
	/usr/lib/gcc/x86_64-linux-gnu/12/cc1 /usr/sbin/chroot \
	/usr/sbin/libvirtd /usr/bin/qemu-system-x86_64 /usr/sbin/dnsmasq \
	/usr/bin/qemu-system-s390x | sort)
expect "programs: the tree's, interpreters of scripts, nothing under chroot, dpkg or ldd, no emulator libvirtd probes, no project file" \
	"$want" "$("$ISM_TESTDIR/exectrace.sh" programs "$tmp/trace")"

# A real recording: a process tree runs true and, from a subshell,
# cksum; the list has both, and the tracefs instance is gone after.
rec=$tmp/rec
sh -c '"$1" start "$2" $$ || exit 1
	cp "$2/instance" "$2.instance"
	/bin/true
	( /usr/bin/cksum </dev/null >/dev/null )
	"$1" stop "$2"' sh "$ISM_TESTDIR/exectrace.sh" "$rec" 2>"$tmp/rec.err"
got=$(grep -x -e /bin/true -e /usr/bin/cksum "$rec/programs" 2>/dev/null | sort)
expect "a recording: the programs of the tree, by the paths they ran as" \
	"$(printf '%s\n' /bin/true /usr/bin/cksum)" "$got$(cat "$tmp/rec.err")"
inst=$(cat "$rec.instance" 2>/dev/null)
expect "a recording: its tracefs instance removed at stop" "gone" \
	"$([ -n "$inst" ] && [ ! -d "$inst" ] && echo gone)"

# A run that ends without stop: its watcher removes the instance.
rec2=$tmp/rec2
sh -c '"$1" start "$2" $$ && cp "$2/instance" "$2.instance"' sh \
	"$ISM_TESTDIR/exectrace.sh" "$rec2"
inst=$(cat "$rec2.instance" 2>/dev/null)
i=0
while [ -n "$inst" ] && [ -d "$inst" ] && [ $i -lt 10 ]; do
	sleep 1
	i=$((i + 1))
done
expect "a run that never stopped: its instance removed once it ended" "gone" \
	"$([ -n "$inst" ] && [ ! -d "$inst" ] && echo gone)"

# deps-root.sh on a root of busybox and two programs: one program
# missing by name, one by path; its result line names both.
root=$tmp/root
mkdir -p "$root/bin" "$root/usr/bin" "$root/usr/lib/helper"
cp /bin/busybox "$root/bin/sh"
ln -s sh "$root/bin/busybox"
for p in present; do
	printf '#!/bin/sh\n' >"$root/usr/bin/$p"
	chmod 755 "$root/usr/bin/$p"
done
printf '%s\n' /usr/bin/present /usr/bin/absent /usr/lib/helper/run /usr/bin/sh >"$tmp/progs"
out=$(ISM_DEPS_ROOT=$root ISM_BUILD=$tmp/build ISM_RESULTS=$tmp/results \
	"$ISM_TESTDIR/deps-root.sh" check s390x "deps-root test" "$tmp/progs" 2>"$tmp/err")
rc=$?
expect "deps-root: a program missing by name and one by path fail it, named" \
	"1 not ok deps-root test # not in deps.sh's s390x packages: absent, run" "$rc $out"
printf '%s\n' /usr/bin/present /bin/sh >"$tmp/progs"
out=$(ISM_DEPS_ROOT=$root ISM_BUILD=$tmp/build ISM_RESULTS=$tmp/results \
	"$ISM_TESTDIR/deps-root.sh" check base "deps-root test" "$tmp/progs" 2>"$tmp/err")
expect "deps-root: every program there passes" \
	"ok deps-root test # 2 programs, all in root" "$out"
# A root whose shell does not run finds nothing missing: no verdict.
mkdir -p "$tmp/broken/bin"
: >"$tmp/broken/bin/sh"
out=$(ISM_DEPS_ROOT=$tmp/broken ISM_BUILD=$tmp/build ISM_RESULTS=$tmp/results \
	"$ISM_TESTDIR/deps-root.sh" check base "deps-root test" "$tmp/progs" 2>"$tmp/err")
expect "deps-root: a lookup that did not run fails" \
	"not ok deps-root test # the lookup in $tmp/broken failed (status 126)" "$out"
out=$(ISM_DEPS_ROOT=$root ISM_BUILD=$tmp/build ISM_RESULTS=$tmp/results \
	"$ISM_TESTDIR/deps-root.sh" check base "deps-root test" "$tmp/progs" "$tmp/nosuch" 2>"$tmp/err")
expect "deps-root: a cached artifact without its list fails, named" \
	"not ok deps-root test # $tmp/nosuch missing: what ran to make $tmp is unknown; remove it to build it again" \
	"$out"

echo "# $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
