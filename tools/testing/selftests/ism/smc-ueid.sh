#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: UEID handling through SMC's generic netlink family, and that AF_SMC
# without a common UEID falls back to TCP with the reason shown.
. "$(dirname "$0")/lib/ktap.sh"
. "$ISM_LIB/smc.sh"
smc_setup noueid

check "ueid: add (lowercase uppercased)" smc_ueid add ism-test
smc_ueid add ISM-TEST >/dev/null 2>&1
[ $? -eq 1 ] && ok "ueid: second add refused (EEXIST)" || bad "ueid: EEXIST"
smc_ueid add 'BAD UEID' >/dev/null 2>&1
[ $? -eq 2 ] && ok "ueid: invalid UEID refused" || bad "ueid: invalid"
mkdir -p /etc
echo 'root:x:0:0::/:/bin/sh' >/etc/passwd
echo 'nobody:x:65534:65534::/:/bin/sh' >>/etc/passwd
echo 'nogroup:x:65534:' >/etc/group
# su resets PATH: name the tool by its full path.
su -s /bin/sh nobody -c "$(command -v smc_ueid) add OTHER" 2>/tmp/eperm
r=$?
[ $r -eq 1 ] && grep -q 'not permitted' /tmp/eperm &&
	ok "ueid: unprivileged add refused (EPERM)" ||
	{ cat /tmp/eperm; bad "ueid: EPERM ($r)"; }
check "ueid: del" smc_ueid del ISM-TEST
smc_ueid del ISM-TEST >/dev/null 2>&1
[ $? -eq 1 ] && ok "ueid: second del refused (ENOENT)" || bad "ueid: ENOENT"
[ -z "$(smc_ueid show)" ] && ok "ueid: none left" || bad "ueid: show"

rm -f /tmp/s
timeout 120 smc_xfer server -n 1 -p 5001 >/tmp/s 2>&1 &
wait_listen /tmp/s
smc_xfer client -a 127.0.0.1 -p 5001 -b 1M --hold 10 >/tmp/c 2>&1 &
wait_conns 2 5001 || bad "no UEID: connection not listed"
smc_ss -a
m=$(modes 5001)
[ "$m" = "TCP " ] && ok "no UEID: falls back to TCP" || bad "no UEID: modes '$m'"
grep -q NOUEID /tmp/ss.json && ok "no UEID: reason NOUEID shown" ||
	bad "no UEID: reason"
wait
grep -q 'client conns=1 ok=1' /tmp/c && ok "no UEID: data intact over TCP" ||
	{ cat /tmp/s /tmp/c; bad "no UEID: transfer"; }
smc_ueid flush
ktap_finish
