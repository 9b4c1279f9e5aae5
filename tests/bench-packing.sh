#!/bin/bash
# make bench: issue 30's "no cliff" instances, three families with a known
# optimum (tests/gen-packing.py): random straight cuts with seeds
# bench-perfect.sh does not use, skewed cuts (long thin pieces), and
# pinwheels that no straight cut separates; 100 to 2,000 buffers, four
# seeds each. Planned by greedy-size and auto (1 s budget each, unless
# --budget-ms); ta_bench's summary gives, per strategy, how many reached
# the optimum ("at lb"), the mean and the worst height / optimum.
#
#   tests/bench-packing.sh [--family F]... [--sizes "N..."] [--seeds "S..."]
#                          [ta_bench options]
# TA_BENCH=PATH: another ta_bench (planner.md, "Measuring on a loaded
# machine"); default userspace/bin/ta_bench.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
out=$root/build/bench-packing
families=() sizes="100 200 400 800 1200 2000" seeds="1 2 3 4"
while [ $# -gt 0 ]; do
	case $1 in
	--family) families+=("$2"); shift 2 ;;
	--sizes) sizes=$2; shift 2 ;;
	--seeds) seeds=$2; shift 2 ;;
	*) break ;;
	esac
done
[ ${#families[@]} -gt 0 ] || families=(cut skewed pinwheel)
rm -rf "$out"
mkdir -p "$out/traces"
echo "trace,buffers,lower_bound,best_known,best_known_s,greedy_by_size" \
	>"$out/reference.csv"
count=0
for family in "${families[@]}"; do
	mkdir -p "$out/traces/$family"
	for n in $sizes; do
		# larger instances on a larger rectangle: 1,000 steps x 4 MiB
		if [ "$n" -gt 600 ]; then steps=1000 bytes=4194304
		else steps=400 bytes=1048576; fi
		for seed in $seeds; do
			# cut: seeds bench-perfect.sh (1-8) has not seen
			[ "$family" = cut ] && seed=$((seed + 100))
			name=n${n}_s${seed}.csv
			python3 "$root/tests/gen-packing.py" "$family" "$seed" \
				"$n" "$steps" "$bytes" \
				>"$out/traces/$family/$name"
			echo "$family/$name,$n,$bytes,$bytes,," \
				>>"$out/reference.csv"
			count=$((count + 1))
		done
	done
done
echo "bench-packing: $count instances (${families[*]}; sizes $sizes)"
exec "${TA_BENCH:-$root/userspace/bin/ta_bench}" "$out" --strategy greedy-size \
	--strategy auto "$@"
