# SPDX-License-Identifier: GPL-2.0
#
# Included by a target's Makefile: the kernel's lib.mk (see ksft.mk),
# with this directory as the framework's (BASE_DIR: kselftest/runner.sh,
# and TARGET/settings), as in a kernel tree.
include $(dir $(lastword $(MAKEFILE_LIST)))ksft.mk
include $(KSFT_DIR)/lib.mk
selfdir := $(KSFT_HERE)
