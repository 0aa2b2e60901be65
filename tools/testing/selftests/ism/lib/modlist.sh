# SPDX-License-Identifier: GPL-2.0
#
# Which modules ism-load (lib/bin/ism-mod) loads, in which order;
# sourced. One derivation for our test VM's /ism/modules.list
# (tools/testing/ism/modstage.sh, at build time) and for a machine where
# the modules are installed (lib/ktap.sh, lib/bin/ism-mod), so both load
# the same modules the same way. The harness takes the defaults below
# from here (tools/testing/ism/lib.sh); the environment may override them:
# ISM_KMODS  in-tree modules loaded, with their dependencies, before
#            ours: SMC with smc_diag (smc_ss), veth and 802.1Q for the
#            SMC-D tests; those built in or missing are left out;
#            empty, none (a kernel without SMC)
# ISM_NOLOAD our modules loaded only on request: ism_bench (make bench),
#            ism_tclient (ismctl.sh), ism_stress (stress.sh), ism_sample
#            (samples/ism, sample-client.sh), ism_forge (a hostile
#            guest's kernel, pair/ivshm-trio.sh), ism_user (a client
#            of every device, user-api.sh)
ISM_KMODS=${ISM_KMODS-ib_core smc smc_diag veth 8021q}
ISM_NOLOAD=${ISM_NOLOAD:-ism_bench ism_tclient ism_stress ism_sample ism_forge ism_user}

# ism_modlist [ROOT KVER]: one line "NAME PATH" a module, in
# modprobe's dependency order (-D, --show-depends): $ISM_KMODS, ours,
# then our KUnit modules (none with ISM_KUNIT=0), each once. Ours are
# ism_core and every module that depends on it, as do all that import its
# namespace ISM, in the modules.dep of the running kernel, or of the
# kernel KVER installed under ROOT (PATH then below ROOT).
ism_modlist() {
	_root=
	if [ $# -gt 0 ]; then
		_root=$1
		_dep=$1/lib/modules/$2/modules.dep
		set -- -d "$1" -S "$2"
	else
		_dep=/lib/modules/$(uname -r)/modules.dep
	fi
	# Dependencies are paths, with a .ko.xz or .ko.zst suffix if
	# compressed: compare names.
	_ours=$(awk -v kunit="${ISM_KUNIT:-1}" '
		function name(p) { sub(".*/", "", p); sub("[.]ko.*", "", p); return p }
		{ n = name($1); ours = n == "ism_core"
		  for (i = 2; i <= NF && !ours; i++) ours = name($i) == "ism_core"
		  if (!ours) next
		  if (n ~ /_kunit$/) { if (kunit != "0") print 1, n } else print 0, n }' \
		"$_dep" | sort | while read -r _ _n; do
			echo "$_n"
		done)
	# Only -a and -D for the running kernel: our test VM's shell runs
	# busybox's modprobe, without -d, -S and --show-depends. A missing
	# $ISM_KMODS module only makes modprobe complain.
	# shellcheck disable=SC2086 # module names have no blanks
	modprobe "$@" -a -D $ISM_KMODS $_ours 2>/dev/null |
		awk -v root="$_root" '$1 == "insmod" { n = $2; sub(".*/", "", n)
			sub("[.]ko.*", "", n)
			if (!seen[n]++) print n, substr($2, length(root) + 1) }'
}

# ism_modnames: ism_modlist's names only, of the running kernel
ism_modnames() {
	ism_modlist | while read -r _n _; do
		echo "$_n"
	done
}
