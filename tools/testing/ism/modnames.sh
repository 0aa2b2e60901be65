#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# modnames.sh TREE BUILDDIR: none of our module names may be taken by an
# in-tree module of Linux 6.1 on any architecture (s390x ships ism.ko),
# read from TREE's Makefiles, nor by a module of Debian's installed
# kernels. modprobe and depmod would pick one of the two at random.
set -u
. "$(dirname "$0")/lib.sh"

tree=$1
mods=$(our_modules "$2" | sed 's|.*/||; s|\.ko$||')
[ -n "$mods" ] || { log "modnames: no modules under $2"; exit 1; }

# Every "obj-... += name.o" target of the kernel tree, all architectures.
intree=$(find "$tree" \( -name Makefile -o -name Kbuild \) -not -path '*/tools/*' \
	-exec grep -hE '^[[:space:]]*obj-[^=]*[+:]?=' {} + |
	sed 's/^[^=]*=//' | tr ' \t\\' '\n\n\n' | sed -n 's/\.o$//p' | sort -u)
clash=
for m in $mods; do
	if echo "$intree" | grep -qx "$m" ||
	   find /lib/modules -name "$m.ko*" 2>/dev/null | grep -q .; then
		clash="$clash $m"
	fi
done
if [ -n "$clash" ]; then
	log "modnames: in-tree modules already use:$clash"
	exit 1
fi
echo "$intree" | grep -qx ism || { log "modnames: s390's ism not found in $tree: the list is wrong"; exit 1; }
exit 0
