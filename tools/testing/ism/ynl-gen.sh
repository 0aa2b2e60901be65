#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ynl-gen.sh [--check | --tree | --user DIR]: generate the files that come from the
# ism family's YNL spec, Documentation/netlink/specs/ism.yaml, with the
# generator of Debian's linux-source-6.12 (tools/net/ynl):
#   include/uapi/linux/ism.h   the uapi header (--mode uapi)
#   net/ism/nl_gen.[ch]        the kernel policy and op table (--mode kernel)
#   tools/ism/attr-gen.h       ismctl's attribute table (ynl-attr-table.py)
#   Documentation/netlink/specs/ism.rst  the family's reference page
#                              (ynl-gen-rst.py), in the rendered documents
# --check generates them into a temporary directory and fails on any
# difference from the committed files (make lint runs it). --tree only
# prints the directory of the unpacked 6.12 files, and --user DIR writes
# the user-space code (--mode user: ism-user.[ch]) and a uapi header
# (linux/ism.h) into DIR: tools/net/ynl-ism builds a client from those and
# the 6.12 ynl C library, nothing of which is committed.
set -eu
. "$(dirname "$0")/lib.sh"

mode=${1:-}
case $mode in
"" | --check | --tree) ;;
--user)
	[ $# = 2 ] || { log "ynl-gen: --user DIR"; exit 2; }
	mkdir -p "$2"
	user_dir=$(cd "$2" && pwd) ;;
*) log "usage: ynl-gen.sh [--check | --tree | --user DIR]"; exit 2 ;;
esac

# The generator, its schemas and the C library of linux-source-6.12.
tree=$("$ISM_TESTDIR/ksrc.sh" 6.12) || exit 1
if [ "$mode" = --tree ]; then
	echo "$tree"
	exit 0
fi

# The generator names the spec by its path below the directory that holds
# MAINTAINERS, and finds the schema next to specs/: it runs in a copy of
# that layout. Debian's python3, whose python3-yaml and python3-jsonschema
# deps.sh installs.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
spec=Documentation/netlink/specs/ism.yaml
mkdir -p "$tmp/root/${spec%/*}"
: >"$tmp/root/MAINTAINERS"
cp "$tree/Documentation/netlink/genetlink-legacy.yaml" "$tmp/root/Documentation/netlink/"
cp "$ISM_SRC/$spec" "$tmp/root/$spec"
gen="/usr/bin/python3 $tree/tools/net/ynl/ynl-gen-c.py --spec $spec"
if [ "$mode" = --user ]; then
	mkdir -p "$user_dir/linux"
	(
		cd "$tmp/root"
		$gen --mode uapi --header -o "$user_dir/linux/ism.h"
		$gen --mode user --header -o "$user_dir/ism-user.h"
		$gen --mode user --source -o "$user_dir/ism-user.c"
	) >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; log "ynl-gen: the generator failed"; exit 1; }
	exit 0
fi
out=$tmp/out
mkdir -p "$out/include/uapi/linux" "$out/net/ism" "$out/tools/ism" \
	"$out/Documentation/netlink/specs"
(
	cd "$tmp/root"
	$gen --mode uapi --header -o "$out/include/uapi/linux/ism.h"
	$gen --mode kernel --source -o "$out/net/ism/nl_gen.c"
	$gen --mode kernel --header -o "$out/net/ism/nl_gen.h"
	/usr/bin/python3 "$ISM_TESTDIR/ynl-attr-table.py" "$tree/tools/net/ynl" \
		$spec >"$out/tools/ism/attr-gen.h"
	/usr/bin/python3 "$tree/tools/net/ynl/ynl-gen-rst.py" -i $spec \
		-o "$out/Documentation/netlink/specs/ism.rst"
) >"$tmp/log" 2>&1 || { cat "$tmp/log" >&2; log "ynl-gen: the generator failed"; exit 1; }

files="include/uapi/linux/ism.h net/ism/nl_gen.c net/ism/nl_gen.h tools/ism/attr-gen.h
Documentation/netlink/specs/ism.rst"
if [ "$mode" = --check ]; then
	rc=0
	for f in $files; do
		diff -u "$ISM_SRC/$f" "$out/$f" >&2 || rc=1
	done
	[ $rc = 0 ] || log "ynl-gen: generated files differ from $spec; run tools/testing/ism/ynl-gen.sh"
	exit $rc
fi
for f in $files; do
	cp "$out/$f" "$ISM_SRC/$f"
done
