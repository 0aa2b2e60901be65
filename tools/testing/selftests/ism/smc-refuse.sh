#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: a client whose setup for a device fails refuses the device, and it
# shows. With the SMC-D bridge loaded, "ismctl dev add" runs under
# fail-nth (ism_fault) with its Nth fault-injectable call failing, from
# the last N down, until the call that fails is one of the bridge's: the
# device then exists, ismctl shows it refused by smc-d, SMC does not list
# it, the kernel log says why, and it deletes cleanly. Debug kernel only.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
. "$ISM_LIB/fault.sh"

NAME=rf0

if ! fault_usable; then
	ktap_skip "no /proc/self/fail-nth, failslab or fail_page_alloc"
fi
fault_setup
trap knobs_restore EXIT

ism-load ib_core smc ism_core ism_lo ism_smcd ||
	{ bad "ism-load ib_core smc ism_core ism_lo ism_smcd"; exit 1; }

# The bridge's add_dev comes late in the operation: count its calls
# (N = 0 injects nothing; -u deletes the device again), then go down.
ism_fault -w -u -n 0 dev-add loopback $NAME >/tmp/rf.out 2>&1
calls=$(sed -n 's/.* calls=\([0-9]*\).*/\1/p' /tmp/rf.out)
found=
nth=${calls:-0}
while [ "$nth" -gt 0 ]; do
	ism_fault -w -n "$nth" dev-add loopback $NAME >/tmp/rf.out 2>&1
	if ismctl dev show $NAME >/tmp/rf.dev 2>/dev/null; then
		if grep -q 'refused by smc-d' /tmp/rf.dev; then
			found=$nth
			break
		fi
		ismctl dev del $NAME || { bad "dev del $NAME (n=$nth)"; break; }
	fi
	nth=$((nth - 1))
done
knobs_restore

if [ -z "$found" ]; then
	cat /tmp/rf.out
	bad "no N of ${calls:-?} calls made the bridge refuse $NAME"
else
	ok "n=$found: $NAME created, refused by smc-d # $(tr '\n' ' ' </tmp/rf.dev)"
	if smc_info dev 2>/dev/null | grep -qw $NAME; then
		bad "SMC lists $NAME, which the bridge refused"
	else
		ok "SMC does not list $NAME"
	fi
	why=$(dmesg | grep "$NAME: ism_smcd: cannot register with SMC: -" | tail -n 1)
	if [ -n "$why" ]; then
		ok "the kernel log says why # ${why#*] }"
	else
		dmesg | grep "$NAME" | tail -n 5
		bad "no 'cannot register with SMC' for $NAME in the kernel log"
	fi
	check "ismctl -j dev lists smc-d under refused" sh -c \
		"ismctl -j dev show $NAME | grep -q '\"refused\": *\[\"smc-d\"\]'"
	check "dev del $NAME" ismctl dev del $NAME
	if ismctl dev show $NAME >/dev/null 2>&1; then
		bad "$NAME still there after dev del"
	else
		ok "$NAME gone"
	fi
fi
ism-unload || bad "ism-unload"
ktap_finish
