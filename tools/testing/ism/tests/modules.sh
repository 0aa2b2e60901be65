#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# e2e: our modules load with ism-load, show up in /proc/modules, and
# unload again with ism-unload. Also the example of the e2e convention
# (see README.md): KTAP-like "ok N what" / "not ok N what" lines, exit 0
# on success, 4 to skip, anything else on failure.
n=0
rc=0
check() {
	what=$1
	shift
	n=$((n + 1))
	if "$@"; then
		echo "ok $n $what"
	else
		echo "not ok $n $what"
		rc=1
	fi
}

check "ism-load" ism-load
check "ism_core is loaded" grep -q '^ism_core ' /proc/modules
check "ism_lo is loaded" grep -q '^ism_lo ' /proc/modules
check "ism-unload" ism-unload
check "ism_core is gone" sh -c "! grep -q '^ism_core ' /proc/modules"
exit $rc
