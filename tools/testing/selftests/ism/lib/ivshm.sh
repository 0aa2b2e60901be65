# SPDX-License-Identifier: GPL-2.0
#
# The virtual ISM device (ism_ivshm) in a guest of a region shared with
# others; sourced after lib/smc.sh (wait_for).

# ivshm_dev: the name of the virtual ISM device, if there is one
ivshm_dev() {
	for _d in /sys/class/ism/ismiv*; do
		[ -e "$_d" ] && echo "${_d##*/}" && return 0
	done
	return 1
}

# bind_ivshm: there is a virtual ISM device. The devices appear only
# once the first guest formatted the region: the others ask the driver
# to probe again (wait_for 120 bind_ivshm) until they have one.
bind_ivshm() {
	[ -n "$(ivshm_dev)" ] && return 0
	for _d in /sys/bus/pci/devices/*; do
		[ "$(cat "$_d/vendor"):$(cat "$_d/device")" = 0x1af4:0x1110 ] &&
			echo "${_d##*/}" >/sys/bus/pci/drivers/ism_ivshm/bind 2>/dev/null
	done
	[ -n "$(ivshm_dev)" ]
}

# drvlog: the driver's own kernel log lines (not the copies of them a
# test prints, which reach the log too)
drvlog() {
	dmesg | grep -E '^\[ *[0-9.]+\] ism_ivshm '
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
