#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vms-test.sh [doorbell|plain...]: make check-vms (.ci/run runs it after
# make check-deb): the virtual ISM device between guests. First the
# debug test kernel's guests on regions of the harness's own, with their
# attacks and lost guests (vms-debug.sh: pair.sh, trio.sh); then SMC-D
# between two libvirt guests over a virtual ISM region, as an operator
# deploys it:
#  - the packages of make deb: the guests' Debian 12 image is an overlay
#    of make check-deb's cached root with ism-dkms (DKMS builds the
#    modules as apt installs it, in the image's chroot on the host's
#    CPU: under TCG a guest would take many minutes), ism-tools,
#    libism0, Debian's redis-server and qemu-guest-agent; ism.service
#    enabled with /etc/default/ism naming ism_ivshm and the UEID both
#    guests share; systemd-networkd gives each guest its address by its
#    MAC;
#  - the host's side from ism-tools too: the region configured from the
#    package's example (regions/r1.conf doorbell, r2.conf plain) and
#    served by what ism-ivshmem-server@NAME.service runs (ism-region
#    serve NAME; this host has no systemd to run the unit itself); the
#    regions are renamed check-vms-r1 and check-vms-r2, in the device
#    XML too, so that an operator's r1 and r2 are left alone;
#  - Debian's libvirt (qemu:///system, started here where systemd does
#    not run the host): two domains, type kvm where it probes, else
#    qemu (TCG), each given the region by virsh attach-device of the
#    package's example device XML (libvirt/r1-doorbell.xml,
#    r2-plain.xml), booting the image through a qcow2 overlay each;
#    the host drives them through qemu-guest-agent (vms-guest.sh).
# In each mode, a and b (in doorbell mode under TCG, b first boots as a
# guest of one possible CPU, which ism_ivshm must refuse):
#  1. ism.service active in both, the virtual ISM device an SMC-D device;
#  2. sockperf (latency, bandwidth) and redis-benchmark (64 connections,
#     every one SMC-D while it runs) from b to a, TCP over virtio-net
#     then SMC-D through smc_run: the figures, in one table at the end;
#  3. virsh destroy b during a transfer from a: a's connections end with
#     an error; virsh start b: new SMC-D connections, the region not
#     formatted again (its ID unchanged);
#  4. virsh suspend b during a transfer: a's connections end while b is
#     suspended; virsh resume: b ends its side (the fence), new SMC-D
#     connections;
#  5. the host unit restarted during a transfer: the transfer still
#     runs when the unit is back and completes, the region keeps its ID,
#     new connections are SMC-D; in doorbell mode b then restarted:
#     SMC-D with a works without doorbells between them (the new server
#     knows none of the older guests), at the pace of the peer scan, and
#     the guest prints that pace;
#  6. no kernel report in either guest (kernel log, journal, console)
#     and ism-region check finds the region consistent.
set -u
. "$(dirname "$0")/lib.sh"
. "$ISM_TESTDIR/debroot.sh"
. "$ISM_TESTDIR/vms-lib.sh"
ISM_RESULTS=${ISM_RESULTS_VMS:-$ISM_BUILD/results-vms}
export ISM_RESULTS
# shellcheck disable=SC2034 # read by step and summary (lib.sh)
start=$(date +%s)
modes=${*:-doorbell plain}
out=$ISM_BUILD/vms
# libvirt's QEMU (user libvirt-qemu) must reach the disks and kernels.
dir=/var/lib/libvirt/images/ism-check-vms
UEID=ISM-VMS
A=ism-vms-a B=ism-vms-b
ADDR_A=10.9.0.1 ADDR_B=10.9.0.2
MAC_A=52:54:00:49:53:01 MAC_B=52:54:00:49:53:02
mkdir -p "$ISM_BUILD"
: >"$ISM_RESULTS"
debroot_cleanup "$out/root" || exit 1
rm -rf --one-file-system "$out"
mkdir -p "$out"
# Every program this run executes: deps.sh must install them all.
programs_begin "$out/programs"
figs=$out/figures
# What the kernel says when it finds itself wrong, one pattern a line
reports=$ISM_ROOT/tools/testing/selftests/ism/lib/kernel-reports
: >"$figs"

# Each check shows the last lines of what it printed (check, lib.sh).
# shellcheck disable=SC2034 # read by check (lib.sh)
ISM_CHECK_TAIL=2

# mode_down: what a mode leaves, gone however it ended: the domains
# (their consoles kept in $out), the region's server, file and socket
# directory
region=
mode_down() {
	for _d in $A $B; do
		$VIRSH destroy "$_d" >/dev/null 2>&1
		$VIRSH undefine "$_d" >/dev/null 2>&1
		[ -n "$region" ] && cp "$dir/$_d.console" "$out/$region-$_d.console" 2>/dev/null
		rm -f "$dir/$_d.console"
	done
	region_stop
	[ -n "$region" ] && rm -rf "/dev/shm/ism-$region" "/run/ism/$region"
	region=
}

vms_teardown() {
	mode_down
	vms_libvirt_stop
	rm -rf "$dir"
}

# region_start NAME: the region's unit, started as systemd would: its
# ExecStart (ism-region serve NAME, with the test's configuration
# directory) in the background; ready when the socket listens
# (doorbell) or the file is formatted (plain).
region_pid=
region_start() {
	mkdir -p "/run/ism/$1" && chmod 755 "/run/ism/$1" || return 1
	_log=$out/region-$1.$(date +%s).log
	(umask 077 && exec setsid "$host/usr/sbin/ism-region" -C "$out/regions" serve "$1" \
		>"$_log" 2>&1 </dev/null) &
	region_pid=$!
	_n=60
	until grep -q -E 'listening|no server to run' "$_log"; do
		# A plain region's serve ends once the file is formatted.
		if ! kill -0 $region_pid 2>/dev/null; then
			grep -q -E 'listening|no server to run' "$_log" && break
			cat "$_log"
			return 1
		fi
		_n=$((_n - 1))
		[ $_n -gt 0 ] || { cat "$_log"; return 1; }
		sleep 0.5
	done
	cat "$_log"
}

region_stop() {
	[ -n "$region_pid" ] || return 0
	kill "$region_pid" 2>/dev/null
	wait "$region_pid" 2>/dev/null
	region_pid=
}

# region_id NAME: the identity ism-region show reads in the header
region_id() {
	"$host/usr/sbin/ism-region" -C "$out/regions" show -j "$1" | jq -r .region_id
}

trap 'vms_teardown; debroot_cleanup "$out/root"' EXIT
trap 'exit 130' INT TERM HUP

step "packages"
check "vms: deps: Debian packages installed" "$ISM_TESTDIR/deps.sh" vms || summary
programs_root vms
qemu_accel || { result fail "vms: a QEMU accelerator (accel.sh)"; summary; }

# ISM_VMS_DEBUG=0: only the libvirt guests (working on this file)
if [ "${ISM_VMS_DEBUG:-1}" != 0 ]; then
	step "the debug kernel's guests: pair.sh in each mode, trio.sh (vms-debug.sh)"
	# shellcheck disable=SC2086 # the modes
	"$ISM_TESTDIR/vms-debug.sh" $modes
fi

step "libvirt"
check "vms: libvirtd answers on qemu:///system" vms_libvirt || summary

step "make deb, and the host's ism-tools"
check "vms: make deb" env ISM_DEB_LINTIAN=0 "$ISM_SRC/scripts/make-deb.sh" "$out/deb" ||
	summary
arch=$(dpkg --print-architecture)
ver=$(cd "$ISM_SRC" && dpkg-parsechangelog -SVersion)
# The host's side as ism-tools installs it, unpacked rather than
# installed on this machine.
host=$out/host
dpkg-deb -x "$out/deb/ism-tools_${ver}_$arch.deb" "$host" || summary
examples=$host/usr/share/doc/ism-tools/examples

step "the guests' image: a Debian 12 root with our packages"
base=$(debroot_base) || { result fail "debroot: a Debian 12 root (debootstrap)"; summary; }
root=$(debroot_overlay "$base" "$out/root") ||
	{ result fail "debroot: the test's overlay on $base"; summary; }
kver=$(debroot_kver "$root") || { result fail "debroot: a kernel in $root/boot"; summary; }

# guest_root: the packages installed with apt (DKMS builds the modules
# for kver), and the configuration an operator writes.
guest_root() {
	_debs="ism-dkms_${ver}_all.deb ism-tools_${ver}_$arch.deb libism0_${ver}_$arch.deb"
	mkdir -p "$root/tmp/debs" && (cd "$out/deb" && cp $_debs "$root/tmp/debs/") ||
		return 1
	# The root's package lists may be older than the archive.
	debroot_chroot "$root" apt-get update -q >/dev/null || return 1
	# shellcheck disable=SC2046 # three paths
	debroot_chroot "$root" apt-get install -y --no-install-recommends \
		$(printf '/tmp/debs/%s ' $_debs) redis-server qemu-guest-agent || return 1
	rm -rf "$root/tmp/debs"
	debroot_chroot "$root" dkms status -m ism
	debroot_chroot "$root" modinfo -k "$kver" -n ism_ivshm || return 1
	cat >"$root/etc/default/ism" <<-EOF
	# make check-vms: SMC-D between the guests of a virtual ISM region.
	ISM_MODULES="ism_ivshm ism_smcd"
	ISM_UEID=$UEID
	EOF
	for g in "a $MAC_A $ADDR_A" "b $MAC_B $ADDR_B"; do
		# shellcheck disable=SC2086 # three words
		set -- $g
		printf '%s\n' "[Match]" "MACAddress=$2" "" "[Network]" "Address=$3/24" \
			>"$root/etc/systemd/network/50-ism-vms-$1.network" || return 1
	done
	install -m 755 "$ISM_TESTDIR/vms-guest.sh" "$root/usr/local/sbin/ism-vms" &&
		install -D -m 644 "$reports" "$root/usr/local/share/ism-vms/kernel-reports" &&
		debroot_chroot "$root" systemctl enable ism.service systemd-networkd.service &&
		debroot_chroot "$root" systemctl disable redis-server.service
}
check "vms: apt install ism-dkms ism-tools libism0 redis-server qemu-guest-agent; DKMS built for $kver; ism.service for ism_ivshm" \
	guest_root || summary

# image: the root as a disk image, the kernel and initrd beside it,
# all where libvirt's QEMU reaches them.
image() {
	rm -rf "$dir" && mkdir -p "$dir" && chmod 755 "$dir" || return 1
	cp "$root/boot/vmlinuz-$kver" "$dir/vmlinuz" &&
		cp "$root/boot/initrd.img-$kver" "$dir/initrd.img" || return 1
	debroot_image "$root" "$dir/base.img"
}
check "vms: the guests' disk image" image || summary

# in_guest DOMAIN SECS NAME ARG...: record ism-vms ARG... in DOMAIN as NAME
in_guest() {
	_d=$1 _s=$2 _n=$3
	shift 3
	check "$_n" vms_exec "$_d" "$_s" "$@"
}

# boot DOMAIN...: start the domains, wait for their agents and ism.service
boot() {
	for _d; do
		$VIRSH start "$_d" || return 1
	done
	for _d; do
		vms_wait_agent "$_d" "${ISM_VMS_BOOT_SECS:-600}" ||
			{ echo "$_d: no guest agent"; return 1; }
	done
}

# figures MODE: the guest's "figure" lines of the last check, kept
figures() {
	sed -n "s/^ *figure /$1 /p" "$out/check.log" >>"$figs"
}

# define_guest NAME MAC LOCAL-PORT PEER-PORT [MAXCPUS]: domain NAME on a
# new overlay of the image, given the region by the package's device
# XML (renamed for the test's region)
define_guest() {
	qemu-img create -q -f qcow2 -F raw -b "$dir/base.img" "$dir/$1.qcow2" &&
		vms_domain "$1" "$2" "$3" "$4" "$dir" "$args" ${5:-} &&
		$VIRSH attach-device "$1" "$out/$xml" --config >/dev/null
}

# one_cpu: b, before its real start, booted as a TCG guest of one
# possible CPU: ism_ivshm must refuse the region, saying why. Then b's
# domain and disk as they were.
one_cpu() {
	$VIRSH undefine $B >/dev/null && define_guest $B $MAC_B 47002 47001 1 ||
		return 1
	check "vms $mode: a TCG guest of one possible CPU starts" boot $B &&
		in_guest $B 300 "vms $mode: ism_ivshm refuses a TCG guest of one possible CPU, saying why" \
			refused
	$VIRSH destroy $B >/dev/null
	$VIRSH undefine $B >/dev/null && define_guest $B $MAC_B 47002 47001
}

# test_region EXAMPLE XML: the package's example configuration EXAMPLE
# and device XML, renamed to the test's region ($region); fails unless
# the XML named the example's region where the test expects it
test_region() {
	_ex=$1
	mkdir -p "$out/regions" &&
		cp "$examples/regions/$_ex.conf" "$out/regions/$region.conf" || return 1
	sed "s|'ism-$_ex'|'ism-$region'|; s|/run/ism/$_ex/|/run/ism/$region/|" \
		"$examples/libvirt/$2" >"$out/$xml" || return 1
	grep -q "'ism-$region'" "$out/$xml" &&
		{ [ "$mode" = plain ] || grep -q "/run/ism/$region/" "$out/$xml"; }
}

# run_mode MODE: the whole sequence for one mode
run_mode() {
	mode=$1
	case $mode in
	# big: each way of a transfer that outlasts the unit's restart by
	# seconds (TCG: about 100 MB/s with doorbells, 10 polling)
	doorbell) region=check-vms-r1 example=r1 xml=r1-doorbell.xml big=256M ;;
	plain) region=check-vms-r2 example=r2 xml=r2-plain.xml big=64M ;;
	esac
	args=
	step "$mode mode: region $region, domains $A and $B"
	# A new region, as on a host where the unit starts for the first time.
	rm -rf "/dev/shm/ism-$region" "/run/ism/$region"
	check "vms $mode: the package's $example.conf and $xml, renamed $region" \
		test_region $example $xml || return 1
	check "vms $mode: the host unit serves region $region (ism-region serve)" \
		region_start $region || return 1
	id0=$(region_id $region)
	check "vms $mode: the unit formatted the region (ID $id0)" test -n "$id0"
	define_guest $A $MAC_A 47001 47002 && define_guest $B $MAC_B 47002 47001 ||
		{ result fail "vms $mode: define $A and $B with the region's XML"; return 1; }
	[ "$mode.$ISM_ACCEL_CHOSEN" = doorbell.tcg ] && ! one_cpu &&
		{ result fail "vms $mode: b defined again after its one-CPU boot"; return 1; }
	check "vms $mode: both domains start, their agents answer" boot $A $B || return 1
	in_guest $A 300 "vms $mode: a: ism.service active, SMC-D over the virtual ISM device" ready &&
		in_guest $B 300 "vms $mode: b: ism.service active, SMC-D over the virtual ISM device" ready ||
		return 1
	in_guest $A 120 "vms $mode: a serves sockperf, redis, smc_xfer (TCP and SMC)" serve &&
		in_guest $B 120 "vms $mode: b serves the same" serve || return 1

	in_guest $B 300 "vms $mode: sockperf b to a, TCP and SMC-D (none fell back)" \
		sockperf $ADDR_A && figures $mode
	in_guest $B 900 "vms $mode: redis-benchmark b to a, 64 connections, every SMC one SMC-D" \
		redis $ADDR_A && figures $mode

	# 3: b destroyed during a transfer
	in_guest $A 120 "vms $mode: a transfers to b over SMC-D" xfer-start $ADDR_B &&
		check "vms $mode: virsh destroy b" $VIRSH destroy $B &&
		in_guest $A 120 "vms $mode: a's transfer ends with an error, no hang" xfer-wait 60
	in_guest $A 60 "vms $mode: a logged b gone" logged 'in slot [0-9]+ is gone'
	check "vms $mode: virsh start b again" boot $B &&
		in_guest $B 300 "vms $mode: b: ism.service active again" ready &&
		in_guest $B 120 "vms $mode: b serves again" serve
	in_guest $A 300 "vms $mode: new SMC-D connections a to b after b's restart" xfer-check $ADDR_B
	check "vms $mode: the region was not formatted again (same ID)" \
		test "$(region_id $region)" = "$id0"

	# 4: b suspended during a transfer: a's side ends while b sleeps;
	# b's ends when it wakes.
	if in_guest $A 120 "vms $mode: a transfers to b again" xfer-start $ADDR_B &&
		check "vms $mode: virsh suspend b" $VIRSH suspend $B; then
		in_guest $A 120 "vms $mode: a's transfer to the suspended b ends with an error" \
			xfer-wait 60
		check "vms $mode: virsh resume b" $VIRSH resume $B
	fi
	in_guest $B 120 "vms $mode: resumed b ends its side too (the fence)" \
		logged 'took this guest for gone' &&
		in_guest $B 120 "vms $mode: ... and closes the connections of the transfer" \
			xfer-ended
	# Each takes the other back as a new peer: a third join in a's log
	# (b's boots, b's return), in b's one after the fence (a's return).
	in_guest $A 120 "vms $mode: a takes the resumed b back" joined 3 &&
		in_guest $B 120 "vms $mode: b takes a back" \
			joined 1 'took this guest for gone' &&
		in_guest $A 300 "vms $mode: new SMC-D connections a to b after the resume" \
			xfer-check $ADDR_B

	# 5: the host unit restarted while the guests run, during a transfer
	# big enough to outlast the restart
	# (Its PID not in _pid, which vms_exec uses.)
	restart() {
		_xfer=$(vms_exec_bg $A xfer-check $ADDR_B 3 $big) || return 1
		vms_exec $A 120 xfer-moving || return 1
		region_stop && region_start $region || return 1
		vms_exec $A 30 xfer-moving ||
			{ echo "the transfer was not moving when the unit was back"; return 1; }
		vms_exec_wait $A "$_xfer" 600
	}
	check "vms $mode: a transfer across a restart of the host unit completes" restart
	check "vms $mode: the restarted unit kept the region (same ID)" \
		test "$(region_id $region)" = "$id0"
	in_guest $B 300 "vms $mode: new SMC-D connections b to a after the restart" xfer-check $ADDR_A
	# A guest that starts after the restart gets its doorbells from the
	# new server, which knows none of the guests from before it. (A plain
	# region has no server: this would be step 3 again.)
	[ $mode = doorbell ] &&
		check "vms $mode: b restarted after the unit's restart" \
		sh -c "$VIRSH destroy $B && $VIRSH start $B" &&
		check "vms $mode: b's agent answers" vms_wait_agent $B 600 &&
		in_guest $B 300 "vms $mode: b: ism.service active" ready &&
		in_guest $B 120 "vms $mode: b serves" serve &&
		in_guest $A 120 "vms $mode: a takes b back" joined 4 &&
		in_guest $A 600 "vms $mode: SMC-D a to b, b started after the unit's restart" \
			xfer-check $ADDR_B

	# 6: what the guests and the region say at the end
	for d in $A $B; do
		in_guest $d 60 "vms $mode: ${d#ism-vms-}: no kernel report (kernel log, journal)" reports
		check "vms $mode: ${d#ism-vms-}: no kernel report on the console" \
			sh -c "test -s '$dir/$d.console' && ! grep -a -E -f '$reports' '$dir/$d.console'"
	done
	check "vms $mode: ism-region check: the region is consistent" \
		"$host/usr/sbin/ism-region" -C "$out/regions" check $region
}

for m in $modes; do
	case $m in
	doorbell | plain)
		run_mode "$m"
		mode_down ;;
	*) result fail "vms: unknown mode $m" ;;
	esac
done

# The table: each figure over TCP and over SMC-D, and their ratio.
table() {
	echo "check-vms, two libvirt guests (1 vCPU each, 2 possible; QEMU $ISM_ACCEL_CHOSEN), b to a:"
	printf '%-9s %-28s %12s %12s %8s\n' mode figure TCP SMC-D SMC-D/TCP
	awk '{ v[$1 " " $2] = $3; if (!seen[$1 " " $2]++) order[n++] = $1 " " $2 }
	END {
		for (i = 0; i < n; i++) {
			split(order[i], k, " ")
			if (k[2] !~ /-tcp$/)
				continue
			base = k[2]; sub(/-tcp$/, "", base)
			t = v[k[1] " " base "-tcp"]; s = v[k[1] " " base "-smc"]
			if (s == "")
				continue
			unit = base ~ /latency/ ? "sockperf latency (us)" : \
				base ~ /bandwidth/ ? "sockperf 64 KiB (MB/s)" : \
				"redis " substr(base, 7) " (requests/s)"
			printf "%-9s %-28s %12.3f %12.3f %7.2fx\n", k[1], unit, t, s, s / t
		}
	}' "$figs"
}
step "packages: every program this run executed, in a Debian 12 root with deps.sh's packages alone"
programs_check "$out/programs" \
	"vms: deps.sh installs every program make check-vms ran (a Debian 12 root with its list)"

# The verdict, then the table last: record.sh keeps the lines from its
# title on.
(summary)
rc=$?
[ -s "$figs" ] && table
exit $rc
