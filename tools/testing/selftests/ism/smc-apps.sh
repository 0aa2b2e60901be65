#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: Debian's iperf3 and sockperf, unchanged, run through smc_run: their
# TCP connections become SMC-D connections over the loopback device.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
smc_setup

# app_run PORT CONNS SERVER-CMD -- CLIENT-CMD: both through smc_run; ok
# if CONNS connection ends on PORT are SMCD while the client runs and
# the client succeeds
app_run() {
	port=$1
	conns=$2
	shift 2
	server=
	while [ "$1" != -- ]; do
		server="$server $1"
		shift
	done
	shift
	# shellcheck disable=SC2086
	timeout 120 smc_run $server >/tmp/as.$port 2>&1 &
	spid=$!
	if ! wait_port "$port"; then
		cat /tmp/as.$port
		kill $spid
		bad "$server: nothing listening on port $port after 30 s"
		return
	fi
	smc_run "$@" >/tmp/ac.$port 2>&1 &
	cpid=$!
	wait_conns "$conns" "$port" || echo "# no $conns connection ends on $port"
	smc_ss
	m=$(modes "$port")
	wait $cpid
	r=$?
	kill $spid 2>/dev/null
	wait $spid 2>/dev/null
	if [ $r -ne 0 ]; then
		cat /tmp/as.$port /tmp/ac.$port
		bad "$*: status $r"
		return
	fi
	[ "$m" = "SMCD " ] && ok "$1 through smc_run: SMCD" || bad "$1 through smc_run: modes '$m'"
}

# iperf3: a control and a data connection, both ends of each listed.
app_run 5301 4 iperf3 -s -1 -p 5301 -- iperf3 -c 127.0.0.1 -p 5301 -t 4
app_run 5302 2 sockperf server --tcp -p 5302 -- \
	sockperf ping-pong --tcp -i 127.0.0.1 -p 5302 -t 4
smc_ueid flush
ktap_finish
