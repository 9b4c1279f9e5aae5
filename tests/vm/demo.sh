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
# The reference NPU runs the models on the kernel's plans.
ko=$(ta_build_npu_sim "$kdir" "$TA_ROOT/build/test-npu" "$TA_ROOT/build/test/Module.symvers")
cp "$ko" "$out/payload/ta_npu_sim.ko"
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" -I"$TA_ROOT/tests/npu-sim" \
	-o "$out/payload/ta_e2e_npu" "$TA_ROOT/tests/e2e/ta_e2e_npu.c" \
	"$TA_ROOT/userspace/libtensorarena.a" $TA_STATIC_LIBS 2>/dev/null
cp "$TA_ROOT/tests/e2e/vm-tests.sh" "$out/payload/tests/"
mkdir -p "$out/payload/traces" "$out/payload/models"
cp "$TA_SHARED/bench/traces/real/resnet50.csv" \
	"$TA_SHARED/bench/traces/synthetic/cnn_5.cap79043.csv" "$out/payload/traces/"
cp "$TA_SHARED/models/person_detect_mobilenetv1_i8.tflite" \
	"$TA_SHARED/models/mobilenet_v2_1.0_224_u8.tflite" "$out/payload/models/"
ta_initramfs "$out/demo.cpio.gz" "$out/payload"
ta_log "booting the test kernel under TCG (about a minute)"
ta_boot "$kdir/arch/x86/boot/bzImage" "$out/demo.cpio.gz" "$out/console.log" demo 600
# Show what the VM printed between its begin and end markers: userspace
# output, and of the kernel's own lines only tensorarena's.
sed -n '/TA-VM: begin/,/TA-VM: end/p' "$out/console.log" | tr -d '\r' |
	awk '/TA-PLAN-CSV-BEGIN/ { skip = 1 } !skip && (!/^\[ *[0-9]+\.[0-9]+\]/ || /tensorarena/) { print } /TA-PLAN-CSV-END/ { skip = 0 }'
grep -q 'TA-VM: end' "$out/console.log" || ta_die "the VM did not finish; see $out/console.log"

# Draw the plans the kernel made, from the tables the VM printed.
echo
tr -d '\r' <"$out/console.log" | awk -v dir="$out" '
	/TA-PLAN-CSV-BEGIN/ { file = dir "/" $2 ".plan.csv"; printf "" >file; next }
	/TA-PLAN-CSV-END/ { close(file); file = ""; next }
	file != "" { print >file }'
for csv in "$out"/*.plan.csv; do
	[ -s "$csv" ] || continue
	"$TA_ROOT/userspace/bin/tactl" draw "$csv" --svg "${csv%.plan.csv}.svg"
done
# ResNet-50 is too tall for the demo arena: draw the same planner's plan
# made on the host.
"$TA_ROOT/userspace/bin/tactl" plan --offline "$TA_SHARED/bench/traces/real/resnet50.csv" \
	-o "$out/resnet50.offline.plan.csv" --svg "$out/resnet50.offline.svg" >/dev/null &&
	echo "$out/resnet50.offline.svg: ResNet-50 planned on the host (tactl plan --offline)"
echo "Open the SVG files above in a browser: time runs left to right, addresses up."
