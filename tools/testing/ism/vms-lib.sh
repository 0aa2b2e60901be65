#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# vms-lib.sh: libvirt for make check-vms (vms-test.sh), sourced after
# lib.sh. Needs root and Debian's libvirt-daemon-system.
#
# vms_libvirt
#	Make qemu:///system answer: where systemd runs the host, start
#	libvirtd through it; elsewhere (these machines' containers) start
#	virtlogd (unless it runs) and libvirtd as daemons, and
#	vms_libvirt_stop stops those it started, by their PID files.
#	Fails, with libvirtd's own words, if it cannot.
# vms_domain NAME MAC LOCAL-PORT PEER-PORT DIR KERNEL-ARGS [MAXCPUS]
#	Define domain NAME (type kvm or qemu, as qemu_accel decided): 1
#	vCPU of MAXCPUS (default 2: TCG's atomics are atomic between
#	guests only then, ism-ivshm.rst), 1 GiB, the kernel and initrd DIR/vmlinuz and DIR/initrd.img
#	booted directly, DIR/NAME.qcow2 as its disk on virtio, its serial
#	console logged to DIR/NAME.console across restarts, a virtio-net
#	link to its peer as a UDP tunnel on 127.0.0.1 (no host bridge or
#	dnsmasq), and the channel of qemu-guest-agent.
# vms_exec NAME SECS CMD [ARG...]
#	Run CMD in the guest NAME through qemu-guest-agent, print its
#	output and return its status; 124 after SECS seconds.
# vms_exec_bg NAME CMD [ARG...], vms_exec_wait NAME PID SECS
#	The same in two halves: start CMD and print its PID; wait for it.
# vms_wait_agent NAME SECS
#	The guest's agent answers within SECS seconds.

VIRSH="virsh -q -c qemu:///system"
# The PID files of the daemons vms_libvirt started, for vms_libvirt_stop
_vms_pids=

vms_libvirt() {
	$VIRSH version >/dev/null 2>&1 && return 0
	if [ -d /run/systemd/system ]; then
		systemctl start libvirtd.service virtlogd.service || return 1
	else
		# No systemd here: the daemons as their units would run them.
		# Their complaints about no system bus, no dnsmasq and no DMI
		# tables are harmless.
		if ! pgrep -x virtlogd >/dev/null; then
			virtlogd -d -p "$ISM_BUILD/virtlogd.pid" || return 1
			_vms_pids="$ISM_BUILD/virtlogd.pid"
		fi
		libvirtd -d -p "$ISM_BUILD/libvirtd.pid" >"$ISM_BUILD/libvirtd.log" 2>&1 ||
			{ cat "$ISM_BUILD/libvirtd.log" >&2; return 1; }
		_vms_pids="$ISM_BUILD/libvirtd.pid $_vms_pids"
	fi
	_n=60
	until $VIRSH version >/dev/null 2>&1; do
		_n=$((_n - 1))
		[ $_n -gt 0 ] || { $VIRSH version >&2; return 1; }
		sleep 0.5
	done
}

vms_libvirt_stop() {
	for _p in $_vms_pids; do
		[ -s "$_p" ] && kill "$(cat "$_p")" 2>/dev/null
	done
	_vms_pids=
}

vms_domain() {
	_type=qemu
	[ "$ISM_ACCEL_CHOSEN" = kvm ] && _type=kvm
	cat >"$5/$1.xml" <<EOF
<domain type='$_type'>
  <name>$1</name>
  <memory unit='MiB'>1024</memory>
  <vcpu current='1'>${7:-2}</vcpu>
  <os>
    <type arch='x86_64' machine='pc'>hvm</type>
    <kernel>$5/vmlinuz</kernel>
    <initrd>$5/initrd.img</initrd>
    <cmdline>root=/dev/vda rw console=ttyS0 net.ifnames=0 fsck.mode=skip mitigations=off systemd.hostname=$1 systemd.show_status=1 systemd.log_color=0 $6</cmdline>
  </os>
  <on_poweroff>destroy</on_poweroff>
  <on_reboot>restart</on_reboot>
  <on_crash>destroy</on_crash>
  <devices>
    <disk type='file' device='disk'>
      <driver name='qemu' type='qcow2' cache='unsafe'/>
      <source file='$5/$1.qcow2'/>
      <target dev='vda' bus='virtio'/>
    </disk>
    <interface type='udp'>
      <mac address='$2'/>
      <source address='127.0.0.1' port='$4'>
        <local address='127.0.0.1' port='$3'/>
      </source>
      <model type='virtio'/>
    </interface>
    <serial type='pty'>
      <log file='$5/$1.console' append='on'/>
    </serial>
    <console type='pty'/>
    <channel type='unix'>
      <target type='virtio' name='org.qemu.guest_agent.0'/>
    </channel>
    <memballoon model='none'/>
  </devices>
</domain>
EOF
	$VIRSH define "$5/$1.xml" >/dev/null
}

# _vms_agent NAME JSON: the agent's answer to one command
_vms_agent() {
	$VIRSH qemu-agent-command --timeout 20 "$1" "$2"
}

vms_wait_agent() {
	_end=$(($(date +%s) + $2))
	until _vms_agent "$1" '{"execute":"guest-ping"}' >/dev/null 2>&1; do
		[ "$(date +%s)" -lt $_end ] || return 1
		sleep 2
	done
}

vms_exec_bg() {
	_dom=$1
	shift
	_args=$(jq -cn '$ARGS.positional' --args -- "$@") || return 1
	_vms_agent "$_dom" "$(printf '{"execute":"guest-exec","arguments":{"path":"/usr/local/sbin/ism-vms","arg":%s,"capture-output":true}}' "$_args")" |
		jq -e '.return.pid'
}

vms_exec_wait() {
	_n=$(($3 * 2))
	while :; do
		_st=$(_vms_agent "$1" "$(printf '{"execute":"guest-exec-status","arguments":{"pid":%s}}' "$2")") ||
			return 1
		[ "$(printf '%s' "$_st" | jq -r '.return.exited')" = true ] && break
		_n=$((_n - 1))
		[ $_n -gt 0 ] || { echo "still running after $3 s"; return 124; }
		sleep 0.5
	done
	for _f in out-data err-data; do
		printf '%s' "$_st" | jq -r ".return[\"$_f\"] // empty" | base64 -d
	done
	# A command killed by a signal has no exit code, the signal instead.
	return "$(printf '%s' "$_st" | jq -r '.return.exitcode // (128 + .return.signal)')"
}

vms_exec() {
	_dom=$1 _secs=$2
	shift 2
	_pid=$(vms_exec_bg "$_dom" "$@") || { echo "guest-exec failed in $_dom"; return 1; }
	vms_exec_wait "$_dom" "$_pid" "$_secs"
}
