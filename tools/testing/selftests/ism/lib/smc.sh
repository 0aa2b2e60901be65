# SPDX-License-Identifier: GPL-2.0
#
# Shared by the SMC-D e2e tests; sourced after lib/ktap.sh.

# smc_bridge: the SMC-D bridge (ism_smcd) is there to load, in our test
# VM or installed. It builds for Linux 6.1 only (README "Kernels"): on
# 6.12 the SMC-D checks skip, saying why (SMC_NO_BRIDGE).
smc_bridge() {
	[ -e /ism/modules/ism_smcd.ko ] && return 0
	# busybox's modinfo succeeds, printing nothing, for a missing module
	_sb=$(modinfo -n ism_smcd 2>/dev/null) && [ -n "$_sb" ] && [ -e "$_sb" ]
}
SMC_NO_BRIDGE="$(uname -r): no SMC-D bridge (ism_smcd, Linux 6.1 only)"

# Our modules with SMC, lo up, and the UEID both peers (one kernel) share;
# the test skips where there is no SMC-D bridge.
smc_setup() {
	smc_bridge || ktap_skip "$SMC_NO_BRIDGE"
	ism-load || { bad "ism-load"; exit 1; }
	ip link set lo up
	[ "${1:-}" = noueid ] || smc_ueid add ISM-TEST >/dev/null ||
		{ bad "smc_ueid add ISM-TEST"; exit 1; }
}

# The waits below poll for their condition: a fixed sleep would be too
# short under TCG emulation or let a KVM guest race past what it waits
# for. Their deadlines are generous for the slowest (debug kernel, TCG)
# and cost nothing when the condition comes early.

# wait_for SECONDS COMMAND...: run COMMAND every 0.1 s until it succeeds;
# fails if it has not within SECONDS
wait_for() {
	_left=$(($1 * 10))
	shift
	until "$@"; do
		[ $_left -gt 0 ] || return 1
		_left=$((_left - 1))
		sleep 0.1
	done
}

# wait_listen LOG: until the smc_xfer server writing LOG listens (30 s);
# fails, with a "not ok" line, if it does not. Remove LOG before the
# server starts: its own redirection may truncate it only after this
# has read an earlier server's "listening" there.
wait_listen() {
	wait_for 30 grep -q listening "$1" 2>/dev/null ||
		{ bad "no server listening after 30 s: $1"; return 1; }
}

# wait_port PORT: until a TCP socket listens on PORT (30 s), any program's
# (an AF_SMC listener has one too); fails if none does
wait_port() {
	wait_for 30 grep -q "^ *[0-9]*: [0-9A-F]*:$(printf '%04X' "$1") [0-9A-F]*:0000 0A " \
		/proc/net/tcp /proc/net/tcp6 2>/dev/null
}

# holding LOG COUNT: COUNT connections of the smc_xfer client or server
# writing LOG have finished their transfer and hold (--hold)
holding() {
	[ "$(grep -c ': holding$' "$1" 2>/dev/null)" -ge "$2" ]
}

# wait_holding LOG COUNT: until holding LOG COUNT (60 s), so that a
# removal ends idle connections, not ones still moving data; fails if not
wait_holding() {
	wait_for 60 holding "$1" "$2"
}

# wait_conns N PORT [NS]: until smc_ss (in network namespace NS, made
# by smc_ns, if given) lists N connection ends (not listeners) with a
# local or peer port PORT (30 s); the JSON goes to /tmp/ss.json
wait_conns() {
	i=0
	while [ $i -lt 60 ]; do
		if [ -n "${3:-}" ]; then
			smc_ns exec "$3" smc_ss -j >/tmp/ss.json 2>/dev/null
		else
			smc_ss -j >/tmp/ss.json
		fi
		[ "$(tr '{' '\n' </tmp/ss.json |
			grep -E "\"(local|peer)_port\":$2[,}]" |
			grep -vc '"mode":"-"')" -ge "$1" ] && return 0
		sleep 0.5
		i=$((i + 1))
	done
	return 1
}

# modes PORT: the modes of every connection (listeners, mode "-", left
# out) with local or peer port PORT in /tmp/ss.json, sorted and unique
modes() {
	tr '{' '\n' </tmp/ss.json | grep -E "\"(local|peer)_port\":$1[,}]" |
		sed -n 's/.*"mode":"\([^"-][^"]*\)".*/\1/p' | sort -u | tr '\n' ' '
}

# smc_dump: what a test shows of a stalled transfer before it gives up:
# every SMC socket with its cursors and flags, and where each thread of
# smc_xfer waits in the kernel
smc_dump() {
	echo "# smc_ss -a -e:"
	smc_ss -a -e 2>&1 | sed 's/^/#   /'
	for _t in /proc/[0-9]*/task/[0-9]*; do
		[ "$(cat "$_t/comm" 2>/dev/null)" = smc_xfer ] || continue
		echo "# smc_xfer ${_t#/proc/}: $(awk '{ printf "%s ", $2 }' "$_t/stack" 2>/dev/null)"
	done
}

# uptime_s: whole seconds since boot, without starting a process
uptime_s() {
	read -r _up _ </proc/uptime
	echo "${_up%.*}"
}

# deadline SECONDS COMMAND...: run COMMAND; if it has not ended within
# SECONDS, smc_dump, then kill it and its children: status 124. Timed by
# the clock, not by counting sleeps: in a starved guest a sleep and the
# process it starts take far longer than asked.
deadline() {
	_end=$(($(uptime_s) + $1))
	shift
	"$@" &
	_pid=$!
	while kill -0 $_pid 2>/dev/null; do
		if [ "$(uptime_s)" -ge $_end ]; then
			echo "# still running after its deadline: $*"
			smc_dump
			# busybox has no pgrep: the children by /proc's ppid
			# shellcheck disable=SC2046 # a list of PIDs
			kill $(awk -v p=$_pid '$4 == p { print $1 }' \
				/proc/[0-9]*/stat 2>/dev/null) $_pid 2>/dev/null
			wait $_pid
			return 124
		fi
		sleep 0.5
	done
	wait $_pid
}
