#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools.sh [CFLAGS-EXTRA]: build the test programs (make tools), and
# print their paths, one a line, for the initramfs. With
# ISM_TOOLS_BUILT=1 (make check, once it has built them) only print
# them: the two VM runs go concurrently and must not rebuild them.
set -u
. "$(dirname "$0")/lib.sh"

# -B: flags such as -Werror must reach every file, built before or not.
# CFLAGS goes by the environment, so a tools/ Makefile can add to it.
if [ "${ISM_TOOLS_BUILT:-0}" != 1 ]; then
	CFLAGS="-O2 -g ${1:-}" make -s -B -C "$ISM_ROOT" tools \
		TOOLS_EXTRA_CFLAGS="${1:-}" >&2 || exit 1
fi
# Under a make -C (make -C DIR kunit) an inherited -w would mix
# "Entering directory" lines into the paths.
for p in $(make -s --no-print-directory -C "$ISM_ROOT" print-tools); do
	echo "$ISM_ROOT/$p"
done
