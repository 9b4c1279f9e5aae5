#!/bin/bash
# SPDX-License-Identifier: GPL-2.0 OR MIT
# The man pages (Documentation/man/) and tactl's bash completion
# (userspace/completion/tactl), one TAP line per check:
# - mandoc -T lint -W warning and man --warnings (groff) on every page: silent;
# - tactl.1 has a section per subcommand of `tactl --help` and names every
#   long option of tactl's sources; libtensorarena.3 names every symbol of
#   libtensorarena.map; tensorarena.4 names every TA_IOCTL_* command of the
#   uAPI header and every module parameter of module/*.c;
# - the completion completes `tactl pl` to plan and `tactl plan --strategy `
#   to the strategy names of the planner.
# The lists come from the code and the binary, not from a copy here.
# Needs mandoc, man-db (man) and groff-base; bash-completion is used when
# installed, else minimal stand-ins. Always exits 0: the verdict is the TAP.
set -uo pipefail
# shellcheck source=tests/vm/lib.sh
. "$(dirname "$0")/vm/lib.sh"

man_dir=$TA_ROOT/Documentation/man
pages=(tactl.1 libtensorarena.3 tensorarena.4 tensorarena.7)
completion=$TA_ROOT/userspace/completion/tactl
tactl=$TA_ROOT/userspace/bin/tactl

ok() { echo "ok - $1"; }
not_ok() {
	echo "not ok - $1"
	[ -n "${2:-}" ] && printf '%s\n' "$2" | head -5 | sed 's/^/# /'
	return 0
}
check() { # check DESC CONDITION-EXIT-STATUS [DIAGNOSTIC]
	if [ "$2" = 0 ]; then ok "$1"; else not_ok "$1" "${3:-}"; fi
}

# render PAGE: the page as plain text (no overstrike), for word checks.
render() {
	mandoc -T ascii "$man_dir/$1" 2>/dev/null | sed 's/.\x08//g'
}

# 1. The pages exist and both formatters are silent about them.
for p in "${pages[@]}"; do
	[ -f "$man_dir/$p" ]
	check "man: $p exists" $? "missing $man_dir/$p"
	# SPDX line first, like every file of the repository.
	head -1 "$man_dir/$p" 2>/dev/null | grep -q '^\.\\" SPDX-License-Identifier: '
	check "man: $p starts with an SPDX line" $?
done

if command -v mandoc >/dev/null; then
	have_mandoc=1
	for p in "${pages[@]}"; do
		out=$(mandoc -T lint -W warning "$man_dir/$p" 2>&1)
		[ -z "$out" ]
		check "man: mandoc -T lint -W warning $p: no output" $? "$out"
	done
else
	have_mandoc=0
	for p in "${pages[@]}"; do
		not_ok "man: mandoc -T lint -W warning $p: no output" "mandoc is not installed (apt-get install mandoc)"
	done
fi

if command -v man >/dev/null && command -v groff >/dev/null; then
	for p in "${pages[@]}"; do
		# man formats with groff; its warnings go to stderr.
		out=$(MANWIDTH=80 LC_ALL=C.UTF-8 man --warnings -l "$man_dir/$p" 2>&1 >/dev/null)
		st=$?
		[ "$st" = 0 ] && [ -z "$out" ]
		check "man: man --warnings -l $p (groff): no warnings" $? "$out"
	done
else
	for p in "${pages[@]}"; do
		not_ok "man: man --warnings -l $p (groff): no warnings" "man or groff is not installed (apt-get install man-db groff-base)"
	done
fi

# 2. tactl.1 against tactl: the subcommands its --help lists, the long
# options its sources compare arguments with.
if [ ! -x "$tactl" ] || [ -n "$(find "$TA_ROOT/userspace/tactl" -newer "$tactl" -name '*.c' 2>/dev/null)" ]; then
	make -s -C "$TA_ROOT/userspace" "$tactl" >/dev/null 2>&1
fi
cmds=$("$tactl" --help 2>/dev/null | sed -n '/^commands:/,$s/^  \([a-z][a-z-]*\) .*/\1/p')
[ -n "$cmds" ]
check "tactl: --help lists subcommands (got $(wc -w <<<"$cmds"))" $? "cannot run $tactl --help"
for c in $cmds; do
	grep -qE "^\.SS \"?$c(\"| |$)" "$man_dir/tactl.1"
	check "tactl.1: subcommand $c has a section (.SS $c)" $?
done

opts=$(grep -ohE '"--[a-z][a-z-]*"' "$TA_ROOT"/userspace/tactl/*.c | tr -d '"' | sort -u)
[ -n "$opts" ]
check "tactl: long options found in the sources (got $(wc -w <<<"$opts"))" $?
tactl_text=$( [ "$have_mandoc" = 1 ] && render tactl.1)
for o in $opts; do
	grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" <<<"$tactl_text"
	check "tactl.1: option $o" $?
done

# 3. libtensorarena.3 names every exported symbol.
syms=$(sed -n 's/^[[:space:]]*\(ta_[a-z0-9_]*\);.*/\1/p' "$TA_ROOT/userspace/lib/libtensorarena.map" | sort -u)
[ -n "$syms" ]
check "libtensorarena.map: symbols found (got $(wc -w <<<"$syms"))" $?
for s in $syms; do
	grep -qw -- "$s" "$man_dir/libtensorarena.3"
	check "libtensorarena.3: $s" $?
done

# 4. tensorarena.4: every ioctl command and every module parameter.
ioctls=$(sed -n 's/^#define[[:space:]]\{1,\}\(TA_IOCTL_[A-Z0-9_]*\)[[:space:]]\{1,\}_IO.*/\1/p' \
	"$TA_ROOT/uapi/linux/tensorarena.h" | sort -u)
[ -n "$ioctls" ]
check "uapi: TA_IOCTL_* commands found (got $(wc -w <<<"$ioctls"))" $?
for i in $ioctls; do
	grep -qE "^\.B $i\$" "$man_dir/tensorarena.4"
	check "tensorarena.4: $i has an item" $?
done

# The parameters of the module users load: ta_test_hooks.c's are the test
# build's only (CONFIG_TENSORARENA_KUNIT_TEST), documented in testing.md.
params=$(ls "$TA_ROOT"/module/*.c | grep -v '/ta_test_hooks\.c$' |
	xargs grep -hoE 'module_param(_cb|_named|_array|_string)?\([[:space:]]*[a-z_][a-z0-9_]*' |
	sed 's/.*(\s*//' | sort -u)
[ -n "$params" ]
check "module: parameters found (got $(wc -w <<<"$params"))" $?
param_sect=$(sed -n '/^\.SH MODULE PARAMETERS/,/^\.SH /p' "$man_dir/tensorarena.4")
for m in $params; do
	grep -qE "^\.B $m\$" <<<"$param_sect"
	check "tensorarena.4: module parameter $m (MODULE PARAMETERS)" $?
done

# 5. The completion, sourced in a clean bash as bash-completion would.
# complete_words WORD...: COMPREPLY for the command line WORD... (the last
# one being completed), one per line.
complete_words() {
	bash --norc --noprofile -c '
		comp=$1
		shift
		if [ -r /usr/share/bash-completion/bash_completion ]; then
			. /usr/share/bash-completion/bash_completion
		else
			# Minimal stand-ins for what the script uses.
			_init_completion() {
				cur=${COMP_WORDS[COMP_CWORD]}
				prev=${COMP_WORDS[COMP_CWORD-1]}
				words=("${COMP_WORDS[@]}")
				cword=$COMP_CWORD
			}
			_filedir() { mapfile -t COMPREPLY < <(compgen -f -- "$cur"); }
		fi
		. "$comp" || exit 1
		COMP_WORDS=("$@")
		COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"
		COMP_POINT=${#COMP_LINE}
		_tactl tactl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD-1]}"
		printf "%s\n" "${COMPREPLY[@]}"
	' complete "$completion" "$@"
}

head -1 "$completion" 2>/dev/null | grep -q '^# SPDX-License-Identifier: '
check "completion: starts with an SPDX line" $?
bash -n "$completion" 2>/dev/null
check "completion: bash -n (syntax)" $?
grep -qE '^complete -F _tactl tactl$' "$completion"
check "completion: complete -F _tactl tactl" $?

out=$(complete_words tactl pl 2>&1)
grep -qx plan <<<"$out"
check "completion: 'tactl pl' offers plan" $? "got: ${out//$'\n'/ }"
out=$(complete_words tactl "" 2>&1)
missing=
for c in $cmds; do
	grep -qx "$c" <<<"$out" || missing="$missing $c"
done
[ -z "$missing" ]
check "completion: 'tactl ' offers every subcommand" $? "missing:$missing"

# The strategies: the planner's names (ta_strategy_names[] of
# module/planner/ta_plan.c: every TA_STRATEGY_* with a name).
strategies=$(sed -n 's/^[[:space:]]*\[TA_STRATEGY_[A-Z_]*\] = "\([a-z-]*\)",.*/\1/p' \
	"$TA_ROOT/module/planner/ta_plan.c" | sort -u)
[ -n "$strategies" ]
check "planner: strategy names found (got $(wc -w <<<"$strategies"))" $?
out=$(complete_words tactl plan --strategy "" 2>&1)
for s in $strategies; do
	grep -qx -- "$s" <<<"$out"
	check "completion: 'tactl plan --strategy ' offers $s" $? "got: ${out//$'\n'/ }"
done
# ... and those tactl plan --help lists are among them.
listed=$("$tactl" plan --help 2>/dev/null | sed -n 's/.*--strategy NAME  one of: \(.*\) (default.*/\1/p')
missing=
for s in $listed; do
	grep -qx -- "$s" <<<"$strategies" || missing="$missing $s"
done
[ -n "$listed" ] && [ -z "$missing" ]
check "planner: the strategies of 'tactl plan --help' are the planner's" $? "listed: $listed; unknown:$missing"

# Every long option of the sources is completed somewhere.
missing=
for o in $opts; do
	[ "$o" = --help ] && continue
	grep -qE -- "(^|[^a-z-])$o([^a-z-]|$)" "$completion" || missing="$missing $o"
done
[ -z "$missing" ]
check "completion: knows every long option of tactl's sources" $? "missing:$missing"
out=$(complete_words tactl plan --no 2>&1)
grep -qx -- --no-constants <<<"$out" && grep -qx -- --no-inplace <<<"$out"
check "completion: 'tactl plan --no' offers --no-constants and --no-inplace" $? "got: ${out//$'\n'/ }"
exit 0
