# SPDX-License-Identifier: GPL-2.0
#
# Guests on a virtual ISM region, for pair.sh and trio.sh (debug kernel,
# tests) and stock.sh demo-vms (stock kernel, sockperf), and the
# ivshmem-plain arguments for ivshm-kunit.sh; sourced after lib.sh.
# The region is 64 MiB in /dev/shm: with doorbell mode, made and shared by
# ism-ivshmem-server (ivshmem-doorbell); with plain mode, a file each
# QEMU maps (ivshmem-plain, the guests poll). A UDP virtio-net link
# between the guests carries SMC's TCP handshake: two ports on the
# loopback, one a guest, so no connection is lost when one is killed;
# or, for more guests, a multicast group on the loopback.

# region_prepare NAME: the debug kernel's guests' logs and initramfs in
# logs=$ISM_BUILD/debug/NAME (its old logs removed), the accelerator, the
# kernel tree (ISM_KTREE) and the kselftest parts (ISM_KSRC) found
region_prepare() {
	logs=$ISM_BUILD/debug/$1
	qemu_accel && ksrc && ktree || return 1
	mkdir -p "$logs"
	rm -f "$logs"/*.log
	stage_initramfs "$ISM_KTREE" "$ISM_BUILD/debug" "$logs/modroot" \
		"$logs/initramfs.cpio"
}

# region_start doorbell|plain LOGDIR [second]: make the region, start
# its server (log in LOGDIR/server.log) and set region (the backing
# file), region_args (the QEMU arguments of a guest's ivshmem device) and
# region_bells (region_attack's option that gives it the server, in
# doorbell mode). With "second", a second region of 16 MiB beside it,
# in the same mode (its server's log LOGDIR/server2.log), another trust
# domain for the guests: region2 and region2_args. The functions then
# sit at fixed PCI addresses, the first region's after the second's, so
# that a guest's driver probes the second first and SMC, which prefers
# the SMC-D device registered last, uses the first; region_pci and
# region2_pci are their addresses in the guests. Removed, and the
# guests killed, when the calling script exits.
region_start() {
	region_dir=$(mktemp -d /dev/shm/ism-region.XXXXXX)
	region_servers=''
	region_bells=''
	region2_args='' region_pci='' region2_pci=''
	trap region_stop EXIT
	region=$region_dir/region
	region_make "$1" iv "$region" 64M "$2/server.log" || return 1
	region_args=$region_made
	if [ "$1" = doorbell ]; then
		region_bells="-S $region_dir/iv.sock"
	fi
	if [ "${3:-}" = second ]; then
		region2=$region_dir/region2
		region_make "$1" iv2 "$region2" 16M "$2/server2.log" || return 1
		region2_args="$region_made,addr=0x10"
		region2_pci=0000:00:10.0
		region_args="$region_args,addr=0x11"
		region_pci=0000:00:11.0
	fi
	region_net=$((20000 + $$ % 20000 * 2))
}

# region_make doorbell|plain ID FILE SIZE LOG: a region in FILE, SIZE
# long, formatted by the host tool as an operator's would be (8 peer
# slots, 1024 DMB indexes each), with its server (socket ID.sock in
# region_dir, log LOG) in doorbell mode; region_made: the QEMU arguments
# of a guest's function on it, with QEMU ID ID
region_make() {
	if [ "$1" = doorbell ]; then
		# exec: $! is the server, which region_stop ends
		(exec_region_tool "$3" "$4" -s socket="$region_dir/$2.sock" serve) >"$5" 2>&1 &
		region_servers="$region_servers $!"
		wait_for_file 10 "$region_dir/$2.sock" || {
			log "region: no server socket after 10 s: see $5"
			return 1
		}
		region_made="-chardev socket,path=$region_dir/$2.sock,id=$2 -device ivshmem-doorbell,chardev=$2,vectors=1"
	else
		(exec_region_tool "$3" "$4" -s mode=plain format) >"$5" 2>&1 || {
			log "region: $3 not formatted: $(cat "$5")"
			return 1
		}
		region_made=$(ivshmem_plain "$2" "$3" "$4")
	fi
}

# exec_region_tool FILE SIZE ARG...: become ism-region on the region in
# FILE (in a subshell)
exec_region_tool() {
	_rt_file=$1 _rt_size=$2
	shift 2
	exec "$ISM_ROOT/tools/ivshmem/ism-region" -s memory="$_rt_file" \
		-s size="$_rt_size" -s peers=8 -s dmbs=1024 "$@"
}

# ivshmem_plain ID FILE SIZE: the QEMU arguments of an ivshmem-plain
# function mapping FILE, SIZE long (QEMU's suffixes), shared
ivshmem_plain() {
	echo "-object memory-backend-file,id=$1,mem-path=$2,size=$3,share=on -device ivshmem-plain,memdev=$1"
}

region_stop() {
	# shellcheck disable=SC2086 # a list of PIDs
	[ -z "$region_servers" ] || kill $region_servers 2>/dev/null
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

# region_guest NAME END KERNEL INITRD LOG KERNEL-ARG...: boot a guest on
# the region (run-vm.sh), in the foreground; its QEMU is named
# ism-region-PID-NAME (region_kill). END 0 or 1 is an end of a
# point-to-point link (MAC ...:0a or ...:0b; a guest restarted in the
# place of another takes its end); END hubN (N from 1 to 9) a port of a
# hub any number of guests join (a UDP multicast group on the loopback,
# MAC ...:2N).
region_guest() {
	_name=$1
	case $2 in
	hub[1-9])
		_net="-netdev socket,id=n,mcast=230.77.0.1:$region_net,localaddr=127.0.0.1"
		_mac=$((20 + ${2#hub})) ;;
	*)
		_own=$((region_net + $2))
		_peer=$((region_net + 1 - $2))
		_net="-netdev socket,id=n,udp=127.0.0.1:$_peer,localaddr=127.0.0.1:$_own"
		_mac=$((10 + $2)) ;;
	esac
	_net="$_net -device virtio-net-pci,netdev=n,mac=52:54:00:49:53:$(printf %02x $_mac)"
	shift 2
	ISM_QEMU_ARGS="-name ism-region-$$-$_name $region_args $region2_args $_net" \
		"$ISM_TESTDIR/run-vm.sh" "$@"
}

# region_kill NAME: kill the QEMU of guest NAME, as a crash would end it
region_kill() {
	pkill -9 -f "ism-region-$$-$1( |$)"
}

# region_freeze NAME, region_thaw NAME: stop the QEMU of guest NAME, as
# a host too busy to run it would, and let it run again
region_freeze() {
	pkill -STOP -f "ism-region-$$-$1( |$)"
}
region_thaw() {
	pkill -CONT -f "ism-region-$$-$1( |$)"
}

# region_pause NAME SECONDS: guest NAME frozen for SECONDS
region_pause() {
	region_freeze "$1"
	sleep "$2"
	region_thaw "$1"
}

# region_view LABEL LOGDIR N: the host's view of the first region while
# N guests hold SMC-D connections in it: ism-region show must find N
# active slots, each with DMBs published, and check must find the region
# consistent (once of two tries: a descriptor being rewritten can be
# caught half-way); show's output in LOGDIR/show.txt. A result line.
region_view() {
	_rv=$ISM_ROOT/tools/ivshmem/ism-region
	"$_rv" show "$region" >"$2/show.txt" 2>&1
	_rv_n=$("$_rv" show -j "$region" 2>>"$2/show.txt" |
		jq '[.slots[] | select(.state == "active" and .dmbs > 0)] | length')
	if [ "$_rv_n" != "$3" ]; then
		result fail "$1 host view" "ism-region show: ${_rv_n:-no} active slot(s) with DMBs, not $3: see $2/show.txt"
		return 1
	fi
	if "$_rv" check "$region" >"$2/check.log" 2>&1 ||
		"$_rv" check "$region" >"$2/check.log" 2>&1; then
		result ok "$1 host view" "ism-region: $3 active slots with DMBs; consistent"
	else
		result fail "$1 host view" "ism-region check: $(head -n 1 "$2/check.log")"
		return 1
	fi
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

# attack_region LABEL LOGDIR MIN MODE ARGS...: test/region_attack MODE
# ARGS on the region, with the guests' doorbells in doorbell mode; its
# output in LOGDIR/attack.log, its last line on stderr. A result says
# whether the attack ran: it exited 0 and the first number of its last
# line (what it did: descriptors rewritten, events posted, ...) is at
# least MIN. Fails if not.
attack_region() {
	_label=$1 _logdir=$2 _min=$3 _mode=$4
	shift 4
	# shellcheck disable=SC2086 # region_bells: an option and its value
	"$ISM_ROOT/tools/ivshmem/test/region_attack" "$_mode" $region_bells \
		"$@" "$region" >"$_logdir/attack-$_mode.out" 2>&1
	_rc=$?
	cat "$_logdir/attack-$_mode.out" >>"$_logdir/attack.log"
	_line=$(tail -n 1 "$_logdir/attack-$_mode.out")
	echo "$_line" >&2
	_n=$(echo "$_line" | sed -n 's/^[^0-9]*\([0-9][0-9]*\).*/\1/p')
	if [ $_rc -eq 0 ] && [ "${_n:-0}" -ge "$_min" ]; then
		result ok "$_label: attack $_mode ran" "$_line"
	else
		result fail "$_label: attack $_mode ran" \
			"status $_rc, at least $_min wanted: $_line"
		return 1
	fi
}

# region_judge LABEL LOGDIR ROLE RUN-VM-STATUS: judge guest ROLE's console
# log LOGDIR/ROLE.log like the debug VM's (parse-log.py) and its run;
# fails if either failed
region_judge() {
	"$ISM_TESTDIR/parse-log.py" --ksrc "$ISM_KSRC" --results "$ISM_RESULTS" \
		"$1 $3" "$2/$3.log"
	(judge_vm "$4" $? "$1 $3" "$2/$3.log")
}
