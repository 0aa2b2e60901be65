#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-modules.sh KDIR OUT [KBUILD-ARGS...]
# Build our modules against KDIR from a fresh copy of the sources in
# OUT/src, so builds for different kernels never share objects and
# every warning is printed again. The log goes to OUT/build.log.
set -eu
. "$(dirname "$0")/lib.sh"

kdir=$1
out=$2
shift 2
[ -f "$kdir/Makefile" ] || { log "build-modules: no kernel build tree at $kdir"; exit 1; }

rm -rf "$out"
mkdir -p "$out/src"
(cd "$ISM_SRC" && tar -cf - --exclude=./.git --exclude=./build \
	--exclude='*.o' --exclude='*.ko' --exclude='*.mod' --exclude='*.mod.c' \
	--exclude='.*.cmd' --exclude=modules.order --exclude=Module.symvers .) |
	tar -xf - -C "$out/src"

log "build-modules: building against $kdir $*"
if ! make -j"$(nproc)" -C "$kdir" M="$out/src" "$@" modules >"$out/build.log" 2>&1; then
	grep -v '^  [A-Z]\+ \|^make' "$out/build.log" | tail -n 60 >&2
	log "build-modules: build failed (full log: $out/build.log)"
	exit 1
fi
n=$(our_modules "$out/src" | wc -l)
if [ "$n" -eq 0 ]; then
	log "build-modules: the build produced no module"
	exit 1
fi
log "build-modules: $n modules"
