#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# modstage.sh KDIR KVER BASE OUT DEST: install the modules a test VM
# loads under DEST, the part of its initramfs they make up: as under /
# in DEST/lib/modules/KVER, with depmod; in DEST/ism/modules.list the
# names ism-load loads, one a line, in modprobe's dependency order: the
# in-tree modules $ISM_KMODS first, then ours, then the KUnit ones
# (those built into the kernel left out); and DEST/ism/modules/NAME.ko
# links to them, for the tests that insmod one module file (lib/mods.sh's
# mod_path). ISM_KUNIT=0 leaves the KUnit modules off the list.
# Ours, built against the kernel build tree KDIR under OUT
# (build-modules.sh), go in with make modules_install (samples/ism's
# too); the in-tree ones and their dependencies (modprobe
# --show-depends) are copied from BASE, a root where KVER's modules are
# installed (/ for Debian's kernels), or with BASE "-" from KDIR's own
# make modules_install.
set -eu
. "$(dirname "$0")/lib.sh"

kdir=$1
kver=$2
base=$3
out=$4
dest=$5
rm -rf "$dest"
mkdir -p "$dest/lib/modules/$kver" "$dest/ism/modules"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
if [ "$base" = - ]; then
	base=$tmp/base
	make -s -C "$kdir" INSTALL_MOD_PATH="$base" modules_install >&2
fi
for f in modules.builtin modules.builtin.modinfo modules.order; do
	[ ! -e "$base/lib/modules/$kver/$f" ] || cp "$base/lib/modules/$kver/$f" "$dest/lib/modules/$kver/"
done
: >"$tmp/kmods"
# shellcheck disable=SC2086
[ -z "$ISM_KMODS" ] ||
	modprobe -d "$base" -S "$kver" -a --show-depends $ISM_KMODS >"$tmp/kmods" ||
	{ log "modstage: in-tree modules missing in $base/lib/modules/$kver"; exit 1; }
while read -r what path _; do
	[ "$what" = insmod ] || continue
	rel=${path#"$base"}
	mkdir -p "$dest$(dirname "$rel")"
	cp "$path" "$dest$rel"
done <"$tmp/kmods"

# Unsigned, as before: the VMs' kernels do not enforce signatures, and a
# Debian headers tree has no signing key.
for m in "$out/src" "$out/src/samples/ism"; do
	[ -f "$m/modules.order" ] || continue
	make -s -C "$kdir" M="$m" INSTALL_MOD_PATH="$dest" CONFIG_MODULE_SIG_ALL= \
		modules_install >&2
done
depmod -b "$dest" "$kver"

# The list as ism-load finds the modules on a machine where they are
# installed (ism_modlist, the selftests' lib/modlist.sh through lib.sh).
# Every module installed here must be on it (KUnit's but with
# ISM_KUNIT=0): one it left out, ism-load would never load.
ism_modlist "$dest" "$kver" >"$tmp/list"
# shellcheck disable=SC2044 # our paths have no blanks
for f in $(find "$dest/lib/modules/$kver" -name '*.ko*'); do
	n=${f##*/}
	n=${n%%.ko*}
	case $n in *_kunit) [ "${ISM_KUNIT:-1}" = 0 ] && continue ;; esac
	grep -q "^$n " "$tmp/list" || { log "modstage: $n is not in the module list"; exit 1; }
done
while read -r name path; do
	echo "$name" >>"$dest/ism/modules.list"
	ln -s "$path" "$dest/ism/modules/$name.ko"
done <"$tmp/list"
