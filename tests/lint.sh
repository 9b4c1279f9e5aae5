#!/bin/bash
# Static checks of the kernel code, one TAP line per check:
# checkpatch --strict and kernel-doc (a verdict per file, one run of each
# tool over all of them), sparse (C=2) and W=1.
# usage: lint.sh [--tap] [--builds-only] [--no-sparse] [--out DIR] [KDIR [MAKE ARGS...]]   (KDIR: a
# configured kernel tree with scripts/, whose checkpatch and kernel-doc are
# used; default: the test kernel. MAKE ARGS: e.g. ARCH=arm64
# CROSS_COMPILE=... for a cross tree)
#   --builds-only  only the W=1 and sparse builds: for a headers package or
#                  a prepared stock tree, whose checkpatch is another tree's
#   --no-sparse    the W=1 builds without sparse: for a tree of a kernel
#                  version another tree already checks with sparse (the
#                  compat header takes the same branches there); make check
#                  runs sparse on the debug 7.3 tree, 6.1 and 6.12
#   --out DIR      build in DIR/module and DIR/npu (default build/lint-*):
#                  the stock VMs' payloads take their modules from there
# A tree without CONFIG_KUNIT (a distribution's kernel) builds the module
# without the KUnit suites, which need it to link.
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

[ "${1:-}" = --tap ] && shift
builds_only=0
[ "${1:-}" = --builds-only ] && { builds_only=1; shift; }
sparse=C=2
[ "${1:-}" = --no-sparse ] && { sparse=; shift; }
outdir=
[ "${1:-}" = --out ] && { outdir=$2; shift 2; }
kdir=${1:-$("$TA_ROOT/tests/vm/build-kernel-newest.sh")} || exit 1
shift || true
kmake=("$@")
# One log and build directory per tree.
tag=$(basename "$(dirname "$kdir")")-$(basename "$kdir")
cd "$TA_ROOT"
files=$(ls module/*.[ch] module/include/*.h module/planner/*.[ch] uapi/linux/*.h \
	module/tests/*.c tests/npu-sim/*.[ch] 2>/dev/null | grep -v '\.mod\.c$')
log=$TA_ROOT/build/lint-$tag.log
mkdir -p "$TA_ROOT/build"
: >"$log"

[ $builds_only = 1 ] && files=

# per_file_verdicts CHECK OUTPUT RC: one TAP line a file of $files, "not ok"
# with its lines of OUTPUT (those naming it as FILE:LINE); one more line
# when the tool failed (RC) with no file to blame, so that a tool that
# stopped half way is not read as every file clean.
per_file_verdicts() {
	local check=$1 output=$2 rc=$3 f re blamed=0

	for f in $files; do
		re="(^|[ ])${f//./\\.}:[0-9]+"
		if grep -qE "$re" <<<"$output"; then
			echo "not ok - $check $f"
			grep -E "$re" <<<"$output" | head -5 | sed 's/^/# /'
			blamed=1
		else
			echo "ok - $check $f"
		fi
	done
	if [ "$rc" != 0 ] && [ "$blamed" = 0 ]; then
		echo "not ok - $check ran to the end (exit status $rc)"
		tail -5 <<<"$output" | sed 's/^/# /'
	fi
}

# One run of each tool over every file (their start-up was most of the
# time when run a file at a time). The compat header is where kernel
# versions are compared, by design: checked on its own with those ignored.
if [ -n "$files" ]; then
	compat=module/include/ta_compat.h
	rest=$(grep -vxF "$compat" <<<"$files")
	rc=0
	out=$(perl "$kdir/scripts/checkpatch.pl" --no-tree --strict --terse \
		--show-types -f $rest 2>&1) || rc=$?
	# 1 is checkpatch's "found something"
	[ "$rc" = 1 ] && grep -qE ': (ERROR|WARNING|CHECK):' <<<"$out" && rc=0
	if grep -qxF "$compat" <<<"$files"; then
		rc2=0
		out+=$'\n'$(perl "$kdir/scripts/checkpatch.pl" --no-tree --strict --terse \
			--show-types --ignore LINUX_VERSION_CODE,CONSTANT_COMPARISON \
			-f "$compat" 2>&1) || rc2=$?
		[ "$rc2" = 1 ] && rc2=0
		[ "$rc" = 0 ] && rc=$rc2
	fi
	per_file_verdicts "checkpatch --strict" "$out" "$rc"
	rc=0
	out=$(perl "$kdir/scripts/kernel-doc" -none $files 2>&1) || rc=$?
	per_file_verdicts "kernel-doc" "$out" "$rc"
fi

# sparse_clean WHAT LOG: one TAP line; sparse prints
# "file:line:col: warning/error: ..." for what it finds.
sparse_clean() {
	local pattern='^[^ ]+:[0-9]+:[0-9]+: (warning|error):'

	if grep -E "$pattern" "$2" >>"$log"; then
		echo "not ok - $1: sparse (C=2) clean"
		grep -E "$pattern" "$2" | head -5 | sed 's/^/# /'
	else
		echo "ok - $1: sparse (C=2) clean"
	fi
}

lint_dir=${outdir:+$outdir/module}
lint_dir=${lint_dir:-$TA_ROOT/build/lint-$tag}
what="module and KUnit suites" kunit=TA_KUNIT=1
if ! grep -qx 'CONFIG_KUNIT=y' "$kdir/.config"; then
	what="module (a kernel without KUnit)" kunit=TA_KUNIT=
fi
# ta_build_module dies on a failure: in a subshell, so that the verdict is ours.
# shellcheck disable=SC2086 # $sparse and $kunit: one word or none
if (ta_build_module "$kdir" "$lint_dir" $sparse $kunit "${kmake[@]}") >/dev/null 2>>"$log"; then
	echo "ok - $what builds with W=1, no warnings"
	[ -z "$sparse" ] || sparse_clean "$what" "$lint_dir/build.log"
else
	echo "not ok - $what builds with W=1, no warnings"
	tail -5 "$log" | sed 's/^/# /'
fi

# The reference NPU driver, against the lint build's Module.symvers.
npu_dir=${outdir:+$outdir/npu}
npu_dir=${npu_dir:-$TA_ROOT/build/lint-npu-$tag}
# shellcheck disable=SC2086
if (ta_build_npu_sim "$kdir" "$npu_dir" "$lint_dir/Module.symvers" $sparse "${kmake[@]}") >/dev/null 2>>"$log"; then
	echo "ok - reference NPU driver builds with W=1, no warnings"
	[ -z "$sparse" ] || sparse_clean "reference NPU driver" "$npu_dir/tests/npu-sim/build.log"
else
	echo "not ok - reference NPU driver builds with W=1, no warnings"
	tail -5 "$log" | sed 's/^/# /'
fi
