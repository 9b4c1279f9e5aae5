#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# Run each fuzz target from its corpus, one job, and print TAP:
# "ok - fuzz TARGET: N execs ..." or "not ok - ...". Two modes:
#
#  - reproducible (FUZZ_RUNS=N, make check): -seed=FUZZ_SEED (default 1)
#    and -runs=N, with FUZZ_REPRODUCIBLE=1 so that no target looks at the
#    clock (fuzz_planner's budget is in steps alone): the same commit gives
#    the same inputs, the same coverage and the same verdict every time,
#    and the TAP line says which (execs, coverage, features, corpus);
#  - exploring (FUZZ_RUNS empty, make fuzz): FUZZ_SECONDS (default 20) of
#    wall-clock time each, from a random seed. A crash, timeout or
#    out-of-memory input it finds joins the repo's corpus
#    (tests/fuzz/corpus/TARGET/, named by its SHA-1), so that every later
#    reproducible run replays it: commit it with the fix.
#
# The repo's corpus is otherwise only read: new entries go to
# build/corpus/TARGET/, crash reproducers to build/artifacts/.
# build/corpus/TARGET/ starts empty each run, so that a run takes the time
# it says (loading a big corpus is not bounded by -max_total_time), unless
# FUZZ_KEEP_CORPUS=1 (make fuzz) carries it over from the last run.
# Exit status 1 when any target failed.
#
#   tests/fuzz/run.sh [TARGET...]        default: every built target
set -uo pipefail

fuzz=$(cd "$(dirname "$0")" && pwd)
out=$fuzz/build
seconds=${FUZZ_SECONDS:-20}
runs=${FUZZ_RUNS:-}
seed=${FUZZ_SEED:-1}
if [ -n "$runs" ]; then
	export FUZZ_REPRODUCIBLE=1
	bound=(-seed="$seed" -runs="$runs" -use_cmp=0)
else
	bound=(-max_total_time="$seconds")
fi
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
	for f in "$fuzz"/fuzz_*.c; do
		t=$(basename "$f" .c)
		targets+=("$t")
	done
fi

# Bounded memory and time per input; a slow input is a finding too.
flags=(-rss_limit_mb=1024 -timeout=10 -print_final_stats=1)

echo "TAP version 13"
echo "1..${#targets[@]}"
failed=0
n=0
for t in "${targets[@]}"; do
	n=$((n + 1))
	bin=$out/$t
	log=$out/logs/$t.log
	if [ "${FUZZ_KEEP_CORPUS:-0}" != 1 ]; then
		rm -rf "${out:?}/corpus/$t"
	fi
	mkdir -p "$out/corpus/$t" "$out/artifacts" "$out/logs"
	if [ ! -x "$bin" ]; then
		echo "not ok $n - fuzz ${t#fuzz_}: not built"
		failed=1
		continue
	fi
	extra=()
	if [ -f "$fuzz/$t.dict" ]; then
		extra+=(-dict="$fuzz/$t.dict")
	fi
	if [ -f "$fuzz/$t.options" ]; then
		read -ra opts <"$fuzz/$t.options"
		extra+=("${opts[@]}")
	fi
	start=$SECONDS
	rm -f "$out/artifacts/$t-"*
	"$bin" "${flags[@]}" "${extra[@]}" "${bound[@]}" \
		-artifact_prefix="$out/artifacts/$t-" \
		"$out/corpus/$t" "$fuzz/corpus/$t" >"$log" 2>&1
	rc=$?
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)
	# what the run reached: "cov: C ft: F corp: K/..." of its last line
	reach=$(grep -E '^#[0-9]+' "$log" | tail -1 |
		sed -n 's/.*cov: \([0-9]*\) ft: \([0-9]*\) corp: \([0-9]*\).*/cov \1, ft \2, corpus \3/p')
	secs=$((SECONDS - start))
	if [ $rc -eq 0 ] && [ -n "$execs" ]; then
		echo "ok $n - fuzz ${t#fuzz_}: ${execs} execs, ${reach:-no stats} (${secs} s)"
	else
		echo "not ok $n - fuzz ${t#fuzz_}: exit $rc after ${execs:-0} execs (log: $log)"
		grep -m3 -E '^(==[0-9]+==ERROR|SUMMARY|.*check failed|artifact_prefix|Test unit written)' "$log" |
			sed 's/^/# /'
		failed=1
		if [ -z "$runs" ]; then
			for a in "$out/artifacts/$t-"*; do
				[ -f "$a" ] || continue
				sum=$(sha1sum "$a" | cut -d' ' -f1)
				cp "$a" "$fuzz/corpus/$t/$sum"
				echo "# joins the corpus: tests/fuzz/corpus/$t/$sum"
			done
		fi
	fi
done
exit $failed
