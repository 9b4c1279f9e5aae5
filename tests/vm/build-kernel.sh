#!/bin/bash
# Build (or reuse) the debug test kernel: Debian's linux-source-6.1, tinyconfig
# plus tests/vm/test-6.1.config. The result lives outside the work tree in
# $TA_CACHE/kernel-<key>/linux (bzImage + a tree external modules build
# against) and is rebuilt only when the fragment or the source version changes.
# Prints the tree's path on stdout.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

dir=$(ta_kernel_dir)
if [ -f "$dir/.done" ]; then
	echo "$dir/linux"
	exit 0
fi
[ -f "$TA_SRC_TARBALL" ] || ta_die "$TA_SRC_TARBALL missing: run 'make deps' (package linux-source-6.1)"

mkdir -p "$TA_CACHE"
tmp=$(mktemp -d "$TA_CACHE/build.XXXXXX")
trap 'rm -rf "$tmp"' EXIT
ta_log "building the test kernel in $dir (takes 5-15 minutes on 2 cores; cached afterwards)"
ta_log "unpacking $TA_SRC_TARBALL"
tar -C "$tmp" -xf "$TA_SRC_TARBALL"
mv "$tmp"/linux-source-6.1 "$tmp/linux"
cd "$tmp/linux"
ta_log "configuring: tinyconfig + $(basename "$TA_FRAGMENT")"
make -s tinyconfig >/dev/null
KCONFIG_CONFIG=.config scripts/kconfig/merge_config.sh -m .config "$TA_FRAGMENT" >config.log 2>&1
make -s olddefconfig >>config.log 2>&1
# Every line of the fragment must have survived olddefconfig.
missing=0
while read -r line; do
	case "$line" in CONFIG_*=*) ;; *) continue ;; esac
	grep -qxF "$line" .config || { ta_log "config: $line did not stick"; missing=1; }
done <"$TA_FRAGMENT"
[ "$missing" = 0 ] || ta_die "the fragment does not apply cleanly (see above)"

jobs=$(nproc)
ta_log "compiling bzImage and modules with -j$jobs (progress every minute)"
(make -j"$jobs" bzImage modules >build.log 2>&1; echo $? >build.rc) &
pid=$!
start=$SECONDS
while kill -0 "$pid" 2>/dev/null; do
	sleep 60 &
	wait $! || true
	kill -0 "$pid" 2>/dev/null || break
	ta_log "  still compiling ($(( (SECONDS - start) / 60 )) min, $(grep -c '^  CC' build.log || true) files compiled)"
done
wait "$pid" || true
if [ "$(cat build.rc)" != 0 ]; then
	tail -40 build.log >&2
	ta_die "test kernel build failed"
fi
make -j"$jobs" modules_prepare >>build.log 2>&1 || ta_die "modules_prepare failed"
ta_log "test kernel built in $(( (SECONDS - start) / 60 )) min"
rm -rf "$dir"
mv "$tmp" "$dir"
trap - EXIT
touch "$dir/.done"
echo "$dir/linux"
