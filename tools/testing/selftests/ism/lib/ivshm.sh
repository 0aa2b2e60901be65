# SPDX-License-Identifier: GPL-2.0
#
# The virtual ISM device (ism_ivshm) in a guest of a region shared with
# others; sourced after lib/smc.sh (wait_for). A guest with functions
# of several regions is told which is under test: ISM_IVSHM_PCI, its
# PCI address (and ISM_IVSHM_PCI2, another region's).

# ivshm_dev_at [PCI]: the name of the virtual ISM device of the function
# at PCI, or any if PCI is empty, if there is one
ivshm_dev_at() {
	for _d in /sys/bus/pci/devices/${1:-*}/ism/ismiv*; do
		[ -e "$_d" ] && echo "${_d##*/}" && return 0
	done
	return 1
}

# ivshm_dev: the name of the virtual ISM device under test, if there is one
ivshm_dev() {
	ivshm_dev_at "${ISM_IVSHM_PCI:-}"
}

# bind_ivshm: there is a virtual ISM device. The host formats a region
# before its guests start (ism-region); where a guest formats it instead
# (bare QEMU, ism_ivshm.format=1), the devices of the others appear only
# once it has: they ask the driver to probe again (wait_for 120
# bind_ivshm) until they have one.
bind_ivshm() {
	[ -n "$(ivshm_dev)" ] && return 0
	for _d in /sys/bus/pci/devices/*; do
		[ "$(cat "$_d/vendor"):$(cat "$_d/device")" = 0x1af4:0x1110 ] &&
			echo "${_d##*/}" >/sys/bus/pci/drivers/ism_ivshm/bind 2>/dev/null
	done
	[ -n "$(ivshm_dev)" ]
}

# drvlog_at [PCI]: the driver's own kernel log lines about the function
# at PCI, or any if PCI is empty (not the copies of them a test prints,
# which reach the log too); drvlog: about the device under test
drvlog_at() {
	dmesg | grep -E "^\[ *[0-9.]+\] ism_ivshm ${1:-[0-9a-f:.]+}: "
}
drvlog() {
	drvlog_at "${ISM_IVSHM_PCI:-}"
}

# gid64 DEV: the GID of ISM device DEV as SMC-D knows it (smc_ss -j)
gid64() {
	echo "0x$(tr -d '-' <"/sys/class/ism/$1/gid" | cut -c1-16)"
}

# smcd_on PORT DEV: every connection on PORT that smc_ss -j lists is
# SMC-D on ISM device DEV
smcd_on() {
	wait_conns 1 "$1" || return 1
	_gids=$(jq -r --argjson p "$1" '.[] | select(.mode != "-") |
		select(.local_port == $p or .peer_port == $p) |
		"\(.mode) \(.dmb.my_gid)"' /tmp/ss.json | sort -u)
	echo "# port $1: $_gids"
	[ "$_gids" = "SMCD $(gid64 "$2")" ]
}

# logged_n N PATTERN: the driver logged at least N lines matching
# PATTERN (ERE)
logged_n() {
	[ "$(drvlog | grep -c -E "$2")" -ge "$1" ]
}

# joined_now N: the driver has logged N peers joining
joined_now() {
	logged_n "$1" 'joined in slot'
}

# joined N: until joined_now N (60 s)
joined() {
	wait_for 60 joined_now "$1"
}

# logged PATTERN: the driver logged a line matching PATTERN (ERE)
logged() {
	drvlog | grep -q -E "$1"
}

# ivshm_irqs: how many interrupts the driver has taken (doorbell mode)
ivshm_irqs() {
	awk '/ism_ivshm/ { for (i = 2; i <= NF && $i ~ /^[0-9]+$/; i++) n += $i }
		END { print n + 0 }' /proc/interrupts
}

# client ARGS...: an smc_xfer client to $peer (the test's other end),
# output in /tmp/c.out and on stdout; its connects wait up to 120 s for
# the peer's server
client() {
	smc_xfer client -a "$peer" -w 120 "$@" >/tmp/c.out 2>&1
	_rc=$?
	cat /tmp/c.out
	return $_rc
}

# both_smcd PORT: every connection on PORT listed on this end is SMC-D;
# if not, each one's mode and fallback reason (a CLC decline's, or a
# timeout's when a guest starved for seconds) are shown
both_smcd() {
	wait_conns 1 "$1" || { echo "# no connection on port $1 listed"; return 1; }
	[ "$(modes "$1")" = "SMCD " ] && return 0
	jq -r --argjson p "$1" '.[] | select(.mode != "-") |
		select(.local_port == $p or .peer_port == $p) |
		"# port \($p): \(.mode), fallback \(.fallback.name) (\(.fallback.text)), peer \(.fallback.peer_name)"' /tmp/ss.json
	return 1
}

# xfer_server PORT ARGS...: an smc_xfer server on PORT, output in
# /tmp/s.PORT; server PORT ARGS...: the same, within 300 s
xfer_server() {
	smc_xfer server -p "$@" >"/tmp/s.$1" 2>&1
}
server() {
	deadline 300 xfer_server "$@"
}
