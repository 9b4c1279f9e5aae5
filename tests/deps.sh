#!/bin/bash
# Install the Debian packages the build and the tests need, when missing.
# Run as root on Debian 12 (make deps; make check and make demo call it).
set -euo pipefail

packages=(
	build-essential flex bison bc libelf-dev libssl-dev cpio kmod xz-utils
	linux-source-6.1 linux-source-6.12 linux-headers-amd64
	qemu-system-x86 busybox-static sparse python3
	libnl-genl-3-dev pkg-config python3-yaml python3-jsonschema
	gcc-aarch64-linux-gnu device-tree-compiler dt-schema
	clang libclang-rt-14-dev llvm
)

missing=()
for p in "${packages[@]}"; do
	status=$(dpkg-query -W -f='${Status}' "$p" 2>/dev/null || true)
	[ "$status" = "install ok installed" ] || missing+=("$p")
done
if [ ${#missing[@]} -eq 0 ]; then
	exit 0
fi
if [ "$(id -u)" != 0 ]; then
	echo "deps: missing Debian packages: ${missing[*]}" >&2
	echo "deps: run as root, or: apt-get install ${missing[*]}" >&2
	exit 1
fi
echo "deps: installing ${missing[*]}" >&2
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
