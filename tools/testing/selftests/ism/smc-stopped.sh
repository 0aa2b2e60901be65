#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: a device removal that an application holds up cannot wedge the
# system. SMC lets a device go only once every socket of its connections
# on it is closed, and a stopped process (SIGSTOP) closes nothing: the
# removal waits for it. Meanwhile the rest of the system must go on: each
# of ismctl dev, ismctl dmb, reading every file of /sys/class/ism/*/,
# smc_info dev (SMC's generic netlink family) and adding and deleting
# another loopback device (lo9) must end within 5 s, and ismctl dev must
# show the device going.
#   Scenario 1: the client end of an SMC-D connection is stopped and
#   "ismctl dev del ismlo0" removes the device (it may return at once or
#   wait until the device is gone); then SIGCONT: the client sees its
#   connection ended and closes it, and the removal completes.
#   Scenario 2: ism_lo back, a new connection, both ends stopped, and
#   "rmmod ism_lo" (lo9 may be refused at once: its type goes with the
#   module; it must say why); then SIGKILL: the sockets close as the
#   processes die, and rmmod completes.
# Each scenario must leave no kernel report and no DMB, and every module
# must unload at the end.
# A command stuck in the kernel (state D) cannot be killed: every command
# here that could be is run in the background and watched through
# /proc/PID/stat, never waited for without a bound. The stopped processes
# are resumed or killed at the end of each scenario however its checks
# went, and by a watchdog should this script be stuck or killed itself,
# so that the removal always ends and the tests after this one run.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"
. "$ISM_LIB/json.sh"
. "$ISM_LIB/kmsg.sh"

D=/tmp/stopped
rm -rf $D
mkdir -p $D
# A command must end within LIMIT s (timeout LIMIT); one that has not
# ended GRACE s later (starting and reaping a process takes time in an
# emulated guest) is stuck.
LIMIT=5
GRACE=4
# The watchdog releases the stopped processes this long after they were
# stopped: after every check of a scenario (one minute at most even where
# every command is stuck), before the kernel's hung-task detector (120 s)
# would report the waiting removal.
WATCHDOG=100

# pstate PID: sets PS to the state letter of PID (/proc/PID/stat), empty
# once it is reaped. Builtins only: polled often.
pstate() {
	PS=
	_l=
	{ read -r _l <"/proc/$1/stat"; } 2>/dev/null
	_l=${_l##*) }
	PS=${_l%% *}
}

# ended PID: PID has exited (a zombie not yet reaped, or gone)
ended() {
	pstate "$1"
	case $PS in '' | Z | X) return 0 ;; esac
	return 1
}

# is_stopped PID: PID is stopped by a signal
is_stopped() {
	pstate "$1"
	[ "$PS" = T ]
}

# now: sets NOW to the uptime in seconds
now() {
	read -r _u _x </proc/uptime
	NOW=${_u%.*}
}

# removal_done N WHAT SIGNAL ERRFILE: the background removal $rpid (WHAT,
# its stderr in ERRFILE) ends with status 0 within 60 s of SIGNAL
removal_done() {
	if wait_for 60 ended $rpid; then
		wait $rpid
		r=$?
		[ $r = 0 ] && ok "$1: $2 completed after $3" ||
			bad "$1: $2: status $r: $(cat "$4")"
	else
		bad "$1: $2 not ended 60 s after $3"
		stack $rpid
	fi
}

# stack PID: the state and kernel stack of PID, as comments
stack() {
	pstate "$1"
	echo "#   $(cat "/proc/$1/comm" 2>/dev/null) ($1): state $PS, wchan $(cat "/proc/$1/wchan" 2>/dev/null)"
	sed 's/^/#     /' "/proc/$1/stack" 2>/dev/null
}

# start NAME CMD...: CMD under "timeout $LIMIT" in the background, its
# output in $D/NAME.out and $D/NAME.err; finish NAME watches it
start() {
	_n=$1
	shift
	echo "$*" >"$D/$_n.cmd"
	now
	echo $((NOW + LIMIT + GRACE)) >"$D/$_n.end"
	timeout $LIMIT "$@" >"$D/$_n.out" 2>"$D/$_n.err" &
	echo $! >"$D/$_n.pid"
}

# finish NAME: wait, without blocking on it, for the command started as
# NAME until LIMIT + GRACE s after its start. Sets R to its exit status,
# or to "stuck" if it has not ended: its pid then goes to $D/stuck, to be
# reaped once the removal is over.
finish() {
	read -r _p <"$D/$1.pid"
	read -r _end <"$D/$1.end"
	while ! ended "$_p"; do
		now
		if [ "$NOW" -ge "$_end" ]; then
			R=stuck
			echo "$_p $1" >>$D/stuck
			echo "# $1 ($(cat "$D/$1.cmd")): not ended after $((LIMIT + GRACE)) s:"
			stack "$_p"
			return
		fi
		sleep 0.1
	done
	wait "$_p"
	R=$?
}

# in_time WHAT: the command just finished ended within the limit; else a
# "not ok" line
in_time() {
	case $R in
	stuck) bad "$1: not ended within $LIMIT s (stuck in the kernel: stack above)" ;;
	143) bad "$1: not ended within $LIMIT s (timeout stopped it with SIGTERM)" ;;
	*) return 0 ;;
	esac
	return 1
}

# status_is WHAT NAME WANT: the command NAME ended in time with status
# WANT
status_is() {
	in_time "$1" || return 1
	if [ "$R" = "$3" ]; then
		ok "$1 ended in time"
		return 0
	fi
	bad "$1: status $R, want $3: $(head -n 3 "$D/$2.err")"
	return 1
}

# aborted PORT: SMC has ended the connection on PORT: none of its socket
# ends (smc_diag) is in a state other than CLOSED, though a stopped
# process may still hold its socket
aborted() {
	smc_ss -j >$D/ss.json 2>/dev/null || return 1
	! tr '{' '\n' <$D/ss.json | grep -E "\"(local|peer)_port\":$1[,}]" |
		grep -qv '"state":"CLOSED"'
}

# ends PORT: the states of the socket ends on PORT in $D/ss.json
ends() {
	tr '{' '\n' <$D/ss.json | grep -E "\"(local|peer)_port\":$1[,}]" |
		sed -n 's/.*"state":"\([A-Z0-9]*\)".*/\1/p' | tr '\n' ' '
}

# begun PORT PID: the removal (process PID) has ended the connection on
# PORT, or has itself ended (failed, or did not wait)
begun() {
	aborted "$1" || ended "$2"
}

# watchdog SECS: unless $D/released appears within SECS, kill the
# processes listed in $D/procs (no output: the console pipe may be gone
# by then, should the runner have killed this script)
watchdog() {
	_w=0
	while [ $_w -lt "$1" ]; do
		[ -e $D/released ] && return 0
		sleep 1
		_w=$((_w + 1))
	done
	release
	echo "ism-e2e smc-stopped: watchdog: killed $(cat $D/procs)" >/dev/kmsg
}

# release: kill whatever this scenario stopped. SIGKILL alone: it ends a
# stopped process at once, while one resumed first might still see the
# end of its connection and exit by itself.
release() {
	_procs=$(cat $D/procs 2>/dev/null)
	touch $D/released
	[ -n "$_procs" ] || return 0
	# shellcheck disable=SC2086
	kill -KILL $_procs 2>/dev/null
}
trap 'release; exit 1' INT TERM

# connect S PORT: an SMC-D connection on PORT between an smc_xfer server
# and client, each end holding (idle) after its transfer; sets spid and
# cpid
connect() {
	smc_xfer server -n 1 -p "$2" >$D/s$1 2>&1 &
	spid=$!
	echo "$spid" >$D/procs
	wait_listen $D/s$1 || return 1
	smc_xfer client -a 127.0.0.1 -p "$2" -b 1M --bidir --hold 300 \
		>$D/c$1 2>&1 &
	cpid=$!
	echo "$spid $cpid" >$D/procs
	if ! wait_conns 2 "$2"; then
		bad "$1: the connection is not listed (smc_ss)"
		return 1
	fi
	m=$(modes "$2")
	if [ "$m" != "SMCD " ]; then
		bad "$1: connection modes '$m', want SMCD"
		return 1
	fi
	if ! wait_holding $D/s$1 1 || ! wait_holding $D/c$1 1; then
		cat $D/s$1 $D/c$1
		bad "$1: the connection did not finish its transfer"
		return 1
	fi
	ok "$1: an SMC-D connection on port $2, both ends idle"
}

# stop S PID...: SIGSTOP to PIDs, and wait until they are stopped
stop() {
	_s=$1
	shift
	kill -STOP "$@"
	for _p in "$@"; do
		wait_for 10 is_stopped "$_p" ||
			{ bad "$_s: process $_p not stopped by SIGSTOP"; return 1; }
	done
	ok "$_s: SIGSTOP to $*: stopped"
}

# going_shown DEV NAME: the ismctl -j dev output of the command NAME, or
# the text output of dev$S, shows DEV going
going_shown() {
	if json_flat "$D/$2.out" >/dev/null; then
		_i=$(jidx "$D/$2.out.flat" name "$1")
		[ -n "$_i" ] && [ "$(jget "$D/$2.out.flat" "$_i/going")" = true ] &&
			return 0
	fi
	grep -q "^$1:.* going" "$D/dev$S.out"
}

# blocked S DEV REMOVER: the checks while the removal of DEV (by the
# process REMOVER) waits for the stopped process of scenario S
blocked() {
	S=$1
	bdev=$2
	brm=$3
	# The readers side by side, each within LIMIT s.
	start dev$S ismctl dev
	start dmb$S ismctl dmb
	# cat /sys/class/ism/*/*, files only: one process
	set --
	for f in /sys/class/ism/*/*; do
		[ -f "$f" ] && set -- "$@" "$f"
	done
	start sysfs$S cat "$@"
	start smcinfo$S smc_info dev
	finish dev$S
	status_is "$S: ismctl dev" dev$S 0
	finish dmb$S
	status_is "$S: ismctl dmb" dmb$S 0
	finish sysfs$S
	# Files may vanish with the device, and an attribute may not be
	# readable: only the time counts; the errors are shown.
	if in_time "$S: cat /sys/class/ism/*/* (files)"; then
		ok "$S: cat /sys/class/ism/*/* ($# files) ended in time, status $R"
		sed 's/^/# /' $D/sysfs$S.err
	fi
	finish smcinfo$S
	status_is "$S: smc_info dev (SMC's generic netlink family)" smcinfo$S 0

	# The device shows "going" while its removal waits.
	start devj$S ismctl -j dev
	finish devj$S
	if in_time "$S: a second ismctl dev (-j)"; then
		if going_shown "$bdev" devj$S; then
			ok "$S: ismctl dev shows $bdev going"
		elif ! grep -q "\"name\":\"$bdev\"" $D/devj$S.out && ended "$brm"; then
			ok "$S: $bdev already gone: the removal did not wait for the stopped process"
		else
			cat $D/dev$S.out $D/devj$S.out
			bad "$S: ismctl dev does not show $bdev going (no \"going\": true, no 'going' in the text)"
		fi
	else
		bad "$S: ismctl dev does not show $bdev going (it did not end)"
	fi

	# Another device comes and goes meanwhile. While ism_lo is being
	# unloaded (scenario 2) its type may be gone: refused at once, with
	# the reason, is fine.
	start add$S ismctl dev add loopback lo9
	finish add$S
	added=$R
	if in_time "$S: ismctl dev add loopback lo9"; then
		if [ "$R" = 0 ]; then
			ok "$S: ismctl dev add loopback lo9 ended in time"
		elif [ "$S" = 2 ] && [ "$R" = 1 ] && [ -s $D/add$S.err ]; then
			ok "$S: ismctl dev add loopback lo9 refused at once, ism_lo going # $(head -n 1 $D/add$S.err)"
		else
			bad "$S: ismctl dev add loopback lo9: status $R: $(head -n 3 $D/add$S.err)"
		fi
	fi
	start del$S ismctl dev del lo9
	finish del$S
	if in_time "$S: ismctl dev del lo9"; then
		if [ "$R" = 0 ] || { [ "$added" != 0 ] && [ "$R" = 1 ]; }; then
			ok "$S: ismctl dev del lo9 ended in time (status $R)"
		else
			bad "$S: ismctl dev del lo9: status $R: $(head -n 3 $D/del$S.err)"
		fi
	fi
}

# reap_stuck S: the commands stuck during scenario S, now that its
# removal is over, must end (60 s)
reap_stuck() {
	[ -s $D/stuck ] || return 0
	while read -r _p _n; do
		if wait_for 60 ended "$_p"; then
			wait "$_p"
			echo "# $_n ended after the removal, status $?: $(head -n 1 "$D/$_n.err")"
		else
			bad "$1: $_n still not ended 60 s after the removal"
			stack "$_p"
		fi
	done <$D/stuck
	: >$D/stuck
}

# dev_gone SECS DEV: ismctl says DEV does not exist, within SECS; every
# ismctl bounded
dev_gone() {
	now
	_end=$((NOW + $1))
	while :; do
		start gone ismctl dev show "$2"
		finish gone
		[ "$R" = stuck ] && return 1
		[ "$R" = 1 ] && grep -q 'No such device' $D/gone.err && return 0
		now
		[ "$NOW" -lt $_end ] || return 1
		sleep 0.5
	done
}

# lo9_gone S: no lo9 is left (one added while the removal waited may have
# been deleted before it was made, by the stuck commands)
lo9_gone() {
	dev_gone 1 lo9 && return 0
	start del9 ismctl dev del lo9
	finish del9
	dev_gone 10 lo9 || bad "$1: lo9 left over"
}

# no_dmbs S: ismctl -j dmb lists none
no_dmbs() {
	start dmbs ismctl -j dmb
	finish dmbs
	if [ "$R" = 0 ] && json_flat $D/dmbs.out &&
	   [ "$(jget $D/dmbs.out.flat '')" = "[]" ]; then
		ok "$1: no DMB left"
	else
		cat $D/dmbs.out $D/dmbs.err
		bad "$1: DMBs left, or ismctl -j dmb failed (status $R)"
	fi
}

# app S PID LOG WANT...: PID, an smc_xfer end, must end (60 s) with one
# of the statuses WANT; its connection lines are printed
app() {
	if ! wait_for 60 ended "$2"; then
		bad "$1: smc_xfer ($3) has not ended"
		stack "$2"
		return 1
	fi
	wait "$2"
	_r=$?
	sed -n 's/^smc_xfer: \(.*conn.*\)/# \1/p' "$3"
	_what="$1: smc_xfer ($3)"
	shift 3
	for _w in "$@"; do
		[ "$_r" = "$_w" ] && return 0
	done
	bad "$_what: exit status $_r, want $*"
	return 1
}

smc_setup
: >$D/stuck

# ---- scenario 1: ismctl dev del, the client stopped, then SIGCONT ----
kmsg_mark smc-stopped-1
if connect 1 5701; then
	rm -f $D/released
	stop 1 $cpid
	watchdog $WATCHDOG >/dev/null 2>&1 &
	wdog=$!
	ismctl dev del ismlo0 >$D/rm1.out 2>$D/rm1.err &
	rpid=$!
	if wait_for 30 begun 5701 $rpid; then
		pstate $rpid
		echo "# ismctl dev del ismlo0: state ${PS:-(ended)}; the connection's ends: $(ends 5701)"
	else
		bad "1: the removal has not ended the connection in 30 s"
	fi
	blocked 1 ismlo0 $rpid
	kill -CONT $cpid
	release_t=$(cut -d' ' -f1 /proc/uptime)
	echo "$spid" >$D/procs
	touch $D/released
	wait $wdog
	removal_done 1 "ismctl dev del ismlo0" SIGCONT $D/rm1.err
	dev_gone 60 ismlo0 && ok "1: ismlo0 gone" ||
		bad "1: ismlo0 still there 60 s after SIGCONT"
	echo "# SIGCONT at $release_t s, ismlo0 gone at $(cut -d' ' -f1 /proc/uptime) s"
	# The client, resumed, finds its connection ended and closes it.
	# smc_xfer exits 3 when a connection that moved its data intact
	# ended during the hold, 1 if it failed otherwise.
	if app 1 $cpid $D/c1 1 3; then
		s=$(grep 'client conns=' $D/c1)
		case $s in
		*' ok=0 '*' ended=1 '* | *' ok=0 failed=1 '*)
			ok "1: the client saw its connection aborted # ${s#smc_xfer: }" ;;
		*) bad "1: the client's account: $s" ;;
		esac
	fi
	app 1 $spid $D/s1 1 3 && ok "1: the server saw the connection end"
	reap_stuck 1
	lo9_gone 1
else
	release
	wait
fi
echo >$D/procs
no_dmbs 1
kmsg_clean smc-stopped-1 && ok "1: no kernel report" || bad "1: kernel reports"

# ---- scenario 2: rmmod ism_lo, both ends stopped, then SIGKILL ----
# ism_lo back (its own logging, as it went with ism-unload)
ism-unload ism_lo || bad "ism-unload ism_lo (no device left)"
mod_load ism_lo || bad "insmod ism_lo: $(cat /tmp/mod.err)"
smcd_listed() {
	smc_info dev 2>/dev/null | grep -q ismlo0
}
wait_for 30 smcd_listed || bad "2: ismlo0 not an SMC-D device again in 30 s"
kmsg_mark smc-stopped-2
if connect 2 5702; then
	rm -f $D/released
	stop 2 $spid $cpid
	watchdog $WATCHDOG >/dev/null 2>&1 &
	wdog=$!
	rmmod ism_lo >$D/rm2.out 2>$D/rm2.err &
	rpid=$!
	if wait_for 30 begun 5702 $rpid; then
		pstate $rpid
		echo "# rmmod ism_lo: state ${PS:-(ended)}; the connection's ends: $(ends 5702)"
	else
		bad "2: the removal has not ended the connection in 30 s"
	fi
	blocked 2 ismlo0 $rpid
	release
	wait $wdog
	removal_done 2 "rmmod ism_lo" SIGKILL $D/rm2.err
	mod_loaded ism_lo && bad "2: ism_lo still loaded" || ok "2: ism_lo gone"
	dev_gone 10 ismlo0 && ok "2: ismlo0 gone" || bad "2: ismlo0 still listed"
	# Killed while stopped: the application saw nothing of the removal.
	app 2 $cpid $D/c2 137 &&
		ok "2: the client, stopped and killed, exited by SIGKILL (137) # $(grep -c ': holding$' $D/c2) connection held, then nothing"
	app 2 $spid $D/s2 137 && ok "2: the server exited by SIGKILL (137)"
	reap_stuck 2
	lo9_gone 2
else
	release
	wait
	# as the scenario would have: unloaded without a log line
	mod_unload ism_lo 20 || bad "2: rmmod ism_lo: $(cat /tmp/mod.err)"
fi
echo >$D/procs
no_dmbs 2
kmsg_clean smc-stopped-2 && ok "2: no kernel report" || bad "2: kernel reports"

# ---- every module unloads ----
smc_ueid flush
ism-load ism_lo || bad "ism-load ism_lo"
check "every module unloads (ism-unload)" ism-unload
ktap_finish
