#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Guest side of make demo, installed as /ism/bin/ism-demo: Debian's
# sockperf, unchanged, over TCP on 127.0.0.1 and then through smc_run over
# SMC-D on the loopback ISM device; prints one table and the SMC-D device
# and connection listings. Every output line starts with "ism-demo: ".
# The modules are loaded (ism-load) before it runs.
#
# Under TCG one run of a few seconds varies by a factor of two from run to
# run, so the demo runs ROUNDS rounds, alternating which mode goes first,
# prints every round with its SMC-D/TCP ratios and reports the median of
# each column and of the ratios.
SECS=5
ROUNDS=7
port=11111
# wait_port
. /ism/tests/lib/smc.sh

out() {
	echo "ism-demo: $*"
}

# measure tcp|smcd ping-pong|throughput: sockperf's summary figure in $v
measure() {
	run=
	[ "$1" = smcd ] && run=smc_run
	$run sockperf server --tcp -p $port >/dev/null 2>&1 &
	spid=$!
	wait_port $port || out "sockperf server ($1) not listening on port $port after 30 s"
	if [ "$2" = ping-pong ]; then
		$run sockperf ping-pong --tcp -i 127.0.0.1 -p $port -m 14 \
			-t "$SECS" >/tmp/sp 2>&1
		v=$(sed -n 's/.*Latency is \([0-9.]*\) usec.*/\1/p' /tmp/sp)
	else
		$run sockperf throughput --tcp -i 127.0.0.1 -p $port -m 64000 \
			-t "$SECS" >/tmp/sp 2>&1 &
		cpid=$!
		sleep 3
		# The connection listing, taken while data moves.
		[ "$1" = smcd ] && smc_ss >/tmp/ss
		wait $cpid
		v=$(sed -n 's/.*BandWidth is \([0-9.]*\) MBps.*/\1/p' /tmp/sp)
	fi
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	port=$((port + 1))
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

ip link set lo up
smc_ueid add ISM-DEMO >/dev/null || { out "smc_ueid add failed"; exit 1; }
# SMC's send and receive buffers default to 64 KiB; TCP autotunes its
# own to several MiB. Give SMC 1 MiB, the largest DMB of ism_lo.
sysctl -q -w net.smc.wmem=1048576 net.smc.rmem=1048576
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
out "sockperf, medians of $ROUNDS rounds of $SECS s, 127.0.0.1 ($(uname -r), $(nproc) vCPU, QEMU $accel;"
out "SMC buffers (net.smc.wmem/rmem) $(sysctl -n net.smc.wmem) bytes;"
out "the ratio is the median of the rounds' ratios: both modes ran in each round)"
out ""
awk -v tl="$tcp_lat" -v sl="$smc_lat" -v tb="$tcp_bw" -v sb="$smc_bw" \
	-v rl="$lat_ratio" -v rb="$bw_ratio" 'BEGIN {
	printf "ism-demo: %-22s %18s %18s\n", "mode", "latency 14 B (us)", "64000 B (MB/s)"
	printf "ism-demo: %-22s %18s %18s\n", "TCP", tl, tb
	printf "ism-demo: %-22s %18s %18s\n", "SMC-D (ism_lo)", sl, sb
	printf "ism-demo: %-22s %17.2fx %17.2fx\n", "SMC-D / TCP", rl, rb
}'
out ""
out "SMC-D devices (smc_info dev):"
smc_info dev | sed 's/^/ism-demo:   /'
out "SMC connections during the SMC-D throughput run (smc_ss):"
sed 's/^/ism-demo:   /' /tmp/ss
smc_ueid flush
