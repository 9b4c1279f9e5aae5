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
lib=$tmp/usr/lib

# The API: every function include/tensorarena.h declares (a declaration
# starts in column 0; its name is the first ta_ word before a parenthesis).
grep -oE '^[a-z][^(]*\bta_[a-z0-9_]+\(' "$root/userspace/include/tensorarena.h" |
	grep -oE 'ta_[a-z0-9_]+\($' | tr -d '(' | sort -u >"$tmp/api"
napi=$(wc -l <"$tmp/api")
[ "$napi" -ge 40 ]
tap $? "library: the header declares the API ($napi functions)"
# The map names each of them (some twice: a new version of an old name).
grep -oE '^[[:space:]]+ta_[a-z0-9_]+;' "$root/userspace/lib/libtensorarena.map" |
	tr -d ' \t;' | sort -u >"$tmp/map"
diff "$tmp/api" "$tmp/map" >&2
tap $? "library: libtensorarena.map names exactly the header's functions"
nm -D --defined-only "$lib/libtensorarena.so.0" | awk '$2 == "T" { print $3 }' |
	sed 's/@.*//' | sort -u >"$tmp/so"
diff "$tmp/api" "$tmp/so" >&2
tap $? "library: the shared library exports exactly the header's functions ($(wc -l <"$tmp/so"))"
# The Debian symbols file lists every NAME@VERSION the library exports, and
# every version node (dpkg-gensymbols only warns about a symbol it lacks).
nm -D --defined-only "$lib/libtensorarena.so.0" |
	awk '$2 == "T" { sub("@@", "@"); print $3 } $2 == "A" { print $3 "@" $3 }' |
	sort -u >"$tmp/so_ver"
awk '/^ / { print $1 }' "$root/debian/libtensorarena0.symbols" | sort -u >"$tmp/deb"
diff "$tmp/so_ver" "$tmp/deb" >&2
tap $? "library: debian/libtensorarena0.symbols lists exactly the exported NAME@VERSIONs ($(wc -l <"$tmp/deb"))"
nm -g --defined-only "$lib/libtensorarena.a" | awk 'NF == 3 { print $3 }' | sort >"$tmp/a"
diff "$tmp/api" "$tmp/a" >&2
tap $? "library: the static library's only global symbols are the header's functions ($(wc -l <"$tmp/a"))"

# A program with functions of the library's internal names (a planner
# strategy, an importer) links statically and still plans.
cat >"$tmp/clash.c" <<'C'
#include <stdio.h>
#include <tensorarena.h>

int ta_greedy_place(void) { return 7; }
int ta_onnx_read(void) { return 8; }
int ta_env_alloc(void) { return 9; }

int main(void)
{
	struct ta_graph_builder *g = ta_graph_new();
	struct ta_plan *p;
	uint32_t in, out;

	in = ta_graph_add_tensor(g, 4096, 64, TA_TENSOR_INPUT);
	out = ta_graph_add_tensor(g, 4096, 64, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &in, 1, &out, 1);
	if (ta_plan_offline(g, NULL, &p))
		return 1;
	printf("%llu %d\n", (unsigned long long)ta_plan_height(p),
	       ta_greedy_place() + ta_onnx_read() + ta_env_alloc());
	ta_plan_free(p);
	ta_graph_free(g);
	return 0;
}
C
# shellcheck disable=SC2046
cc -Wall -Werror -static -o "$tmp/clash" "$tmp/clash.c" \
	$(pkg-config --static --cflags --libs tensorarena) >>"$tmp/log" 2>&1
tap $? "library: a static program with functions named as the library's internals links"
out=$("$tmp/clash" 2>&1)
[ "$out" = "8192 24" ]
tap $? "library: and plans with the library's own (got '$out')"

# struct ta_plan_options grew (reserved[4]): a program built with the
# 24-byte struct of TENSORARENA_0.1 calls ta_plan_offline@TENSORARENA_0.1,
# which reads those 24 bytes only (here followed by non-zero bytes that
# the current version would refuse as reserved); the current version
# refuses a non-zero reserved field.
cat >"$tmp/abi.c" <<'C'
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <tensorarena.h>

struct old_options { uint32_t strategy, flags; uint64_t budget_ns, budget_steps; };
struct old_call { struct old_options o; uint64_t after[4]; };
int ta_plan_offline_0_1(const struct ta_graph_builder *g,
			const struct old_options *o, struct ta_plan **out);
__asm__(".symver ta_plan_offline_0_1, ta_plan_offline@TENSORARENA_0.1");

int main(void)
{
	struct ta_graph_builder *g = ta_graph_new();
	struct old_call call;
	struct ta_plan_options o = { .strategy = TA_STRATEGY_GREEDY_SIZE };
	struct ta_plan *p;
	uint32_t in, out;
	int old_err, new_err, bad_err;

	in = ta_graph_add_tensor(g, 4096, 64, TA_TENSOR_INPUT);
	out = ta_graph_add_tensor(g, 4096, 64, TA_TENSOR_OUTPUT);
	ta_graph_add_op(g, &in, 1, &out, 1);
	memset(&call, 0xff, sizeof(call));
	call.o = (struct old_options){ .strategy = TA_STRATEGY_FREELIST };
	old_err = ta_plan_offline_0_1(g, &call.o, &p);
	if (old_err)
		return 1;
	printf("%s ", ta_strategy_str(ta_plan_strategy(p)));
	ta_plan_free(p);
	new_err = ta_plan_offline(g, &o, &p);
	if (new_err)
		return 2;
	printf("%s ", ta_strategy_str(ta_plan_strategy(p)));
	ta_plan_free(p);
	o.reserved[2] = 1;	/* the last; fast_capacity took the first (0.7) */
	bad_err = ta_plan_offline(g, &o, &p);
	printf("%d\n", bad_err == -EINVAL);
	ta_graph_free(g);
	return 0;
}
C
# shellcheck disable=SC2046
cc -Wall -Werror -o "$tmp/abi" "$tmp/abi.c" $(pkg-config --cflags --libs tensorarena) >>"$tmp/log" 2>&1
tap $? "library: a program calling ta_plan_offline@TENSORARENA_0.1 builds"
out=$(LD_LIBRARY_PATH=$lib "$tmp/abi" 2>&1)
[ "$out" = "freelist greedy-size 1" ]
tap $? "library: the 0.1 options are read as 24 bytes, the current ones refuse reserved bits (got '$out')"

# One version number: VERSION; what carries it elsewhere agrees.
version=$(cat "$root/VERSION")
drift=
grep -qx "PACKAGE_VERSION=\"$version\"" "$root/dkms.conf" || drift="$drift dkms.conf"
head -1 "$root/debian/changelog" | grep -q "^tensorarena ($version) " || drift="$drift debian/changelog"
for man in "$root"/Documentation/man/*.[1-9]; do
	grep -q "^\.TH .* \"tensorarena $version\" " "$man" || drift="$drift ${man#"$root"/}"
done
grep -qx "Version: $version" "$PKG_CONFIG_PATH/tensorarena.pc" || drift="$drift tensorarena.pc"
# Documentation/packaging.md spells the packages' names, the DKMS source
# directory and the version in prose: each (_X.Y.Z_, tensorarena-X.Y.Z,
# tensorarena/X.Y.Z, version `X.Y.Z`) is VERSION's.
docver=$(grep -oE '(_|tensorarena[-/]|version `)[0-9]+\.[0-9]+\.[0-9]+' \
	"$root/Documentation/packaging.md" | grep -oE '[0-9]+\.[0-9]+\.[0-9]+$' | sort -u)
[ "$docver" = "$version" ] || drift="$drift Documentation/packaging.md(${docver//$'\n'/ })"
[ -z "$drift" ]
tap $? "version: $version (VERSION) in dkms.conf, debian/changelog, the man pages, the .pc file and Documentation/packaging.md${drift:+; differs in:$drift}"

# Every source is listed once, in userspace/sources.mk; its planner list
# is module/Makefile's.
lists=$(make -s -f - <<MK print
TOP := $root
include $root/userspace/sources.mk
include $root/module/Makefile
print: ; @echo \$(TA_LIB_SRCS) \$(TA_TACTL_SRCS) \$(TA_BENCH_SRCS) @ \$(TA_PLANNER_SRCS) @ \$(filter planner/%,\$(tensorarena-y))
MK
)
IFS=@ read -r all planner kbuild <<<"$lists"
(cd "$root" && ls module/planner/*.c userspace/lib/*.c userspace/tactl/*.c userspace/bench/*.c) |
	sort >"$tmp/sources"
tr ' ' '\n' <<<"$all" | grep . | sort >"$tmp/listed"
diff "$tmp/sources" "$tmp/listed" >&2
tap $? "sources: userspace/sources.mk lists every userspace and planner source once ($(wc -l <"$tmp/listed"))"
diff <(tr ' ' '\n' <<<"$planner" | grep . | sed 's|^module/||' | sort) \
	<(tr ' ' '\n' <<<"$kbuild" | grep . | sed 's|\.o$|.c|' | sort) >&2
tap $? "sources: its planner list is module/Makefile's"
