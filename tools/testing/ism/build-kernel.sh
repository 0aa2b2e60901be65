#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# build-kernel.sh [x86_64|s390x] [SERIES]: build (once per machine) a test
# kernel from Debian's linux-source-SERIES (default: the first series of
# scripts/kernel-series, 6.1; x86_64 also 6.12) with the kernel's own
# scripts/kconfig/merge_config.sh: tinyconfig, then config fragments,
# each only what its checks need, per architecture:
# x86_64 (the default), the debug test kernel: the selftests' config
#   (what the tests need), then ours in this directory: kernel.config
#   (console basics, KUnit), debug.config (the bug catchers), x86.config
#   (QEMU's q35 machine as our VMs have it), then the series' own, if
#   any (kernel-6.12.config);
# s390x (make check-s390x), cross-built with Debian's
#   gcc-s390x-linux-gnu: kernel.config and s390x.config (s390's console,
#   PCI, SMC: the KUnit suites big-endian).
# The tree is cached under ${ISM_CACHE:-$HOME/.cache/ism}, keyed by the
# architecture, the source package version and a hash of the
# fragments; one process builds it, others wait (TREE.lock). The
# programs the build runs are kept in TREE/.ism-programs (exectrace.sh),
# for each later run's check that deps.sh installs them (deps-root.sh).
# Prints the tree's path.
set -eu

here=$(cd "$(dirname "$0")" && pwd)
arch=${1:-x86_64}
. "$here/lib.sh"
series=${2:-${ISM_KERNEL_SERIES%% *}}
case " $ISM_KERNEL_SERIES " in
*" $series "*) ;;
*)
	echo "build-kernel: no test kernel of series '$series' ($ISM_KERNEL_SERIES)" >&2
	exit 1 ;;
esac
case $arch in
x86_64)
	# A series may add its own, kernel-SERIES.config, merged last.
	frags="$here/../selftests/ism/config $here/kernel.config $here/debug.config $here/x86.config"
	[ ! -f "$here/kernel-$series.config" ] ||
		frags="$frags $here/kernel-$series.config"
	# The cache key's prefix; x86's predates the other architectures.
	name=linux
	took="5 to 15 minutes"
	# kbuild's ARCH and CROSS_COMPILE.
	set -- ARCH=x86_64 CROSS_COMPILE=
	;;
s390x)
	frags="$here/kernel.config $here/s390x.config"
	name=linux-s390x
	took="3 to 10 minutes"
	set -- ARCH=s390 CROSS_COMPILE=s390x-linux-gnu-
	;;
*)
	echo "build-kernel: no test kernel for architecture '$arch' (x86_64, s390x)" >&2
	exit 1 ;;
esac
tarball=/usr/src/linux-source-$series.tar.xz
cache=${ISM_CACHE:-${HOME:-$(getent passwd "$(id -u)" | cut -d: -f6)}/.cache/ism}

[ -r "$tarball" ] || { echo "build-kernel: $tarball missing (apt-get install linux-source-$series)" >&2; exit 1; }
srcver=$(dpkg-query -W -f='${Version}' "linux-source-$series")
# shellcheck disable=SC2086 # a list of paths without blanks
fraghash=$(cat $frags | sha256sum | cut -c1-12)
tree="$cache/$name-$srcver-$fraghash"

# built: the tree is built; what its build ran goes into this run's
# check of the programs (programs_used)
built() {
	programs_used "$tree/.ism-programs"
	echo "$tree"
	exit 0
}
# cached: the tree was built, and its programs recorded where they can
# be (as root); a tree built before they were is built again
cached() {
	[ -f "$tree/.ism-built" ] &&
		{ [ -f "$tree/.ism-programs" ] || [ "$(id -u)" != 0 ]; }
}
! cached || built

mkdir -p "$cache"
# One build of a tree at a time: a second caller (make check-s390x while
# .ci/run's early build of the same kernel runs) waits for the first and
# takes its tree.
exec 9>"$tree.lock"
flock 9
! cached || built
tmp="$tree.tmp.$$"
trap 'build_programs_drop "$tmp"; rm -rf "$tmp"' EXIT
mkdir -p "$tmp"
# The programs the build runs, for deps-root.sh.
build_programs_begin "$tmp" $$ || exit 1
echo "build-kernel: building $arch test kernel $srcver ($fraghash) in $tree; this takes $took on 2 cores, depending on their load" >&2
start=$(date +%s)
tar -C "$tmp" --strip-components=1 -xf "$tarball"
log="$tmp/ism-build.log"
(
	cd "$tmp"
	make "$@" tinyconfig
	# shellcheck disable=SC2086
	scripts/kconfig/merge_config.sh -m .config $frags
	make "$@" olddefconfig
) >"$log" 2>&1 || { tail -n 40 "$log" >&2; exit 1; }

# A fragment option whose dependencies are unmet is silently dropped by
# Kconfig, and one that something selects cannot be turned off; refuse
# such a kernel rather than test with other options than we asked for.
# An option is checked for the value its last fragment gives it, as
# merge_config.sh applies them: "# CONFIG_X is not set"
# (kernel-6.12.config over the selftests' config) must leave it unset.
# shellcheck disable=SC2086
missing=$(awk '/^CONFIG_/ { k = $0; sub(/=.*/, "", k) }
	/^# CONFIG_[A-Za-z0-9_]+ is not set$/ { k = $2 }
	k != "" { if (!(k in v)) o[n++] = k; v[k] = $0; k = "" }
	END { for (i = 0; i < n; i++) print v[o[i]] }' $frags |
while IFS= read -r opt; do
	case $opt in
	"# "*)
		opt=${opt#"# "}
		! grep -q "^${opt%% *}=" "$tmp/.config" || echo "$opt" ;;
	*)
		grep -qx "$opt" "$tmp/.config" || echo "$opt" ;;
	esac
done)
if [ -n "$missing" ]; then
	echo "build-kernel: options not as asked in the final .config:" >&2
	echo "$missing" >&2
	exit 1
fi

if ! make -C "$tmp" "$@" -j"$(nproc)" bzImage modules >>"$log" 2>&1; then
	tail -n 40 "$log" >&2
	exit 1
fi
build_programs_keep "$tmp" || exit 1
touch "$tmp/.ism-built"
rm -rf "$tree"
mv "$tmp" "$tree"
trap - EXIT
children_cpu "$tree/.ism-times"
echo "build-kernel: built in $(($(date +%s) - start)) s, $children_cpu CPU s" >&2
built
