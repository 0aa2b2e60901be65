#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# pair.sh [doorbell|plain]: the two-guest test of the virtual ISM device
# (ism_ivshm). Two debug VMs share a 64 MiB region: through
# ism-ivshmem-server and ivshmem-doorbell (doorbell mode, the default),
# or as a file mapped by ivshmem-plain (plain mode, polling). A UDP
# virtio-net link between them carries SMC's TCP handshake. Each runs the
# selftest pair/ivshm-pair.sh in its role (a, b); once b has begun its
# endless transfer its QEMU is killed, and a restarted b (role b2) must
# rejoin the region and talk to a. Then, while a and b2 run traffic,
# test/region_scribble overwrites the region's metadata for 15 s. The
# console logs of a and b2 are
# judged like the debug VM's (parse-log.py), b's only for kernel reports.
set -u
. "$(dirname "$0")/lib.sh"

mode=${1:-doorbell}
case $mode in
doorbell | plain) ;;
*) log "pair: the mode is doorbell or plain, not '$mode'"; exit 1 ;;
esac
label="virtual ISM pair ($mode)"
out=$ISM_BUILD/debug
logs=$out/pair-$mode
qemu_accel || exit 1
ksrc || exit 1
mkdir -p "$logs"
rm -f "$logs"/*.log
stage_initramfs "$ISM_KSRC" "$out" "$logs/modroot" "$logs/initramfs.cpio.gz" ||
	exit 1

dir=$(mktemp -d /dev/shm/ism-pair.XXXXXX)
server_pid=''
cleanup() {
	[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null
	pkill -9 -f "ism-pair-$$-" 2>/dev/null
	rm -rf "$dir"
}
trap cleanup EXIT

region=$dir/region
if [ "$mode" = doorbell ]; then
	"$ISM_ROOT/tools/ivshmem/ism-ivshmem-server" -S "$dir/sock" -m "$region" \
		-l 64M -n 1 -p 8 2>"$logs/server.log" &
	server_pid=$!
	i=0
	until [ -S "$dir/sock" ]; do
		[ $i -lt 100 ] || { result fail "$label" "no server socket"; exit 1; }
		i=$((i + 1))
		sleep 0.1
	done
	iv="-chardev socket,path=$dir/sock,id=iv -device ivshmem-doorbell,chardev=iv,vectors=1"
else
	truncate -s 64M "$region"
	iv="-object memory-backend-file,id=iv,mem-path=$region,size=64M,share=on -device ivshmem-plain,memdev=iv"
fi

# Two UDP ports on the loopback, one a guest: no connection to lose when
# b is killed.
base=$((20000 + $$ % 20000 * 2))
# guest ROLE OWN-PORT PEER-PORT MAC KERNEL-ARGS...: boot one guest in the
# background; its QEMU is named ism-pair-PID-ROLE
guest() {
	_role=$1
	_net="-netdev socket,id=n,udp=127.0.0.1:$3,localaddr=127.0.0.1:$2"
	_net="$_net -device virtio-net-pci,netdev=n,mac=$4"
	shift 4
	ISM_QEMU_ARGS="-name ism-pair-$$-$_role $iv $_net" \
		"$ISM_TESTDIR/run-vm.sh" "$ISM_KSRC/arch/x86/boot/bzImage" \
		"$logs/initramfs.cpio.gz" "$logs/$_role.log" ism.mode=pair \
		"ism.env=ISM_PAIR_ROLE=$_role" "$@"
}
guest a $base $((base + 1)) 52:54:00:49:53:0a \
	ism_ivshm.format=1 ism_ivshm.format_peers=8 &
a_pid=$!
guest b $((base + 1)) $base 52:54:00:49:53:0b &
b_pid=$!

# wait_line LOG TEXT PID: until LOG has TEXT (15 min) or the VM of
# run-vm.sh PID ended
wait_line() {
	_i=0
	until grep -q "$2" "$1" 2>/dev/null; do
		if [ $_i -ge 1800 ] || ! kill -0 "$3" 2>/dev/null; then
			log "pair: '$2' never came in $1"
			return 1
		fi
		_i=$((_i + 1))
		sleep 0.5
	done
}
# b announces its endless transfer; a few seconds in, it dies.
wait_line "$logs/b.log" 'pair: the endless transfer begins' $b_pid && sleep 5
pkill -9 -f "ism-pair-$$-b( |$)"
wait $b_pid
log "pair: b's QEMU killed on purpose: its run-vm lines above say so"
guest b2 $((base + 1)) $base 52:54:00:49:53:0b &
b2_pid=$!
if wait_line "$logs/b2.log" 'pair: the hostile phase begins' $b2_pid; then
	"$ISM_ROOT/tools/ivshmem/test/region_scribble" -s 15 "$region" \
		>"$logs/scribble.log" 2>&1
	tail -n 1 "$logs/scribble.log" >&2
fi
wait $a_pid
a_rc=$?
wait $b2_pid
b2_rc=$?

rc=0
# judge ROLE RUN-VM-STATUS
judge() {
	"$ISM_TESTDIR/parse-log.py" --ksrc "$ISM_KSRC" --results "$ISM_RESULTS" \
		"$label $1" "$logs/$1.log"
	(judge_vm "$2" $? "$label $1" "$logs/$1.log") || rc=1
}
judge a $a_rc
judge b2 $b2_rc
if ! grep -q 'ism-test: begin' "$logs/b.log" 2>/dev/null; then
	result fail "$label b (killed)" "it never ran: see $logs/b.log"
	rc=1
elif grep -E -f "$ISM_ROOT/tools/testing/selftests/ism/lib/kernel-reports" \
	"$logs/b.log" >&2; then
	result fail "$label b (killed)" "kernel reports in $logs/b.log"
	rc=1
else
	result ok "$label b (killed)" "no kernel report before the kill"
fi
exit $rc
