# SPDX-License-Identifier: GPL-2.0
#
# This directory holds only our selftest targets; the framework (the
# selftests Makefile, lib.mk and kselftest/runner.sh) is the kernel's,
# taken from a Linux source tree rather than copied here:
# KSFT_DIR=LINUX/tools/testing/selftests, by default the first of the
# test kernel tree that tools/testing/ism/build-kernel.sh unpacks, the
# one in the test VM's initramfs and an unpacked Debian linux-source.
# The framework finds runner.sh through the directory of the lib.mk a
# target includes, this one: kselftest/ here links to the kernel's.
KSFT_HERE := $(realpath $(dir $(lastword $(MAKEFILE_LIST))))
KSFT_DIR ?= $(patsubst %/lib.mk,%,$(firstword $(wildcard \
	$(HOME)/.cache/ism/linux-*/tools/testing/selftests/lib.mk \
	/ism/ksrc/tools/testing/selftests/lib.mk \
	/usr/src/linux-source-*/tools/testing/selftests/lib.mk)))
ifeq ($(wildcard $(KSFT_DIR)/lib.mk),)
$(error no kselftest framework found: set KSFT_DIR=LINUX/tools/testing/selftests)
endif
$(shell ln -sfn $(KSFT_DIR)/kselftest $(KSFT_HERE)/kselftest)
