#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: ism-ynl-dump (tools/net/ynl-ism), a client built from the ism
# family's YNL spec with the ynl C library of Linux 6.12 and sharing no
# code with ismctl, sees what ismctl -j shows: the devices (ism_lo's, one
# made with ismctl dev add, with ism_tclient's DMBs and counters), every
# attribute and counter value, the clients; and a do request for one
# device.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/json.sh"

TC=ism_tclient
DEV=ynl0

# ismctl_dev I: device I of ismctl -j -s dev as sorted KEY=VALUE lines in
# ism-ynl-dump's form: counters without their "stats/", the GID in plain
# hex, the going flag as going=1; clients out (a nest ism-ynl-dump cannot
# list, see the spec).
ismctl_dev() {
	sed -n "s|^$1/||p" /tmp/dev.json.flat | grep -v '^clients' |
		sed 's|^stats/||; /^gid=/s/-//g; s/^going=true$/going=1/' | sort
}

# ynl_obj TAG NAME: the TAG line of object NAME from ism-ynl-dump as
# sorted KEY=VALUE lines, going=0 (absent in ismctl's JSON) left out.
ynl_obj() {
	grep "^$1 name=$2 " /tmp/ynl.out | tr ' ' '\n' | sed 1d |
		grep -vx 'going=0' | sort
}

ism-load ism_core ism_lo || { bad "ism-load ism_core ism_lo"; exit 1; }
ism-load $TC || { bad "ism-load $TC"; exit 1; }
check "ismctl dev add loopback $DEV" ismctl dev add loopback $DEV

check "ismctl -j -s dev" sh -c 'ismctl -j -s dev >/tmp/dev.json'
check "ismctl -j client" sh -c 'ismctl -j client >/tmp/cl.json'
json_flat /tmp/dev.json || bad "ismctl -j -s dev: JSON"
json_flat /tmp/cl.json || bad "ismctl -j client: JSON"
check "ism-ynl-dump $DEV" sh -c "ism-ynl-dump $DEV >/tmp/ynl.out"
sed 's/^/# /' /tmp/ynl.out

ndev=$(jcount /tmp/dev.json.flat name)
eq "same number of devices" "$(grep -c '^dev ' /tmp/ynl.out)" "$ndev"
check "ismctl shows $ndev devices, 2 or more" [ "$ndev" -ge 2 ]
i=0
while [ "$i" -lt "$ndev" ]; do
	name=$(jget /tmp/dev.json.flat "$i/name")
	ismctl_dev "$i" >/tmp/want
	ynl_obj dev "$name" >/tmp/got
	if cmp -s /tmp/want /tmp/got; then
		ok "dev $name: $(wc -l </tmp/want) attributes and counters alike"
	else
		diff /tmp/want /tmp/got
		bad "dev $name: ism-ynl-dump differs from ismctl"
	fi
	i=$((i + 1))
done
eq "$TC's DMBs in the dump" "$(ynl_obj dev ismlo0 | grep '^dmbs=')" dmbs=4
eq "$TC's moves in the dump" "$(ynl_obj dev ismlo0 | grep '^moves=')" moves=100
ynl_obj dev $DEV >/tmp/want
ynl_obj get $DEV >/tmp/got
check "dev-get $DEV (do) replies as the dump" \
	sh -c '[ -s /tmp/got ] && cmp /tmp/want /tmp/got'

ncl=$(jcount /tmp/cl.json.flat name)
eq "same number of clients" "$(grep -c '^client ' /tmp/ynl.out)" "$ncl"
for name in $(jvalues /tmp/cl.json.flat name); do
	i=$(jidx /tmp/cl.json.flat name "$name")
	sed -n "s|^$i/||p" /tmp/cl.json.flat | sort >/tmp/want
	ynl_obj client "$name" >/tmp/got
	if cmp -s /tmp/want /tmp/got; then
		ok "client $name alike"
	else
		diff /tmp/want /tmp/got
		bad "client $name: ism-ynl-dump differs from ismctl"
	fi
done
check "client $TC in the dump" grep -q "^client name=$TC " /tmp/ynl.out

ism-ynl-dump nosuch >/dev/null 2>/tmp/err
eq "dev-get of an unknown device: status 1" $? 1
check "dev-get of an unknown device: $(cat /tmp/err)" grep -q . /tmp/err

check "ismctl dev del $DEV" ismctl dev del $DEV
ktap_finish
