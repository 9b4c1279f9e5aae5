#!/bin/bash
# Build (or reuse) the arm64 debug test kernel: Debian's linux-source-6.12,
# 'make ARCH=arm64 tinyconfig' plus tests/vm/arm64-test-6.12.config, cross
# compiled. The result lives outside the work tree in
# $TA_CACHE/arm64-kernel-<key>/linux (arch/arm64/boot/Image, a Module.symvers
# and a tree external modules build against) and is rebuilt only when the
# fragment, this script or the source version changes. Prints the tree's
# path on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$(ta_arm64_kernel_dir)
if [ -f "$dir/.done" ]; then
	echo "$dir/linux"
	exit 0
fi
[ -f "$TA_SRC_TARBALL_612" ] || ta_die "$TA_SRC_TARBALL_612 missing: run 'make deps' (package linux-source-6.12)"
command -v "${TA_ARM64_CROSS}gcc" >/dev/null ||
	ta_die "no ${TA_ARM64_CROSS}gcc: run 'make deps' (package gcc-aarch64-linux-gnu)"

mkdir -p "$TA_CACHE"
tmp=$(mktemp -d "$TA_CACHE/build-arm64-kernel.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
start=$SECONDS
ta_log "building the arm64 test kernel in $dir (cached afterwards)"
tar -C "$tmp" -xf "$TA_SRC_TARBALL_612"
mv "$tmp"/linux-source-6.12 "$tmp/linux"
cd "$tmp/linux"
make() { command make ARCH=arm64 CROSS_COMPILE="$TA_ARM64_CROSS" "$@"; }
{
	make -s tinyconfig &&
		KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "$TA_ARM64_TEST_FRAGMENT" &&
		make -s olddefconfig
} >config.log 2>&1 || { tail -20 config.log >&2; ta_die "cannot configure the arm64 test kernel"; }
ta_config_check "$TA_ARM64_TEST_FRAGMENT"
jobs=$(nproc)
ta_log "compiling Image and modules with -j$jobs (progress every minute)"
ta_make_logged "arm64 test kernel" -j"$jobs" Image modules
make -j"$jobs" modules_prepare >>build.log 2>&1 || ta_die "arm64 modules_prepare failed"
ta_log "arm64 test kernel built in $(( (SECONDS - start) / 60 )) min"
rm -rf "$dir"
mkdir -p "$dir"
mv "$tmp/linux" "$dir/linux"
rmdir "$tmp"
trap - EXIT
touch "$dir/.done"
echo "$dir/linux"
