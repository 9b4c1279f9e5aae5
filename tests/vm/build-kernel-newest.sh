#!/bin/bash
# Build (or reuse) the debug test kernel on the newest kernel Debian carries
# (TA_NEWEST_VERSION: linux-source-7.3, fetched through the private apt
# configuration, lib.sh), tinyconfig plus tests/vm/test-newest.config: the
# x86 debug kernel's configuration with the dmem cgroup. The result lives
# outside the work tree in $TA_CACHE/newest-kernel-<key>/linux (bzImage + a
# tree external modules build against) and is rebuilt only when the
# fragment, this script or the package version changes. Prints the tree's
# path on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$(ta_newest_kernel_dir) || exit 1
if [ -f "$dir/.done" ]; then
	echo "$dir/linux"
	exit 0
fi
tarball=$(ta_newest_source) || exit 1
series=$(ta_newest_series)

start=$SECONDS
ta_log "building the $series test kernel ($(ta_newest_version)) in $dir (cached afterwards)"
ta_tree_unpack "$tarball" "linux-source-$series"
cd "$TA_TREE_TMP/linux"
{
	make -s tinyconfig &&
		KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "$TA_FRAGMENT_NEWEST" &&
		make -s olddefconfig
} >config.log 2>&1 || { tail -20 config.log >&2; ta_die "cannot configure the $series test kernel"; }
ta_config_check "$TA_FRAGMENT_NEWEST"
jobs=$(nproc)
ta_log "compiling the $series bzImage and modules with -j$jobs (progress every minute)"
ta_make_logged "$series test kernel" -j"$jobs" bzImage modules
make -j"$jobs" modules_prepare >>build.log 2>&1 || ta_die "$series modules_prepare failed"
ta_log "$series test kernel built in $(( (SECONDS - start) / 60 )) min"
ta_tree_keep "$dir"
