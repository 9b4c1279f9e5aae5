#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Check a model rewritten by ta_tflite_write_offline() with an independent
reader: Debian's flatc (flatbuffers-compiler) turns both models into JSON
through tests/data/tflite-subset.fbs, and the rewritten one must be the
original plus exactly one OfflineMemoryAllocation metadata entry whose
buffer holds the expected int32 values.

  tests/tflite-offline-check.py ORIGINAL REWRITTEN EXPECTED

EXPECTED: a text file, one int32 per line: the whole buffer, header
[version, subgraph, n] included. Exit 0 when all holds, 1 when not (with
what differs), 77 when flatc is missing (skip).
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


def main():
    if len(sys.argv) != 4:
        print(__doc__, file=sys.stderr)
        sys.exit(2)
    flatc = shutil.which("flatc")
    if not flatc:
        print("tflite-offline-check: no flatc (Debian: flatbuffers-compiler)",
              file=sys.stderr)
        sys.exit(77)
    orig_path, new_path, expected_path = sys.argv[1:]
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
    if values != expected:
        fail("%s data: %s, want %s" % (NAME, values[:12], expected[:12]))
    n_tensors = len(new["subgraphs"][0].get("tensors", []))
    if values[:3] != [1, 0, n_tensors] or len(values) != 3 + n_tensors:
        fail("%s header %s: want [1, 0, %d] and %d offsets"
             % (NAME, values[:3], n_tensors, n_tensors))
    print("tflite-offline-check: %s: the original model plus %s "
          "(%d offsets)" % (new_path, NAME, n_tensors))


if __name__ == "__main__":
    main()
