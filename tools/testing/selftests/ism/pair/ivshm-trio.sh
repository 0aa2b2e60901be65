#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# One guest of three on a virtual ISM region (ism_ivshm), on one
# virtio-net hub; tools/testing/ism/trio.sh starts them, the region's
# server and the host's fake peers that fill every free slot. ISM_PAIR_ROLE
# says which guest this is:
#   a   10.77.0.1, runs the servers
#   b   10.77.0.2. First act: talks to a over SMC-D and keeps a
#       connection open, has the host fill the region, then has itself
#       frozen (its QEMU stopped); thawed once the newcomer holds an
#       SMC-D connection with a in its slot, it must find the slot taken,
#       leave the region and SMC-D (closing that connection) and talk to
#       a over TCP; then it tells c the host has checked c's partition.
#       Second act: once the host freed the fake peers' slots, it binds
#       its device again (a fresh claim) and plays a hostile peer
#       (ism_forge): its SMC's tokens name a DMB of c's, then one of an
#       empty slot, then one of a's own slot. a must end each of those
#       connections, on both ends, within seconds; a new one with honest
#       tokens works.
#   c   10.77.0.3, the newcomer: finds no free slot, takes b's once b's
#       heartbeat stood still, and holds an SMC-D connection with a
#       (checksummed both ways, checked again with a ping after the
#       hold) while b runs again; then a new one. In the second act it
#       holds another with a while b attacks: it must go on intact.
# The host takes a digest of c's slot and partition (region_digest)
# before b is thawed and after b is done: they must be equal. It judges
# the three logs for kernel reports of any kind.
ISM_LIB=$(cd "$(dirname "$0")/../lib" && pwd)
. "$ISM_LIB/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/ivshm.sh"

role=${ISM_PAIR_ROLE:?}
peer=10.77.0.1
case $role in
a) addr=10.77.0.1 ;;
b) addr=10.77.0.2 ;;
c) addr=10.77.0.3 ;;
*) ktap_skip "ISM_PAIR_ROLE=$role: not a, b or c" ;;
esac

smc_setup
check "the virtio-net hub is up" sh -c \
	"ip addr add $addr/24 dev eth0 && ip link set eth0 up"
check "the virtual ISM device is bound" wait_for 120 bind_ivshm
dev=$(ivshm_dev)
drvlog | sed 's/^/# /'

# tell HOST PORT: the guest at HOST, waiting with hear PORT, goes on
tell() {
	deadline 300 smc_xfer client -T -a "$1" -w 240 -p "$2" -b 1K
}
hear() {
	deadline 900 smc_xfer server -T -p "$1" -n 1
}

# slots: the slot numbers this guest's driver logged taking, in order
slots() {
	drvlog | sed -n 's/.*, slot \([0-9]*\) of .*/\1/p'
}

# refused_fast PORT WHAT: a's writes for this connection to a on PORT are
# refused (the forged token): a must end it on both ends, well before
# smc_xfer would give up on a connection that does not move. Status 1:
# the connection failed; 124: it hung until the deadline.
refused_fast() {
	deadline 40 client -p "$1" -b 8M --bidir -t 300
	check "$2: a ended the connection, and this end saw it" [ $? = 1 ]
}

# joins: how many peers the driver logged joining so far
joins() {
	drvlog | grep -c 'joined in slot'
}

case $role in
a)
	check "b joined the region" joined 1
	server 5301 -n 1 &
	s1=$!
	server 5300 -n 1 -t 600 &
	s0=$!
	wait_listen /tmp/s.5301
	check "SMC-D with b" both_smcd 5301
	wait $s1
	check "2M each way with b" grep -q 'server conns=1 ok=1' /tmp/s.5301
	# b is frozen in a full region; c takes its slot.
	check "the frozen guest is reported gone" \
		wait_for 300 logged 'no heartbeat'
	wait $s0
	cat /tmp/s.5300
	check "b's open connection ended when b was gone" \
		grep -q 'server conns=1 ok=0 failed=0 ended=1 ' /tmp/s.5300
	server 5302 -n 1 &
	s2=$!
	server 5303 -n 1 &
	s3=$!
	wait_listen /tmp/s.5302
	wait_listen /tmp/s.5303
	check "SMC-D with the newcomer" both_smcd 5302
	wait $s3
	check "the old guest's connection works (TCP)" \
		grep -q 'server conns=1 ok=1' /tmp/s.5303
	wait $s2
	check "the newcomer's connection intact after the old guest ran" \
		grep -q 'server conns=1 ok=1 failed=0 ended=0' /tmp/s.5302
	server 5304 -n 1 &
	s4=$!
	wait_listen /tmp/s.5304
	check "SMC-D with the newcomer again" both_smcd 5304
	wait $s4
	check "2M each way with the newcomer again" \
		grep -q 'server conns=1 ok=1' /tmp/s.5304
	# The second act: c holds 5305 while b's forged tokens come.
	server 5305 -n 1 &
	s5=$!
	# Tokens naming c's DMB, an empty slot, this guest's own slot.
	for p in 5306 5307 5309; do
		deadline 600 xfer_server $p -n 1 -t 300
		check "forged token ($p): this end's connection ended" \
			grep -q 'server conns=1 ok=0 failed=1 ' /tmp/s.$p
	done
	check "the bridge ended the connections with b, three times" \
		sh -c "[ \$(dmesg | grep -c 'ism_smcd: a write for a connection with') -ge 3 ]"
	server 5308 -n 1
	check "SMC-D with b again, its tokens honest: 1M each way" \
		grep -q 'server conns=1 ok=1' /tmp/s.5308
	wait $s5
	check "c's connection intact through b's forged tokens" \
		grep -q 'server conns=1 ok=1 failed=0 ended=0' /tmp/s.5305
	;;
b)
	first=$(slots | head -n 1)
	pci=$(basename "$(readlink "/sys/class/ism/$dev/device")")
	check "a joined the region" joined 1
	deadline 240 client -p 5301 -b 2M --bidir --hold 5 &
	c1=$!
	check "SMC-D with a" both_smcd 5301
	wait $c1
	check "2M each way with a" grep -q 'client conns=1 ok=1' /tmp/c.out
	# Open while this guest is frozen, its slot taken: closed after.
	smc_xfer client -a $peer -p 5300 -b 1M --bidir --hold 1800 \
		>/tmp/c0.out 2>&1 &
	c0=$!
	check "SMC-D with a, held open" both_smcd 5300
	echo "# trio: fill the region"
	# a and the host's fake peers in the other slots
	check "the region is full" joined 7
	echo "# trio: freeze this guest"
	# The host stops this guest within a second; it runs on here once
	# the newcomer holds its connection in this guest's slot.
	check "thawed: this guest's slot is taken" \
		wait_for 600 logged 'taken by another party'
	# Closed (if the device's departure did not end it already): SMC
	# zeroes its DMB as it frees it, in what is c's partition now.
	kill -USR1 $c0 2>/dev/null
	wait $c0
	check "the lost device leaves the ISM layer" \
		wait_for 60 sh -c "! ismctl dev | grep -q $dev"
	check "and SMC-D" sh -c "! smc_info dev | grep -q $dev"
	check "a connection without the device works (TCP)" \
		deadline 240 client -p 5303 -b 2M --bidir
	echo "# trio: the old guest is done"
	# The host takes its digest of c's partition meanwhile.
	sleep 5
	check "c told that the old guest is done" tell 10.77.0.3 5399
	# The second act, once the host freed the fake peers' slots.
	joins0=$(joins)
	echo "$pci" >/sys/bus/pci/drivers/ism_ivshm/unbind
	check "bound again, a fresh claim" wait_for 300 bind_ivshm
	dev=$(ivshm_dev)
	check "SMC-D lists $dev" wait_for 30 sh -c "smc_info dev | grep -q $dev"
	check "a and c are peers" joined $((joins0 + 2))
	# c's slot is the one this guest had first, a's the other peer's;
	# an empty one is none of the three now present.
	peers=$(drvlog | grep 'joined in slot' | tail -n +$((joins0 + 1)) |
		sed -n 's/.*joined in slot \([0-9]*\)$/\1/p' | tr '\n' ' ')
	a_slot=${peers%% *}
	[ "$a_slot" != "$first" ] || a_slot=$(echo "$peers" | cut -d' ' -f2)
	taken=" $(slots | tail -n 1) $peers"
	empty=0
	while echo "$taken" | grep -q " $empty "; do
		empty=$((empty + 1))
	done
	echo "# slots: c $first, a $a_slot, this guest $(slots | tail -n 1), empty $empty"
	check "ism_forge loaded" ism-load ism_forge
	hear 5398
	echo "$first" >/sys/module/ism_forge/parameters/slot
	refused_fast 5306 "tokens naming c's DMB"
	echo $empty >/sys/module/ism_forge/parameters/slot
	refused_fast 5307 "tokens naming an empty slot (slot $empty)"
	echo "$a_slot" >/sys/module/ism_forge/parameters/slot
	refused_fast 5309 "tokens naming a's own slot"
	echo -1 >/sys/module/ism_forge/parameters/slot
	check "the forged tokens were handed out" \
		sh -c "[ \$(dmesg | grep -c 'ism_forge: .* handed to SMC as') -ge 3 ]"
	check "SMC-D with a again, honest tokens: 1M each way" \
		deadline 240 client -p 5308 -b 1M --bidir
	check "c told that b is done" tell 10.77.0.3 5397
	;;
c)
	check "the region was full: this guest waited for a stale slot" \
		logged 'all [0-9]* slots are claimed'
	check "a is a peer" wait_for 60 logged 'joined in slot'
	smc_xfer client -a $peer -w 120 -p 5302 -b 8M --bidir --hold 600 \
		>/tmp/c.out 2>&1 &
	c2=$!
	check "SMC-D with a in the taken slot" both_smcd 5302
	check "8M each way, then holding" wait_for 240 holding /tmp/c.out 1
	echo "# trio: the newcomer holds its connection"
	# b, thawed, runs and says when it is done.
	check "the old guest is done" hear 5399
	kill -USR1 $c2
	wait $c2
	cat /tmp/c.out
	check "the held connection intact after the old guest ran" \
		grep -q 'client conns=1 ok=1 failed=0 ended=0' /tmp/c.out
	deadline 240 client -p 5304 -b 2M --bidir --hold 5 &
	c4=$!
	check "SMC-D with a again" both_smcd 5304
	wait $c4
	check "2M each way with a again" grep -q 'client conns=1 ok=1' /tmp/c.out
	# The second act: held while b hands a forged tokens.
	smc_xfer client -a $peer -w 120 -p 5305 -b 2M --bidir --hold 900 \
		>/tmp/c5.out 2>&1 &
	c5=$!
	check "SMC-D with a, held through b's attack" both_smcd 5305
	check "2M each way, then holding" wait_for 240 holding /tmp/c5.out 1
	check "b told to attack" tell 10.77.0.2 5398
	check "b is done" hear 5397
	kill -USR1 $c5
	wait $c5
	cat /tmp/c5.out
	check "the held connection intact through b's forged tokens" \
		grep -q 'client conns=1 ok=1 failed=0 ended=0' /tmp/c5.out
	;;
esac
drvlog | tail -n 20 | sed 's/^/# /'
smc_ueid flush
ktap_finish
