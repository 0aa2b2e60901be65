# SPDX-License-Identifier: GPL-2.0
#
# Two guests on a virtual ISM region, for pair.sh (debug kernel, tests)
# and stock.sh demo-vms (stock kernel, sockperf), and the ivshmem-plain
# arguments for ivshm-kunit.sh; sourced after lib.sh.
# The region is 64 MiB in /dev/shm: with doorbell mode, made and shared by
# ism-ivshmem-server (ivshmem-doorbell); with plain mode, a file each
# QEMU maps (ivshmem-plain, the guests poll). A UDP virtio-net link
# between the guests carries SMC's TCP handshake: two ports on the
# loopback, one a guest, so no connection is lost when one is killed.

# region_start doorbell|plain LOGDIR: make the region, start its server
# (log in LOGDIR/server.log) and set region (the backing file) and
# region_args (the QEMU arguments of a guest's ivshmem device). Removed,
# and the guests killed, when the calling script exits.
region_start() {
	region_dir=$(mktemp -d /dev/shm/ism-region.XXXXXX)
	region_server=''
	trap region_stop EXIT
	region=$region_dir/region
	if [ "$1" = doorbell ]; then
		"$ISM_ROOT/tools/ivshmem/ism-ivshmem-server" -S "$region_dir/sock" \
			-m "$region" -l 64M -n 1 -p 8 2>"$2/server.log" &
		region_server=$!
		wait_for_file 10 "$region_dir/sock" || {
			log "region: no server socket after 10 s: see $2/server.log"
			return 1
		}
		region_args="-chardev socket,path=$region_dir/sock,id=iv -device ivshmem-doorbell,chardev=iv,vectors=1"
	else
		truncate -s 64M "$region"
		region_args=$(ivshmem_plain iv "$region" 64M)
	fi
	region_net=$((20000 + $$ % 20000 * 2))
}

# ivshmem_plain ID FILE SIZE: the QEMU arguments of an ivshmem-plain
# function mapping FILE, SIZE long (QEMU's suffixes), shared
ivshmem_plain() {
	echo "-object memory-backend-file,id=$1,mem-path=$2,size=$3,share=on -device ivshmem-plain,memdev=$1"
}

region_stop() {
	[ -z "$region_server" ] || kill "$region_server" 2>/dev/null
	pkill -9 -f "ism-region-$$-" 2>/dev/null
	rm -rf "$region_dir"
}

# wait_for_file SECONDS PATH: until PATH exists
wait_for_file() {
	_i=0
	until [ -e "$2" ]; do
		[ $_i -lt $(($1 * 10)) ] || return 1
		_i=$((_i + 1))
		sleep 0.1
	done
}

# region_guest NAME 0|1 KERNEL INITRD LOG KERNEL-ARG...: boot a guest on
# the region (run-vm.sh), in the foreground; its QEMU is named
# ism-region-PID-NAME (region_kill). End 0 of the link has MAC ...:0a,
# end 1 ...:0b; a guest restarted in the place of another takes its end.
region_guest() {
	_name=$1
	_own=$((region_net + $2))
	_peer=$((region_net + 1 - $2))
	_net="-netdev socket,id=n,udp=127.0.0.1:$_peer,localaddr=127.0.0.1:$_own"
	_net="$_net -device virtio-net-pci,netdev=n,mac=52:54:00:49:53:$(printf %02x $((10 + $2)))"
	shift 2
	ISM_QEMU_ARGS="-name ism-region-$$-$_name $region_args $_net" \
		"$ISM_TESTDIR/run-vm.sh" "$@"
}

# region_kill NAME: kill the QEMU of guest NAME, as a crash would end it
region_kill() {
	pkill -9 -f "ism-region-$$-$1( |$)"
}

# region_pause NAME SECONDS: stop the QEMU of guest NAME for SECONDS, as
# a host too busy to run it would
region_pause() {
	pkill -STOP -f "ism-region-$$-$1( |$)"
	sleep "$2"
	pkill -CONT -f "ism-region-$$-$1( |$)"
}

# wait_line LOG TEXT PID: until LOG has TEXT (15 min) or the VM of
# run-vm.sh PID ended
wait_line() {
	_i=0
	until grep -q "$2" "$1" 2>/dev/null; do
		if [ $_i -ge 1800 ] || ! kill -0 "$3" 2>/dev/null; then
			log "'$2' never came in $1"
			return 1
		fi
		_i=$((_i + 1))
		sleep 0.5
	done
}
