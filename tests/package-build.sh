#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# make deb: the Debian packages, built by dpkg-buildpackage -b -us -uc from a
# clean copy of the tree (the files git tracks, plus new ones not ignored,
# as they are in the work tree), so no build product of the work tree leaks
# in. The .debs, .buildinfo and .changes land in OUTDIR (default build/deb).
# usage: package-build.sh [OUTDIR]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=${1:-$root/build/deb}
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$root/dkms.conf")
src=$out/src/tensorarena-$version

if ! (cd "$root" && dpkg-checkbuilddeps) >&2; then
	echo "package-build.sh: missing build dependencies (make deps installs them)" >&2
	exit 1
fi
rm -rf "$out"
mkdir -p "$src"
(cd "$root" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
	tar --null -T - -cf -) | tar -C "$src" -xf -
(cd "$src" && dpkg-buildpackage -b -us -uc) >"$out/build.log" 2>&1 || {
	tail -30 "$out/build.log" >&2
	echo "package-build.sh: dpkg-buildpackage failed (build/deb/build.log)" >&2
	exit 1
}
mv "$out"/src/*.deb "$out"/src/*.changes "$out"/src/*.buildinfo "$out/"
ls "$out"/*.deb
