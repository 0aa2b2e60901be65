#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# lint.sh TREE [build|source]: build our modules against the test kernel
# TREE with W=1 and sparse on every file (C=2), samples/ism included
# (built out of tree against them, see build-modules.sh); then check the
# build's module names and exports, the files generated from the YNL spec
# (ynl-gen.sh), and run checkpatch, kernel-doc and Sphinx over our
# sources, the generated ones included. Any diagnostic in our code fails.
# The modules stay in $ISM_BUILD/debug for the VM tests. "build" does
# only the first part, "source" only the second (make check runs it
# while the VMs run); both by default.
set -u
. "$(dirname "$0")/lib.sh"

tree=$1
part=${2:-all}
out=$ISM_BUILD/debug
rc=0

if [ "$part" != source ]; then
	build_checked "$tree" "$out" "build: modules against the test kernel (W=1, sparse)" \
		W=1 C=2 CHECK=sparse || rc=1
	[ "$part" = build ] && exit $rc
fi

sample_result "$out" "the test kernel" || rc=1

if "$ISM_TESTDIR/modnames.sh" "$tree" "$out/src"; then
	result ok "lint: module names unused by in-tree modules"
else
	result fail "lint: module names unused by in-tree modules"
	rc=1
fi

# include/uapi/linux/ism.h, the kernel's policy and op table and ismctl's
# attribute table are generated from the YNL spec: regenerated, they must
# be what is committed.
if "$ISM_TESTDIR/ynl-gen.sh" --check; then
	result ok "lint: YNL generated files match the spec"
else
	result fail "lint: YNL generated files match the spec"
	rc=1
fi

# dkms.conf lists the modules the Kbuild files build (gen-dkms-conf.sh).
if "$ISM_SRC/scripts/gen-dkms-conf.sh" --check; then
	result ok "lint: dkms.conf matches the Kbuild files"
else
	result fail "lint: dkms.conf matches the Kbuild files"
	rc=1
fi

# suite_folders: every KUnit module the build made lives in a tests/
# folder, and make kunit SUITE=FOLDER (suite_glob) names it for the
# folder above; a folder without suites, or outside the tree, is refused
# and a glob passes as it is.
suite_folders() {
	_n=0
	for _k in $(our_modules "$out/src" | grep '_kunit\.ko$'); do
		_rel=${_k#"$out/src/"}
		case $_rel in
		*/tests/*) ;;
		*) echo "$_rel: a KUnit module outside a tests/ folder"; return 1 ;;
		esac
		_m=${_k##*/}
		_m=${_m%.ko}
		case ,$(suite_glob "${_rel%%/tests/*}" 2>&1), in
		*,"$_m",*) _n=$((_n + 1)) ;;
		*) echo "SUITE=${_rel%%/tests/*} does not name $_m"; return 1 ;;
		esac
	done
	[ "$_n" -gt 0 ] || { echo "no KUnit module built in $out/src"; return 1; }
	for _bad in net/smc no/such/folder; do
		if suite_glob "$_bad" >/dev/null 2>&1; then
			echo "SUITE=$_bad accepted"
			return 1
		fi
	done
	[ "$(suite_glob 'ism_lo*')" = 'ism_lo*' ] || { echo "a glob changed"; return 1; }
	echo "$_n KUnit modules"
}
if _sf=$(suite_folders); then
	result ok "lint: KUnit modules in tests/ folders, make kunit SUITE=FOLDER names them" "$_sf"
else
	result fail "lint: KUnit modules in tests/ folders, make kunit SUITE=FOLDER names them" "$_sf"
	rc=1
fi

# The client and driver API is in symbol namespace ISM: every export of
# ism_core but the tracepoint's (which have no namespace form in 6.1) and
# the KUnit-only ones.
unspaced=$(awk -F'\t' '$3 ~ /\/ism_core$/ && $2 !~ /^__(tracepoint|traceiter|SCK__|SCT__)/ &&
	$5 != "ISM" && $5 != "EXPORTED_FOR_KUNIT_TESTING" { print $2 }' \
	"$out/src/Module.symvers")
nexports=$(grep -c '/ism_core	' "$out/src/Module.symvers")
if [ "$nexports" -gt 0 ] && [ -z "$unspaced" ]; then
	result ok "lint: ism_core's exports in namespace ISM" "$nexports exports"
else
	result fail "lint: ism_core's exports in namespace ISM" "outside it: $(echo $unspaced)"
	rc=1
fi

cd "$ISM_SRC" || exit 1
# tools/net/ynl-ism/gen holds what its make generates, with the 6.12 ynl
# C library's style, and is not committed.
csrc=$(find net drivers include samples tools -name '*.[ch]' ! -name '*.mod.c' \
	! -path 'tools/net/ynl-ism/gen/*' 2>/dev/null | sort)
if [ -z "$csrc" ]; then
	result fail "lint: checkpatch" "no C sources found"
	exit 1
fi
# Userspace sources: tools/, but for directories whose Kbuild builds
# modules (tools/testing/ism/bench).
kdirs=
# shellcheck disable=SC2044 # our paths have no blanks
for k in $(find tools -name Kbuild); do
	grep -q '^obj-' "$k" && kdirs="$kdirs ${k%/Kbuild}"
done
user=
for f in $(echo "$csrc" | grep '^tools/'); do
	k=0
	for d in $kdirs; do
		case $f in "$d"/*) k=1 ;; esac
	done
	[ $k = 0 ] && user="$user $f"
done
kernel=$(for f in $csrc; do
	case " $user " in *" $f "*) ;; *) echo "$f" ;; esac
done)

# Plain (not --strict) checkpatch on whole files, --no-tree as we are not
# a kernel tree. For net/ it reports CHECKs too, as for a netdev patch;
# those fail like errors and warnings. Nothing is ignored in kernel code.
# Userspace code ignores what asks for kernel-only facilities:
#   PREFER_DEFINED_ATTRIBUTE_MACRO  the tools use __printf(), but its
#                                   definition (tools/include/compiler.h)
#                                   spells the attribute out
#   ARRAY_SIZE                      ARRAY_SIZE() is <linux/kernel.h>
#   SSCANF_TO_KSTRTO                kstrto*() exist only in the kernel
# The one file of kernel version checks, include/ism/kcompat.h, is
# spared the warnings about them (LINUX_VERSION_CODE, and the constant
# on the left of its comparison).
cp="$tree/scripts/checkpatch.pl --no-tree -f --terse --show-types"
kcompat=include/ism/kcompat.h
kernel=$(echo "$kernel" | grep -vx "$kcompat")
# shellcheck disable=SC2086
cp_out=$( {
	[ -z "$kernel" ] || $cp $kernel
	$cp --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON $kcompat
	[ -z "$user" ] || $cp --ignore \
		PREFER_DEFINED_ATTRIBUTE_MACRO,ARRAY_SIZE,SSCANF_TO_KSTRTO $user
} 2>&1)
if ! echo "$cp_out" | grep -Eq ': (ERROR|WARNING|CHECK):'; then
	result ok "lint: checkpatch"
else
	echo "$cp_out" | grep -v '^total: ' >&2
	result fail "lint: checkpatch"
	rc=1
fi

# kernel-doc prints its warnings on stderr; -none produces no document.
# shellcheck disable=SC2086
kd_out=$("$tree/scripts/kernel-doc" -none $csrc 2>&1)
if [ -z "$kd_out" ]; then
	result ok "lint: kernel-doc"
else
	echo "$kd_out" >&2
	result fail "lint: kernel-doc"
	rc=1
fi

# ism.rst pulls the API reference from the kernel-doc comments; render it
# as the kernel's `make htmldocs` would, warnings fatal.
hd_log=$ISM_BUILD/htmldocs.log
if "$ISM_TESTDIR/htmldocs.sh" "$tree" >"$hd_log" 2>&1; then
	result ok "lint: htmldocs (Sphinx, kernel-doc)" "$(tail -n 1 "$hd_log")"
else
	cat "$hd_log" >&2
	result fail "lint: htmldocs (Sphinx, kernel-doc)" "see above"
	rc=1
fi
exit $rc
