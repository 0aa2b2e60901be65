#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT [ORDER [PROG...]]
# Make a gzipped newc initramfs OUT with busybox-static (and its applet
# links), our guest /init, the modules listed in the file ORDER (load
# order; compressed .ko.xz/.ko.gz are unpacked), the e2e tests from
# tests/*.sh with their tests/lib, and the test programs PROG in
# /ism/bin, and the Debian programs $ISM_SYSPROGS (with their shared
# libraries, if any). With OUT alone, only busybox and /init: enough
# for ism.mode=probe (accel.sh).
set -eu
. "$(dirname "$0")/lib.sh"

out=$1
order=${2:-}
shift
[ $# -eq 0 ] || shift
bb=/bin/busybox
file "$bb" 2>/dev/null | grep -q 'dynamically linked' &&
	{ log "mkinitramfs: $bb is not static (apt-get install busybox-static)"; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

pack() {
	# mktemp -d made the root 0700: unprivileged test users must get in.
	chmod 755 "$stage" "$stage/init"
	(cd "$stage" && find . | sort | cpio -o -H newc -R 0:0 --quiet) | gzip -1 >"$out"
}

mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" \
	"$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" "$stage/root" \
	"$stage/ism/bin" "$stage/ism/modules" "$stage/ism/tests"
cp "$bb" "$stage/bin/busybox"
for applet in $("$bb" --list-full); do
	[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
done

cp "$ISM_TESTDIR/init" "$stage/init"
[ -n "$order" ] || { pack; exit 0; }
cp "$ISM_TESTDIR/guest-mod.sh" "$stage/ism/bin/ism-mod"
ln -s ism-mod "$stage/ism/bin/ism-load"
ln -s ism-mod "$stage/ism/bin/ism-unload"
cp "$ISM_TESTDIR/guest-demo.sh" "$stage/ism/bin/ism-demo"
echo "ISM_NOLOAD=\"$ISM_NOLOAD\"" >"$stage/ism/config"

: >"$stage/ism/modules.list"
while read -r ko; do
	n=$(basename "$ko")
	case $n in
	*.ko.xz) xz -dc "$ko" >"$stage/ism/modules/${n%.xz}" ;;
	*.ko.gz) gzip -dc "$ko" >"$stage/ism/modules/${n%.gz}" ;;
	*.ko) cp "$ko" "$stage/ism/modules/$n" ;;
	*) log "mkinitramfs: not a module: $ko"; exit 1 ;;
	esac
	echo "/ism/modules/${n%.ko*}.ko" >>"$stage/ism/modules.list"
done <"$order"

for t in "$ISM_TESTDIR"/tests/*.sh; do
	[ -e "$t" ] && cp "$t" "$stage/ism/tests/"
done
# What the tests source: tests/lib/*.sh.
cp -r "$ISM_TESTDIR/tests/lib" "$stage/ism/tests/"
for sp in $ISM_SYSPROGS; do
	p=$(command -v "$sp") || { log "mkinitramfs: $sp not installed (deps.sh)"; exit 1; }
	set -- "$@" "$p"
done
for p in "$@"; do
	cp "$p" "$stage/ism/bin/"
	# A dynamically linked program brings its libraries and loader.
	for lib in $(ldd "$p" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
done

chmod 755 "$stage/ism/bin"/*
pack
