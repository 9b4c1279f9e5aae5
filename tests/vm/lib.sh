# shellcheck shell=bash
# Shared paths and helpers for the tensorarena test harness.
# Sourced by the scripts in tests/vm/; not meant to be run.

TA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TA_CACHE=${TA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tensorarena}
TA_FRAGMENT=$TA_ROOT/tests/vm/test-6.1.config
TA_SRC_TARBALL=/usr/src/linux-source-6.1.tar.xz
# Debian's stock kernel used for the "kernel users run" smoke test.
TA_STOCK_ABI=${TA_STOCK_ABI:-}

ta_log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
ta_die() { ta_log "error: $*"; exit 1; }

# The test kernel's cache key: the fragment, this script's build recipe and
# the exact source package version.
ta_kernel_key() {
	local ver
	ver=$(dpkg-query -W -f='${Version}' linux-source-6.1 2>/dev/null || echo none)
	{ echo "$ver"; cat "$TA_FRAGMENT" "$TA_ROOT/tests/vm/build-kernel.sh"; } |
		sha256sum | cut -c1-16
}

ta_kernel_dir() { echo "$TA_CACHE/kernel-$(ta_kernel_key)"; }
