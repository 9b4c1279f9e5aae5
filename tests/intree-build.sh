#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# tensorarena inside a kernel tree, as module/Kconfig says: module/ copied to
# drivers/misc/tensorarena/, the uAPI headers to include/uapi/linux/, one
# line each in drivers/misc/Kconfig and drivers/misc/Makefile, then
# CONFIG_TENSORARENA=m through Kconfig and the kernel's own build. The tree
# is the debug test kernel's, the newest (cached, built), seen through
# an overlay (a copy where overlayfs is not available), so the cache does
# not change. Also: module/Makefile lists every source, and the ioctl number
# row of Documentation/uapi.md fits that tree's ioctl-number.rst.
# (tests/kunit-py.sh lays out a clean source the same way for kunit.py.)
# usage: intree-build.sh [--tap] [TEST_KERNEL_TREE]. TAP out.
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

[ "${1:-}" = --tap ] && shift
tree=${1:-$("$TA_ROOT/tests/vm/build-kernel-newest.sh")} || exit 1
n=0
tap() { # tap STATUS DESCRIPTION
	n=$((n + 1))
	if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi
}

# module/Makefile is the object list of both builds: every source of module/
# and module/planner/ but the test hooks (TA_KUNIT builds only) is in it.
listed=$(make -s -f - <<MK print
include $TA_ROOT/module/Makefile
print: ; @echo \$(tensorarena-y)
MK
)
listed=$(tr ' ' '\n' <<<"$listed" | sed 's/\.o$/.c/' | sort)
sources=$(cd "$TA_ROOT/module" && ls ./*.c planner/*.c | sed 's|^\./||' |
	grep -vx ta_test_hooks.c | sort)
diff <(echo "$sources") <(echo "$listed") >&2
tap $? "module/Makefile lists every source of module/ and module/planner/"
# With CONFIG_TENSORARENA_KUNIT_TEST (TA_KUNIT=1 out of tree): the test
# hooks and every suite of module/tests/ too.
listed=$(make -s -f - CONFIG_TENSORARENA_KUNIT_TEST=y <<MK print
include $TA_ROOT/module/Makefile
print: ; @echo \$(tensorarena-y)
MK
)
listed=$(tr ' ' '\n' <<<"$listed" | sed 's/\.o$/.c/' | sort)
sources=$(cd "$TA_ROOT/module" && ls ./*.c planner/*.c tests/*.c | sed 's|^\./||' | sort)
diff <(echo "$sources") <(echo "$listed") >&2
tap $? "with CONFIG_TENSORARENA_KUNIT_TEST, module/Makefile lists the test hooks and every suite of module/tests/"

# One place in the work tree, the same every run: the compiler cache
# (lib.sh) finds the objects of the last run's in-tree build there.
tmp=$TA_ROOT/build/intree
linux=$tmp/linux
cleanup() {
	mountpoint -q "$linux" && umount "$linux"
	rm -rf "$tmp"
}
cleanup
mkdir -p "$linux" "$tmp/upper" "$tmp/work"
trap cleanup EXIT
if mount -t overlay overlay -o "lowerdir=$tree,upperdir=$tmp/upper,workdir=$tmp/work" \
	"$linux" 2>/dev/null; then
	echo "# the test kernel's tree through an overlay: $tree"
else
	echo "# no overlayfs here: copying the test kernel's tree ($tree)"
	cp -a "$tree/." "$linux/"
fi

# The copy a kernel developer makes: the files git knows, no build products.
dest=$linux/drivers/misc/tensorarena
mkdir -p "$dest"
(cd "$TA_ROOT/module" && git ls-files -z --cached --others --exclude-standard . |
	tar --null -T - -cf -) | tar -C "$dest" -xf -
cp "$TA_ROOT"/uapi/linux/tensorarena*.h "$linux/include/uapi/linux/"
sed -i 's|^endmenu$|source "drivers/misc/tensorarena/Kconfig"\n&|' "$linux/drivers/misc/Kconfig"
echo 'obj-$(CONFIG_TENSORARENA)	+= tensorarena/' >>"$linux/drivers/misc/Makefile"

kmake() { make -C "$linux" "$@"; }
log=$TA_ROOT/build/intree.log
mkdir -p "$TA_ROOT/build"
"$linux/scripts/config" --file "$linux/.config" -m TENSORARENA
kmake olddefconfig >"$log" 2>&1
grep -qx 'CONFIG_TENSORARENA=m' "$linux/.config"
tap $? "Kconfig: CONFIG_TENSORARENA=m holds after olddefconfig (its dependencies are met)"

start=$SECONDS
kmake -j"$(nproc)" W=1 modules >>"$log" 2>&1
tap $? "the test kernel tree's make modules builds drivers/misc/tensorarena/tensorarena.ko"
echo "# in-tree build: $((SECONDS - start)) s"
warnings=$(grep -E 'drivers/misc/tensorarena/.*(warning|error):' "$log")
[ -z "$warnings" ]
tap $? "no compiler warning in drivers/misc/tensorarena with W=1"
[ -z "$warnings" ] || echo "$warnings" | head -5 | sed 's/^/# /'
ko=$dest/tensorarena.ko
info=$(modinfo -F intree "$ko" 2>/dev/null)
[ "$info" = Y ]
tap $? "modinfo says intree: Y (built as part of the tree, got '$info')"
vermagic=$(modinfo -F vermagic "$ko" 2>/dev/null)
release=$(cat "$linux/include/config/kernel.release")
[ "${vermagic%% *}" = "$release" ]
tap $? "its vermagic is the tree's release $release"
for s in ta_kapi_plan_get ta_kapi_plan_dmabuf; do
	grep -q "	$s	drivers/misc/tensorarena/tensorarena	" "$linux/Module.symvers"
	tap $? "the tree's Module.symvers exports $s from drivers/misc/tensorarena"
done

# The ioctl number: the row of Documentation/uapi.md, into the table.
rst=$linux/Documentation/userspace-api/ioctl/ioctl-number.rst
row=$(sed -n 's/^    \(0xA7  .*\)$/\1/p' "$TA_ROOT/Documentation/uapi.md")
[ -n "$row" ]
tap $? "Documentation/uapi.md gives the ioctl-number.rst row"
others=$(grep -c '^0xA7 ' "$rst")
[ "$others" = 0 ]
tap $? "no other row of the test kernel tree's ioctl-number.rst claims 0xA7 (found $others)"
awk -v row="$row" '!done && /^0xA[A-F] / { print row; done = 1 } { print }' "$rst" >"$tmp/rst" &&
	mv "$tmp/rst" "$rst"
/usr/bin/python3 - "$rst" <<'PY' >&2
import sys
import docutils.core
import docutils.utils
src = open(sys.argv[1]).read()
# The file's own directives (kernel-doc extensions) are not ours to check:
# only the table, from its top border to its bottom one (the third).
lines = src.split("\n")
borders = [i for i, line in enumerate(lines) if line.startswith("====  =====")]
assert len(borders) >= 3, borders
table = "\n".join(lines[borders[0]:borders[2] + 1]) + "\n"
doc = docutils.core.publish_doctree(table, settings_overrides={"report_level": 2, "halt_level": 2})
rows = [r for r in doc.traverse() if r.tagname == "row"]
hit = [r.astext() for r in rows if r.astext().startswith("0xA7")]
assert hit and "uapi/linux/tensorarena.h" in hit[0], hit
PY
tap $? "the table with the row parses as reStructuredText, the row in its columns"
