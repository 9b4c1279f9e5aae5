#!/bin/bash
# make check: every test of tensorarena, ending with "N passed, N failed".
#  1. host: userspace build, planner unit tests, fuzzers (bounded time),
#     harness self-test, lint,
#     the device-tree binding (dt-schema), the module cross-built for arm64
#  2. the debug test kernel (built once, cached in $TA_CACHE; so is the
#     prepared arm64 tree)
#  3. test VM: KUnit suites + end-to-end tests under KASAN/lockdep/UBSAN/kmemleak
#  4. Debian's stock kernel VM: the module built against linux-headers, smoke test
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

start=$SECONDS
out=$TA_ROOT/build/check
rm -rf "$out"
mkdir -p "$out"
taps=()
consoles=()

# tap_run NAME COMMAND...: run a host step, keep its TAP for the verdict.
tap_run() {
	local name=$1
	shift
	ta_log "$name"
	"$@" >"$out/$name.tap" 2>"$out/$name.err" ||
		{ ta_log "$name exited non-zero (see build/check/$name.err)"; tail -20 "$out/$name.err" >&2; }
	taps+=(--tap "$name=$out/$name.tap")
}

tap_one() { # tap_one NAME COMMAND...: one TAP line for one command
	if "${@:2}" >>"$out/steps.log" 2>&1; then echo "ok - $1"; else echo "not ok - $1"; fi
}

host_build() {
	tap_one "userspace builds" make -s -C "$TA_ROOT/userspace" all
	tap_one "static tactl for the VM builds" make -s -C "$TA_ROOT/userspace" "$TA_ROOT/userspace/bin/tactl.static"
}
tap_run host-build host_build
if [ -f "$TA_ROOT/tests/unit/Makefile" ]; then
	tap_run unit make -s -C "$TA_ROOT/tests/unit" run
fi
# libFuzzer targets, FUZZ_SECONDS each (default: see tests/fuzz/Makefile)
tap_run fuzz make -s -C "$TA_ROOT/tests/fuzz" run
tap_run harness "$TA_ROOT/tests/harness-selftest.sh"
tap_run library "$TA_ROOT/tests/lib-install-test.sh"
tap_run netlink-spec /usr/bin/python3 "$TA_ROOT/tests/netlink-spec-check.py" "$TA_ROOT" "$(ta_ynl_tools)"
tap_run netlink-gen "$TA_ROOT/tests/netlink-gen.sh" --check

ta_log "test kernel"
kdir=$("$TA_ROOT/tests/vm/build-kernel.sh") || ta_die "no test kernel"
tap_run lint "$TA_ROOT/tests/lint.sh" --tap "$kdir"
tap_run dt-binding "$TA_ROOT/tests/dt-binding-check.sh" --tap "$kdir"
tap_run arm64 "$TA_ROOT/tests/arm64-build.sh" --tap "$kdir"

# Payload of the test VM.
payload=$out/payload-test
mkdir -p "$payload/tests"
ko=$(ta_build_module "$kdir" "$TA_ROOT/build/test") || ta_die "module build failed"
cp "$ko" "$payload/tensorarena.ko"
ko=$(ta_build_module "$kdir" "$TA_ROOT/build/test-kunit" TA_KUNIT=1) || ta_die "KUnit module build failed"
cp "$ko" "$payload/tensorarena-kunit.ko"
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" -o "$payload/ta_e2e" \
	"$TA_ROOT/tests/e2e/ta_e2e.c" || ta_die "ta_e2e build failed"
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" \
	-o "$payload/ta_e2e_lib" "$TA_ROOT/tests/e2e/ta_e2e_lib.c" \
	"$TA_ROOT/userspace/libtensorarena.a" $TA_STATIC_LIBS || ta_die "ta_e2e_lib build failed"
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" \
	-o "$payload/ta_e2e_worst" "$TA_ROOT/tests/e2e/ta_e2e_worst.c" \
	"$TA_ROOT/userspace/libtensorarena.a" $TA_STATIC_LIBS || ta_die "ta_e2e_worst build failed"
cp "$TA_ROOT/userspace/bin/tactl.static" "$payload/tactl" || ta_die "no static tactl"
# The reference NPU driver and the end-to-end proof over every model.
ko=$(ta_build_npu_sim "$kdir" "$TA_ROOT/build/test-npu" "$TA_ROOT/build/test/Module.symvers") ||
	ta_die "reference NPU driver build failed"
cp "$ko" "$payload/ta_npu_sim.ko"
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" \
	-I"$TA_ROOT/userspace/include" -I"$TA_ROOT/userspace/lib" -I"$TA_ROOT/tests/npu-sim" \
	-o "$payload/ta_e2e_npu" "$TA_ROOT/tests/e2e/ta_e2e_npu.c" \
	"$TA_ROOT/userspace/libtensorarena.a" $TA_STATIC_LIBS 2>>"$out/steps.log" ||
	ta_die "ta_e2e_npu build failed"
mkdir -p "$payload/traces" "$payload/models"
cp "$TA_SHARED"/models/*.tflite "$payload/models/" || ta_die "no models in $TA_SHARED"
cp "$TA_SHARED/bench/traces/real/resnet50.csv" "$TA_SHARED/bench/traces/real/S_1.csv" \
	"$TA_SHARED/bench/traces/synthetic/cnn_1.cap4374.csv" \
	"$payload/traces/" || ta_die "no bench traces in $TA_SHARED"
cp "$TA_ROOT/tests/e2e/vm-tests.sh" "$payload/tests/"
# Issue #9 evidence 3 and 4: exhaustion by an unprivileged user, and the
# random-operation stress (TA_STRESS_ARGS="--seed N ..." replays a run).
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/tests/npu-sim" \
	-o "$payload/ta_e2e_exhaust" "$TA_ROOT/tests/e2e/ta_e2e_exhaust.c" ||
	ta_die "ta_e2e_exhaust build failed"
gcc -O2 -Wall -Wextra -static -pthread -I"$TA_ROOT/uapi" \
	-o "$payload/ta_e2e_stress" "$TA_ROOT/tests/e2e/ta_e2e_stress.c" ||
	ta_die "ta_e2e_stress build failed"
echo "${TA_STRESS_ARGS:-}" >"$payload/stress-args"
# The netlink tests: raw libnl (static), and the kernel's YNL cli.py driving
# the family from its spec (python from the host's root over virtio-9p).
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" $(pkg-config --cflags libnl-genl-3.0) \
	-o "$payload/ta_e2e_netlink" "$TA_ROOT/tests/e2e/ta_e2e_netlink.c" \
	$TA_STATIC_LIBS 2>>"$out/steps.log" || ta_die "ta_e2e_netlink build failed"
# The fault-injection sweep (issue #9, evidence 1): libnl, static.
gcc -O2 -Wall -Wextra -static -I"$TA_ROOT/uapi" -I"$TA_ROOT/tests/npu-sim" \
	$(pkg-config --cflags libnl-genl-3.0) -o "$payload/ta_e2e_fault" \
	"$TA_ROOT/tests/e2e/ta_e2e_fault.c" $TA_STATIC_LIBS 2>>"$out/steps.log" ||
	ta_die "ta_e2e_fault build failed"
ynl=$(ta_ynl_tools) || ta_die "no YNL tools"
mkdir -p "$payload/ynl/tools/net" "$payload/ynl/Documentation"
cp -a "$ynl/tools/net/ynl" "$payload/ynl/tools/net/"
cp -a "$ynl/Documentation/netlink" "$payload/ynl/Documentation/"
cp "$TA_ROOT/Documentation/netlink/specs/tensorarena.yaml" "$payload/ynl/Documentation/netlink/specs/"
cp "$TA_ROOT/tests/e2e/ynl-tests.sh" "$payload/tests/"

ta_log "booting the test kernel (TCG): KUnit + end-to-end"
ta_initramfs "$out/test.cpio.gz" "$payload"
TA_HOSTROOT=1 ta_boot "$kdir/arch/x86/boot/bzImage" "$out/test.cpio.gz" "$out/console-test.log" test 2100
consoles+=(--console "test-vm=$out/console-test.log")

abi=$(ta_stock_abi)
ta_log "booting Debian's stock kernel $abi: module built against its headers"
stock_payload=$out/payload-stock
cp -a "$payload" "$stock_payload"
rm -rf "$stock_payload/tensorarena-kunit.ko" "$stock_payload/ynl"
if ko=$(ta_build_module "/usr/src/linux-headers-$abi" "$TA_ROOT/build/stock"); then
	cp "$ko" "$stock_payload/tensorarena.ko"
	ko=$(ta_build_npu_sim "/usr/src/linux-headers-$abi" "$TA_ROOT/build/stock-npu" \
		"$TA_ROOT/build/stock/Module.symvers") || ta_die "reference NPU driver build failed"
	cp "$ko" "$stock_payload/ta_npu_sim.ko"
	vmlinuz=$(ta_stock_kernel "$abi")
	ta_initramfs "$out/stock.cpio.gz" "$stock_payload"
	ta_boot "$vmlinuz" "$out/stock.cpio.gz" "$out/console-stock.log" stock
fi
consoles+=(--console "stock-vm=$out/console-stock.log")

ta_log "done in $(( (SECONDS - start) / 60 )) min $(( (SECONDS - start) % 60 )) s; consoles in build/check/"
python3 "$TA_ROOT/tests/results.py" "${taps[@]}" "${consoles[@]}"
