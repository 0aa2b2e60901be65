#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: /dev/ism between users who do not trust each other, on the
# loopback device. alice (uid 1001) and mallory (uid 1002, in the group
# of /dev/ism/ismlo0) each hold an SMC-D connection over 127.0.0.1.
# smc_diag shows mallory the DMB tokens of both; with /dev/ism she
# reaches none of them (ATTACH, MOVE of a forged CDC header and a
# signal, SEND_EVENT, with no key or a random one: ENOENT), her own
# socket's no more than alice's, not even with unkeyed-writes on (ismctl
# user set, which only root may), and alice's data arrives intact. Held
# to one doorbell a second (user-rings 1), mallory's events stop at the
# first refusal (EAGAIN), and alice's go right after: each user's budget
# is her own. Then mallory takes all the DMBs she may with no memlock
# limit: her share (EDQUOT), and alice's next connection is SMC-D all the
# same. No kernel report.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/kmsg.sh"
smc_setup
kmsg_mark user-isolation
ism-load ism_user || { bad "ism-load ism_user"; ktap_finish; }
wait_for 10 test -c /dev/ism/ismlo0 && ok "/dev/ism/ismlo0 is there" ||
	{ bad "no /dev/ism/ismlo0"; ktap_finish; }
# The package's udev rule: group ism (here 1500), mode 0660.
chgrp 1500 /dev/ism/ismlo0 && chmod 0660 /dev/ism/ismlo0
alice="run_as 1001 1001"
mallory="run_as 1002 1002,1500"

# held USER PORT [SECONDS]: an SMC-D connection of USER on PORT, held
# 30 s (or SECONDS), data checked at both ends; logs in /tmp/iso.PORT.*
held() {
	$1 timeout 120 smc_xfer server -n 1 -p "$2" >/tmp/iso.$2.s 2>&1 &
	wait_listen /tmp/iso.$2.s
	$1 smc_xfer client -a 127.0.0.1 -p "$2" -b 2M --bidir \
		--hold "${3:-30}" >/tmp/iso.$2.c 2>&1 &
}

# intact PORT: both ends of the connection on PORT saw all data
intact() {
	grep -q "client conns=1 ok=1" /tmp/iso.$1.c &&
		grep -q "server conns=1 ok=1" /tmp/iso.$1.s && return 0
	cat /tmp/iso.$1.c /tmp/iso.$1.s
	return 1
}
held "$alice" 5301
held "$mallory" 5302
wait_conns 2 5301 && wait_conns 2 5302 || bad "connections not listed"
$mallory smc_ss -j >/tmp/iso.json
eq "both connections SMC-D" "$(jq '[.[] | select(.mode == "SMCD")] |
	length' /tmp/iso.json)" 4
tokens=$(jq -r '.[] | select(.mode == "SMCD") | .dmb.token' /tmp/iso.json |
	sort -u)
eq "mallory sees the four DMB tokens" "$(echo "$tokens" | wc -w)" 4
# shellcheck disable=SC2086 # a list of tokens
ktap_relay attack $mallory ism_user_test attack ismlo0 $tokens
eq "ism_user_test attack, as mallory: exit status" $? 0
# unkeyed-writes is for devices that cannot check keys: the loopback
# checks them all the same. Only root sets it.
check "ismctl user set ismlo0 unkeyed-writes on" \
	ismctl user set ismlo0 unkeyed-writes on
eq "ismctl -j user show ismlo0" "$(ismctl -j user show ismlo0 |
	jq -c '.[0] | [.dev, .unkeyed_writes]')" '["ismlo0",1]'
# shellcheck disable=SC2086 # a list of tokens
ktap_relay unkeyed $mallory ism_user_test attack ismlo0 $tokens
eq "... the loopback still checks keys: exit status" $? 0
$mallory ismctl user set ismlo0 unkeyed-writes off 2>/tmp/iso.set
eq "mallory cannot set it: exit status" $? 1
check "... saying why" grep -q "Permission denied" /tmp/iso.set
check "ismctl user set ismlo0 unkeyed-writes off" \
	ismctl user set ismlo0 unkeyed-writes off
eq "ismctl user show ismlo0" "$(ismctl user show ismlo0 | tail -n 1 |
	tr -s ' ')" "ismlo0 off 2500 2621440000 100000"

# Each user's doorbells, held to one a second: ism_user_test rings
# prints how many events went before the first refusal, and why; then
# mallory tries every 10 ms for 4 s by the clock, each time from a new
# file, and about one a second goes. Alice, in the middle of it, rings
# her own.
check "ismctl user set ismlo0 user-rings 1" ismctl user set ismlo0 user-rings 1
$mallory ism_user_test rings ismlo0 4 >/tmp/iso.rings 2>&1 &
rings=$!
wait_for 30 grep -q "^[0-9]* [A-Z]" /tmp/iso.rings
eq "mallory held to one doorbell a second: one event, then EAGAIN" \
	"$(grep "^[0-9]* [A-Z]" /tmp/iso.rings)" "1 EAGAIN"
# shellcheck disable=SC2086 # alice, as a member of the device's group
ktap_relay "rings, alice" $alice,1500 ism_user_test rings ismlo0
eq "rings, alice: exit status" $? 0
eq "alice meanwhile: one event of her own, then EAGAIN" \
	"$(grep "^[0-9]* [A-Z]" /tmp/relay.out)" "1 EAGAIN"
wait $rings
eq "rings, mallory: exit status" $? 0
ktap_relay "rings, mallory" cat /tmp/iso.rings
held=$(sed -n 's/^held //p' /tmp/iso.rings)
check "mallory's tries over 4 s, each from a new file: 2 to 5 went ($held)" \
	test "${held:-0}" -ge 2 -a "${held:-0}" -le 5
check "ismctl user set ismlo0 user-rings 100000" \
	ismctl user set ismlo0 user-rings 100000

# Each user's share of the device: half its DMB indexes by default. With
# no limit on her pinned memory (ulimit -l), only the share stops
# mallory short of every index, which SMC-D needs for alice's next
# connection.
(ulimit -l unlimited && exec $mallory ism_user_test hog ismlo0) \
	>/tmp/iso.hog 2>&1 &
hog=$!
# Its last line: how many, and why no more.
wait_for 120 grep -q "^[0-9]* [A-Z]" /tmp/iso.hog
eq "mallory's DMBs: her share of ismlo0, then EDQUOT" \
	"$(grep "^[0-9]* [A-Z]" /tmp/iso.hog)" "2500 EDQUOT"
# A user namespace of mallory's in which root mapped her ten ids more
# (what newuidmap does from /etc/subuid): a process of hers there, as
# another of those ids, counts in her share all the same.
run_as -U 5 1002 1002,1500 ism_user_test hog ismlo0 >/tmp/iso.ns 2>&1 &
nshog=$!
wait_for 30 grep -q "^userns " /tmp/iso.ns &&
	echo "0 300000 10" >/proc/"$(sed -n 's/^userns //p' /tmp/iso.ns)"/uid_map
wait_for 60 grep -q "^[0-9]* [A-Z]" /tmp/iso.ns
eq "... none more from her user namespace, as another id" \
	"$(grep "^[0-9]* [A-Z]" /tmp/iso.ns)" "0 EDQUOT"
kill "$nshog"
held "$alice" 5303 5
wait_conns 2 5303 || bad "alice's next connection not listed"
eq "alice's next connection is SMC-D all the same" "$(modes 5303)" "SMCD "
kill "$hog"
wait
check "alice's data arrived intact both ways" intact 5301
check "... on her next connection too" intact 5303
check "no kernel report" kmsg_clean user-isolation
ktap_finish
