# shellcheck shell=bash
# Shared paths and helpers for the tensorarena test harness.
# Sourced by the scripts in tests/vm/; not meant to be run.

TA_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
TA_CACHE=${TA_CACHE:-${XDG_CACHE_HOME:-$HOME/.cache}/tensorarena}
# Debian's linux-source-6.1: the arm64 6.1 tree (tests/vm/build-arm64.sh).
TA_SRC_TARBALL=/usr/src/linux-source-6.1.tar.xz
# shared/ (bench traces, models) sits beside the repository.
TA_SHARED=${TA_SHARED:-$(cd "$TA_ROOT/.." && pwd)/shared}
# Libraries the static test programs need beyond libtensorarena.a. On a
# fresh machine make check builds the kernel while the rest of the packages
# (pkg-config, libnl) are still being installed: scripts that source this
# under set -e must not die here (a cold run lost its test kernel so).
TA_STATIC_LIBS=${TA_STATIC_LIBS:-$(pkg-config --static --libs libnl-genl-3.0 2>/dev/null || true)}
# Debian's stock kernel used for the "kernel users run" smoke test.
TA_STOCK_ABI=${TA_STOCK_ABI:-}

ta_log() { printf '[%(%H:%M:%S)T] %s\n' -1 "$*" >&2; }
ta_die() { ta_log "error: $*"; exit 1; }

# The cache keeps each thing a run builds or fetches in a top-level entry
# of its own (a kernel tree, a kernel's packages, a source, a lock file
# NAME.lock beside its NAME). A new kernel version, or a change to a tree's
# builder or configuration, makes new entries and leaves the old ones: a
# debug tree alone is 2.4 GB. Every function that hands out an entry marks
# it used (ta_cache_use); make check removes, before it starts, the entries
# no run has used for TA_CACHE_KEEP_DAYS days (ta_cache_prune).
TA_CACHE_KEEP_DAYS=${TA_CACHE_KEEP_DAYS:-30}

# ta_cache_use PATH...: each PATH (in the cache) is in use now: the
# modification time of its top-level entry, and of that entry's lock file
# if it has one, is set to now. A PATH outside the cache is left alone.
ta_cache_use() {
	local p top
	for p in "$@"; do
		case "$p" in "$TA_CACHE"/?*) ;; *) continue ;; esac
		top=${p#"$TA_CACHE"/}
		top=$TA_CACHE/${top%%/*}
		touch -c "$top" "$top.lock" 2>/dev/null || true
	done
}

# ta_cache_prune: remove the cache's top-level entries whose modification
# time is TA_CACHE_KEEP_DAYS days old or more (0: keep everything), a lock
# file with its entry (or alone, as old), and the kernel builders' scratch
# trees (tree.*, left by a build that was killed) after a day. Not the
# compiler cache, which keeps itself under its size (ta_ccache_env). Logs
# what it removed and its size.
ta_cache_prune() {
	local days=$TA_CACHE_KEEP_DAYS e name mib why
	case "$days" in '' | *[!0-9]*) ta_die "TA_CACHE_KEEP_DAYS=$days is not a number of days" ;; esac
	[ "$days" -gt 0 ] && [ -d "$TA_CACHE" ] || return 0
	while IFS= read -r -d '' e; do
		[ -e "$e" ] || continue	# a lock file gone with its entry
		name=${e##*/}
		case "$name" in
		ccache) continue ;;
		*.lock) [ -e "${e%.lock}" ] && continue ;;	# goes with its entry
		esac
		mib=$(du -sm "$e" 2>/dev/null | cut -f1)
		rm -rf "$e" "$e.lock" ||
			{ ta_log "cache: cannot remove $e"; continue; }
		case "$name" in
		tree.*) why="a killed build's scratch tree" ;;
		*) why="unused for $days days or more" ;;
		esac
		ta_log "cache: removed $name (${mib:-0} MiB): $why"
	done < <(find "$TA_CACHE" -mindepth 1 -maxdepth 1 \
		\( \( -name 'tree.*' -mtime +0 \) -o -mtime +"$((days - 1))" \) -print0)
}

# ta_ccache_env: make check's compiler cache. Every compiler a build calls
# by name (gcc, cc, clang, aarch64-linux-gnu-gcc: Debian's ccache puts them
# in /usr/lib/ccache) goes through ccache, in depend mode (the compiler's
# own dependency file, no second preprocessor run: a miss costs little),
# cached in $TA_CACHE/ccache. A hit replays the compiler's stderr, so the
# W=1 checks still see every warning; sparse (C=2) is not a compiler call
# and always runs. Keys hold the sources' and headers' contents and paths:
# a clone elsewhere, or a change to a header, recompiles what it reaches.
# Exported, so the lanes and every script they run see it; ccache itself
# arrives with tests/deps.sh --kernel (until then the PATH entry is empty).
ta_ccache_env() {
	export CCACHE_DIR=$TA_CACHE/ccache CCACHE_DEPEND=1 CCACHE_MAXSIZE=3G
	case ":$PATH:" in *:/usr/lib/ccache:*) ;; *) export PATH=/usr/lib/ccache:$PATH ;; esac
}
# The kernel trees are cached whole, as trees: the scripts that build them
# keep their objects out of the compiler cache (set here, not in them: each
# is part of its tree's cache key).
case ${0##*/} in
build-kernel-newest.sh | build-stock-newest-tree.sh | build-arm64.sh) export CCACHE_DISABLE=1 ;;
esac

# ta_tree_unpack TARBALL TOPDIR: the kernel builders' scratch tree: TOPDIR
# of TARBALL unpacked into a fresh directory under the cache, as
# $TA_TREE_TMP/linux. The caller's EXIT trap removes $TA_TREE_TMP unless
# ta_tree_keep took the tree, so call it in the builder's own shell, not
# in a subshell.
ta_tree_unpack() {
	mkdir -p "$TA_CACHE"
	TA_TREE_TMP=$(mktemp -d "$TA_CACHE/tree.XXXXXX")
	trap 'rm -rf "$TA_TREE_TMP"' EXIT
	tar -C "$TA_TREE_TMP" -xf "$1"
	mv "$TA_TREE_TMP/$2" "$TA_TREE_TMP/linux"
}

# ta_tree_keep DIR: the tree ta_tree_unpack gave (built since) becomes
# DIR/linux, in place of whatever DIR held, and DIR is marked done; prints
# DIR/linux.
ta_tree_keep() {
	rm -rf "$1"
	mkdir -p "$1"
	mv "$TA_TREE_TMP/linux" "$1/linux"
	rmdir "$TA_TREE_TMP"
	trap - EXIT
	touch "$1/.done"
	echo "$1/linux"
}

# ta_cache_key PACKAGE FILE...: the cache key of a kernel tree built from
# Debian's source PACKAGE: its exact version and the FILEs (the config
# fragment, the build script) hashed.
ta_cache_key() {
	local ver
	ver=$(dpkg-query -W -f='${Version}' "$1" 2>/dev/null || echo none)
	shift
	{ echo "$ver"; cat "$@"; } | sha256sum | cut -c1-16
}

# The arm64 tree (tests/vm/build-arm64.sh): a cross build of the module with
# CONFIG_OF_RESERVED_MEM, keyed like the test kernel.
TA_ARM64_FRAGMENT=$TA_ROOT/tests/vm/arm64-6.1.config
TA_ARM64_CROSS=${TA_ARM64_CROSS:-aarch64-linux-gnu-}
ta_arm64_dir() {
	local dir
	dir=$TA_CACHE/arm64-$(ta_cache_key linux-source-6.1 "$TA_ARM64_FRAGMENT" \
		"$TA_ROOT/tests/vm/build-arm64.sh")
	ta_cache_use "$dir"
	echo "$dir"
}

# The newest kernel Debian carries: linux 7.3 of trixie-backports (also in
# forky and sid; trixie-backports is signed by keys Debian 12's
# debian-archive-keyring has). Fetched as apt would, through a private apt
# configuration under the cache (its own sources list, lists and archives;
# the host's /etc/apt is not read or changed), then apt-get download and
# dpkg-deb -x: nothing is installed. TA_NEWEST_VERSION is the package version
# tested, and its series (7.3) names the packages (linux-source-7.3); when
# the archive no longer has that version, the newest of the series in the
# suite is taken and the log says so (Documentation/kernels.md: moving to a
# newer one). TA_NEWEST_TAG is the suite's ABI tag (7.3.4+deb13-amd64).
TA_NEWEST_SUITE=${TA_NEWEST_SUITE:-trixie-backports}
TA_NEWEST_TAG=${TA_NEWEST_TAG:-deb13}
TA_NEWEST_VERSION=${TA_NEWEST_VERSION:-7.3.4-1~bpo13+1}
TA_APT_NEWEST=$TA_CACHE/apt-$TA_NEWEST_SUITE

# ta_newest_series: the series of TA_NEWEST_VERSION (7.3.4-1~bpo13+1: 7.3).
ta_newest_series() {
	local v=${TA_NEWEST_VERSION%%-*}
	[[ $v =~ ^[0-9]+\.[0-9]+ ]] || ta_die "TA_NEWEST_VERSION $TA_NEWEST_VERSION: no series"
	echo "${BASH_REMATCH[0]}"
}

# ta_apt_newest APT-GET ARGS...: apt-get with the private configuration.
ta_apt_newest() {
	local tool=${TA_APT_NEWEST_TOOL:-apt-get}
	"$tool" -q -o Dir::Etc::SourceList="$TA_APT_NEWEST/sources.list" \
		-o Dir::Etc::SourceParts="$TA_APT_NEWEST/sources.list.d" \
		-o Dir::Etc::Preferences="$TA_APT_NEWEST/preferences" \
		-o Dir::Etc::PreferencesParts="$TA_APT_NEWEST/preferences.d" \
		-o Dir::State::Lists="$TA_APT_NEWEST/lists" -o Dir::Cache="$TA_APT_NEWEST/cache" \
		-o Dir::State::status="$TA_APT_NEWEST/status" \
		-o APT::Architectures::=amd64 -o APT::Architectures::=arm64 \
		-o APT::Sandbox::User=root "$@"
}

# ta_apt_newest_update: the private configuration, and its package lists
# fetched once a day (at most). Lanes of one run may ask at once: under a
# lock of the cache's.
ta_apt_newest_update() {
	mkdir -p "$TA_APT_NEWEST"/{sources.list.d,preferences.d,lists/partial,cache/archives/partial}
	ta_cache_use "$TA_APT_NEWEST"
	(
		flock 9
		[ -f "$TA_APT_NEWEST/status" ] || : >"$TA_APT_NEWEST/status"
		: >"$TA_APT_NEWEST/preferences"
		echo "deb [signed-by=/usr/share/keyrings/debian-archive-keyring.gpg] http://deb.debian.org/debian $TA_NEWEST_SUITE main" \
			>"$TA_APT_NEWEST/sources.list"
		if [ -z "$(find "$TA_APT_NEWEST/lists" -name '*_Packages*' -mmin -1440 2>/dev/null)" ]; then
			ta_apt_newest update -qq >&2 || exit 1
		fi
	) 9>"$TA_APT_NEWEST/update.lock" || ta_die "apt-get update of $TA_NEWEST_SUITE failed"
}

# ta_apt_newest_version PACKAGE VERSION: VERSION when the suite has it, else
# the suite's newest version of PACKAGE (and the log says so).
ta_apt_newest_version() {
	local pkg=$1 want=$2 v newest
	ta_apt_newest_update
	v=$(TA_APT_NEWEST_TOOL=apt-cache ta_apt_newest madison "$pkg" | awk -F'|' '{gsub(/ /,"",$2); print $2}')
	if grep -qxF "$want" <<<"$v"; then
		echo "$want"
		return
	fi
	newest=$(sort -V <<<"$v" | tail -1)
	[ -n "$newest" ] || ta_die "$TA_NEWEST_SUITE has no $pkg"
	ta_log "$pkg $want is gone from $TA_NEWEST_SUITE: using $newest"
	echo "$newest"
}

# ta_newest_version: the package version of the newest kernel used
# (TA_NEWEST_VERSION, or the suite's newest of its series when that one is
# gone).
ta_newest_version() {
	[ -n "${TA_NEWEST_RESOLVED:-}" ] && { echo "$TA_NEWEST_RESOLVED"; return; }
	ta_apt_newest_version "linux-source-$(ta_newest_series)" "$TA_NEWEST_VERSION"
}

# ta_newest_abi [ARCH]: the ABI of that version, e.g. 7.3.4+deb13-amd64.
ta_newest_abi() {
	local v
	v=$(ta_newest_version) || return 1
	echo "${v%%-*}+$TA_NEWEST_TAG-${1:-amd64}"
}

# ta_newest_deb PACKAGE [ARCH]: the .deb of PACKAGE at the newest kernel's
# version (downloaded once into the cache); prints its path.
ta_newest_deb() {
	local pkg=$1 arch=${2:-} v dir f
	v=$(ta_newest_version) || return 1
	dir=$TA_CACHE/debs-$(ta_newest_series)/$v
	f=$(ls "$dir/${pkg}_"*"${arch:+_$arch}.deb" 2>/dev/null | head -1)
	if [ -z "$f" ]; then
		mkdir -p "$dir"
		(
			flock 9
			ls "$dir/${pkg}_"*"${arch:+_$arch}.deb" >/dev/null 2>&1 && exit 0
			cd "$dir" && ta_apt_newest download -qq "$pkg${arch:+:$arch}=$v"
		) 9>"$dir/.download.lock" >&2 ||
			ta_die "cannot download $pkg${arch:+:$arch} $v from $TA_NEWEST_SUITE"
		f=$(ls "$dir/${pkg}_"*"${arch:+_$arch}.deb" | head -1)
	fi
	ta_cache_use "$f"
	echo "$f"
}

# ta_dtschema_schemas: the schemas directory of trixie-backports'
# dt-schema (TA_DTSCHEMA_VERSION, or the suite's newest when that one is
# gone), unpacked once into the cache: nothing is installed. Kernels that
# leave the reserved-memory schemas (reserved-memory.yaml,
# shared-dma-pool.yaml, memory-region.yaml) to dt-schema, as 7.2 and later
# do (their bindings' DT_SCHEMA_MIN_VERSION is 2023.9), need them; Debian 12's
# dt-schema (2022.08) predates their move, and the newer package's own
# tools need python3-referencing, which Debian 12 does not have, so only
# its schemas are taken, for Debian 12's tools to read.
TA_DTSCHEMA_VERSION=${TA_DTSCHEMA_VERSION:-2025.08-1.2~bpo13+1}
ta_dtschema_schemas() {
	local v dir
	v=$(ta_apt_newest_version dt-schema "$TA_DTSCHEMA_VERSION") || return 1
	dir=$TA_CACHE/dt-schema-$v
	if [ ! -f "$dir/.done" ]; then
		mkdir -p "$TA_CACHE"
		(
			flock 9
			[ -f "$dir/.done" ] && exit 0
			rm -rf "$dir"
			mkdir -p "$dir/deb"
			cd "$dir/deb" && ta_apt_newest download -qq "dt-schema=$v" &&
				dpkg-deb -x dt-schema_*.deb "$dir/root" && touch "$dir/.done"
		) 9>"$dir.lock" >&2 || ta_die "cannot fetch dt-schema $v from $TA_NEWEST_SUITE"
	fi
	ta_cache_use "$dir"
	echo "$dir/root/usr/lib/python3/dist-packages/dtschema/schemas"
}

# ta_newest_source: linux-source-SERIES's tarball, unpacked from its .deb
# once; prints its path.
ta_newest_source() {
	local v deb dir name
	v=$(ta_newest_version) || return 1
	name=linux-source-$(ta_newest_series)
	dir=$TA_CACHE/debs-$(ta_newest_series)/$v/src
	if [ ! -f "$dir/$name.tar.xz" ]; then
		deb=$(ta_newest_deb "$name") || return 1
		mkdir -p "$dir"
		(
			flock 9
			[ -f "$dir/$name.tar.xz" ] && exit 0
			dpkg-deb --fsys-tarfile "$deb" | tar -xO "./usr/src/$name.tar.xz" \
				>"$dir/$name.tar.xz.tmp" &&
				mv "$dir/$name.tar.xz.tmp" "$dir/$name.tar.xz"
		) 9>"$dir/.lock" || ta_die "cannot unpack $deb"
	fi
	ta_cache_use "$dir"
	echo "$dir/$name.tar.xz"
}

# ta_newest_stock ARCH: Debian's stock newest kernel for ARCH (amd64, arm64): its
# image, modules and configuration unpacked once into the cache (not
# installed). Prints the directory; DIR/usr/lib/modules/ABI/vmlinuz.
ta_newest_stock() {
	local arch=$1 abi dir p deb
	abi=$(ta_newest_abi "$arch") || return 1
	dir=$TA_CACHE/stock-$abi
	if [ ! -f "$dir/.done" ]; then
		for p in linux-binary linux-modules linux-base; do
			ta_newest_deb "$p-$abi" "$arch" >/dev/null || return 1
		done
		mkdir -p "$TA_CACHE"
		(
			flock 9
			[ -f "$dir/.done" ] && exit 0
			ta_log "unpacking Debian's stock kernel $abi ($TA_NEWEST_SUITE)"
			rm -rf "$dir"
			mkdir -p "$dir"
			for p in linux-binary linux-modules linux-base; do
				dpkg-deb -x "$(ta_newest_deb "$p-$abi" "$arch")" "$dir" || exit 1
			done
			depmod -b "$dir/usr" "$abi" && touch "$dir/.done"
		) 9>"$dir.lock" || ta_die "cannot unpack Debian's stock kernel $abi"
	fi
	ta_cache_use "$dir"
	echo "$dir"
}

# The debug test kernel, the newest (tests/vm/build-kernel-newest.sh):
# tinyconfig plus tests/vm/test-newest.config, keyed by the fragment, the
# script and the package version.
TA_FRAGMENT_NEWEST=$TA_ROOT/tests/vm/test-newest.config
ta_newest_kernel_dir() {
	local v dir
	v=$(ta_newest_version) || return 1
	dir=$TA_CACHE/newest-kernel-$({ echo "$v"; cat "$TA_FRAGMENT_NEWEST" "$TA_ROOT/tests/vm/build-kernel-newest.sh"; } |
		sha256sum | cut -c1-16)
	ta_cache_use "$dir"
	echo "$dir"
}

# ta_test_kernel_cached: the cached test kernel's tree (the pinned version,
# TA_NEWEST_VERSION, unless the run resolved another), or nothing. Never
# fetches: a plain make asks it.
ta_test_kernel_cached() {
	local d
	d=$(TA_NEWEST_RESOLVED=${TA_NEWEST_RESOLVED:-$TA_NEWEST_VERSION} ta_newest_kernel_dir) &&
		[ -f "$d/.done" ] && echo "$d/linux"
}

# ta_config_check FRAGMENT: every CONFIG_ line of FRAGMENT is in ./.config,
# and no symbol a "# CONFIG_... is not set" line names is on.
ta_config_check() {
	local line missing=0
	while read -r line; do
		case "$line" in
		CONFIG_*=*)
			grep -qxF "$line" .config && continue ;;
		"# CONFIG_"*" is not set")
			line=${line#\# }
			line=${line% is not set}
			grep -q "^$line=" .config || continue
			line="# $line is not set" ;;
		*) continue ;;
		esac
		ta_log "config: $line did not stick"
		missing=1
	done <"$1"
	[ "$missing" = 0 ] || ta_die "$(basename "$1") does not apply cleanly (see above)"
}

# ta_make_logged WHAT MAKE ARGS...: run make in the background, logging to
# build.log with a progress line every minute; dies naming WHAT on failure.
ta_make_logged() {
	local what=$1 pid start=$SECONDS
	shift
	(make "$@" >build.log 2>&1; echo $? >build.rc) &
	pid=$!
	while kill -0 "$pid" 2>/dev/null; do
		sleep 60 &
		wait $! || true
		kill -0 "$pid" 2>/dev/null || break
		ta_log "  still compiling ($(( (SECONDS - start) / 60 )) min, $(grep -c '^  CC' build.log || true) files compiled)"
	done
	wait "$pid" || true
	if [ "$(cat build.rc)" != 0 ]; then
		tail -40 build.log >&2
		ta_die "$what build failed"
	fi
}

# The Debian stock kernels the module must also work on, one per series
# (6.1: linux-headers-amd64; 6.12: linux-headers-6.12.*+deb12-amd64 of
# bookworm-security, which tests/deps.sh installs): the newest installed
# headers of SERIES, whose unsigned image is downloaded and unpacked (not
# installed). Prints the ABI, e.g. 6.1.0-57-amd64.
ta_stock_abi() {
	local series=${1:-6.1} d pattern
	case "$series" in
	6.1) pattern='/usr/src/linux-headers-6.1.*-amd64' ;;
	6.12) pattern='/usr/src/linux-headers-6.12.*+deb12-amd64' ;;
	*) ta_die "no stock kernel series $series" ;;
	esac
	# shellcheck disable=SC2086
	d=$(ls -d $pattern 2>/dev/null | sort -V | tail -1)
	[ -n "$d" ] || ta_die "no $pattern: run 'make deps'"
	echo "${d#/usr/src/linux-headers-}"
}

ta_stock_kernel() {
	local abi=$1 dir="$TA_CACHE/stock-$1" tmp
	if [ ! -f "$dir/boot/vmlinuz-$abi" ]; then
		ta_log "fetching Debian's stock kernel linux-image-$abi-unsigned"
		tmp=$(mktemp -d)
		(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root "linux-image-$abi-unsigned") >&2 ||
			ta_die "cannot download linux-image-$abi-unsigned"
		mkdir -p "$dir"
		dpkg-deb -x "$tmp"/linux-image-*.deb "$dir"
		rm -rf "$tmp"
	fi
	ta_cache_use "$dir"
	echo "$dir/boot/vmlinuz-$abi"
}

# ta_stock_modules ABI OUT MODULE...: the named modules of Debian's stock
# kernel ABI (ta_stock_kernel) and all they depend on, uncompressed into
# OUT, with OUT/order naming them in load order (dependencies first, as
# modprobe loads them). The image's modules.dep is made once by depmod.
ta_stock_modules() {
	local abi=$1 out=$2 base root line d name
	shift 2
	# Debian 12's images unpack to lib/modules, trixie's (7.2 and later) to
	# usr/lib/modules.
	base=$TA_CACHE/stock-$abi
	ta_cache_use "$base"
	[ -d "$base/usr/lib/modules/$abi" ] && base=$base/usr
	root=$base/lib/modules/$abi
	[ -f "$root/modules.dep" ] || depmod -b "$base" "$abi" ||
		ta_die "depmod failed for the stock kernel $abi"
	rm -rf "$out"
	mkdir -p "$out"
	: >"$out/order"
	for m in "$@"; do
		line=$(grep -E "/$m\.ko(\.xz)?:" "$root/modules.dep") ||
			ta_die "the stock kernel $abi has no module $m"
		# modules.dep lists the dependencies last-loaded first.
		for d in $(echo "${line#*:}" | tr ' ' '\n' | tac) "${line%%:*}"; do
			name=$(basename "${d%.xz}")
			grep -qxF "$name" "$out/order" && continue
			case "$d" in
			*.xz) xz -dc "$root/$d" >"$out/$name" ;;
			*) cp "$root/$d" "$out/$name" ;;
			esac || ta_die "cannot copy $d of the stock kernel $abi"
			echo "$name" >>"$out/order"
		done
	done
}

# ta_kbuild WHAT KDIR DIR [MAKE ARGS...]: make the out-of-tree modules of
# DIR against KDIR with W=1, log in DIR/build.log; dies (naming WHAT) on a
# failure or any compiler warning.
ta_kbuild() {
	local what=$1 kdir=$2 dir=$3
	shift 3
	find "$dir" \( -name '*.o' -o -name '.*.cmd' -o -name '*.ko' \) -delete
	# Debian 12's pahole (1.24) once failed to add the BTF of a module
	# whose build was otherwise complete ("pahole: ...ko: Invalid
	# argument", the machine loaded; the same build passed right after):
	# that last step, and only that failure, is tried a second time.
	if ! make -C "$kdir" M="$dir" W=1 "$@" modules >"$dir/build.log" 2>&1 &&
	   ! { grep -q '^pahole: .*\.ko: ' "$dir/build.log" &&
	       echo "# pahole failed: the module's last step again" >>"$dir/build.log" &&
	       make -C "$kdir" M="$dir" W=1 "$@" modules >>"$dir/build.log" 2>&1; }; then
		cat "$dir/build.log" >&2
		ta_die "$what build against $kdir failed"
	fi
	if grep -q 'warning:' "$dir/build.log"; then
		grep -B2 -A4 'warning:' "$dir/build.log" >&2
		ta_die "$what build against $kdir has warnings"
	fi
}

# ta_build_module KDIR OUTDIR [MAKE ARGS...]: build tensorarena.ko from a
# copy of the sources in OUTDIR (so builds for different kernels never share
# objects) and print the .ko's path. Fails on any compiler warning.
ta_build_module() {
	local kdir=$1 out=$2
	shift 2
	rm -rf "$out"
	mkdir -p "$out"
	cp -a "$TA_ROOT/Kbuild" "$TA_ROOT/module" "$TA_ROOT/uapi" "$out/"
	ta_kbuild module "$kdir" "$out" "$@"
	echo "$out/tensorarena.ko"
}

# ta_build_npu_sim KDIR OUTDIR SYMVERS [MAKE ARGS...]: build the reference
# NPU driver (tests/npu-sim) from a copy laid out as in the repository,
# against tensorarena's SYMVERS (its Module.symvers), and print the .ko's
# path. Fails on any compiler warning.
ta_build_npu_sim() {
	local kdir=$1 out=$2 symvers=$3
	shift 3
	rm -rf "$out"
	mkdir -p "$out/tests" "$out/module"
	cp -a "$TA_ROOT/tests/npu-sim" "$out/tests/"
	cp -a "$TA_ROOT/uapi" "$out/"
	cp -a "$TA_ROOT/module/include" "$out/module/"
	ta_kbuild "reference NPU driver" "$kdir" "$out/tests/npu-sim" \
		KBUILD_EXTRA_SYMBOLS="$symvers" "$@"
	echo "$out/tests/npu-sim/ta_npu_sim.ko"
}

# ta_ynl_tools [SERIES]: the kernel's YNL tools (tools/net/ynl) and netlink
# schemas of Debian's linux-source-SERIES, 6.12 (the default) or the
# newest kernel's (ta_newest_series),
# extracted once into the cache; prints the directory. From 6.14 the
# generator and the CLI are tools/net/ynl/pyynl/{ynl_gen_c,cli}.py, before
# tools/net/ynl/{ynl-gen-c,cli}.py: ta_ynl_gen and ta_ynl_cli say which.
ta_ynl_tools() {
	local series=${1:-6.12} dir tarball tmp
	case "$series" in
	6.12)
		dir=$TA_CACHE/ynl-6.12
		tarball=/usr/src/linux-source-6.12.tar.xz
		[ -f "$tarball" ] || ta_die "no $tarball: run 'make deps'"
		;;
	*)
		[ "$series" = "$(ta_newest_series)" ] || ta_die "no YNL tools of $series"
		dir=$TA_CACHE/ynl-$series-$(ta_newest_version) || return 1
		tarball=$(ta_newest_source) || return 1
		;;
	esac
	if [ ! -f "$dir/tools/net/ynl/lib/ynl.py" ] && [ ! -f "$dir/tools/net/ynl/pyynl/lib/ynl.py" ]; then
		tmp=$dir.tmp
		rm -rf "$tmp"
		mkdir -p "$tmp"
		tar -xJf "$tarball" -C "$tmp" --strip-components=1 \
			"linux-source-$series/tools/net/ynl" "linux-source-$series/Documentation/netlink" ||
			ta_die "cannot extract the YNL tools of $series"
		rm -rf "$dir"
		mv "$tmp" "$dir"
	fi
	ta_cache_use "$dir"
	echo "$dir"
}

# ta_ynl_gen YNL_DIR, ta_ynl_cli YNL_DIR: the generator, the CLI.
ta_ynl_gen() {
	if [ -f "$1/tools/net/ynl/pyynl/ynl_gen_c.py" ]; then
		echo "$1/tools/net/ynl/pyynl/ynl_gen_c.py"
	else
		echo "$1/tools/net/ynl/ynl-gen-c.py"
	fi
}
ta_ynl_cli() {
	if [ -f "$1/tools/net/ynl/pyynl/cli.py" ]; then
		echo "$1/tools/net/ynl/pyynl/cli.py"
	else
		echo "$1/tools/net/ynl/cli.py"
	fi
}

# ta_initramfs OUT PAYLOAD_DIR [BUSYBOX]: a busybox initramfs whose /init is
# tests/vm/init and whose /ta is PAYLOAD_DIR (BUSYBOX: the host's by default).
ta_initramfs() {
	local out=$1 payload=$2 busybox=${3:-/bin/busybox} root
	root=$(mktemp -d)
	chmod 755 "$root"
	mkdir -p "$root"/{bin,sbin,dev,proc,sys,tmp,etc}
	chmod 1777 "$root/tmp"
	cp "$busybox" "$root/bin/busybox"
	cp "$TA_ROOT/tests/vm/init" "$root/init"
	chmod +x "$root/init"
	cp -a "$payload" "$root/ta"
	chmod -R a+rX "$root/ta"
	(cd "$root" && find . | cpio -o -H newc --quiet | gzip -1) >"$out"
	rm -rf "$root"
}

# Under TCG the kernel's own boot (ACPI's AML interpreter, with KASAN) can
# hold a CPU past the test kernel's short RCU stall timeout before /init
# runs: stall reports are suppressed until init starts, and count after.
TA_BOOT_ARGS="rcupdate.rcu_cpu_stall_suppress_at_boot=1"

# ta_qemu LOG LIMIT MODE QEMU [ARGS...]: run QEMU with its serial console
# in LOG for at most LIMIT seconds. Under TCG a boot can stall before /init
# runs (seen once in a make check: the debug kernel silent after "vgaarb:
# loaded", 10 s into its boot, until the lane's timeout). A boot whose
# /init has not printed "TA-VM: begin" within TA_BOOT_WATCHDOG seconds
# (300; the slowest boot seen reaches /init 22 s in) is killed and started
# again, once; the stalled console is kept as LOG.stalled. So is a boot
# that dies before /init: seen once in a make check, stock 6.12 oopsed on
# an int3 in sched_clock_cpu 3.8 s in (TCG and the kernel's live text
# patching), before any module was loaded; nothing of ours runs before
# /init, which loads the module. A second stall or death leaves LOG
# without the VM's results, which fails the run.
ta_qemu() {
	local log=$1 limit=$2 mode=$3 attempt rc pid waited
	shift 3
	for attempt in 1 2; do
		rm -f "$log"
		timeout --foreground -k 10 "$limit" "$@" -serial "file:$log" \
			</dev/null >"$log.qemu" 2>&1 &
		pid=$!
		waited=0
		while kill -0 "$pid" 2>/dev/null && ! grep -qs 'TA-VM: begin' "$log" &&
			[ "$waited" -lt "${TA_BOOT_WATCHDOG:-300}" ]; do
			sleep 2
			waited=$((waited + 2))
		done
		if kill -0 "$pid" 2>/dev/null && ! grep -qs 'TA-VM: begin' "$log" && [ "$attempt" = 1 ]; then
			kill "$pid"
			wait "$pid" 2>/dev/null
			mv "$log" "$log.stalled" 2>/dev/null
			ta_log "VM ($mode) stalled: no /init after ${waited}s (console kept as $log.stalled); booting it again"
			continue
		fi
		if ! kill -0 "$pid" 2>/dev/null && ! grep -qs 'TA-VM: begin' "$log" && [ "$attempt" = 1 ]; then
			wait "$pid" 2>/dev/null
			mv "$log" "$log.stalled" 2>/dev/null
			ta_log "VM ($mode) died before /init (console kept as $log.stalled); booting it again"
			continue
		fi
		rc=0
		wait "$pid" || rc=$?
		[ "$rc" = 124 ] && ta_log "VM ($mode) timed out after ${limit}s"
		return 0
	done
}

# ta_boot KERNEL INITRAMFS LOG MODE [TIMEOUT]: boot under TCG; the VM runs
# tests/vm/init in MODE and powers itself off. The console goes to LOG.
# With TA_HOSTROOT=1 the host's / is shared read-only over virtio-9p (tag
# "hostroot"): the VM's tests may chroot into it for the host's userland.
# With TA_VM_CLOCK=icount the guest's clock counts its instructions (QEMU's
# -icount shift=0: each one takes 1 ns of the guest's time, whatever the
# host does meanwhile; sleep=off: an idle guest skips to its next timer),
# on one CPU: stock 6.1 stalled bringing up its second CPU under -icount.
ta_boot() {
	local kernel=$1 initrd=$2 log=$3 mode=$4 limit=${5:-900} share=() irq=
	local clock=() cpus=2
	case ${TA_VM_CLOCK:-wall} in
	wall) ;;
	icount) clock=(-icount shift=0,sleep=off) cpus=1 ;;
	*) ta_die "TA_VM_CLOCK=$TA_VM_CLOCK: wall or icount" ;;
	esac
	# The test kernel has no PCI_MSI and its ACPI finds no routing for the
	# virtio-9p device's INTx: route it from the MP table (acpi=noirq).
	if [ "${TA_HOSTROOT:-0}" = 1 ]; then
		share=(-virtfs local,path=/,mount_tag=hostroot,security_model=none,readonly=on)
		irq=" acpi=noirq"
	fi
	ta_qemu "$log" "$limit" "$mode" qemu-system-x86_64 -accel tcg "${clock[@]}" \
		-m 1G -smp "$cpus" -kernel "$kernel" -initrd "$initrd" "${share[@]}" \
		-append "console=ttyS0 loglevel=7 panic=-1 ta_mode=$mode$irq $TA_BOOT_ARGS" \
		-display none -monitor none -no-reboot
}

# The arm64 board: qemu-system-aarch64 -M virt -cpu max (TCG), 2 CPUs,
# 3200 MiB of RAM from 0x40000000, so that some lies above 4 GiB (where the
# board variants put the arena, out of a 32-bit importer's reach). pauth-impdef: QEMU's cheap pointer-authentication algorithm (the
# architected one costs TCG dearly; nothing here depends on which it is).
TA_ARM64_MACHINE=(-M virt -cpu max,pauth-impdef=on -m 3200M -smp 2)

# ta_board_dtb VARIANT OUT: qemu's own device tree of the board
# (-M virt,dumpdtb=), with tests/vm/board/tensorarena-VARIANT.dtsi
# appended by dtc, written to OUT.
ta_board_dtb() {
	local variant=$1 out=$2 tmp dtsi=$TA_ROOT/tests/vm/board/tensorarena-$1.dtsi
	[ -f "$dtsi" ] || ta_die "no board variant $variant"
	tmp=$(mktemp -d)
	qemu-system-aarch64 "${TA_ARM64_MACHINE[@]}" -machine dumpdtb="$tmp/virt.dtb" \
		-display none >/dev/null 2>&1 || ta_die "qemu cannot dump the virt device tree"
	dtc -q -I dtb -O dts -o "$tmp/virt.dts" "$tmp/virt.dtb" || ta_die "dtc cannot read the virt device tree"
	cat "$tmp/virt.dts" "$dtsi" >"$tmp/board.dts"
	dtc -q -I dts -O dtb -o "$out" "$tmp/board.dts" || ta_die "dtc: $dtsi does not apply"
	rm -rf "$tmp"
}

# ta_boot_arm64 IMAGE INITRAMFS DTB LOG MODE [TIMEOUT]: boot the arm64 board
# under TCG with DTB; the VM runs tests/vm/init in MODE and powers off.
ta_boot_arm64() {
	local kernel=$1 initrd=$2 dtb=$3 log=$4 mode=$5 limit=${6:-900} args=
	# pageless, sramfar: the kernel told of 3 GiB of RAM (to 4 GiB), the region
	# above it outside its memory map (qemu writes the memory node itself,
	# so the device tree cannot say it).
	case "$mode" in board-pageless | board-sramfar) args=mem=3G ;; esac
	ta_qemu "$log" "$limit" "$mode" qemu-system-aarch64 -accel tcg \
		"${TA_ARM64_MACHINE[@]}" -kernel "$kernel" -initrd "$initrd" -dtb "$dtb" \
		-append "console=ttyAMA0 loglevel=7 panic=-1 ta_mode=$mode $args $TA_BOOT_ARGS" \
		-display none -monitor none -no-reboot
}

# ta_arm64_busybox: Debian's busybox-static for arm64, downloaded once into
# the cache and unpacked (not installed); prints the binary's path.
ta_arm64_busybox() {
	local dir="$TA_CACHE/busybox-arm64" tmp
	if [ ! -x "$dir/bin/busybox" ]; then
		tmp=$(mktemp -d)
		(cd "$tmp" && apt-get download -qq -o APT::Sandbox::User=root busybox-static:arm64) >&2 ||
			ta_die "cannot download busybox-static:arm64 (dpkg --add-architecture arm64: make deps)"
		mkdir -p "$dir"
		dpkg-deb -x "$tmp"/busybox-static_*.deb "$dir"
		rm -rf "$tmp"
	fi
	ta_cache_use "$dir"
	echo "$dir/bin/busybox"
}
