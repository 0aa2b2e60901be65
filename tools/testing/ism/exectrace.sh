#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# exectrace.sh start DIR PID | stop DIR | programs TRACE | abandon DIR
# Which programs a run of the harness executes, as the kernel saw them:
# the ftrace events sched_process_fork and sched_process_exec of process
# PID and its descendants (set_event_pid with the event-fork option), in
# a tracefs instance of its own, streamed into DIR/trace.
#   start  begins recording (root only; mounts tracefs if needed)
#   stop   drains and ends the recording, then writes DIR/programs
#   programs TRACE prints what programs writes, for a trace file
#   abandon  ends it with no list (start's watcher does, if PID ends
#          first)
# DIR/programs lists the programs run, one absolute path a line, sorted:
# every file the tree executed and, for a script, the interpreter its #!
# line names, but not what runs beneath a chroot (another root's
# programs), dpkg (packages' maintainer scripts) or ldd (which tries
# every dynamic loader a machine has, 32-bit ones too), nor the QEMU
# emulators libvirtd probes beside the guests' x86_64 one, and no file
# of the project's own: under the checkout, ISM_BUILD, the cache
# (${ISM_CACHE:-$HOME/.cache/ism}: test kernels, Debian roots), or a
# temporary directory. deps-root.sh checks that a Debian 12 root with
# deps.sh's packages has every one. Fails, saying why, if the kernel
# cannot trace or dropped events: a partial list would prove nothing.
set -u
. "$(dirname "$0")/lib.sh"

tracefs=/sys/kernel/tracing
cache=${ISM_CACHE:-$HOME/.cache/ism}

# programs TRACE: the list described above, from a trace of the events
programs() {
	# A fork gives the child its parent's state; a pid that ran chroot,
	# dpkg or ldd is "out" from its next exec on, and so are its
	# children. Beneath libvirtd ("lv"), which probes every QEMU
	# emulator a machine has for its capabilities, only the guests'
	# (x86_64) counts: a machine without the others probes none.
	awk '
	function field(name,   i, s) {
		i = index($0, " " name "=")
		if (!i)
			return ""
		s = substr($0, i + length(name) + 2)
		sub(/ .*/, "", s)
		return s
	}
	/ sched_process_fork: / {
		p = field("pid"); c = field("child_pid")
		out[c] = out[p]
		lv[c] = lv[p]
		next
	}
	/ sched_process_exec: filename=/ {
		f = $0
		sub(/.* sched_process_exec: filename=/, "", f)
		sub(/ pid=[0-9]+ old_pid=[0-9]+$/, "", f)
		p = field("pid"); o = field("old_pid")
		if (out[o] || out[p])
			next
		if ((lv[o] || lv[p]) && f ~ /\/qemu-system-[^\/]+$/ &&
			f !~ /\/qemu-system-x86_64$/)
			next
		print f
		if (f ~ /\/(chroot|dpkg|ldd)$/)
			out[p] = 1
		lv[p] = f ~ /\/libvirtd$/
	}' "$1" | sort -u | while IFS= read -r f; do
		case $f in
		/*) ;;
		*) continue ;;
		esac
		# The interpreter of a script, which the event does not name
		# (a script's env runs its program with an event of its own).
		if [ -f "$f" ] && [ "$(head -c 2 "$f" 2>/dev/null)" = '#!' ]; then
			i=$(head -n 1 "$f" | sed 's/^#![[:space:]]*//; s/[[:space:]].*//')
			[ -z "$i" ] || echo "$i"
		fi
		case $f in
		"$ISM_ROOT"/* | "$ISM_BUILD"/* | "$cache"/* | /tmp/* | /var/tmp/* | \
			/dev/shm/* | /proc/*) ;;
		*) echo "$f" ;;
		esac
	done | sort -u
}

cmd=${1:-}
case $cmd in
programs)
	programs "${2:?usage: exectrace.sh programs TRACE}"
	exit
	;;
start | stop | abandon) ;;
*)
	log "usage: exectrace.sh start DIR PID | stop DIR | programs TRACE"
	exit 2
	;;
esac
dir=${2:?usage: exectrace.sh $cmd DIR}
inst_file=$dir/instance

if [ "$cmd" = start ]; then
	pid=${3:?usage: exectrace.sh start DIR PID}
	[ "$(id -u)" = 0 ] || { log "exectrace: tracing the programs run needs root"; exit 1; }
	if [ ! -d "$tracefs/instances" ]; then
		mount -t tracefs nodev "$tracefs" 2>/dev/null
		[ -d "$tracefs/instances" ] ||
			{ log "exectrace: no tracefs at $tracefs (a kernel without ftrace?)"; exit 1; }
	fi
	mkdir -p "$dir"
	inst=$tracefs/instances/ism-exectrace-$$
	mkdir "$inst" || { log "exectrace: cannot make the tracefs instance $inst"; exit 1; }
	echo "$inst" >"$inst_file"
	# Streamed as it comes: a small buffer per CPU does for any run.
	{
		echo 4096 >"$inst/buffer_size_kb" &&
			echo "$pid" >"$inst/set_event_pid" &&
			echo 1 >"$inst/options/event-fork" &&
			echo 1 >"$inst/events/sched/sched_process_fork/enable" &&
			echo 1 >"$inst/events/sched/sched_process_exec/enable"
	} 2>/dev/null || { log "exectrace: the kernel refused the events"; rmdir "$inst"; exit 1; }
	: >"$dir/trace"
	# Neither the reader nor the watcher is traced: this script was
	# started before PID's filter was set.
	setsid cat "$inst/trace_pipe" >"$dir/trace" </dev/null 2>/dev/null &
	echo $! >"$dir/reader"
	echo 1 >"$inst/tracing_on"
	# A run that ends without stop (an early exit) leaves no instance
	# and no reader behind: the watcher removes them once PID is gone.
	setsid sh -c 'while kill -0 "$1" 2>/dev/null && [ -e "$2" ]; do
			sleep 2
		done
		[ ! -e "$2" ] || "$3" abandon "$4"' sh "$pid" "$inst_file" "$0" "$dir" \
		</dev/null >/dev/null 2>&1 &
	exit 0
fi

[ -r "$inst_file" ] || { log "exectrace: no recording in $dir"; exit 1; }
inst=$(cat "$inst_file")
reader=$(cat "$dir/reader")
# teardown: the reader and the instance gone; the instance cannot be
# removed while the reader has its trace_pipe open
teardown() {
	echo 0 >"$inst/tracing_on"
	kill "$reader" 2>/dev/null
	_n=0
	while ! rmdir "$inst" 2>/dev/null; do
		_n=$((_n + 1))
		if [ $_n -gt 50 ]; then
			log "exectrace: cannot remove $inst"
			break
		fi
		sleep 0.1
	done
	rm -f "$inst_file" "$dir/reader"
}
if [ "$cmd" = abandon ]; then
	teardown
	exit 0
fi

# stop: a marker after the last event; once the reader has passed it,
# the trace is complete.
echo 0 >"$inst/events/sched/enable"
mark="ism-exectrace-end-$$"
echo "$mark" >"$inst/trace_marker"
n=0
until grep -q "$mark" "$dir/trace"; do
	n=$((n + 1))
	if [ $n -gt 100 ]; then
		log "exectrace: the trace of $dir did not drain"
		teardown
		exit 1
	fi
	sleep 0.1
done
lost=$(cat "$inst"/per_cpu/cpu*/stats 2>/dev/null |
	awk '/^(overrun|dropped events):/ { n += $NF } END { print n + 0 }')
teardown
if [ "$lost" -ne 0 ]; then
	log "exectrace: the kernel dropped $lost events of $dir/trace"
	exit 1
fi
programs "$dir/trace" >"$dir/programs"
