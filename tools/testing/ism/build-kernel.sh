#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Build (once per machine) the debug test kernel from Debian's
# linux-source-6.1 with the kernel's own scripts/kconfig/merge_config.sh:
# tinyconfig, then the tree's kernel/configs/kvm_guest.config (a guest on
# QEMU's virtio devices), the selftests' config (what the tests need),
# and last what is only ours, kernel.config in this directory (the bug
# catchers, KUnit, a console). The tree is cached under
# ${ISM_CACHE:-$HOME/.cache/ism}, keyed by the source package version and
# a hash of our fragments. Prints the tree's path.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
# Ours, checked option by option below; the tree's is applied as it is.
frags="$here/../selftests/ism/config $here/kernel.config"
tree_frags="kernel/configs/kvm_guest.config"
tarball=/usr/src/linux-source-6.1.tar.xz
cache=${ISM_CACHE:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/ism}

[ -r "$tarball" ] || { echo "build-kernel: $tarball missing (apt-get install linux-source-6.1)" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' linux-source-6.1)
# shellcheck disable=SC2086 # the lists are of paths without blanks
fraghash=$( { echo $tree_frags; cat $frags; } | sha256sum | cut -c1-12)
tree="$cache/linux-$srcver-$fraghash"

if [ -f "$tree/.ism-built" ]; then
	echo "$tree"
	exit 0
fi

mkdir -p "$cache"
tmp="$tree.tmp.$$"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
echo "build-kernel: building test kernel $srcver ($fraghash) in $tree; this takes 11 to 25 minutes on 2 cores, depending on their load" >&2
tar -C "$tmp" --strip-components=1 -xf "$tarball"
log="$tmp/ism-build.log"
(
	cd "$tmp"
	make ARCH=x86_64 tinyconfig
	# shellcheck disable=SC2086
	scripts/kconfig/merge_config.sh -m .config $tree_frags $frags
	make ARCH=x86_64 olddefconfig
) >"$log" 2>&1 || { tail -n 40 "$log" >&2; exit 1; }

# A fragment option whose dependencies are unmet is silently dropped by
# Kconfig; refuse such a kernel rather than test with less than we asked
# for. Not for the tree's fragment, written for every architecture
# (kvm_guest.config sets S390_GUEST, and DRM_VIRTIO_GPU without DRM).
# shellcheck disable=SC2086
missing=$(cat $frags | grep '^CONFIG_' | while IFS= read -r opt; do
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
