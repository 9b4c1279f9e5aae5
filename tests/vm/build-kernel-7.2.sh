#!/bin/bash
# Build (or reuse) the 7.2 debug test kernel: Debian's linux-source-7.2
# (fetched through the private apt configuration, lib.sh), tinyconfig plus
# tests/vm/test-7.2.config: the x86 debug kernel's configuration with the
# dmem cgroup. The result lives outside the work tree in
# $TA_CACHE/kernel72-<key>/linux (bzImage + a tree external modules build
# against) and is rebuilt only when the fragment, this script or the
# package version changes. Prints the tree's path on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$(ta_kernel72_dir) || exit 1
if [ -f "$dir/.done" ]; then
	echo "$dir/linux"
	exit 0
fi
tarball=$(ta_k72_source) || exit 1

mkdir -p "$TA_CACHE"
tmp=$(mktemp -d "$TA_CACHE/build72.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
ta_log "building the 7.2 test kernel ($(ta_k72_version)) in $dir (cached afterwards)"
tar -C "$tmp" -xf "$tarball"
mv "$tmp"/linux-source-7.2 "$tmp/linux"
cd "$tmp/linux"
{
	make -s tinyconfig &&
		KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "$TA_FRAGMENT_72" &&
		make -s olddefconfig
} >config.log 2>&1 || { tail -20 config.log >&2; ta_die "cannot configure the 7.2 test kernel"; }
ta_config_check "$TA_FRAGMENT_72"
jobs=$(nproc)
ta_log "compiling the 7.2 bzImage and modules with -j$jobs (progress every minute)"
ta_make_logged "7.2 test kernel" -j"$jobs" bzImage modules
make -j"$jobs" modules_prepare >>build.log 2>&1 || ta_die "7.2 modules_prepare failed"
ta_log "7.2 test kernel built in $(( (SECONDS - start) / 60 )) min"
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/linux" "$dir/linux"
rmdir "$tmp"
trap - EXIT
touch "$dir/.done"
echo "$dir/linux"
