# SPDX-License-Identifier: GPL-2.0
#
# Shared by the SMC-D e2e tests; sourced. Results are KTAP-like lines
# "ok N what" / "not ok N what"; $rc is the test's exit status.
n=0
rc=0

ok() {
	n=$((n + 1))
	echo "ok $n $*"
}

bad() {
	n=$((n + 1))
	echo "not ok $n $*"
	rc=1
}

# check WHAT COMMAND...: ok if COMMAND succeeds
check() {
	what=$1
	shift
	if "$@"; then ok "$what"; else bad "$what (status $?)"; fi
}

# Our modules with SMC, lo up, and the UEID both peers (one kernel) share.
smc_setup() {
	ism-load || { bad "ism-load"; exit 1; }
	ip link set lo up
	[ "${1:-}" = noueid ] || smc_ueid add ISM-TEST >/dev/null ||
		{ bad "smc_ueid add ISM-TEST"; exit 1; }
}

# wait_listen LOG: until the smc_xfer server writing LOG listens (10 s)
wait_listen() {
	i=0
	while ! grep -q listening "$1" 2>/dev/null && [ $i -lt 100 ]; do
		sleep 0.1
		i=$((i + 1))
	done
}

# wait_conns N PORT: until smc_ss lists N connection ends (not listeners)
# with a local or peer port PORT (30 s); the JSON goes to /tmp/ss.json
wait_conns() {
	i=0
	while [ $i -lt 60 ]; do
		smc_ss -j >/tmp/ss.json
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
