#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""The TFLite reader against TFLite's own runtime: no planned tensor smaller
than what the runtime writes (Documentation/tflite.md, "Against TFLite's
runtime").

The reader plans each tensor at the shape the model records. TFLite's
kernels compute their outputs' shapes themselves (each op's Prepare()), so
a model whose recorded shape is smaller than what its op computes is
planned too small. The runtime is LiteRT (the npm package @litertjs/core:
TFLite built to WebAssembly), run by litert-run.mjs.

For each model given (every *.tflite of the folders named, and the one-op
models of SYNTHETIC below):
- as it is: a copy with every tensor an operator of the main subgraph
  writes made a graph output (no signatures, no shape_signature: the
  runtime then allocates the recorded shapes) runs in LiteRT on zeros;
  each tensor must be planned by `tactl import` at least as large as the
  runtime wrote it, and written at its recorded shape (else the reader's
  rules judge shapes the runtime does not have); a model `tactl import`
  refuses must be one LiteRT runs at other shapes than recorded;
- mutated: for each such tensor (up to --mutations-per-model of them,
  MUTATIONS_PER_MODEL by default: past that, the first each builtin
  writes and others spread evenly, see to_mutate()), a copy whose
  recorded shape is one smaller in its last dimension above 1.
  `tactl import` must refuse it, naming the op (`op N (NAME): ...`), or
  plan every tensor at least as large as LiteRT writes it; accepting one that LiteRT finds too small
  ("Custom allocation is too small") or traps on fails. What LiteRT says
  of each mutation is counted.
A model LiteRT does not load (variable tensors: the SVDF and LSTM models)
runs, with its mutations, in TFLite's own interpreter built to
WebAssembly (--web: tfjs-tflite, tflite-web-run.cjs), whose kernels size
every tensor they write whatever the model records: each must be planned
at least as large; a model it refuses for a quantized_dimension past a
tensor's rank (person_detect's biases) runs there with that repaired
(repaired()). A model neither runs (Vela's custom op) is reported and not
compared;
--min-models and --min-mutations fail a run that compared fewer.

TAP on stdout, one result a model and one a mutation, counts as comments.
"""
import argparse
import glob
import importlib.util
import json
import os
import re
import shutil
import struct
import subprocess
import sys
import tempfile

# TFLite's TensorType: bytes an element (INT4 counted apart)
TYPE_SIZE = {0: 4, 1: 2, 2: 4, 3: 1, 4: 8, 6: 1, 7: 2, 8: 8, 9: 1, 10: 8,
             11: 16, 12: 8, 15: 4, 16: 2, 18: 2}
REFUSAL = re.compile(r"op (\d+) \(([A-Z0-9_]+)\)")
# The second runtime: TFLite's interpreter built to WebAssembly
# (tfjs-tflite), for the models LiteRT does not load.
WEB_SCRIPT, WEB_NAME = "tflite-web-run.cjs", "TFLite web"


class Flat:
    """Just enough of a .tflite FlatBuffer to read and rewrite it."""

    def __init__(self, data):
        self.b = bytearray(data)

    def u32(self, o):
        return struct.unpack_from("<I", self.b, o)[0]

    def i32(self, o):
        return struct.unpack_from("<i", self.b, o)[0]

    def slot(self, t, k):
        """(where field k's vtable entry is, where the field is or None)"""
        vt = t - self.i32(t)
        vlen = struct.unpack_from("<H", self.b, vt)[0]
        if 4 + 2 * k >= vlen:
            return None, None
        off = struct.unpack_from("<H", self.b, vt + 4 + 2 * k)[0]
        return vt + 4 + 2 * k, (t + off if off else None)

    def field(self, t, k):
        return self.slot(t, k)[1]

    def deref(self, p):
        return p + self.u32(p)

    def vector(self, p):
        """(first element, length) of the vector field at p, or (0, 0)"""
        if p is None:
            return 0, 0
        v = self.deref(p)
        return v + 4, self.u32(v)

    def tables(self, p):
        first, n = self.vector(p)
        return [self.deref(first + 4 * k) for k in range(n)]

    def ints(self, p):
        first, n = self.vector(p)
        return [self.i32(first + 4 * k) for k in range(n)]

    def root(self):
        return self.u32(0)

    def subgraphs(self):
        return self.tables(self.field(self.root(), 2))

    def tensors(self, sg):
        return self.tables(self.field(sg, 0))

    def append_ints(self, vals):
        """a new int32 vector at the end; returns its position"""
        while len(self.b) % 4:
            self.b.append(0)
        pos = len(self.b)
        self.b += struct.pack("<I", len(vals)) + b"".join(struct.pack("<i", v) for v in vals)
        return pos

    def point(self, p, target):
        """the offset field at p names target (forward only, as uoffset)"""
        struct.pack_into("<I", self.b, p, target - p)

    def drop(self, t, k):
        """field k of table t absent (in its vtable, shared or not)"""
        s, f = self.slot(t, k)
        if f is not None:
            struct.pack_into("<H", self.b, s, 0)


def model_facts(fl):
    """the main subgraph: tensors written by its ops (in order, each with
    the BuiltinOperator writing it), shapes, types"""
    sg = fl.subgraphs()[0]
    codes = []
    for c in fl.tables(fl.field(fl.root(), 1)):
        f, d = fl.field(c, 3), fl.field(c, 0)
        # builtin_code, or deprecated_builtin_code in older files
        codes.append(max(fl.i32(f) if f is not None else 0,
                         fl.b[d] if d is not None else 0))
    written = {}
    for op in fl.tables(fl.field(sg, 3)):
        f = fl.field(op, 0)
        for t in fl.ints(fl.field(op, 2)):
            if t >= 0 and t not in written:
                written[t] = codes[fl.u32(f) if f is not None else 0]
    shapes, types = [], []
    for t in fl.tensors(sg):
        shapes.append(fl.ints(fl.field(t, 0)))
        f = fl.field(t, 1)
        types.append(fl.b[f] if f is not None else 0)
    return sg, written, shapes, types


def to_mutate(written, shapes, cap):
    """the tensors whose mutations are tried (those with a dimension above
    1, of written: tensor -> builtin): all up to cap; past it the first
    each builtin writes, then others spread evenly to cap (LiteRT runs
    each: a model of 150 ops would take minutes)"""
    written = {t: c for t, c in written.items() if any(d > 1 for d in shapes[t])}
    if len(written) <= cap:
        return list(written)
    pick, seen = [], set()
    for t, code in written.items():
        if code not in seen:
            seen.add(code)
            pick.append(t)
    rest = [t for t in written if t not in pick]
    room = max(cap - len(pick), 0)
    pick += [rest[k * len(rest) // room] for k in range(room)] if room else []
    return [t for t in written if t in pick]


def nbytes(ttype, dims):
    n = 1
    for d in dims:
        n *= d
    if ttype == 17:
        return (n + 1) // 2
    return n * TYPE_SIZE.get(ttype, 0)


def exposed(data):
    """every tensor the main subgraph's ops write a graph output, no
    signature_defs, no shape_signature; returns (bytes, output tensors)"""
    fl = Flat(data)
    sg, written, _, _ = model_facts(fl)
    outs = fl.ints(fl.field(sg, 2))
    new = outs + [t for t in written if t not in outs]
    for g in fl.subgraphs():
        for t in fl.tensors(g):
            fl.drop(t, 7)
    fl.drop(fl.root(), 7)
    fl.point(fl.field(sg, 2), fl.append_ints(new))
    return bytes(fl.b), new


def repaired(data):
    """a copy whose tensors with a quantized_dimension past their rank
    have it 0: TFLite's interpreters refuse the model otherwise
    (person_detect_mobilenetv1_i8's 1-D biases name the filters' dimension
    3), which says nothing of shapes; None when there is none to repair"""
    fl = Flat(data)
    fixed = 0
    for g in fl.subgraphs():
        for t in fl.tensors(g):
            q = fl.field(t, 4)
            if q is None:
                continue
            q = fl.deref(q)
            qd = fl.field(q, 6)
            if qd is not None and fl.i32(qd) >= len(fl.ints(fl.field(t, 0))):
                struct.pack_into("<i", fl.b, qd, 0)
                fixed += 1
    return bytes(fl.b) if fixed else None


def shrunk(data, ti):
    """tensor ti of the main subgraph recorded one smaller in its last
    dimension above 1 (a vector of its own); None when none is"""
    fl = Flat(data)
    sg = fl.subgraphs()[0]
    t = fl.tensors(sg)[ti]
    dims = fl.ints(fl.field(t, 0))
    for k in reversed(range(len(dims))):
        if dims[k] > 1:
            dims[k] -= 1
            fl.point(fl.field(t, 0), fl.append_ints(dims))
            return bytes(fl.b), dims
    return None, None


class LiteRt:
    """litert-run.mjs (or another runner of its protocol: script), started
    again after each model it did not run: a failed allocation can leave
    its WebAssembly memory unusable"""

    def __init__(self, prefix, script="litert-run.mjs", name="LiteRT"):
        self.prefix, self.p, self.script, self.name = prefix, None, script, name

    def run(self, path, feeds=None):
        if self.p is None:
            self.p = subprocess.Popen(["node", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                                            self.script), self.prefix],
                                      stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                      stderr=subprocess.DEVNULL, text=True)
        self.p.stdin.write(json.dumps({"model": path, "feeds": feeds}) + "\n")
        self.p.stdin.flush()
        line = self.p.stdout.readline()
        ans = json.loads(line) if line else {"ok": False, "error": "%s ended" % self.name,
                                             "too_small": []}
        if not ans["ok"]:
            self.p.stdin.close()
            self.p.wait()
            self.p = None
        return ans


def planned(tactl, path, tmp):
    """tensor index -> planned bytes (the main subgraph's), or the refusal"""
    g = os.path.join(tmp, "m.graph")
    r = subprocess.run([tactl, "import", path, "-o", g, "--quiet"],
                       capture_output=True, text=True, timeout=60)
    if r.returncode:
        return None, (r.stderr.strip().splitlines() or ["exit %d" % r.returncode])[-1]
    sizes = {}
    with open(g) as f:
        for line in f:
            t = line.split("#", 1)[0].split()
            if len(t) >= 3 and t[0] == "tensor" and ":" not in t[1]:
                sizes[int(t[1])] = int(t[2])
    return sizes, None


def builder():
    """tests/data's model Builder (python3-flatbuffers): options are int32
    slots in order (a byte or bool field reads the low byte of its slot)"""
    spec = importlib.util.spec_from_file_location(
        "make_tflite_models", os.path.join(os.path.dirname(os.path.abspath(__file__)),
                                           "..", "data", "make-tflite-models.py"))
    mk = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(mk)
    return mk, mk.ModelWriter


def tiny_model():
    """ADD of two [2, 3] inputs, then RELU"""
    mk, writer = builder()
    ts = [mk.tensor("a", [2, 3]), mk.tensor("b", [2, 3]), mk.tensor("sum", [2, 3]),
          mk.tensor("out", [2, 3])]
    main = mk.subgraph("main", ts, [0, 1], [3], [mk.op(mk.ADD, [0, 1], [2]),
                                                 mk.op(mk.RELU, [2], [3])])
    return writer().model([main])


# One op each, the shapes of the kernels written out here from TFLite's
# formulas (kernels/padding.h; SAME: ceil(in / stride), VALID:
# ceil((in - (k - 1) x dilation) / stride); the others as each kernel's
# Prepare() has them): what the shared models do not have (dilation,
# strides that do not divide, VALID, depth multipliers, keep_num_dims,
# broadcasting to a new rank, negative axes, several outputs), the ops
# whose shape comes from a constant input, and those of the index rules
# (ta_tflite_shape_index.c: STRIDED_SLICE's masks, ellipsis and new axes,
# SPLIT_V, TOPK_V2, the batch and space moves, BROADCAST_TO, FILL...). Each
# is run in LiteRT and mutated like the shared models. (name, op, options
# member, option slots (int32, or one-byte bools), inputs, outputs): an
# input is (shape, None) fed as a float input, (shape, True) a float
# constant, (shape, [ints]) an INT32 constant, (shape,
# "bool") a BOOL constant, (shape, Fed("int32" or "float32", [values])) an
# input the runtime is fed those values for; an output is a shape
# (FLOAT32) or (shape, "int32", "int64" or "int16").
CONV_2D, DEPTHWISE, AVG_POOL, MAX_POOL, FC, CONCAT = 3, 4, 1, 17, 9, 2
ADD, MUL, RESHAPE, SOFTMAX, MAXIMUM = 0, 18, 22, 25, 55
PAD, MEAN, SUM, REDUCE_MAX, TRANSPOSE = 34, 40, 74, 82, 39
RESIZE_BILINEAR, RESIZE_NEAREST, ARG_MAX, TILE, SLICE = 23, 97, 56, 69, 65
SPLIT, PACK, UNPACK, GATHER, SPACE_TO_DEPTH, DEPTH_TO_SPACE = 49, 83, 88, 36, 26, 5
GATHER_ND, BATCH_MATMUL, SELECT_V2, TRANSPOSE_CONV = 107, 126, 123, 67
SQUEEZE, EXPAND_DIMS = 43, 70
STRIDED_SLICE, SPLIT_V, TOPK_V2, EMBEDDING_LOOKUP = 45, 102, 48, 7
SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, BROADCAST_TO, FILL = 38, 37, 130, 94
SHAPE, RANK, SELECT, ADD_N, REVERSE_V2, CUMSUM = 77, 110, 64, 106, 105, 128
CAST = 53
F = None
MIRROR_PAD, RANGE, ONE_HOT, UNIQUE, WHERE, CONV_3D = 100, 96, 85, 103, 109, 132


class Fed:
    """an input of the model whose values the runtime is fed: the shapes
    its op computes from them are known only when it runs"""

    def __init__(self, dtype, values):
        self.dtype, self.values = dtype, values


# mutations tried on one model at most (to_mutate())
MUTATIONS_PER_MODEL = 40
SYNTHETIC = [
    ("conv_valid_dilated", CONV_2D, 1, [1, 1, 2, 0, 2, 1],
     [([1, 9, 8, 2], F), ([3, 3, 2, 2], True), ([3], True)], [[1, 4, 6, 3]]),
    ("conv_same_stride3", CONV_2D, 1, [0, 3, 3, 0, 1, 1],
     [([2, 7, 5, 1], F), ([4, 2, 2, 1], True), ([4], True)], [[2, 3, 2, 4]]),
    ("depthwise_same_multiplier2", DEPTHWISE, 2, [0, 2, 2, 2],
     [([1, 7, 5, 3], F), ([1, 3, 3, 6], True)], [[1, 4, 3, 6]]),
    ("depthwise_valid_dilated", DEPTHWISE, 2, [1, 1, 1, 1, 0, 2, 2],
     [([1, 8, 9, 2], F), ([1, 2, 3, 2], True)], [[1, 6, 5, 2]]),
    ("max_pool_same", MAX_POOL, 5, [0, 3, 2, 2, 3],
     [([1, 5, 7, 2], F)], [[1, 3, 3, 2]]),
    ("avg_pool_valid", AVG_POOL, 5, [1, 2, 2, 3, 3],
     [([1, 6, 7, 4], F)], [[1, 2, 3, 4]]),
    ("fc_keep_num_dims", FC, 8, [0, 0, 1],
     [([2, 3, 4], F), ([5, 4], True)], [[2, 3, 5]]),
    ("fc_flattened", FC, 8, [],
     [([2, 3, 4], F), ([5, 6], True)], [[4, 5]]),
    ("concat_last_axis", CONCAT, 10, [-1],
     [([2, 3, 1], F), ([2, 3, 4], F), ([2, 3, 2], F)], [[2, 3, 7]]),
    ("add_broadcast_new_rank", ADD, 0, [],
     [([2, 1, 3], F), ([4, 1], F)], [[2, 4, 3]]),
    ("mul_broadcast_first_lower", MUL, 0, [],
     [([3], F), ([2, 2, 1], F)], [[2, 2, 3]]),
    ("maximum_broadcast", MAXIMUM, 0, [],
     [([5, 1], F), ([1, 4], F)], [[5, 4]]),
    ("softmax", SOFTMAX, 0, [], [([3, 5], F)], [[3, 5]]),
    ("pad", PAD, 0, [],
     [([1, 3, 4, 2], F), ([4, 2], [0, 0, 1, 2, 0, 3, 1, 0])], [[1, 6, 7, 3]]),
    ("mean_keep_dims", MEAN, 27, [True],
     [([2, 3, 4], F), ([2], [1, -1])], [[2, 1, 1]]),
    ("sum_first_axis", SUM, 27, [],
     [([2, 3, 4], F), ([1], [0])], [[3, 4]]),
    ("reduce_max_to_scalar", REDUCE_MAX, 27, [],
     [([2, 3], F), ([2], [0, 1])], [[]]),
    ("transpose", TRANSPOSE, 0, [],
     [([2, 3, 4], F), ([3], [2, 0, 1])], [[4, 2, 3]]),
    ("resize_bilinear", RESIZE_BILINEAR, 15, [0, 0],
     [([1, 3, 4, 2], F), ([2], [5, 7])], [[1, 5, 7, 2]]),
    ("resize_nearest_neighbor", RESIZE_NEAREST, 74, [0],
     [([1, 2, 3, 1], F), ([2], [4, 5])], [[1, 4, 5, 1]]),
    ("arg_max_middle_axis", ARG_MAX, 40, [2],
     [([2, 5, 3], F), ([1], [1])], [([2, 3], "int32")]),
    ("tile", TILE, 0, [],
     [([2, 3], F), ([2], [3, 1])], [[6, 3]]),
    ("slice_to_the_end", SLICE, 0, [],
     [([4, 5, 3], F), ([3], [1, 0, 1]), ([3], [2, -1, 2])], [[2, 5, 2]]),
    ("split_three", SPLIT, 35, [3],
     [([], [1]), ([2, 6, 3], F)], [[2, 2, 3], [2, 2, 3], [2, 2, 3]]),
    ("pack_middle_axis", PACK, 59, [3, 1],
     [([2, 3], F), ([2, 3], F), ([2, 3], F)], [[2, 3, 3]]),
    ("unpack_middle_axis", UNPACK, 64, [2, 1],
     [([3, 2, 4], F)], [[3, 4], [3, 4]]),
    ("gather_indices_2d", GATHER, 23, [0, 0],
     [([5, 4], F), ([2, 3], [0, 4, 1, 2, 3, 0])], [[2, 3, 4]]),
    ("gather_axis_1", GATHER, 23, [1, 0],
     [([5, 4], F), ([2], [3, 1])], [[5, 2]]),
    ("gather_nd", GATHER_ND, 0, [],
     [([3, 4, 5], F), ([2, 1, 2], [0, 1, 2, 3])], [[2, 1, 5]]),
    ("batch_matmul_broadcast", BATCH_MATMUL, 101, [],
     [([2, 1, 3, 4], F), ([3, 4, 5], F)], [[2, 3, 3, 5]]),
    ("batch_matmul_adjoint", BATCH_MATMUL, 101, [True, True],
     [([2, 4, 3], F), ([2, 5, 4], F)], [[2, 3, 5]]),
    ("select_v2_broadcast", SELECT_V2, 0, [],
     [([2, 1, 1], "bool"), ([3, 1], F), ([1, 4], F)], [[2, 3, 4]]),
    ("transpose_conv", TRANSPOSE_CONV, 49, [0, 2, 2],
     [([4], [1, 6, 6, 4]), ([4, 3, 3, 2], True), ([1, 3, 3, 2], F)], [[1, 6, 6, 4]]),
    ("reshape_open_dimension", RESHAPE, 0, [],
     [([2, 3, 4], F), ([3], [4, -1, 2])], [[4, 3, 2]]),
    ("squeeze_every_one", SQUEEZE, 0, [],
     [([1, 3, 1, 4], F)], [[3, 4]]),
    ("expand_dims_last", EXPAND_DIMS, 0, [],
     [([3, 4], F), ([], [-1])], [[3, 4, 1]]),
    ("space_to_depth", SPACE_TO_DEPTH, 19, [2],
     [([1, 4, 6, 2], F)], [[1, 2, 3, 8]]),
    ("depth_to_space", DEPTH_TO_SPACE, 94, [2],
     [([1, 2, 3, 8], F)], [[1, 4, 6, 2]]),
    # x[1:4:2, -5::2, :] (begin_mask on the last axis)
    ("strided_slice_strides", STRIDED_SLICE, 32, [4, 0, 0, 0, 0],
     [([4, 6, 5], F), ([3], [1, -5, 0]), ([3], [4, 6, 5]), ([3], [2, 2, 1])],
     [[2, 3, 5]]),
    # x[-1:0:-2, 3]: a negative stride, the second axis shrunk
    ("strided_slice_reverse_shrink", STRIDED_SLICE, 32, [0, 0, 0, 0, 2],
     [([5, 4], F), ([2], [-1, 3]), ([2], [0, 0]), ([2], [-2, 1])], [[2]]),
    # x[..., 1:3]: the ellipsis stands for the first two axes
    ("strided_slice_ellipsis", STRIDED_SLICE, 32, [0, 0, 1, 0, 0],
     [([2, 3, 4], F), ([2], [0, 1]), ([2], [0, 3]), ([2], [1, 1])],
     [[2, 3, 2]]),
    # x[:, None, 1:]: a new axis
    ("strided_slice_new_axis", STRIDED_SLICE, 32, [1, 1, 0, 2, 0],
     [([3, 4], F), ([3], [0, 0, 1]), ([3], [0, 0, 4]), ([3], [1, 1, 1])],
     [[3, 1, 3]]),
    ("split_v_open_size", SPLIT_V, 79, [3],
     [([2, 7, 3], F), ([3], [2, -1, 1]), ([], [1])],
     [[2, 2, 3], [2, 4, 3], [2, 1, 3]]),
    ("topk_v2", TOPK_V2, 0, [],
     [([3, 6], F), ([], [2])], [[3, 2], ([3, 2], "int32")]),
    ("space_to_batch_nd_padded", SPACE_TO_BATCH_ND, 0, [],
     [([1, 3, 5, 1], F), ([2], [2, 2]), ([2, 2], [1, 0, 0, 1])],
     [[4, 2, 3, 1]]),
    ("batch_to_space_nd_cropped", BATCH_TO_SPACE_ND, 0, [],
     [([4, 2, 3, 1], F), ([2], [2, 2]), ([2, 2], [1, 0, 0, 1])],
     [[1, 3, 5, 1]]),
    ("broadcast_to_new_rank", BROADCAST_TO, 0, [],
     [([3, 1], F), ([3], [2, 3, 4])], [[2, 3, 4]]),
    ("fill", FILL, 0, [], [([3], [2, 3, 4]), ([], F)], [[2, 3, 4]]),
    ("shape", SHAPE, 55, [2], [([2, 3, 4], F)], [([3], "int32")]),
    ("rank", RANK, 0, [], [([2, 3], F)], [([], "int32")]),
    ("embedding_lookup", EMBEDDING_LOOKUP, 0, [],
     [([3], [0, 2, 1]), ([4, 5], F)], [[3, 5]]),
    ("select_rank1_condition", SELECT, 0, [],
     [([4], "bool"), ([4, 3], F), ([4, 3], F)], [[4, 3]]),
    ("add_n", ADD_N, 0, [], [([2, 3], F), ([2, 3], F), ([2, 3], F)], [[2, 3]]),
    ("reverse_v2", REVERSE_V2, 0, [], [([2, 3], F), ([1], [1])], [[2, 3]]),
    ("cumsum", CUMSUM, 0, [], [([2, 3], F), ([], [1])], [[2, 3]]),
    # RANGE counts as the kernel's integer arithmetic: (9 + 3 - 1) / 3
    ("range", RANGE, 0, [], [([], [2]), ([], [11]), ([], [3])],
     [([3], "int32")]),
    ("range_down", RANGE, 0, [], [([], [10]), ([], [1]), ([], [-4])],
     [([3], "int32")]),
    ("one_hot_last_axis", ONE_HOT, 61, [-1],
     [([2, 3], [0, 1, 2, 0, 1, 2]), ([], [4]), ([], True), ([], True)],
     [[2, 3, 4]]),
    ("one_hot_first_axis", ONE_HOT, 61, [0],
     [([3], [0, 1, 2]), ([], [5]), ([], True), ([], True)], [[5, 3]]),
    # CONV_3D (padding, stride d, w, h, activation, dilation d, w, h):
    # VALID, a height dilated; SAME with strides that do not divide
    ("conv_3d_valid_dilated", CONV_3D, 106, [1, 2, 2, 1, 0, 1, 1, 2],
     [([1, 5, 6, 7, 2], F), ([2, 3, 3, 2, 4], True)], [[1, 2, 2, 3, 4]]),
    ("conv_3d_same_strided", CONV_3D, 106, [0, 2, 2, 2, 0, 1, 1, 1],
     [([1, 4, 5, 3, 1], F), ([3, 3, 3, 1, 2], True), ([2], True)],
     [[1, 2, 3, 2, 2]]),
    # Shapes from values the model is fed (Documentation/tflite.md, "Shapes
    # from data"): each records the shape of the usual value (no padding,
    # one tile...) and is fed another. TFLite sizes the output when it
    # runs, from what it is fed: the reader must refuse each.
    ("pad_paddings_fed", PAD, 0, [],
     [([1, 3, 4, 2], F), ([4, 2], Fed("int32", [0, 0, 1, 1, 1, 1, 0, 0]))],
     [[1, 3, 4, 2]]),
    ("mirror_pad_paddings_fed", MIRROR_PAD, 77, [0],
     [([3, 4], F), ([2, 2], Fed("int32", [1, 1, 1, 1]))], [[3, 4]]),
    ("reshape_shape_fed", RESHAPE, 0, [],
     [([2, 3, 4], F), ([2], Fed("int32", [4, 6]))], [[2, 12]]),
    ("tile_multiples_fed", TILE, 0, [],
     [([2, 3], F), ([2], Fed("int32", [2, 2]))], [[2, 3]]),
    ("fill_dims_fed", FILL, 0, [],
     [([2], Fed("int32", [4, 5])), ([], True)], [[2, 2]]),
    ("broadcast_to_shape_fed", BROADCAST_TO, 0, [],
     [([1, 3], F), ([2], Fed("int32", [4, 3]))], [[2, 3]]),
    ("slice_size_fed", SLICE, 0, [],
     [([4, 5], F), ([2], [0, 0]), ([2], Fed("int32", [3, 4]))], [[1, 1]]),
    ("strided_slice_end_fed", STRIDED_SLICE, 32, [0, 0, 0, 0, 0],
     [([6], F), ([1], [0]), ([1], Fed("int32", [5])), ([1], [1])], [[1]]),
    ("resize_bilinear_size_fed", RESIZE_BILINEAR, 15, [0, 0],
     [([1, 2, 2, 1], F), ([2], Fed("int32", [4, 4]))], [[1, 2, 2, 1]]),
    ("mean_axis_fed", MEAN, 27, [],
     [([2, 3, 4], F), ([1], Fed("int32", [0]))], [[2, 3]]),
    ("transpose_perm_fed", TRANSPOSE, 0, [],
     [([2, 3, 4], F), ([3], Fed("int32", [2, 0, 1]))], [[2, 3, 4]]),
    ("topk_v2_k_fed", TOPK_V2, 0, [],
     [([3, 6], F), ([], Fed("int32", [4]))], [[3, 1], ([3, 1], "int32")]),
    ("range_limit_fed", RANGE, 0, [],
     [([], [0]), ([], Fed("int32", [10])), ([], [1])], [([2], "int32")]),
    ("one_hot_depth_fed", ONE_HOT, 61, [-1],
     [([3], [0, 1, 2]), ([], Fed("int32", [6])), ([], True), ([], True)],
     [[3, 2]]),
    ("where_condition_fed", WHERE, 0, [],
     [([4], Fed("float32", [1.0]))], [([1, 1], "int64")]),
    ("unique_fed", UNIQUE, 80, [2],
     [([4], Fed("int32", [1, 2, 3, 4]))], [([1], "int32"), ([4], "int32")]),
    # Types the kernel assigns (Documentation/tflite.md, "Output types"),
    # recorded smaller: GATHER, ADD, RESIZE_BILINEAR, SPLIT and SELECT_V2
    # write their input's FLOAT32, ARG_MAX its options' INT64. LiteRT
    # finds each allocation too small: the reader must refuse each.
    ("gather_recorded_int16", GATHER, 23, [0, 0],
     [([5, 4], F), ([3], [0, 4, 1])], [([3, 4], "int16")]),
    ("add_recorded_int16", ADD, 0, [], [([2, 3], F), ([2, 3], F)],
     [([2, 3], "int16")]),
    ("resize_bilinear_recorded_int16", RESIZE_BILINEAR, 15, [0, 0],
     [([1, 2, 2, 1], F), ([2], [4, 4])], [([1, 4, 4, 1], "int16")]),
    ("split_recorded_int16", SPLIT, 35, [2],
     [([], [1]), ([2, 6], F)], [([2, 3], "int16"), ([2, 3], "int16")]),
    ("select_v2_recorded_int16", SELECT_V2, 0, [],
     [([2, 3], "bool"), ([2, 3], F), ([2, 3], F)], [([2, 3], "int16")]),
    ("arg_max_int64_recorded_int32", ARG_MAX, 40, [4],
     [([2, 5, 3], F), ([1], [1])], [([2, 3], "int32")]),
]


def synthetic_models():
    """[(name, bytes, feeds)] of SYNTHETIC: feeds, the values of each
    input of the model in its order (None: zeros)"""
    mk, writer = builder()
    out = []
    types = {"int32": mk.INT32, "int64": 4, "float32": mk.FLOAT32, "int16": 7}
    for name, code, member, slots, ins, outs in SYNTHETIC:
        ts, inputs, feeds = [], [], []
        for k, (dims, kind) in enumerate(ins):
            n = 1
            for d in dims:
                n *= d
            if isinstance(kind, Fed):
                ts.append(mk.tensor("in%d" % k, dims, types[kind.dtype]))
                inputs.append(k)
                feeds.append(kind.values)
                continue
            if isinstance(kind, list):
                ts.append(mk.tensor("in%d" % k, dims, mk.INT32, mk.int32s(*kind)))
                continue
            if kind == "bool":
                # alternately true and false, a constant
                ts.append(mk.tensor("in%d" % k, dims, mk.BOOL, bytes(i % 2 for i in range(n))))
                continue
            ts.append(mk.tensor("in%d" % k, dims, mk.FLOAT32, bytes(4 * n) if kind else None))
            if not kind:
                inputs.append(k)
                feeds.append(None)
        written = []
        for j, o in enumerate(outs):
            shape, ttype = (o[0], types[o[1]]) if isinstance(o, tuple) else (o, mk.FLOAT32)
            written.append(len(ts))
            ts.append(mk.tensor("out%d" % j, shape, ttype))
        ops = [mk.op(code, list(range(len(ins))), written,
                     (member, slots, False) if member else None)]
        if all(f is None for f in feeds):
            out.append((name, writer().model([mk.subgraph("main", ts, inputs, written, ops)]),
                        None))
            continue
        # Fed: LiteRT gives an output it sizes when it runs at the
        # recorded shape, so each output's SHAPE, made float by a CAST,
        # is what the model gives: the shape the runtime wrote.
        probes = []
        for j, t in enumerate(written):
            rank = len(ts[t]["shape"])
            ts.append(mk.tensor("shape%d" % j, [rank], mk.INT32))
            ts.append(mk.tensor("probe%d" % j, [rank]))
            ops.append(mk.op(SHAPE, [t], [len(ts) - 2], (55, [mk.INT32], False)))
            ops.append(mk.op(CAST, [len(ts) - 2], [len(ts) - 1]))
            probes.append(len(ts) - 1)
        out.append((name, writer().model([mk.subgraph("main", ts, inputs, probes, ops)]),
                    (feeds, written)))
    return out


def fed_result(rt, tactl, path, data, feeds, probed, tmp):
    """A model fed values its op sizes an output from (SYNTHETIC's Fed):
    (passed, text). LiteRT's shape of each output of the op (probed) is
    read from its SHAPE; the reader must refuse the model, naming the op,
    when one differs from what the model records, and plan each at least
    as large as the runtime wrote it otherwise."""
    _, _, shapes, types = model_facts(Flat(data))
    ans = rt.run(path, feeds)
    sizes, why = planned(tactl, path, tmp)
    if not ans["ok"]:
        return None, "LiteRT cannot run it (%s)" % ans["error"][:80]
    wrote = [[int(v) for v in o["values"]] for o in ans["outputs"]]
    differ = ["tensor %d %s, recorded %s" % (t, w, shapes[t])
              for t, w in zip(probed, wrote) if w != shapes[t]]
    if sizes is None:
        return (bool(differ) and REFUSAL.search(why) is not None,
                "refused (%s); LiteRT wrote %s" % (why[why.find("op "):][:110],
                                                   ", ".join(differ) or "every tensor as recorded"))
    under = wrong_sizes(probed, [{"dims": w} for w in wrote], sizes, types, shapes)
    return not under, "accepted%s" % (": " + "; ".join(under[:2]) if under else
                                      ", LiteRT wrote every tensor as recorded")


def selftest(prefix):
    """The runtime runs a model and reports every tensor an op writes, and
    finds a recorded shape smaller than its kernel's too small: what this
    oracle relies on (tests/deps.sh runs it before keeping an install)."""
    rt = LiteRt(prefix)
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "x.tflite")
        data = tiny_model()
        x, outs = exposed(data)
        open(p, "wb").write(x)
        ans = rt.run(p)
        if not ans["ok"] or [o["dims"] for o in ans["outputs"]] != [[2, 3], [2, 3]] or outs != [3, 2]:
            print("selftest: the tiny model: %s" % ans, file=sys.stderr)
            return 1
        m, _ = shrunk(data, 2)
        x, _ = exposed(m)
        open(p, "wb").write(x)
        ans = rt.run(p)
        if ans["ok"] or 2 not in ans["too_small"]:
            print("selftest: [2, 2] recorded for ADD's [2, 3]: %s" % ans, file=sys.stderr)
            return 1
    print("selftest: LiteRT ran the tiny model and found a recorded shape too small",
          file=sys.stderr)
    return 0


def selftest_web(prefix):
    """TFLite's interpreter in tfjs-tflite runs a model, reports every
    tensor an op writes, and reports the shape its kernel computes where
    the model records a smaller one (tests/deps.sh runs this before
    keeping an install)."""
    rt = LiteRt(prefix, WEB_SCRIPT, WEB_NAME)
    with tempfile.TemporaryDirectory() as tmp:
        p = os.path.join(tmp, "x.tflite")
        data = tiny_model()
        m, _ = shrunk(data, 2)
        for d in (data, m):
            x, outs = exposed(d)
            open(p, "wb").write(x)
            ans = rt.run(p)
            if not ans["ok"] or [o["dims"] for o in ans["outputs"]] != [[2, 3], [2, 3]] or outs != [3, 2]:
                print("selftest: the tiny model%s: %s" % (
                    " with [2, 2] recorded for ADD's [2, 3]" if d is m else "", ans), file=sys.stderr)
                return 1
    print("selftest: TFLite web ran the tiny model, at the kernel's shapes", file=sys.stderr)
    return 0


def wrong_sizes(outs, written, sizes, types, shapes=None):
    """what LiteRT wrote (tensors outs, written[k] for outs[k]) against the
    plan: each tensor planned smaller, and with shapes, each written at
    another shape than recorded"""
    wrong = []
    for t, o in zip(outs, written):
        w = nbytes(types[t], o["dims"])
        if sizes.get(t, 0) < w:
            wrong.append("tensor %d planned %d bytes, the runtime wrote %d %s" % (
                t, sizes.get(t, 0), w, o["dims"]))
        elif shapes is not None and o["dims"] != shapes[t]:
            wrong.append("tensor %d: the runtime wrote %s, the model records %s" % (
                t, o["dims"], shapes[t]))
    return wrong


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--tactl")
    ap.add_argument("--litert", required=True)
    ap.add_argument("--web", help="tfjs-tflite's npm prefix: the runtime for what LiteRT cannot run")
    ap.add_argument("--selftest", action="store_true")
    ap.add_argument("--min-models", type=int, default=1)
    ap.add_argument("--min-mutations", type=int, default=1)
    ap.add_argument("--mutations-per-model", type=int, default=MUTATIONS_PER_MODEL)
    ap.add_argument("dirs", nargs="*")
    a = ap.parse_args()
    if a.selftest:
        return selftest_web(a.web) if a.web else selftest(a.litert)
    models = sorted(p for d in a.dirs for p in glob.glob(os.path.join(d, "*.tflite")))
    synth_dir = tempfile.mkdtemp(prefix="ta-tflite-oracle-")
    fed = {}
    for name, data, feeds in synthetic_models():
        path = os.path.join(synth_dir, "synthetic_%s.tflite" % name)
        open(path, "wb").write(data)
        models.append(path)
        fed[path] = feeds
    rt = LiteRt(a.litert)
    web = LiteRt(a.web, WEB_SCRIPT, WEB_NAME) if a.web else None
    n = 0
    count = {"models": 0, "ran": 0, "refused_models": 0, "mutations": 0, "refused": 0, "larger": 0,
             "under": 0, "unseen": 0, "lrt_ran": 0, "lrt_small": 0, "lrt_trap": 0, "fed": 0,
             "web": 0, "web_mutations": 0, "web_larger": 0, "web_repaired": 0}
    refusals = {}

    def result(ok, text):
        nonlocal n
        n += 1
        print("%s %d - %s" % ("ok" if ok else "not ok", n, text))
        sys.stdout.flush()

    with tempfile.TemporaryDirectory() as tmp:
        for path in models:
            name = os.path.basename(path)
            data = open(path, "rb").read()
            count["models"] += 1
            if fed.get(path):
                ok, text = fed_result(rt, a.tactl, path, data, *fed[path], tmp)
                if ok is None:
                    result(True, "%s: %s; not compared" % (name, text))
                    continue
                count["ran"] += 1
                count["fed"] += 1
                count["refused_models"] += text.startswith("refused")
                result(ok, "%s: fed other values than recorded: %s" % (name, text))
                continue
            fl = Flat(data)
            _, written, shapes, types = model_facts(fl)
            x, outs = exposed(data)
            xp = os.path.join(tmp, "x.tflite")
            open(xp, "wb").write(x)
            cur, fix = rt, False
            ans = rt.run(xp, fed.get(path))
            sizes, why = planned(a.tactl, path, tmp)
            if not ans["ok"] and not ans.get("too_small") and web is not None and \
                    "memory access out of bounds" not in ans["error"]:
                # a model LiteRT cannot load (variable tensors): TFLite's
                # own interpreter, whose kernels size what they write
                other = web.run(xp)
                rx = None
                if not other["ok"] and "quantized_dimension" in other["error"]:
                    rx = repaired(x)
                if rx:
                    # run with the quantization it checks repaired; tactl
                    # imports the model as it is
                    open(xp, "wb").write(rx)
                    other = web.run(xp)
                    fix = other["ok"]
                    count["web_repaired"] += fix
                if other["ok"]:
                    cur, ans = web, other
                    count["web"] += 1
            if not ans["ok"] and (ans.get("too_small") or
                                  "memory access out of bounds" in ans["error"]):
                # the runtime writes more than the model records: a plan
                # of the recorded sizes is too small, it must be refused
                count["ran"] += 1
                count["refused_models"] += sizes is None
                result(sizes is None and REFUSAL.search(why) is not None,
                       "%s: LiteRT writes past the recorded sizes (%s); %s" % (
                           name, ans["error"][:60],
                           "refused (%s)" % why[why.find("op "):][:100] if sizes is None
                           else "accepted"))
                continue
            if not ans["ok"]:
                # a model this runtime cannot run (Vela's ethos-u op):
                # no claim either way, and its mutations are not tried
                result(True, "%s: LiteRT cannot run it (%s)%s; not compared" % (
                    name, ans["error"][:80], "" if web is None else ", nor TFLite web"))
                continue
            count["ran"] += 1
            if sizes is None:
                # right only when the runtime's shapes are not the model's
                differ = [(t, o["dims"]) for t, o in zip(outs, ans["outputs"])
                          if o["dims"] != shapes[t]]
                result(bool(differ) and REFUSAL.search(why) is not None,
                       "%s: refused (%s); %s wrote %s" % (
                           name, why[why.find("op "):][:100], cur.name,
                           ", ".join("tensor %d %s, recorded %s" % (t, d, shapes[t])
                                     for t, d in differ[:2]) or "every tensor as recorded"))
                count["refused_models"] += 1
                continue
            # and at the recorded shape: else the reader's rules would be
            # judging shapes the runtime does not have
            under = wrong_sizes(outs, ans["outputs"], sizes, types, shapes)
            result(not under, "%s: %d tensors as %s writes them%s" % (
                name, len(outs), cur.name, ": " + "; ".join(under[:3]) if under else ""))
            for t in to_mutate(written, shapes, a.mutations_per_model):
                m, dims = shrunk(data, t)
                if m is None:
                    continue
                count["mutations"] += 1
                count["web_mutations"] += cur is web
                mp = os.path.join(tmp, "m.tflite")
                open(mp, "wb").write(m)
                mx, _ = exposed(m)
                open(xp, "wb").write((repaired(mx) or mx) if fix else mx)
                ans = cur.run(xp, fed.get(path))
                sizes, why = planned(a.tactl, mp, tmp)
                label = "%s tensor %d %s recorded %s" % (name, t, shapes[t], dims)
                if cur is web:
                    # its kernels size what they write: the mutated
                    # tensor at other dims than recorded is written larger
                    count["web_larger"] += any(
                        o["dims"] != dims for tt, o in zip(outs, ans.get("outputs", [])) if tt == t)
                elif ans["ok"]:
                    count["lrt_ran"] += 1
                elif t in ans.get("too_small", []):
                    count["lrt_small"] += 1
                elif "out of bounds" in ans["error"]:
                    count["lrt_trap"] += 1
                if sizes is None:
                    r = REFUSAL.search(why)
                    if r:
                        count["refused"] += 1
                        refusals[r.group(2)] = refusals.get(r.group(2), 0) + 1
                        result(True, "%s: refused (%s)" % (label, why[why.find("op "):][:100]))
                    else:
                        result(False, "%s: refused without naming the op: %s" % (label, why))
                    continue
                if ans["ok"]:
                    # it ran: what it wrote, tensor by tensor
                    under = wrong_sizes(outs, ans["outputs"], sizes, types)
                    if under:
                        count["under"] += 1
                    else:
                        count["larger"] += 1
                    result(not under, "%s: accepted, %s ran it%s" % (
                        label, cur.name, ": " + "; ".join(under[:2]) if under else ", nothing under-sized"))
                elif ans.get("too_small") or "out of bounds" in ans["error"]:
                    # the runtime computed more than the recorded shape: it
                    # refused its allocation, or wrote past it and trapped
                    count["under"] += 1
                    result(False, "%s: accepted and planned %d bytes; LiteRT: %s" % (
                        label, sizes.get(t, 0), ans["error"][:80]))
                else:
                    count["unseen"] += 1
                    result(True, "%s: %s cannot run it (%s); not compared" % (
                        label, cur.name, ans["error"][:60]))
    print("# models: %(models)d, run %(ran)d (%(web)d of them by TFLite web; refused by tactl %(refused_models)d, "
          "fed other values than recorded %(fed)d); "
          "mutations: %(mutations)d, refused "
          "%(refused)d, planned as large as the runtime %(larger)d, under-sized %(under)d, "
          "not run by the runtime %(unseen)d" % count)
    print("# LiteRT on the mutations: found the recorded shape too small %(lrt_small)d, "
          "trapped writing outside its memory %(lrt_trap)d, ran %(lrt_ran)d" % count)
    print("# TFLite web (the models LiteRT cannot load): %(web)d models (%(web_repaired)d "
          "with quantized_dimension repaired), %(web_mutations)d mutations, of which it wrote "
          "%(web_larger)d at the kernel's shape, past the recorded one" % count)
    for op, k in sorted(refusals.items(), key=lambda x: -x[1]):
        print("#   refused %4d  %s" % (k, op))
    result(count["ran"] >= a.min_models, "models run (LiteRT, TFLite web): %d (at least %d)" % (
        count["ran"], a.min_models))
    result(count["mutations"] - count["unseen"] >= a.min_mutations,
           "mutations judged: %d (at least %d)" % (
               count["mutations"] - count["unseen"], a.min_mutations))
    print("1..%d" % n)
    shutil.rmtree(synth_dir, ignore_errors=True)


if __name__ == "__main__":
    sys.exit(main())
