#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# accel-test.sh: test accel.sh's choice of accelerator, and what
# run-vm.sh makes of it, against a fake qemu-system-x86_64 on PATH, so
# that every branch runs whatever KVM this machine has. The fake QEMU
# records its arguments and then boots (prints the probe's marker),
# hangs, or fails as QEMU does without KVM, as FAKE_QEMU says. Prints
# KTAP-like lines; exits 1 if any case failed.
set -u
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/bin"
cat >"$tmp/bin/qemu-system-x86_64" <<'EOF'
#!/bin/sh
echo "$*" >"$FAKE_QEMU_ARGS"
case $FAKE_QEMU in
boots) echo "[    0.9] ism-test: done" ;;
hangs) exec sleep 60 ;;
stalls) echo "[    0.0] Linux version"; exec sleep 60 ;;
fails) echo "qemu-system-x86_64: failed to initialize kvm: Operation not supported" >&2; exit 1 ;;
esac
EOF
chmod +x "$tmp/bin/qemu-system-x86_64"
: >"$tmp/kvm"
: >"$tmp/vmlinuz"

export PATH="$tmp/bin:$PATH" ISM_BUILD="$tmp/build" FAKE_QEMU_ARGS="$tmp/args"
export ISM_KVM_DEV="$tmp/kvm" ISM_PROBE_KERNEL="$tmp/vmlinuz" ISM_KVM_PROBE_TIMEOUT=2
unset ISM_ACCEL_CHOSEN ISM_QEMU_ACCEL ISM_QEMU_CPU
n=0 failed=0
# run_as: a command prefix for the case below; empty: this user
run_as=

# case DESCRIPTION FAKE_QEMU STATUS VERDICT REASON-REGEX [NAME=VALUE...]:
# run accel.sh with the environment given; it must exit with STATUS,
# print VERDICT (empty: nothing) and a reason matching REASON-REGEX, and
# end well before the fake QEMU's 60 s sleep: the probe's limit and
# 20 s for the initramfs and a loaded machine (CI runs builds beside).
case_() {
	what=$1 fake=$2 status=$3 verdict=$4 reason=$5
	shift 5
	n=$((n + 1))
	rm -f "$tmp/args"
	t0=$(date +%s)
	# shellcheck disable=SC2086
	out=$(env FAKE_QEMU="$fake" "$@" $run_as "$ISM_TESTDIR/accel.sh" 2>"$tmp/err")
	rc=$?
	took=$(($(date +%s) - t0))
	if [ $rc -eq "$status" ] && [ "$out" = "$verdict" ] &&
	   grep -Eq "$reason" "$tmp/err" && [ $took -le $((ISM_KVM_PROBE_TIMEOUT + 20)) ]; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		echo "# exit $rc (want $status), printed '$out' (want '$verdict'), $took s:"
		sed 's/^/# /' "$tmp/err"
		failed=$((failed + 1))
	fi
}

# check DESCRIPTION COMMAND...: one more case, passed if COMMAND is.
check() {
	n=$((n + 1))
	what=$1
	shift
	if "$@"; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		failed=$((failed + 1))
	fi
}

case_ "KVM that boots the probe is chosen" boots 0 kvm \
	"^accel: kvm: probe booted vmlinuz in [0-9]+ s$"
check "the probe ran under KVM with -cpu host, in probe mode" \
	grep -q 'accel=kvm -cpu host .*ism.accel=kvm ism.mode=probe' "$tmp/args"
case_ "forced KVM that boots the probe is chosen" boots 0 kvm \
	"^accel: kvm: probe booted" ISM_QEMU_ACCEL=kvm
case_ "a probe that hangs falls back to TCG at the probe's limit" hangs 0 tcg \
	"^accel: tcg: .* present but the probe guest printed nothing in 2 s$"
case_ "a probe silent for ISM_KVM_PROBE_QUIET s is stopped then" hangs 0 tcg \
	"^accel: tcg: .* present but the probe guest printed nothing in 1 s$" \
	ISM_KVM_PROBE_QUIET=1 ISM_KVM_PROBE_TIMEOUT=60
case_ "a probe that printed, then hung, runs to the limit" stalls 0 tcg \
	"did not boot to its marker in 4 s \(last line: '.*Linux version'" \
	ISM_KVM_PROBE_QUIET=2 ISM_KVM_PROBE_TIMEOUT=4
case_ "forced KVM whose probe hangs is an error, not a hung VM" hangs 1 "" \
	"^accel: ISM_QEMU_ACCEL=kvm cannot be honoured: .* printed nothing in 2 s$" ISM_QEMU_ACCEL=kvm
case_ "QEMU refusing KVM falls back to TCG, saying why" fails 0 tcg \
	"QEMU failed under KVM \(last line: '.*failed to initialize kvm"
case_ "no KVM device: TCG, and QEMU is not started" boots 0 tcg \
	"^accel: tcg: no $tmp/nokvm$" ISM_KVM_DEV="$tmp/nokvm"
check "no probe ran without a KVM device" test ! -e "$tmp/args"
# A device the user may not open; root opens any file, so as root the
# case runs as nobody (the temporary directory must let nobody in).
chmod 755 "$tmp"
: >"$tmp/kvm-locked"
chmod 000 "$tmp/kvm-locked"
[ "$(id -u)" = 0 ] && run_as="setpriv --reuid=65534 --regid=65534 --clear-groups"
case_ "a KVM device the user cannot open: TCG, and QEMU is not started" boots 0 tcg \
	"^accel: tcg: $tmp/kvm-locked is not readable and writable by [a-z]+$" \
	ISM_KVM_DEV="$tmp/kvm-locked"
run_as=
check "no probe ran with an unusable KVM device" test ! -e "$tmp/args"
case_ "no kernel to probe with: TCG" boots 0 tcg \
	"no kernel to probe KVM with" ISM_PROBE_KERNEL="$tmp/none"
case_ "forced TCG: no probe" boots 0 tcg \
	"^accel: tcg: forced by ISM_QEMU_ACCEL=tcg$" ISM_QEMU_ACCEL=tcg
check "no probe ran with TCG forced" test ! -e "$tmp/args"
case_ "forced KVM without a KVM device is an error" boots 1 "" \
	"^accel: ISM_QEMU_ACCEL=kvm cannot be honoured: no " ISM_QEMU_ACCEL=kvm ISM_KVM_DEV="$tmp/nokvm"
case_ "an unknown ISM_QEMU_ACCEL is an error" boots 1 "" \
	"must be kvm or tcg, not 'hvf'" ISM_QEMU_ACCEL=hvf

# run-vm.sh under a verdict already made: no second probe, the CPU
# model that goes with the accelerator, and the guest told which.
run_vm() {
	rm -f "$tmp/args"
	env FAKE_QEMU=boots "$@" "$ISM_TESTDIR/run-vm.sh" "$tmp/vmlinuz" \
		"$tmp/initrd" "$tmp/log" ism.mode=test 2>/dev/null
}
check "run-vm under TCG: -cpu max, qboot, ism.accel=tcg" eval \
	"run_vm ISM_ACCEL_CHOSEN=tcg && grep -q 'accel=tcg -cpu max .*-bios qboot.rom .*ism.accel=tcg ism.mode=test' '$tmp/args'"
check "run-vm reuses a KVM verdict without probing again" eval \
	"run_vm ISM_ACCEL_CHOSEN=kvm ISM_KVM_DEV=$tmp/nokvm && grep -q 'accel=kvm -cpu host .*ism.mode=test' '$tmp/args'"
check "run-vm decides again when ISM_QEMU_ACCEL contradicts the verdict" eval \
	"run_vm ISM_ACCEL_CHOSEN=kvm ISM_QEMU_ACCEL=tcg && grep -q 'accel=tcg -cpu max ' '$tmp/args'"
check "run-vm decides again on a verdict that is neither kvm nor tcg" eval \
	"run_vm ISM_ACCEL_CHOSEN=hvf ISM_KVM_DEV=$tmp/nokvm && grep -q 'accel=tcg -cpu max ' '$tmp/args'"
check "ISM_QEMU_CPU overrides the CPU model" eval \
	"run_vm ISM_ACCEL_CHOSEN=kvm ISM_QEMU_CPU=qemu64 && grep -q -- '-cpu qemu64 ' '$tmp/args'"

echo "# $n cases, $failed failed"
[ $failed -eq 0 ]
