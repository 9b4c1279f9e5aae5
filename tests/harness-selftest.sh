#!/bin/bash
# The verdict must catch what it is meant to catch: feed tests/results.py
# consoles with known content and check its verdict. TAP out.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0

# verdict NAME WANT_RC RC: results.py's exit status against the wanted one.
verdict() {
	if [ "$3" = "$2" ]; then
		echo "ok $n - harness: $1"
	else
		echo "not ok $n - harness: $1 (exit $3, want $2)"
		sed 's/^/# /' "$tmp/out"
	fi
}
# expect NAME WANT_RC CONSOLE_TEXT [RESULTS.PY ARGS...]: the console
# needs 1 passed result unless the ARGS give another --min.
expect() {
	n=$((n + 1))
	printf '%b' "$3" >"$tmp/console.log"
	local args=("${@:4}")
	[[ " ${args[*]} " == *" --min vm="* ]] || args+=(--min vm=1)
	python3 "$here/results.py" --console "vm=$tmp/console.log" "${args[@]}" >"$tmp/out" 2>&1
	verdict "$1" "$2" $?
}

good='[    1.0]     KTAP version 1\n[    1.0]     # Subtest: s\n[    1.0]     1..2\n[    1.1]     ok 1 - a\n[    1.2]     ok 2 - b\n[    1.3] ok 1 - s\ne2e: ok - x\nTA-VM: end\n'
expect "clean run passes" 0 "$good"
expect "6.1 KTAP without dashes parses" 1 '    # Subtest: s\n    1..2\n    ok 1 a\n    not ok 2 b\nTA-VM: end\n'
expect "DMA-API debug boot lines are benign" 0 "[ 0.1] DMA-API: preallocated 65552 debug entries\n${good}"
expect "DMA-API error fails" 1 "${good}[ 2.0] DMA-API: device driver frees DMA memory with wrong function\n"
expect "WARNING fails a passing run" 1 "${good}[ 2.0] WARNING: CPU: 0 PID: 1 at foo.c:1\n"
expect "KASAN report fails" 1 "${good}[ 2.0] BUG: KASAN: slab-out-of-bounds in ta_x\n"
expect "UBSAN report fails" 1 "${good}[ 2.0] UBSAN: shift-out-of-bounds in x.c:3:4\n"
expect "lockdep report fails" 1 "${good}[ 2.0] WARNING: possible circular locking dependency detected\n"
expect "soft lockup fails" 1 "${good}[ 30.0] watchdog: BUG: soft lockup - CPU#0 stuck for 22s! [ta_e2e:99]\n"
expect "RCU stall fails" 1 "${good}[ 30.0] rcu: INFO: rcu_sched self-detected stall on CPU\n"
# tests/e2e/ta_harness.h programs: a plan, then a line per test.
e2e_prog='e2e: 1..2\ne2e: ok - c1\ne2e: ok 1 - t1\ne2e: ok - c2\ne2e: ok 2 - t2\n'
expect "e2e program with its plan passes" 0 "${good}${e2e_prog}"
expect "e2e program short of its plan fails (crash half-way)" 1 "${good}e2e: 1..3\ne2e: ok - c1\ne2e: ok 1 - t1\n"
expect "e2e program short of its plan fails before the next plan" 1 "${good}e2e: 1..2\ne2e: ok - c1\ne2e: ok 1 - t1\n${e2e_prog}"
expect "e2e test result not ok fails though its checks passed" 1 "${good}e2e: 1..1\ne2e: not ok 1 - t1: made no check\n"
expect "e2e test result without a plan fails" 1 "${good}e2e: ok 1 - t1\n"
# vm-tests.sh's run_e2e: every program it runs prints a plan, and all of it.
run_ok='e2e: run - p\ne2e: 1..2\ne2e: ok - c1\ne2e: ok 1 - t1\ne2e: ok 2 - t2\ne2e: ok - p: exit 0\n'
expect "e2e program run by run_e2e with its whole plan passes" 0 "${good}${run_ok}"
expect "e2e program run by run_e2e with no plan fails" 1 "${good}e2e: run - p\ne2e: ok - c1\ne2e: ok - p: exit 0\n"
expect "e2e program run by run_e2e with no plan fails before the next program" 1 "${good}e2e: run - p\ne2e: ok - c1\ne2e: ok - p: exit 0\n${run_ok}"
expect "e2e program run by run_e2e short of its plan fails at its exit line" 1 "${good}e2e: run - p\ne2e: 1..2\ne2e: ok - c1\ne2e: ok 1 - t1\ne2e: ok - p: exit 0\n"
expect "e2e program run by run_e2e that never exits, no plan, fails" 1 "${good}e2e: run - p\ne2e: ok - c1\n"
expect "hung task fails" 1 "${good}[ 60.0] INFO: task insmod:77 blocked for more than 30 seconds.\n"
expect "kmemleak report fails" 1 "${good}unreferenced object 0xffff888003 (size 64):\n"
expect "failed KUnit case fails" 1 '    # Subtest: s\n    1..1\n    not ok 1 - a\nTA-VM: end\n'
expect "missing KUnit cases fail" 1 '    # Subtest: s\n    1..3\n    ok 1 - a\nTA-VM: end\n'
expect "skipped KUnit case fails" 1 '    # Subtest: s\n    1..1\n    ok 1 - a # SKIP no\nTA-VM: end\n'
expect "failed e2e test fails" 1 'e2e: not ok - x: y\nTA-VM: end\n'
expect "VM that never ends fails" 1 'e2e: ok - x\n'
expect "no tests at all fails" 1 'TA-VM: end\n'
expect "a kernel report inside a test's line fails" 1 'e2e: ok - x: a[ 2.0] BUG: KASAN: use-after-free in ta_x\r\nb\r\nTA-VM: end\n'
# How many ran: a console below its minimum fails, one at it passes; a
# console with no minimum is a usage error.
expect "a console with fewer passed results than its --min fails" 1 "$good" --min vm=4
expect "a console with its --min of passed results passes" 0 "$good" --min vm=3
expect "a console without --min is refused" 2 "$good" --min other=1
expect "an /init that did not know its mode fails" 1 "TA-VM: unknown mode 'tset'\n${good}"
printf 's\n# a comment\nt\n' >"$tmp/suites"
expect "a missing expected KUnit suite fails" 1 "$good" --suites "vm=$tmp/suites"
printf 's\n' >"$tmp/suites1"
expect "every expected KUnit suite there passes" 0 "$good" --suites "vm=$tmp/suites1"
expect "an expected KUnit suite of no cases fails" 1 '    # Subtest: s\n    1..0\ne2e: ok - x\nTA-VM: end\n' --suites "vm=$tmp/suites1"
expect "a KUnit suite whose own verdict is not ok fails" 1 '    # Subtest: s\n    1..1\n    ok 1 - a\nnot ok 1 s\nTA-VM: end\n'

# expect_tap NAME WANT_RC TAP_TEXT: a host TAP file's verdict.
expect_tap() {
	n=$((n + 1))
	printf '%b' "$3" >"$tmp/host.tap"
	python3 "$here/results.py" --tap "host=$tmp/host.tap" "${@:4}" >"$tmp/out" 2>&1
	verdict "$1" "$2" $?
}
expect_tap "TAP that reports what it planned passes" 0 '1..2\nok 1 - a\nok 2 - b\n'
expect_tap "TAP that plans 3 and reports 2 fails" 1 '1..3\nok 1 - a\nok 2 - b\n'
expect_tap "TAP with the plan last, short, fails" 1 'ok 1 - a\n1..2\n'
expect_tap "TAP below its --min fails" 1 'ok 1 - a\n' --min host=2

# A kernel record printed into a test's line (the console prints from its
# own thread): the line is whole again, so the newer kernel's run has the
# same test names as the older one's.
n=$((n + 1))
printf '%b' 'e2e: ok - fixed: an offset off its alignment: -EINVAL (-22)\r\ne2e: ok - y\r\nTA-VM: end\r\n' >"$tmp/a.log"
printf '%b' 'e2e: ok - fixed: an offset off[ 15.743430] ta: fixed plan: tensor 2\r\n[ 15.744296] ta: tensors 0 and 1\r\n its alignment: -EINVAL (-22)\r\ne2e: ok - y\r\nTA-VM: end\r\n' >"$tmp/b.log"
python3 "$here/results.py" --console "a=$tmp/a.log" --console "b=$tmp/b.log" --same a=b \
	--min a=2 --min b=2 >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -qx '5 passed, 0 failed' "$tmp/out"; then
	echo "ok $n - harness: a kernel record inside a test's line is moved out, the line joined"
else
	echo "not ok $n - harness: a kernel record inside a test's line (exit $rc)"
	sed 's/^/# /' "$tmp/out"
fi

# A plain make with no kernel tree at hand (no KDIR, no running kernel's
# build directory, no cached test kernel): it builds userspace and says
# which KDIR to pass instead of building a kernel; make module fails
# saying the same.
nokdir=(-C "$here/.." KDIR= RUNNING_KDIR="$tmp/none")
n=$((n + 1))
TA_CACHE=$tmp/cache timeout 300 make -s "${nokdir[@]}" >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 0 ] && grep -q 'the module not: no kernel tree.*make module KDIR=.*make test-kernel' "$tmp/out" &&
	[ ! -e "$tmp/cache" ]; then
	echo "ok $n - build: a plain make without a kernel tree builds userspace, names KDIR"
else
	echo "not ok $n - build: a plain make without a kernel tree (exit $rc)"
	sed 's/^/# /' "$tmp/out"
fi
n=$((n + 1))
TA_CACHE=$tmp/cache timeout 60 make -s "${nokdir[@]}" module >"$tmp/out" 2>&1
rc=$?
if [ "$rc" = 2 ] && grep -q '^make module: no kernel tree.*KDIR=' "$tmp/out" && [ ! -e "$tmp/cache" ]; then
	echo "ok $n - build: make module without a kernel tree fails, names KDIR"
else
	echo "not ok $n - build: make module without a kernel tree (exit $rc)"
	sed 's/^/# /' "$tmp/out"
fi

# The cache's pruning (tests/vm/lib.sh), on a cache of made-up entries:
# old_cache DIR lays them out. Entries unused for 40 days go, a lock file
# with its entry or alone; an entry ta_cache_use marks, one 29 days old,
# the compiler cache and a scratch tree of today stay, a scratch tree of
# two days ago goes.
old_cache() {
	rm -rf "$1"
	mkdir -p "$1"/{old-tree/linux,used-tree/linux/arch,new-tree,ccache,tree.old,tree.new}
	touch "$1"/{old-tree.lock,orphan.lock,new-tree.lock,old.deb}
	touch -d '40 days ago' "$1"/{old-tree,old-tree.lock,used-tree,ccache,orphan.lock,old.deb}
	touch -d '29 days ago' "$1/new-tree"
	touch -d '2 days ago' "$1/tree.old"
}
# prune DIR DAYS: ta_cache_prune on DIR, ta_cache_use of used-tree (and of
# a path outside the cache) first. entries DIR: what is left, sorted.
prune() {
	(
		export TA_CACHE=$1 TA_CACHE_KEEP_DAYS=$2
		# shellcheck source=vm/lib.sh
		. "$here/vm/lib.sh"
		ta_cache_use "$1/used-tree/linux/arch" "$tmp/elsewhere"
		ta_cache_prune
	) >"$tmp/out" 2>&1
}
entries() { find "$1" -mindepth 1 -maxdepth 1 -printf '%f\n' | LC_ALL=C sort; }
n=$((n + 1))
old_cache "$tmp/cache30"
prune "$tmp/cache30" 30
rc=$?
left=$(entries "$tmp/cache30" | tr '\n' ' ')
if [ "$rc" = 0 ] && [ "$left" = "ccache new-tree new-tree.lock tree.new used-tree " ] &&
	[ "$(grep -c '] cache: removed ' "$tmp/out")" = 4 ] && [ ! -e "$tmp/elsewhere" ]; then
	echo "ok $n - cache: entries unused for 30 days pruned (4), used and newer ones kept"
else
	echo "not ok $n - cache: pruning (exit $rc, left: $left)"
	sed 's/^/# /' "$tmp/out"
fi
# kept_all DAYS WANT_RC WHAT [ERROR]: pruning with TA_CACHE_KEEP_DAYS=DAYS
# exits WANT_RC, removes none of the 10 entries, and says ERROR if given.
kept_all() {
	local rc left
	n=$((n + 1))
	old_cache "$tmp/cache-$1"
	prune "$tmp/cache-$1" "$1"
	rc=$?
	left=$(entries "$tmp/cache-$1" | wc -l)
	if [ "$rc" = "$2" ] && [ "$left" = 10 ] && ! grep -q 'cache: removed' "$tmp/out" &&
		{ [ -z "${4:-}" ] || grep -qF "$4" "$tmp/out"; }; then
		echo "ok $n - cache: TA_CACHE_KEEP_DAYS=$1 $3, all 10 entries kept"
	else
		echo "not ok $n - cache: TA_CACHE_KEEP_DAYS=$1 (exit $rc, $left entries left)"
		sed 's/^/# /' "$tmp/out"
	fi
}
kept_all 0 0 "keeps everything"
kept_all 3x 1 "fails" "TA_CACHE_KEEP_DAYS=3x is not a number"
echo "1..$n"
