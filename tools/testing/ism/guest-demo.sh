#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make demo and make demo-vms, installed as
# /ism/bin/ism-demo: Debian's sockperf, unchanged, over TCP and then
# through smc_run over SMC-D; prints one table and the SMC-D device and
# connection listings. Every output line starts with "ism-demo: ". The
# modules are loaded (ism-load) before it runs.
#
# make demo: one guest, sockperf's client and server on 127.0.0.1, SMC-D
# on the loopback ISM device.
# make demo-vms: two guests on a virtual ISM region (ism_ivshm) and a
# virtio-net link; ISM_DEMO_ROLE (ism.env) says which this is:
#   server  10.77.0.1, serves sockperf, plain on
#           port 11111 and through smc_run on 11112, until the client
#           connects to port 11110 when it is done
#   client  10.77.0.2, measures against the server and prints the table
#
# Under TCG one run of a few seconds varies by a factor of two from run to
# run, so the demo runs ROUNDS rounds, alternating which mode goes first,
# prints every round with its SMC-D/TCP ratios and reports the median of
# each column and of the ratios.
SECS=5
ROUNDS=7
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
		$run sockperf server --tcp -p $port >/dev/null 2>&1 &
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
		$run sockperf throughput --tcp -i $addr -p $port -m 64000 \
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

# median FILE: the middle of the values in FILE, one per line
median() {
	sort -n "$1" | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] }'
}

# round N: one run of each mode and kind; the figures go to /tmp/fig.*
round() {
	order="tcp smcd"
	[ $(($1 % 2)) -eq 0 ] && order="smcd tcp"
	for kind in ping-pong throughput; do
		for mode in $order; do
			measure $mode $kind
			echo "$v" >>/tmp/fig.$mode.$kind
		done
	done
	for kind in ping-pong throughput; do
		awk -v t="$(tail -n 1 /tmp/fig.tcp.$kind)" \
			-v s="$(tail -n 1 /tmp/fig.smcd.$kind)" \
			'BEGIN { if (t > 0) printf "%.3f\n", s / t }' >>/tmp/fig.ratio.$kind
	done
	out "round $1: latency $(tail -n 1 /tmp/fig.tcp.ping-pong) us TCP," \
		"$(tail -n 1 /tmp/fig.smcd.ping-pong) us SMC-D" \
		"($(tail -n 1 /tmp/fig.ratio.ping-pong)x);" \
		"throughput $(tail -n 1 /tmp/fig.tcp.throughput) MB/s TCP," \
		"$(tail -n 1 /tmp/fig.smcd.throughput) MB/s SMC-D" \
		"($(tail -n 1 /tmp/fig.ratio.throughput)x)"
}

# serve: the server guest's part, until the client says it is done
serve() {
	sockperf server --tcp -i $server -p $tcp_port >/tmp/srv.tcp 2>&1 &
	tpid=$!
	smc_run sockperf server --tcp -i $server -p $smc_port >/tmp/srv.smc 2>&1 &
	spid=$!
	out "serving sockperf on $server: port $tcp_port TCP, port $smc_port through smc_run"
	smc_xfer server --tcp -p $done_port -n 1 -t 1800 >/tmp/done 2>&1 ||
		out "no word from the client: $(tail -n 1 /tmp/done)"
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
case $role in
'') ;;
server | client)
	addr=$server
	[ "$role" = client ] && addr=10.77.0.2
	{ ip addr add $addr/24 dev eth0 && ip link set eth0 up; } ||
		{ out "no virtio-net link (eth0)"; exit 1; }
	wait_for 120 bind_ivshm || { out "no virtual ISM device after 120 s"; exit 1; }
	dev=$(ivshm_dev)
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
tcp_lat=$(median /tmp/fig.tcp.ping-pong)
smc_lat=$(median /tmp/fig.smcd.ping-pong)
tcp_bw=$(median /tmp/fig.tcp.throughput)
smc_bw=$(median /tmp/fig.smcd.throughput)
lat_ratio=$(median /tmp/fig.ratio.ping-pong)
bw_ratio=$(median /tmp/fig.ratio.throughput)

out ""
# A ratio under KVM and one under TCG are different measurements.
accel=$(echo "${ISM_ACCEL:-unknown accelerator}" | tr '[:lower:]' '[:upper:]')
out "sockperf, medians of $ROUNDS rounds of $SECS s, $where"
out "($(uname -r), $(nproc) vCPU, QEMU $accel;"
out "SMC buffers (net.smc.wmem/rmem) $(sysctl -n net.smc.wmem) bytes;"
out "the ratio is the median of the rounds' ratios: both modes ran in each round)"
out ""
awk -v tl="$tcp_lat" -v sl="$smc_lat" -v tb="$tcp_bw" -v sb="$smc_bw" \
	-v rl="$lat_ratio" -v rb="$bw_ratio" -v dev="$dev" 'BEGIN {
	printf "ism-demo: %-22s %18s %18s\n", "mode", "latency 14 B (us)", "64000 B (MB/s)"
	printf "ism-demo: %-22s %18s %18s\n", "TCP", tl, tb
	printf "ism-demo: %-22s %18s %18s\n", "SMC-D (" dev ")", sl, sb
	printf "ism-demo: %-22s %17.2fx %17.2fx\n", "SMC-D / TCP", rl, rb
}'
out ""
out "SMC-D devices (smc_info dev):"
smc_info dev | sed 's/^/ism-demo:   /'
out "SMC connections during the SMC-D throughput run (smc_ss):"
sed 's/^/ism-demo:   /' /tmp/ss
# Ends the server guest's part.
[ "$role" = client ] && smc_xfer client --tcp -a $server -p $done_port -b 1 >/dev/null 2>&1
smc_ueid flush
