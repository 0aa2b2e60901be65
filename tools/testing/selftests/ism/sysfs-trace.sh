#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: the sysfs attributes of /sys/class/ism/<dev> agree with ismctl,
# and the ism tracepoints report ism_tclient's known workload event by
# event: 4 DMBs registered, 100 signalled writes of 4096 bytes, 100 irqs
# delivered, 4 DMBs unregistered. With the SMC-D bridge, SMC's device for
# ismlo0 sits below ismlo0's own device.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/json.sh"

TC=ism_tclient
SYS=/sys/class/ism/ismlo0
T=/sys/kernel/tracing

# count EVENT PATTERN: trace lines of EVENT that match PATTERN
count() {
	grep -c " $1: .*$2" /tmp/trace
}

ism-load ism_core ism_lo || { bad "ism-load ism_core ism_lo"; exit 1; }

ismctl -j dev >/tmp/dev.json && json_flat /tmp/dev.json ||
	{ bad "ismctl -j dev"; exit 1; }
eq "sysfs: gid as ismctl shows it" "$(cat $SYS/gid)" \
	"$(jget /tmp/dev.json.flat 0/gid)"
eq "sysfs: chid" "$(cat $SYS/chid)" 0xffff
eq "sysfs: type" "$(cat $SYS/type)" loopback
eq "sysfs: max_dmbs" "$(cat $SYS/max_dmbs)" 5000
eq "sysfs: max_dmb_len" "$(cat $SYS/max_dmb_len)" 1048576
eq "sysfs: dmbs before the workload" "$(cat $SYS/dmbs)" 0
[ ! -e $SYS/dmb_space ] && [ ! -e $SYS/dmb_space_used ] &&
	ok "sysfs: a loopback device has no fixed DMB space" ||
	bad "sysfs: dmb_space on a loopback device"

[ -d $T/events ] || mount -t tracefs tracefs $T ||
	{ bad "mount tracefs"; exit 1; }
[ -d $T/events/ism ] && ok "trace: events/ism exists" ||
	{ ls $T/events | head; bad "trace: no events/ism"; exit 1; }
echo >$T/trace
echo 1 >$T/events/ism/enable

ism-load $TC || { bad "ism-load $TC"; exit 1; }
eq "sysfs: dmbs with $TC" "$(cat $SYS/dmbs)" 4
ism-unload $TC || bad "ism-unload $TC"
eq "sysfs: dmbs after $TC" "$(cat $SYS/dmbs)" 0

echo 0 >$T/events/ism/enable
cat $T/trace >/tmp/trace
eq "trace: ism_dmb_register, 4 of $TC" \
	"$(count ism_dmb_register "client=$TC .*len=65536 ret=0")" 4
eq "trace: ism_move_data, 100 signalled writes of 4096 bytes" \
	"$(count ism_move_data "offset=0 size=4096 sf=1 ret=0")" 100
eq "trace: ism_irq, 100 delivered" "$(count ism_irq "delivered=1")" 100
eq "trace: ism_dmb_unregister, 4" \
	"$(count ism_dmb_unregister "ret=0")" 4
eq "trace: nothing failed" "$(grep -c 'ret=-' /tmp/trace)" 0
[ $rc -eq 0 ] || head -n 20 /tmp/trace
echo >$T/trace

# SMC's device for an ISM device sits below the ISM device: with the
# SMC-D bridge, <ismlo0>/ism-ismlo0/ismlo0, not /sys/devices/ism-ismlo0.
if ! smc_bridge; then
	skip "sysfs: the bridge's ism-ismlo0 below the device" "$SMC_NO_BRIDGE"
	ktap_finish
fi
ism-load ib_core smc ism_smcd || bad "ism-load ib_core smc ism_smcd"
real=$(readlink -f $SYS)
echo "# $SYS is $real"
wait_for 30 test -d "$real/ism-ismlo0" &&
	ok "sysfs: the bridge's ism-ismlo0 below $real" ||
	{ ls "$real"; bad "sysfs: no ism-ismlo0 below $real"; }
[ -d "$real/ism-ismlo0/ismlo0" ] &&
	ok "sysfs: SMC's device ismlo0 below ism-ismlo0" ||
	{ ls "$real/ism-ismlo0" 2>&1; bad "sysfs: no ismlo0 below $real/ism-ismlo0"; }
[ ! -e /sys/devices/ism-ismlo0 ] &&
	ok "sysfs: nothing left at /sys/devices/ism-ismlo0" ||
	bad "sysfs: /sys/devices/ism-ismlo0 exists"
ktap_finish
