#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Check a model rewritten by ta_tflite_write_offline() with an independent
reader: Debian's flatc (flatbuffers-compiler) turns both models into JSON
through tests/data/tflite-subset.fbs, and the rewritten one must be the
original plus exactly one OfflineMemoryAllocation metadata entry whose
buffer holds the expected int32 values: [1, 0, n], n the tensors of all
subgraphs, then one entry per tensor, the subgraphs in order; and TFLite
Micro must read it one way: for each tensor I of a subgraph S > 0 that it
plans (not a constant, not of size 0), the entry its documentation names
(the tensors of the subgraphs before S, plus I) must equal the one its
code takes (I; micro_allocation_info.cc, InitializeAllocationInfo()).

  tests/tflite-offline-check.py ORIGINAL REWRITTEN EXPECTED
  tests/tflite-offline-check.py --offsets MODEL

EXPECTED: a text file, one int32 per line: the whole buffer, header
[version, subgraph, n] included, or "-" to check only the form above.
--offsets prints, for a model with the entry (as Vela writes it), one line
"S:I OFFSET" per tensor TFLite Micro plans at an offset (entry >= 0), I
alone for subgraph 0, after checking the count as TFLite Micro does.
Exit 0 when all holds, 1 when not (with what differs), 77 when flatc is
missing (skip).
"""
import json
import os
import shutil
import struct
import subprocess
import sys
import tempfile

NAME = "OfflineMemoryAllocation"
HERE = os.path.dirname(os.path.abspath(__file__))
SCHEMA = os.path.join(HERE, "data", "tflite-subset.fbs")


def to_json(flatc, path, tmp):
    out = os.path.join(tmp, os.path.basename(path) + ".d")
    os.makedirs(out, exist_ok=True)
    subprocess.run([flatc, "--json", "--strict-json", "--defaults-json",
                    "--raw-binary", "-o", out, SCHEMA, "--", path],
                   check=True, capture_output=True)
    name = os.path.splitext(os.path.basename(path))[0] + ".json"
    with open(os.path.join(out, name)) as f:
        return json.load(f)


def fail(what):
    print("tflite-offline-check: " + what, file=sys.stderr)
    sys.exit(1)


def planned(model, tensor):
    """Whether TFLite Micro plans @tensor: no data, not of size 0."""
    buf = model.get("buffers", [])[tensor.get("buffer", 0)]
    elems = 1
    for d in tensor.get("shape", []):
        elems *= d
    return not buf.get("data") and elems != 0


def entry(model):
    """The int32s of the (last) OfflineMemoryAllocation entry, or None."""
    found = None
    for m in model.get("metadata", []):
        if m.get("name") == NAME:
            data = bytes(model["buffers"][m["buffer"]].get("data", []))
            found = list(struct.unpack("<%di" % (len(data) // 4),
                                       data[:len(data) // 4 * 4]))
    return found


def both_readings(model, values):
    """Entry base(S) + I and entry I agree for each planned tensor."""
    base = 0
    for s, sg in enumerate(model["subgraphs"]):
        for i, t in enumerate(sg.get("tensors", [])):
            if s and planned(model, t) and \
                    values[3 + base + i] != values[3 + i]:
                fail("subgraph %d, tensor %d: entry %d is %d, entry %d %d: "
                     "TFLite Micro's documentation and code read it two "
                     "ways" % (s, i, base + i, values[3 + base + i], i,
                               values[3 + i]))
        base += len(sg.get("tensors", []))


def offsets(flatc, path):
    with tempfile.TemporaryDirectory() as tmp:
        a = os.path.join(tmp, "model.tflite")
        shutil.copy(path, a)
        model = to_json(flatc, a, tmp)
    values = entry(model)
    if values is None:
        fail("%s: no %s entry" % (path, NAME))
    total = sum(len(sg.get("tensors", [])) for sg in model["subgraphs"])
    if len(values) < 3 or values[2] != total or len(values) < 3 + total:
        fail("%s: %s header %s: TFLite Micro wants %d offsets"
             % (path, NAME, values[:3], total))
    base = 0
    for s, sg in enumerate(model["subgraphs"]):
        for i, t in enumerate(sg.get("tensors", [])):
            v = values[3 + base + i]
            if planned(model, t) and v >= 0:
                print("%s %d" % ("%d:%d" % (s, i) if s else str(i), v))
        base += len(sg.get("tensors", []))


def main():
    if len(sys.argv) not in (3, 4) or \
            (len(sys.argv) == 3 and sys.argv[1] != "--offsets"):
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    flatc = shutil.which("flatc")
    if not flatc:
        print("tflite-offline-check: no flatc (Debian: flatbuffers-compiler)",
              file=sys.stderr)
        sys.exit(77)
    if len(sys.argv) == 3:
        offsets(flatc, sys.argv[2])
        return
    orig_path, new_path, expected_path = sys.argv[1:]
    expected = None
    if expected_path != "-":
        with open(expected_path) as f:
            expected = [int(line) for line in f if line.strip()]
    with tempfile.TemporaryDirectory() as tmp:
        # the same base name would collide in one directory
        a = os.path.join(tmp, "original.tflite")
        b = os.path.join(tmp, "rewritten.tflite")
        shutil.copy(orig_path, a)
        shutil.copy(new_path, b)
        old = to_json(flatc, a, tmp)
        new = to_json(flatc, b, tmp)

    keys = set(old) | set(new)
    for k in sorted(keys - {"buffers", "metadata"}):
        if old.get(k) != new.get(k):
            fail("Model.%s differs from the original's" % k)
    old_bufs, new_bufs = old.get("buffers", []), new.get("buffers", [])
    if len(new_bufs) != len(old_bufs) + 1 or new_bufs[:len(old_bufs)] != old_bufs:
        fail("buffers: want the %d original ones and one more, got %d"
             % (len(old_bufs), len(new_bufs)))
    kept = [m for m in old.get("metadata", []) if m.get("name") != NAME]
    metas = new.get("metadata", [])
    if metas[:-1] != kept or not metas or metas[-1].get("name") != NAME:
        fail("metadata: want the original entries (but %s), then %s"
             % (NAME, NAME))
    buf = metas[-1].get("buffer")
    if buf != len(old_bufs):
        fail("%s names buffer %s, want the new buffer %d"
             % (NAME, buf, len(old_bufs)))
    data = bytes(new_bufs[buf].get("data", []))
    if len(data) % 4:
        fail("%s data: %d bytes, not int32s" % (NAME, len(data)))
    values = list(struct.unpack("<%di" % (len(data) // 4), data))
    if expected is not None and values != expected:
        fail("%s data: %s, want %s" % (NAME, values[:16], expected[:16]))
    n_tensors = sum(len(sg.get("tensors", [])) for sg in new["subgraphs"])
    if values[:3] != [1, 0, n_tensors] or len(values) != 3 + n_tensors:
        fail("%s header %s: want [1, 0, %d] and %d offsets"
             % (NAME, values[:3], n_tensors, n_tensors))
    both_readings(new, values)
    print("tflite-offline-check: %s: the original model plus %s "
          "(%d offsets over %d subgraphs, %d of them >= 0; TFLite Micro "
          "reads them one way)" % (new_path, NAME, n_tensors,
                                   len(new["subgraphs"]),
                                   sum(v >= 0 for v in values[3:])))


if __name__ == "__main__":
    main()
