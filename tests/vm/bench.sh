#!/bin/bash
# Transport benchmark (part of make bench): boot Debian's stock kernel under
# TCG, load the module built against its headers, and measure plans per
# second per transport against offline planning in the same VM, plus mmap
# write bandwidth. TCG makes absolute numbers slow; the ratios are the point.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$TA_ROOT/build/bench-vm
rm -rf "$out"
mkdir -p "$out/payload/tests" "$out/payload/traces"
abi=$(ta_stock_abi)
make -s -C "$TA_ROOT/userspace" all "$TA_ROOT/userspace/bin/tactl.static"
ko=$(ta_build_module "/usr/src/linux-headers-$abi" "$TA_ROOT/build/stock")
cp "$ko" "$out/payload/tensorarena.ko"
gcc -O2 -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" \
	-o "$out/payload/ta_e2e_lib" "$TA_ROOT/tests/e2e/ta_e2e_lib.c" \
	"$TA_ROOT/userspace/libtensorarena-internal.a" $TA_STATIC_LIBS
gcc -O2 -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" \
	-o "$out/payload/ta_e2e_worst" "$TA_ROOT/tests/e2e/ta_e2e_worst.c" \
	"$TA_ROOT/userspace/libtensorarena-internal.a" $TA_STATIC_LIBS
cp "$TA_SHARED/bench/traces/real/S_1.csv" "$out/payload/traces/"
cp "$TA_ROOT/tests/e2e/vm-tests.sh" "$out/payload/tests/"
ta_initramfs "$out/bench.cpio.gz" "$out/payload"
ta_log "booting Debian's stock kernel $abi for the transport benchmark"
ta_boot "$(ta_stock_kernel "$abi")" "$out/bench.cpio.gz" "$out/console.log" bench 900
grep -E '^(# bench|bench: )' "$out/console.log" || ta_die "no benchmark output; see $out/console.log"
