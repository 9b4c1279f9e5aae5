#!/bin/bash
# Prepare (or reuse) an arm64 tree to build the module against: Debian's
# linux-source-6.1, 'make ARCH=arm64 defconfig' plus tests/vm/arm64-6.1.config
# (the device-tree memory-region path: OF_RESERVED_MEM, DMA_CMA), then
# modules_prepare. No kernel image is built: the tree is for a W=1 build of
# tensorarena.ko with the cross compiler, where the code that needs
# CONFIG_OF_RESERVED_MEM (absent on x86) compiles for real. The result lives
# in $TA_CACHE/arm64-<key>/linux, keyed like the test kernel by the fragment,
# this script and the source package version. Prints the tree's path;
# exports.txt in it lists the symbols its sources export.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$(ta_arm64_dir)
if [ -f "$dir/.done" ]; then
	echo "$dir/linux"
	exit 0
fi
[ -f "$TA_SRC_TARBALL" ] || ta_die "$TA_SRC_TARBALL missing: run 'make deps' (package linux-source-6.1)"
command -v "${TA_ARM64_CROSS}gcc" >/dev/null ||
	ta_die "no ${TA_ARM64_CROSS}gcc: run 'make deps' (package gcc-aarch64-linux-gnu)"

start=$SECONDS
ta_log "preparing an arm64 tree in $dir (under a minute on an idle machine; cached afterwards)"
ta_tree_unpack "$TA_SRC_TARBALL" linux-source-6.1
cd "$TA_TREE_TMP/linux"
make() { command make ARCH=arm64 CROSS_COMPILE="$TA_ARM64_CROSS" "$@"; }
{
	make -s defconfig &&
		KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "$TA_ARM64_FRAGMENT" &&
		make -s olddefconfig
} >config.log 2>&1 || { tail -20 config.log >&2; ta_die "cannot configure the arm64 tree"; }
ta_config_check "$TA_ARM64_FRAGMENT"
make -j"$(nproc)" modules_prepare >build.log 2>&1 || { tail -20 build.log >&2; ta_die "arm64 modules_prepare failed"; }
# Without a vmlinux there is no Module.symvers: what the tree exports, as its
# sources say, for tests/arm64-build.sh to check the module's symbols.
grep -rhoE --include='*.[chS]' 'EXPORT_SYMBOL(_GPL)?(_NS)?(_GPL)?\(\s*[A-Za-z0-9_]+' . |
	sed -E 's/.*\(\s*//' | sort -u >exports.txt
ta_log "arm64 tree prepared in $((SECONDS - start)) s"
ta_tree_keep "$dir"
