#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Print a model of the oracle: show.py FILE.onnx, or show.py SEED INDEX
(gen.py's model INDEX of SEED; -o FILE saves it)."""
import random
import sys

import onnx

sys.dont_write_bytecode = True
sys.path.insert(0, __import__("os").path.dirname(__file__))
import gen  # noqa: E402

args = sys.argv[1:]
out = None
if "-o" in args:
    i = args.index("-o")
    out = args[i + 1]
    del args[i:i + 2]
if len(args) == 2:
    m = gen.model(random.Random("%d:%d" % (int(args[0]), int(args[1]))))
else:
    m = onnx.load(args[0])
print(onnx.helper.printable_graph(m.graph))
if out:
    onnx.save(m, out)
