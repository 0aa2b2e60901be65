#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# ksrc.sh [SERIES]: print the directory of the parts of Debian's
# linux-source-SERIES (default: the first series of
# scripts/kernel-series) that the harness reads without a built kernel,
# unpacked once per package version into the cache
# (${ISM_CACHE:-$HOME/.cache/ism}/linux-source-SERIES-VERSION):
#   tools/testing/selftests/{Makefile,lib.mk,kselftest}, scripts/subarch.include
#                  kselftest's framework, which the VMs run our selftests
#                  with (mkinitramfs.sh)
#   tools/testing/kunit   KUnit's parser, which reads their logs (parse-log.py)
#   tools/net/ynl, Documentation/netlink, include/uapi/linux/{netlink,genetlink}.h
#                  YNL's generator and C library (ynl-gen.sh; 6.12 has them)
# A part a series lacks is left out. Without a build tree, the VMs of
# Debian's kernels start before any test kernel is built.
set -eu
. "$(dirname "$0")/lib.sh"

series=${1:-${ISM_KERNEL_SERIES%% *}}
pkg=linux-source-$series
tarball=/usr/src/$pkg.tar.xz
[ -r "$tarball" ] || { log "ksrc: $tarball missing (tools/testing/ism/deps.sh)"; exit 1; }
parts="tools/testing/selftests/Makefile tools/testing/selftests/lib.mk
tools/testing/selftests/kselftest scripts/subarch.include tools/testing/kunit
tools/net/ynl Documentation/netlink include/uapi/linux/netlink.h
include/uapi/linux/genetlink.h"
# The list of parts in the key: a new part unpacks again.
key=$(echo "$parts" | sha256sum | cut -c1-8)
tree=${ISM_CACHE:-$HOME/.cache/ism}/$pkg-$(dpkg-query -W -f='${Version}' "$pkg")-$key
if [ ! -f "$tree/.done" ]; then
	mkdir -p "$(dirname "$tree")"
	exec 9>"$tree.lock"
	flock 9
	if [ ! -f "$tree/.done" ]; then
		rm -rf "$tree"
		mkdir -p "$tree"
		# tar exits 2 for the parts this series lacks, and unpacks the
		# rest; the first one must be there.
		# shellcheck disable=SC2046 # the parts have no blanks
		tar -C "$tree" --strip-components=1 -xJf "$tarball" \
			$(for p in $parts; do echo "$pkg/$p"; done) 2>/dev/null || :
		[ -f "$tree/tools/testing/selftests/lib.mk" ] ||
			{ log "ksrc: nothing unpacked from $tarball"; exit 1; }
		touch "$tree/.done"
	fi
fi
echo "$tree"
