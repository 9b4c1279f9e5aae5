#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0
"""Check Documentation/netlink/specs/tensorarena.yaml against the kernel's
schema of its protocol (genetlink-legacy.yaml) and against the uAPI
headers: every command, attribute, strategy and flag of the spec must have
the value the headers give it (uapi/linux/tensorarena.h for the ioctl constants the spec's
definitions name, the generated uapi/linux/tensorarena_netlink.h for the
rest), so the spec cannot drift from the ABI. Prints TAP lines.

usage: netlink-spec-check.py REPO_ROOT YNL_TREE
  (YNL_TREE: an extracted linux-source-6.12 with Documentation/netlink/)
"""
import re
import sys

import jsonschema
import yaml

root, ynl = sys.argv[1], sys.argv[2]
spec_path = f"{root}/Documentation/netlink/specs/tensorarena.yaml"
n = 0
failed = 0


def tap(ok, name, why=""):
    global n, failed
    n += 1
    failed += not ok
    print(f"{'ok' if ok else 'not ok'} {n} - {name}" + ("" if ok else f"\n# {why}"))


spec = yaml.safe_load(open(spec_path))
schema_name = f"{spec['protocol']}.yaml"
schema = yaml.safe_load(open(f"{ynl}/Documentation/netlink/{schema_name}"))
try:
    jsonschema.validate(spec, schema)
    tap(True, f"netlink spec validates against {schema_name}")
except jsonschema.ValidationError as e:
    tap(False, f"netlink spec validates against {schema_name}", e.message)

# The ioctl constants, and the netlink names generated from the spec
# (tests/netlink-gen.sh --check makes sure the latter are up to date).
hdr = "".join(open(f"{root}/uapi/linux/{h}").read()
              for h in ("tensorarena.h", "tensorarena_netlink.h"))
defines = {m[0]: m[1] for m in re.findall(r"#define[ \t]+(\w+)[ \t]+(\S+)", hdr)}
enums = {}
for name, body in re.findall(r"enum\s+(\w+)\s*\{(.*?)\};", hdr, re.S):
    vals, i = {}, 0
    for entry, value in re.findall(r"^\s*(\w+)\s*(?:=\s*([^,]+))?,", body, re.M):
        if entry.startswith("__") or entry.endswith("_MAX"):
            continue
        if value:
            i = int(value, 0)
        vals[entry] = i
        i += 1
    enums[name] = vals


def c_name(prefix, name):
    return (prefix + name).upper().replace("-", "_")


def check_enum(what, enum_name, expected):
    got = enums.get(enum_name)
    if got is None:
        tap(False, what, f"no enum {enum_name} in the header")
        return
    bad = [f"{k}: spec {v}, header {got.get(k)}" for k, v in expected.items()
           if got.get(k) != v]
    tap(not bad, what, "; ".join(bad[:3]))


for aset in spec["attribute-sets"]:
    exp = {c_name(aset["name-prefix"], a["name"]): i + 1
           for i, a in enumerate(aset["attributes"])}
    check_enum(f"attribute set {aset['name']} matches enum {aset['enum-name']}",
               aset["enum-name"].replace("-", "_"), exp)

ops = spec["operations"]
exp, v = {}, 0
for op in ops["list"]:
    v = op.get("value", v + 1)
    exp[c_name(ops["name-prefix"], op["name"])] = v
check_enum("operations match enum ta_nl_cmd", ops["enum-name"].replace("-", "_"), exp)

prefixes = {"strategy": "TA_STRATEGY_", "create-flags": "TA_CREATE_",
            "tensor-flags": "TA_TENSOR_", "export-flags": "TA_EXPORT_",
            "plan-export-flags": "TA_EXPORT_",
            "op-flags": "TA_OP_", "member-flags": "TA_CREATE_",
            "group-flags": "TA_GROUP_", "group-add-flags": "TA_GROUP_ADD_"}
for d in spec["definitions"]:
    if d["name"] not in prefixes:
        tap(False, f"definition {d['name']} matches the header",
            "this check does not know its C prefix: add it to prefixes")
        continue
    bad = []
    for i, e in enumerate(d["entries"]):
        want = i if d["type"] == "enum" else 1 << i
        name = c_name(prefixes[d["name"]], e)
        if int(defines.get(name, "-1"), 0) != want:
            bad.append(f"{name}: spec {want}, header {defines.get(name)}")
    tap(not bad, f"definition {d['name']} matches the header", "; ".join(bad))

tap(defines.get("TA_NL_FAMILY_NAME") == f'"{spec["name"]}"' and
    defines.get("TA_NL_MCGRP_EVENTS") == f'"{spec["mcast-groups"]["list"][0]["name"]}"',
    "family and multicast group names match the header")
print(f"1..{n}")
sys.exit(1 if failed else 0)
