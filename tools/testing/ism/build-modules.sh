#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-modules.sh KDIR OUT [KBUILD-ARGS...]
# Build our modules against KDIR from a fresh copy of the sources in
# OUT/src, so builds for different kernels never share objects and
# every warning is printed again. The log goes to OUT/build.log, what
# they were built from to OUT/src.key (modules_current, lib.sh).
# Then build samples/ism the way a user builds a client out of tree
# (make -C samples/ism ISM_SRC=... KDIR=...), against OUT/src's
# Module.symvers, always with W=1; its log goes to OUT/sample.log. A
# failed sample build does not fail this script: it leaves no
# ism_sample.ko, and sample_result (lib.sh) reports that.
set -eu
. "$(dirname "$0")/lib.sh"

kdir=$1
out=$2
shift 2
[ -f "$kdir/Makefile" ] || { log "build-modules: no kernel build tree at $kdir"; exit 1; }

# What they are built from, for modules_current (lib.sh), taken before
# the copy: a file edited during the build then makes the next run
# build again, rather than reuse modules older than the key says.
key=$(modules_key "$kdir")
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

# The sample client, by its own Makefile, after ours (it needs their
# Module.symvers); KBUILD-ARGS (C=2 ...) apply to it too.
sample=$out/src/samples/ism
if [ -f "$sample/Makefile" ]; then
	log "build-modules: building samples/ism (W=1) against $kdir"
	if ! make -j"$(nproc)" -C "$sample" KDIR="$kdir" ISM_SRC="$out/src" \
		"$@" W=1 >"$out/sample.log" 2>&1; then
		grep -v '^  [A-Z]\+ \|^make' "$out/sample.log" | tail -n 30 >&2
		log "build-modules: building samples/ism failed (full log: $out/sample.log)"
	fi
fi

n=$(our_modules "$out/src" | wc -l)
if [ "$n" -eq 0 ]; then
	log "build-modules: the build produced no module"
	exit 1
fi
echo "$key" >"$out/src.key"
log "build-modules: $n modules"
