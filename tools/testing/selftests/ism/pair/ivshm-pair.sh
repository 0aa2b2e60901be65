#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One guest of two on a virtual ISM region (ism_ivshm), joined by a
# virtio-net link for SMC's TCP handshake; tools/testing/ism/pair.sh
# starts them and the region's server. ISM_PAIR_ROLE says which guest
# this is:
#   a   10.77.0.1, runs the servers (the host formatted the region with
#       ism-region); during the first transfer a second user of a tries
#       to reach its two DMBs through /dev/ism (attack_smcd); it sees b
#       killed mid-transfer, then talks to b2
#   b   10.77.0.2, the clients; the host kills it during its last transfer
#       (SMC-D, and an application's over ism_user beside it)
#   b2  10.77.0.2 again, a restarted b rejoining the region; the host
#       pauses it (stops its QEMU) during a transfer for longer than the
#       peer timeout, after which both ends must have ended that
#       transfer and talk again; then it announces the host's aimed
#       attacks (test/region_attack) one by one: every live DMB
#       descriptor rewritten during a transfer (the transfer ends on
#       both ends, with an error, and SMC-D works again after), fake
#       peers coming and going in the free slots (the logs stay within
#       budget, traffic goes on), a flood of events from a fake peer
#       into a's queues, paced just under the receive path's budget (a
#       takes a bounded share, traffic goes on: its throughput against
#       that of the same transfer unflooded, and its idle CPU time
#       flooded and not, are printed), SMC's SHUTDOWN spoofed in both
#       directions during a transfer (it ends on both ends, with an
#       error; SMC-D works after), the same with the driver's fence
#       spoofed, a
#       signal storm and garbage queue heads during a transfer (it goes
#       on intact), b2's claim taken (b2 writes nothing more into the
#       region and leaves it; its connections fall back to TCP); last
#       the hostile phase, in which the host scribbles over the region's
#       metadata (region_scribble) while a and b2 run traffic. Each
#       attack must show here (the guest's log or counters) and hit
#       SMC-D traffic, not a fallback to TCP.
# Before b's last transfer, applications on both guests talk over the
# region through ism_user (/dev/ism/DEV): libism's ism_lat and ism_bw,
# each writing straight into the DMB the other guest registered
# (zero-copy), in event and busy-poll mode, the bandwidth's data
# verified; b's endless ism_bw dies with b, and a's must end, told the
# peer is gone, not hang.
# Every check is made on both ends: SMC-D on the virtual ISM device, not
# TCP; data intact (smc_xfer checksums every connection), also when read
# with splice(), which maps the DMB's pages (virt_to_page()). In the hostile
# phase transfers may fail; the guests must report the damage and live
# on. The host judges both logs for kernel reports of any kind (soft
# lockups, RCU stalls and hung tasks included).
ISM_LIB=$(cd "$(dirname "$0")/../lib" && pwd)
. "$ISM_LIB/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/ivshm.sh"

role=${ISM_PAIR_ROLE:?}
peer=10.77.0.1
case $role in
a) addr=10.77.0.1 peer=10.77.0.2 ;;
b | b2) addr=10.77.0.2 ;;
*) ktap_skip "ISM_PAIR_ROLE=$role: not a, b or b2" ;;
esac

# second_bound: the second region's device is bound (bound now if not);
# second_peer: a peer joined there
second_bound() {
	ivshm_dev_at "$second" >/dev/null && return 0
	echo "$second" >/sys/bus/pci/drivers/ism_ivshm/bind 2>/dev/null
	ivshm_dev_at "$second" >/dev/null
}
second_peer() {
	drvlog_at "$second" | grep -q 'joined in slot'
}

# second_clean: the second region's device logged no damage
second_clean() {
	! drvlog_at "$second" | grep -q -E 'malformed|taken by another|lost'
}

# A second region (ISM_IVSHM_PCI2, doorbell mode): a binds it from the
# start; b2 binds it once it lost the first. SMC prefers
# the SMC-D device registered last: until then b and b2 use the first.
second=${ISM_IVSHM_PCI2:-}
[ -z "$second" ] || [ "$role" = a ] ||
	echo none >"/sys/bus/pci/devices/$second/driver_override"
smc_setup
check "the virtio-net link is up" sh -c \
	"ip addr add $addr/24 dev eth0 && ip link set eth0 up"
check "the virtual ISM device is bound" wait_for 120 bind_ivshm
dev=$(ivshm_dev)
drvlog | sed 's/^/# /'
if [ -n "$second" ] && [ "$role" = a ]; then
	check "the second region's device is bound" wait_for 120 second_bound
fi
check "the peer joined the region" joined 1
check "SMC-D lists $dev" sh -c "smc_info dev | grep -q $dev"
# doorbells_rang: the peer's doorbells interrupted this guest
doorbells_rang() {
	_irqs=$(ivshm_irqs)
	echo "# $_irqs doorbell interrupts"
	[ "$_irqs" -gt 0 ]
}
# doorbell_check: in doorbell mode, doorbells_rang (without doorbells
# the peer scan still finds the signals, only up to scan_ms late)
doorbell_check() {
	logged 'doorbell mode' || return 0
	check "the peer's doorbells interrupted this guest" doorbells_rang
}

# peer_lines: the driver's log lines about slots, which peers can trigger
peer_lines() {
	drvlog | grep -c 'slot '
}

# within_budget BEFORE: since BEFORE (peer_lines), the driver logged at
# most 30 lines about slots: its budget is 10 in 5 s
within_budget() {
	_n=$(($(peer_lines) - $1))
	echo "# $_n lines about slots"
	[ "$_n" -le 30 ]
}

# logged_smcd PATTERN: the SMC-D bridge logged a line matching PATTERN
logged_smcd() {
	dmesg | grep -q -E "ism_smcd: $1"
}

# dev_events: the events the device handed its clients so far
dev_events() {
	ismctl -j stats show dev "$dev" | sed -n 's/.*"events":\([0-9]*\).*/\1/p'
}

# flood_bounded EVENTS SECONDS: at most the receive path's budget (16
# events a pass, a pass a jiffy at HZ=250) of a flooding peer, plus the
# honest traffic's few, went to the clients
flood_bounded() {
	echo "# flood: $1 events in $2 s handed to the clients, $(($1 / ($2 + 1))) a second (bound 4000)"
	[ "$1" -le $((4000 * ($2 + 1))) ]
}

# lost_lines: the driver's lines about events it could not take, which
# an overrun queue, a garbage queue head or entry make
lost_lines() {
	drvlog | grep -c -E 'events from slot [0-9]+ lost|malformed event'
}

# flood_seen EVENTS IRQS LOST: the flood reached this guest: its events
# came (EVENTS handed to the clients, 100 at least), overran its queue
# (lost_lines grew from LOST) and, in doorbell mode, rang its doorbell
# (ivshm_irqs grew from IRQS by 100 at least)
flood_seen() {
	echo "# flood: $1 events, $(($(ivshm_irqs) - $2)) interrupts, $(($(lost_lines) - $3)) lines about lost events"
	[ "$1" -ge 100 ] && [ "$(lost_lines)" -gt "$3" ] || return 1
	logged 'doorbell mode' || return 0
	[ "$(ivshm_irqs)" -ge $(($2 + 100)) ]
}

# cpu_ticks: the CPUs' busy and total time so far, in ticks (/proc/stat)
cpu_ticks() {
	awk '/^cpu / { print $2 + $3 + $4 + $7 + $8 + $9, $2 + $3 + $4 + $5 + $6 + $7 + $8 + $9 }' /proc/stat
}

# busy_since TICKS: the share of CPU time (%) busy since cpu_ticks said TICKS
busy_since() {
	cpu_ticks | awk -v b="${1% *}" -v t="${1#* }" \
		'{ printf "%d", ($2 > t) ? 100 * ($1 - b) / ($2 - t) : 0 }'
}

# flap_seen LINES: fake peers reached this guest: it logged two lines
# about slots at least since peer_lines said LINES
flap_seen() {
	[ $(($(peer_lines) - $1)) -ge 2 ]
}

# bg_smcd WHAT PORT COMMAND...: COMMAND (a transfer on PORT) in the
# background, checked to be SMC-D while it runs, then waited for: its
# status. bg_smcd_on WHAT PORT DEV COMMAND...: the same, SMC-D on the ISM
# device DEV.
bg_smcd() {
	_what=$1 _port=$2
	shift 2
	"$@" &
	_bg=$!
	check "$_what: SMC-D" both_smcd "$_port"
	wait $_bg
}
# bg_server WHAT PORT ARGS...: bg_smcd of an smc_xfer server on PORT
bg_server() {
	_w=$1 _p=$2
	shift 2
	rm -f "/tmp/s.$_p"
	bg_smcd "$_w" "$_p" server "$_p" "$@"
}
bg_smcd_on() {
	_what=$1 _port=$2 _dev=$3
	shift 3
	"$@" &
	_bg=$!
	check "$_what: SMC-D on $_dev" smcd_on "$_port" "$_dev"
	wait $_bg
}

# mbps FILE: the MB/s of smc_xfer's summary line in FILE
mbps() {
	sed -n 's/.* MB\/s=\([0-9.]*\).*/\1/p' "$1" | tail -n 1
}

# attacked_server PORT WHAT, attacked_client PORT WHAT NAME: an endless
# transfer on PORT, which the host's attack WHAT must end with an error
# on both ends within 120 s (smc_xfer's status 1; 124 means it hung
# till the deadline); the client announces the attack to the host once
# the connection is SMC-D ("pair: attack NAME begins")
attacked_server() {
	deadline 120 xfer_server "$1" -n 1 -t 600
	check "$2: this end's transfer ends" \
		grep -q 'server conns=1 ok=0 failed=1 ' "/tmp/s.$1"
}
attacked_client() {
	deadline 120 client -p "$1" -b 1024G --bidir -t 600 &
	_c=$!
	check "SMC-D before the $2" both_smcd "$1"
	echo "# pair: attack $3 begins"
	wait $_c
	check "$2: this end's transfer ends" [ $? = 1 ]
}

# smcd_again_server PORT WHAT, smcd_again_client PORT WHAT: after the
# attack WHAT, a new connection on PORT is SMC-D and carries 8M each way
smcd_again_server() {
	server "$1" -n 1 &
	_s=$!
	wait_listen "/tmp/s.$1"
	check "SMC-D again after the $2" both_smcd "$1"
	wait $_s
	check "8M each way after the $2" \
		grep -q 'server conns=1 ok=1' "/tmp/s.$1"
}
smcd_again_client() {
	deadline 240 client -p "$1" -b 8M --bidir --hold 5 &
	_c=$!
	check "SMC-D again after the $2" both_smcd "$1"
	wait $_c
	check "8M each way after the $2" \
		grep -q 'client conns=1 ok=1' /tmp/c.out
}

# user_up: ism_user serves the device under test (/dev/ism/$dev)
user_up() {
	check "ism_user loaded" ism-load ism_user
	check "/dev/ism/$dev is there" wait_for 10 test -c "/dev/ism/$dev"
}

# attack_smcd PORT: a second user of this guest, mallory (uid 1002, in
# the group of /dev/ism/$dev), takes the DMB tokens of the SMC-D
# connection on PORT from smc_diag, as anyone may: this guest's own DMB,
# registered for the peer (its rgid is the peer's), and the peer's, for
# this guest. With /dev/ism she reaches neither: ATTACH, and a MOVE of a
# forged CDC header with a signal, fail with ENOENT whatever key she
# tries (ism_user_test attack); the transfer's checksums say the rest.
attack_smcd() {
	user_up
	chgrp 1500 "/dev/ism/$dev" && chmod 0660 "/dev/ism/$dev"
	run_as 1002 1002,1500 smc_ss -j >/tmp/iso.json
	_tokens=$(jq -r ".[] | select(.mode == \"SMCD\" and
		(.local_port == $1 or .peer_port == $1)) |
		.dmb.token, .dmb.peer_token" /tmp/iso.json | sort -u)
	eq "mallory sees both DMB tokens of the connection" \
		"$(echo "$_tokens" | wc -w)" 2
	# shellcheck disable=SC2086 # a list of tokens
	ktap_relay attack run_as 1002 1002,1500 ism_user_test attack "$dev" \
		$_tokens
	eq "ism_user_test attack, as mallory: exit status" $? 0
}

# has_line ERE FILE: FILE has a line matching ERE; else FILE is printed
has_line() {
	grep -q -E "$1" "$2" && return 0
	sed 's/^/# /' "$2"
	return 1
}

# USER_LAT, USER_BW: the arguments both ends of ism_lat and ism_bw share
USER_LAT="-n 1000 -t 60000"
USER_BW="-n 200 -s 64k -t 60000"

case $role in
a)
	server 5201 -n 1 &
	s1=$!
	wait_listen /tmp/s.5201
	check "SMC-D end of the connection, this side" both_smcd 5201
	attack_smcd 5201
	wait $s1
	check "32M each way, checksummed" grep -q 'server conns=1 ok=1' /tmp/s.5201
	doorbell_check
	server 5202 -n 32
	check "32 concurrent connections" grep -q 'server conns=32 ok=32' /tmp/s.5202
	server 5206 -n 1 --splice
	check "splice() of 8M each way out of DMBs, checksummed" \
		grep -q 'server conns=1 ok=1' /tmp/s.5206
	user_up
	for w in event busy-poll; do
		busy=
		[ $w = event ] || busy=-b
		# shellcheck disable=SC2086 # lists of arguments
		check "ism_lat $w: 1000 round trips with b" \
			deadline 180 ism_lat -d "$dev" $busy $USER_LAT
		# shellcheck disable=SC2086 # lists of arguments
		deadline 180 ism_bw -d "$dev" $busy -v $USER_BW >/tmp/bw.srv 2>&1
		check "ism_bw $w: b's 64 KiB messages arrived intact" \
			has_line 'ism_bw: 300 messages of 65536 bytes verified' /tmp/bw.srv
	done
	# b's endless ism_bw, which dies with b: -t is far longer than the
	# wait for the peer's end, so a timeout here is a failure.
	deadline 300 ism_bw -d "$dev" -n 1000000000 -t 120000 >/tmp/bw.gone 2>&1 &
	bw_gone=$!
	# The last transfer never ends: the host kills b during it.
	server 5203 -n 1
	cat /tmp/s.5203
	check "b killed mid-transfer: this end sees the connection fail" \
		grep -q 'server conns=1 ok=0 failed=1 ' /tmp/s.5203
	wait $bw_gone
	check "b killed mid-ism_bw: this end's ism_bw ends with an error" [ $? = 1 ]
	check "b killed mid-ism_bw: it was told the peer is gone" \
		has_line 'transfer: Transport endpoint is not connected' /tmp/bw.gone
	check "the peer is reported gone" logged 'is gone'
	check "a restarted b rejoins" joined 2
	server 5204 -n 1 &
	s4=$!
	wait_listen /tmp/s.5204
	check "SMC-D with the rejoined guest" both_smcd 5204
	wait $s4
	check "8M each way with the rejoined guest" \
		grep -q 'server conns=1 ok=1' /tmp/s.5204
	# b2 is paused during this one for longer than the peer timeout.
	# The connection must end because the peer is gone, not because it
	# stood still for smc_xfer's timeout (-t).
	server 5207 -n 1 -t 600
	check "a paused peer: this end's transfer ends" \
		grep -q 'server conns=1 ok=0 failed=1 ' /tmp/s.5207
	check "the paused peer is reported gone" logged_n 2 'no heartbeat'
	server 5208 -n 1
	check "SMC-D with the peer after its pause" \
		grep -q 'server conns=1 ok=1' /tmp/s.5208
	# The host rewrites every live DMB descriptor during this one.
	attacked_server 5209 "descriptor attack"
	smcd_again_server 5210 "descriptor attack"
	# Fake peers come and go in the free slots meanwhile.
	n0=$(peer_lines)
	bg_server "fake peers flapping" 5211 -n 4
	check "fake peers flapping: 4 connections intact" \
		grep -q 'server conns=4 ok=4' /tmp/s.5211
	sleep 2
	check "fake peers flapping: they reached this guest" flap_seen "$n0"
	check "fake peers flapping: the log within budget" within_budget "$n0"
	# The same transfer twice, the second while a fake peer floods this
	# guest with events (TESTLINK requests, which SMC answers).
	server 5213 -n 1
	check "SMC-D before the flood: 16M each way" \
		grep -q 'server conns=1 ok=1' /tmp/s.5213
	slot=$(drvlog | sed -n 's/.*, slot \([0-9]*\) of .*/\1/p' | head -n 1)
	# What the flood costs an idle guest: 3 s without, 3 s with.
	q=$(cpu_ticks)
	sleep 3
	quiet=$(busy_since "$q")
	e0=$(dev_events) t0=$(uptime_s) i0=$(ivshm_irqs) l0=$(lost_lines)
	echo "# pair: attack flood on slot $slot begins"
	# The fake peer joins first: the flood starts a second later.
	sleep 2
	q=$(cpu_ticks)
	sleep 3
	echo "# flood: CPU busy $(busy_since "$q")% while flooded and idle, $quiet% idle before"
	bg_server "flooded" 5214 -n 1
	e1=$(dev_events) t1=$(uptime_s)
	check "flooded: 16M each way intact" \
		grep -q 'server conns=1 ok=1' /tmp/s.5214
	check "flooded: the flood reached this guest" \
		flood_seen $((e1 - e0)) "$i0" "$l0"
	check "flooded: the receive path took a bounded share" \
		flood_bounded $((e1 - e0)) $((t1 - t0))
	# The host spoofs SMC's SHUTDOWN both ways during this one.
	attacked_server 5216 "spoofed SHUTDOWN"
	smcd_again_server 5217 "spoofed SHUTDOWN"
	# Then spoofed fences.
	attacked_server 5218 "spoofed fence"
	smcd_again_server 5219 "spoofed fence"
	# A signal storm, then garbage queue heads, during this one.
	l0=$(lost_lines)
	bg_server "signal storm, garbage queue heads" 5215 -n 1
	check "signal storm, garbage queue heads: 32M each way intact" \
		grep -q 'server conns=1 ok=1' /tmp/s.5215
	check "garbage queue heads reached this guest" \
		[ "$(lost_lines)" -gt "$l0" ]
	# b2 loses its slot and comes over TCP, or the second region.
	server 5212 -n 1
	check "a guest that lost its slot: its connection works" \
		grep -q 'server conns=1 ok=1' /tmp/s.5212
	# Serves b2's hostile-phase connections (12 s of them) until b2
	# says it is done: what they get over the first region does not
	# matter, only that nothing breaks; b2 judges those over the second.
	[ -z "$second" ] || server 5222 -n 1 &
	smc_xfer server -p 5205 -n 0 -t 10 >/tmp/s.5205 2>&1 &
	s5=$!
	check "b2 is done with the hostile phase" \
		deadline 600 smc_xfer server -T -p 5299 -n 1
	kill $s5
	tail -n 3 /tmp/s.5205 | sed 's/^/# hostile phase: /'
	wait
	;;
b)
	deadline 420 client -p 5201 -b 32M --bidir -s 11 --hold 10 &
	c1=$!
	check "SMC-D end of the connection, this side" both_smcd 5201
	wait $c1
	check "32M each way, checksummed" grep -q 'client conns=1 ok=1' /tmp/c.out
	doorbell_check
	check "32 concurrent connections" \
		deadline 240 client -p 5202 -c 32 -b 256K --bidir
	check "splice() of 8M each way out of DMBs, checksummed" \
		deadline 240 client -p 5206 -b 8M --bidir --splice
	user_up
	for w in event busy-poll; do
		busy=
		[ $w = event ] || busy=-b
		# shellcheck disable=SC2086 # lists of arguments
		deadline 180 ism_lat -d "$dev" $busy $USER_LAT -j $peer >/tmp/lat.json
		check "ism_lat $w: zero-copy into a's DMB, 1000 round trips, p50 $(jq -r \
			.latency_us.p50 /tmp/lat.json) us" jq -e \
			'.mode == "zero-copy" and .iterations == 1000' /tmp/lat.json
		# shellcheck disable=SC2086 # lists of arguments
		deadline 180 ism_bw -d "$dev" $busy $USER_BW -j $peer >/tmp/bw.json
		check "ism_bw $w: zero-copy 64 KiB messages into a's DMB, $(jq -r \
			.MBps /tmp/bw.json) MB/s" jq -e '.mode == "zero-copy"' /tmp/bw.json
	done
	ism_bw -d "$dev" -n 1000000000 -t 120000 $peer >/dev/null 2>&1 &
	check "an endless ism_bw to a runs" sh -c "sleep 5; kill -0 $!"
	echo "# pair: the endless transfer begins"
	client -p 5203 -b 1024G
	;;
b2)
	deadline 240 client -p 5204 -b 8M --bidir --hold 10 &
	c4=$!
	check "SMC-D with the rejoined guest" both_smcd 5204
	wait $c4
	check "8M each way after rejoining" grep -q 'client conns=1 ok=1' /tmp/c.out
	# The host stops this guest's QEMU for longer than the peer timeout:
	# the peer drops it and fences it off, and it must end the transfer
	# too rather than wait for a peer that no longer takes part.
	deadline 240 client -p 5207 -b 1024G -t 600 &
	c7=$!
	check "SMC-D before the pause" both_smcd 5207
	echo "# pair: the pause begins"
	wait $c7
	# 1: smc_xfer saw the connection fail; 124: it hung till the deadline
	check "paused past the peer timeout: this end's transfer ends" \
		[ $? = 1 ]
	check "the peer fenced this guest off" \
		logged 'took this guest for gone'
	check "SMC-D with the peer after the pause" \
		deadline 240 client -p 5208 -b 1M --bidir
	# The host rewrites every live DMB descriptor: each end's writes are
	# refused, and the bridge ends the connections with an error rather
	# than hand SMC the refusal (on which a reader would spin).
	attacked_client 5209 "descriptor attack" desc
	check "the bridge ended the connections with the peer" \
		wait_for 10 logged_smcd 'a write to DMB .* was refused'
	smcd_again_client 5210 "descriptor attack"
	n0=$(peer_lines)
	echo "# pair: attack flap begins"
	bg_smcd "fake peers flapping" 5211 \
		deadline 240 client -p 5211 -c 4 -b 4M --bidir --hold 8
	check "fake peers flapping: 4 connections intact" [ $? = 0 ]
	sleep 2
	check "fake peers flapping: they reached this guest" flap_seen "$n0"
	check "fake peers flapping: the log within budget" within_budget "$n0"
	check "SMC-D before the flood: 16M each way" \
		deadline 240 client -p 5213 -b 16M --bidir
	before=$(mbps /tmp/c.out)
	# The host floods a meanwhile (it starts once a announces it); a
	# listens once it measured its CPU time.
	sleep 3
	bg_smcd "flooded" 5214 deadline 240 client -p 5214 -b 16M --bidir
	check "flooded: 16M each way intact" [ $? = 0 ]
	echo "# flood: SMC-D $(mbps /tmp/c.out) MB/s flooded, $before MB/s before"
	attacked_client 5216 "spoofed SHUTDOWN" shutdown
	smcd_again_client 5217 "spoofed SHUTDOWN"
	attacked_client 5218 "spoofed fence" fence
	# The pause above made the first of these lines.
	check "the spoofed fence dropped the peer" \
		logged_n 2 'took this guest for gone'
	smcd_again_client 5219 "spoofed fence"
	l0=$(lost_lines)
	echo "# pair: attack storm begins"
	bg_smcd "signal storm, garbage queue heads" 5215 \
		deadline 240 client -p 5215 -b 32M --bidir
	check "signal storm, garbage queue heads: 32M each way intact" \
		[ $? = 0 ]
	check "garbage queue heads reached this guest" \
		[ "$(lost_lines)" -gt "$l0" ]
	# The host takes this guest's claim of its slot, as a newcomer would.
	slot=$(drvlog | sed -n 's/.*, slot \([0-9]*\) of .*/\1/p' | tail -n 1)
	echo "# pair: attack cookie on slot $slot"
	check "slot taken: the driver leaves the region" \
		wait_for 30 logged 'taken by another party'
	check "the lost device leaves the ISM layer" \
		wait_for 60 sh -c "! ismctl dev | grep -q $dev"
	check "and SMC-D" sh -c "! smc_info dev | grep -q $dev"
	if [ -z "$second" ]; then
		check "a connection without the device works (TCP)" \
			deadline 240 client -p 5212 -b 1M --bidir
	else
		# The second region, another trust domain, carries it.
		echo >"/sys/bus/pci/devices/$second/driver_override"
		check "the second region's device is bound" \
			wait_for 120 second_bound
		dev2=$(ivshm_dev_at "$second")
		check "$dev2: a is a peer there" wait_for 60 second_peer
		bg_smcd_on "without the first region's device" 5212 "$dev2" \
			deadline 240 client -p 5212 -b 1M --bidir --hold 3
		check "without the first region's device: 1M each way" \
			[ $? = 0 ]
		# Over it, through the host's scribbling on the first: 16M
		# each way, then held 20 s, then a ping.
		deadline 300 client -p 5222 -b 16M --bidir --hold 20 \
			>/dev/null &
		c22=$!
		check "through the scribbling: SMC-D on $dev2" \
			smcd_on 5222 "$dev2"
	fi
	# New connections all along (handshakes, DMBs registered and
	# unregistered, data), small ones: those that fall back to TCP
	# must not flood the emulated network.
	echo "# pair: the hostile phase begins"
	end=$(($(date +%s) + 12))
	conns=0 bad=0
	while [ "$(date +%s)" -lt $end ]; do
		smc_xfer client -a $peer -p 5205 -c 4 -b 1M --bidir -t 10 \
			>/tmp/h.out 2>&1
		tail -n 1 /tmp/h.out | sed 's/^/# hostile phase: /'
		conns=$((conns + 4))
		grep -q 'client conns=4 ok=4 ' /tmp/h.out || bad=$((bad + 1))
	done
	check "a told the hostile phase is over" \
		deadline 120 smc_xfer client -T -a $peer -w 60 -p 5299 -b 1K
	if [ -n "$second" ]; then
		check "the first region scribbled: $conns connections over the second intact" \
			[ $bad = 0 ]
		check "the first region scribbled: $dev2 carried 16M each way intact, held, pinged" \
			wait $c22
		check "the second region's device saw nothing of it" \
			second_clean
	fi
	;;
esac
if [ "$role" != b ]; then
	drvlog | tail -n 20 | sed 's/^/# /'
	check "ismctl still answers after the hostile phase" \
		sh -c "ismctl dev >/dev/null"
	check "the driver reported the damage" \
		logged 'malformed|taken by another'
fi
smc_ueid flush
ktap_finish
