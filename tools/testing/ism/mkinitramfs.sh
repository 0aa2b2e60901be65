#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# mkinitramfs.sh OUT [MODROOT [PROG...]]
# Make a newc initramfs OUT, not compressed (a debug guest under TCG
# took ten seconds to unpack a gzipped one), with busybox-static (and its applet
# links), our guest /init, the modules modstage.sh installed in the
# directory MODROOT (copied to /) with kmod's modprobe, the selftests
# (tools/testing/selftests, in /ism/src as in the repository; the ism
# target is also /ism/tests) with the kernel's kselftest framework from
# the Linux tree $ISM_KSRC (in /ism/ksrc, see ksft.mk), the test programs
# PROG in /ism/bin, and the Debian programs $ISM_SYSPROGS (with their
# shared libraries, if any). With OUT alone, only busybox and /init:
# enough for ism.mode=probe (accel.sh). With ISM_VM_ARCH=s390x (make
# check-s390x), for an s390x guest: busybox is Debian's s390x one
# ($ISM_BUSYBOX_S390X, deps.sh s390x), and no host program goes in, so
# neither do the selftests: the guest loads the modules, KUnit's too.
set -eu
. "$(dirname "$0")/lib.sh"

out=$1
modroot=${2:-}
shift
[ $# -eq 0 ] || shift
bb=/bin/busybox
# The applets come from the host's busybox: s390x's cannot run here to
# list its own, but the host's busybox-static is of the same Debian source.
applets=/bin/busybox
s390x=
if [ "${ISM_VM_ARCH:-x86_64}" = s390x ]; then
	s390x=1
	bb=$ISM_BUSYBOX_S390X
	[ -x "$bb" ] || { log "mkinitramfs: no $bb (deps.sh s390x)"; exit 1; }
fi
file "$bb" 2>/dev/null | grep -q 'dynamically linked' &&
	{ log "mkinitramfs: $bb is not static (apt-get install busybox-static)"; exit 1; }

stage=$(mktemp -d)
trap 'rm -rf "$stage"' EXIT

pack() {
	# mktemp -d made the root 0700: unprivileged test users must get in.
	chmod 755 "$stage" "$stage/init"
	(cd "$stage" && find . | sort | cpio -o -H newc -R 0:0 --quiet) >"$out"
}

mkdir -p "$stage/bin" "$stage/sbin" "$stage/usr/bin" "$stage/usr/sbin" \
	"$stage/proc" "$stage/sys" "$stage/dev" "$stage/tmp" "$stage/root" \
	"$stage/ism/bin"
cp "$bb" "$stage/bin/busybox"
for applet in $("$applets" --list-full); do
	[ -e "$stage/$applet" ] || ln -s /bin/busybox "$stage/$applet"
done

cp "$ISM_TESTDIR/init" "$stage/init"
[ -n "$modroot" ] || { pack; exit 0; }
cp "$ISM_ROOT/tools/testing/selftests/ism/lib/bin/ism-mod" "$stage/ism/bin/"
ln -s ism-mod "$stage/ism/bin/ism-load"
ln -s ism-mod "$stage/ism/bin/ism-unload"
cp "$ISM_TESTDIR/guest-demo.sh" "$stage/ism/bin/ism-demo"
echo "ISM_NOLOAD=\"$ISM_NOLOAD\"" >"$stage/ism/config"
cp -a "$modroot/." "$stage/"
[ -z "$s390x" ] || { pack; exit 0; }

ksft=tools/testing/selftests
mkdir -p "$stage/ism/src/$ksft" "$stage/ism/ksrc/$ksft" "$stage/ism/ksrc/scripts"
cp -r "$ISM_ROOT/$ksft/." "$stage/ism/src/$ksft/"
rm -f "$stage/ism/src/$ksft/kselftest"
ln -s src/$ksft/ism "$stage/ism/tests"
for f in Makefile lib.mk kselftest; do
	cp -r "${ISM_KSRC:?}/$ksft/$f" "$stage/ism/ksrc/$ksft/"
done
cp "$ISM_KSRC/scripts/subarch.include" "$stage/ism/ksrc/scripts/"

# install_prog PROG DIR: PROG into DIR; a dynamically linked program
# brings its libraries and loader.
install_prog() {
	cp "$1" "$stage$2/"
	for lib in $(ldd "$1" 2>/dev/null | grep -o '/[^ ]*'); do
		mkdir -p "$stage$(dirname "$lib")"
		cp -L "$lib" "$stage$lib"
	done
}

# The host's programs the guests run, besides ours: deps.sh must
# install them (programs_used, for deps-root.sh's check).
hostprogs=$bb
for sp in $ISM_SYSPROGS; do
	p=$(command -v "$sp") || { log "mkinitramfs: $sp not installed (deps.sh)"; exit 1; }
	set -- "$@" "$p"
	hostprogs="$hostprogs $p"
done
for p in "$@"; do
	install_prog "$p" /ism/bin
done
# kmod: modprobe as on a distribution (module options from the kernel
# command line, NAME.PARAM=VALUE), and its other names with it.
install_prog "$(command -v kmod)" /ism/bin
for k in modprobe insmod rmmod modinfo lsmod depmod; do
	ln -sf kmod "$stage/ism/bin/$k"
done
# kselftest's runner wants GNU timeout (--foreground) as /usr/bin/timeout.
rm -f "$stage/usr/bin/timeout"
install_prog /usr/bin/timeout /usr/bin
printf '%s\n' $hostprogs "$(command -v kmod)" /usr/bin/timeout >"$out.programs"
programs_used "$out.programs"

chmod 755 "$stage/ism/bin"/*
pack
