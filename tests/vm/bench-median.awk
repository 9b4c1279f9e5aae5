# SPDX-License-Identifier: GPL-2.0
# The transport benchmark across boots (tests/vm/bench.sh): reads the
# "# bench" lines of ta_e2e_lib --bench from every boot of one kernel and
# prints, for each line of the bench (transport, graph, strategy, kind of
# round), the median over the boots of its ratios with their range.
#
# Under TCG one boot's ratios are not the next one's: the same planner
# call in the kernel has run at 0.87x to 1.54x of the offline call from
# boot to boot (Documentation/testing.md, "Across boots"), so one boot's
# figure says little; the median of several says more.
#
#   awk -v boots=N -f bench-median.awk console-1.log console-2.log ...

function ratio_after(line, label,	rest)
{
	rest = substr(line, index(line, label) + length(label))
	return rest + 0
}

function median(list,	v, n, i, j, t)
{
	n = split(list, v, " ")
	for (i = 2; i <= n; i++)	# insertion sort: a handful of boots
		for (j = i; j > 1 && v[j - 1] + 0 > v[j] + 0; j--) {
			t = v[j]; v[j] = v[j - 1]; v[j - 1] = t
		}
	lo = v[1]; hi = v[n]; count = n
	return n % 2 ? v[(n + 1) / 2] : (v[n / 2] + v[n / 2 + 1]) / 2
}

function add(key, what, value)
{
	if (!(key in known)) {
		known[key] = 1
		order[++n_keys] = key
	}
	values[key, what] = values[key, what] " " value
}

/^# bench .* plans\/s via module/ {
	key = substr($0, 9, 42)
	mode = $0
	sub(/.*, /, "", mode)
	sub(/\).*/, "", mode)
	key = key "  " mode
	add(key, "path", ratio_after($0, "(module/offline "))
	add(key, "planning", ratio_after($0, "offline planning "))
	add(key, "adds", ratio_after($0, "kernel path adds "))
	last_key = key
	next
}

/^# bench .* median round: / {
	# follows its line; the medians of each boot's rounds
	add(last_key, "mpath", ratio_after($0, "module/offline "))
	add(last_key, "mplanning", ratio_after($0, "offline planning "))
}

END {
	for (k = 1; k <= n_keys; k++) {
		key = order[k]
		m = median(values[key, "path"])
		line = sprintf("# bench across %d boots %s: module/offline %.2fx (%.2f-%.2f)", count, key, m, lo, hi)
		m = median(values[key, "planning"])
		line = line sprintf("; kernel planning / offline planning %.2fx (%.2f-%.2f)", m, lo, hi)
		m = median(values[key, "adds"])
		line = line sprintf("; kernel path adds %.0f us (%.0f-%.0f)", m, lo, hi)
		if ((key, "mpath") in values) {
			m = median(values[key, "mpath"])
			line = line sprintf("; by median rounds %.2fx (%.2f-%.2f)", m, lo, hi)
		}
		print line
		if (count != boots)
			bad = 1
	}
	if (!n_keys || bad) {
		printf("# bench across boots: %d lines, not every one from each of the %d boots\n", n_keys, boots)
		exit 1
	}
}
