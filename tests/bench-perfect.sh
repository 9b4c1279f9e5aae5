#!/bin/bash
# make bench: instances with a known optimum. gen_perfect.py (from the
# shared bench) cuts a 400-step x 1 MiB rectangle at random into N pieces,
# so the lower bound, 1,048,576, is also the optimum. A fixed seeded set -
# N = 100, 200, ..., 600, seeds 1 to 8 - is planned by greedy-size and
# auto (1 s budget each); ta_bench's summary gives, per strategy, how many
# reached the optimum ("at lb") and the mean height / optimum.
#
#   tests/bench-perfect.sh [SHARED_BENCH_DIR] [--budget-ms N]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
bench=${1:-$root/../shared/bench}
shift || true
gen=$bench/tools/gen_perfect.py
out=$root/build/bench-perfect
[ -f "$gen" ] || { echo "bench-perfect: no $gen" >&2; exit 1; }
rm -rf "$out"
mkdir -p "$out/traces/perfect"
echo "trace,buffers,lower_bound,best_known,best_known_s,greedy_by_size" \
	>"$out/reference.csv"
for n in 100 200 300 400 500 600; do
	for seed in 1 2 3 4 5 6 7 8; do
		name=n${n}_s${seed}.csv
		python3 "$gen" "$seed" "$n" >"$out/traces/perfect/$name"
		echo "perfect/$name,$n,1048576,1048576,," >>"$out/reference.csv"
	done
done
exec "$root/userspace/bin/ta_bench" "$out" --strategy greedy-size \
	--strategy auto "$@"
