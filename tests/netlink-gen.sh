#!/bin/bash
# The netlink C code generated from Documentation/netlink/specs/tensorarena.yaml
# by the kernel's YNL C generator of the newest kernel Debian has (7.3,
# lib.sh: tools/net/ynl/pyynl/ynl_gen_c.py of its linux-source):
#   module/ta_nl_gen.h, module/ta_nl_gen.c   policies, ops table, handler
#                                           prototypes (kernel mode)
#   uapi/linux/tensorarena_netlink.h       the uAPI enums (uapi mode)
#
# usage: netlink-gen.sh            regenerate them in place (make netlink-gen)
#        netlink-gen.sh --check    regenerate into a scratch tree and compare
#                                  with the committed files; TAP, one line per
#                                  file (make check); then 6.12's generator
#                                  (tools/net/ynl/ynl-gen-c.py) must accept
#                                  the spec too (its output differs only in
#                                  repeating the spec's header includes)
#
# ynl-gen-c.py finds the kernel root by walking up from the spec to a
# MAINTAINERS file (and loops forever without one), and reads the schema
# two directories above the spec: it runs on a copy of the spec in a scratch
# tree that has both.
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

check=0
[ "${1:-}" = --check ] && check=1
ynl=$(ta_ynl_tools "$(ta_newest_series)") || exit 1
gen=$(ta_ynl_gen "$ynl")
ynl612=$(ta_ynl_tools 6.12) || exit 1
spec=Documentation/netlink/specs/tensorarena.yaml

tree=$(mktemp -d)
trap 'rm -rf "$tree"' EXIT
mkdir -p "$tree/Documentation/netlink/specs" "$tree/out"
touch "$tree/MAINTAINERS"
cp "$ynl"/Documentation/netlink/*.yaml "$tree/Documentation/netlink/"
cp "$TA_ROOT/$spec" "$tree/$spec"

# file in the repository : ynl-gen-c.py arguments
outputs=(
	"module/ta_nl_gen.h:--mode kernel --header"
	"module/ta_nl_gen.c:--mode kernel --source"
	"uapi/linux/tensorarena_netlink.h:--mode uapi --header"
)

n=0
failed=0
for o in "${outputs[@]}"; do
	file=${o%%:*}
	args=${o#*:}
	n=$((n + 1))
	out=$tree/out/$(basename "$file")
	# shellcheck disable=SC2086 # $args are separate words
	if ! (cd "$tree" && timeout 120 /usr/bin/python3 "$gen" $args \
		--spec "$spec" -o "$out") >"$tree/gen.log" 2>&1; then
		echo "not ok $n - ynl-gen-c.py $args"
		sed 's/^/# /' "$tree/gen.log"
		failed=1
		continue
	fi
	if [ $check = 0 ]; then
		cp "$out" "$TA_ROOT/$file"
		echo "ok $n - $file regenerated"
	elif diff -u "$TA_ROOT/$file" "$out" >"$tree/diff" 2>&1; then
		echo "ok $n - $file is what the spec generates"
	else
		echo "not ok $n - $file is what the spec generates (make netlink-gen)"
		head -20 "$tree/diff" | sed 's/^/# /'
		failed=1
	fi
done
if [ $check = 1 ]; then
	cp "$ynl612"/Documentation/netlink/*.yaml "$tree/Documentation/netlink/"
	for o in "${outputs[@]}"; do
		args=${o#*:}
		n=$((n + 1))
		# shellcheck disable=SC2086 # $args are separate words
		if (cd "$tree" && timeout 120 /usr/bin/python3 "$(ta_ynl_gen "$ynl612")" $args \
			--spec "$spec" -o "$tree/out/612") >"$tree/gen.log" 2>&1; then
			echo "ok $n - 6.12's ynl-gen-c.py accepts the spec ($args)"
		else
			echo "not ok $n - 6.12's ynl-gen-c.py accepts the spec ($args)"
			sed 's/^/# /' "$tree/gen.log"
			failed=1
		fi
	done
fi
echo "1..$n"
exit $failed
