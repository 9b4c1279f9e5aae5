#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The ONNX importer against ONNX Runtime: no planned tensor smaller than
what the runtime writes (Documentation/onnx.md, "The oracle").

For each model: `tactl import` of the model as it is (recorded shapes) and
of a copy with value_info and the graph outputs' shapes stripped (the
importer must infer); ONNX Runtime (ort-run.js) runs the stripped copy with
every node output made a graph output, on each input set given (and, for
data-dependent ops, one that makes them write their largest output); ONNX's
onnx.shape_inference.infer_shapes runs on the stripped copy. Every tensor
either graph holds must be planned at least as large as ONNX Runtime wrote
it and as infer_shapes sizes it, where it knows a static size; and, in a
model without data-dependent ops, no larger than ONNX Runtime wrote it (a
larger shape than the runtime's is not a safe one: a Slice with negative
starts after it keeps less); every node
the graph runs must have its outputs planned; a model with a sub-graph (If,
Loop, Scan) must not be accepted; a refusal must name the node and its op
(`node N (name, OpType): ...`).

Each model whose graph inputs share a first dimension d is also run with
that dimension made symbolic (dim_param "ta_batch", or in one model in
three a dimension without a name, sized as INPUT[0]) at d + 2: ONNX Runtime
runs the stripped copy so, fed inputs of that batch, and `tactl import
--dim ta_batch=d+2` must plan every tensor at least as large as it writes
(or refuse, naming the node); the copy imported without --dim must say
that it took the dimension as 1.

Models: --backend DIR (libonnx-testdata: every */model.onnx, with its
test_data_set_0), --corpus DIR (every *.onnx, always), --random N models
from gen.py with --seed S. TAP on stdout, one result a model, counts as
comments; a failing random model is saved in --save DIR.
"""
import argparse
import copy
import glob
import json
import os
import random
import re
import select
import subprocess
import sys
import tempfile
import time
import zlib

import numpy as np
import onnx
from onnx import numpy_helper, shape_inference, TensorProto

HERE = os.path.dirname(os.path.abspath(__file__))
sys.dont_write_bytecode = True  # no __pycache__ in the tree
sys.path.insert(0, HERE)
import gen  # noqa: E402

# onnxruntime-node's names for ONNX element types, and their sizes.
ORT_SIZE = {"float32": 4, "float64": 8, "int8": 1, "uint8": 1, "int16": 2,
            "uint16": 2, "int32": 4, "uint32": 4, "int64": 8, "uint64": 8,
            "bool": 1, "float16": 2, "bfloat16": 2, "complex64": 8,
            "complex128": 16, "float8e4m3fn": 1, "float8e4m3fnuz": 1,
            "float8e5m2": 1, "float8e5m2fnuz": 1, "int4": 0.5, "uint4": 0.5}
NP_TO_ORT = {"float32": "float32", "float64": "float64", "int8": "int8",
             "uint8": "uint8", "int16": "int16", "uint16": "uint16",
             "int32": "int32", "uint32": "uint32", "int64": "int64",
             "uint64": "uint64", "bool": "bool", "float16": "float16"}
ONNX_SIZE = {TensorProto.FLOAT: 4, TensorProto.UINT8: 1, TensorProto.INT8: 1,
             TensorProto.UINT16: 2, TensorProto.INT16: 2, TensorProto.INT32: 4,
             TensorProto.INT64: 8, TensorProto.BOOL: 1, TensorProto.FLOAT16: 2,
             TensorProto.DOUBLE: 8, TensorProto.UINT32: 4, TensorProto.UINT64: 8,
             TensorProto.COMPLEX64: 8, TensorProto.COMPLEX128: 16,
             TensorProto.BFLOAT16: 2}
# Ops whose output shapes depend on the data: fed a second input set too.
DATA_DEPENDENT = {"NonZero", "Compress", "Unique", "NonMaxSuppression",
                  "Loop", "Scan", "If", "TopK", "StringNormalizer"}
REFUSAL = re.compile(r"node (\d+) \((?:(.*), )?([A-Za-z0-9_]+)\): (.*)")
# Refusals of the model as a whole (onnx.md, "What is refused"), which name
# the tensor or the opset instead of a node: accepted too, counted apart.
MODEL_REFUSAL = re.compile(r"(tensor '([^']*)': element type \w+ \(\d+\) has no fixed size"
                           r"|graph input '([^']*)' has no tensor type and shape"
                           r"|no opset_import for the default ONNX domain"
                           # the reader's limit of 8 dimensions (onnx.md)
                           r"|'[^']*': \d+ dimensions, more than 8)")


def nbytes(size, dims):
    n = 1
    for d in dims:
        n *= d
    return int(-(-n * size // 1)) if size != 0.5 else (n + 1) // 2


def graph_id(name):
    """The importer's tensor id for an ONNX value name (onnx.md)."""
    s = name[:200]
    return "".join("_" if (c.isspace() or ord(c) < 32 or c == "#") else c for c in s)


def op_name(nd):
    """The op type, domain-qualified outside the default domain (the
    importer's table holds the default domain's)."""
    return nd.op_type if nd.domain in ("", "ai.onnx") else "%s.%s" % (nd.domain, nd.op_type)


def has_subgraph(model):
    return any(a.type in (onnx.AttributeProto.GRAPH, onnx.AttributeProto.GRAPHS)
               for n in model.graph.node for a in n.attribute)


def strip(model):
    """value_info and the graph outputs' shapes gone: the importer infers."""
    m = copy.deepcopy(model)
    del m.graph.value_info[:]
    for o in m.graph.output:
        if o.type.HasField("tensor_type"):
            o.type.tensor_type.ClearField("shape")
    return m


def inferred(model):
    """model with onnx.shape_inference's shapes, or None: for an opset newer
    than python3-onnx knows (its C++ inference may crash on such a model,
    1.12 on Mish of opset 20), or when inference fails."""
    if any(o.domain in ("", "ai.onnx") and o.version > onnx.defs.onnx_opset_version()
           for o in model.opset_import):
        return None
    # with an op of another domain (ONNX Runtime's contrib ops), whose
    # outputs it cannot size, 1.12's data propagation crashes the process
    # on a Shape after it (seed 7, model 3615): without it there
    prop = all(n.domain in ("", "ai.onnx") for n in model.graph.node)
    try:
        m = shape_inference.infer_shapes(model, strict_mode=False, data_prop=prop)
    except Exception:
        return None
    # python3-onnx 1.12 sizes three ops against the spec and ONNX Runtime:
    # STFT (a [1, 12, 1] signal in frames of 9 every 3 gives [1, 2, 9, 2]
    # with onesided left at its default 1 and [1, 3, 5, 2] with it given;
    # the spec and ONNX Runtime: [1, 2, 5, 2]), ConvTranspose with
    # auto_pad SAME (it pads nothing; the spec and ONNX Runtime: input x
    # stride) and the pools with auto_pad SAME (it puts SAME's pads into
    # ceil_mode's formula, one more; the spec and ONNX Runtime: input /
    # stride, rounded up). No size of their outputs, nor of what is
    # computed from them, is taken from it: a larger shape there is not
    # a safe one (a Slice with negative starts after it cuts less)
    wrong = set()
    for nd in m.graph.node:
        same = nd.op_type in ("ConvTranspose", "MaxPool", "AveragePool", "LpPool") and any(
            a.name == "auto_pad" and a.s in (b"SAME_UPPER", b"SAME_LOWER") for a in nd.attribute)
        if nd.op_type == "STFT" or same or any(i in wrong for i in nd.input):
            wrong.update(o for o in nd.output if o)
    keep = [v for v in m.graph.value_info if v.name not in wrong]
    del m.graph.value_info[:]
    m.graph.value_info.extend(keep)
    for o in m.graph.output:
        if o.name in wrong and o.type.HasField("tensor_type"):
            o.type.tensor_type.ClearField("shape")
    return m


def record(model):
    """A generated model with the static shapes onnx.shape_inference gives
    recorded in value_info, as exporters record them: the importer uses
    them for ops it cannot infer and checks them against its own."""
    inf = inferred(model)
    if inf is None:
        return model
    m = copy.deepcopy(model)
    have = {v.name for v in model.graph.value_info}
    for v in inf.graph.value_info:
        if v.name in have:
            continue  # recorded by the generator (an op outside the table)
        tt = v.type.tensor_type
        # only static shapes; python3-onnx 1.12 infers negative
        # dimensions for some Slice and Pad nodes, which no exporter writes
        if tt.HasField("shape") and all(d.HasField("dim_value") and d.dim_value >= 0
                                        for d in tt.shape.dim):
            m.graph.value_info.append(v)
    return m


def shrunk_copies(model, most=8):
    """Copies of a model with recorded shapes, each with one recorded shape
    (value_info or a graph output) one smaller in its largest dimension (a
    dimension of 1 recorded as 0): an exporter's wrong shape. The importer
    must refuse each, or plan it no smaller than the runtime writes: it
    infers the shapes of the ops of its table and checks what is recorded
    against them. Yields (value name, copy)."""
    g = model.graph
    found = 0
    for field in ("value_info", "output"):
        for k, v in enumerate(getattr(g, field)):
            tt = v.type.tensor_type
            if not v.type.HasField("tensor_type") or not tt.HasField("shape"):
                continue
            dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
            if not dims or None in dims or max(dims) < 1:
                continue
            m = copy.deepcopy(model)
            i = dims.index(max(dims))
            getattr(m.graph, field)[k].type.tensor_type.shape.dim[i].dim_value -= 1
            yield v.name, m
            found += 1
            if found == most:
                return


def expose(model):
    """Every node output a graph output (typeless: ONNX Runtime fills it)."""
    m = copy.deepcopy(model)
    have = {o.name for o in m.graph.output}
    for n in m.graph.node:
        for o in n.output:
            if o and o not in have:
                m.graph.output.append(onnx.ValueInfoProto(name=o))
                have.add(o)
    return m


def read_graph(path):
    """tensor id -> planned bytes; op k -> (inputs, outputs) of the file."""
    tensors, ops = {}, []
    with open(path) as f:
        for line in f:
            t = line.split("#", 1)[0].split()
            if not t:
                continue
            if t[0] == "tensor":
                tensors[t[1]] = int(t[2])
            elif t[0] in ("op", "inplace"):
                arrow = t.index("->")
                ops.append((t[2:arrow], t[arrow + 1:]))
    return tensors, ops


def tactl_import(tactl, model_path, graph_path, extra=()):
    r = subprocess.run([tactl, "import", model_path, "-o", graph_path, "--quiet"] + list(extra),
                       capture_output=True, text=True, timeout=60)
    if r.returncode == 0:
        return read_graph(graph_path), None
    return None, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]


def refusal_reason(model, msg):
    """'OpType: what' for a refusal naming its node, else None."""
    m = REFUSAL.search(msg)
    if not m:
        m = MODEL_REFUSAL.search(msg)
        names = value_names(model)
        if m and all(g is None or g in names for g in m.groups()[1:]):
            return "model: " + re.sub(r"'[^']*'", "'X'", m.group(1))
        return None
    k, op = int(m.group(1)), m.group(3)
    nodes = model.graph.node
    if k >= len(nodes) or nodes[k].op_type != op:
        return None
    what = re.sub(r"'[^']*'", "'X'", m.group(4))
    what = re.sub(r"\[[-0-9, ]*\]", "[..]", what)
    what = re.sub(r"-?\d+", "N", what)
    return "%s: %s" % (op, what[:90])


def value_names(model):
    g = model.graph
    return ({i.name for i in g.initializer} | {i.name for i in g.input} |
            {o.name for o in g.output} | {o for n in g.node for o in n.output})


def infer_sizes(model):
    """value name -> bytes, where onnx.shape_inference knows a static size;
    None where it gives nothing (inferred())."""
    m = inferred(model)
    if m is None:
        return None
    out = {}
    for v in list(m.graph.value_info) + list(m.graph.output):
        tt = v.type.tensor_type
        if not v.type.HasField("tensor_type") or not tt.HasField("shape"):
            continue
        if tt.elem_type not in ONNX_SIZE:
            continue
        dims = [d.dim_value if d.HasField("dim_value") else None for d in tt.shape.dim]
        # a negative dimension is onnx's own formula going below 0 (a
        # pool's window past its padded input by more than a stride, which
        # ONNX Runtime refuses): no size, and two of them multiply to one
        if any(d is None or d < 0 for d in dims):
            continue
        out[v.name] = nbytes(ONNX_SIZE[tt.elem_type], dims)
    return out


# ---- inputs ----

def graph_inputs(model):
    inits = {i.name for i in model.graph.initializer}
    return [i for i in model.graph.input if i.name not in inits]


def random_feed(vi, rng, sizes=None):
    """Random values at @vi's shape, a symbolic dimension at its size in
    @sizes (dim_param -> size) or 1."""
    tt = vi.type.tensor_type
    sizes = sizes or {}
    dims = [d.dim_value if d.HasField("dim_value") else sizes.get(d.dim_param, 1)
            for d in tt.shape.dim]
    np_type = onnx.mapping.TENSOR_TYPE_TO_NP_TYPE[tt.elem_type]
    if np_type == np.bool_:
        return rng.random(dims) < 0.5
    if np.issubdtype(np_type, np.integer):
        return rng.integers(1, 4, size=dims).astype(np_type)  # no 0: Mod, Div
    return (rng.random(dims) * 2 + 0.1).astype(np_type)


def largest_feed(arrays):
    """Inputs that make NonZero, Compress, Unique, NonMaxSuppression write
    their largest output: all true, nothing zero, all distinct; boxes
    ([B, N, 4]) apart from each other, scores high."""
    out = []
    for a in arrays:
        if a.dtype == np.bool_:
            out.append(np.ones_like(a))
        elif a.dtype.kind == "f":
            if a.ndim == 3 and a.shape[-1] == 4:
                b = np.zeros(a.shape, a.dtype)
                i = np.arange(a.shape[1], dtype=a.dtype)[None, :] * 10
                b[..., 0], b[..., 1], b[..., 2], b[..., 3] = i, i, i + 5, i + 5
                out.append(b)
            elif a.ndim == 3 and a.dtype.kind == "f" and a.size and a.min() >= 0 and a.max() <= 1:
                out.append(np.full(a.shape, 0.99, a.dtype))
            else:
                out.append((np.arange(a.size, dtype=a.dtype).reshape(a.shape) + 1))
        elif a.dtype.kind in "iu":
            out.append(np.where(a == 0, 1, a).astype(a.dtype))
        else:
            out.append(a)
    return out


def empty_feed(arrays):
    """Inputs that make NonZero and Compress write nothing: floats 0, bools
    false (ints kept: Div and Mod by 0). A reduction of the empty result
    runs ONNX Runtime's own path for tensors without elements, which the
    random and the largest inputs never reach."""
    out = []
    for a in arrays:
        out.append(np.zeros_like(a) if a.dtype == np.bool_ or a.dtype.kind == "f" else a)
    return out


def backend_feeds(model, case_dir):
    ins = graph_inputs(model)
    arrays = []
    for i, vi in enumerate(ins):
        p = os.path.join(case_dir, "test_data_set_0", "input_%d.pb" % i)
        if not os.path.exists(p):
            return None
        if not vi.type.HasField("tensor_type"):
            return None  # a sequence or an optional: not fed
        t = TensorProto()
        with open(p, "rb") as f:
            t.ParseFromString(f.read())
        try:
            arrays.append(numpy_helper.to_array(t))
        except Exception:
            return None
    return arrays


# ---- ONNX Runtime ----

class Ort:
    def __init__(self, ort_dir):
        self.ort_dir = ort_dir
        self.p = None

    def start(self):
        self.p = subprocess.Popen(["node", os.path.join(HERE, "ort-run.js"), self.ort_dir],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                  stderr=subprocess.DEVNULL, text=True)

    def run(self, model_path, names, arrays, tmp):
        feeds = []
        for k, (name, a) in enumerate(zip(names, arrays)):
            t = NP_TO_ORT.get(str(a.dtype))
            if t is None:
                return None, "input %s: %s not fed by this oracle" % (name, a.dtype)
            fn = os.path.join(tmp, "in%d.bin" % k)
            np.ascontiguousarray(a).tofile(fn)
            feeds.append({"name": name, "type": t, "dims": list(a.shape), "file": fn})
        if self.p is None or self.p.poll() is not None:
            self.start()
        try:
            self.p.stdin.write(json.dumps({"model": model_path, "feeds": feeds}) + "\n")
            self.p.stdin.flush()
            line = self.p.stdout.readline()
        except BrokenPipeError:
            line = ""
        if not line:
            self.p = None
            return None, "ONNX Runtime crashed"
        ans = json.loads(line)
        if not ans["ok"]:
            return None, ans["error"]
        sizes = {}
        for name, o in ans["outputs"].items():
            sz = ORT_SIZE.get(o["type"])
            if sz is not None:
                sizes[name] = nbytes(sz, o["dims"])
        return sizes, None


# ---- one model ----

BATCH = "ta_batch"


def batched(model, anonymous=False):
    """A copy whose graph inputs' first dimension, the same static d in
    each (a batch), is the symbolic BATCH (with @anonymous, a dimension
    with neither value nor name, which --dim sizes as INPUT[0]); (copy,
    d), or None when the inputs have no such common dimension."""
    ins = graph_inputs(model)
    firsts = set()
    for vi in ins:
        if not vi.type.HasField("tensor_type") or not vi.type.tensor_type.HasField("shape"):
            return None
        dims = vi.type.tensor_type.shape.dim
        if not dims or not dims[0].HasField("dim_value") or any(
                d.dim_param == BATCH for d in dims):
            return None
        # fed by position: no other dimension left open
        if anonymous and not all(d.HasField("dim_value") for d in dims):
            return None
        firsts.add(dims[0].dim_value)
    if len(firsts) != 1:
        return None
    m = copy.deepcopy(model)
    names = {vi.name for vi in ins}
    for vi in m.graph.input:
        if vi.name in names:
            if anonymous:
                vi.type.tensor_type.shape.dim[0].Clear()
            else:
                vi.type.tensor_type.shape.dim[0].dim_param = BATCH
    return m, firsts.pop()


def check_batched(model, ctx, tmp, res):
    """The stripped @model at another batch (module docstring): counts
    and failures into @res."""
    # one model in three: the batch without a name, sized by position
    anonymous = zlib.crc32(res["label"].encode()) % 3 == 0
    b = batched(model, anonymous)
    if b is None:
        return
    m, d = b
    size = d + 2
    st = res["batch"]
    st["made"] += 1
    path = os.path.join(tmp, "batched.onnx")
    onnx.save(m, path)
    ort_path = os.path.join(tmp, "batched-ort.onnx")
    onnx.save(expose(m), ort_path)
    rng = np.random.default_rng(zlib.crc32(res["label"].encode()))
    names = [vi.name for vi in graph_inputs(m)]
    written = {}
    for arrays in feeds_for(m, None, rng, {"" if anonymous else BATCH: size}):
        sizes, err = ctx["ort"].run(ort_path, names, arrays, tmp)
        if err:
            continue
        for k, v in sizes.items():
            written[k] = max(written.get(k, 0), v)
    if not written:
        return  # ONNX Runtime does not run it at that batch
    st["ort"] += 1
    kind = "batch %s=%d" % (BATCH, size)
    dims = ["--dim", "%s=%d" % (BATCH, size)]
    first = BATCH
    if anonymous:
        kind = "batch by position, %d" % size
        dims = [a for n in names for a in ("--dim", "%s[0]=%d" % (n, size))]
        first = "%s[0]" % names[0]
    graph, err = tactl_import(ctx["tactl"], path, os.path.join(tmp, "batched.graph"), dims)
    if err is not None:
        if refusal_reason(m, err) is None:
            res["problems"].append("%s: refused without naming its node and op: %s" % (kind, err))
        st["refused"] += 1
        return
    st["checked"] += 1
    for _, line in undersized(m, graph[0], written, {}, kind):
        res["under"].append(line)
    # without --dim: taken as 1, and the summary says so
    r = subprocess.run([ctx["tactl"], "import", path, "-o", os.path.join(tmp, "one.graph")],
                       capture_output=True, text=True, timeout=60)
    if r.returncode == 0 and "taken as 1 ('%s'" % first not in r.stderr:
        res["problems"].append("%s: imported without --dim, the summary does not name %s: %s" % (
            kind, first, r.stderr.strip()))
    if anonymous:
        st["anonymous"] += 1

def check(model, label, feed_sets, ctx):
    """A result: {label, ok, kind, detail, refused: [reasons], under: [...]}."""
    tactl, ort = ctx["tactl"], ctx["ort"]
    res = {"label": label, "under": [], "refused": [], "problems": [], "ort": None,
           "shrunk": {"run": 0, "refused": 0, "trusted": []},
           "batch": {"made": 0, "ort": 0, "checked": 0, "refused": 0, "anonymous": 0}}
    with tempfile.TemporaryDirectory(dir=ctx["tmp"]) as tmp:
        stripped = strip(model)
        recorded = model
        if label.startswith("random") or label.startswith("corpus random"):
            recorded = record(model)
        paths = {}
        for kind, m in (("recorded", recorded), ("stripped", stripped)):
            paths[kind] = os.path.join(tmp, kind + ".onnx")
            onnx.save(m, paths[kind])
        ort_path = os.path.join(tmp, "ort.onnx")
        onnx.save(expose(stripped), ort_path)
        # ONNX Runtime, every input set: the largest size of each tensor
        written, errors = {}, []
        names = [vi.name for vi in graph_inputs(model)]
        for arrays in feed_sets:
            sizes, err = ort.run(ort_path, names, arrays, tmp)
            if err:
                errors.append(err)
                continue
            for k, v in sizes.items():
                written[k] = max(written.get(k, 0), v)
        res["ort"] = "ran" if written else "failed: " + (errors[0] if errors else "no input")
        inferred = infer_sizes(stripped) or {}
        res["infer"] = bool(inferred)
        for kind in ("recorded", "stripped"):
            graph, err = tactl_import(tactl, paths[kind], os.path.join(tmp, kind + ".graph"))
            if err is not None:
                why = refusal_reason(model, err)
                if why is None:
                    res["problems"].append("%s: refused without naming its node and op: %s" % (kind, err))
                else:
                    res["refused"].append((kind, why))
                continue
            tensors, ops = graph
            if has_subgraph(model):
                res["problems"].append("%s: accepted with a sub-graph (If, Loop, Scan) not planned" % kind)
            for _, line in undersized(model, tensors, written, inferred, kind):
                res["under"].append(line)
            if kind == "stripped":
                over = oversized(model, tensors, written)
                res["over"] = sorted({op for op, _ in over})
                res["problems"] += [line for _, line in over]
            # every node the graph runs has its outputs planned
            for k, nd in enumerate(model.graph.node):
                if k >= len(ops):
                    res["problems"].append("%s: node %d (%s) has no op" % (kind, k, nd.op_type))
                    break
                ins, outs = ops[k]
                if not ins and not outs:
                    continue  # folded
                for o in nd.output:
                    if o and graph_id(o) not in tensors:
                        res["problems"].append("%s: node %d (%s) runs, its output %s is not planned" % (
                            kind, k, nd.op_type, o))
        # the recorded copy with one shape recorded smaller, each in turn
        table = set(ctx.get("table") or ())
        for j, (name, m) in enumerate(shrunk_copies(recorded)):
            kind = "shrunk %s" % name
            path = os.path.join(tmp, "shrunk%d.onnx" % j)
            onnx.save(m, path)
            res["shrunk"]["run"] += 1
            graph, err = tactl_import(tactl, path, os.path.join(tmp, "shrunk.graph"))
            if err is not None:
                if refusal_reason(model, err) is None:
                    res["problems"].append("%s: refused without naming its node and op: %s" % (kind, err))
                res["shrunk"]["refused"] += 1
                continue
            made = [op_name(nd) for nd in model.graph.node if name in nd.output]
            for _, line in undersized(model, graph[0], written, inferred, kind):
                # the shape of an op outside the table is trusted as
                # recorded (onnx.md): counted, not failed
                if made and made[0] not in table:
                    res["shrunk"]["trusted"].append("%s (by %s)" % (line, made[0]))
                else:
                    res["under"].append(line)
        check_batched(stripped, ctx, tmp, res)
    res["ops"] = sorted({op_name(n) for n in model.graph.node})
    res["ok"] = not res["under"] and not res["problems"]
    if not res["ok"] and ctx.get("save") and label.startswith("random"):
        os.makedirs(ctx["save"], exist_ok=True)
        onnx.save(model, os.path.join(ctx["save"], re.sub(r"[^A-Za-z0-9_.-]", "_", label) + ".onnx"))
    return res


def undersized(model, tensors, written, inferred, kind):
    """(producing op type or None, message) for each tensor planned smaller
    than ONNX Runtime wrote it or infer_shapes sizes it."""
    ids = {graph_id(n): n for n in
           [i.name for i in model.graph.initializer] +
           [i.name for i in model.graph.input] +
           [o for nd in model.graph.node for o in nd.output]}
    producer = {o: (k, nd.op_type) for k, nd in enumerate(model.graph.node) for o in nd.output}
    out = []
    for tid, planned in tensors.items():
        name = ids.get(tid, tid)
        w, i = written.get(name), inferred.get(name)
        need = max(x for x in (w, i, 0) if x is not None)
        if planned < need:
            made = "node %d %s" % producer[name] if name in producer else "input"
            out.append((producer[name][1] if name in producer else None,
                        "%s: %s (%s) planned %d bytes, ONNX Runtime wrote %s, infer_shapes %s" % (
                            kind, name, made, planned, w, i)))
    return out


def oversized(model, tensors, written):
    """(op type, message) for each tensor planned larger than ONNX Runtime
    wrote it, in a model without data-dependent ops (whose outputs are
    planned at their bound). A failure since stop 62: a larger shape than
    the runtime's is not a safe one (a Slice with negative starts after it
    keeps less), and every op of the table plans the runtime's own."""
    if any(n.op_type in DATA_DEPENDENT for n in model.graph.node):
        return []
    producer = {graph_id(o): (k, nd.op_type) for k, nd in enumerate(model.graph.node)
                for o in nd.output}
    by_id = {graph_id(k): v for k, v in written.items()}
    return [(producer[t][1], "stripped: %s (node %d %s) planned %d bytes, ONNX Runtime wrote %d: "
             "larger than the runtime's" % (t, producer[t][0], producer[t][1], planned, by_id[t]))
            for t, planned in sorted(tensors.items())
            if t in producer and t in by_id and planned > by_id[t]]


def feeds_for(model, given, rng, sizes=None):
    sets = []
    if given is None:
        try:
            given = [random_feed(vi, rng, sizes) for vi in graph_inputs(model)]
        except Exception:
            return []  # an input this oracle cannot make (a sequence, a string)
    sets.append(given)
    if any(n.op_type in DATA_DEPENDENT for n in model.graph.node):
        sets.append(largest_feed(given))
        sets.append(empty_feed(given))
    return sets


# ---- workers ----
# Each worker is this script with --worker: jobs in, results out, a JSON
# line each. A worker that dies (python3-onnx's C++ shape inference on an
# odd model) or takes over JOB_TIMEOUT seconds costs that job, not the run.

CTX = {}
JOB_TIMEOUT = 120


def run_job(job):
    kind, arg = job
    rng = np.random.default_rng(zlib.crc32(str(arg).encode()))
    try:
        if kind == "backend":
            case = os.path.dirname(arg)
            model = onnx.load(arg)
            label = "backend %s" % os.path.relpath(case, CTX["backend"])
            return check(model, label, feeds_for(model, backend_feeds(model, case), rng), CTX)
        if kind == "corpus":
            model = onnx.load(arg)
            return check(model, "corpus %s" % os.path.basename(arg), feeds_for(model, None, rng), CTX)
        seed, i = arg
        model = gen.model(random.Random("%d:%d" % (seed, i)))
        label = "random seed %d model %d" % (seed, i)
        return check(model, label, feeds_for(model, None, rng), CTX)
    except Exception as e:  # a bug of this oracle or a model it cannot load
        return failed(job, "oracle error: %r" % e)


def failed(job, why):
    kind, arg = job
    if kind == "backend":
        label = "backend " + os.path.relpath(os.path.dirname(arg), CTX["backend"])
    elif kind == "corpus":
        label = "corpus " + os.path.basename(arg)
    else:
        label = "random seed %d model %d" % tuple(arg)
    return {"label": label, "ok": False, "under": [], "refused": [],
            "problems": [why], "ort": None, "infer": False}


def worker_main(ctx):
    CTX.update(ctx)
    CTX["ort"] = Ort(ctx["ort_dir"])
    for line in sys.stdin:
        r = run_job(json.loads(line))
        sys.stdout.write(json.dumps(r) + "\n")
        sys.stdout.flush()


class Worker:
    def __init__(self, ctx):
        self.p = subprocess.Popen([sys.executable, os.path.abspath(__file__), "--worker", json.dumps(ctx)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.job = None

    def give(self, i, job):
        self.job, self.start = (i, job), time.monotonic()
        self.p.stdin.write(json.dumps(job) + "\n")
        self.p.stdin.flush()

    def kill(self):
        self.p.kill()
        self.p.wait()


def run_all(jobs, ctx, n_workers):
    """Yield the results of jobs in order."""
    CTX.update(ctx)
    workers = [Worker(ctx) for _ in range(max(1, min(n_workers, len(jobs))))]
    done, nxt, emit = {}, 0, 0
    for w in workers:
        if nxt < len(jobs):
            w.give(nxt, jobs[nxt])
            nxt += 1
    while emit < len(jobs):
        busy = {w.p.stdout: w for w in workers if w.job}
        ready, _, _ = select.select(list(busy), [], [], 1.0)
        for f in ready:
            w = busy[f]
            line = f.readline()
            i, job = w.job
            if line:
                done[i] = json.loads(line)
            else:
                done[i] = failed(job, "oracle worker died (exit %s)" % w.p.wait())
            w.job = None
        for k, w in enumerate(workers):
            if w.job and time.monotonic() - w.start > JOB_TIMEOUT:
                i, job = w.job
                w.kill()
                done[i] = failed(job, "timed out after %d s" % JOB_TIMEOUT)
                w.job = None
            if w.p.poll() is not None and not w.job:
                workers[k] = w = Worker(ctx)
            if not w.job and nxt < len(jobs):
                w.give(nxt, jobs[nxt])
                nxt += 1
        while emit in done:
            yield done.pop(emit)
            emit += 1
    for w in workers:
        w.p.stdin.close()
        w.p.wait()


def main():
    if len(sys.argv) == 3 and sys.argv[1] == "--worker":
        return worker_main(json.loads(sys.argv[2]))
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--tactl", required=True)
    ap.add_argument("--ort", required=True, help="onnxruntime-node's npm prefix")
    ap.add_argument("--backend", help="libonnx-testdata's data directory")
    ap.add_argument("--corpus", help="a directory of .onnx models, always run")
    ap.add_argument("--random", type=int, default=0, help="random models")
    ap.add_argument("--seed", type=int, default=None)
    ap.add_argument("--save", help="where failing random models are saved")
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 1)
    ap.add_argument("--min-backend", type=int, default=0)
    ap.add_argument("--min-random", type=int, default=0)
    ap.add_argument("--min-batched", type=int, default=0,
                    help="models checked at another batch with --dim")
    ap.add_argument("--table", help="ta_onnx.c: the random models must use every op of ta_ox_ops[]")
    a = ap.parse_args()
    seed = a.seed if a.seed is not None else random.SystemRandom().randrange(2 ** 31)
    print("# onnx-oracle: ONNX Runtime %s, onnx %s; random seed %d (ONNX_ORACLE_SEED=%d "
          "oracle.sh reruns it; show.py %d N prints model N)" % (
              os.path.basename(a.ort.rstrip("/")), onnx.__version__, seed, seed, seed))
    jobs = []
    if a.backend:
        jobs += [("backend", p) for p in sorted(glob.glob(os.path.join(a.backend, "*", "*", "model.onnx")))]
    if a.corpus:
        jobs += [("corpus", p) for p in sorted(glob.glob(os.path.join(a.corpus, "*.onnx")))]
    jobs += [("random", (seed, i)) for i in range(a.random)]
    tmp = tempfile.mkdtemp(prefix="onnx-oracle.")
    table = known = None
    if a.table:
        with open(a.table) as f:
            known = dict(re.findall(r'\{ "(\w+)", (ta_ox_\w+),', f.read()))
        # the ops refused whatever their inputs are not generated
        if a.random:
            table = {op for op, fn in known.items()
                     if fn not in ("ta_ox_control_flow", "ta_ox_sequence")}
    ctx = {"tactl": a.tactl, "ort_dir": a.ort, "backend": a.backend, "tmp": tmp, "save": a.save,
           "table": sorted(known or ())}
    print("1..%d" % (len(jobs) + 3 + (table is not None)))
    used = set()
    stats = {}
    n = 0
    for r in run_all(jobs, ctx, a.jobs):
        n += 1
        src = r["label"].split()[0]
        if src == "random":
            used.update(r.get("ops", []))
        s = stats.setdefault(src, {"run": 0, "accepted": 0, "refused": 0, "under": 0,
                                   "problems": 0, "ort_failed": 0, "reasons": {},
                                   "shrunk": 0, "shrunk_refused": 0, "trusted": {},
                                   "batch": {"made": 0, "ort": 0, "checked": 0, "refused": 0,
                                             "anonymous": 0},
                                   "over": {}})
        s["run"] += 1
        for op in r.get("over", []):
            s["over"][op] = s["over"].get(op, 0) + 1
        for k, v in r.get("batch", {}).items():
            s["batch"][k] += v
        sh = r.get("shrunk", {})
        s["shrunk"] += sh.get("run", 0)
        s["shrunk_refused"] += sh.get("refused", 0)
        for line in sh.get("trusted", []):
            op = re.search(r"\(by ([\w.]+)\)$", line)
            op = op.group(1) if op else "?"
            s["trusted"][op] = s["trusted"].get(op, 0) + 1
        if r["under"]:
            s["under"] += 1
        if r["problems"]:
            s["problems"] += 1
        if r["ort"] and r["ort"] != "ran":
            s["ort_failed"] += 1
        for kind, why in r["refused"]:
            if kind == "stripped":
                s["reasons"][why] = s["reasons"].get(why, 0) + 1
        if any(k == "stripped" for k, _ in r["refused"]):
            s["refused"] += 1
        else:
            s["accepted"] += 1
        verdict = "ok" if r["ok"] else "not ok"
        note = "refused (%s)" % r["refused"][-1][1] if any(k == "stripped" for k, _ in r["refused"]) else "accepted"
        if r["under"]:
            note = "under-sized: " + r["under"][0]
        elif r["problems"]:
            note = r["problems"][0]
        print("%s %d - %s: %s; ONNX Runtime %s" % (verdict, n, r["label"], note, r["ort"]))
        for line in r["under"] + r["problems"]:
            print("#   " + line)
        sys.stdout.flush()
    for src, s in stats.items():
        print("# %s: %d run, %d accepted (stripped), %d refused, %d with an under-sized tensor, "
              "%d other failures, %d ONNX Runtime could not run" % (
                  src, s["run"], s["accepted"], s["refused"], s["under"], s["problems"], s["ort_failed"]))
        for why, c in sorted(s["reasons"].items(), key=lambda x: -x[1]):
            print("#   refused %4d  %s" % (c, why))
        print("# %s, one recorded shape one smaller: %d copies, %d refused, %d planned under "
              "what ONNX Runtime writes by an op outside the table (its recorded shape "
              "trusted)%s" % (src, s["shrunk"], s["shrunk_refused"], sum(s["trusted"].values()),
                              ": " + ", ".join("%s %d" % kv for kv in sorted(s["trusted"].items()))
                              if s["trusted"] else ""))
        print("# %s, models with a tensor planned larger than ONNX Runtime wrote it (no "
              "data-dependent op; each a failure), by the op that made it: %s" % (
                  src, ", ".join("%s %d" % kv for kv in sorted(s["over"].items())) or "none"))
        bt = s["batch"]
        print("# %s, the inputs' batch made symbolic and run 2 larger: %d copies, %d ONNX "
              "Runtime ran, %d imported with --dim and checked (%d of them without a name, "
              "sized as INPUT[0]), %d refused" % (
                  src, bt["made"], bt["ort"], bt["checked"], bt["anonymous"], bt["refused"]))
    nb = stats.get("backend", {}).get("run", 0)
    checked = sum(s["batch"]["checked"] for s in stats.values())
    nr = stats.get("random", {}).get("run", 0)
    print("%s %d - backend models run: %d (at least %d)" % (
        "ok" if nb >= a.min_backend else "not ok", n + 1, nb, a.min_backend))
    print("%s %d - random models run: %d (at least %d), seed %d" % (
        "ok" if nr >= a.min_random else "not ok", n + 2, nr, a.min_random, seed))
    print("%s %d - models checked at another batch with --dim: %d (at least %d)" % (
        "ok" if checked >= a.min_batched else "not ok", n + 3, checked, a.min_batched))
    if table is not None:
        missing = sorted(table - used)
        print("%s %d - random models used %d of the %d op types of ta_ox_ops[]%s" % (
            "not ok" if missing else "ok", n + 4, len(table & used), len(table),
            ": not " + " ".join(missing) if missing else ""))
    subprocess.run(["rm", "-rf", tmp])


if __name__ == "__main__":
    main()
