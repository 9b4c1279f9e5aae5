#!/bin/bash
# make demo: build everything, boot the test kernel, load tensorarena and
# show what it does.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# usage: demo.sh [x86_64|arm64]   (make demo [ARCH=arm64])
# arm64: the board of make check (qemu -M virt, tests/vm/board/), whose
# device tree binds the arena from a reusable memory-region at 4 GiB.
arch=${1:-x86_64}
case "$arch" in
x86_64 | x86 | amd64) arch=x86_64 ;;
arm64 | aarch64) arch=arm64 ;;
*) ta_die "make demo: no ARCH $arch (x86_64 or arm64)" ;;
esac

out=$TA_ROOT/build/demo
rm -rf "$out"
mkdir -p "$out"
make -s -C "$TA_ROOT/userspace" all
if [ "$arch" = arm64 ]; then
	kdir=$("$TA_ROOT/tests/vm/build-kernel-arm64.sh")
else
	kdir=$("$TA_ROOT/tests/vm/build-kernel.sh")
fi
"$TA_ROOT/tests/vm/payload.sh" "$arch" "$kdir" "$out/payload" "$out/build.log"
# The demo's models and traces: two of each, so that it runs in a minute.
rm -rf "$out/payload/traces" "$out/payload/models"
mkdir -p "$out/payload/traces" "$out/payload/models"
cp "$TA_SHARED/bench/traces/real/resnet50.csv" \
	"$TA_SHARED/bench/traces/synthetic/cnn_5.cap79043.csv" "$out/payload/traces/"
cp "$TA_SHARED/models/person_detect_mobilenetv1_i8.tflite" \
	"$TA_SHARED/models/mobilenet_v2_1.0_224_u8.tflite" "$out/payload/models/"
if [ "$arch" = arm64 ]; then
	ta_initramfs "$out/demo.cpio.gz" "$out/payload" "$(ta_arm64_busybox)"
	ta_board_dtb cma "$out/board.dtb"
	ta_log "booting the arm64 board under TCG (about a minute)"
	ta_boot_arm64 "$kdir/arch/arm64/boot/Image" "$out/demo.cpio.gz" "$out/board.dtb" \
		"$out/console.log" demo 600
else
	ta_initramfs "$out/demo.cpio.gz" "$out/payload"
	ta_log "booting the test kernel under TCG (about a minute)"
	ta_boot "$kdir/arch/x86/boot/bzImage" "$out/demo.cpio.gz" "$out/console.log" demo 600
fi
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
