#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deb-guest.sh UEID bridge|nobridge: the guest side of deb-test.sh, run
# by ism-debtest.service in the Debian 12 root where ism-dkms and
# ism-tools were installed, after ism.service. With "bridge" (Linux 6.1)
# checks that the service set SMC-D up from the DKMS-built modules, runs
# Debian's sockperf through smc_run over it and checks that the
# connection is SMC-D; with "nobridge" (6.12, where DKMS builds no
# bridge) that the service loaded the rest and said it left SMC-D out.
# Both: that a member of group ism uses
# /dev/ism/ismlo0 (ism_user) with the packaged ism_lat, and that a
# virtual ISM region's
# unit serves its socket as configured; the unit powers the machine off
# when it ends. Each line starts with "ism-debtest: "; the last is "PASS"
# or "FAIL: WHY".
UEID=$1
bridge=$2
port=11111

out() {
	echo "ism-debtest: $*"
}

fail() {
	out "FAIL: $*"
	dmesg | tail -n 40 | sed 's/^/ism-debtest: dmesg: /'
	exit 1
}

systemctl is-active --quiet ism.service || fail "ism.service is not active"
kver=$(uname -r)
mods="ism_core ism_lo ism_smcd"
want_ueid=$UEID
if [ "$bridge" = nobridge ]; then
	mods="ism_core ism_lo"
	want_ueid=
	modinfo -n ism_smcd >/dev/null 2>&1 && fail "ism_smcd is installed for $kver"
	journalctl -b -u ism.service -o cat --no-pager >/tmp/ism.journal
	grep -q "^ism-setup: no SMC-D bridge for Linux $kver" /tmp/ism.journal &&
		grep -qx "ism-setup: loaded ism_lo" /tmp/ism.journal ||
		fail "ism.service did not say what it loaded and left out: $(cat /tmp/ism.journal)"
	sed 's/^/ism-debtest: ism.service: /' /tmp/ism.journal
fi
for m in $mods; do
	grep -q "^$m " /proc/modules || fail "$m is not loaded"
	path=$(modinfo -n "$m")
	case $path in
	/lib/modules/"$kver"/updates/dkms/*) out "$m loaded from $path" ;;
	*) fail "$m is $path, not DKMS's" ;;
	esac
done
# smcd_check: sockperf through smc_run, the connections SMC-D
smcd_check() {
	smc_ueid show | grep -qx "$UEID" || fail "UEID $UEID not set (smc_ueid show: $(smc_ueid show))"
	out "UEID $UEID set"
	smc_info dev | sed 's/^/ism-debtest: smc_info dev: /'

	smc_run sockperf server --tcp -i 127.0.0.1 -p $port >/tmp/server.log 2>&1 &
	spid=$!
	i=0
	until ss -Hltn "sport = :$port" | grep -q .; do
		i=$((i + 1))
		[ $i -lt 60 ] || fail "sockperf server not listening after 30 s"
		sleep 0.5
	done
	smc_run sockperf ping-pong --tcp -i 127.0.0.1 -p $port -m 14 -t 3 >/tmp/pp.log 2>&1 ||
		fail "sockperf ping-pong: $(tail -n 3 /tmp/pp.log)"
	lat=$(sed -n 's/.*Latency is \([0-9.]*\) usec.*/\1/p' /tmp/pp.log)
	[ -n "$lat" ] || fail "no latency in sockperf's output: $(tail -n 3 /tmp/pp.log)"
	out "sockperf ping-pong over smc_run: $lat usec"
	smc_run sockperf throughput --tcp -i 127.0.0.1 -p $port -m 64000 -t 5 >/tmp/tp.log 2>&1 &
	cpid=$!
	# The listing while the data moves.
	i=0
	until smc_ss >/tmp/ss.log 2>&1 && grep -q ' SMCD ' /tmp/ss.log; do
		i=$((i + 1))
		[ $i -lt 20 ] && kill -0 $cpid 2>/dev/null || break
		sleep 0.25
	done
	wait $cpid || fail "sockperf throughput: $(tail -n 3 /tmp/tp.log)"
	kill $spid
	bw=$(sed -n 's/.*BandWidth is \([0-9.]*\) MBps.*/\1/p' /tmp/tp.log)
	[ -n "$bw" ] || fail "no bandwidth in sockperf's output: $(tail -n 3 /tmp/tp.log)"
	out "sockperf throughput over smc_run: $bw MBps"
	sed 's/^/ism-debtest: smc_ss: /' /tmp/ss.log
	grep -q ' SMCD ' /tmp/ss.log || fail "the connections were not SMC-D (smc_ss above)"
}
[ "$bridge" = nobridge ] || smcd_check

# Applications' access: ism_user's node, with the group and mode of the
# package's udev rule, used by a member of group ism through the
# packaged ism_lat (linked with libism0) between two of its processes.
modprobe ism_user || fail "modprobe ism_user"
i=0
until [ "$(stat -c %G /dev/ism/ismlo0 2>/dev/null)" = ism ]; do
	i=$((i + 1))
	[ $i -lt 40 ] || fail "/dev/ism/ismlo0: $(stat -c '%G %a' /dev/ism/ismlo0 2>&1)"
	sleep 0.25
done
node=$(stat -c '%U %G %a' /dev/ism/ismlo0)
[ "$node" = "root ism 660" ] || fail "/dev/ism/ismlo0 is $node"
useradd -M -G ism ismuser || fail "useradd ismuser"
runuser -u ismuser -- ism_lat -n 1000 >/tmp/lat.srv 2>&1 &
lpid=$!
runuser -u ismuser -- ism_lat -n 1000 127.0.0.1 >/tmp/lat.cli 2>&1 ||
	fail "ism_lat: $(cat /tmp/lat.srv /tmp/lat.cli)"
wait $lpid || fail "ism_lat's server: $(cat /tmp/lat.srv)"
out "/dev/ism/ismlo0: $node; as a member of group ism: $(cat /tmp/lat.cli)"
runuser -u nobody -- ism_lat -n 10 -t 1000 >/tmp/lat.no 2>&1 &&
	fail "ism_lat ran for a user outside group ism"
out "outside group ism: $(cat /tmp/lat.no)"
rmmod ism_user || fail "rmmod ism_user"

# ism-setup's failures: each a clear message and exit 1, nothing changed.
expect_fail() {
	_want=$1
	shift
	"$@" >/tmp/setup.log 2>&1
	_rc=$?
	[ $_rc -eq "$_want" ] || fail "$* exited $_rc, not $_want: $(cat /tmp/setup.log)"
	out "$* failed as it should ($_rc): $(head -n 1 /tmp/setup.log)"
}
printf 'ISM_MODULES=ism_nosuch\nISM_UEID=\n' >/tmp/bad-module
printf 'ISM_MODULES=ism_lo\nISM_UEID="NOT VALID"\n' >/tmp/bad-ueid
expect_fail 1 env ISM_DEFAULTS=/tmp/bad-module ism-setup start
expect_fail 1 env ISM_DEFAULTS=/tmp/bad-ueid ism-setup start
expect_fail 2 ism-setup restart
[ "$(smc_ueid show 2>/dev/null)" = "$want_ueid" ] ||
	fail "the failed starts changed the UEIDs: $(smc_ueid show)"

ism-setup status >/tmp/status.log 2>&1 || fail "ism-setup status: $(cat /tmp/status.log)"
grep -q 'ism_lo' /tmp/status.log && grep -q "$want_ueid" /tmp/status.log ||
	fail "ism-setup status lacks ism_lo or the UEID: $(cat /tmp/status.log)"
out "ism-setup status lists the modules${want_ueid:+ and the UEID}"

# What ism.service runs at shutdown: the UEID and the modules go.
systemctl stop ism.service || fail "systemctl stop ism: $(journalctl -u ism -n 5 --no-pager)"
smc_ueid show | grep -qx "$UEID" && fail "UEID $UEID still set after ism-setup stop"
left=$(grep -E '^ism_(core|lo|smcd) ' /proc/modules | cut -d' ' -f1)
[ -z "$left" ] || fail "still loaded after ism-setup stop: $left"
out "ism.service stopped:${want_ueid:+ UEID removed,} modules unloaded"

# The virtual ISM region deb-test.sh configured: its unit serves the
# socket and file with the configured owner and mode, and a restart
# leaves the formatted region (its identity) as it was.
region=ism-ivshmem-server@debtest
systemctl is-active --quiet $region ||
	fail "$region is not active: $(journalctl -u $region -n 10 --no-pager)"
sock=$(stat -c '%U %G %a %F' /run/ism/debtest/ivshmem.sock 2>&1)
[ "$sock" = "nobody nogroup 660 socket" ] || fail "the region's socket: $sock"
mem=$(stat -c '%U %G %a %s' /dev/shm/ism-debtest 2>&1)
[ "$mem" = "nobody nogroup 660 16777216" ] || fail "the region's file: $mem"
id=$(ism-region show debtest | sed -n '1s/.* id //p')
[ -n "$id" ] || fail "ism-region show debtest: $(ism-region show debtest 2>&1)"
systemctl restart $region || fail "systemctl restart $region"
[ "$(ism-region show debtest | sed -n '1s/.* id //p')" = "$id" ] ||
	fail "the restart formatted the region again"
out "$region: socket and file $sock; region $id kept through a restart"
out "$region: $(systemd-analyze security $region | tail -n 1)"

# The project's patterns of kernel reports, one a line
reports=/usr/local/share/ism-debtest/kernel-reports
[ -s $reports ] || fail "no $reports"
if dmesg | grep -E -f $reports >/tmp/reports; then
	sed 's/^/ism-debtest: report: /' /tmp/reports
	fail "kernel reports (above)"
fi
out PASS
