#!/bin/bash
# make demo: build everything, boot the test kernel, load tensorarena and
# show what it does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

out=$TA_ROOT/build/demo
rm -rf "$out"
mkdir -p "$out/payload/tests"
kdir=$("$TA_ROOT/tests/vm/build-kernel.sh")
make -s -C "$TA_ROOT/userspace" all "$TA_ROOT/userspace/bin/tactl.static"
ko=$(ta_build_module "$kdir" "$TA_ROOT/build/test")
cp "$ko" "$out/payload/tensorarena.ko"
cp "$TA_ROOT/userspace/bin/tactl.static" "$out/payload/tactl"
cp "$TA_ROOT/tests/e2e/vm-tests.sh" "$out/payload/tests/"
ta_initramfs "$out/demo.cpio.gz" "$out/payload"
ta_log "booting the test kernel under TCG (about a minute)"
ta_boot "$kdir/arch/x86/boot/bzImage" "$out/demo.cpio.gz" "$out/console.log" demo 600
# Show what the VM printed between its begin and end markers: userspace
# output, and of the kernel's own lines only tensorarena's.
sed -n '/TA-VM: begin/,/TA-VM: end/p' "$out/console.log" |
	awk '!/^\[ *[0-9]+\.[0-9]+\]/ || /tensorarena/'
grep -q 'TA-VM: end' "$out/console.log" || ta_die "the VM did not finish; see $out/console.log"
