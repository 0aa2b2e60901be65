#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: a virtual ISM device's DMB space, filled. ism_tclient registers
# 1 MiB DMBs on every device until one is refused: the device shows its
# space in sysfs and ismctl (dmb_space, dmb_space_used), the space is as
# full as 1 MiB DMBs can make it, each refusal is counted (err_nospc)
# and logged, rate-limited, with the device's use; unloading the client
# frees the space. Needs a function of a formatted region (the virtual
# ISM KUnit VM, ism.e2e_only=ivshm-full); skipped without one.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/ivshm.sh"
. "$ISM_LIB/kmsg.sh"

TC=ism_tclient
MIB=1048576
# Refusals on each device in one load of the client: many more than the
# log's rate limit lets through (10 in 5 s), in well under its interval
# whatever the machine's load.
REFUSALS=50

grep -qx 0x1110 /sys/bus/pci/devices/*/device 2>/dev/null ||
	ktap_skip "no ivshmem function"
ism-load ism_core ism_ivshm || { bad "ism-load ism_core ism_ivshm"; exit 1; }
wait_for 30 bind_ivshm || ktap_skip "no virtual ISM device"
dev=$(ivshm_dev)
S=/sys/class/ism/$dev
[ -r $S/dmb_space ] && ok "sysfs: $dev has dmb_space" ||
	{ bad "sysfs: $dev has no dmb_space"; ktap_finish; }
total=$(cat $S/dmb_space)
eq "sysfs: $dev dmb_space_used before the client" "$(cat $S/dmb_space_used)" 0
check "sysfs: dmb_space ($total) holds a 1 MiB DMB" [ "$total" -ge $MIB ]

# dev_json FIELD: FIELD of $dev in ismctl -j -s dev
dev_json() {
	ismctl -j -s dev show "$dev" | jq -r ".[0].$1"
}

kmsg_mark ivshm-full
modprobe $TC dmbs=4096 dmb_len=$MIB moves=1 size=4096 ||
	{ bad "modprobe $TC"; ktap_finish; }
# (lib/ktap.sh counts its checks in n: the DMBs are counted in dmbs)
dmbs=$(cat $S/dmbs)
used=$(cat $S/dmb_space_used)
check "$TC registered DMBs on $dev ($dmbs)" [ "$dmbs" -ge 1 ]
eq "sysfs: dmb_space_used is the DMBs' bytes" "$used" $((dmbs * MIB))
# A DMB of 1 MiB is aligned to 1 MiB in the region: one may not fit in
# less than 2 MiB of free space, but always fits in that.
check "the space is full for 1 MiB DMBs ($((total - used)) bytes free)" \
	[ $((total - used)) -lt $((2 * MIB)) ]
eq "ismctl: dmb_space" "$(dev_json dmb_space)" "$total"
eq "ismctl: dmb_space_used" "$(dev_json dmb_space_used)" "$used"
eq "ismctl: err_nospc counts the refusal" "$(dev_json stats.err_nospc)" 1
kmsg_since ivshm-full >/tmp/full.log
line="ism $dev: no room for a DMB of $MIB bytes: $dmbs of [0-9]+ DMBs registered, $used of $total bytes in use"
if grep -qE "^$line\$" /tmp/full.log; then
	ok "the refusal is logged with the device's use"
else
	grep "no room" /tmp/full.log | sed 's/^/# /'
	bad "no log line /$line/"
fi
# Loaded unlogged (modprobe, for its parameters): ism-unload would log
# an rmmod without an insmod.
rmmod $TC || bad "rmmod $TC"
eq "sysfs: dmb_space_used after the client" "$(cat $S/dmb_space_used)" 0
eq "sysfs: dmbs after the client" "$(cat $S/dmbs)" 0

# Refused again and again at once: counted every time, logged at a
# bounded rate: at most 10 lines, or 20 if the burst straddles the
# start of an interval.
kmsg_mark ivshm-full-burst
modprobe $TC dmbs=4096 dmb_len=$MIB moves=1 size=4096 refusals=$REFUSALS &&
	rmmod $TC || bad "$TC refusals=$REFUSALS"
eq "ismctl: err_nospc counts every refusal" "$(dev_json stats.err_nospc)" \
	$((REFUSALS + 1))
logged=$(kmsg_since ivshm-full-burst | grep -c "no room for a DMB")
refused=$((REFUSALS * $(ls -d /sys/class/ism/ismiv* | wc -l)))
check "$refused refusals on the devices, $logged lines: rate-limited" \
	sh -c "[ $logged -ge 1 ] && [ $logged -le 20 ]"
check "no kernel report" kmsg_clean ivshm-full
ktap_finish
