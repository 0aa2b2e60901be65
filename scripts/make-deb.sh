#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
#
# make-deb.sh [OUTDIR]: build the Debian source package and ism-dkms and
# ism-tools from a copy of this tree (git's files, or all but build/), so
# that the checkout stays as it is, then run lintian over them: any error
# or warning not overridden in debian/ fails. The packages, the .dsc and
# the .changes go to OUTDIR (default build/deb), which is emptied first:
# it must not exist or be one this script made. The paths of the .debs
# are printed. ISM_DEB_VERSION=V builds version V instead of
# debian/changelog's (the install test's previous version), and
# ISM_DEB_LINTIAN=0 skips lintian (its second build of the same files).
set -eu
cd "$(dirname "$0")/.."
out=$(realpath -m "${1:-build/deb}")
ver=$(dpkg-parsechangelog -SVersion)
want=${ISM_DEB_VERSION:-$ver}

if ! dpkg-checkbuilddeps; then
	echo "make-deb: install the build dependencies above (apt-get build-dep ./)" >&2
	exit 1
fi
if [ "${ISM_DEB_LINTIAN:-1}" != 0 ] && ! command -v lintian >/dev/null; then
	echo "make-deb: lintian is not installed (apt-get install lintian, or ISM_DEB_LINTIAN=0)" >&2
	exit 1
fi
if [ -e "$out" ] && [ ! -e "$out/.make-deb" ]; then
	echo "make-deb: $out exists and is not make-deb's output: not emptying it" >&2
	exit 1
fi
rm -rf --one-file-system "$out"
src=$out/src/ism-$want
mkdir -p "$src"
touch "$out/.make-deb"
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
	# Files deleted but not yet committed are listed too: skipped.
	git ls-files -co --exclude-standard -z |
		tar --null --ignore-failed-read -T - -cf - | tar -C "$src" -xf -
else
	tar --exclude=./build --exclude-vcs -cf - . | tar -C "$src" -xf -
fi
[ "$want" = "$ver" ] || sed -i "1s/(.*)/($want)/" "$src/debian/changelog"

echo "make-deb: dpkg-buildpackage in $src (log: $out/build.log)" >&2
if ! (cd "$src" && dpkg-buildpackage -us -uc) >"$out/build.log" 2>&1; then
	tail -n 40 "$out/build.log" >&2
	echo "make-deb: dpkg-buildpackage failed (log: $out/build.log)" >&2
	exit 1
fi
mv "$out"/src/ism*_* "$out"/src/libism*_* "$out"/
rm -rf "$out/src"

changes=$(ls "$out"/ism_"$want"_*.changes)
if [ "${ISM_DEB_LINTIAN:-1}" = 0 ]; then
	ls "$out"/*.deb
	exit 0
fi
echo "make-deb: lintian $changes" >&2
if ! lintian --fail-on error,warning --info --display-info "$changes" >&2; then
	echo "make-deb: lintian found errors or warnings (above)" >&2
	exit 1
fi
ls "$out"/*.deb
