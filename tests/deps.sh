#!/bin/bash
# Install the Debian packages the build and the tests need, when missing.
# Run as root on Debian 12 (make deps; make check and make demo call it).
# --kernel: only what building the debug test kernel needs (make check
# installs those first, starts the kernel, then installs the rest).
set -euo pipefail

packages=(
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod xz-utils
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
)

if [ "${1:-}" = --kernel ]; then
	packages=(build-essential flex bison bc libelf-dev libssl-dev cpio kmod xz-utils)
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
# Debian 12 has no meta-package for its 6.12 kernel (bookworm-security):
# the newest linux-headers-6.12.*+deb12-amd64 the archive has, unless one is
# installed (its image is downloaded by the harness, not installed).
headers612=
if [ "${1:-}" != --kernel ] && ! ls -d /usr/src/linux-headers-6.12.*+deb12-amd64 >/dev/null 2>&1; then
	headers612=newest
	missing+=(linux-headers-6.12-newest)
fi
if [ ${#missing[@]} -eq 0 ]; then
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
