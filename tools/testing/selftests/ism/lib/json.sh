# SPDX-License-Identifier: GPL-2.0
#
# JSON in the selftests: jq checks a document and flattens it to one
# PATH=VALUE line per value, PATH being the keys and array indexes joined
# with '/' ("0/stats/moves=100"); strings unescaped, empty arrays and
# objects read [] and {}. (jq 1.6 reads numbers as doubles: ismctl prints
# 64-bit values such as tokens and GIDs as strings.) Sourced.

# json_flat FILE: FILE holds valid JSON; its flat form goes to FILE.flat.
json_flat() {
	# One walk carrying the path: jq 1.6's paths() with a getpath() per
	# leaf took 13 s for a 3000-DMB dump in the debug VM under TCG.
	jq -r 'def flat($p):
		if (type == "array" or type == "object") and length > 0 then
			keys_unsorted[] as $k | .[$k] | flat("\($p)\($k)/")
		else
			"\($p[:-1])=\(if type == "string" then . else tojson end)"
		end;
		flat("")' <"$1" >"$1.flat" 2>"$1.err" && return 0
	cat "$1.err" "$1"
	return 1
}

# jget FLAT PATH: the value at PATH (empty if none)
jget() {
	sed -n "s|^$2=||p" "$1"
}

# jidx FLAT KEY VALUE: index of the first top-level element whose KEY is
# VALUE (empty if none)
jidx() {
	sed -n "s|^\([0-9]*\)/$2=$3\$|\1|p" "$1" | head -n 1
}

# jcount FLAT KEY: number of top-level elements that have KEY
jcount() {
	grep -c "^[0-9]*/$2=" "$1"
}

# jvalues FLAT KEY: the values of KEY of all top-level elements, sorted
jvalues() {
	sed -n "s|^[0-9]*/$2=||p" "$1" | sort
}
