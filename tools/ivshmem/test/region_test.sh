#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
#
# region_test.sh [DIR]: ism-region (DIR/ism-region, default the directory
# above this one) against files in a scratch directory: sizing from the
# configuration, formatting (idempotent, refused over claimed slots),
# show and check (which must find each planted inconsistency), bad
# configurations, and serve's socket owner and mode. KTAP on stdout, exit
# 1 on any failure. Offsets are the layout's (include/uapi/linux/ism_ivshm.h).
dir=$(cd "${1:-$(dirname "$0")/..}" && pwd)
tool=$dir/ism-region
tmp=$(mktemp -d)
server_pid=
trap '[ -z "$server_pid" ] || kill "$server_pid" 2>/dev/null; rm -rf "$tmp"' EXIT
mkdir "$tmp/conf"

n=0
failed=0
ok() {
	n=$((n + 1))
	echo "ok $n $1"
}
bad() {
	n=$((n + 1))
	failed=$((failed + 1))
	echo "not ok $n $1"
	[ ! -s "$tmp/out" ] || sed 's/^/# /' "$tmp/out"
}
# expect RC DESCRIPTION COMMAND...: COMMAND exits RC; its output in $tmp/out
expect() {
	_rc=$1 _what=$2
	shift 2
	"$@" >"$tmp/out" 2>&1
	if [ $? -eq "$_rc" ]; then ok "$_what"; else bad "$_what (exit status)"; fi
}
# has PATTERN DESCRIPTION: $tmp/out matches PATTERN (grep -E)
has() {
	if grep -Eq -- "$1" "$tmp/out"; then ok "$2"; else bad "$2: no /$1/"; fi
}
# poke FILE OFFSET HEXBYTES: write bytes into the region file
poke() {
	printf '%b' "$(echo "$3" | sed 's/\(..\)/\\x\1/g')" |
		dd of="$1" bs=1 seek="$2" conv=notrunc status=none
}
conf() {
	printf '%s\n' "$@" >"$tmp/conf/$name.conf"
}
region() {
	"$tool" -C "$tmp/conf" "$@"
}

echo "TAP version 13"
echo "1..37"

# Sizing: 2 guests of 64 connections of 64K: the smallest power of two.
name=r1
conf "memory = $tmp/r1" "socket = $tmp/r1.sock" "guests = 2" \
	"connections = 64" "buffer = 64K"
expect 0 "config sizes a region" region config r1
has '^size = 67108864$' "64 connections of 64K for 8 slots: 64 MiB"
has '^dmbs = 128$' "DMB indexes: twice the connections"
name=big
conf "memory = $tmp/big" "guests = 12" "connections = 16" "buffer = 1M"
expect 0 "12 guests of 16 connections of 1M" region config big
has '^peers = 12$' "peers follow guests beyond 8"
has '^size = 268435456$' "... in 256 MiB"
name=small
conf "memory = $tmp/small" "size = 16M" "connections = 16" "buffer = 1M"
expect 1 "a size too small for the connections is refused" region config small
has 'holds [0-9]+ buffers of 1048576 bytes per guest; connections = 16' \
	"... saying what it holds"

# Bad configurations, each refused with its reason.
name=bad
for line in "size = 3M" "buffer = 8K" "guests = 65" "evq = 12" "perm = 0999" \
	"memory = relative" "colour = blue" "no equals sign"; do
	conf "memory = $tmp/bad" "$line"
	if "$tool" -C "$tmp/conf" config bad >"$tmp/out" 2>&1; then
		bad "'$line' refused"
		continue
	fi
	[ -s "$tmp/out" ] && ok "'$line' refused: $(head -n 1 "$tmp/out")" ||
		bad "'$line' refused without a reason"
done
expect 2 "a name with a slash is a path, not a configuration" region format ../r1
expect 1 "a missing configuration is an error" region config nosuch

# Formatting, show, and formatting again.
expect 0 "format r1" region format r1
has 'formatted: 67108864 bytes, 8 peers, 128 DMBs each' "... as configured"
region show -j r1 >"$tmp/show.json"
if [ "$(jq -r '[.size, .peers, .dmbs, .buffers_per_guest, (.slots | length),
	.slots[0].state] | @tsv' "$tmp/show.json")" = "$(printf '67108864\t8\t128\t126\t8\tfree')" ]; then
	ok "show -j: size, peers, DMBs, capacity, free slots"
else
	bad "show -j: $(cat "$tmp/show.json")"
fi
id=$(jq -r .region_id "$tmp/show.json")
expect 0 "format again" region format r1
has "formatted already \\(region $id\\)" "... leaves the region and its identity"
expect 0 "check: a fresh region is consistent" region check r1

# A guest in slot 0 (cookie, GID, active), and a DMB at index 3 of slot 0.
part=$(jq -r .part_off "$tmp/show.json")
poke "$tmp/r1" 4096 0100000000000000
poke "$tmp/r1" 4112 1122334455667788
poke "$tmp/r1" 4128 0200000000000000
poke "$tmp/r1" $((part + 3 * 40)) 0300040000000080000000000010000001
expect 0 "check: one guest with one DMB is consistent" region check r1
region show -j r1 >"$tmp/show.json"
[ "$(jq -r '.slots[0] | [.state, .gid, .dmbs, .dmb_bytes] | @tsv' "$tmp/show.json")" = \
	"$(printf 'active\t11223344-5566-7788-0000-000000000000\t1\t4096')" ] &&
	ok "show: the guest's slot, GID and DMB" || bad "show: $(jq -c '.slots[0]' "$tmp/show.json")"
name=r1
conf "memory = $tmp/r1" "size = 64M" "dmbs = 64"
expect 1 "another layout over a claimed slot is refused" region format r1
has '1 slot\(s\) claimed' "... naming the claimed slots"
expect 1 "check: the configuration and the header disagree" region check r1
conf "memory = $tmp/r1" "size = 64M" "dmbs = 128"

# Inconsistencies a broken or hostile guest could leave.
poke "$tmp/r1" $((part + 4 * 40)) 0300040000000080000000000010000001
expect 1 "check: a token naming another index" region check r1
has 'DMB index 4: token 0x8000000000040003 names another place' "... found"
poke "$tmp/r1" $((part + 4 * 40)) 0400040000000080000000000010000001
expect 1 "check: two DMBs over one place" region check r1
has 'DMB indexes 3 and 4 overlap' "... found"
poke "$tmp/r1" 4128 07
expect 1 "check: a slot in no known state" region check r1

expect 0 "format -f over claimed slots" region format -f r1
expect 0 "... leaves a consistent, empty region" region check r1

# serve: the doorbell server on the configured socket, owner and mode.
name=s1
conf "memory = $tmp/s1" "socket = $tmp/sock/deeper/s1" "size = 16M" "group = nogroup" \
	"perm = 0660"
# Not through region(): $! must be the server (ism-region execs it), not
# a subshell whose kill would leave the server running.
"$tool" -C "$tmp/conf" serve s1 >"$tmp/serve.log" 2>&1 &
server_pid=$!
for _ in $(seq 50); do [ -S "$tmp/sock/deeper/s1" ] && break; sleep 0.1; done
[ "$(stat -c '%a %G' "$tmp/sock/deeper/s1" 2>&1)" = "660 nogroup" ] &&
	[ "$(stat -c '%a %G %s' "$tmp/s1")" = "660 nogroup 16777216" ] &&
	ok "serve: socket and memory 0660, group nogroup" ||
	bad "serve: socket $(stat -c '%a %G' "$tmp/sock/deeper/s1" 2>&1), memory $(stat -c '%a %G %s' "$tmp/s1" 2>&1); $(cat "$tmp/serve.log")"
kill "$server_pid"
wait "$server_pid"
server_pid=

echo "# $((n - failed)) passed, $failed failed"
[ $failed -eq 0 ]
