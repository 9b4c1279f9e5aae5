#!/bin/bash
# The device-tree binding, checked with the kernel's own tools (Debian's
# dt-schema and device-tree-compiler), one TAP line per check:
# dt-doc-validate on the binding; its examples compiled by dtc and validated
# by dt-validate against the binding plus the kernel's reserved-memory
# schemas (and dt-schema's, where the kernel leaves the common ones to it)
# and vendor prefixes; broken variants of the example rejected; the
# binding's compatible is the driver's.
# usage: dt-binding-check.sh [--tap] [KDIR]  (KDIR: a kernel tree whose
# Documentation/devicetree/bindings to use; default: the arm64 6.1 tree,
# tests/vm/build-arm64.sh). Its files go to build/dt-VERSION.PATCHLEVEL.
set -uo pipefail
. "$(dirname "$0")/vm/lib.sh"

[ "${1:-}" = --tap ] && shift
kdir=${1:-$("$TA_ROOT/tests/vm/build-arm64.sh")} || exit 1
bindings=$TA_ROOT/Documentation/devicetree/bindings
binding=$bindings/misc/linux,tensorarena.yaml
kbindings=$kdir/Documentation/devicetree/bindings
kver=$(awk '/^VERSION =/ { v = $3 } /^PATCHLEVEL =/ { p = $3 } END { print v "." p }' "$kdir/Makefile")
out=$TA_ROOT/build/dt-$kver
rm -rf "$out"
mkdir -p "$out"
cd "$out" || exit 1

# The reserved-memory schemas: the kernel's, and where it leaves the
# common ones to dt-schema (7.2 and later do), dt-schema's
# (ta_dtschema_schemas).
reserved=$kbindings/reserved-memory
reserved_from="the kernel's"
if [ ! -f "$reserved/shared-dma-pool.yaml" ]; then
	schemas=$(ta_dtschema_schemas) || exit 1
	mkdir -p reserved-memory
	cp "$kbindings"/reserved-memory/*.yaml "$schemas"/reserved-memory/*.yaml reserved-memory/ || exit 1
	reserved=$out/reserved-memory
	reserved_from="the kernel's and dt-schema's"
	echo "# reserved-memory schemas of $kver and of dt-schema (${schemas%/root/*})"
fi

ok() { echo "ok - $1"; }
not_ok() { # not_ok NAME FILE: the failure and the first lines of FILE
	echo "not ok - $1"
	[ -f "$2" ] && head -5 "$2" | sed 's/^/# /'
}

# dt-doc-validate and dt-validate exit 0 on a failed check: what they print
# is the verdict.
dt-doc-validate -u "$bindings" "$binding" >doc.log 2>&1
if [ $? = 0 ] && [ ! -s doc.log ]; then
	ok "dt-doc-validate: the binding is valid dt-schema"
else
	not_ok "dt-doc-validate: the binding is valid dt-schema" doc.log
fi

if dt-mk-schema -j -o schema.json "$reserved" \
	"$kbindings/vendor-prefixes.yaml" "$binding" >mk.log 2>&1 && [ ! -s mk.log ]; then
	ok "dt-mk-schema: the binding with $reserved_from reserved-memory schemas and the kernel's vendor prefixes"
else
	not_ok "dt-mk-schema: the binding with $reserved_from reserved-memory schemas and the kernel's vendor prefixes" mk.log
fi

# The examples, wrapped in a root node by dt-extract-example as the kernel's
# dt_binding_check does; the wrapper's own #address-cells/#size-cells are
# what avoid_unnecessary_addr_size would flag.
dtb() { # dtb NAME: NAME.dts -> NAME.dtb, dtc warnings fail
	dtc -q -Wno-avoid_unnecessary_addr_size -I dts -O dtb -o "$1.dtb" "$1.dts" >"$1.dtc.log" 2>&1 &&
		[ ! -s "$1.dtc.log" ]
}
dt-extract-example "$binding" >example.dts 2>extract.log
if [ -s example.dts ] && dtb example; then
	ok "dtc compiles the binding's examples, no warnings"
else
	not_ok "dtc compiles the binding's examples, no warnings" example.dtc.log
fi

dt-validate -M -s schema.json example.dtb >validate.log 2>&1
matched=$(grep -A3 ': /example-[0-9]*/npu-arena: matched' validate.log |
	grep -c 'schemas/misc/linux,tensorarena.yaml#')
if [ "$matched" = 3 ] && ! grep -v -e 'matched on schema' -e '^	http' validate.log >errors.log; then
	ok "dt-validate: every example's tensorarena node (3) matches the binding and validates"
else
	grep -v -e 'matched on schema' -e '^	http' validate.log >errors.log
	echo "tensorarena nodes matched by the binding: $matched of 3" >>errors.log
	not_ok "dt-validate: every example's tensorarena node (3) matches the binding and validates" errors.log
fi

# rejects NAME SED EXPECTED: the example edited by SED must fail with EXPECTED.
rejects() {
	local name=$1 edit=$2 expected=$3 f
	f=bad-$(echo "$name" | tr -c 'a-z0-9\n' - | cut -c1-40)
	sed "$edit" example.dts >"$f.dts"
	if ! cmp -s example.dts "$f.dts" && dtb "$f" &&
		dt-validate -s schema.json "$f.dtb" >"$f.log" 2>&1 && grep -q -- "$expected" "$f.log"; then
		ok "dt-validate rejects $name"
	else
		echo "expected: $expected" >>"$f.log"
		not_ok "dt-validate rejects $name" "$f.log"
	fi
}
rejects "a node without memory-region" \
	's/memory-region = <&npu_cma>;//' "'memory-region' is a required property"
rejects "two memory-regions" \
	's/memory-region = <&npu_pool>;/memory-region = <\&npu_pool \&npu_cma>;/' "memory-region: .* is too long"
rejects "a property the binding does not have" \
	's/memory-region = <&npu_cma>;/&\n            iommus = <1>;/' "'iommus' does not match any of the regexes"
rejects "a dma-coherent with a value" \
	's/dma-coherent;/dma-coherent = <1>;/' "is not of type 'boolean'"
rejects "a region both reusable and no-map (the shared-dma-pool schema)" \
	's/no-map;/no-map;\n                reusable;/' "should not be valid under {'required': \['reusable'\]}"

# The driver binds what the binding documents.
compat=$(sed -n 's/^    const: \(.*\)$/\1/p' "$binding" | head -1)
if [ -n "$compat" ] && grep -q "\.compatible = \"$compat\"" "$TA_ROOT/module/ta_main.c"; then
	ok "the binding's compatible ($compat) is the driver's"
else
	echo "binding: '$compat'" >compat.log
	not_ok "the binding's compatible is the driver's" compat.log
fi
