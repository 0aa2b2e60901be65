# SPDX-License-Identifier: GPL-2.0
#
# Single modules loaded and unloaded by the tests that churn them
# (churn.sh, smc-load.sh); sourced. Unlike ism-load and ism-unload these
# log nothing to the kernel log, so parse-log.py's insmod and rmmod counts
# stay even only if what a test loads with them it also unloads with them
# (or loads once more with ism-load for the runner's ism-unload).
# Errors of the last insmod or rmmod are in /tmp/mod.err. mod_path finds
# the module file of every insmod of the tests. Also small helpers of
# those tests. Shell builtins where possible: on the emulated
# debug kernel every process costs. Sourced after lib/smc.sh (wait_for).

read -r MODS_CMDLINE </proc/cmdline

# mod_path NAME: sets MOD to the module file of NAME: in our test VM
# /ism/modules/NAME.ko (but with ISM_PORTABLE=1, see lib/ktap.sh), else
# the installed one (modinfo -n). Fails if there is none (NAME is built
# in or missing); MOD is then NAME.ko, which insmod refuses naming it.
mod_path() {
	MOD=/ism/modules/$1.ko
	[ "${ISM_PORTABLE:-0}" != 1 ] && [ -e "$MOD" ] && return 0
	MOD=$(modinfo -n "$1" 2>/dev/null) && [ -e "$MOD" ] && return 0
	MOD=$1.ko
	return 1
}

# mod_loaded NAME (or built in with parameters, like /proc/modules' view
# plus built-ins; none of ours can be built in)
mod_loaded() {
	[ -d "/sys/module/$1" ]
}

# mod_load NAME [PARAM...]: insmod NAME, unless loaded, with the kernel
# command line's NAME.PARAM=VALUE (as ism-load does) and then PARAMs
mod_load() {
	_m=$1
	shift
	mod_loaded "$_m" && return 0
	if ! mod_path "$_m"; then
		echo "no module file for $_m" >/tmp/mod.err
		return 1
	fi
	_pa=
	set -f
	for _a in $MODS_CMDLINE; do
		case $_a in "$_m".*=*) _pa="$_pa ${_a#"$_m".}" ;; esac
	done
	# shellcheck disable=SC2086
	insmod "$MOD" $_pa "$@" 2>/tmp/mod.err
	_r=$?
	set +f
	return $_r
}

# mod_unload NAME [TRIES]: rmmod NAME if loaded, trying TRIES times
# (default 1) 0.5 s apart: SMC frees closed sockets asynchronously and
# each holds a reference on smc.ko until then
mod_unload() {
	mod_loaded "$1" || return 0
	_t=${2:-1}
	while ! rmmod "$1" 2>/tmp/mod.err; do
		_t=$((_t - 1))
		[ $_t -gt 0 ] || return 1
		sleep 0.5
	done
}

# mod_refused NAME: a plain rmmod of NAME fails and NAME stays loaded
mod_refused() {
	rmmod "$1" 2>/tmp/mod.err && return 1
	mod_loaded "$1"
}

# MODS_SMC: the in-tree SMC modules that are module files, in load order
# (none if SMC is built in)
MODS_SMC=
for _k in ib_core smc smc_diag; do
	mod_path $_k && MODS_SMC="$MODS_SMC $_k"
done

# occurs STRING PART: sets OCC to the number of times PART occurs in
# STRING
occurs() {
	_s=$1
	OCC=0
	while :; do
		case $_s in *"$2"*) ;; *) return 0 ;; esac
		_s=${_s#*"$2"}
		OCC=$((OCC + 1))
	done
}

# srv_mark PID: notes the files of the smc_xfer server PID, listening:
# FD0, how many, and LFD, its listening socket's
srv_mark() {
	FD0=0
	LFD=
	for _f in /proc/"$1"/fd/*; do
		FD0=$((FD0 + 1))
		case $(readlink "$_f") in socket:*) LFD=${_f##*/} ;; esac
	done
}

# srv_accepted PID: sets N to the connections the server PID has accepted
# since srv_mark: its new files, and the listening socket that it closes
# after the last one (smc_xfer server -n), if it is gone. Counts right
# while no accepted connection has closed. No process: it is polled
# while the machine is busy.
srv_accepted() {
	_pid=$1
	set -- /proc/"$_pid"/fd/*
	N=$(($# - FD0))
	[ -e "/proc/$_pid/fd/$LFD" ] || N=$((N + 1))
}

# srv_wait_accepted PID COUNT: wait (30 s) until the server PID has
# accepted COUNT connections since srv_mark; fails if it has not. SMC
# accepts a connection once its setup is over on both ends; removing the
# device before can leak the link group SMC 6.1 is making and hang the
# removal (see smc-load.sh).
srv_wait_accepted() {
	wait_for 30 srv_has_accepted "$1" "$2"
}

# srv_has_accepted PID COUNT: srv_accepted PID, and N is at least COUNT
srv_has_accepted() {
	srv_accepted "$1"
	[ $N -ge "$2" ]
}

# debug_kernel: the debug test kernel (kmemleak; not Debian's -amd64),
# for the tests whose checks are its reports.
debug_kernel() {
	[ -e /sys/kernel/debug/kmemleak ] && return 0
	case $(uname -r) in *-amd64) return 1 ;; esac
	return 0
}
