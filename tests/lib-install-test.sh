#!/bin/bash
# libtensorarena as a user gets it: install into a scratch prefix, build a
# program with pkg-config against the shared library, run it (offline plan).
# TAP out.
set -uo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
n=0
tap() { n=$((n + 1)); if [ "$1" = 0 ]; then echo "ok $n - $2"; else echo "not ok $n - $2"; fi; }

make -s -C "$root/userspace" install PREFIX="$tmp/usr" >"$tmp/log" 2>&1
tap $? "library: make install into a prefix"
export PKG_CONFIG_PATH=$tmp/usr/lib/pkgconfig
cat >"$tmp/user.c" <<'C'
#include <stdio.h>
#include <tensorarena.h>

int main(void)
{
	struct ta_graph_builder *g = ta_graph_new();
	struct ta_plan *p;
	uint32_t in, mid, out;

	in = ta_graph_add_tensor(g, 1000, 64, TA_TENSOR_INPUT);
	mid = ta_graph_add_tensor(g, 2000, 64, 0);
	out = ta_graph_add_tensor(g, 1000, 64, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &in, 1, &mid, 1);
	ta_graph_add_op(g, &mid, 1, &out, 1);
	if (ta_plan_offline(g, NULL, &p))
		return 1;
	printf("%llu %llu %d\n", (unsigned long long)ta_plan_height(p),
	       (unsigned long long)ta_plan_lower_bound(p), ta_plan_optimal(p));
	ta_plan_free(p);
	ta_graph_free(g);
	return 0;
}
C
# shellcheck disable=SC2046
cc -Wall -Werror -o "$tmp/user" "$tmp/user.c" $(pkg-config --cflags --libs tensorarena) >>"$tmp/log" 2>&1
tap $? "library: a program builds with pkg-config --cflags --libs tensorarena"
out=$(LD_LIBRARY_PATH=$tmp/usr/lib "$tmp/user" 2>&1)
# 3024: mid must sit at 1024 (1000 rounded up to its 64-byte alignment),
# the lowest aligned height; the alignment-aware lower bound is 3024 too
# (3000 live, but whichever is on top starts 64-aligned), so it is optimal.
[ "$out" = "3024 3024 1" ]
tap $? "library: the shared library plans offline (got '$out')"
# ldd's whole output first: grep -q stopping early would SIGPIPE ldd and,
# under pipefail, fail the check.
deps=$(LD_LIBRARY_PATH=$tmp/usr/lib ldd "$tmp/user" 2>&1)
grep -q "libtensorarena.so.0 => $tmp/usr/lib" <<<"$deps"
tap $? "library: linked against the shared libtensorarena.so.0"
if nm -D --defined-only "$tmp/usr/lib/libtensorarena.so.0" | grep -qw ta_plan_validate; then
	tap 1 "library: exports only the public API"
else
	tap 0 "library: exports only the public API"
fi
