#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# htmldocs.sh TREE [OUT]: render Documentation/ with Sphinx and the
# kernel-doc extension of the Linux source TREE, as the kernel's own
# `make htmldocs` would, into OUT (default $ISM_BUILD/htmldocs). Any
# Sphinx or kernel-doc warning fails (-W): a `.. kernel-doc::` directive
# that names a missing file or identifier, a malformed comment it pulls
# in, a broken reference. Then checks that every symbol our modules
# export is in the rendered reference, so the API documentation cannot
# silently lose one.
set -u
. "$(dirname "$0")/lib.sh"

tree=$1
out=${2:-$ISM_BUILD/htmldocs}
rm -rf "$out"
mkdir -p "$out"
log=$out/sphinx.log
if ! ISM_KERNEL_TREE=$tree sphinx-build -W --keep-going -q -b html \
	-d "$out/doctrees" "$ISM_SRC/Documentation" "$out/html" >"$log" 2>&1; then
	cat "$log" >&2
	echo "htmldocs: Sphinx failed" >&2
	exit 1
fi

# The core's exports in namespace ISM, from the sources: the API. Not
# ism_trace_move_data(), the out-of-line half of ism_move_data()'s
# tracepoint, which ism_move_data()'s own entry covers.
cd "$ISM_SRC" || exit 1
exports=$(sed -n 's/^EXPORT_SYMBOL_NS_GPL(\([a-z_0-9]*\), ISM);$/\1/p' net/ism/*.c |
	grep -vx ism_trace_move_data | sort -u)
# And every name a `.. kernel-doc::` directive asks for by :identifiers:
# or :functions: (and its continuation lines): kernel-doc of 6.1 skips an
# unknown name without a word.
asked=$(awk '/^\.\. kernel-doc::/ { d = 1; next }
	d && /^   :(identifiers|functions):/ { sub(/^ *:[a-z]*:/, ""); print; c = 1; next }
	d && c && /^    +[a-z_]/ { print; next }
	{ d = /^   :/ ? d : 0; c = 0 }' Documentation/networking/*.rst | tr -s ' ' '\n')
missing=
for sym in $exports $asked; do
	grep -q "id=\"c\\.$sym\"" "$out"/html/networking/ism.html || missing="$missing $sym"
done
if [ -n "$missing" ]; then
	echo "htmldocs: exported or asked for, but not in the rendered reference:$missing" >&2
	exit 1
fi
echo "$(echo "$exports" | wc -w) exported functions and $(echo "$asked" | wc -w) asked-for names in the rendered reference"
