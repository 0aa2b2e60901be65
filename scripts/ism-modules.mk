# SPDX-License-Identifier: GPL-2.0
#
# make -s -f scripts/ism-modules.mk [modules|dirs] [CONFIG_FOO=y ...]
#	[VERSION=6 PATCHLEVEL=12]
#
# Reads our Kbuild files the way kbuild does and prints what they build
# for the configuration and kernel given on the command line: "modules" (default)
# one DIR/NAME a line for every module of the shipped directories
# (ism-dirs in the top Kbuild), "dirs" those directories. KUnit modules
# are left out: they are tests, not part of what is installed.
# gen-dkms-conf.sh turns the module list into dkms.conf, so that DKMS
# installs exactly what make builds.

# The kernel the list is for: by default the first series of
# scripts/kernel-series (the Kbuild file picks directories by it).
include scripts/kernel-series
ISM_KERNEL_SERIES := $(subst ",,$(ISM_KERNEL_SERIES))
ism-series := $(subst ., ,$(firstword $(ISM_KERNEL_SERIES)))
VERSION ?= $(word 1,$(ism-series))
PATCHLEVEL ?= $(word 2,$(ism-series))

src := .
obj-m :=
include Kbuild
ism-mods :=

# ism-read DIR: the modules DIR/Kbuild builds, and those of its subdirs.
define ism-read
obj-m :=
src := $(1)
include $(1)/Kbuild
ism-subdirs-$(1) := $$(patsubst %/,%,$$(filter %/,$$(obj-m)))
ism-mods += $$(addprefix $(1)/,$$(patsubst %.o,%,$$(filter %.o,$$(obj-m))))
$$(foreach d,$$(ism-subdirs-$(1)),$$(eval $$(call ism-read,$(1)/$$(d))))
endef

$(foreach d,$(ism-dirs),$(eval $(call ism-read,$(patsubst %/,%,$(d)))))

.PHONY: modules dirs
modules:
	@printf '%s\n' $(filter-out %_kunit,$(ism-mods))
dirs:
	@printf '%s\n' $(patsubst %/,%,$(ism-dirs))
