#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# The KUnit suites the kernel's way: module/ as drivers/misc/tensorarena of a
# clean source tree of the newest kernel (7.3, lib.sh; as
# tests/intree-build.sh lays it out), then
#   tools/testing/kunit/kunit.py run --arch=x86_64 \
#	--kunitconfig=drivers/misc/tensorarena
# which configures a kernel from module/.kunitconfig, builds it with the
# driver and its suites built in, boots it under qemu (TCG) and parses the
# KTAP. Not UML: the driver depends on HAS_DMA.
#
# tests/kunit/lean.kunitconfig is a second --kunitconfig: it turns off what
# x86_64's olddefconfig turns on and the suites do not need (ACPI, the
# block layer, input, USB, power management...), for a shorter cold build.
#
# Cached in $TA_CACHE: the unpacked source (kunit-src-VERSION, read by
# every run under a lock) and kunit.py's --build_dir (kunit-KEY, KEY from
# the version and both kunitconfigs). The driver's files are
# copied into the tree only when they changed, so a warm run rebuilds the
# driver's changed objects and relinks.
#
# The suites that need the platform device's probe, the arena reservation
# or the driver's netlink family (tensorarena-arena, -kapi, -of, -ioctl)
# run here built in, at boot, against the device the driver adds itself;
# the test VM (tests/vm/test-vm.sh) runs every suite again in the loadable
# module (insmod, module parameters, the module's reference count) under
# the debug kernel's KASAN and lockdep.
# usage: kunit-py.sh [--tap]. TAP out: one line a test case, then checks.
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"
# kunit.py builds a whole kernel, kept as a tree (an unchanged source keeps
# its time and is not rebuilt): its objects stay out of the compiler cache.
export CCACHE_DISABLE=1

[ "${1:-}" = --tap ] && shift
# The planner suite alone has 15 cases: fewer cases in all is a broken run.
min_cases=${TA_KUNITPY_MIN:-15}

tarball=$(ta_newest_source) || exit 1
version=$(ta_newest_version) || exit 1
series=$(ta_newest_series)
src=$TA_CACHE/kunit-src-$version
linux=$src/linux
lean=$TA_ROOT/tests/kunit/lean.kunitconfig
key=$({ echo "$version"; cat "$TA_ROOT/module/.kunitconfig" "$lean"; } | sha256sum | cut -c1-16)
cache=$TA_CACHE/kunit-$key
log=$TA_ROOT/build/kunit-py.log
mkdir -p "$TA_CACHE" "$cache/bin" "$TA_ROOT/build"
ta_cache_use "$src" "$cache"
: >"$log"

# One run at a time uses the tree and the build directory.
exec 9>"$src.lock"
flock 9

if [ ! -f "$src/.done" ]; then
	ta_log "kunit.py: unpacking the $series source ($version) into $src"
	rm -rf "$src"
	mkdir -p "$src"
	tar -C "$src" -xf "$tarball" || ta_die "cannot unpack $tarball"
	mv "$src/linux-source-$series" "$linux"
	sed -i 's|^endmenu$|source "drivers/misc/tensorarena/Kconfig"\n&|' "$linux/drivers/misc/Kconfig"
	echo 'obj-$(CONFIG_TENSORARENA)	+= tensorarena/' >>"$linux/drivers/misc/Makefile"
	touch "$src/.done"
fi

# copy_changed FROM TO FILE...: FROM/FILE copied to TO/FILE when it differs
# or is newer. An unchanged file keeps its time (it is not rebuilt); a copied
# one gets the time of the copy, not its own: a file changed in a branch can
# be older than the object a build of another tree left in the cache, which
# make would then keep (ta_group_obj.o of main beside a split ta_group_obj.c).
copy_changed() {
	local from=$1 to=$2 f
	shift 2
	for f in "$@"; do
		if [ "$from/$f" -nt "$to/$f" ] || ! cmp -s "$from/$f" "$to/$f"; then
			mkdir -p "$(dirname "$to/$f")"
			cp "$from/$f" "$to/$f" || return 1
		fi
	done
}
dest=$linux/drivers/misc/tensorarena
mapfile -t files < <(cd "$TA_ROOT/module" &&
	git ls-files --cached --others --exclude-standard . | while read -r f; do
		[ -f "$f" ] && echo "$f"
	done)
copy_changed "$TA_ROOT/module" "$dest" "${files[@]}" || ta_die "cannot copy module/ into $dest"
# A file module/ no longer has leaves the tree too.
mkdir -p "$dest"
(cd "$dest" && find . -type f | sed 's|^\./||') | grep -vxF -f <(printf '%s\n' "${files[@]}") |
	while read -r f; do rm -f "$dest/$f"; done
(cd "$TA_ROOT/uapi/linux" && copy_changed . "$linux/include/uapi/linux" tensorarena*.h) ||
	ta_die "cannot copy the uAPI headers"

# kunit.py starts qemu with -accel kvm first; nested KVM hangs on these
# machines (Documentation/testing.md): the qemu it finds takes TCG only.
cat >"$cache/bin/qemu-system-x86_64" <<'SH'
#!/bin/bash
args=()
while [ $# -gt 0 ]; do
	if [ "$1" = -accel ] && [ "${2:-}" != tcg ]; then
		shift 2
		continue
	fi
	args+=("$1")
	shift
done
exec /usr/bin/qemu-system-x86_64 "${args[@]}"
SH
chmod +x "$cache/bin/qemu-system-x86_64"

# Every suite, tensorarena-netlink too: built in, the driver's own
# NETLINK_URELEASE notifier frees a socket's owner record when the socket
# is released, and a new record may take its address; the records' keys
# are numbers of their own (ta_nl_owner.c), not addresses.
filter='tensorarena-*'

ta_log "kunit.py run --kunitconfig=drivers/misc/tensorarena --kunitconfig=${lean#"$TA_ROOT"/} --arch=x86_64 (build in $cache/build)"
rm -f "$cache/results.json"
start=$SECONDS
(cd "$linux" && PATH=$cache/bin:$PATH python3 tools/testing/kunit/kunit.py run \
	--kunitconfig=drivers/misc/tensorarena --kunitconfig="$lean" --arch=x86_64 \
	--build_dir="$cache/build" \
	--jobs="${TA_KUNITPY_JOBS:-2}" --timeout=900 --json="$cache/results.json" "$filter") >>"$log" 2>&1
rc=$?
echo "# kunit.py run: $((SECONDS - start)) s, exit status $rc (log: build/kunit-py.log)"

python3 - "$cache/results.json" "$rc" "$min_cases" <<'PY'
import json
import sys

path, rc, want = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
try:
    top = json.load(open(path))
except (OSError, ValueError) as e:
    top = {"sub_groups": [], "test_cases": []}
    print(f"# no results from kunit.py: {e}")
lines = []
suites = {}


def walk(group, prefix, suite):
    for case in group.get("test_cases", []):
        lines.append((case["status"], f"{prefix}{case['name']}"))
        suites[suite] = suites.get(suite, 0) + 1
    for sub in group.get("sub_groups", []):
        walk(sub, f"{prefix}{sub['name']}.", suite or sub["name"])


walk(top, "", None)
lines.append(("PASS" if rc == 0 else "FAIL", f"kunit.py run exits 0 (got {rc})"))
n = len(lines) - 1
lines.append(("PASS" if n >= want else "FAIL", f"kunit.py ran {n} test cases, at least {want}"))
planner = suites.get("tensorarena-planner", 0)
lines.append(("PASS" if planner > 0 else "FAIL", f"the planner suite ran ({planner} cases)"))
print(f"1..{len(lines)}")
for i, (status, name) in enumerate(lines, 1):
    if status == "SKIP":
        print(f"ok {i} - {name} # SKIP")
    elif status == "PASS":
        print(f"ok {i} - {name}")
    else:
        print(f"not ok {i} - {name} ({status})")
for suite, count in sorted((k, v) for k, v in suites.items() if k):
    print(f"# {suite}: {count} cases")
PY
