#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The Debian packages as a user gets them (TAP out):
#  1. the versions of dkms.conf, the library and debian/changelog agree;
#  2. make deb builds the four packages; lintian has nothing to say (at
#     pedantic level; the one override is justified in debian/);
#  3. DKMS builds the packaged module source, in a private DKMS tree (the
#     system's /var/lib/dkms is not touched), cross, against the tree
#     prepared for Debian's stock newest arm64 kernel (7.3, the board's);
#     the clean root below builds it for 6.12, and the stock lane builds
#     the same source for 6.1, 6.12 and 7.3 (lint.sh: W=1, sparse on 6.1);
#  4. a clean root (debootstrap --variant=minbase bookworm, cached as a
#     tarball) installs the four packages with apt, which brings what they
#     depend on from the archive; there the installed tactl plans a model,
#     a program builds against the library with pkg-config, the group, the
#     udev rule and the modprobe.d file are in place, DKMS builds, signs and
#     installs the module for the stock 6.12 kernel (its headers installed
#     from the archive too), and purging the package removes it again.
# usage: package-test.sh [--tap]
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

[ "${1:-}" = --tap ] && shift
out=$TA_ROOT/build/deb
log=$TA_ROOT/build/package-test.log
mkdir -p "$TA_ROOT/build"
: >"$log"
n=0
tap() { # tap STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# 1. One version.
version=$(sed -n 's/^PACKAGE_VERSION="\(.*\)"/\1/p' "$TA_ROOT/dkms.conf")
lib_version=$(cat "$TA_ROOT/VERSION")
deb_version=$(cd "$TA_ROOT" && dpkg-parsechangelog -S Version)
[ -n "$version" ] && [ "$version" = "$lib_version" ] && [ "$version" = "$deb_version" ]
tap $? "one version: dkms.conf $version, VERSION $lib_version, debian/changelog $deb_version"

# 2. The packages and lintian.
start=$SECONDS
"$TA_ROOT/tests/package-build.sh" "$out" >>"$log" 2>&1
tap $? "make deb: dpkg-buildpackage -b -us -uc ($((SECONDS - start)) s)"
debs=()
for p in tensorarena-dkms libtensorarena0 libtensorarena-dev tensorarena-tools; do
	deb=$(ls "$out/${p}_${version}_"*.deb 2>/dev/null)
	[ -n "$deb" ]
	tap $? "package $p built"
	[ -n "$deb" ] && debs+=("$deb") && echo "# $(basename "$deb"): $(stat -c %s "$deb") bytes"
done
lint=$(lintian --display-info --pedantic --fail-on error,warning,info,pedantic \
	"$out/tensorarena_${version}_"*.changes 2>&1)
status=$?
lint=$(grep -v '^running with root privileges' <<<"$lint")
[ "$status" = 0 ] && [ -z "$lint" ]
tap $? "lintian --pedantic: no tag (overrides justified in debian/*.lintian-overrides)"
[ -z "$lint" ] || echo "$lint" | head -20 | sed 's/^/# /'
[ ${#debs[@]} = 4 ] || { echo "# no packages: the rest cannot run"; exit 0; }

# 3. DKMS, on the host, in a private tree: the source the package ships.
# One place in the work tree, the same every run: the compiler cache
# (lib.sh) finds the objects of the last run's DKMS build there.
dk=$TA_ROOT/build/package-dkms
cleanup() {
	local m
	for m in $(awk -v r="$dk/root" '$2 ~ "^" r { print $2 }' /proc/mounts | sort -r); do
		umount -l "$m"
	done
	# never through a mount that failed to go: the host's /dev is one
	rm -rf --one-file-system "$dk"
}
cleanup
mkdir -p "$dk"
trap cleanup EXIT
dpkg-deb -x "$out/tensorarena-dkms_${version}_all.deb" "$dk/pkg"
mkdir -p "$dk/src" "$dk/tree" "$dk/install"
mv "$dk/pkg/usr/src/tensorarena-$version" "$dk/src/"
dkms_build() { # dkms_build NAME TREE ARCH CROSS
	local name=$1 tree=$2 release ko vermagic
	# The release the kernel reports (Debian's headers say 6.1.192 in
	# kernel.release, 6.1.0-57-amd64 in UTS_RELEASE, as uname -r does).
	release=$(sed -n 's/^#define UTS_RELEASE "\(.*\)"$/\1/p' "$tree/include/generated/utsrelease.h")
	env ARCH="$3" CROSS_COMPILE="$4" dkms build "tensorarena/$version" -a "$3" \
		--dkmstree "$dk/tree" --sourcetree "$dk/src" --installtree "$dk/install" \
		-k "$release" --kernelsourcedir "$tree" >>"$log" 2>&1
	tap $? "dkms build against $name ($release)"
	ko=$(find "$dk/tree/tensorarena/$version/$release" -name 'tensorarena.ko*' | head -1)
	vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
	[ -n "$ko" ] && [ "${vermagic%% *}" = "$release" ]
	tap $? "  its tensorarena.ko has the vermagic of $release"
}
start=$SECONDS
a64_newest=$("$TA_ROOT/tests/vm/build-stock-newest-tree.sh" arm64 2>>"$log") &&
	dkms_build "Debian's stock $(ta_newest_series) arm64 kernel (its prepared tree)" "$a64_newest" \
		arm64 "$TA_ARM64_CROSS"
echo "# DKMS build: $((SECONDS - start)) s"

# 4. The clean root.
start=$SECONDS
root=$dk/root
rootfs=$TA_CACHE/rootfs-bookworm-minbase.tar
if [ ! -f "$rootfs" ]; then
	mkdir -p "$dk/bootstrap"
	if debootstrap --variant=minbase bookworm "$dk/bootstrap" http://deb.debian.org/debian \
		>>"$log" 2>&1; then
		tar -C "$dk/bootstrap" -cf "$rootfs.tmp" . && mv "$rootfs.tmp" "$rootfs"
	fi
	rm -rf "$dk/bootstrap"
fi
mkdir -p "$root"
ta_cache_use "$rootfs"
tar -C "$root" -xf "$rootfs" 2>>"$log"
tap $? "a clean root: debootstrap --variant=minbase bookworm (cached in $rootfs)"
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
	LC_ALL=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }
mount -t proc proc "$root/proc"
mount --rbind /dev "$root/dev"
mount -t tmpfs tmpfs "$root/tmp"
cp /etc/resolv.conf "$root/etc/resolv.conf"
# A Debian 12 system's sources: its 6.12 kernel is in bookworm-security.
cat >"$root/etc/apt/sources.list" <<'LIST'
deb http://deb.debian.org/debian bookworm main
deb http://deb.debian.org/debian bookworm-updates main
deb http://deb.debian.org/debian-security bookworm-security main
LIST
# The archive's packages come from a cache of earlier runs when they can:
# apt downloads only what is missing.
archives=$TA_CACHE/clean-root-archives
mkdir -p "$archives"
ta_cache_use "$archives"
cp "$archives"/*.deb "$root/var/cache/apt/archives/" 2>/dev/null
mkdir -p "$root/tmp/debs"
cp "${debs[@]}" "$root/tmp/debs/"
in_debs=()
for deb in "${debs[@]}"; do in_debs+=("/tmp/debs/$(basename "$deb")"); done
in_root apt-get update -qq >>"$log" 2>&1 &&
	in_root apt-get install -y -qq --no-install-recommends "${in_debs[@]}" \
		pkgconf gcc libc6-dev openssl libelf1 pahole >>"$log" 2>&1
tap $? "apt-get install of the four packages in the clean root (with what a developer adds: pkgconf gcc libc6-dev, openssl for DKMS's signing key, and the headers' libelf1 pahole)"
# The cache keeps what this install took from the archive, nothing else.
rm -f "$archives"/*.deb
cp "$root"/var/cache/apt/archives/*.deb "$archives/" 2>/dev/null
rm -f "$archives"/tensorarena-* "$archives"/libtensorarena*
echo "# from the archive: $(ls "$archives" | wc -l) packages, $(du -sm "$archives" | cut -f1) MB (cached in $archives)"
echo "# clean root ready, packages installed: $((SECONDS - start)) s"

# The tools and the library.
in_root tactl --help >>"$log" 2>&1
tap $? "installed tactl runs (tactl --help)"
cp "$TA_ROOT/tests/data/control_flow.tflite" "$root/tmp/"
got=$(in_root tactl plan --offline /tmp/control_flow.tflite 2>&1)
grep -q 'height' <<<"$got"
tap $? "installed tactl plans a model offline"
[ -f "$root/usr/share/man/man1/tactl.1.gz" ] && [ -f "$root/usr/share/man/man4/tensorarena.4.gz" ] &&
	[ -f "$root/usr/share/man/man7/tensorarena.7.gz" ] &&
	[ -f "$root/usr/share/man/man3/libtensorarena.3.gz" ] &&
	[ -f "$root/usr/share/bash-completion/completions/tactl" ]
tap $? "man pages tactl(1), libtensorarena(3), tensorarena(4), tensorarena(7) and the completion installed"
pc=$(in_root pkg-config --modversion tensorarena 2>&1)
[ "$pc" = "$version" ]
tap $? "pkg-config --modversion tensorarena: $pc"
cat >"$root/tmp/user.c" <<'C'
#include <stdio.h>
#include <tensorarena.h>

int main(void)
{
	struct ta_graph_builder *g = ta_graph_new();
	struct ta_plan *p;
	uint32_t in, out;

	in = ta_graph_add_tensor(g, 1000, 64, TA_TENSOR_INPUT);
	out = ta_graph_add_tensor(g, 2000, 64, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &in, 1, &out, 1);
	if (ta_plan_offline(g, NULL, &p))
		return 1;
	printf("%llu\n", (unsigned long long)ta_plan_height(p));
	ta_plan_free(p);
	ta_graph_free(g);
	return 0;
}
C
in_root sh -c 'cc -Wall -Werror -o /tmp/user /tmp/user.c $(pkg-config --cflags --libs tensorarena)' >>"$log" 2>&1
tap $? "a program builds with pkg-config --cflags --libs tensorarena (shared library)"
got=$(in_root /tmp/user 2>&1)
[ "$got" = 3024 ]
tap $? "it plans with the installed library (height $got)"
in_root sh -c 'cc -o /tmp/user-static /tmp/user.c $(pkg-config --static --cflags --libs tensorarena) -static' >>"$log" 2>&1 &&
	[ "$(in_root /tmp/user-static 2>&1)" = 3024 ]
tap $? "and statically, with pkg-config --static (libtensorarena.a)"

# The system files.
gid=$(in_root getent group tensorarena | cut -d: -f3)
[ -n "$gid" ]
tap $? "the package created the system group tensorarena (gid $gid)"
grep -q 'GROUP="tensorarena", MODE="0660"' "$root/lib/udev/rules.d/70-tensorarena.rules"
tap $? "udev rule /lib/udev/rules.d/70-tensorarena.rules gives the node group tensorarena, mode 0660"
line=$(in_root modprobe -c 2>/dev/null | sed -n 's/^install tensorarena //p')
[ -n "$line" ]
tap $? "modprobe reads /lib/modprobe.d/tensorarena.conf (modprobe -c has its install line)"
# Run the install command as modprobe would, with modprobe itself echoed.
got=$(in_root sh -c "CMDLINE_OPTS='arena_size=8M'; ${line//\/sbin\/modprobe/echo}" 2>&1)
[ "$got" = "--ignore-install tensorarena group=$gid arena_size=8M" ]
tap $? "its install line loads the module with group=<gid of tensorarena> (got '$got')"

# DKMS in the clean root: the package's postinst added the module; build,
# sign and install it for the stock 6.12 kernel. Its headers are the host's
# linux-headers package, mounted where the package puts them (installing it
# with apt would bring the kernel image and an initramfs build along; what
# its build tools need, libelf1 and pahole, apt installed above).
abi=$(ta_stock_abi 6.12)
headers=/usr/src/linux-headers-$abi
for d in "$headers" "$(sed -n 's|^include \(/.*\)/Makefile$|\1|p' "$headers/Makefile")" \
	"$(dirname "$(readlink -f "$headers/scripts")")"; do
	mkdir -p "$root$d"
	mount --bind -o ro "$d" "$root$d"
done
mkdir -p "$root/lib/modules/$abi"
ln -sfn "/usr/src/linux-headers-$abi" "$root/lib/modules/$abi/build"
in_root dkms status >>"$log" 2>&1
in_root dkms status 2>/dev/null | grep -q "^tensorarena/$version"
tap $? "dkms status lists tensorarena/$version (added by the package)"
in_root dkms install "tensorarena/$version" -k "$abi" >>"$log" 2>&1
status=$?
[ "$status" = 0 ] || cat "$root/var/lib/dkms/tensorarena/$version/build/make.log" >>"$log" 2>&1
[ "$status" = 0 ]
tap $? "dkms install tensorarena/$version -k $abi in the clean root"
file=$(in_root modinfo -k "$abi" -F filename tensorarena 2>/dev/null)
vermagic=$(in_root modinfo -k "$abi" -F vermagic tensorarena 2>/dev/null)
[ -n "$file" ] && [ "${vermagic%% *}" = "$abi" ]
tap $? "depmod knows it for $abi: $file"
signer=$(in_root modinfo -k "$abi" -F signer tensorarena 2>/dev/null)
[ -n "$signer" ] && [ -f "$root/var/lib/dkms/mok.pub" ]
tap $? "DKMS signed it with its MOK key (signer '$signer'; /var/lib/dkms/mok.pub to enroll for Secure Boot)"
in_root apt-get purge -y -qq tensorarena-dkms >>"$log" 2>&1
[ ! -e "$root$file" ] && ! in_root dkms status 2>/dev/null | grep -q tensorarena
tap $? "apt-get purge tensorarena-dkms removes the module and its DKMS entry"

# Without the packages: make dkms-install from a copy of the source tree.
mkdir -p "$root/tmp/src"
(cd "$TA_ROOT" && git ls-files -z --cached --others --exclude-standard |
	xargs -0 -I{} sh -c 'test -e "{}" && printf "%s\0" "{}"' |
	tar --null -T - -cf -) | tar -C "$root/tmp/src" -xf -
in_root make -C /tmp/src dkms-install KVER="$abi" >>"$log" 2>&1
status=$?
file=$(in_root modinfo -k "$abi" -F filename tensorarena 2>/dev/null)
[ "$status" = 0 ] && case $file in "/lib/modules/$abi/updates/dkms/tensorarena.ko"*) true ;; *) false ;; esac
tap $? "make dkms-install KVER=$abi from the source tree builds and installs it ($file)"
in_root dkms remove "tensorarena/$version" --all >>"$log" 2>&1
tap $? "dkms remove takes it away again"
echo "# clean root: $((SECONDS - start)) s"
