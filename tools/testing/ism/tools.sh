#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# tools.sh [CFLAGS-EXTRA]: build the test programs (make tools), and
# print their paths, one a line, for the initramfs.
set -u
. "$(dirname "$0")/lib.sh"

# -B: flags such as -Werror must reach every file, built before or not.
# CFLAGS goes by the environment, so a tools/ Makefile can add to it.
CFLAGS="-O2 -g ${1:-}" make -s -B -C "$ISM_ROOT" tools \
	TOOLS_EXTRA_CFLAGS="${1:-}" >&2 || exit 1
# Under a make -C (make -C DIR kunit) an inherited -w would mix
# "Entering directory" lines into the paths.
for p in $(make -s --no-print-directory -C "$ISM_ROOT" print-tools); do
	echo "$ISM_ROOT/$p"
done
