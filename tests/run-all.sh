#!/bin/bash
# make check: every test of tensorarena, ending with "N passed, N failed".
#  1. host: userspace build, planner unit tests, fuzzers (a fixed seed and
#     count: reproducible),
#     harness self-test, lint, the man pages,
#     the device-tree binding (dt-schema)
#  2. the debug test kernel (built once, cached in $TA_CACHE; so is the
#     prepared arm64 tree), from the start, beside the host steps
#  3. test VM: KUnit suites + end-to-end tests under KASAN/lockdep/UBSAN/kmemleak
#  4. the arm64 board (debug 6.12 kernel, device tree with the arena's
#     memory-region, CMA and no-map): KUnit + end-to-end
#  5. Debian's stock kernels 6.1 and 6.12: the module built against their
#     headers, the stock tests; then make demo (tests/vm/demo.sh) on the
#     test payload
#  6. in the arm64 lane once its boards are done: packaging, the module in
#     the 6.12 tree as drivers/misc/tensorarena (tests/intree-build.sh), the
#     Debian packages, lintian, DKMS and the clean-root install
#     (tests/package-test.sh); then the module cross-built for arm64 6.1
#     (tests/arm64-build.sh)
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

start=$SECONDS
out=$TA_ROOT/build/check
rm -rf "$out" "$TA_ROOT/build/demo"
mkdir -p "$out"
taps=()
consoles=()

# tap_run NAME COMMAND...: run a host step, keep its TAP for the verdict.
tap_run() {
	local name=$1
	shift
	ta_log "$name"
	local rc=0
	"$@" >"$out/$name.tap" 2>"$out/$name.err" || rc=$?
	# A step that stops half-way may have printed only "ok" lines so far:
	# its exit status is a result of its own.
	if [ "$rc" != 0 ]; then
		ta_log "$name exited with status $rc (see build/check/$name.err)"
		tail -20 "$out/$name.err" >&2
		echo "not ok - $name exited with status $rc" >>"$out/$name.tap"
	fi
	taps+=(--tap "$name=$out/$name.tap")
}

tap_one() { # tap_one NAME COMMAND...: one TAP line for one command
	if "${@:2}" >>"$out/steps.log" 2>&1; then echo "ok - $1"; else echo "not ok - $1"; fi
}

host_build() {
	tap_one "userspace builds" make -s -C "$TA_ROOT/userspace" all
	tap_one "static tactl for the VM builds" make -s -C "$TA_ROOT/userspace" "$TA_ROOT/userspace/bin/tactl.static"
}
# The arm64 board, a lane of its own from the start, beside the host steps
# and the x86 VMs (a TCG VM keeps about one core busy): the debug kernel of
# linux-source-6.12 (built once, cached), lint against its tree (6.12's
# checkpatch, sparse, W=1 for arm64), the payload cross-built, and one boot
# per device-tree variant of the arena's memory-region (tests/vm/board/):
# CMA and no-map, on a non-coherent device, and (briefly) a node on the
# kernel's default CMA area, which is refused.
arm64_variants=(cma nomap cmadefault)
arm64_lane() {
	local a64 variant
	ta_log "arm64 lane: test kernel"
	a64=$("$TA_ROOT/tests/vm/build-kernel-arm64.sh") || ta_die "no arm64 test kernel"
	ta_log "arm64 lane: lint-arm64"
	"$TA_ROOT/tests/lint.sh" --tap "$a64" ARCH=arm64 CROSS_COMPILE="$TA_ARM64_CROSS" \
		>"$out/lint-arm64.tap" 2>"$out/lint-arm64.err"
	"$TA_ROOT/tests/vm/payload.sh" arm64 "$a64" "$out/payload-arm64" "$out/steps-arm64.log" ||
		ta_die "arm64 payload"
	ta_initramfs "$out/arm64.cpio.gz" "$out/payload-arm64" "$(ta_arm64_busybox)"
	for variant in "${arm64_variants[@]}"; do
		ta_log "booting the arm64 board ($variant memory-region, TCG, arm64 lane)"
		ta_board_dtb "$variant" "$out/board-$variant.dtb"
		ta_boot_arm64 "$a64/arch/arm64/boot/Image" "$out/arm64.cpio.gz" "$out/board-$variant.dtb" \
			"$out/console-board-$variant.log" "board-$variant" 1500
	done
	# Packaging needs the x86 test kernel too (DKMS builds against it): the
	# host steps write its path once it is there.
	while [ ! -s "$out/kdir.path" ] && kill -0 $$ 2>/dev/null; do sleep 5; done
	ta_log "arm64 lane: intree-build (the 6.12 tree)"
	"$TA_ROOT/tests/intree-build.sh" --tap "$a64" >"$out/intree.tap" 2>"$out/intree.err"
	ta_log "arm64 lane: package-test (make deb, lintian, DKMS, clean root)"
	"$TA_ROOT/tests/package-test.sh" --tap "$(cat "$out/kdir.path")" \
		>"$out/package.tap" 2>"$out/package.err"
	# The module cross-built for arm64 6.1 (defconfig), off the x86 lane's
	# critical path.
	ta_log "arm64 lane: arm64 (the module for arm64 6.1, W=1)"
	"$TA_ROOT/tests/arm64-build.sh" --tap "$(cat "$out/kdir.path")" \
		>"$out/arm64.tap" 2>"$out/arm64.err"
	ta_log "arm64 lane done"
}
arm64_lane &
arm64_lane_job=$!
taps+=(--tap "lint-arm64=$out/lint-arm64.tap" --tap "intree=$out/intree.tap")
taps+=(--tap "package=$out/package.tap" --tap "arm64=$out/arm64.tap")
for variant in "${arm64_variants[@]}"; do
	consoles+=(--console "board-$variant-vm=$out/console-board-$variant.log")
done

# The x86 test kernel, from the start beside the arm64 lane: on a cold run
# its chain (the kernel, the payload, the x86 VMs) is the longest, so it
# does not wait for the host steps; warm, build-kernel.sh only prints the
# cached tree's path.
"$TA_ROOT/tests/vm/build-kernel.sh" >"$out/kdir.built" &
x86_kernel_job=$!

tap_run host-build host_build
if [ -f "$TA_ROOT/tests/unit/Makefile" ]; then
	tap_run unit make -s -C "$TA_ROOT/tests/unit" run
fi
# libFuzzer targets, reproducible: FUZZ_RUNS inputs each from seed FUZZ_SEED
# (defaults in tests/fuzz/Makefile); exploring is make fuzz
tap_run fuzz make -s -C "$TA_ROOT/tests/fuzz" run
tap_run harness "$TA_ROOT/tests/harness-selftest.sh"
tap_run library "$TA_ROOT/tests/lib-install-test.sh"
tap_run man "$TA_ROOT/tests/man-check.sh"
tap_run netlink-spec /usr/bin/python3 "$TA_ROOT/tests/netlink-spec-check.py" "$TA_ROOT" "$(ta_ynl_tools)"
tap_run netlink-gen "$TA_ROOT/tests/netlink-gen.sh" --check

ta_log "test kernel"
wait "$x86_kernel_job" || ta_die "no test kernel"
kdir=$(cat "$out/kdir.built")
echo "$kdir" >"$out/kdir.path"
tap_run lint "$TA_ROOT/tests/lint.sh" --tap "$kdir"
tap_run dt-binding "$TA_ROOT/tests/dt-binding-check.sh" --tap "$kdir"

# Payload of the test VM (modules, static test programs, models, scripts).
payload=$out/payload-test
"$TA_ROOT/tests/vm/payload.sh" x86_64 "$kdir" "$payload" "$out/steps.log" || ta_die "test payload"

# Debian's stock kernels, 6.1 and 6.12: the module and the reference NPU
# driver built against each kernel's own headers, for the same tests.
stock=()
for series in 6.1 6.12; do
	abi=$(ta_stock_abi "$series")
	stock_payload=$out/payload-stock-$series
	cp -a "$payload" "$stock_payload"
	rm -rf "$stock_payload/tensorarena-kunit.ko" "$stock_payload/ynl"
	consoles+=(--console "stock-$series-vm=$out/console-stock-$series.log")
	ko=$(ta_build_module "/usr/src/linux-headers-$abi" "$TA_ROOT/build/stock-$series") || continue
	cp "$ko" "$stock_payload/tensorarena.ko"
	ko=$(ta_build_npu_sim "/usr/src/linux-headers-$abi" "$TA_ROOT/build/stock-npu-$series" \
		"$TA_ROOT/build/stock-$series/Module.symvers") || continue
	cp "$ko" "$stock_payload/ta_npu_sim.ko"
	vmlinuz=$(ta_stock_kernel "$abi")
	# Built into the debug kernels, modules here: DRM for the reference
	# NPU, vgem for foreign fences, vivid the camera.
	ta_stock_modules "$abi" "$stock_payload/stock-modules" drm vgem vivid
	ta_initramfs "$out/stock-$series.cpio.gz" "$stock_payload"
	stock+=("$series:$abi:$vmlinuz")
done

# The x86 VMs, a lane beside the arm64 one: the test kernel, then the stock
# kernels.
x86_lane() {
	local entry series abi vmlinuz
	ta_log "booting the test kernel (TCG, x86 lane): KUnit + end-to-end"
	TA_HOSTROOT=1 ta_boot "$kdir/arch/x86/boot/bzImage" "$out/test.cpio.gz" "$out/console-test.log" test 2100
	for entry in "${stock[@]}"; do
		IFS=: read -r series abi vmlinuz <<<"$entry"
		ta_log "booting Debian's stock kernel $abi (x86 lane): module built against its headers"
		ta_boot "$vmlinuz" "$out/stock-$series.cpio.gz" "$out/console-stock-$series.log" stock
	done
	# make demo, as README.md gives it, on the test payload built above:
	# its VM (the demo's models, planned in the kernel and run on the
	# reference NPU) and its host part (the plans drawn).
	ta_log "make demo (x86 lane): tests/vm/demo.sh x86_64"
	TA_DEMO_PAYLOAD=$payload "$TA_ROOT/tests/vm/demo.sh" x86_64 >"$out/demo.log" 2>&1 ||
		ta_log "make demo failed (see build/check/demo.log)"
	ta_log "x86 lane done"
}
ta_initramfs "$out/test.cpio.gz" "$payload"
consoles+=(--console "test-vm=$out/console-test.log")
consoles+=(--console "demo-vm=$TA_ROOT/build/demo/console.log")
taps+=(--tap "demo-host=$TA_ROOT/build/demo/host.tap")
x86_lane &
x86_lane_job=$!

ta_log "waiting for the two lanes"
wait "$x86_lane_job" "$arm64_lane_job"

ta_log "done in $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s; consoles in build/check/"
python3 "$TA_ROOT/tests/results.py" "${taps[@]}" "${consoles[@]}"
