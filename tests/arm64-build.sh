#!/bin/bash
# tensorarena.ko cross-built for arm64, where CONFIG_OF_RESERVED_MEM is set
# and the device-tree memory-region path compiles for real (on x86 it meets
# the header's stubs). One TAP line per check.
# usage: arm64-build.sh [--tap] [KDIR]  (KDIR: Debian's x86 6.1 headers,
# whose Module.symvers lists what 6.1 exports; default: the stock 6.1
# kernel's, /usr/src/linux-headers-ABI)
#
# The arm64 tree is only configured and prepared (tests/vm/build-arm64.sh):
# it has no vmlinux, hence no Module.symvers, and modpost can only warn that
# every symbol is unresolved. So the build is checked for compiler warnings
# (W=1), and each symbol the module needs must be exported, by the x86
# build or by an EXPORT_SYMBOL in the arm64 tree's sources.
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

[ "${1:-}" = --tap ] && shift
kdir=${1:-/usr/src/linux-headers-$(ta_stock_abi 6.1)}
cross=(ARCH=arm64 CROSS_COMPILE="$TA_ARM64_CROSS")
log=$TA_ROOT/build/arm64.log
mkdir -p "$TA_ROOT/build"
: >"$log"

start=$SECONDS
if ! a64=$("$TA_ROOT/tests/vm/build-arm64.sh" 2>>"$log"); then
	echo "not ok - arm64 tree prepared (defconfig, OF_RESERVED_MEM, DMA_CMA)"
	tail -5 "$log" | sed 's/^/# /'
	exit 0
fi
echo "ok - arm64 tree prepared (defconfig, OF_RESERVED_MEM, DMA_CMA)"
echo "# arm64 tree ready in $((SECONDS - start)) s: $a64"

symbols_exported() { # symbols_exported KO: every undefined symbol is exported
	local missing
	missing=$("${TA_ARM64_CROSS}nm" -u "$1" | awk '{ print $2 }' | sort -u |
		comm -23 - <(sort -u "$a64/exports.txt" <(cut -f2 "$kdir/Module.symvers")))
	[ -z "$missing" ] || { echo "$missing" | sed 's/^/# not exported: /'; return 1; }
}

if ko=$(ta_build_module "$a64" "$TA_ROOT/build/arm64" "${cross[@]}" 2>>"$log"); then
	echo "ok - module builds for arm64 W=1, no warnings"
	# (nm's whole output first: grep -q would end the pipe early, and
	# pipefail would count nm's SIGPIPE.)
	undefined=$("${TA_ARM64_CROSS}nm" -u "$ko")
	if grep -qw of_reserved_mem_device_init_by_idx <<<"$undefined"; then
		echo "ok - arm64 module reserves its region with of_reserved_mem_device_init_by_idx()"
	else
		echo "not ok - arm64 module reserves its region with of_reserved_mem_device_init_by_idx()"
	fi
	if out=$(symbols_exported "$ko"); then
		echo "ok - arm64 module needs only exported symbols"
	else
		echo "not ok - arm64 module needs only exported symbols"
		echo "$out"
	fi
else
	echo "not ok - module builds for arm64 W=1, no warnings"
	tail -5 "$log" | sed 's/^/# /'
fi

# The KUnit build for arm64 is the arm64 board's (tests/vm/payload.sh,
# against the 6.12 debug kernel, whose Module.symvers modpost checks).

# The reference NPU driver, as an out-of-tree NPU driver builds against
# tensorarena: KBUILD_EXTRA_SYMBOLS=<the arm64 module's Module.symvers>.
if ko=$(ta_build_npu_sim "$a64" "$TA_ROOT/build/arm64-npu" "$TA_ROOT/build/arm64/Module.symvers" \
	"${cross[@]}" 2>>"$log"); then
	echo "ok - reference NPU driver builds for arm64 W=1, no warnings"
else
	echo "not ok - reference NPU driver builds for arm64 W=1, no warnings"
	tail -5 "$log" | sed 's/^/# /'
fi
