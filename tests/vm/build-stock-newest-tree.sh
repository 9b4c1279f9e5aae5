#!/bin/bash
# Prepare (or reuse) a tree to build modules for Debian's stock newest
# kernel (TA_NEWEST_VERSION, lib.sh: 7.3) of ARCH (amd64 or arm64). The
# headers package cannot serve: its kbuild programs (linux-kbuild-7.3) are
# built against trixie's libc, newer than Debian 12's. So the tree is made
# from linux-source-7.3 of the same version: the stock kernel's own
# configuration (linux-base-ABI), its release as CONFIG_LOCALVERSION,
# 'make olddefconfig' with this host's compiler (the options that only say
# what the compiler can do follow it), modules_prepare, and the stock
# kernel's Module.symvers (from linux-headers-ABI). A module built here has
# the stock kernel's vermagic and loads into it. Cached in
# $TA_CACHE/stock-tree-ABI; prints the tree's path.
# usage: build-stock-newest-tree.sh amd64|arm64
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=${1:-amd64}
case "$arch" in
amd64) karch=x86 cross= ;;
arm64) karch=arm64 cross=$TA_ARM64_CROSS ;;
*) ta_die "build-stock-newest-tree.sh: no ARCH $arch (amd64 or arm64)" ;;
esac
abi=$(ta_newest_abi "$arch") || exit 1
dir=$TA_CACHE/stock-tree-$abi-$(sha256sum "$0" | cut -c1-8)
ta_cache_use "$dir"
if [ -f "$dir/.done" ]; then
	echo "$dir/linux"
	exit 0
fi
tarball=$(ta_newest_source) || exit 1
stock=$(ta_newest_stock "$arch") || exit 1
hdeb=$(ta_newest_deb "linux-headers-$abi" "$arch") || exit 1

start=$SECONDS
ta_log "preparing a tree for Debian's stock $abi in $dir (cached afterwards)"
ta_tree_unpack "$tarball" "linux-source-$(ta_newest_series)"
cd "$TA_TREE_TMP/linux"
make() { command make ARCH="$karch" ${cross:+CROSS_COMPILE="$cross"} "$@"; }
cp "$stock/usr/lib/modules/$abi/config" .config
scripts/config --file .config --set-str LOCALVERSION "+${abi#*+}" --disable LOCALVERSION_AUTO
{
	make -s olddefconfig && make -j"$(nproc)" modules_prepare
} >build.log 2>&1 || { tail -20 build.log >&2; ta_die "cannot prepare the tree for $abi"; }
release=$(make -s kernelrelease)
[ "$release" = "$abi" ] || ta_die "the tree's release is $release, not $abi"
dpkg-deb --fsys-tarfile "$hdeb" |
	tar -xO "./usr/src/linux-headers-$abi/Module.symvers" >Module.symvers ||
	ta_die "no Module.symvers in $hdeb"
ta_log "tree for $abi prepared in $((SECONDS - start)) s"
ta_tree_keep "$dir"
