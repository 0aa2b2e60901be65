#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make demo and make demo-vms, installed as
# /ism/bin/ism-demo: Debian's sockperf, unchanged, over TCP and then
# through smc_run over SMC-D, and libism's ism_lat and ism_bw on the same
# ISM device through /dev/ism (ism_user), in event and busy-poll mode;
# prints one table and the SMC-D device and connection listings. Every
# output line starts with "ism-demo: ". The modules are loaded
# (ism-load) before it runs; it loads ism_user.
#
# make demo: one guest, sockperf's client and server on 127.0.0.1, SMC-D
# on the loopback ISM device.
# make demo-vms: two guests on a virtual ISM region (ism_ivshm) and a
# virtio-net link; ISM_DEMO_ROLE (ism.env) says which this is:
#   server  10.77.0.1, serves sockperf, plain on
#           port 11111 and through smc_run on 11112, and each run of
#           ISM_RUNS on its port, until the client connects to port
#           11110 when it is done
#   client  10.77.0.2, measures against the server and prints the table
#
# Under TCG one run of a few seconds varies by a factor of two from run to
# run, so the demo runs ROUNDS rounds, alternating which mode goes first,
# prints every round with its ratios to TCP and reports the median of
# each column and of the ratios.
#
# Messages: sockperf's ping-pong its smallest, 14 bytes, ism_lat's 8;
# 65536 bytes and 1,000,000 (not 1 MiB: a DMB holds at most 1 MiB, and
# ism_bw's counter shares it with the message) one way.
SECS=5
ROUNDS=7
# sockperf's servers take messages up to 65507 bytes unless told more
SP_MAX=1048575
# The ism_lat and ism_bw runs, "NAME TOOL PORT ARGS..." each: what the
# server and the client both run (their arguments must match).
ISM_RUNS="lat.event ism_lat 18515 -s 8 -n 2000
lat.busy ism_lat 18516 -s 8 -n 2000 -b
bw64k.event ism_bw 18517 -s 64k -n 2000
bw64k.busy ism_bw 18518 -s 64k -n 2000 -b
bw1m.event ism_bw 18519 -s 1000000 -k 1 -n 200
bw1m.busy ism_bw 18520 -s 1000000 -k 1 -n 200 -b"
role=${ISM_DEMO_ROLE:-}
# alone: the port of the next run's server
port=11111
# with a server guest: its address and ports
server=10.77.0.1
tcp_port=11111
smc_port=11112
done_port=11110
# wait_port, wait_for; ivshm_dev, bind_ivshm, joined, drvlog
. /ism/tests/lib/smc.sh
. /ism/tests/lib/ivshm.sh

out() {
	echo "ism-demo: $*"
}

# measure tcp|smcd ping-pong|throughput: sockperf's summary figure in $v.
# Alone, each run has its own server on a port of its own; with a
# server guest, the servers there serve every run.
measure() {
	run=
	[ "$1" = smcd ] && run=smc_run
	if [ -z "$role" ]; then
		addr=127.0.0.1
		$run sockperf server --tcp -p $port -m $SP_MAX >/dev/null 2>&1 &
		spid=$!
		wait_port $port || out "sockperf server ($1) not listening on port $port after 30 s"
	else
		addr=$server
		port=$tcp_port
		[ "$1" = smcd ] && port=$smc_port
	fi
	if [ "$2" = ping-pong ]; then
		$run sockperf ping-pong --tcp -i $addr -p $port -m 14 \
			-t "$SECS" >/tmp/sp 2>&1
		v=$(sed -n 's/.*Latency is \([0-9.]*\) usec.*/\1/p' /tmp/sp)
	else
		$run sockperf throughput --tcp -i $addr -p $port -m "$3" \
			-t "$SECS" >/tmp/sp 2>&1 &
		cpid=$!
		sleep 3
		# The connection listing, taken while data moves.
		[ "$1" = smcd ] && smc_ss >/tmp/ss
		wait $cpid
		v=$(sed -n 's/.*BandWidth is \([0-9.]*\) MBps.*/\1/p' /tmp/sp)
	fi
	if [ -z "$role" ]; then
		kill $spid 2>/dev/null
		wait $spid 2>/dev/null
		port=$((port + 1))
	fi
	v=${v:-?}
}

# ism_run NAME: the line of ISM_RUNS named NAME
ism_run() {
	echo "$ISM_RUNS" | grep "^$1 "
}

# measure_ism NAME: the run NAME of ISM_RUNS; its figure in $v (ism_lat:
# the average one-way latency, as sockperf's; ism_bw: MB/s), its mode
# (zero-copy or move) in /tmp/ism.mode. Alone, with a server of its own.
measure_ism() {
	# shellcheck disable=SC2046 # the run's words
	set -- $(ism_run "$1")
	_tool=$2 _port=$3
	shift 3
	if [ -z "$role" ]; then
		"$_tool" -d "$isdev" -p "$_port" "$@" >/dev/null 2>&1 &
		_spid=$!
		"$_tool" -d "$isdev" -p "$_port" "$@" -j 127.0.0.1 >/tmp/ism.json 2>&1
		wait $_spid
	else
		"$_tool" -d "$isdev" -p "$_port" "$@" -j $server >/tmp/ism.json 2>&1
	fi
	if [ "$_tool" = ism_lat ]; then
		v=$(jq -r .latency_us.avg /tmp/ism.json 2>/dev/null)
	else
		v=$(jq -r .MBps /tmp/ism.json 2>/dev/null)
	fi
	jq -r .mode /tmp/ism.json >/tmp/ism.mode 2>/dev/null
	[ -n "$v" ] || out "$1: $(tail -n 1 /tmp/ism.json)"
	v=${v:-?}
}

# serve_ism: the server guest's ISM_RUNS, each on its port, again and
# again until /tmp/stop exists (an idle server gives up after -t, 10 s);
# children of this shell, for serve's wait. A run that fails at once
# (no device) is not retried in a tight loop.
serve_ism() {
	while read -r _name _tool _port _args; do
		# shellcheck disable=SC2086 # the run's arguments
		while [ ! -e /tmp/stop ]; do
			"$_tool" -d "$isdev" -p "$_port" $_args >/dev/null 2>&1 ||
				sleep 1
		done &
	done <<EOF
$ISM_RUNS
EOF
}

# ratio A B: A / B, or nothing if B is not a positive number
ratio() {
	awk -v a="$1" -v b="$2" 'BEGIN { if (b > 0) printf "%.3f\n", a / b }'
}

# last NAME: the figure of this round in /tmp/fig.NAME
last() {
	tail -n 1 "/tmp/fig.$1"
}

# median FILE: the middle of the values in FILE, one per line
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# The columns: a kind of sockperf run and message size, and the ISM_RUNS
# of the same measure (NAME without .event or .busy)
COLUMNS="ping-pong:14:lat throughput:65536:bw64k throughput:1000000:bw1m"

# round N: one run of each mode and kind; the figures go to
# /tmp/fig.MODE.FIG (MODE: tcp, smcd, ism.event, ism.busy; FIG: lat,
# bw64k, bw1m), their ratios to TCP's to /tmp/fig.ratio.MODE.FIG
round() {
	order="tcp smcd ism"
	[ $(($1 % 2)) -eq 0 ] && order="ism smcd tcp"
	for col in $COLUMNS; do
		kind=${col%%:*} size=${col#*:} fig=${col##*:}
		size=${size%:*}
		for mode in $order; do
			if [ $mode = ism ]; then
				for w in event busy; do
					measure_ism "$fig.$w"
					echo "$v" >>"/tmp/fig.ism.$w.$fig"
				done
			else
				measure $mode $kind "$size"
				echo "$v" >>"/tmp/fig.$mode.$fig"
			fi
		done
		for mode in smcd ism.event ism.busy; do
			ratio "$(last "$mode.$fig")" "$(last "tcp.$fig")" \
				>>"/tmp/fig.ratio.$mode.$fig"
		done
	done
	for mode in tcp smcd ism.event ism.busy; do
		out "round $1: $mode: latency $(last $mode.lat) us," \
			"$(last $mode.bw64k) MB/s (64 KiB), $(last $mode.bw1m) MB/s (1 MB)"
	done
}

# serve: the server guest's part, until the client says it is done
serve() {
	sockperf server --tcp -i $server -p $tcp_port -m $SP_MAX >/tmp/srv.tcp 2>&1 &
	tpid=$!
	smc_run sockperf server --tcp -i $server -p $smc_port -m $SP_MAX >/tmp/srv.smc 2>&1 &
	spid=$!
	serve_ism
	out "serving sockperf on $server: port $tcp_port TCP, port $smc_port through smc_run;" \
		"ism_lat and ism_bw on /dev/ism/$isdev"
	smc_xfer server --tcp -p $done_port -n 1 -t 1800 >/tmp/done 2>&1 ||
		out "no word from the client: $(tail -n 1 /tmp/done)"
	touch /tmp/stop
	kill $tpid $spid 2>/dev/null
	wait
	smc_ueid flush
}

# ready PORT [smc_run]: a sockperf server answers on the server guest's PORT
ready() {
	$2 sockperf ping-pong --tcp -i $server -p "$1" -m 14 -t 1 >/tmp/sp 2>&1 &&
		grep -q 'Latency is' /tmp/sp
}

ip link set lo up
smc_ueid add ISM-DEMO >/dev/null || { out "smc_ueid add failed"; exit 1; }
# SMC's send and receive buffers default to 64 KiB; TCP autotunes its
# own to several MiB. Give SMC 1 MiB, the largest DMB of ism_lo and of
# ism_ivshm.
sysctl -q -w net.smc.wmem=1048576 net.smc.rmem=1048576
where=127.0.0.1
dev=ism_lo
isdev=ismlo0
ism-load ism_user >/dev/null || { out "ism-load ism_user failed"; exit 1; }
case $role in
'') ;;
server | client)
	addr=$server
	[ "$role" = client ] && addr=10.77.0.2
	{ ip addr add $addr/24 dev eth0 && ip link set eth0 up; } ||
		{ out "no virtio-net link (eth0)"; exit 1; }
	wait_for 120 bind_ivshm || { out "no virtual ISM device after 120 s"; exit 1; }
	wait_for 10 test -c "/dev/ism/$(ivshm_dev)" ||
		{ out "no /dev/ism/$(ivshm_dev)"; exit 1; }
	dev=$(ivshm_dev)
	isdev=$dev
	joined 1 || { out "the other guest did not join the region in 60 s"; exit 1; }
	drvlog | sed 's/^/ism-demo: /'
	ivmode=$(drvlog | sed -n 's/.*: \(doorbell\|plain\) mode.*/\1/p' | head -n 1)
	where="two guests: TCP on virtio-net, SMC-D on $dev ($ivmode mode)"
	;;
*) out "ISM_DEMO_ROLE=$role: not server or client"; exit 1 ;;
esac
if [ "$role" = server ]; then
	serve
	exit
fi
if [ "$role" = client ] &&
	! { wait_for 300 ready $tcp_port && wait_for 60 ready $smc_port smc_run; }; then
	out "no sockperf server on $server: $(tail -n 1 /tmp/sp)"
	exit 1
fi
rm -f /tmp/fig.*
i=1
while [ $i -le $ROUNDS ]; do
	round $i
	i=$((i + 1))
done
# row LABEL MODE: the medians of MODE's figures, or of its ratios to TCP's
row() {
	printf 'ism-demo: %-30s' "$1"
	for _run in lat bw64k bw1m; do
		_f=/tmp/fig.$2.$_run
		case $2 in
		ratio.*) printf ' %13.2fx' "$(median "$_f")" ;;
		*) printf ' %14s' "$(median "$_f")" ;;
		esac
	done
	echo
}

out ""
# A ratio under KVM and one under TCG are different measurements.
accel=$(echo "${ISM_ACCEL:-unknown accelerator}" | tr '[:lower:]' '[:upper:]')
out "sockperf, medians of $ROUNDS rounds of $SECS s, $where,"
out "with libism's ism_lat and ism_bw on /dev/ism/$isdev"
out "($(uname -r), $(nproc) vCPU, QEMU $accel;"
out "SMC buffers (net.smc.wmem/rmem) $(sysctl -n net.smc.wmem) bytes;"
out "latency one way, average: sockperf 14 B, ism_lat 8 B; bandwidth one way;"
out "a ratio is the median of the rounds' ratios: every mode ran in each round)"
out ""
printf 'ism-demo: %-30s %14s %14s %14s\n' "mode" "latency (us)" "64 KiB (MB/s)" "1 MB (MB/s)"
row "TCP (sockperf)" tcp
row "SMC-D ($dev, sockperf)" smcd
row "ism_lat/ism_bw, event" ism.event
row "ism_lat/ism_bw, busy-poll" ism.busy
row "SMC-D / TCP" ratio.smcd
row "ism, event / TCP" ratio.ism.event
row "ism, busy-poll / TCP" ratio.ism.busy
out ""
out "ism_lat/ism_bw wrote into the peer's DMB by: $(cat /tmp/ism.mode)"
out ""
out "SMC-D devices (smc_info dev):"
smc_info dev | sed 's/^/ism-demo:   /'
out "SMC connections during the SMC-D throughput run (smc_ss):"
sed 's/^/ism-demo:   /' /tmp/ss
# Ends the server guest's part.
[ "$role" = client ] && smc_xfer client --tcp -a $server -p $done_port -b 1 >/dev/null 2>&1
smc_ueid flush
