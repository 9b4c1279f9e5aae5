#!/bin/bash
# The payload of a test VM (its /ta): the modules built against one kernel,
# the static test programs, tactl, the models and traces, the test scripts.
# usage: payload.sh ARCH KDIR OUT STEPSLOG
#   ARCH      x86_64 or arm64 (userspace cross-built with aarch64-linux-gnu-gcc)
#   KDIR      the kernel tree the modules build against (W=1, no warnings)
#   OUT       the payload directory (created)
#   STEPSLOG  where the userspace compilers' chatter goes
# Dies on any build failure.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

arch=$1 kdir=$2 payload=$3 steps=$4
build=$TA_ROOT/build/payload-$arch
kmake=()
case "$arch" in
x86_64)
	cc=gcc
	pkgcfg=
	;;
arm64)
	cc=${TA_ARM64_CROSS}gcc
	pkgcfg=/usr/lib/aarch64-linux-gnu/pkgconfig
	kmake=(ARCH=arm64 CROSS_COMPILE="$TA_ARM64_CROSS")
	;;
*) ta_die "payload: no architecture $arch" ;;
esac
nl_static=$(PKG_CONFIG_LIBDIR=${pkgcfg:-$(pkg-config --variable pc_path pkg-config)} \
	pkg-config --static --libs libnl-genl-3.0)
nl_cflags=$(pkg-config --cflags libnl-genl-3.0)

rm -rf "$payload" "$build"
mkdir -p "$payload/tests" "$build"

# The modules: plain, with the KUnit suites (where the kernel has KUnit),
# and the reference NPU driver.
# TA_PAYLOAD_PREBUILT=DIR: lint.sh --out DIR built the module and the
# reference NPU driver against the same tree (W=1, sparse where it runs):
# taken from there. Against a tree with KUnit that module is the KUnit
# build, and the plain one is built here (the debug kernel has no
# MODVERSIONS, so the NPU driver built against the KUnit build's symbols
# loads beside either build); against a distribution's kernel (the arm64
# board's), which has no KUnit to link with, it is the plain module.
kunit=0
grep -qx 'CONFIG_KUNIT=y' "$kdir/.config" && kunit=1
pre=${TA_PAYLOAD_PREBUILT:-}
prebuilt=0
[ -n "$pre" ] && [ -f "$pre/module/tensorarena.ko" ] &&
	[ -f "$pre/npu/tests/npu-sim/ta_npu_sim.ko" ] && prebuilt=1
if [ $prebuilt = 1 ] && [ $kunit = 0 ]; then
	cp "$pre/module/tensorarena.ko" "$payload/tensorarena.ko"
else
	ko=$(ta_build_module "$kdir" "$build/module" "${kmake[@]}") || ta_die "module build failed"
	cp "$ko" "$payload/tensorarena.ko"
fi
if [ $prebuilt = 1 ]; then
	cp "$pre/npu/tests/npu-sim/ta_npu_sim.ko" "$payload/ta_npu_sim.ko"
	[ $kunit = 0 ] || cp "$pre/module/tensorarena.ko" "$payload/tensorarena-kunit.ko"
else
	if [ $kunit = 1 ]; then
		ko=$(ta_build_module "$kdir" "$build/module-kunit" TA_KUNIT=1 "${kmake[@]}") ||
			ta_die "KUnit module build failed"
		cp "$ko" "$payload/tensorarena-kunit.ko"
	fi
	ko=$(ta_build_npu_sim "$kdir" "$build/npu" "$build/module/Module.symvers" "${kmake[@]}") ||
		ta_die "reference NPU driver build failed"
	cp "$ko" "$payload/ta_npu_sim.ko"
fi

# libtensorarena (all its objects: the e2e programs call internals too) and
# tactl, static, for this architecture.
us=$build/userspace
if [ "$arch" = x86_64 ]; then
	us=$TA_ROOT/userspace
	make -s -C "$TA_ROOT/userspace" "$us/libtensorarena-internal.a" "$us/bin/tactl.static" >>"$steps" 2>&1 ||
		ta_die "userspace build failed"
else
	PKG_CONFIG_LIBDIR=$pkgcfg make -s -C "$TA_ROOT/userspace" OUT="$us" CC="$cc" \
		"$us/libtensorarena-internal.a" "$us/bin/tactl.static" >>"$steps" 2>&1 ||
		ta_die "userspace cross build failed"
fi
cp "$us/bin/tactl.static" "$payload/tactl"

# prog NAME [EXTRA ARGS...]: tests/e2e/NAME.c, static.
inc=(-I"$TA_ROOT/uapi" -I"$TA_ROOT/module/planner" -I"$TA_ROOT/userspace/include"
	-I"$TA_ROOT/userspace/lib" -I"$TA_ROOT/tests/npu-sim" -I/usr/include/libdrm)
prog() {
	local name=$1
	shift
	# shellcheck disable=SC2086
	"$cc" -O2 -Wall -Wextra -static "${inc[@]}" $nl_cflags -o "$payload/$name" \
		"$TA_ROOT/tests/e2e/$name.c" "$@" >>"$steps" 2>&1 || ta_die "$name build failed"
}
# shellcheck disable=SC2086
{
	prog ta_e2e "$TA_ROOT"/tests/e2e/ta_e2e_{plan,owner,export,limits}.c
	prog ta_e2e_lib "$us/libtensorarena-internal.a" $nl_static -lm
	prog ta_e2e_runtime "$us/libtensorarena-internal.a" $nl_static -lm
	prog ta_e2e_worst "$us/libtensorarena-internal.a" $nl_static -lm
	prog ta_e2e_npu "$TA_ROOT"/tests/e2e/ta_e2e_npu_{run,api,jobs,group,tier,models}.c "$TA_ROOT/tests/e2e/ta_e2e_drm.c" \
		"$us/libtensorarena-internal.a" $nl_static -lm
	prog ta_e2e_camera "$TA_ROOT/tests/e2e/ta_e2e_drm.c"
	# Issue #9 evidence 3 and 4: exhaustion by an unprivileged user, and
	# the random-operation stress (TA_STRESS_ARGS="--seed N ..." replays).
	prog ta_e2e_exhaust "$TA_ROOT"/tests/e2e/ta_e2e_exhaust_{mem,ns}.c "$TA_ROOT/tests/e2e/ta_e2e_drm.c"
	prog ta_e2e_stress "$TA_ROOT"/tests/e2e/ta_e2e_stress_{ops,proc}.c -pthread
	# Issue #24: the arena in the dmem cgroup controller (6.14 and later).
	prog ta_e2e_dmem
	# Issue #28: groups through the ioctls.
	prog ta_e2e_group
	# Issue #29: memory tiers through the ioctls.
	prog ta_e2e_tier
	# ta_e2e_netlink: its client, then its tests by area (run in this order).
	prog ta_e2e_netlink "$TA_ROOT"/tests/e2e/ta_e2e_nl_{client,bad,plans,export,access,group}.c $nl_static
	# ta_e2e_fault: injection, state, then its tests (calls, insmod).
	prog ta_e2e_fault "$TA_ROOT"/tests/e2e/ta_e2e_fault_{inject,state,calls,insmod}.c \
		"$TA_ROOT/tests/e2e/ta_e2e_drm.c" $nl_static
}
echo "${TA_STRESS_ARGS:-}" >"$payload/stress-args"

mkdir -p "$payload/traces" "$payload/models/compiled"
cp "$TA_SHARED"/models/*.tflite "$TA_SHARED"/models/*.onnx "$payload/models/" ||
	ta_die "no models in $TA_SHARED"
# models compiled for an NPU (Vela's): served by the fixed strategy
cp "$TA_SHARED"/models/compiled/*.tflite "$payload/models/compiled/" ||
	ta_die "no models in $TA_SHARED/models/compiled"
cp "$TA_SHARED/bench/traces/real/resnet50.csv" "$TA_SHARED/bench/traces/real/S_1.csv" \
	"$TA_SHARED/bench/traces/synthetic/cnn_1.cap4374.csv" \
	"$payload/traces/" || ta_die "no bench traces in $TA_SHARED"
cp "$TA_ROOT/tests/e2e/vm-tests.sh" "$TA_ROOT/tests/e2e/ynl-tests.sh" \
	"$TA_ROOT/tests/e2e/ynl-tests.py" "$payload/tests/"
# The kernel's YNL cli.py (the newest kernel's, the test kernel's) drives
# the family from its spec, with the host's python over virtio-9p: x86
# only.
if [ "$arch" = x86_64 ]; then
	ynl=$(ta_ynl_tools "$(ta_newest_series)") || ta_die "no YNL tools"
	mkdir -p "$payload/ynl/tools/net" "$payload/ynl/Documentation"
	cp -a "$ynl/tools/net/ynl" "$payload/ynl/tools/net/"
	cp -a "$ynl/Documentation/netlink" "$payload/ynl/Documentation/"
	cp "$TA_ROOT/Documentation/netlink/specs/tensorarena.yaml" "$payload/ynl/Documentation/netlink/specs/"
fi
