#!/bin/bash
# The test VM alone, for a developer: the debug kernel (built once,
# cached), the test payload (the module plain and with its KUnit suites,
# the reference NPU driver, the e2e programs, tactl), one boot under TCG
# with KASAN, lockdep, UBSAN and kmemleak, and the verdict of
# tests/results.py over its console (the KUnit suites of tests/kunit/suites
# must all run). make check runs the same boot in its test lane; this is
# that lane without lint and the in-tree build (about 8 minutes warm; the
# same --min figure as run-all.sh gives the test VM, TA_VM_TEST_MIN).
# usage: tests/vm/test-vm.sh [--mode tiers] [OUT]   (OUT: build/test-vm)
#   --mode tiers   boot for the tier phase of vm-tests.sh alone (issue 29:
#                  the fast tier, tactl plan --sram, the NPU on tiered
#                  plans), a few minutes; no KUnit, no minimum count
set -euo pipefail
. "$(dirname "$0")/lib.sh"

mode=test
if [ "${1:-}" = --mode ]; then
	mode=$2
	shift 2
fi
out=$(realpath -m "${1:-$TA_ROOT/build/test-vm}")
rm -rf "$out"
mkdir -p "$out"
kdir=$("$TA_ROOT/tests/vm/build-kernel-newest.sh")
make -s -C "$TA_ROOT/userspace" all "$TA_ROOT/userspace/bin/tactl.static" >"$out/steps.log" 2>&1 ||
	ta_die "userspace build failed (see $out/steps.log)"
ta_log "test-vm: payload"
"$TA_ROOT/tests/vm/payload.sh" x86_64 "$kdir" "$out/payload" "$out/steps.log"
ta_initramfs "$out/test.cpio.gz" "$out/payload"
ta_log "test-vm: booting the test kernel ($(ta_newest_series), TCG)"
TA_HOSTROOT=1 ta_boot "$kdir/arch/x86/boot/bzImage" "$out/test.cpio.gz" "$out/console.log" "$mode" 2100
if [ "$mode" != test ]; then
	python3 "$TA_ROOT/tests/results.py" --console "$mode-vm=$out/console.log" \
		--min "$mode-vm=1"
	exit
fi
python3 "$TA_ROOT/tests/results.py" --console "test-vm=$out/console.log" \
	--suites "test-vm=$TA_ROOT/tests/kunit/suites" --min test-vm="${TA_VM_TEST_MIN:-945}"
