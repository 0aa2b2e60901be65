#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# debian-kernel.sh SERIES: print "ROOT VERSION": a Debian stock kernel of
# SERIES (a series of scripts/kernel-series) to build our modules against
# and boot, its image at ROOT/boot/vmlinuz-VERSION, its modules under
# ROOT/lib/modules/VERSION and its headers at
# ROOT/usr/src/linux-headers-VERSION.
# The first series is the host's own kernel (ROOT /; deps.sh installs
# linux-image-amd64 and its headers). Any other is never installed on
# the host, where it would become the kernel that DKMS and the boot
# loader take: the newest linux-image and linux-headers packages of the
# series that apt knows (Debian 12's 6.12: bookworm-security) are
# unpacked into the cache, ${ISM_CACHE:-$HOME/.cache/ism}/debian-VERSION,
# once, and their headers pointed at where they are.
set -eu
. "$(dirname "$0")/lib.sh"

series=${1:?usage: debian-kernel.sh SERIES}
case " $ISM_KERNEL_SERIES " in
*" $series "*) ;;
*) log "debian-kernel: '$series' is not a series we build for ($ISM_KERNEL_SERIES)"; exit 1 ;;
esac
if [ "$series" = "${ISM_KERNEL_SERIES%% *}" ]; then
	ver=$(stock_version "$series") || {
		log "debian-kernel: no /boot/vmlinuz-$series.*-amd64 with its headers (apt-get install linux-image-amd64 linux-headers-amd64)"
		exit 1
	}
	echo "/ $ver"
	exit 0
fi

# Debian's names: linux-image-6.12.118+deb12-amd64 (6.1's differ:
# 6.1.0-57-amd64).
# newest: the newest such version apt knows
newest() {
	apt-cache pkgnames "linux-image-$series." |
		sed -n "s/^linux-image-\($series\.[0-9]*+deb[0-9]*-amd64\)\$/\1/p" |
		sort -V | tail -n 1
}
ver=$(newest)
if [ -z "$ver" ]; then
	apt-get update >&2 || true
	ver=$(newest)
fi
[ -n "$ver" ] || {
	log "debian-kernel: apt knows no linux-image-$series.*-amd64 (Debian 12: bookworm-security in the sources)"
	exit 1
}
root=${ISM_CACHE:-$HOME/.cache/ism}/debian-$ver
# unpacked: the root is ready; what unpacking it ran goes into this
# run's check of the programs (programs_used)
unpacked() {
	programs_used "$root/.ism-programs"
	echo "$root $ver"
	exit 0
}
# As root, a root unpacked before its programs were recorded is
# unpacked again.
[ ! -f "$root/.ism-ok" ] ||
	{ [ ! -f "$root/.ism-programs" ] && [ "$(id -u)" = 0 ]; } || unpacked

log "debian-kernel: unpacking Debian's $ver kernel and headers into $root"
tmp=$root.tmp.$$
trap 'build_programs_drop "$tmp"; rm -rf "$tmp"' EXIT
mkdir -p "$tmp/debs"
# The programs it runs, for deps-root.sh.
build_programs_begin "$tmp" $$ || exit 1
common=${ver%-amd64}-common
kbuild=linux-kbuild-${ver%-amd64}
# Into a directory that apt's unprivileged user _apt cannot write to: as
# root, without apt's sandbox (and its warning about it).
(cd "$tmp/debs" && apt-get download -o APT::Sandbox::User=root \
	"linux-image-$ver" "linux-headers-$ver" "linux-headers-$common" \
	"$kbuild" >&2)
for d in "$tmp"/debs/*.deb; do
	dpkg-deb -x "$d" "$tmp"
done
rm -rf "$tmp/debs"
# The headers include the common tree's Makefile by its installed path.
sed -i "s|^include /usr/src/|include $root/usr/src/|" \
	"$tmp/usr/src/linux-headers-$ver/Makefile"
# modules.dep and the rest, which the image's postinst would write.
depmod -b "$tmp" "$ver"
build_programs_keep "$tmp" || exit 1
touch "$tmp/.ism-ok"
rm -rf "$root"
mv "$tmp" "$root"
trap - EXIT
unpacked
