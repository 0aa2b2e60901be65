#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: ISM devices for user space (ism_user, /dev/ism/NAME) on loopback
# devices, through ism_user_test (tools/testing/ism): every ioctl and its
# bad inputs, mappings and their revocation, signals and events, tokens
# per open file, fork, two processes, RLIMIT_MEMLOCK and the per-file
# limit; libism's programs between two processes (ism_lat and ism_bw in
# both wait modes, the example ism_hello); then a device deleted while a
# file has a DMB mapped and waits for events. No kernel report along the
# way.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/kmsg.sh"

kmsg_mark user-api
ism-load ism_core ism_lo ism_user ||
	{ bad "ism-load ism_core ism_lo ism_user"; ktap_finish; }
wait_for 10 test -c /dev/ism/ismlo0 && ok "/dev/ism/ismlo0 is there" ||
	{ bad "no /dev/ism/ismlo0"; ktap_finish; }

ktap_relay api ism_user_test api ismlo0
eq "ism_user_test api: exit status" $? 0

# pair NAME SERVER_ARGS -- CLIENT_ARGS: the server in the background,
# the client against it on 127.0.0.1; their output in /tmp/NAME.srv and
# /tmp/NAME.cli; fails unless both exit 0
pair() {
	_name=$1
	shift
	_srv=
	while [ "$1" != -- ]; do _srv="$_srv $1"; shift; done
	shift
	# shellcheck disable=SC2086 # a list of arguments
	$_srv >/tmp/$_name.srv 2>&1 &
	_pid=$!
	"$@" 127.0.0.1 >/tmp/$_name.cli 2>&1
	_rc=$?
	wait $_pid && [ $_rc = 0 ] && return 0
	sed 's/^/# /' /tmp/$_name.srv /tmp/$_name.cli
	return 1
}

ip link set lo up
for wait in event busy-poll; do
	b=
	[ $wait = busy-poll ] && b=-b
	if pair lat ism_lat $b -n 2000 -- ism_lat $b -n 2000 -j; then
		j=/tmp/lat.cli
		eq "ism_lat $wait: zero-copy, 2000 round trips, p50 $(jq -r \
			.latency_us.p50 $j) us" \
			"$(jq -r '"\(.mode) \(.wait) \(.iterations)"' $j)" \
			"zero-copy $wait 2000"
	else
		bad "ism_lat $wait"
	fi
	if pair bw ism_bw $b -v -n 500 -s 64k -- ism_bw $b -n 500 -s 64k -j &&
	   grep -q "600 messages of 65536 bytes verified" /tmp/bw.srv; then
		ok "ism_bw $wait: 64 KiB messages verified, $(jq -r .MBps \
			/tmp/bw.cli) MB/s"
	else
		bad "ism_bw $wait"
	fi
done
pair hello ism_hello -- ism_hello -d ismlo0 &&
	grep -q "^received: hello over ISM$" /tmp/hello.srv &&
	ok "ism_hello: the example's line arrived" || bad "ism_hello"

check "ismctl dev add loopback usr0" ismctl dev add loopback usr0
wait_for 10 test -c /dev/ism/usr0 && ok "/dev/ism/usr0 is there" ||
	bad "no /dev/ism/usr0"
ktap_relay removal ism_user_test removal usr0
eq "ism_user_test removal: exit status" $? 0

check "no kernel report" kmsg_clean user-api
ism-unload ism_user ism_lo ism_core || bad "ism-unload"
ktap_finish
