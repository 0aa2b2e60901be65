#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: our modules load with ism-load, show up in /proc/modules, and
# unload again with ism-unload; ism_lo's max_dmbs is capped at 65536.
# Also the example of the selftest convention (see README.md): KTAP from
# lib/ktap.sh, exit 0 on success, 4 to skip, anything else on failure.
. "$(dirname "$0")/lib/ktap.sh"

check "ism-load" ism-load
check "ism_core is loaded" grep -q '^ism_core ' /proc/modules
check "ism_lo is loaded" grep -q '^ism_lo ' /proc/modules
check "ism-unload" ism-unload
check "ism_core is gone" sh -c "! grep -q '^ism_core ' /proc/modules"

# ism_lo's max_dmbs is capped at 65536 DMB indexes per device: more is
# refused at insmod with a message naming the limit; 65536 loads, and the
# SMC-D bridge registers the device with SMC. These modules are loaded
# and unloaded here without ism-load's log lines (lib/mods.sh).
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/mods.sh"
. "$ISM_LIB/kmsg.sh"
kmsg_mark modules-max-dmbs

# refused_big: insmod ism_lo max_dmbs=1048576 fails (unloaded again if
# it loaded)
refused_big() {
	mod_load ism_lo max_dmbs=1048576 || return 0
	mod_unload ism_lo
	return 1
}

# limit_named: the kernel log since the mark has a line naming max_dmbs
# and the limit 65536
limit_named() {
	kmsg_since modules-max-dmbs >/tmp/kmsg.mod || return 1
	grep max_dmbs /tmp/kmsg.mod | grep -q 65536 && return 0
	sed 's/^/# /' /tmp/kmsg.mod
	return 1
}

# smcd_listed: smc_info dev lists ismlo0 (SMC-D device ism-ismlo0), within
# 30 s
smcd_listed() {
	_i=0
	until smc_info dev 2>/dev/null | grep -q ismlo0; do
		_i=$((_i + 1))
		[ $_i -lt 60 ] || { smc_info dev; return 1; }
		sleep 0.5
	done
}

check "insmod ism_core" mod_load ism_core
check "insmod ism_lo max_dmbs=1048576 refused" refused_big
grep . /tmp/mod.err | sed 's/^/# insmod: /'
check "the kernel log names the limit (max_dmbs, 65536)" limit_named
bridge=
smc_bridge && bridge="$MODS_SMC ism_smcd"
for m in $bridge; do
	check "insmod $m" mod_load $m
done
check "insmod ism_lo max_dmbs=65536" mod_load ism_lo max_dmbs=65536
check "ismlo0: max_dmbs 65536 (sysfs)" \
	test "$(cat /sys/class/ism/ismlo0/max_dmbs 2>/dev/null)" = 65536
if [ -n "$bridge" ]; then
	check "SMC has the device: smc_info dev lists ismlo0" smcd_listed
else
	skip "SMC has the device: smc_info dev lists ismlo0" "$SMC_NO_BRIDGE"
fi
for m in ism_lo ism_smcd smc_diag smc ib_core ism_core; do
	mod_loaded $m || continue
	check "rmmod $m" mod_unload $m 20
done
check "no kernel report (WARNING, ...)" kmsg_clean modules-max-dmbs
ktap_finish
