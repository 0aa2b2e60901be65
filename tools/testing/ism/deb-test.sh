#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# deb-test.sh: the packages as a Debian 12 user gets them (make
# check-deb; .ci/run runs it after make check). Checks that dkms.conf
# is what the Kbuild files say (and that a stale one is caught), builds
# ism-dkms, ism-tools, libism0 and libism-dev (make deb, lintian clean;
# the example built against libism-dev's files) and, from the same
# tree, a previous version (VERSION~prev), then in a Debian 12 root made
# for the test (debroot.sh: debootstrap from Debian's archive, with the
# current 6.1.0-*-amd64 kernel, its headers and DKMS; cached, used
# through an overlay so that it stays pristine):
#  1. installs the previous version with apt, as the README says: DKMS
#     builds the modules for the root's kernel and signs them with its
#     own key (ism-mok check);
#  2. configures a test Machine Owner Key (ism-mok use, after its
#     refusals of bad input): the modules signed before fail ism-mok
#     check, re-signed (ism-mok resign) pass;
#  3. upgrades to this version: DKMS drops the old version's tree and
#     builds the new one, signed with the configured key; the
#     administrator's /etc/default/ism survives;
#  4. installs Debian 12's 6.12 kernel and headers (the last series of
#     scripts/kernel-series) with apt: the package's kernel hook builds
#     the modules for it with DKMS, all but the SMC-D bridge, which 6.1's
#     build keeps; a kernel of no series we build for is refused with a
#     message by the hook and by make;
#  5. boots the root's 6.1 kernel in QEMU with systemd: ism.service
#     (enabled for the test) loads the DKMS-built modules and sets the
#     UEID, and deb-guest.sh runs sockperf through smc_run and checks
#     that the connections are SMC-D; /dev/ism/ismlo0 has the udev
#     rule's group and mode, and its group's member runs ism_lat; a
#     virtual ISM region's unit (ism-ivshmem-server@debtest, enabled for
#     the test) serves its socket with the configured owner and mode;
#     then boots the 6.12 kernel: ism.service loads what DKMS built for
#     it, says it left the bridge out and succeeds, and the rest as on
#     6.1;
#  6. purges the packages: no file of theirs, no DKMS tree, no module
#     or module-load entry, no unit link is left (compared with the
#     root before step 1).
set -u
. "$(dirname "$0")/lib.sh"
. "$ISM_TESTDIR/debroot.sh"
ISM_RESULTS=${ISM_RESULTS_DEB:-$ISM_BUILD/results-deb}
export ISM_RESULTS
# shellcheck disable=SC2034 # read by step and summary (lib.sh)
start=$(date +%s)
out=$ISM_BUILD/deb-test
UEID=ISM-DEBTEST
mkdir -p "$ISM_BUILD"
: >"$ISM_RESULTS"
# A run killed midway may have left its root mounted: rm -rf would go
# through a bind-mounted /dev.
debroot_cleanup "$out/root" || exit 1
rm -rf --one-file-system "$out"
mkdir -p "$out"
# Every program this run executes: deps.sh must install them all.
programs_begin "$out/programs"

# inroot CMD...: CMD in the test root
inroot() {
	debroot_chroot "$root" "$@"
}

step "packages"
check "deps: Debian packages installed" "$ISM_TESTDIR/deps.sh" deb || summary
programs_root deb

step "dkms.conf from the Kbuild files"
# dkms_conf_drift: in a copy of what gen-dkms-conf.sh reads, --check
# passes on the committed dkms.conf, fails once a module is dropped from
# it, and regenerating restores the committed file.
dkms_conf_drift() {
	_t=$out/dkms-conf
	# shellcheck disable=SC2046 # our Kbuild paths have no blanks
	mkdir -p "$_t" &&
		(cd "$ISM_SRC" && tar -cf - Kbuild dkms.conf scripts \
			$(find net drivers -name Kbuild)) | tar -C "$_t" -xf - || return 1
	"$_t/scripts/gen-dkms-conf.sh" --check || return 1
	sed -i '/ism_lo/d' "$_t/dkms.conf"
	if "$_t/scripts/gen-dkms-conf.sh" --check; then
		echo "--check passed a dkms.conf without ism_lo"
		return 1
	fi
	"$_t/scripts/gen-dkms-conf.sh" && cmp "$_t/dkms.conf" "$ISM_SRC/dkms.conf"
}
check "deb: dkms.conf is what the Kbuild files say; a stale one is caught" dkms_conf_drift

step "make deb: ism-dkms, ism-tools, libism0, libism-dev, lintian"
ver=$(cd "$ISM_SRC" && dpkg-parsechangelog -SVersion)
prev=$ver~prev
check "deb: make deb ($ver), lintian: no error or warning" \
	"$ISM_SRC/scripts/make-deb.sh" "$out/new" || summary
check "deb: the previous version ($prev), same tree" \
	env ISM_DEB_VERSION="$prev" ISM_DEB_LINTIAN=0 \
	"$ISM_SRC/scripts/make-deb.sh" "$out/prev" || summary

step "Debian 12 root"
if ! base=$(debroot_base); then
	result fail "debroot: a Debian 12 root (debootstrap)"
	summary
fi
trap 'debroot_cleanup "$out/root"' EXIT
trap 'exit 130' INT TERM HUP
if ! root=$(debroot_overlay "$base" "$out/root"); then
	result fail "debroot: the test's overlay on $base"
	summary
fi
kver=$(debroot_kver "$root") || { result fail "debroot: a kernel in $root/boot"; summary; }
# The kernels DKMS builds for (dkms_is): the root's; later also kver2,
# Debian 12's kernel of the last series (6.12).
kvers=$kver kver2=
last=${ISM_KERNEL_SERIES##* }
log "deb-test: root $root, kernel $kver"

# snapshot FILE: the paths of the root's files, without the state any
# package installation changes (dpkg's and apt's, logs, temporary
# files), the test's own files (in /root, debroot_chroot's policy-rc.d),
# and DKMS's signing key, which DKMS makes at its first build for every
# DKMS package to come and is not any package's to remove.
snapshot() {
	(cd "$root" && find . -xdev \( -path ./proc -o -path ./sys -o -path ./dev \
		-o -path ./run -o -path ./tmp -o -path ./var/tmp -o -path ./root \
		-o -path ./var/lib/dpkg -o -path ./var/lib/apt -o -path ./var/cache \
		-o -path ./var/log \) -prune -o ! -path './var/lib/dkms/mok.*' \
		! -path ./usr/sbin/policy-rc.d -print) | sort >"$1"
}
snapshot "$out/before"

# The test's key: a self-signed certificate as an administrator's MOK;
# and another key, not its.
openssl req -new -x509 -nodes -days 30 -subj "/CN=ism deb-test MOK" \
	-newkey rsa:2048 -keyout "$root/root/mok.key" -outform DER \
	-out "$root/root/mok.der" >"$out/openssl.log" 2>&1 &&
	openssl genpkey -algorithm RSA -out "$root/root/other.key" >>"$out/openssl.log" 2>&1 ||
	{ cat "$out/openssl.log" >&2; result fail "deb: a test MOK (openssl)"; summary; }

mkdir -p "$root/tmp/debs"
arch=$(dpkg --print-architecture)
cp "$out"/prev/ism-dkms_*.deb "$out"/prev/ism-tools_*.deb \
	"$out"/prev/libism0_*.deb "$out"/new/ism-dkms_*.deb \
	"$out"/new/ism-tools_*.deb "$out"/new/libism0_*.deb "$root/tmp/debs/"
# ism-tools' programs ism_lat and ism_bw need libism0.
debs() {
	echo "/tmp/debs/ism-dkms_$1_all.deb /tmp/debs/ism-tools_$1_$arch.deb /tmp/debs/libism0_$1_$arch.deb"
}

# dkms_is VERSION: DKMS has exactly VERSION of ism, installed for each of
# $kvers, and the modules modprobe finds for each are that build's.
dkms_is() {
	st=$(inroot dkms status -m ism | sort)
	echo "dkms status: $st"
	[ "$st" = "$(for k in $kvers; do
		echo "ism/$1, $k, x86_64: installed"
	done | sort)" ] || return 1
	[ "$(echo "$root"/usr/src/ism-*)" = "$root/usr/src/ism-$1" ] || return 1
	# Besides the version, DKMS keeps kernel-* links to it.
	for d in "$root"/var/lib/dkms/ism/*; do
		case ${d##*/} in
		"$1" | kernel-*) ;;
		*) echo "left in /var/lib/dkms/ism: ${d##*/}"; return 1 ;;
		esac
	done
	[ -d "$root/var/lib/dkms/ism/$1" ] || return 1
	# 6.12's modules are compressed (.ko.xz), as the kernel's own.
	for k in $kvers; do
		for b in "$root/var/lib/dkms/ism/$1/$k"/x86_64/module/*.ko*; do
			n=${b##*/}
			n=${n%%.ko*}
			p=$(inroot modinfo -k "$k" -n "$n") || return 1
			echo "$k $n: $p"
			cmp "$b" "$root$p" || return 1
		done
	done
}

# built_for KVER: the names of the modules installed for KVER by DKMS
built_for() {
	for _m in "$root/lib/modules/$1/updates/dkms"/*.ko*; do
		[ -e "$_m" ] || continue
		_m=${_m##*/}
		echo "${_m%%.ko*}"
	done | sort
}

step "install $prev with apt: DKMS builds and signs the modules"
# shellcheck disable=SC2046 # two paths
check "deb: apt install ./ism-dkms ./ism-tools ($prev)" \
	inroot apt-get install -y --no-install-recommends $(debs "$prev")
check "deb: DKMS built $prev for $kver, modprobe finds it" dkms_is "$prev"
check "deb: modules signed with DKMS's key (ism-mok check)" inroot ism-mok check "$kver"

step "a Machine Owner Key: ism-mok use, resign, check"
# bad_mok STATUS ARG...: ism-mok ARG... fails with STATUS and a message,
# and writes no DKMS setting.
bad_mok() {
	_want=$1
	shift
	inroot ism-mok "$@" >"$out/mok.log" 2>&1
	_rc=$?
	echo "ism-mok $*: $_rc: $(cat "$out/mok.log")"
	[ $_rc -eq "$_want" ] && [ -s "$out/mok.log" ] &&
		[ ! -e "$root/etc/dkms/framework.conf.d/ism-mok.conf" ]
}
mok_bad_input() {
	bad_mok 1 use mok.key /root/mok.der &&
		bad_mok 1 use /root/mok.key /root/mok.key &&
		bad_mok 1 use /root/other.key /root/mok.der &&
		bad_mok 1 use /root/nosuch.key /root/mok.der &&
		bad_mok 2 use /root/mok.key &&
		bad_mok 2 frob &&
		bad_mok 1 enroll
}
check "deb: ism-mok refuses bad input (relative path, no certificate, another key, no mokutil), writes nothing" \
	mok_bad_input
check "deb: ism-mok use KEY CERT" inroot ism-mok use /root/mok.key /root/mok.der
if inroot ism-mok check "$kver" >"$out/check.log" 2>&1; then
	cat "$out/check.log" >&2
	result fail "deb: ism-mok check fails while the modules have the old signature"
else
	result ok "deb: ism-mok check fails while the modules have the old signature"
fi
check "deb: ism-mok resign" inroot ism-mok resign
check "deb: modules signed with the configured key (ism-mok check)" inroot ism-mok check "$kver"

step "upgrade to $ver"
sed -i "s/^ISM_UEID=.*/ISM_UEID=$UEID/" "$root/etc/default/ism"
# shellcheck disable=SC2046 # two paths
check "deb: apt install ./ism-dkms ./ism-tools ($prev -> $ver)" \
	inroot apt-get install -y --no-install-recommends $(debs "$ver")
check "deb: DKMS dropped $prev and built $ver, modprobe finds it" dkms_is "$ver"
check "deb: the upgrade's build signed with the configured key" inroot ism-mok check "$kver"
sig_tail() {
	for m in "$root/lib/modules/$kver"/updates/dkms/ism_*.ko; do
		tail -c 28 "$m" | grep -q '~Module signature appended~' ||
			{ echo "$m: no signature"; return 1; }
		modinfo -F signer "$m" | grep -qx 'ism deb-test MOK' ||
			{ echo "$m: signer $(modinfo -F signer "$m")"; return 1; }
	done
}
check "deb: every installed module ends in a signature by the test MOK" sig_tail
check "deb: the administrator's /etc/default/ism kept" \
	grep -qx "ISM_UEID=$UEID" "$root/etc/default/ism"
# libism-dev as a developer uses it, with this machine's compiler (the
# root has only the kernel's, without libc's headers): the example built
# against the packages' files with the flags pkg-config reads from their
# libism.pc, and linked with libism.so.0; in the root, the group of
# /dev/ism/NAME that ism-tools' postinst made.
libism_dev() {
	_d=$out/libism-dev
	rm -rf "$_d"
	dpkg-deb -x "$out/new/libism-dev_${ver}_$arch.deb" "$_d" &&
		dpkg-deb -x "$out/new/libism0_${ver}_$arch.deb" "$_d" || return 1
	_pc=$(ls "$_d"/usr/lib/*/pkgconfig/libism.pc) || return 1
	_flags=$(PKG_CONFIG_SYSROOT_DIR=$_d PKG_CONFIG_LIBDIR=${_pc%/*} \
		pkg-config --cflags --libs libism) || return 1
	echo "pkg-config --cflags --libs libism: $_flags"
	# shellcheck disable=SC2086 # the flags
	cc -Wall -Werror -o "$_d/ism_hello" "$_d"/usr/share/doc/libism-dev/examples/ism_hello.c \
		$_flags || return 1
	LD_LIBRARY_PATH=${_pc%/pkgconfig/*} ldd "$_d/ism_hello" |
		grep "libism.so.0 => $_d/" || return 1
	inroot getent group ism
}
check "deb: libism-dev: the example builds with pkg-config's flags and links with libism.so.0; group ism exists" \
	libism_dev

step "Debian 12's $last kernel and headers: DKMS builds for both kernels"
# second_kernel: the newest linux-headers-$last.*+deb12-amd64 and its
# image install with apt while ism-dkms is installed: the package's hook
# builds the modules for the new kernel with DKMS (from the headers'
# postinst; the image's comes first and waits for them), apt succeeds and
# leaves no package half-configured, DKMS has both builds, each found by
# modprobe for its kernel and signed with the configured key; the new
# kernel's has every module of 6.1's but the SMC-D bridge, which 6.1's
# has. other: the packages, purged before the root is compared at the
# end.
other=
second_kernel() {
	inroot apt-get update -q >/dev/null || return 1
	_hdr=$(inroot apt-cache pkgnames "linux-headers-$last." |
		grep -- '+deb12-amd64$' | sort -V | tail -n 1)
	[ -n "$_hdr" ] || { echo "no linux-headers-$last.*+deb12-amd64 in the archive"; return 1; }
	kver2=${_hdr#linux-headers-}
	other="$_hdr linux-image-$kver2"
	# shellcheck disable=SC2086 # two package names
	inroot apt-get install -y --no-install-recommends $other >"$out/other.log" 2>&1
	_rc=$?
	grep -i -E 'dkms|ism|error' "$out/other.log"
	[ $_rc -eq 0 ] || { echo "apt-get install $other: exit $_rc"; return 1; }
	grep -q "ism: building ism/$ver for $kver2 with DKMS" "$out/other.log" ||
		{ echo "the hook did not build for $kver2"; return 1; }
	[ -z "$(inroot dpkg --audit)" ] || { inroot dpkg --audit; return 1; }
	kvers="$kver $kver2"
	dkms_is "$ver" || return 1
	echo "built for $kver: $(built_for "$kver" | paste -sd ' ')"
	echo "built for $kver2: $(built_for "$kver2" | paste -sd ' ')"
	built_for "$kver" | grep -qx ism_smcd || return 1
	built_for "$kver" | grep -qx ism_core || return 1
	[ "$(built_for "$kver2")" = "$(built_for "$kver" | grep -vx ism_smcd)" ] ||
		return 1
	inroot ism-mok check "$kver2"
}
check "deb: $last kernel: DKMS builds all but the bridge for it, keeps 6.1's with it; both signed" \
	second_kernel

# no_series: for a kernel of no series we build for (a made-up 6.99
# tree), the kernel hook says it skips it and succeeds, and make in the
# DKMS tree names the series it builds for instead of failing in the
# compiler; nothing is built.
no_series() {
	_k=6.99.0-1-amd64
	inroot /etc/kernel/postinst.d/ism-dkms "$_k" >"$out/no-series.log" 2>&1 ||
		{ cat "$out/no-series.log"; return 1; }
	cat "$out/no-series.log"
	grep -qx "ism: not built for $_k: the modules build for Linux $ISM_KERNEL_SERIES only" \
		"$out/no-series.log" || return 1
	mkdir -p "$root/tmp/k699/include/config" &&
		echo "$_k" >"$root/tmp/k699/include/config/kernel.release" &&
		: >"$root/tmp/k699/Makefile" || return 1
	inroot make -C "/usr/src/ism-$ver" KDIR=/tmp/k699 modules \
		>"$out/no-series-make.log" 2>&1 && { echo "make went on for $_k"; return 1; }
	rm -rf "$root/tmp/k699"
	cat "$out/no-series-make.log"
	grep -q "build for Linux $ISM_KERNEL_SERIES only" "$out/no-series-make.log" &&
		dkms_is "$ver"
}
check "deb: a kernel of no series we build for: the hook and make say so, nothing built" \
	no_series

# new_kernel: what the package's kernel hook does for a 6.1 kernel, as
# when linux-image-6.1.0-N+1 comes: DKMS has no build for it (unbuilt), the
# hook builds and installs them again; run once more, it has nothing to do.
new_kernel() {
	inroot dkms unbuild "ism/$ver" -k "$kver" >/dev/null || return 1
	! dkms_is "$ver" >/dev/null || { echo "dkms unbuild left them installed"; return 1; }
	inroot /etc/kernel/postinst.d/ism-dkms "$kver" >"$out/hook.log" 2>&1 ||
		{ cat "$out/hook.log"; return 1; }
	grep "^ism:" "$out/hook.log"
	dkms_is "$ver" || return 1
	[ -z "$(inroot /etc/kernel/header_postinst.d/ism-dkms "$kver" 2>&1)" ]
}
check "deb: the kernel hook builds the modules for a 6.1 kernel that lacks them" \
	new_kernel

step "boot in QEMU: ism.service; on $kver sockperf through smc_run over SMC-D"
qemu_accel || { result fail "deb: a QEMU accelerator (accel.sh)"; summary; }
# unit BRIDGE: the test's unit, running deb-guest.sh UEID BRIDGE
unit() {
	cat >"$root/etc/systemd/system/ism-debtest.service" <<EOT
[Unit]
Description=ism deb-test: SMC-D smoke test
Wants=ism.service
After=ism.service
SuccessAction=poweroff
FailureAction=poweroff

[Service]
Type=oneshot
ExecStart=/usr/local/sbin/ism-debtest $UEID $1
StandardOutput=journal+console
StandardError=journal+console

[Install]
WantedBy=multi-user.target
EOT
}
unit bridge
install -D -m 755 "$ISM_TESTDIR/deb-guest.sh" "$root/usr/local/sbin/ism-debtest"
install -D -m 644 "$ISM_ROOT/tools/testing/selftests/ism/lib/kernel-reports" \
	"$root/usr/local/share/ism-debtest/kernel-reports"
# A region as an operator configures one for libvirt's QEMU, with a user
# and group that exist in every Debian root.
printf '%s\n' "size = 16M" "user = nobody" "group = nogroup" "perm = 0660" \
	>"$root/etc/ism/regions/debtest.conf"
check "deb: systemctl enable ism ism-debtest ism-ivshmem-server@debtest" \
	inroot systemctl enable ism.service ism-debtest.service \
	ism-ivshmem-server@debtest.service
# boot KVER LOG WHAT: boot KVER, the guest's checks; a result line WHAT
boot() {
	debroot_boot "$root" "$2" "${ISM_DEB_VM_TIMEOUT:-900}" "$1"
	_rc=$?
	sed -n 's/\r$//; s/.*\(ism-debtest: .*\)/\1/p' "$2"
	if [ $_rc -eq 0 ] && grep -q 'ism-debtest: PASS' "$2"; then
		result ok "$3" "$(sed -n 's/\r$//; s/.*ism-debtest: sockperf \([a-z-]*\) over smc_run: /\1 /p' \
			"$2" | paste -sd ,)"
	else
		log "---- console log ($2) ----"
		tail -n 80 "$2" >&2
		result fail "$3" "QEMU exit $_rc; console log $2"
	fi
}
boot "$kver" "$out/vm.log" "deb: boot $kver, ism.service, sockperf via smc_run in SMCD mode"
if [ -n "$kver2" ]; then
	unit nobridge
	boot "$kver2" "$out/vm-$last.log" \
		"deb: boot $kver2, ism.service without the bridge, /dev/ism for group ism"
fi
# The test's units go; ism.service stays enabled, as an administrator
# would leave it before purging.
inroot systemctl disable ism-debtest.service ism-ivshmem-server@debtest.service \
	>/dev/null 2>&1
rm -f "$root/etc/systemd/system/ism-debtest.service" "$root/usr/local/sbin/ism-debtest" \
	"$root/etc/ism/regions/debtest.conf"
rm -rf "$root/usr/local/share/ism-debtest"

step "purge: nothing left behind"
check "deb: apt purge ism-dkms ism-tools libism0" \
	inroot apt-get purge -y ism-dkms ism-tools libism0
# shellcheck disable=SC2086 # two package names
[ -z "$other" ] ||
	check "deb: apt purge $other" inroot apt-get purge -y --auto-remove $other
rm -rf "$root/tmp/debs"
snapshot "$out/after"
check "deb: purge left no file (root compared with before the install)" \
	diff "$out/before" "$out/after"
nothing_left() {
	! inroot dkms status -m ism | grep . &&
		! ls -d "$root"/usr/src/ism-* "$root"/var/lib/dkms/ism 2>/dev/null &&
		! grep 'ism_' "$root/lib/modules/$kver/modules.dep" &&
		! grep -rs 'ism' "$root/etc/modules-load.d" "$root/etc/modules"
}
check "deb: no DKMS tree, module or module-load entry left" nothing_left

step "packages: every program this run executed, in a Debian 12 root with deps.sh's packages alone"
programs_check "$out/programs" \
	"deb: deps.sh installs every program make check-deb ran (a Debian 12 root with its list)"
summary
