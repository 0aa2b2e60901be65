#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# Install the Debian packages that building and testing the ISM layer
# needs. Installs only what is missing; as non-root, prints the command.
set -eu

pkgs="linux-source-6.1 build-essential bc bison flex libelf-dev libssl-dev
cpio gzip xz-utils qemu-system-x86 busybox-static sparse linux-headers-amd64
linux-image-amd64 kmod python3 perl coreutils sockperf iperf3 jq
python3-sphinx linux-source-6.12 python3-yaml python3-jsonschema"

missing=
for p in $pkgs; do
	st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
	[ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

cmd="apt-get install -y --no-install-recommends$missing"
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing packages; run as root:" >&2
	echo "  $cmd" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
echo "deps: installing$missing" >&2
# A fresh machine may have no package lists yet, or stale ones.
$cmd >&2 || { apt-get update >&2 && $cmd >&2; }
