#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# worst-before.sh [REV] [ta_bench --worst options...]
#
# Times the worst-case inputs (userspace/lib/ta_worst.c) on the planner of
# git revision REV (default: main, the planner before issue #9's bounded-CPU
# work), built in a temporary directory with the same generator and bench
# driver; every run is killed after --cap-s seconds (default here 10), since
# that planner has no hard deadline. Prints what `ta_bench --worst` prints.
set -euo pipefail
top=$(cd "$(dirname "$0")/../.." && pwd)
rev=${1:-main}
[ $# -gt 0 ] && shift
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
git -C "$top" archive "$rev" module/planner uapi userspace/lib/ta_env_user.c |
	tar -x -C "$tmp"
${CC:-cc} -O2 -std=gnu11 -DTA_BENCH_OLD -DTA_BENCH_WORST_MAIN \
	-I"$tmp/module/planner" -I"$tmp/uapi" -I"$top/userspace/lib" \
	-o "$tmp/ta_bench_worst" \
	"$top/userspace/bench/ta_bench_worst.c" "$top/userspace/lib/ta_worst.c" \
	"$tmp"/module/planner/*.c "$tmp/userspace/lib/ta_env_user.c"
echo "# planner of $rev ($(git -C "$top" rev-parse --short "$rev"))"
"$tmp/ta_bench_worst" --cap-s 10 "$@"
