#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build (once per machine) the debug test kernel from Debian's
# linux-source-6.1: tinyconfig plus kernel.config from this directory.
# The tree is cached under ${ISM_CACHE:-$HOME/.cache/ism}, keyed by the
# source package version and a hash of the fragment. Prints the tree's path.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
frag="$here/kernel.config"
tarball=/usr/src/linux-source-6.1.tar.xz
cache=${ISM_CACHE:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/ism}

[ -r "$tarball" ] || { echo "build-kernel: $tarball missing (apt-get install linux-source-6.1)" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
fraghash=$(sha256sum "$frag" | cut -c1-12)
tree="$cache/linux-$srcver-$fraghash"

if [ -f "$tree/.ism-built" ]; then
	echo "$tree"
	exit 0
fi

mkdir -p "$cache"
tmp="$tree.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
echo "build-kernel: building test kernel $srcver ($fraghash) in $tree; this takes about 11 minutes on 2 cores" >&2
tar -C "$tmp" --strip-components=1 -xf "$tarball"
log="$tmp/ism-build.log"
(
	cd "$tmp"
	make ARCH=x86_64 tinyconfig
	scripts/kconfig/merge_config.sh -m .config "$frag"
	make ARCH=x86_64 olddefconfig
) >"$log" 2>&1 || { tail -n 40 "$log" >&2; exit 1; }

# A fragment option whose dependencies are unmet is silently dropped by
# Kconfig; refuse such a kernel rather than test with less than we asked for.
missing=$(grep '^CONFIG_' "$frag" | while IFS= read -r opt; do
	grep -qx "$opt" "$tmp/.config" || echo "$opt"
done)
if [ -n "$missing" ]; then
	echo "build-kernel: options not set in the final .config:" >&2
	echo "$missing" >&2
	exit 1
fi

if ! make -C "$tmp" ARCH=x86_64 -j"$(nproc)" bzImage modules >>"$log" 2>&1; then
	tail -n 40 "$log" >&2
	exit 1
fi
touch "$tmp/.ism-built"
rm -rf "$tree"
mv "$tmp" "$tree"
trap - EXIT
echo "$tree"
