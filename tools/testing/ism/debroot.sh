#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# debroot.sh: a Debian 12 (bookworm) amd64 root to install our packages
# into, chroot into and boot, for the package tests. Sourced after
# lib.sh, not run; needs root (debootstrap, mount, chroot). Functions
# print progress on stderr, results on stdout.
#
# debroot_base
#	Print the path of a cached minbase root holding Debian's stock
#	kernel (linux-image-amd64, with an initrd that mounts a virtio-blk
#	ext4 root) and its headers, dkms with gcc and make, sockperf,
#	iproute2, openssl, procps. Built on first use under
#	${ISM_CACHE:-$HOME/.cache/ism}, a copy of the one cached
#	debootstrap --variant=minbase (from the mirror the host's apt uses,
#	ISM_DEBIAN_MIRROR and ISM_DEBIAN_SECURITY override it), keyed by
#	the host's linux-image-amd64 version, so that the root's kernel is
#	the host's, and by a hash of the package list and _DEBROOT_REV,
#	which is bumped when the root's tweaks change. Never write to it:
#	overlay it.
# debroot_tools PKGS [FROM]
#	Print the path of a cached copy of the same minbase, or of the
#	tools root FROM, with the packages PKGS installed as deps.sh
#	installs them, and nothing else (deps-root.sh), keyed by a hash of
#	PKGS, FROM and the host's linux-headers-amd64 version (the headers'
#	paths, which the builds' programs are in, name their ABI). Read it
#	only.
# Every root keeps in ROOT/.ism-programs the programs its build ran on
# the host (exectrace.sh), and registers it with programs_used (lib.sh)
# whenever it is used: a run's check that deps.sh installs them all
# sees them also when the root comes from the cache.
# debroot_kver ROOT [SERIES]
#	Print the newest kernel version in ROOT/boot of SERIES, by default
#	the first series the modules build for (6.1, the kernel debootstrap
#	installs), whatever other kernels a test installed there. Inside
#	the chroot uname -r is the host's: give dkms and the like
#	-k "$(debroot_kver R)".
# debroot_overlay BASE WORKDIR
#	Mount an overlay with BASE as its read-only lower dir and
#	WORKDIR/upper, WORKDIR/work at WORKDIR/root; print WORKDIR/root.
# debroot_chroot ROOT CMD [ARG...]
#	Run CMD in ROOT with proc, sys, dev and dev/pts mounted (they stay
#	mounted for the next call), a clean environment (PATH, HOME=/root,
#	LC_ALL=C.UTF-8, DEBIAN_FRONTEND=noninteractive) and a policy-rc.d
#	that keeps maintainer scripts from starting services; return CMD's
#	status. The host's resolv.conf is copied in, for apt.
# debroot_boot ROOT LOG [TIMEOUT [KVER [KERNEL-ARG...]]]
#	Make ROOT's image $(dirname ROOT)/disk.img (debroot_image) and boot
#	ROOT's kernel KVER (default: debroot_kver ROOT) and its initrd on it
#	under QEMU (qemu_accel's
#	accelerator), serial console to LOG, root on virtio-blk /dev/vda,
#	through run-vm.sh. Returns 0 if the guest powered itself off, 1 on
#	any other end: killed after TIMEOUT seconds (default
#	ISM_VM_TIMEOUT, else 600), a panic, QEMU failing. What the guest wrote stays in
#	the image (debugfs -R 'cat /path' IMAGE reads it back).
# debroot_image ROOT IMAGE
#	Unmount what debroot_chroot mounted, remove its policy-rc.d and
#	copy ROOT into IMAGE, a new sparse ext4 file system with room for
#	what a guest writes (the root file system debroot_boot boots).
# debroot_cleanup WORKDIR
#	Unmount everything at or below WORKDIR/root, innermost first,
#	whatever state a failed run left; returns 1 if anything is still
#	mounted there. rm -rf WORKDIR only after it succeeded: a /dev
#	still bind-mounted would go with it.
#
# The boot contract: nothing in the root runs a test by itself. The
# caller installs and enables (debroot_chroot ROOT systemctl enable)
# a oneshot unit that runs its test, prints to the console and powers
# the guest off whatever the outcome, for instance
#	[Unit]
#	SuccessAction=poweroff
#	FailureAction=poweroff
#	[Service]
#	Type=oneshot
#	ExecStart=/usr/local/bin/the-test
#	StandardOutput=journal+console
#	StandardError=journal+console
#	[Install]
#	WantedBy=multi-user.target
# and judges the run by what LOG says. A guest that does not power off
# is killed at TIMEOUT. The root boots to multi-user.target with no
# getty, timers or network waits; the kernel is Debian's, so smc and
# the other stock modules are there.
#
# Typical use:
#	w=$(mktemp -d) && trap 'debroot_cleanup "$w" && rm -rf --one-file-system "$w"' EXIT
#	b=$(debroot_base) && r=$(debroot_overlay "$b" "$w") || exit 1
#	cp pkg.deb "$r/tmp/" && debroot_chroot "$r" apt-get install -y /tmp/pkg.deb
#	debroot_boot "$r" "$w/console.log"

# Bumped whenever what debroot_base does to the root changes, so that
# the cached roots are rebuilt.
_DEBROOT_REV=2
_DEBROOT_SUITE=bookworm
# initramfs-tools comes with linux-image-amd64; dkms pulls gcc and make.
_DEBROOT_PKGS="systemd-sysv udev kmod linux-image-amd64 linux-headers-amd64
dkms sockperf iproute2 openssl procps"
# The units a headless, network-less test boot has no use for: gettys
# on the console (it is the test's), timers, the network waits.
_DEBROOT_MASK="getty.target console-getty.service serial-getty@ttyS0.service
apt-daily.timer apt-daily-upgrade.timer dpkg-db-backup.timer
e2scrub_all.timer fstrim.timer systemd-networkd-wait-online.service"
_DEBROOT_PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin

# Root's PATH may lack the sbin directories (debootstrap, mkfs.ext4).
case :$PATH: in
*:/usr/sbin:*) ;;
*) PATH=$PATH:/usr/sbin:/sbin ;;
esac

# _debroot_mirror SUITE: the first http(s) URI the host's apt gets
# SUITE's main component from, one-line or deb822 sources.
_debroot_mirror() {
	set -- "$1" /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
		/etc/apt/sources.list.d/*.sources
	_dr_want=$1
	shift
	for _dr_f; do
		[ -f "$_dr_f" ] && set -- "$@" "$_dr_f"
		shift
	done
	[ $# -gt 0 ] || return 0
	awk -v want="$_dr_want" '
	function has(list, word) { return (" " list " ") ~ (" " word " ") }
	function flush(  n, u, i) {
		if (!done && has(types, "deb") && tolower(enabled) != "no" &&
		    has(suites, want) && has(comps, "main")) {
			n = split(uris, u, " ")
			for (i = 1; i <= n; i++)
				if (u[i] ~ /^https?:\/\//) {
					print u[i]
					done = 1
					break
				}
		}
		types = suites = uris = comps = enabled = key = ""
	}
	FNR == 1 { flush() }
	/^[ \t]*#/ { next }
	/^[ \t]*$/ { flush(); next }
	$1 == "deb" {
		i = 2
		if ($i ~ /^\[/) {
			while ($i !~ /\]$/ && i < NF)
				i++
			i++
		}
		if (!done && $i ~ /^https?:\/\// && $(i + 1) == want)
			for (j = i + 2; j <= NF; j++)
				if ($j == "main") {
					print $i
					done = 1
				}
		next
	}
	/^[ \t]/ { v = $0 }
	/^[A-Za-z-]+:/ { key = tolower($1); v = $0; sub(/^[^:]*:/, "", v) }
	key == "types:" { types = types " " v }
	key == "uris:" { uris = uris " " v }
	key == "suites:" { suites = suites " " v }
	key == "components:" { comps = comps " " v }
	key == "enabled:" { enabled = v; gsub(/[ \t]/, "", enabled) }
	END { flush() }
	' "$@"
}

# _debroot_mounts DIR: the mount points at or below DIR, innermost
# (latest mounted) first. Paths with blanks are not supported.
_debroot_mounts() {
	# /proc/self/mounts has resolved absolute paths.
	_dr_d=$(realpath -m "$1") || return 1
	awk -v d="$_dr_d" '$2 == d || index($2, d "/") == 1 { m[n++] = $2 }
		END { while (n > 0) print m[--n] }' /proc/self/mounts
}

# _debroot_umount DIR [below]: unmount what is mounted at or (with
# "below") strictly below DIR; lazily if busy, as a process a package
# left running in the chroot would keep it so. Fails if any remains.
_debroot_umount() {
	for _dr_m in $(_debroot_mounts "$1"); do
		[ "${2:-}" = below ] && [ "$_dr_m" = "$1" ] && continue
		umount "$_dr_m" 2>/dev/null || umount -l "$_dr_m" ||
			log "debroot: cannot unmount $_dr_m"
	done
	for _dr_m in $(_debroot_mounts "$1"); do
		[ "${2:-}" = below ] && [ "$_dr_m" = "$1" ] && continue
		log "debroot: $_dr_m still mounted"
		return 1
	done
}

debroot_kver() {
	for _dr_k in "$1"/boot/vmlinuz-"${2:-${ISM_KERNEL_SERIES%% *}}".*; do
		[ -f "$_dr_k" ] && echo "${_dr_k##*/vmlinuz-}"
	done | kernel_newest
}

debroot_chroot() {
	_dr_root=$1
	shift
	for _dr_m in proc sys dev dev/pts; do
		mountpoint -q "$_dr_root/$_dr_m" && continue
		case $_dr_m in
		proc) mount -t proc proc "$_dr_root/proc" ;;
		sys) mount -t sysfs sysfs "$_dr_root/sys" ;;
		*) mount --bind "/$_dr_m" "$_dr_root/$_dr_m" ;;
		esac || { log "debroot: cannot mount $_dr_root/$_dr_m"; return 1; }
	done
	# invoke-rc.d asks policy-rc.d; 101 is "action forbidden".
	if [ ! -x "$_dr_root/usr/sbin/policy-rc.d" ]; then
		printf '#!/bin/sh\nexit 101\n' >"$_dr_root/usr/sbin/policy-rc.d" &&
			chmod 755 "$_dr_root/usr/sbin/policy-rc.d" || return 1
	fi
	# Not through a symlink: it would resolve on the host.
	[ -L "$_dr_root/etc/resolv.conf" ] ||
		cp -L /etc/resolv.conf "$_dr_root/etc/resolv.conf" 2>/dev/null
	env -i PATH="$_DEBROOT_PATH" HOME=/root TERM="${TERM:-dumb}" \
		LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive \
		DEBCONF_NONINTERACTIVE_SEEN=true \
		${http_proxy:+http_proxy="$http_proxy"} \
		${https_proxy:+https_proxy="$https_proxy"} \
		chroot "$_dr_root" "$@"
}

debroot_overlay() {
	_dr_root=$2/root
	mkdir -p "$2/upper" "$2/work" "$_dr_root" || return 1
	if ! mountpoint -q "$_dr_root"; then
		mount -t overlay overlay \
			-o "lowerdir=$1,upperdir=$2/upper,workdir=$2/work" \
			"$_dr_root" || return 1
	fi
	echo "$_dr_root"
}

debroot_cleanup() {
	_debroot_umount "$1/root"
}

# _debroot_discard DIR: remove a partial root, unless something is
# still mounted in it.
_debroot_discard() {
	[ -e "$1" ] || return 0
	_debroot_umount "$1" && rm -rf --one-file-system "$1"
}

# _debroot_cached DIR: DIR is a finished root whose build was traced, or
# else it is discarded
_debroot_cached() {
	[ -f "$1/.debroot-ok" ] && [ -f "$1/.ism-programs" ] && return 0
	[ ! -e "$1" ] || _debroot_discard "$1"
	return 1
}

# _debroot_start ROOT: begin a build of ROOT (a subshell of the caller,
# which holds ROOT.lock on fd 9): its temporary directory in tmp, the
# garbage of a build that died removed, the programs it runs recorded
# (exectrace.sh), its log in blog. Returns 1 if ROOT was built while
# this waited for the lock.
_debroot_start() {
	flock 9 || exit 1
	_debroot_cached "$1" && return 1
	for _dr_t in "$1".tmp.*; do
		_debroot_discard "$_dr_t" || exit 1
	done
	tmp=$1.tmp.$$
	blog=$1.log
	: >"$blog"
	trap 'build_programs_drop "$tmp"; _debroot_discard "$tmp"' EXIT
	trap 'exit 130' INT TERM HUP
	mypid
	build_programs_begin "$tmp" "$mypid" || exit 1
}

# _debroot_fail WHAT: the build failed in WHAT; the end of its log
_debroot_fail() {
	log "debroot: $1 failed; the last lines of $blog:"
	tail -n 30 "$blog" >&2
	exit 1
}

# _debroot_finish ROOT [BASE]: the build in tmp done: the programs it
# ran kept in ROOT/.ism-programs, with those that made BASE, the root it
# was copied from; tmp renamed ROOT
_debroot_finish() {
	rm -f "$tmp/usr/sbin/policy-rc.d"
	_debroot_umount "$tmp" || exit 1
	build_programs_keep "$tmp" ${2:+"$2"} || exit 1
	touch "$tmp/.debroot-ok" || exit 1
	_debroot_discard "$1" || exit 1
	mv -T "$tmp" "$1" || exit 1
	trap - EXIT
}

# _debroot_minbase: print the path of the cached debootstrap of the
# minbase variant, with the archive's suites in its sources (the
# host's mirrors), compressed package indexes and no fsync per file:
# what every other root starts from, as a copy.
_debroot_minbase() {
	_dr_mb=${ISM_CACHE:-$HOME/.cache/ism}/debroot-$_DEBROOT_SUITE-minbase-$_DEBROOT_REV
	if ! _debroot_cached "$_dr_mb"; then
		mkdir -p "$(dirname "$_dr_mb")" &&
			_debroot_build_minbase "$_dr_mb" 9>"$_dr_mb.lock" || return 1
	fi
	programs_used "$_dr_mb/.ism-programs"
	echo "$_dr_mb"
}

_debroot_build_minbase() (
	_debroot_start "$1" || exit 0
	mirror=${ISM_DEBIAN_MIRROR:-$(_debroot_mirror $_DEBROOT_SUITE)}
	mirror=${mirror:-http://deb.debian.org/debian}
	security=${ISM_DEBIAN_SECURITY:-$(_debroot_mirror $_DEBROOT_SUITE-security)}
	security=${security:-http://deb.debian.org/debian-security}
	t0=$(date +%s)
	log "debroot: debootstrap of $_DEBROOT_SUITE from $mirror in $1 (log: $blog)"
	nice -n 10 debootstrap --variant=minbase --arch=amd64 --components=main \
		$_DEBROOT_SUITE "$tmp" "$mirror" >>"$blog" 2>&1 || _debroot_fail debootstrap

	# The suites the host's kernel comes from, updates and security
	# included, so that linux-image-amd64 resolves to the same version.
	rm -f "$tmp/etc/apt/sources.list"
	keyring=/usr/share/keyrings/debian-archive-keyring.gpg
	cat >"$tmp/etc/apt/sources.list.d/debian.sources" <<-EOF || exit 1
	Types: deb
	URIs: $mirror
	Suites: $_DEBROOT_SUITE $_DEBROOT_SUITE-updates
	Components: main
	Signed-By: $keyring

	Types: deb
	URIs: $security
	Suites: $_DEBROOT_SUITE-security
	Components: main
	Signed-By: $keyring
	EOF
	# Compressed indexes: apt can resolve a package's missing
	# dependencies without an apt-get update, for a few MB. Not
	# debootstrap's index, kept uncompressed (50 MB) by apt-get update.
	rm -rf "$tmp"/var/lib/apt/lists/*
	cat >"$tmp/etc/apt/apt.conf.d/90debroot" <<-EOF || exit 1
	Acquire::GzipIndexes "true";
	Acquire::Languages "none";
	APT::Install-Recommends "false";
	EOF
	# No fsync per file: a test root is rebuilt, not recovered.
	echo force-unsafe-io >"$tmp/etc/dpkg/dpkg.cfg.d/90debroot" || exit 1
	_debroot_finish "$1"
	children_cpu "$1.times"
	log "debroot: $_DEBROOT_SUITE minbase in $(($(date +%s) - t0)) s, $children_cpu CPU s"
)

# _debroot_build ROOT KIND PKGS [FROM]: ROOT, a copy of the minbase (or
# of the root FROM) with PKGS installed with apt; KIND boot: set up to
# boot (debroot_base), tools: as it is (debroot_tools). A subshell, for
# its traps; callers serialise on ROOT.lock, held on fd 9.
_debroot_build() (
	base=$1 kind=$2 pkgs=$3
	minbase=${4:-$(_debroot_minbase)} || exit 1
	_debroot_start "$base" || exit 0
	t0=$(date +%s)
	log "debroot: building a $_DEBROOT_SUITE root ($kind) in $base (log: $blog)"
	cp -a "$minbase" "$tmp" && rm -f "$tmp/.debroot-ok" "$tmp/.ism-programs" || exit 1
	if [ "$kind" = boot ]; then
		# MODULES=most has them; named, so the initrd is sure to find the
		# boot disk whatever initramfs.conf says. Ours, over the package's
		# conffile: hence --force-confold.
		mkdir -p "$tmp/etc/initramfs-tools" &&
			printf '%s\n' virtio_pci virtio_blk ext4 \
				>"$tmp/etc/initramfs-tools/modules" || exit 1
		# A headless boot from the virtio disk; fstab before the kernel,
		# whose initrd takes the root's fsck from it.
		echo "/dev/vda / ext4 rw 0 1" >"$tmp/etc/fstab" &&
		echo debroot >"$tmp/etc/hostname" &&
		printf '127.0.0.1\tlocalhost\n127.0.1.1\tdebroot\n' >"$tmp/etc/hosts" ||
			exit 1
	fi

	# A tools root boots nothing: no initrd for its kernel package
	# (the kernel's initramfs-tools hook skips it with INITRD=No).
	initrd=
	[ "$kind" = boot ] || initrd=INITRD=No
	# shellcheck disable=SC2086 # a list of package names
	{
		debroot_chroot "$tmp" apt-get update &&
		debroot_chroot "$tmp" apt-get -y upgrade &&
		debroot_chroot "$tmp" env $initrd nice -n 10 apt-get install -y \
			--no-install-recommends \
			-o Dpkg::Options::=--force-confdef \
			-o Dpkg::Options::=--force-confold $pkgs
	} >>"$blog" 2>&1 || _debroot_fail "apt-get install"
	log "debroot: installing the packages took $(($(date +%s) - t0)) s"

	if [ "$kind" = boot ]; then
		# shellcheck disable=SC2086 # a list of unit names
		{
			debroot_chroot "$tmp" systemctl set-default multi-user.target &&
			debroot_chroot "$tmp" systemctl mask $_DEBROOT_MASK
		} >>"$blog" 2>&1 || _debroot_fail "setting up the root"

		kver=$(debroot_kver "$tmp") || _debroot_fail "finding the kernel"
		[ -f "$tmp/boot/initrd.img-$kver" ] || _debroot_fail "the initrd for $kver"
		debroot_chroot "$tmp" test -f "/lib/modules/$kver/build/Makefile" ||
			_debroot_fail "the headers for $kver"
		mods=$(debroot_chroot "$tmp" lsinitramfs "/boot/initrd.img-$kver") ||
			_debroot_fail lsinitramfs
		for m in virtio_blk ext4; do
			echo "$mods" | grep -q "/$m\.ko" || _debroot_fail "$m in the initrd"
		done
		host=$(stock_version "${ISM_KERNEL_SERIES%% *}") || host=
		[ "$host" = "$kver" ] ||
			log "debroot: warning: the root has kernel $kver, the host ${host:-none}; upgrade the host"
	fi
	debroot_chroot "$tmp" apt-get clean >>"$blog" 2>&1 || _debroot_fail "apt-get clean"
	_debroot_finish "$base" "$minbase"
	children_cpu "$base.times"
	log "debroot: $kind root, $(du -sxh "$base" | cut -f1), built in $(($(date +%s) - t0)) s, $children_cpu CPU s"
)

debroot_base() {
	_dr_cache=${ISM_CACHE:-$HOME/.cache/ism}
	# The host's kernel version in the key: when it moves, the root
	# follows it.
	_dr_hk=$(dpkg-query -W -f='${Version}' linux-image-amd64 2>/dev/null)
	_dr_hash=$(printf '%s\n' "$_DEBROOT_REV" "$_DEBROOT_PKGS" "$_DEBROOT_MASK" |
		sha256sum | cut -c1-12)
	_dr_base=$_dr_cache/debroot-$_DEBROOT_SUITE-${_dr_hk:-none}-$_dr_hash
	if ! _debroot_cached "$_dr_base"; then
		mkdir -p "$_dr_cache" || return 1
		_debroot_build "$_dr_base" boot "$_DEBROOT_PKGS" 9>"$_dr_base.lock" ||
			return 1
	fi
	programs_used "$_dr_base/.ism-programs"
	echo "$_dr_base"
}

debroot_tools() {
	_dr_cache=${ISM_CACHE:-$HOME/.cache/ism}
	_dr_hash=$({
		printf '%s\n' "$_DEBROOT_REV" $1 | sort
		echo "${2:-}"
		dpkg-query -W -f '${Version}\n' linux-headers-amd64 2>/dev/null
	} | sha256sum | cut -c1-12)
	_dr_base=$_dr_cache/debroot-$_DEBROOT_SUITE-tools-$_dr_hash
	if ! _debroot_cached "$_dr_base"; then
		mkdir -p "$_dr_cache" || return 1
		_debroot_build "$_dr_base" tools "$1" ${2:+"$2"} 9>"$_dr_base.lock" ||
			return 1
	fi
	programs_used "$_dr_base/.ism-programs"
	echo "$_dr_base"
}

debroot_image() {
	# Services may start in the guest; proc and the others would be
	# copied into the image.
	rm -f "$1/usr/sbin/policy-rc.d"
	_debroot_umount "$1" below || return 1
	# Room for what the test writes; inodes for more than the root's
	# files, which are many and small (headers).
	_dr_kb=$(du -sxk "$1" | cut -f1)
	_dr_files=$(find "$1" -xdev | wc -l)
	rm -f "$2"
	if ! truncate -s "$((_dr_kb + _dr_kb / 4 + 524288))K" "$2" ||
		! mkfs.ext4 -q -F -L debroot -N "$((_dr_files * 2))" -d "$1" "$2"; then
		log "debroot: making $2 from $1 failed"
		return 1
	fi
}

debroot_boot() {
	_dr_root=$1
	_dr_log=$2
	_dr_limit=${3:-${ISM_VM_TIMEOUT:-600}}
	_dr_kv=${4:-}
	shift 2
	[ $# -gt 0 ] && shift
	[ $# -gt 0 ] && shift
	_dr_img=$(dirname "$_dr_root")/disk.img
	[ -n "$_dr_kv" ] || _dr_kv=$(debroot_kver "$_dr_root") || {
		log "debroot: no kernel in $_dr_root/boot"
		return 1
	}
	qemu_accel || return 1
	_dr_t0=$(date +%s)
	debroot_image "$_dr_root" "$_dr_img" || return 1
	_dr_t1=$(date +%s)

	# run-vm.sh boots it, with its timeout and accelerator; the disk comes
	# through ISM_QEMU_ARGS. fsck.mode=skip: the image is new. The status
	# lines uncoloured, for grep.
	ISM_VM_TIMEOUT=$_dr_limit ISM_VM_MEM=2048 \
		ISM_QEMU_ARGS="-drive file=$_dr_img,format=raw,if=virtio,cache=unsafe ${ISM_QEMU_ARGS:-}" \
		"$ISM_TESTDIR/run-vm.sh" "$_dr_root/boot/vmlinuz-$_dr_kv" \
		"$_dr_root/boot/initrd.img-$_dr_kv" "$_dr_log" root=/dev/vda rw \
		fsck.mode=skip systemd.show_status=1 systemd.log_color=0 \
		mitigations=off "$@" || return 1
	log "debroot: image made in $((_dr_t1 - _dr_t0)) s"
	if ! grep -q 'reboot: Power down' "$_dr_log"; then
		log "debroot: the guest stopped without powering off (log: $_dr_log)"
		return 1
	fi
}
