#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: samples/ism/ism_sample.ko, the client Documentation/networking/ism.rst
# tells readers to copy, built out of tree as a user builds it, works: with
# two loopback devices at load and a third added at run time (ismctl dev
# add), it logs its line for each, holds one DMB on each and is listed as
# a client of each; deleting the third and unloading it leave no DMB behind,
# and the kernel log of the test holds no report and no warning of the core
# about the sample.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"
. "$ISM_LIB/json.sh"
. "$ISM_LIB/kmsg.sh"

S=ism_sample
NEW=smp2
LINE="dmb 4096 bytes, moved 13 bytes, 1 signal"
# since: the kernel log from this test's mark on
since() {
	dmesg | sed -n "/$MARK/,\$p"
}

# has_line DEV: the sample logged its line for DEV
has_line() {
	since | grep -qF "$S: $1: $LINE"
}

# client_field KEY: KEY of the sample in ismctl -j client
client_field() {
	ismctl -j client >/tmp/cl.json && json_flat /tmp/cl.json || return 1
	i=$(jidx /tmp/cl.json.flat name $S)
	[ -n "$i" ] && jget /tmp/cl.json.flat "$i/$1"
}

# is_client DEV: the sample is among DEV's clients (ismctl -j dev)
is_client() {
	ismctl -j dev >/tmp/dev.json && json_flat /tmp/dev.json || return 1
	i=$(jidx /tmp/dev.json.flat name "$1")
	[ -n "$i" ] && grep -qx "$i/clients/[0-9]*=$S" /tmp/dev.json.flat
}

# dmbs DEV: the DMBs registered on DEV now (sysfs)
dmbs() {
	cat "/sys/class/ism/$1/dmbs" 2>/dev/null
}

# finish: unload what is still loaded, as it was loaded (ism-load and
# ism-unload log their steps for parse-log.py; mod_load and mod_unload do
# not), check the kernel log, exit
finish() {
	if mod_loaded $S; then
		ism-unload $S || bad "ism-unload $S"
	fi
	mod_unload ism_lo 20 || { cat /tmp/mod.err; bad "rmmod ism_lo"; }
	ism-unload ism_core || bad "ism-unload ism_core"
	since >/tmp/sample.log
	if grep -Ef "$ISM_KERNEL_REPORTS" /tmp/sample.log; then
		bad "kernel log: reports (above)"
	else
		ok "kernel log: no report"
	fi
	if grep -E "client $S (left|refused)" /tmp/sample.log; then
		bad "kernel log: the core released or refused for $S (above)"
	else
		ok "kernel log: nothing left behind by $S, no device refused"
	fi
	[ $rc -eq 0 ] || grep -E "$S|ism" /tmp/sample.log | tail -n 30
	ktap_finish
}

mod_path $S || { bad "no $S.ko: samples/ism not built or not installed"; exit 1; }
MARK="ism-sample-test-$$"
echo "$MARK" >/dev/kmsg

ism-load ism_core || { bad "ism-load ism_core"; exit 1; }
if ! mod_load ism_lo num_devs=2; then
	cat /tmp/mod.err
	bad "insmod ism_lo num_devs=2"
	finish
fi
eq "ism_lo num_devs=2: two devices" "$(cd /sys/class/ism && echo *)" \
	"ismlo0 ismlo1"

# ---- the devices there at load ----
ism-load $S || { bad "ism-load $S"; finish; }
for d in ismlo0 ismlo1; do
	if wait_for 30 has_line $d; then
		ok "$d: '$S: $d: $LINE'"
	else
		since | grep "$S"
		bad "$d: no line '$LINE'"
	fi
	is_client $d && ok "$d: $S among its clients" || bad "$d: $S not a client"
	eq "$d: one DMB" "$(dmbs $d)" 1
done
eq "ismctl client: $S devs" "$(client_field devs)" 2
eq "ismctl client: $S dmbs" "$(client_field dmbs)" 2

# ---- a device added at run time ----
check "ismctl dev add loopback $NEW" ismctl dev add loopback $NEW
if wait_for 30 has_line $NEW; then
	ok "$NEW: '$S: $NEW: $LINE'"
else
	since | grep "$S"
	bad "$NEW: no line '$LINE'"
fi
is_client $NEW && ok "$NEW: $S among its clients" || bad "$NEW: $S not a client"
eq "$NEW: one DMB" "$(dmbs $NEW)" 1
eq "ismctl client: $S devs with $NEW" "$(client_field devs)" 3
eq "ismctl client: $S dmbs with $NEW" "$(client_field dmbs)" 3

# remove_dev: the sample lets the device go and unregisters its DMB.
check "ismctl dev del $NEW" ismctl dev del $NEW
if wait_for 60 sh -c "! [ -e /sys/class/ism/$NEW ]"; then
	ok "$NEW: gone"
else
	bad "$NEW: still there 60 s after ismctl dev del"
fi
eq "ismctl client: $S devs after del" "$(client_field devs)" 2
eq "ismctl client: $S dmbs after del" "$(client_field dmbs)" 2

# ---- unloading the sample ----
ism-unload $S || bad "ism-unload $S"
for d in ismlo0 ismlo1; do
	eq "$d: no DMB after rmmod $S" "$(dmbs $d)" 0
done
ismctl -j client >/tmp/cl.json && json_flat /tmp/cl.json &&
	[ -z "$(jidx /tmp/cl.json.flat name $S)" ] &&
	ok "ismctl client: $S gone" || bad "ismctl client: $S still listed"
finish
