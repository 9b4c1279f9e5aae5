#!/bin/bash
# make check: every test of tensorarena, ending with "N passed, N failed".
#  1. host: userspace build, planner unit tests, fuzzers (a fixed seed and
#     count: reproducible), harness self-test, the man pages, the netlink
#     spec (the newest kernel's YNL generator makes the committed code;
#     6.12's must accept it)
#  2. the debug test kernel on the newest kernel Debian carries (7.3,
#     TA_NEWEST_VERSION in tests/vm/lib.sh; built once, cached in $TA_CACHE),
#     from the start, beside the host steps; lint against it (its
#     checkpatch, W=1, sparse), its payload
#  3. the test VM (test lane): KUnit suites, end-to-end tests, fault sweeps,
#     exhaustion, stress, worst-case inputs and the dmem cgroup under
#     KASAN/lockdep/UBSAN/kmemleak; then the module built inside that
#     tree as drivers/misc/tensorarena (tests/intree-build.sh)
#  4. Debian's stock kernels 6.1, 6.12 and 7.3 (x86, stock lane): the module
#     built against each (W=1; sparse on 6.1 and 6.12, whose compat branches
#     no other tree takes; 6.1, 6.12: their headers; 7.3: a tree prepared
#     from its source, tests/vm/build-stock-newest-tree.sh), the stock
#     tests; every test stock 6.1 passes must pass on 6.12, on 7.3 and under
#     the debug kernel (results.py --same); then make demo (tests/vm/demo.sh)
#     on the test payload
#  5. the arm64 board on Debian's stock 7.3 arm64 kernel (device tree with
#     the arena's memory-region, CMA and no-map), the device-tree binding
#     (dt-schema); then the Debian packages, lintian, DKMS and the
#     clean-root install (tests/package-test.sh), the module cross-built
#     for arm64 6.1 (tests/arm64-build.sh), and the KUnit suites through
#     kunit.py on a 7.3 source (tests/kunit-py.sh)
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

start=$SECONDS
out=$TA_ROOT/build/check
# The compiler cache (lib.sh): its figures at the end are this run's.
ta_ccache_env
ccache -z >/dev/null 2>&1
rm -rf "$out" "$TA_ROOT/build/demo"
mkdir -p "$out"
taps=()
consoles=()
# Each line of the log ends with the CPU its lane (or, for the host steps,
# the main shell) has used so far: user + system time of the commands it
# ran to the end, in core-seconds. make check is bound by its compute on
# 2 cores: these say which stage costs it (Documentation/testing.md).
ta_log() {
	local cpu file=$out/.times.$BASHPID
	times >"$file"
	cpu=$(awk 'NR == 2 { n = 0; for (i = 1; i <= 2; i++) { split($i, t, "m"); n += t[1] * 60 + t[2] } printf "%d", n }' \
		"$file")
	printf '[%(%H:%M:%S)T] %s (cpu %s s)\n' -1 "$*" "$cpu" >&2
}
# --min NAME=N for tests/results.py: each source must pass at least N
# results. The figures are ~90% (rounded down) of the passed results of a
# good run (build/check of 5f6dacc's warm run, 2026-12-03: test VM 1050,
# stock 6.1 and 6.12 705, stock 7.2 (the newest then) 706, boards cma and
# nomap 717, pageless 235, cmadefault 3, demo 32, kunit-py 88, lint 164,
# unit 119; host TAP as each line says): a lane that
# silently ran a part of its tests fails. Raise them when tests are added.
minima=()

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
# The cache's entries that no run has used for TA_CACHE_KEEP_DAYS days
# (30): an older kernel's trees and packages, trees of a builder since
# changed (tests/vm/lib.sh). Before any lane takes an entry.
ta_cache_prune
# The newest kernel (linux 7.3 of trixie-backports), before the lanes that
# need it start: the version (resolved once for the whole run), the source,
# the stock images for x86 and arm64, their headers' Module.symvers, the
# YNL tools.
newest=$(ta_newest_series)
ta_log "linux $newest: $(ta_newest_version) of $TA_NEWEST_SUITE"
TA_NEWEST_RESOLVED=$(ta_newest_version) || ta_die "no linux $newest"
export TA_NEWEST_RESOLVED
{
	ta_newest_source && ta_newest_stock amd64 && ta_newest_stock arm64 &&
		ta_newest_deb "linux-headers-$(ta_newest_abi amd64)" amd64 &&
		ta_newest_deb "linux-headers-$(ta_newest_abi arm64)" arm64 && ta_ynl_tools "$newest"
} >/dev/null || ta_die "cannot fetch linux $newest"

# wait_for FILE: until FILE exists (another lane writes it), or this run ends.
wait_for() {
	while [ ! -e "$1" ] && kill -0 $$ 2>/dev/null; do sleep 5; done
}

# stock_payload NAME KDIR: the W=1 (and sparse) builds of the module and the
# reference NPU driver against KDIR (lint.sh --builds-only, TAP in
# $out/lint-NAME.tap), and $out/payload-NAME: the x86 test payload (its
# userspace, models, scripts) with those two modules, no KUnit build. The
# test payload must be there ($out/payload-test.done).
stock_payload() {
	local name=$1 kdir=$2 dir=$out/payload-$1 build=$TA_ROOT/build/$1 sparse=
	# the newest kernel's compat branches: sparse on the debug tree (test
	# lane)
	[ "$name" = "stock-$newest" ] && sparse=--no-sparse
	"$TA_ROOT/tests/lint.sh" --tap --builds-only $sparse --out "$build" "$kdir" \
		>"$out/lint-$name.tap" 2>"$out/lint-$name.err"
	[ -f "$build/module/tensorarena.ko" ] && [ -f "$build/npu/tests/npu-sim/ta_npu_sim.ko" ] ||
		return 1
	wait_for "$out/payload-test.done"
	rm -rf "$dir"
	cp -a "$out/payload-test" "$dir"
	rm -rf "$dir/tensorarena-kunit.ko" "$dir/ynl"
	cp "$build/module/tensorarena.ko" "$build/npu/tests/npu-sim/ta_npu_sim.ko" "$dir/"
}

# The test lane, from the start: the debug test kernel (the newest; built
# once, cached), lint against its tree (its checkpatch, W=1, sparse, the
# KUnit build), the test payload (once the host's userspace build is done:
# the two build the same files), the test VM, then the module built inside
# that tree (tests/intree-build.sh).
test_lane() {
	local kdir payload=$out/payload-test
	# Should this lane stop early, the lanes waiting for it hear so.
	trap 'touch "$out/payload-test.done"' EXIT
	"$TA_ROOT/tests/vm/build-kernel-newest.sh" >"$out/kdir.built" || ta_die "no test kernel"
	kdir=$(cat "$out/kdir.built")
	wait_for "$out/deps.done"
	ta_log "test lane: lint"
	"$TA_ROOT/tests/lint.sh" --tap --out "$TA_ROOT/build/lint-test" "$kdir" \
		>"$out/lint.tap" 2>"$out/lint.err"
	wait_for "$out/host-build.done"
	ta_log "test lane: payload"
	TA_PAYLOAD_PREBUILT=$TA_ROOT/build/lint-test \
		"$TA_ROOT/tests/vm/payload.sh" x86_64 "$kdir" "$payload" "$out/steps.log" || ta_die "test payload"
	touch "$out/payload-test.done"
	ta_initramfs "$out/test.cpio.gz" "$payload"
	ta_log "booting the test kernel ($newest, TCG, test lane): KUnit + end-to-end + dmem"
	TA_HOSTROOT=1 ta_boot "$kdir/arch/x86/boot/bzImage" "$out/test.cpio.gz" "$out/console-test.log" test 2100
	ta_log "test lane: intree-build (the $newest tree)"
	"$TA_ROOT/tests/intree-build.sh" --tap "$kdir" >"$out/intree.tap" 2>"$out/intree.err"
	ta_log "test lane done"
}
test_lane &
test_lane_job=$!
# The test lane is the longest chain, cold (the test kernel's build) and
# warm (the test VM): everything else runs 5 nicer (this shell, and so
# the lanes it starts next and the host steps), so that it gets about two
# thirds of the cores when both want them and the rest fill the gaps
# (make check is bound by its compute on 2 cores: testing.md). Relative to
# the niceness make check was started with (renice -n sets it).
renice -n $(($(ps -o ni= -p $$) + 5)) -p $$ >/dev/null
taps+=(--tap "lint=$out/lint.tap" --tap "intree=$out/intree.tap")
consoles+=(--console "test-vm=$out/console-test.log")
# The test VM runs every KUnit suite tests/kunit/suites names.
consoles+=(--suites "test-vm=$TA_ROOT/tests/kunit/suites")
minima+=(--min lint=147 --min intree=10 --min test-vm=945 --min kunit-py=79)

# The arm64 board, a lane of its own from the start: Debian's stock newest
# arm64 kernel (7.3: the mainline NPU drivers, rocket and ethosu, are arm64
# drivers of 6.18 and later) with a tree prepared from its source, W=1 for
# arm64 there (sparse: on the debug tree), the payload
# cross-built, and one boot per device-tree variant of the arena's
# memory-region (tests/vm/board/): CMA, no-map, and no-map outside the
# kernel's memory map (no struct page), on a non-coherent
# device, and (briefly) a node on the kernel's default CMA area, which is
# refused. Then packaging and the module cross-built for arm64 6.1.
arm64_variants=(cma nomap pageless cmadefault sramfar)
arm64_lane() {
	local a64 variant abi image
	wait_for "$out/deps.done"
	ta_log "arm64 lane: Debian's stock $newest arm64 kernel and its tree"
	a64=$("$TA_ROOT/tests/vm/build-stock-newest-tree.sh" arm64) || ta_die "no arm64 $newest tree"
	abi=$(ta_newest_abi arm64)
	image=$(ta_newest_stock arm64)/usr/lib/modules/$abi/vmlinuz
	ta_log "arm64 lane: lint-arm64"
	"$TA_ROOT/tests/lint.sh" --tap --builds-only --no-sparse --out "$TA_ROOT/build/lint-arm64" \
		"$a64" ARCH=arm64 CROSS_COMPILE="$TA_ARM64_CROSS" \
		>"$out/lint-arm64.tap" 2>"$out/lint-arm64.err"
	# The device-tree binding against 6.1's schemas, in the arm64 6.1 tree
	# (tests/vm/build-arm64.sh, which arm64-build.sh uses later), and
	# against the newest kernel's, with the reserved-memory schemas it
	# leaves to dt-schema (from 7.2 on) taken from trixie-backports'
	# dt-schema.
	ta_log "arm64 lane: dt-binding (6.1's schemas, then $newest's)"
	"$TA_ROOT/tests/dt-binding-check.sh" --tap "$("$TA_ROOT/tests/vm/build-arm64.sh")" \
		>"$out/dt-binding.tap" 2>"$out/dt-binding.err"
	"$TA_ROOT/tests/dt-binding-check.sh" --tap "$a64" \
		>"$out/dt-binding-newest.tap" 2>"$out/dt-binding-newest.err"
	# its modules: those lint-arm64 built
	TA_PAYLOAD_PREBUILT=$TA_ROOT/build/lint-arm64 \
		"$TA_ROOT/tests/vm/payload.sh" arm64 "$a64" "$out/payload-arm64" "$out/steps-arm64.log" ||
		ta_die "arm64 payload"
	# Built into the debug kernel, modules here (as on the stock x86 ones),
	# with the GEM DMA helpers, which Debian's arm64 kernel has as a module.
	ta_stock_modules "$abi" "$out/payload-arm64/stock-modules" drm drm_dma_helper vgem vivid
	ta_initramfs "$out/arm64.cpio.gz" "$out/payload-arm64" "$(ta_arm64_busybox)"
	for variant in "${arm64_variants[@]}"; do
		ta_log "booting the arm64 board ($variant memory-region, $abi, TCG, arm64 lane)"
		ta_board_dtb "$variant" "$out/board-$variant.dtb"
		ta_boot_arm64 "$image" "$out/arm64.cpio.gz" "$out/board-$variant.dtb" \
			"$out/console-board-$variant.log" "board-$variant" 1500
	done
	ta_log "arm64 lane: package-test (make deb, lintian, DKMS, clean root)"
	"$TA_ROOT/tests/package-test.sh" --tap \
		>"$out/package.tap" 2>"$out/package.err"
	ta_log "arm64 lane: arm64 (the module for arm64 6.1, W=1)"
	"$TA_ROOT/tests/arm64-build.sh" --tap "/usr/src/linux-headers-$(ta_stock_abi 6.1)" \
		>"$out/arm64.tap" 2>"$out/arm64.err"
	# Here, not last in the test lane: this lane ends minutes before the
	# test lane, warm or cold, and kunit.py's own kernel (cached after;
	# 6 min 29 s to build cold at the end of a run, 26 s warm) then
	# builds beside the test kernel instead of after everything.
	ta_log "arm64 lane: kunit-py (kunit.py run --kunitconfig=drivers/misc/tensorarena)"
	"$TA_ROOT/tests/kunit-py.sh" --tap >"$out/kunit-py.tap" 2>"$out/kunit-py.err"
	ta_log "arm64 lane done"
}
arm64_lane &
arm64_lane_job=$!
taps+=(--tap "lint-arm64=$out/lint-arm64.tap" --tap "dt-binding=$out/dt-binding.tap")
taps+=(--tap "dt-binding-$newest=$out/dt-binding-newest.tap")
taps+=(--tap "package=$out/package.tap" --tap "arm64=$out/arm64.tap" --tap "kunit-py=$out/kunit-py.tap")
minima+=(--min lint-arm64=2 --min dt-binding=9 --min "dt-binding-$newest=10" --min package=26 --min arm64=4)
for variant in "${arm64_variants[@]}"; do
	consoles+=(--console "board-$variant-vm=$out/console-board-$variant.log")
done
# cmadefault is the refused node alone: 3 results; sramfar the refused
# SRAM: 3
# pageless: the board checks and one model through the NPU, 220 results
minima+=(--min board-cma-vm=645 --min board-nomap-vm=645 --min board-pageless-vm=211)
minima+=(--min board-cmadefault-vm=2 --min board-sramfar-vm=3)

# The stock lane, once the test payload is there: Debian's stock kernels
# 6.1, 6.12 (their headers) and 7.3 (a tree prepared from its source), each
# with the module and the reference NPU driver built for it (W=1; sparse
# but on 7.3, which the debug tree checks)
# and booted for the same tests; then make demo, as README.md gives it, on
# the test payload: its VM (the demo's models, planned in the kernel and
# run on the reference NPU) and its host part (the plans drawn).
stock_series=(6.1 6.12 "$newest")
stock_lane() {
	local series abi kdir vmlinuz
	wait_for "$out/payload-test.done"
	for series in "${stock_series[@]}"; do
		# In a subshell: a failure (ta_die) ends this series only.
		(
			if [ "$series" = "$newest" ]; then
				abi=$(ta_newest_abi amd64)
				kdir=$("$TA_ROOT/tests/vm/build-stock-newest-tree.sh" amd64) ||
					ta_die "no stock $newest tree"
				vmlinuz=$(ta_newest_stock amd64)/usr/lib/modules/$abi/vmlinuz
			else
				abi=$(ta_stock_abi "$series")
				kdir=/usr/src/linux-headers-$abi
				vmlinuz=$(ta_stock_kernel "$abi") || exit 1
			fi
			ta_log "stock $series: W=1 (sparse but on $newest), its payload"
			stock_payload "stock-$series" "$kdir" ||
				ta_die "the module or the reference NPU driver does not build for $abi"
			# Built into the debug kernel, modules here: DRM for the
			# reference NPU, vgem for foreign fences, vivid the camera.
			ta_stock_modules "$abi" "$out/payload-stock-$series/stock-modules" drm vgem vivid
			ta_initramfs "$out/stock-$series.cpio.gz" "$out/payload-stock-$series"
			ta_log "booting Debian's stock kernel $abi (stock lane): module built for it"
			ta_boot "$vmlinuz" "$out/stock-$series.cpio.gz" "$out/console-stock-$series.log" stock
		)
	done
	ta_log "make demo (stock lane): tests/vm/demo.sh x86_64"
	TA_DEMO_PAYLOAD=$out/payload-test "$TA_ROOT/tests/vm/demo.sh" x86_64 >"$out/demo.log" 2>&1 ||
		ta_log "make demo failed (see build/check/demo.log)"
	ta_log "stock lane done"
}
for series in "${stock_series[@]}"; do
	taps+=(--tap "lint-stock-$series=$out/lint-stock-$series.tap")
	consoles+=(--console "stock-$series-vm=$out/console-stock-$series.log")
	# two builds, with sparse two results more (not on the newest: lint.sh)
	minima+=(--min "lint-stock-$series=2")
done
minima+=(--min stock-6.1-vm=634 --min stock-6.12-vm=634 --min "stock-$newest-vm=635")
consoles+=(--console "demo-vm=$TA_ROOT/build/demo/console.log")
taps+=(--tap "demo-host=$TA_ROOT/build/demo/host.tap")
minima+=(--min demo-vm=28 --min demo-host=6)
stock_lane &
stock_lane_job=$!

# The rest of the Debian packages, while the kernel compiles (make check
# installed what the kernel build needs first: tests/deps.sh --kernel).
"$TA_ROOT/tests/deps.sh" || ta_die "cannot install the packages make check needs"
touch "$out/deps.done"

tap_run host-build host_build
touch "$out/host-build.done"
# Always: no Makefile is a failed step (tap_run), not a silent skip.
tap_run unit make -s -C "$TA_ROOT/tests/unit" run
# libFuzzer targets, reproducible: FUZZ_RUNS inputs each from seed FUZZ_SEED
# (defaults in tests/fuzz/Makefile); exploring is make fuzz
tap_run fuzz make -s -C "$TA_ROOT/tests/fuzz" run
# The ONNX importer against ONNX Runtime (tests/onnx-oracle/): the 1,072
# models of libonnx-testdata, corpus/, 500 random models from seed 26; one
# result a model (about 30 s on 2 cores)
tap_run onnx-oracle "$TA_ROOT/tests/onnx-oracle/oracle.sh"
# The TFLite reader against LiteRT (tests/tflite-oracle/): the shared
# models, tests/data's and 67 one-op models as they are and with each
# written tensor (40 a model at most) recorded one smaller, 16 one-op
# models fed other values than recorded (94 s idle)
tap_run tflite-oracle "$TA_ROOT/tests/tflite-oracle/oracle.sh"
tap_run harness "$TA_ROOT/tests/harness-selftest.sh"
tap_run library "$TA_ROOT/tests/lib-install-test.sh"
tap_run man "$TA_ROOT/tests/man-check.sh"
# the planner's includes and calls: no circle but the allowed one
tap_run planner-includes "$TA_ROOT/tests/planner-includes.sh"
tap_run netlink-spec /usr/bin/python3 "$TA_ROOT/tests/netlink-spec-check.py" "$TA_ROOT" "$(ta_ynl_tools "$newest")"
tap_run netlink-spec-6.12 /usr/bin/python3 "$TA_ROOT/tests/netlink-spec-check.py" "$TA_ROOT" "$(ta_ynl_tools 6.12)"
tap_run netlink-gen "$TA_ROOT/tests/netlink-gen.sh" --check
# onnx-oracle: 1,072 backend + 22 corpus + 500 random + 4 checks = 1,598
# results, and oracle.sh's own checks fail when fewer models ran or fewer
# were checked at another batch (--dim)
minima+=(--min onnx-oracle=1598)
# tflite-oracle: 10 shared + 17 tests/data + 67 one-op + 16 fed models,
# 325 mutations (51 of them in the second runtime), 2 checks = 437 results
minima+=(--min tflite-oracle=437)
minima+=(--min host-build=2 --min unit=107 --min fuzz=4 --min harness=42 --min library=16
	--min man=114 --min planner-includes=5 --min netlink-spec=13 --min netlink-spec-6.12=13
	--min netlink-gen=5)

ta_log "waiting for the lanes"
wait "$test_lane_job" "$stock_lane_job" "$arm64_lane_job"

ta_log "compiler cache: $(ccache --print-stats 2>/dev/null | awk -F'\t' '
	$1 ~ /_cache_hit$/ { hit += $2 } $1 == "cache_miss" { miss = $2 }
	END { printf "%d hits, %d misses", hit, miss }') ($CCACHE_DIR)"
ta_log "done in $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s; consoles in build/check/"
python3 "$TA_ROOT/tests/results.py" "${taps[@]}" "${consoles[@]}" "${minima[@]}" \
	--same "stock-6.1-vm=stock-6.12-vm" --same "stock-6.1-vm=stock-$newest-vm" \
	--same "stock-6.1-vm=test-vm"
