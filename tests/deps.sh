#!/bin/bash
# Install the Debian packages the build and the tests need, when missing.
# Run as root on Debian 12 (make deps; make check and make demo call it).
# --kernel: only what building the debug test kernel needs (make check
# installs those first, starts the kernel, then installs the rest).
set -euo pipefail

packages=(
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod xz-utils ccache
	linux-source-6.1 linux-source-6.12 linux-headers-amd64
	qemu-system-x86 qemu-system-arm busybox-static sparse python3
	libnl-genl-3-dev:amd64 pkg-config python3-yaml python3-jsonschema
	gcc-aarch64-linux-gnu libc6-dev-arm64-cross device-tree-compiler dt-schema
	libnl-3-dev:arm64 libnl-genl-3-dev:arm64
	clang libclang-rt-14-dev llvm
	# drm.h for the end-to-end tests' DRM ioctls (headers only)
	libdrm-dev
	# the TFLite models' independent reader (tests/tflite-offline-check.py)
	# and the Builder that makes tests/data/*.tflite
	flatbuffers-compiler python3-flatbuffers
	# packaging (make deb, tests/package-test.sh): the build dependencies
	# of debian/control, lintian, DKMS, the clean root's debootstrap; the
	# man pages' linters (tests/man-check.sh) and the completion's library
	dpkg-dev debhelper dh-dkms dkms lintian debootstrap python3-docutils
	mandoc man-db groff-base bash-completion
	# the ONNX importer's oracle (tests/onnx-oracle/): ONNX's Python
	# package (models, shape inference), its backend node test suite, and
	# node for ONNX Runtime (onnxruntime-node, below)
	python3-onnx python3-numpy libonnx-testdata nodejs
)

if [ "${1:-}" = --kernel ]; then
	packages=(build-essential flex bison bc libelf-dev libssl-dev cpio kmod xz-utils ccache)
fi

# The arm64 board's static test programs link Debian's arm64 libnl
# (multiarch); its busybox is downloaded by the harness.
arm64=
dpkg --print-foreign-architectures | grep -qx arm64 || arm64=add

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
# npm: with NodeSource's nodejs it is in that package; Debian's own
# nodejs leaves it to its npm package.
if [ "${1:-}" != --kernel ] && ! command -v npm >/dev/null; then
	missing+=(npm)
fi
# Debian 12 has no meta-package for its 6.12 kernel (bookworm-security):
# the newest linux-headers-6.12.*+deb12-amd64 the archive has, unless one is
# installed (its image is downloaded by the harness, not installed).
headers612=
if [ "${1:-}" != --kernel ] && ! ls -d /usr/src/linux-headers-6.12.*+deb12-amd64 >/dev/null 2>&1; then
	headers612=newest
	missing+=(linux-headers-6.12-newest)
fi
# An npm package pinned into the cache (not the tree), once: npm_cached DIR
# SPEC WHAT CHECK...: installs SPEC into DIR.tmp, runs CHECK with that
# prefix as its last argument, and keeps it as DIR (stamped .installed)
# only when CHECK passes; a stamped DIR is touched (make check's cache
# pruning, tests/vm/lib.sh, keeps what is in use).
npm_cached() {
	local dir=$1 spec=$2 what=$3
	shift 3
	[ -f "$dir/.installed" ] && { touch -c "$dir"; return 0; }
	local tmp=$dir.tmp.$$
	echo "deps: installing $spec into $dir" >&2
	rm -rf "$tmp"
	mkdir -p "$tmp"
	npm install --prefix "$tmp" --no-save --no-audit --no-fund --loglevel=error "$spec" >&2 ||
		{ rm -rf "$tmp"; return 1; }
	"$@" "$tmp" >&2 || { echo "deps: $spec $what" >&2; rm -rf "$tmp"; return 1; }
	rm -rf "$dir"
	mv "$tmp" "$dir"
	touch "$dir/.installed"
}

# The ONNX importer's oracle: onnxruntime-node at the version
# tests/onnx-oracle/ort-version.sh pins; kept once its CPU binding loads
# (offline, as the test runs it). ONNXRUNTIME_NODE_INSTALL=skip: its
# install script would fetch the CUDA provider from NuGet; the CPU binary
# is in the npm package.
ort_loads() {
	node -e 'const o = require(process.argv[2] + "/node_modules/onnxruntime-node");
		if (o.env.versions.common !== process.argv[1]) process.exit(1);' "$TA_ORT_VERSION" "$1"
}
ort_install() {
	. "$(dirname "$0")/onnx-oracle/ort-version.sh"
	ONNXRUNTIME_NODE_INSTALL=skip npm_cached "$TA_ORT_DIR" "onnxruntime-node@$TA_ORT_VERSION" \
		"does not load" ort_loads
}

# The TFLite reader's oracle: @litertjs/core at the version
# tests/tflite-oracle/litert-version.sh pins; kept once its runtime runs a
# model and finds a recorded shape too small (oracle.py --selftest).
litert_install() {
	. "$(dirname "$0")/tflite-oracle/litert-version.sh"
	npm_cached "$TA_LITERT_DIR" "@litertjs/core@$TA_LITERT_VERSION" "does not run a model" \
		/usr/bin/python3 "$(dirname "$0")/tflite-oracle/oracle.py" --selftest --litert
}

# Its second runtime, for the models LiteRT does not load: tfjs-tflite at
# the version tests/tflite-oracle/tflite-web-version.sh pins; kept once it
# runs a model at its kernels' shapes (oracle.py --selftest --web).
tflite_web_install() {
	. "$(dirname "$0")/tflite-oracle/tflite-web-version.sh"
	npm_cached "$TA_TFLITE_WEB_DIR" "@tensorflow/tfjs-tflite@$TA_TFLITE_WEB_VERSION" \
		"does not run a model" /usr/bin/python3 "$(dirname "$0")/tflite-oracle/oracle.py" \
		--selftest --litert - --web
}

if [ ${#missing[@]} -eq 0 ]; then
	[ "${1:-}" = --kernel ] || { ort_install && litert_install && tflite_web_install; }
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages: ${missing[*]}" >&2
	echo "deps: run as root, or: apt-get install ${missing[*]}" >&2
	exit 1
fi
export DEBIAN_FRONTEND=noninteractive
[ -n "$arm64" ] && dpkg --add-architecture arm64
apt-get update -qq
if [ -n "$headers612" ]; then
	headers612=$(apt-cache search --names-only '^linux-headers-6\.12\.[0-9]+\+deb12-amd64$' |
		cut -d' ' -f1 | sort -V | tail -1)
	[ -n "$headers612" ] || { echo "deps: no linux-headers-6.12.*+deb12-amd64 in the archive" >&2; exit 1; }
	missing=("${missing[@]/linux-headers-6.12-newest/$headers612}")
fi
echo "deps: installing ${missing[*]}" >&2
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
[ "${1:-}" = --kernel ] || { ort_install && litert_install && tflite_web_install; }
