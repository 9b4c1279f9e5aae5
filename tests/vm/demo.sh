#!/bin/bash
# make demo: build everything, boot the test kernel, load tensorarena and
# show what it does. Every step is also a check: the VM's "e2e:" lines, and
# the host's (each plan the kernel made drawn, ResNet-50 planned offline)
# in build/demo/host.tap; the demo ends with tests/results.py's verdict,
# "N passed, N failed", and exits non-zero on any failure. make check runs
# it too (tests/run-all.sh), so that the first README command cannot break
# unseen.
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
	# The arm64 board runs Debian's stock newest arm64 kernel; the module
	# builds against a tree prepared from its source.
	kdir=$("$TA_ROOT/tests/vm/build-stock-newest-tree.sh" arm64)
	image=$(ta_newest_stock arm64)/usr/lib/modules/$(ta_newest_abi arm64)/vmlinuz
else
	kdir=$("$TA_ROOT/tests/vm/build-kernel-newest.sh")
fi
# TA_DEMO_PAYLOAD: a payload payload.sh already built for this kernel
# (make check's test payload), used instead of building it again.
if [ -n "${TA_DEMO_PAYLOAD:-}" ]; then
	cp -a "$TA_DEMO_PAYLOAD" "$out/payload"
else
	"$TA_ROOT/tests/vm/payload.sh" "$arch" "$kdir" "$out/payload" "$out/build.log"
fi
# The demo's models and traces: two of each, so that it runs in a minute.
rm -rf "$out/payload/traces" "$out/payload/models"
mkdir -p "$out/payload/traces" "$out/payload/models"
cp "$TA_SHARED/bench/traces/real/resnet50.csv" \
	"$TA_SHARED/bench/traces/synthetic/cnn_5.cap79043.csv" "$out/payload/traces/"
# Two TFLite and two ONNX models: the ones the VM's demo plans and runs
# on the reference NPU (tests/e2e/vm-tests.sh, demo).
cp "$TA_SHARED/models/person_detect_mobilenetv1_i8.tflite" \
	"$TA_SHARED/models/mobilenet_v2_1.0_224_u8.tflite" \
	"$TA_SHARED/models/mnist_cnn.onnx" "$TA_SHARED/models/ultraface_rfb320.onnx" \
	"$out/payload/models/"
if [ "$arch" = arm64 ]; then
	ta_stock_modules "$(ta_newest_abi arm64)" "$out/payload/stock-modules" drm drm_dma_helper vgem vivid
	ta_initramfs "$out/demo.cpio.gz" "$out/payload" "$(ta_arm64_busybox)"
	ta_board_dtb cma "$out/board.dtb"
	ta_log "booting the arm64 board under TCG (about a minute)"
	ta_boot_arm64 "$image" "$out/demo.cpio.gz" "$out/board.dtb" \
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

# Draw the plans the kernel made, from the tables the VM printed: each a
# check of the host's part.
tap=$out/host.tap
: >"$tap"
host_check() { # host_check NAME COMMAND...
	if "${@:2}"; then echo "ok - $1" >>"$tap"; else echo "not ok - $1" >>"$tap"; fi
}
echo
tr -d '\r' <"$out/console.log" | awk -v dir="$out" '
	/TA-PLAN-CSV-BEGIN/ { file = dir "/" $2 ".plan.csv"; printf "" >file; next }
	/TA-PLAN-CSV-END/ { close(file); file = ""; next }
	file != "" { print >file }'
drawn=0
for csv in "$out"/*.plan.csv; do
	[ -s "$csv" ] || continue
	host_check "demo: tactl draw $(basename "$csv")" \
		"$TA_ROOT/userspace/bin/tactl" draw "$csv" --svg "${csv%.plan.csv}.svg"
	drawn=$((drawn + 1))
done
# The VM plans 4 models and cnn_5 into the arena (ResNet-50 as a dry run).
host_check "demo: the VM's 5 plan tables drawn ($drawn)" [ "$drawn" = 5 ]
# ResNet-50 is too tall for the demo arena: draw the same planner's plan
# made on the host.
host_check "demo: ResNet-50 planned and drawn on the host" \
	"$TA_ROOT/userspace/bin/tactl" plan --offline "$TA_SHARED/bench/traces/real/resnet50.csv" \
	-o "$out/resnet50.offline.plan.csv" --svg "$out/resnet50.offline.svg" --json
echo "$out/resnet50.offline.svg: ResNet-50 planned on the host (tactl plan --offline)"
echo "Open the SVG files above in a browser: time runs left to right, addresses up."
echo
# At least ~90% of a good run's results (32 in the VM, 7 here).
python3 "$TA_ROOT/tests/results.py" --console "demo-vm=$out/console.log" --tap "demo-host=$tap" \
	--min demo-vm=28 --min demo-host=6
