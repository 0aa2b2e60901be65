# SPDX-License-Identifier: GPL-2.0
#
# Out-of-tree build and tests of the ISM layer; the module list is in
# Kbuild. `make help` lists the targets.

include scripts/kernel-series
ISM_KERNEL_SERIES := $(subst ",,$(ISM_KERNEL_SERIES))
# ism_series VERSION: VERSION's series, if the modules build for it
ism_series = $(filter $(ISM_KERNEL_SERIES),$(word 1,$(subst ., ,$(1))).$(word \
	2,$(subst ., ,$(1))))

# The kernel to build against: the running one's build tree if it is of a
# supported series, or else the newest Debian headers package of one.
KDIR ?= $(or $(if $(call ism_series,$(shell uname -r)),$(wildcard \
	/lib/modules/$(shell uname -r)/build)),$(lastword $(shell ls -d \
	$(ISM_KERNEL_SERIES:%=/usr/src/linux-headers-%.*-amd64) 2>/dev/null | \
	sort -V)))

TESTDIR := tools/testing/ism

# Userspace programs, for the tests in the busybox initramfs (where they
# are on PATH), so linked statically:
# - a directory under tools/ with its own Makefile (e.g. tools/smc) is
#   built with `make -C DIR` and cleaned with `make -C DIR clean`; it
#   should honour CFLAGS from the environment. Every executable file it
#   leaves in DIR goes into the initramfs.
# - elsewhere, every tools/**/NAME.c is one program, built with plain gcc
#   into tools/**/NAME. Extra libraries: LDLIBS_NAME := -lfoo; extra
#   sources (then no programs of their own): SRCS_NAME := tools/x/y.c.
# Directories with a Kbuild file hold kernel code (tools/testing/ism/bench),
# tools/testing/ism holds the test harness, tools/testing/selftests the
# tests (the initramfs takes them as they are) and tools/lib the libraries
# the programs compile in (tools/lib/nl: the netlink layer): none is built
# here; a library's Makefile only tests it (make -C DIR check).
TOOLS_DIRS := $(patsubst %/Makefile,%,$(shell find tools -mindepth 2 \
	-name Makefile ! -path 'tools/testing/ism/*' ! -path 'tools/lib/*' \
	! -path 'tools/testing/selftests/*' 2>/dev/null | sort))
LIB_DIRS := $(patsubst %/Makefile,%,$(wildcard tools/lib/*/Makefile))
TOOLS_SKIP := $(TOOLS_DIRS) tools/lib $(patsubst %/Kbuild,%,$(shell find \
	tools -name Kbuild 2>/dev/null))
# The tools' netlink layer, on plain sockets: static links stay possible.
NL_SRCS := tools/lib/nl/nl.c tools/lib/nl/genl.c
# ism_fault runs ism requests under fault injection (tests/faults.sh).
SRCS_ism_fault := $(NL_SRCS) $(addprefix $(TESTDIR)/ism_fault_,op.c state.c \
	kmsg.c)
# ism_nlbad sends malformed requests to the ism family.
SRCS_ism_nlbad := $(NL_SRCS)
# ism_user_test and ism_user_fuzz make /dev/ism's calls alike.
SRCS_ism_user_test := $(TESTDIR)/ism_user_calls.c $(TESTDIR)/ism_user_cases.c
SRCS_ism_user_fuzz := $(TESTDIR)/ism_user_calls.c $(TESTDIR)/ism_user_fuzz_state.c
# A file of some SRCS_NAME is part of a program, not one of its own.
TOOLS_PARTS := $(foreach v,$(filter SRCS_%,$(.VARIABLES)),$($(v)))
TOOLS_SRC := $(filter-out $(addsuffix /%,$(TOOLS_SKIP)) $(TOOLS_PARTS), \
	$(shell find tools -name '*.c' 2>/dev/null | sort))
TOOLS := $(TOOLS_SRC:.c=)
TOOLS_CFLAGS ?= -O2 -g -Wall -Wextra
TOOLS_EXTRA_CFLAGS ?=

.PHONY: all modules tools modules_install clean check check-s390x check-deb check-vms lint kunit vm \
	stock pair trio bench demo demo-vms stress htmldocs help print-tools kdir deb

all: modules tools

# A kernel of another series fails here, saying which series we build
# for, not in the compiler.
kdir:
	@test -f "$(KDIR)/Makefile" || { echo "No Linux $(ISM_KERNEL_SERIES) build tree:" \
		"set KDIR= or apt-get install linux-headers-amd64 (6.1) or linux-headers-6.12-amd64" >&2; exit 1; }
	@v=$$(cat "$(KDIR)/include/config/kernel.release" 2>/dev/null || \
		$(MAKE) -s -C "$(KDIR)" kernelversion); \
	case " $(ISM_KERNEL_SERIES) " in *" $$(echo "$$v" | cut -d. -f1-2) "*) ;; \
	*) echo "KDIR=$(KDIR) is Linux $$v: the ISM modules build for Linux" \
		"$(ISM_KERNEL_SERIES) only (Debian 12's linux-headers-amd64, linux-headers-6.12-amd64; README: Kernels)" >&2; \
		exit 1 ;; esac

modules: kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules

# Honours INSTALL_MOD_PATH (and the rest of kbuild's install variables).
modules_install: kdir
	$(MAKE) -C $(KDIR) M=$(CURDIR) modules_install

tools: $(TOOLS) $(TOOLS_DIRS)

.PHONY: $(TOOLS_DIRS)
$(TOOLS_DIRS):
	$(MAKE) -C $@

ifneq ($(TOOLS),)
.SECONDEXPANSION:
$(TOOLS): %: %.c $$(SRCS_$$(notdir $$@))
	$(CC) $(TOOLS_CFLAGS) $(TOOLS_EXTRA_CFLAGS) -I$(CURDIR)/include/uapi \
		-static \
		-o $@ $< $(SRCS_$(notdir $@)) $(LDLIBS_$(notdir $@))
endif

# What make tools built (run it after make tools).
print-tools:
	@echo $(TOOLS) $(foreach d,$(TOOLS_DIRS),\
		$(shell find $(d) -maxdepth 1 -type f -perm -u+x | sort))

clean:
	$(if $(wildcard $(KDIR)/Makefile),$(MAKE) -C $(KDIR) M=$(CURDIR) clean)
	rm -f $(TOOLS)
	$(foreach d,$(TOOLS_DIRS) $(LIB_DIRS),$(MAKE) -C $(d) clean;)
	rm -rf build

# DKMS's recipe, from the Kbuild files (make lint checks it is current).
dkms.conf: Kbuild $(shell find net drivers -name Kbuild) scripts/ism-modules.mk \
		scripts/gen-dkms-conf.sh
	scripts/gen-dkms-conf.sh

# ism-dkms and ism-tools, and the source package, in build/deb; lintian.
deb:
	@scripts/make-deb.sh

# The one test command (CI runs it): see README.md.
check:
	@$(TESTDIR)/check.sh

# Our modules cross-built for s390x (W=1, sparse) and their KUnit suites
# run big-endian in qemu-system-s390x; CI runs it after check.
check-s390x:
	@$(TESTDIR)/s390x.sh

# The packages as a Debian 12 user gets them: make deb and lintian, then
# install, DKMS build, Secure Boot signing, boot with SMC-D, upgrade and
# purge in a Debian 12 root; CI runs it after check.
check-deb:
	@$(TESTDIR)/deb-test.sh

# The virtual ISM device between guests: the debug kernel's two-guest
# (both modes) and three-guest tests, with their attacks; then SMC-D
# between two libvirt guests (Debian 12, our packages, the host's region
# unit) in both modes, with lifecycle checks; the figures' table goes to
# the results file. MODE=doorbell or plain: one mode. CI runs it after
# check-deb.
check-vms:
	@$(TESTDIR)/record.sh 'make check-vms' '^check-vms, ' $(TESTDIR)/vms-test.sh $(MODE)

lint:
	@$(TESTDIR)/check.sh lint

# KUnit and e2e tests in the debug VM only; SUITE=GLOB or FOLDER picks KUnit modules.
kunit:
	@SUITE='$(SUITE)' $(TESTDIR)/vmtest.sh test

# Interactive shell in the debug VM with the modules loaded (Ctrl-A X quits).
vm:
	@SUITE='$(SUITE)' $(TESTDIR)/vmtest.sh shell

stock:
	@$(TESTDIR)/stock.sh

# Two debug VMs on one virtual ISM region, SMC-D between them, one killed
# and restarted: MODE=doorbell (default) or plain.
pair:
	@$(TESTDIR)/pair.sh $(MODE)

# Three debug VMs on one full region: a paused guest's slot taken, then
# its forged SMC-D tokens.
trio:
	@$(TESTDIR)/trio.sh

# bench, demo and stress append their figures to the results file
# (record.sh; ISM_RECORD=0 only prints).
bench:
	@$(TESTDIR)/record.sh 'make bench' '^ism_bench under' $(TESTDIR)/stock.sh bench

# sockperf over TCP and over SMC-D, and ism_lat/ism_bw, on Debian's stock
# kernel, one table.
demo:
	@$(TESTDIR)/deps.sh
	@$(TESTDIR)/record.sh 'make demo' '^sockperf, medians' $(TESTDIR)/stock.sh demo

# The same between two stock VMs: TCP over virtio-net against SMC-D and
# ism_lat/ism_bw over a virtual ISM region, MODE=doorbell (default) or
# plain.
demo-vms:
	@$(TESTDIR)/deps.sh
	@$(TESTDIR)/record.sh 'make demo-vms' '^sockperf, medians' \
		$(TESTDIR)/stock.sh demo-vms $(MODE)

# The reliability run in the debug VM: the KUnit suites (the bad-input
# table among them), then the long forms of the stress, churn, fault,
# SMC-D load and /dev/ism fuzzing tests, and the summary.
STRESS_ENV := ISM_STRESS_SECS=60,ISM_CHURN_CYCLES=100,ISM_LOAD_SECS=60,ISM_FAULTS_FULL=1,ISM_USER_FUZZ_SECS=60
stress:
	@$(TESTDIR)/deps.sh
	@ISM_APPEND="ism.env=$(STRESS_ENV) ism.e2e_only=stress,churn,faults,smc-load,user-fuzz $(ISM_APPEND)" \
		ISM_E2E_TIMEOUT=$${ISM_E2E_TIMEOUT:-1500} \
		ISM_VM_TIMEOUT=$${ISM_VM_TIMEOUT:-5400} $(TESTDIR)/record.sh \
		'make stress' '^== reliability summary' $(TESTDIR)/vmtest.sh test

# Documentation/ rendered as the kernel's make htmldocs would, into
# build/htmldocs/html; make lint does it too, warnings fatal.
htmldocs:
	@$(TESTDIR)/deps.sh
	@$(TESTDIR)/htmldocs.sh "$$($(TESTDIR)/build-kernel.sh)"

help:
	@echo 'make [KDIR=DIR]         build the modules (and tools) against KDIR'
	@echo '                        (default: $(KDIR))'
	@echo 'make modules_install    install them (INSTALL_MOD_PATH honoured)'
	@echo 'make clean              remove build products and build/'
	@echo 'make deb                ism-dkms and ism-tools (.deb) in build/deb, lintian'
	@echo 'make dkms.conf          regenerate dkms.conf from the Kbuild files'
	@echo 'make check              the test of one VM at a time, builds, lint, and the'
	@echo '                        packages; prints "N passed, N failed"'
	@echo 'make check-s390x        modules cross-built for s390x (W=1, sparse), KUnit'
	@echo '                        suites big-endian in qemu-system-s390x'
	@echo 'make check-deb          make deb, then install, DKMS, boot with SMC-D, upgrade'
	@echo '                        and purge in a Debian 12 root'
	@echo 'make check-vms          make pair (both modes), make trio, then SMC-D between'
	@echo '                        two libvirt guests from our packages'
	@echo '                        (MODE=doorbell or plain: one mode only)'
	@echo 'make lint               W=1 + sparse build, checkpatch, kernel-doc, htmldocs'
	@echo 'make htmldocs           render Documentation/ into build/htmldocs/html'
	@echo 'make kunit [SUITE=S]    KUnit + e2e tests in the debug VM; S: KUnit modules'
	@echo '                        (a glob: ism_lo) or a folder (drivers/ism/lo)'
	@echo 'make vm [SUITE=S]       shell in the debug VM, modules loaded'
	@echo 'make stock              modules and e2e tests on the Debian stock kernel'
	@echo 'make pair [MODE=plain]  two debug VMs on a virtual ISM region, SMC-D between'
	@echo 'make trio               three debug VMs: a paused guest loses its slot, forges tokens'
	@echo 'make demo               sockperf over TCP and SMC-D, ism_lat and ism_bw on the'
	@echo '                        stock kernel, one table'
	@echo 'make demo-vms [MODE=plain]  the same between two stock VMs: virtio-net'
	@echo '                        against SMC-D and ism_lat/ism_bw on a virtual ISM region'
	@echo 'make stress             the reliability run (60 s stress, 100 churn cycles, ...)'
	@echo 'make bench              run ism_bench.ko on the Debian stock kernel in a VM'
	@echo '                        (demo, stress, bench append to ism-results.rst)'
