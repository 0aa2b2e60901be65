#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vms-guest.sh CMD [ARG...]: the guests' side of make check-vms
# (vms-test.sh). Installed in the guests' Debian image as
# /usr/local/sbin/ism-vms; the host runs it through qemu-guest-agent
# (guest-exec), as root, and reads what it prints. Each command exits 0
# only when what it checks holds, and says why not.
#
#   ready               ism.service active, a virtual ISM device registered
#                       with SMC-D, the UEID set, the test network up
#   refused             ism.service active, but no virtual ISM device: the
#                       driver refused a one-CPU TCG guest, and said why
#   serve               sockperf, redis-server and smc_xfer servers, each
#                       over TCP and (through smc_run) over SMC
#   sockperf PEER       ping-pong and throughput to PEER, TCP then SMC
#                       (SMC-D, none fell back); prints "figure NAME
#                       VALUE" lines
#   redis PEER          redis-benchmark to PEER with $CONNS connections,
#                       TCP then SMC; every SMC connection must be SMC-D
#   xfer-start PEER     an endless smc_xfer transfer to PEER, left running
#   xfer-wait SECS      how the transfer of xfer-start ended, within SECS
#   xfer-check PEER [HOLD [SIZE]]
#                       a new transfer to PEER: SMC-D, SIZE (default 8M)
#                       each way intact, its connections held HOLD
#                       seconds (default 3); prints how long it took
#   xfer-moving         the transfer of xfer-check runs over SMC-D and
#                       moves data (no connection holds yet), within 60 s
#   logged PATTERN      the kernel log of this boot has PATTERN
#   joined N [AFTER]    the kernel log of this boot has N peers joining
#                       the virtual ISM device (within 60 s); with AFTER,
#                       N after the last line that matches it
#   xfer-ended          no SMC-D connection of this guest's smc_xfer
#                       server is left (within 60 s)
#   reports             no kernel report in this boot's kernel log
#                       (KERNEL_REPORTS: the project's list of patterns)
set -u

CONNS=64
SECS=${ISM_VMS_SECS:-5}
RUN=/run/ism-vms
KERNEL_REPORTS=/usr/local/share/ism-vms/kernel-reports
# The servers' ports: TCP, and the same server through smc_run.
SP_TCP=11111 SP_SMC=11112 RD_TCP=6379 RD_SMC=6380 XFER=12345
mkdir -p "$RUN"

fail() {
	echo "ism-vms: $*"
	exit 1
}

# wait_for SECS CMD...: CMD succeeds within SECS seconds
wait_for() {
	_n=$(($1 * 2))
	shift
	while ! "$@" >/dev/null 2>&1; do
		_n=$((_n - 1))
		[ $_n -gt 0 ] || return 1
		sleep 0.5
	done
}

listening() {
	ss -Hltn "sport = :$1" | grep -q .
}

# conns MODE PORT [END]: this guest's SMC sockets in MODE (smc_ss's
# SMCD, TCP for a fallback) whose peer's address (END 3, the default) or
# own (END 2) has PORT
conns() {
	smc_ss | awk -v m="$1" -v p=":$2" -v e="${3:-3}" \
		'$4 == m && substr($e, length($e) - length(p) + 1) == p' | wc -l
}

ready() {
	wait_for 120 systemctl is-active -q ism.service ||
		fail "ism.service: $(systemctl is-active ism.service)"
	wait_for 30 sh -c 'ls -d /sys/class/ism/ismiv*' ||
		fail "no virtual ISM device (/sys/class/ism/ismiv*)"
	wait_for 30 sh -c 'smc_info dev | grep -q .' || fail "no SMC-D device"
	. /etc/default/ism
	smc_ueid show | grep -qx "$ISM_UEID" || fail "UEID $ISM_UEID not set"
	wait_for 60 sh -c 'ip -4 -o addr show | grep -q "inet 10\.9\."' ||
		fail "no 10.9.0.0/24 address"
	ism-setup status
	ismctl dev
	ip -4 -o addr show | grep 'inet 10\.9\.'
}

refused() {
	wait_for 120 systemctl is-active -q ism.service ||
		fail "ism.service: $(systemctl is-active ism.service)"
	ls -d /sys/class/ism/ismiv* 2>/dev/null &&
		fail "a virtual ISM device in a TCG guest with one possible CPU"
	dmesg | grep 'ism_ivshm.*QEMU TCG with one possible CPU' ||
		fail "no refusal in the kernel log"
}

# bg NAME CMD...: CMD in the background, detached from guest-exec
bg() {
	_name=$1
	shift
	setsid "$@" </dev/null >"$RUN/$_name.log" 2>&1 &
	echo $! >"$RUN/$_name.pid"
}

serve() {
	bg sp-tcp sockperf server --tcp -p $SP_TCP -m 65536
	bg sp-smc smc_run sockperf server --tcp -p $SP_SMC -m 65536
	for p in $RD_TCP $RD_SMC; do
		_run=
		[ $p = $RD_SMC ] && _run=smc_run
		bg "redis-$p" $_run redis-server --port $p --bind 0.0.0.0 \
			--protected-mode no --save '' --appendonly no \
			--maxclients 1000
	done
	bg xfer smc_xfer server -p $XFER -n 0
	for p in $SP_TCP $SP_SMC $RD_TCP $RD_SMC $XFER; do
		wait_for 60 listening $p || fail "nothing listens on port $p"
	done
	echo "serving: sockperf $SP_TCP/$SP_SMC, redis $RD_TCP/$RD_SMC, smc_xfer $XFER (TCP/SMC)"
}

# sockperf_run MODE KIND PEER PORT: sockperf's summary figure; in smc
# mode its connection must be SMC-D while it runs, not a fallback
sockperf_run() {
	_run=
	[ "$1" = smc ] && _run=smc_run
	if [ "$2" = latency ]; then
		set -- "$@" ping-pong -m 14 'Latency is \([0-9.]*\) usec'
	else
		set -- "$@" throughput -m 65536 'BandWidth is \([0-9.]*\) MBps'
	fi
	$_run sockperf "$5" --tcp -i "$3" -p "$4" "$6" "$7" -t "$SECS" \
		>"$RUN/sp.log" 2>&1 &
	_c=$! _d=0 _t=0
	while kill -0 $_c 2>/dev/null; do
		[ "$1" = smc ] && [ "$(conns SMCD "$4")" -gt 0 ] && _d=1
		[ "$1" = smc ] && [ "$(conns TCP "$4")" -gt 0 ] && _t=1
		sleep 0.5
	done
	wait $_c || { cat "$RUN/sp.log" >&2; return 1; }
	[ "$_t" = 0 ] || { echo "sockperf $1 $2: fell back to TCP" >&2; return 1; }
	[ "$1" = tcp ] || [ "$_d" = 1 ] || { echo "sockperf $1 $2: never SMC-D" >&2; return 1; }
	sed -n "s/.*Summary: $8.*/\1/p" "$RUN/sp.log"
}

sockperf_all() {
	for m in tcp smc; do
		_port=$SP_TCP
		[ $m = smc ] && _port=$SP_SMC
		for k in latency bandwidth; do
			v=$(sockperf_run $m $k "$1" $_port 2>&1) || fail "$v"
			case $v in
			'' | *[!0-9.]*) cat "$RUN/sp.log"; fail "sockperf $m $k: no figure" ;;
			esac
			echo "figure sockperf-$k-$m $v"
		done
	done
	echo "sockperf over SMC: SMC-D while it ran, no fallback to TCP"
}

# redis_run MODE PEER: redis-benchmark's requests per second for SET
# and GET; in smc mode, the most connections seen at once and their modes
redis_run() {
	_run='' _port=$RD_TCP
	[ "$1" = smc ] && _run=smc_run _port=$RD_SMC
	$_run redis-benchmark -h "$2" -p $_port -c $CONNS -n "${ISM_VMS_REDIS_N:-20000}" \
		-t set,get --csv >"$RUN/redis.csv" 2>"$RUN/redis.err" &
	_b=$!
	_max=0 _fb=0
	while kill -0 $_b 2>/dev/null; do
		if [ "$1" = smc ]; then
			_d=$(conns SMCD $_port)
			_t=$(conns TCP $_port)
			[ "$_d" -gt "$_max" ] && _max=$_d
			[ "$_t" -gt "$_fb" ] && _fb=$_t
		fi
		sleep 0.5
	done
	wait $_b || { cat "$RUN/redis.err"; fail "redis-benchmark ($1) failed"; }
	for t in SET GET; do
		v=$(sed -n "s/^\"$t\",\"\([0-9.]*\)\".*/\1/p" "$RUN/redis.csv")
		[ -n "$v" ] || { cat "$RUN/redis.csv"; fail "redis-benchmark ($1): no $t figure"; }
		echo "figure redis-$t-$1 $v"
	done
	[ "$1" = smc ] || return 0
	echo "redis over SMC: at most $_max SMC-D connections at once, $_fb fell back to TCP"
	[ "$_fb" -eq 0 ] || fail "connections fell back to TCP"
	[ "$_max" -ge $CONNS ] || fail "fewer than $CONNS SMC-D connections at once"
}

# The transfer xfer-start leaves running: 4 connections, both ways,
# endless but for smc_xfer's own time-out (-t: a connection that moves
# nothing for 600 s), so only an error can end it.
xfer_start() {
	rm -f "$RUN/xfer-client.rc"
	( smc_xfer client -a "$1" -p $XFER -c 4 -b 1024G --bidir -t 600 \
		>"$RUN/xfer-client.log" 2>&1
	echo $? >"$RUN/xfer-client.rc" ) </dev/null >/dev/null 2>&1 &
	# All four running over SMC-D before the host acts.
	wait_for 60 sh -c "[ \$(smc_ss -D | grep -c -E ':$XFER( |\$)') -ge 4 ]" ||
		{ smc_ss; fail "the transfer is not 4 SMC-D connections"; }
	echo "transfer to $1 running: 4 SMC-D connections"
}

xfer_wait() {
	_t0=$(date +%s)
	wait_for "$1" test -s "$RUN/xfer-client.rc" ||
		fail "the transfer still runs after $1 s"
	_rc=$(cat "$RUN/xfer-client.rc")
	tail -n 3 "$RUN/xfer-client.log"
	echo "the transfer ended with status $_rc within $(($(date +%s) - _t0)) s"
	# smc_xfer's 1: a connection failed (0 would be a finished transfer)
	[ "$_rc" = 1 ] || fail "smc_xfer's status $_rc, not 1 (failed connections)"
}

xfer_check() {
	_t0=$(date +%s)
	smc_xfer client -a "$1" -p $XFER -c 2 -b "${3:-8M}" --bidir --hold "${2:-3}" \
		>"$RUN/xfer-check.log" 2>&1 &
	_c=$!
	echo $_c >"$RUN/xfer-check.pid"
	# Until its connections hold, or it ends without (a failure).
	wait_for 1200 sh -c "grep -q holding '$RUN/xfer-check.log' || ! kill -0 $_c"
	_s=$(($(date +%s) - _t0))
	_d=$(conns SMCD $XFER)
	wait $_c
	_rc=$?
	if [ $_rc != 0 ]; then
		# Each connection's line says why; the kernel's last words on
		# the device and SMC say what happened under it.
		cat "$RUN/xfer-check.log"
		smc_ss
		dmesg | grep -E 'ism|smc' | tail -n 20
		fail "smc_xfer: status $_rc"
	fi
	tail -n 1 "$RUN/xfer-check.log"
	echo "new transfer to $1: $_d SMC-D connections, ${3:-8M} each way intact" \
		"in $_s s (whole seconds)"
	[ "$_d" -ge 2 ] || { smc_ss; fail "not SMC-D"; }
}

# joins [AFTER]: the lines of peers joining in this boot's kernel log,
# after the last line matching AFTER if one does
joins() {
	if [ -n "$1" ]; then
		dmesg | tac | sed "/$1/q" | tac
	else
		dmesg
	fi | grep 'ism_ivshm.* joined in slot'
}

# joins_at_least N [AFTER]
joins_at_least() {
	[ "$(joins "${2:-}" | wc -l)" -ge "$1" ]
}

joined() {
	wait_for 60 joins_at_least "$1" "$2" ||
		fail "not $1 peers joined${2:+ after \"$2\"}: $(joins "$2")"
	joins "$2"
}

# no_served_conns PORT: no SMC-D connection of a server on PORT here
no_served_conns() {
	[ "$(conns SMCD "$1" 2)" = 0 ]
}

xfer_ended() {
	wait_for 60 no_served_conns $XFER ||
		{ smc_ss; fail "SMC-D connections of the server on port $XFER are left"; }
	echo "no SMC-D connection of the server on port $XFER is left"
}

xfer_moving() {
	wait_for 60 sh -c "[ \$(smc_ss -D | grep -c -E ':$XFER( |\$)') -ge 2 ]" ||
		{ smc_ss; fail "the transfer is not 2 SMC-D connections"; }
	kill -0 "$(cat "$RUN/xfer-check.pid")" 2>/dev/null ||
		fail "the transfer has ended"
	! grep 'holding' "$RUN/xfer-check.log" ||
		fail "the transfer is done (its connections hold)"
	echo "the transfer runs: 2 SMC-D connections, none done"
}

reports() {
	[ -s "$KERNEL_REPORTS" ] || fail "no $KERNEL_REPORTS"
	if dmesg | grep -E -f "$KERNEL_REPORTS"; then
		fail "kernel report above"
	fi
	journalctl -k -b -q -o cat | grep -E -f "$KERNEL_REPORTS" &&
		fail "kernel report in the journal"
	echo "no kernel report ($(dmesg | wc -l) kernel log lines)"
}

case ${1-} in
ready) ready ;;
refused) refused ;;
serve) serve ;;
sockperf) sockperf_all "$2" ;;
redis) redis_run tcp "$2" && redis_run smc "$2" ;;
xfer-start) xfer_start "$2" ;;
xfer-wait) xfer_wait "$2" ;;
xfer-check) xfer_check "$2" "${3:-}" "${4:-}" ;;
xfer-moving) xfer_moving ;;
joined) joined "$2" "${3:-}" ;;
xfer-ended) xfer_ended ;;
logged) dmesg | grep -E "$2" || fail "not in the kernel log: $2" ;;
reports) reports ;;
*) fail "usage: ism-vms ready|refused|serve|sockperf PEER|redis PEER|xfer-start PEER|xfer-wait SECS|xfer-check PEER [HOLD [SIZE]]|xfer-moving|logged PATTERN|joined N [AFTER]|xfer-ended|reports" ;;
esac
