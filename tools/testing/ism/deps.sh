#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deps.sh [--list] [s390x|deb|vms|all]: install the Debian packages
# that building and testing the ISM layer needs. Installs only what is
# missing; as non-root, prints the command. With deb, also what make deb
# and make check-deb need: the packaging tools, lintian, e2fsprogs,
# openssl. With vms, those and what make check-vms needs: libvirt's
# daemons and virsh, and qemu-img. With s390x, also what make
# check-s390x needs: the cross compiler, qemu-system-s390x (in
# qemu-system-misc), and Debian's busybox-static for s390x, which is
# unpacked into the cache ($ISM_BUSYBOX_S390X, lib.sh), not installed:
# dpkg would replace the host's busybox with it. all: everything
# .ci/run's targets need. --list prints the packages, one a line, and
# installs nothing: what deps-root.sh installs into a fresh Debian 12
# root, where every program a run of the harness executed must be
# found.
set -eu
. "$(dirname "$0")/lib.sh"

list=
if [ "${1:-}" = --list ]; then
	list=1
	shift
fi
# make check: the builds (the test kernels, packed with lz4; our modules
# against Debian's 6.1 and 6.12 headers, whose BTF needs pahole, in
# dwarves; the kernel's scripts and make-deb.sh ask git, the kernel's
# Makefiles pkg-config, from pkgconf), QEMU and what the VMs' initramfs
# takes from the host (mkinitramfs.sh asks file which are dynamically
# linked), accel.sh's pkill (procps), lint (sparse, Sphinx, YNL's
# Python), the tools' tests (jq), and debootstrap for deps-root.sh's
# root.
pkgs="linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
dwarves lz4 git cpio gzip xz-utils qemu-system-x86 busybox-static sparse
linux-headers-amd64 linux-image-amd64 kmod procps python3 perl coreutils
sockperf iperf3 jq python3-sphinx linux-source-6.12 python3-yaml
python3-jsonschema debootstrap pkgconf file"
deb="dpkg-dev debhelper dh-dkms txt2man lintian e2fsprogs openssl"
vms="libvirt-daemon-system libvirt-clients qemu-utils"
s390x_pkgs="gcc-s390x-linux-gnu qemu-system-misc"
s390x=
case ${1:-} in
'') ;;
s390x)
	s390x=1
	pkgs="$pkgs $s390x_pkgs"
	;;
deb) pkgs="$pkgs $deb" ;;
vms) pkgs="$pkgs $deb $vms" ;;
all)
	s390x=1
	pkgs="$pkgs $deb $vms $s390x_pkgs"
	;;
*)
	log "deps: usage: deps.sh [--list] [s390x|deb|vms|all]"
	exit 2
	;;
esac
if [ -n "$list" ]; then
	printf '%s\n' $pkgs
	exit 0
fi

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
bb_missing=
[ -z "$s390x" ] || [ -x "$ISM_BUSYBOX_S390X" ] || bb_missing=1
[ -z "$missing" ] && [ -z "$bb_missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages; run as root:" >&2
	if [ -n "$missing" ]; then
		echo "  $cmd" >&2
	fi
	if [ -n "$bb_missing" ]; then
		echo "  $0 s390x   # busybox-static:s390x into $ISM_BUSYBOX_S390X" >&2
	fi
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
if [ -n "$missing" ]; then
	echo "deps: installing$missing" >&2
	# A fresh machine may have no package lists yet, or stale ones.
	$cmd >&2 || { apt-get update >&2 && $cmd >&2; }
fi
[ -n "$bb_missing" ] || exit 0

# busybox-static:s390x needs s390x's package lists. apt-get update
# may fail for a repository of the machine that has no s390x (or is
# unreachable): apt-get download below says whether it matters.
echo "deps: busybox-static:s390x into $ISM_BUSYBOX_S390X" >&2
if ! dpkg --print-foreign-architectures | grep -qx s390x; then
	dpkg --add-architecture s390x
	apt-get update >&2 || true
elif ! apt-cache show busybox-static:s390x >/dev/null 2>&1; then
	apt-get update >&2 || true
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
# Into the current directory, which apt's unprivileged user _apt cannot
# write to: as root, without apt's sandbox (and its warning about it).
(cd "$tmp" && apt-get download -o APT::Sandbox::User=root busybox-static:s390x >&2)
dpkg -x "$tmp"/busybox-static_*_s390x.deb "$tmp/root"
mkdir -p "$(dirname "$ISM_BUSYBOX_S390X")"
mv "$tmp/root/bin/busybox" "$ISM_BUSYBOX_S390X"
