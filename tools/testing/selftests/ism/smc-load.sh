#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: SMC-D under load. For ISM_LOAD_SECS seconds (default 10; make
# stress sets 60), rounds of 32 concurrent connections (smc_xfer, every
# byte and the checksums checked) while the loopback device goes and comes
# back, alternately with rmmod/insmod ism_lo and ismctl dev del/add
# ismlo0: even rounds remove it once 24 connections (2 MiB each way)
# have moved their data and hold and 8 more (1 TiB each way: only the
# removal ends them) move data, all 32 over SMC-D, and re-add it: the
# removal must end the 24 idle and the 8 busy ones; odd rounds (512 KiB
# each way) start with the device gone (the connections fall back to
# TCP) and re-add it as soon as the server has the first connection.
# Waiting for these states, never for a time, makes each round the same
# however fast the guest (TCG or KVM). Every connection must either
# complete with its data intact or end cleanly (its stream stops or its
# socket reports an error, all it delivered intact); none may deliver
# altered data, stall (neither move nor end for smc_xfer's 30 s) or leave
# the removal hanging (30 s: the waiting tasks' stacks and SMC's leaked
# objects are printed). Then, the device back, 32 more connections must
# all complete over SMC-D.
#
# The removal waits for connection setup to end: when the device goes
# while SMC (Linux 6.1) sets up a connection on it, the server side can
# leak the link group it makes (kmemleak: smc_listen_work ->
# smc_conn_create), and smcd_unregister_dev() then waits for it forever.
# ISM_LOAD_CONNECT_RACE=1 removes the device at any time instead,
# connection setup included, to reproduce that. smc_xfer closes a
# connection the removal ended only once SMC has finished ending it
# (see xfer_close() in tools/smc/xfer_conn.c: SMC 6.1 leaks a socket
# closed during that).
# Debug kernel only: what it hunts for are the debug kernel's reports
# (KASAN, lockdep, kmemleak), and the stock VM's share of make check's
# time goes to the other tests.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"

if ! debug_kernel; then
	ktap_skip "$(uname -r): debug kernel only (its reports are what this test hunts for)"
fi

secs=${ISM_LOAD_SECS:-10}
race=${ISM_LOAD_CONNECT_RACE:-0}
D=/tmp/load
rm -rf $D
mkdir -p $D
smc_setup

now() {
	cut -d. -f1 /proc/uptime
}

# pick K WORD...: the K-th WORD, round-robin
pick() {
	_k=$1
	shift
	_k=$((_k % $# + 1))
	eval "echo \${$_k}"
}

# stacks: the tasks waiting in the kernel (D state), with their stacks
stacks() {
	for _p in /proc/[0-9]*; do
		grep -q '^State:.*D' "$_p/status" 2>/dev/null || continue
		echo "# $(cat "$_p/comm") (${_p#/proc/}):"
		sed 's/^/#   /' "$_p/stack"
	done
	echo "# SMC sockets (smc_diag; /proc/net/protocols; smc.ko's references):"
	smc_ss -a 2>&1 | sed 's/^/#   /'
	grep -i '^smc' /proc/net/protocols | sed 's/^/#   /'
	grep '^smc ' /proc/modules | sed 's/^/#   /'
	# No ismctl: the stuck removal holds the ISM registry mutex, and a
	# task waiting for a mutex cannot be killed.
	[ -w /sys/kernel/debug/kmemleak ] || return 0
	echo "# kmemleak, objects allocated by SMC or ISM code:"
	echo scan >/sys/kernel/debug/kmemleak
	sleep 1
	echo scan >/sys/kernel/debug/kmemleak
	awk '/^unreferenced object/ { if (keep) printf "%s", obj; obj = ""; keep = 0 }
		{ obj = obj "#   " $0 "\n" }
		/\[(smc|ism_[a-z]*)\]/ { keep = 1 }
		END { if (keep) printf "%s", obj }' /sys/kernel/debug/kmemleak | head -n 200
}

# step WHAT CMD...: one removal or re-adding step, logged in $D/rm.log
# as "WHAT ok" or "WHAT FAILED: ..."; one that has not returned after
# 30 s hangs: print the stacks, note it in $D/hung, return 2
step() {
	_w=$1
	shift
	rm -f $D/step.rc
	("$@" 2>$D/rm.err; echo $? >$D/step.rc) &
	_sp=$!
	_i=0
	while [ ! -e $D/step.rc ] && [ $_i -lt 300 ]; do
		sleep 0.1
		_i=$((_i + 1))
	done
	if [ ! -e $D/step.rc ]; then
		echo "# $_w has not returned for 30 s; tasks in D state:"
		stacks
		echo "$_w" >$D/hung
		echo "$_w HUNG" >>$D/rm.log
		return 2
	fi
	wait $_sp
	if [ "$(cat $D/step.rc)" = 0 ]; then
		echo "$_w ok" >>$D/rm.log
	else
		echo "$_w FAILED: $(cat $D/rm.err /tmp/mod.err 2>/dev/null)" >>$D/rm.log
	fi
}

# remove K / readd K: the K-th removal and re-adding (alternately
# rmmod/insmod ism_lo and ismctl dev del/add)
remove() {
	if [ $(($1 % 2)) = 0 ]; then
		step rmmod mod_unload ism_lo
	else
		step del ismctl dev del ismlo0
	fi
}

readd() {
	if [ $(($1 % 2)) = 0 ]; then
		step insmod mod_load ism_lo
	else
		step add ismctl dev add loopback ismlo0
	fi
}

# sample PORT: add the client ends connected to PORT that smc_ss lists
# now, as "LOCAL-PORT STATE MODE" lines, to $D/seen.PORT
sample() {
	smc_ss -j 2>/dev/null | tr '{' '\n' | sed -n \
		"s/^\"state\":\"\([A-Z0-9]*\)\".*\"mode\":\"\([^\"]*\)\".*\"local_port\":\([0-9]*\).*\"peer_port\":$1[,}].*/\3 \1 \2/p" \
		>>$D/seen.$1
}

# connected: wait (60 s) until the server has accepted all 32
# connections (srv_accepted): SMC accepts a connection once its setup is
# over on both ends (an SMC-D one once its link groups are made; late
# ones may fall back to TCP when the busy server answers their proposal
# too late). Then no link group is being set up any more. The
# connections hold after their transfer or move data until the removal,
# so none closes before. Fails if the client ended before. This costs no
# process, which the transfer threads would starve.
connected() {
	_i=0
	while [ $_i -lt 600 ]; do
		srv_accepted $spid
		[ $N -ge 32 ] && return 0
		kill -0 $cpid 2>/dev/null || break
		sleep 0.1
		_i=$((_i + 1))
	done
	echo "# round $r: the server accepted $N of 32 connections while the client ran"
	return 1
}

# sh -c "$LOW" low CMD...: CMD at nice 19 (busybox has renice, not
# nice), with the pid of the sh
LOW='renice 19 -p $$ >/dev/null && exec "$@"'

# client R PORT FILE CLIENT-ARGS...: a client of round R's server, its
# lines to FILE. At the lowest priority: with the server, its threads
# would starve this script watching them and removing the device.
client() {
	_r=$1
	_p=$2
	_f=$3
	shift 3
	sh -c "$LOW" low timeout 120 smc_xfer client -a 127.0.0.1 -p "$_p" \
		-s "$_r" -t 30 -v "$@" >"$_f" 2>&1 &
}

# xfer R PORT CLIENT-ARGS...: start a server for 32 connections on PORT
# and a client; their per-connection lines go to $D/s.R and $D/c.R.
xfer() {
	r=$1
	port=$2
	shift 2
	sh -c "$LOW" low timeout 120 smc_xfer server -n 32 -p "$port" -t 30 -v \
		>$D/s.$r 2>&1 &
	spid=$!
	wait_listen $D/s.$r
	srv_mark $spid
	client "$r" "$port" $D/c.$r "$@"
	cpid=$!
	upid=
}

# outcome R WHAT: one comment line on the client's connections of round
# R; sets ENDED and CUT to those ended while holding and while moving data
outcome() {
	# shellcheck disable=SC2046
	set -- "$1" "$2" $(cat $D/c.$1 $D/c.$1.u 2>/dev/null | awk '
		/ conn [0-9]+: OK / { ok++ }
		/ conn [0-9]+: ENDED / { held++ }
		/ conn [0-9]+: FAILED / { failed++ }
		END { print ok + 0, held + 0, failed + 0 }')
	ENDED=$4
	CUT=$5
	echo "# round $1 ($2): $3 complete, $4 ended while holding, $5 ended while moving data"
}

# mixed_round R K: 24 connections move 2 MiB each way and hold; then 8
# more move 1 TiB each way, which only a removal ends; once all 32 are
# set up over SMC-D, the K-th removal ends the 24 idle and the 8 busy
# ones, the same on any guest, however fast. Sets what, and removed=1 if
# the removal was made so; a client it had to stop (its report lost)
# counts in missing.
mixed_round() {
	_port=$((5600 + $1))
	removed=0
	xfer $1 $_port -c 24 -b 2M --bidir --hold 90
	if ! srv_wait_accepted $spid 24 || ! wait_holding $D/s.$1 24 ||
	   ! wait_holding $D/c.$1 24; then
		what="the 24 did not all set up and hold; no removal"
		missing=$((missing + 8))
		return
	fi
	client $1 $_port $D/c.$1.u -c 8 -b 1024G --bidir
	upid=$!
	if ! connected || ! wait_conns 64 $_port || [ "$(modes $_port)" != "SMCD " ]; then
		what="not all 32 set up over SMC-D (modes '$(modes $_port)'); no removal"
	elif remove $2; then
		what="removal with 24 idle, 8 moving data"
		removed=1
		sleep "$(pick $2 0.5 0.2 1)"
		readd $2
		return
	else
		what="the removal failed"
	fi
	kill $upid
	missing=$((missing + 8))
}

# xfer_end R: wait for the clients, then (10 s) the server: one whose
# connection failed before it accepted it still waits; stop it (losing
# its lines)
xfer_end() {
	wait $cpid $upid
	_i=0
	while kill -0 $spid 2>/dev/null && [ $_i -lt 20 ]; do
		sleep 0.5
		_i=$((_i + 1))
	done
	if kill -0 $spid 2>/dev/null; then
		kill $spid
		echo "# round $1: server still waiting for connections, stopped"
	fi
	wait $spid 2>/dev/null
}

# The ISM_LOAD_CONNECT_RACE remover: the device goes and comes back
# until $D/stop exists (or a step hangs), whatever the connections do.
remover() {
	k=0
	while [ ! -e $D/stop ]; do
		sleep "$(pick $k 0.4 1 0.6 1.5 0.8)"
		[ -e $D/stop ] && break
		remove $k || [ $? != 2 ] || break
		sleep "$(pick $k 0.3 0.8 0.5)"
		readd $k || [ $? != 2 ] || break
		k=$((k + 1))
	done
}

: >$D/rm.log
end=$(($(now) + secs))
rounds=0
mixed=0
missing=0
if [ "$race" = 1 ]; then
	echo "# ISM_LOAD_CONNECT_RACE=1: the device also goes during connection setup"
	remover &
	rpid=$!
	while [ "$(now)" -lt $end ] && [ ! -e $D/hung ]; do
		xfer $rounds $((5600 + rounds)) -c 32 -b 256K --bidir
		xfer_end $rounds
		rounds=$((rounds + 1))
	done
	touch $D/stop
	wait $rpid
else
	# at least one round of each kind
	while [ $rounds -lt 2 ] || [ "$(now)" -lt $end ]; do
		r=$rounds
		k=$((r / 2))
		rounds=$((rounds + 1))
		removed=0
		if [ $((r % 2)) = 0 ]; then
			mixed_round $r $k
		else
			what="device gone at connect, back once the first is accepted"
			remove $k || break
			xfer $r $((5600 + r)) -c 32 -b 512K --bidir
			srv_wait_accepted $spid 1
			readd $k
		fi
		xfer_end $r
		outcome $r "$what"
		if [ $removed = 1 ]; then
			mixed=$((mixed + 1))
			[ "$ENDED" = 24 ] && [ "$CUT" = 8 ] ||
				bad "round $r: the removal ended $ENDED idle and $CUT busy connections, want 24 and 8"
		fi
		[ -e $D/hung ] && break
	done
fi

if [ -e $D/hung ]; then
	cat $D/rm.log
	bad "device removal ($(cat $D/hung)) hung under load"
	exit 1
fi
removals=$(grep -c '^\(del\|rmmod\) ok' $D/rm.log)
echo "# $rounds rounds of 32 connections in $secs s; the device removed $removals times"
if grep FAILED $D/rm.log; then
	bad "device removal and re-adding under load"
else
	ok "device removed and re-added $removals times under load"
fi
[ "$removals" -gt 0 ] || bad "the device was never removed during the transfers"
ismctl dev show ismlo0 >/dev/null 2>&1 && ok "ismlo0 is back" || bad "ismlo0 is missing"

# The device back: 32 connections, all SMC-D and all intact. smc_ss
# looks once every client end holds, and then SIGUSR1 ends the holds.
# Sampling while they moved data missed one whose transfer threads
# starved the sampler for longer than its hold; holds of a fixed 10 s
# let the first connections end before a slow guest's last one held.
timeout 200 smc_xfer server -n 32 -p 5599 -t 30 -v >$D/s.final 2>&1 &
wait_listen $D/s.final
smc_xfer client -a 127.0.0.1 -p 5599 -c 32 -b 256K --bidir -s 99 -t 30 \
	--hold 120 >$D/c.final 2>&1 &
cpid=$!
: >$D/seen.5599
wait_holding $D/c.final 32 && sample 5599
kill -USR1 $cpid
wait
smcd=$(grep ' ACTIVE SMCD$' $D/seen.5599 | cut -d' ' -f1 | sort -u | wc -l)
other=$(grep ' ACTIVE ' $D/seen.5599 | grep -vc ' SMCD$')
[ "$smcd" = 32 ] && [ "$other" = 0 ] && ok "device back: 32 connections, all SMCD" ||
	{ sort -u $D/seen.5599; bad "device back: $smcd connections seen SMCD, $other ends otherwise"; }
grep -q 'client conns=32 ok=32 ' $D/c.final && grep -q 'server conns=32 ok=32 ' $D/s.final &&
	ok "device back: 32 connections intact" ||
	{ grep -v ' OK ' $D/c.final $D/s.final; bad "device back: transfers"; }

# Every connection's account, both ends. Per line: OK (complete and
# intact; the bytes received count as verified), ENDED (the same, but
# ended by a removal while it held), corrupt (data or checksum mismatch
# seen by a receiver, or a sender told a different count or checksum
# than it sent), stalled (a timeout: EAGAIN), or ended (anything else:
# the stream stopped or the socket failed; the bytes a receiver got
# before the end were each checked and count as verified).
cat $D/c.* $D/s.* | awk '
function num(re,   s) {
	if (!match($0, re))
		return -1
	s = substr($0, RSTART, RLENGTH)
	gsub(/[^0-9]/, "", s)
	return s + 0
}
!/^smc_xfer: (client|server) conn [0-9]+: (OK|ENDED|FAILED) / { next }
{
	client = $2 == "client"
	conns += client
}
/: (OK|ENDED) / {
	ok += client && / OK /
	ended += client && / ENDED /
	n = client ? num("received [0-9]+") : num("ok: received [0-9]+")
	bytes += n
	next
}
/receiving: (data|checksum) mismatch/ {
	corrupt++
	n = num("after [0-9]+ bytes")
	o = num("offset [0-9]+")
	lost += (o >= 0 && n > o) ? n - o : 1
	print "# corrupt: " $0
	next
}
/ saw ok: / {
	p = num("ok: [0-9]+ bytes")
	s = num("sent [0-9]+")
	corrupt++
	lost += p > s ? p - s : (s > p ? s - p : 1)
	print "# corrupt: " $0
	next
}
/Resource temporarily unavailable/ {
	stalled++
	print "# stalled: " $0
}
{
	ended += client
	n = num("receiving: [a-z ]+ after [0-9]+ bytes")
	if (n > 0)
		bytes += n
}
END {
	printf "conns=%d ok=%d ended=%d corrupt=%d stalled=%d bytes=%.0f lost=%.0f\n",
		conns, ok, ended, corrupt, stalled, bytes, lost
}' >$D/acct
grep '^#' $D/acct
acct=$(tail -n 1 $D/acct)
echo "# all connections: $acct"
get() {
	echo " $acct" | sed -n "s/.* $1=\([0-9]*\).*/\1/p"
}
conns=$(get conns)
# The final 32, and those of the clients stopped without a report.
want=$((32 * (rounds + 1) - missing))
[ "$conns" = "$want" ] && ok "every connection accounted for ($conns)" ||
	bad "connections accounted for: $conns, want $want"
[ "$(get corrupt)" = 0 ] && ok "no connection delivered altered data" ||
	bad "$(get corrupt) streams with altered data"
[ "$(get stalled)" = 0 ] && ok "no connection stalled" ||
	bad "$(get stalled) connection ends stalled"
[ "$(get ok)" -gt 32 ] && ok "$(get ok) connections complete and intact, $(get ended) ended by the removals" ||
	bad "only $(get ok) connections complete"
[ "$(get lost)" = 0 ] && ok "no byte lost or altered" || bad "$(get lost) bytes lost or altered"
if [ "$race" != 1 ]; then
	[ "$mixed" -gt 0 ] && ok "$mixed removals ended idle and busy connections" ||
		bad "no removal found connections both idle and moving data"
fi
smc_ueid flush
echo "# summary smc_conns=$conns"
echo "# summary smc_bytes=$(get bytes)"
echo "# summary bytes_lost=$(get lost)"
ktap_finish
