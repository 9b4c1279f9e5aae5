#!/usr/bin/python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Write the hand-made TFLite models of tests/data/ (Documentation/tflite.md).

Built with Debian's python3-flatbuffers Builder from the field numbers of
TFLite's schema.fbs (written out below by hand, only what these models
use), so they are made by a FlatBuffers implementation independent of the
reader under test. Deterministic: run it again and the files come out the
same.

  tests/data/make-tflite-models.py [DIR]      (default: next to this script)

control_flow.tflite   subgraph 0: WHILE (cond 1, body 2), then RESHAPE;
                      body 2 holds an IF (then 3, else 4); subgraph 5 is
                      called by nobody
if_same_branch.tflite an IF whose then and else are the same subgraph 1
offline_meta.tflite   a small model with OfflineMemoryAllocation metadata
offline_two.tflite    the same with two entries of that name (TFLite Micro
                      takes the last)
recursive.tflite      a WHILE body that runs a WHILE with itself as body
unknown_call.tflite   a STABLEHLO_WHILE (calls subgraphs, not inlined)
too_deep.tflite       CALL_ONCE chains 18 subgraphs deep
bad_index.tflite      an IF whose then-subgraph index is out of range
vela_layout.tflite    laid out as Vela writes for Ethos-U: an ethos-u
                      custom op (command stream, flash, scratch,
                      scratch_fast, input), then an IF (then 1, else 2),
                      OfflineMemoryAllocation [0, 1, 12, ...] over the 12
                      tensors of the 3 subgraphs in order, -1 for the
                      constants, the condition and the else-branch
vela_inside.tflite    as person_detect_vela: input, output and
                      scratch_fast all at offset 0, inside the scratch
shape_rules.tflite    PAD, SLICE, TILE, MEAN, TRANSPOSE, SPLIT, ADD: output
                      shapes from constants, and a CONV_3D, each checked
                      by the reader
shape_rules_hostile.tflite  the same with constants no kernel takes
index_rules.tflite    STRIDED_SLICE, SPLIT_V, TOPK_V2, SPACE_TO_BATCH_ND,
                      BATCH_TO_SPACE_ND, BROADCAST_TO, FILL, RANGE,
                      ONE_HOT... (15 ops):
                      the index rules, each checked by the reader
index_rules_hostile.tflite  the same with constants no kernel takes
folded_shapes.tflite  shapes computed in the graph (SHAPE, STRIDED_SLICE,
                      PACK, ADD, GATHER, CONCATENATION, SLICE) for a
                      RESHAPE, PAD, BROADCAST_TO, TILE and FILL: folded
folded_shapes_hostile.tflite  the same with values no kernel takes
data_shapes.tflite    values from the model's input where TFLite keeps
                      the recorded shapes (a SLICE's size, GATHER's
                      indices), and a SHAPE of one for a FILL: accepted
refused/reshape_arranged.tflite  a RESHAPE recorded [3, 2] where its
                      shape input says [2, 3], then a PAD (refused)
refused/data_paddings.tflite  a PAD whose paddings come from the model's
                      input (refused: sized only when the model runs)
refused/gather_type.tflite  a GATHER of FLOAT32 recorded INT16 (refused:
                      the kernel writes its input's type)
refused/reshape_type.tflite  a RESHAPE of FLOAT32 recorded INT8 (refused:
                      the kernel copies its input's bytes)
"""
import os
import struct
import sys

import flatbuffers

# TensorType
FLOAT32, INT32, UINT8, BOOL, INT16, INT8 = 0, 2, 3, 6, 7, 9
# BuiltinOperator
ADD, RELU, RESHAPE, MUL, LESS, NEG, EQUAL, ABS = 0, 19, 22, 18, 58, 59, 71, 101
FULLY_CONNECTED, CUSTOM = 9, 32
IF, WHILE, CALL_ONCE, STABLEHLO_WHILE = 118, 119, 129, 200
# BuiltinOptions / BuiltinOptions2 union members
IF_OPTIONS, WHILE_OPTIONS, CALL_ONCE_OPTIONS = 92, 93, 103
STABLEHLO_WHILE_OPTIONS = 15


def tensor(name, dims, ttype=FLOAT32, data=None, variable=False):
    return {"name": name, "shape": dims, "type": ttype, "data": data,
            "variable": variable}


# Op versions TFLite registers from above 1: BROADCAST_TO 2 and 3.
MIN_VERSION = {130: 2}


def op(code, inputs, outputs, calls=None):
    """calls: (options union member, [subgraph indices], second union?)."""
    return {"code": code, "inputs": inputs, "outputs": outputs,
            "calls": calls}


def subgraph(name, tensors, inputs, outputs, ops):
    return {"name": name, "tensors": tensors, "inputs": inputs,
            "outputs": outputs, "ops": ops}


def int32s(*v):
    return struct.pack("<%di" % len(v), *v)


class ModelWriter:
    """Lays out a Model table; children are built before their parents."""

    def __init__(self):
        self.b = flatbuffers.Builder(4096)
        self.buffers = [None]           # buffer 0: the empty sentinel
        self.opcodes = []

    def buffer(self, data):
        self.buffers.append(data)
        return len(self.buffers) - 1

    def opcode(self, code):
        if code not in self.opcodes:
            self.opcodes.append(code)
        return self.opcodes.index(code)

    def ints(self, values):
        b = self.b
        b.StartVector(4, len(values), 4)
        for v in reversed(values):
            b.PrependInt32(v)
        return b.EndVector()

    def offsets(self, offs):
        b = self.b
        b.StartVector(4, len(offs), 4)
        for o in reversed(offs):
            b.PrependUOffsetTRelative(o)
        return b.EndVector()

    def bytes16(self, data):
        b = self.b
        b.StartVector(1, len(data), 16)     # Buffer.data: force_align 16
        for x in reversed(data):
            b.PrependUint8(x)
        return b.EndVector()

    def tensor(self, t):
        b = self.b
        buf = self.buffer(t["data"]) if t["data"] is not None else 0
        name = b.CreateString(t["name"])
        shape = self.ints(t["shape"])
        b.StartObject(6)
        b.PrependUOffsetTRelativeSlot(0, shape, 0)      # shape
        b.PrependInt8Slot(1, t["type"], 0)              # type
        b.PrependUint32Slot(2, buf, 0)                  # buffer
        b.PrependUOffsetTRelativeSlot(3, name, 0)       # name
        b.PrependBoolSlot(5, t["variable"], False)      # is_variable
        return b.EndObject()

    def options(self, member, indices):
        """int32 fields, in order (a byte field reads its low byte); a
        Python bool is written as a bool, one byte"""
        b = self.b
        b.StartObject(max(2, len(indices)))
        for k, v in enumerate(indices):
            if isinstance(v, bool):
                b.PrependBoolSlot(k, v, False)
            else:
                b.PrependInt32Slot(k, v, 0)
        return b.EndObject()

    def operator(self, o):
        b = self.b
        opts = None
        if o["calls"]:
            member, indices, second = o["calls"]
            opts = self.options(member, indices)
        ins = self.ints(o["inputs"])
        outs = self.ints(o["outputs"])
        b.StartObject(13)
        b.PrependUint32Slot(0, self.opcode(o["code"]), 0)   # opcode_index
        b.PrependUOffsetTRelativeSlot(1, ins, 0)            # inputs
        b.PrependUOffsetTRelativeSlot(2, outs, 0)           # outputs
        if opts is not None and not second:
            b.PrependUint8Slot(3, member, 0)    # builtin_options_type
            b.PrependUOffsetTRelativeSlot(4, opts, 0)
        if opts is not None and second:
            b.PrependUint8Slot(11, member, 0)   # builtin_options_2_type
            b.PrependUOffsetTRelativeSlot(12, opts, 0)
        return b.EndObject()

    def subgraph(self, sg):
        b = self.b
        tensors = self.offsets([self.tensor(t) for t in sg["tensors"]])
        ops = self.offsets([self.operator(o) for o in sg["ops"]])
        ins = self.ints(sg["inputs"])
        outs = self.ints(sg["outputs"])
        name = b.CreateString(sg["name"])
        b.StartObject(5)
        b.PrependUOffsetTRelativeSlot(0, tensors, 0)
        b.PrependUOffsetTRelativeSlot(1, ins, 0)
        b.PrependUOffsetTRelativeSlot(2, outs, 0)
        b.PrependUOffsetTRelativeSlot(3, ops, 0)
        b.PrependUOffsetTRelativeSlot(4, name, 0)
        return b.EndObject()

    def opcode_table(self, code):
        """@code: a BuiltinOperator, or a custom op's name (a string)."""
        b = self.b
        custom = None
        if isinstance(code, str):
            custom = b.CreateString(code)
            code = CUSTOM
        b.StartObject(4)
        b.PrependInt8Slot(0, min(code, 127), 0)     # deprecated_builtin_code
        if custom is not None:
            b.PrependUOffsetTRelativeSlot(1, custom, 0)     # custom_code
        # version: 1 unless the runtime registers none below (BROADCAST_TO)
        b.PrependInt32Slot(2, MIN_VERSION.get(code, 1), 1)
        b.PrependInt32Slot(3, code, 0)              # builtin_code
        return b.EndObject()

    def buffer_table(self, data):
        b = self.b
        vec = self.bytes16(data) if data else None
        b.StartObject(3)
        if vec is not None:
            b.PrependUOffsetTRelativeSlot(0, vec, 0)
        return b.EndObject()

    def metadata_table(self, name, buf):
        b = self.b
        n = b.CreateString(name)
        b.StartObject(2)
        b.PrependUOffsetTRelativeSlot(0, n, 0)
        b.PrependUint32Slot(1, buf, 0)
        return b.EndObject()

    def model(self, subgraphs, metadata=()):
        b = self.b
        sgs = self.offsets([self.subgraph(sg) for sg in subgraphs])
        meta_bufs = [(name, self.buffer(data)) for name, data in metadata]
        metas = self.offsets([self.metadata_table(n, i)
                              for n, i in meta_bufs])
        codes = self.offsets([self.opcode_table(c) for c in self.opcodes])
        bufs = self.offsets([self.buffer_table(d) for d in self.buffers])
        desc = b.CreateString("tensorarena test model")
        b.StartObject(8)
        b.PrependUint32Slot(0, 3, 0)                    # version
        b.PrependUOffsetTRelativeSlot(1, codes, 0)      # operator_codes
        b.PrependUOffsetTRelativeSlot(2, sgs, 0)        # subgraphs
        b.PrependUOffsetTRelativeSlot(3, desc, 0)       # description
        b.PrependUOffsetTRelativeSlot(4, bufs, 0)       # buffers
        if metadata:
            b.PrependUOffsetTRelativeSlot(6, metas, 0)  # metadata
        b.Finish(b.EndObject(), file_identifier=b"TFL3")
        return bytes(b.Output())


def control_flow():
    main = subgraph("main", [
        tensor("x", [1, 16]),
        tensor("i0", [], INT32, int32s(0)),
        tensor("i_out", [], INT32),
        tensor("y", [1, 16]),
        tensor("shape", [1], INT32, int32s(16)),
        tensor("out", [16]),
    ], [0], [5], [
        op(WHILE, [1, 0], [2, 3], (WHILE_OPTIONS, [1, 2], False)),
        op(RESHAPE, [3, 4], [5]),
    ])
    cond = subgraph("cond", [
        tensor("i", [], INT32),
        tensor("x", [1, 16]),
        tensor("limit", [], INT32, int32s(3)),
        tensor("c", [], BOOL),
    ], [0, 1], [3], [op(LESS, [0, 2], [3])])
    body = subgraph("body", [
        tensor("i", [], INT32),
        tensor("x", [1, 16]),
        tensor("one", [], INT32, int32s(1)),
        tensor("i_next", [], INT32),
        tensor("zero", [], INT32, int32s(0)),
        tensor("pred", [], BOOL),
        tensor("sq", [1, 16]),
        tensor("x_next", [1, 16]),
    ], [0, 1], [3, 7], [
        op(ADD, [0, 2], [3]),
        op(EQUAL, [0, 4], [5]),
        op(MUL, [1, 1], [6]),
        op(IF, [5, 6], [7], (IF_OPTIONS, [3, 4], False)),
    ])
    then = subgraph("then", [
        tensor("a", [1, 16]), tensor("r", [1, 16]), tensor("o", [1, 16]),
    ], [0], [2], [op(RELU, [0], [1]), op(ADD, [1, 0], [2])])
    other = subgraph("else", [
        tensor("a", [1, 16]), tensor("o", [1, 16]),
    ], [0], [1], [op(NEG, [0], [1])])
    unused = subgraph("unused", [
        tensor("a", [4]), tensor("o", [4]),
    ], [0], [1], [op(ABS, [0], [1])])
    return ModelWriter().model([main, cond, body, then, other, unused])


def if_same_branch():
    main = subgraph("main", [
        tensor("p", [], BOOL), tensor("x", [8]), tensor("y", [8]),
    ], [0, 1], [2], [op(IF, [0, 1], [2], (IF_OPTIONS, [1, 1], False))])
    branch = subgraph("branch", [
        tensor("a", [8]), tensor("t", [8]), tensor("o", [8]),
    ], [0], [2], [op(RELU, [0], [1]), op(NEG, [1], [2])])
    return ModelWriter().model([main, branch])


def offline_main():
    """x -> FULLY_CONNECTED(w) -> h -> RELU -> y, and a tensor unused."""
    return subgraph("main", [
        tensor("x", [1, 8]),
        tensor("w", [8, 8], FLOAT32, bytes(256)),
        tensor("h", [1, 8]),
        tensor("y", [1, 8]),
        tensor("unused", [2]),
    ], [0], [3], [
        op(FULLY_CONNECTED, [0, 1, -1], [2]),
        op(RELU, [2], [3]),
    ])


def offline_meta():
    main = offline_main()
    # TFLite Micro's layout: version, subgraph, n, one offset per tensor
    plan = int32s(1, 0, 5, 0, -1, 64, 0, -1)
    return ModelWriter().model(
        [main], [("min_runtime_version", b"1.5.0\0"),
                 ("OfflineMemoryAllocation", plan)])


def offline_two():
    main = offline_main()
    return ModelWriter().model(
        [main], [("OfflineMemoryAllocation",
                  int32s(1, 0, 5, 0, -1, 64, 0, -1)),
                 ("OfflineMemoryAllocation",
                  int32s(0, 1, 5, 128, -1, 0, 256, -1))])


def loop(body_calls):
    """subgraph 0 runs WHILE(cond 1, body 2); body 2 holds @body_calls."""
    main = subgraph("main", [
        tensor("i", [], INT32), tensor("o", [], INT32),
    ], [0], [1], [op(WHILE, [0], [1], (WHILE_OPTIONS, [1, 2], False))])
    cond = subgraph("cond", [
        tensor("i", [], INT32), tensor("c", [], BOOL),
        tensor("limit", [], INT32, int32s(3)),
    ], [0], [1], [op(LESS, [0, 2], [1])])
    body = subgraph("body", [
        tensor("i", [], INT32), tensor("o", [], INT32),
    ], [0], [1], [body_calls])
    return [main, cond, body]


def recursive():
    return ModelWriter().model(
        loop(op(WHILE, [0], [1], (WHILE_OPTIONS, [1, 2], False))))


def unknown_call():
    main = subgraph("main", [
        tensor("i", [], INT32), tensor("o", [], INT32),
    ], [0], [1], [op(STABLEHLO_WHILE, [0], [1],
                     (STABLEHLO_WHILE_OPTIONS, [1, 2], True))])
    sgs = loop(op(ADD, [0, 0], [1]))
    return ModelWriter().model([main] + sgs[1:])


def too_deep(n=18):
    sgs = []
    for k in range(n):
        if k + 1 < n:
            body = op(CALL_ONCE, [], [], (CALL_ONCE_OPTIONS, [k + 1], False))
        else:
            body = op(RELU, [0], [1])
        sgs.append(subgraph("level%d" % k, [
            tensor("a", [4]), tensor("o", [4]),
        ], [0], [1], [body] + ([op(RELU, [0], [1])] if k + 1 < n else [])))
    return ModelWriter().model(sgs)


def bad_index():
    main = subgraph("main", [
        tensor("p", [], BOOL), tensor("x", [8]), tensor("y", [8]),
    ], [0, 1], [2], [op(IF, [0, 1], [2], (IF_OPTIONS, [9, 1], False))])
    branch = subgraph("branch", [
        tensor("a", [8]), tensor("o", [8]),
    ], [0], [1], [op(RELU, [0], [1])])
    return ModelWriter().model([main, branch, branch])


def vela_main(offsets):
    """Subgraph 0 as Vela writes it, and the then/else subgraphs."""
    main = subgraph("main", [
        tensor("out", [1, 16], INT8),
        tensor("_split_1_command_stream", [16], UINT8, bytes(range(16))),
        tensor("_split_1_flash", [32], UINT8, bytes(32)),
        tensor("_split_1_scratch", [256], UINT8),
        tensor("_split_1_scratch_fast", [256], UINT8),
        tensor("input", [1, 8, 8, 1], INT8),
        tensor("npu_out", [1, 16], INT8),
        tensor("cond", [], BOOL),
    ], [5, 7], [0], [
        op("ethos-u", [1, 2, 3, 4, 5], [6]),
        op(IF, [7, 6], [0], (IF_OPTIONS, [1, 2], False)),
    ])
    then = subgraph("then", [
        tensor("a", [1, 16], INT8), tensor("r", [1, 16], INT8),
    ], [0], [1], [op(RELU, [0], [1])])
    other = subgraph("else", [
        tensor("a", [1, 16], INT8), tensor("n", [1, 16], INT8),
    ], [0], [1], [op(NEG, [0], [1])])
    plan = int32s(0, 1, len(offsets), *offsets)
    return ModelWriter().model(
        [main, then, other], [("vela_version", b"3.11.0"),
                              ("OfflineMemoryAllocation", plan)])


def vela_layout():
    # subgraph 0: out, cms, flash, scratch, scratch_fast, input, npu_out,
    # cond; then: a, r; else: a, n (entries 8, 9 and 10, 11)
    return vela_main([640, -1, -1, 0, 256, 512, 576, -1,
                      704, 768,
                      -1, -1])


def vela_inside():
    main = subgraph("main", [
        tensor("out", [1, 2], INT8),
        tensor("_split_1_command_stream", [16], UINT8, bytes(range(16))),
        tensor("_split_1_flash", [32], UINT8, bytes(32)),
        tensor("_split_1_scratch", [256], UINT8),
        tensor("_split_1_scratch_fast", [256], UINT8),
        tensor("input", [1, 8, 8, 1], INT8),
    ], [5], [0], [op("ethos-u", [1, 2, 3, 4, 5], [0])])
    plan = int32s(0, 1, 6, 0, -1, -1, 0, 0, 0)
    return ModelWriter().model(
        [main], [("vela_version", b"3.11.0"),
                 ("OfflineMemoryAllocation", plan)])


def int64s(*v):
    return struct.pack("<%dq" % len(v), *v)


# BuiltinOperator and BuiltinOptions members of the shape rules' models
PAD, SLICE, TILE, MEAN, TRANSPOSE, SPLIT, CONV_3D = 34, 65, 69, 40, 39, 49, 132
REDUCER_OPTIONS, SPLIT_OPTIONS, CONV_3D_OPTIONS = 27, 35, 106
INT64 = 4


def shape_rules(hostile=False):
    """PAD, SLICE, TILE, MEAN, TRANSPOSE, SPLIT and ADD, each output shape
    from constants, and a CONV_3D (ta_tflite_shape.c checks them: 8 ops).
    hostile: the same recorded shapes, but constants no kernel takes
    (paddings, begin, size and multiples near 2^63, an axis past the rank,
    a perm that repeats an axis, a stride of 0): the reader must leave
    those ops unchecked (the runtime refuses them), without overflowing;
    ADD is still checked."""
    big = 2 ** 62
    pads = int64s(0, 0, big, big, 0, 2, 0, 0) if hostile else \
        int64s(0, 0, 1, 1, 0, 2, 0, 0)
    begin = int64s(0, 2 ** 63 - 1, 0, 0) if hostile else int64s(0, 1, 0, 0)
    size = int64s(-1, 2 ** 63 - 1, -1, -1) if hostile else int64s(-1, 4, -1, -1)
    mult = int64s(1, 1, 1, -2 ** 63) if hostile else int64s(1, 1, 1, 2)
    axes = int32s(1, 9) if hostile else int32s(1, -2)
    perm = int32s(0, 0, 0, 0) if hostile else int32s(0, 3, 1, 2)
    axis = int32s(-9) if hostile else int32s(1)
    main = subgraph("main", [
        tensor("x", [1, 4, 4, 2]),                  # 0
        tensor("paddings", [4, 2], INT64, pads),
        tensor("padded", [1, 6, 6, 2]),
        tensor("begin", [4], INT64, begin),
        tensor("size", [4], INT64, size),
        tensor("sliced", [1, 4, 6, 2]),             # 5
        tensor("multiples", [4], INT64, mult),
        tensor("tiled", [1, 4, 6, 4]),
        tensor("axes", [2], INT32, axes),
        tensor("mean", [1, 1, 1, 4]),
        tensor("perm", [4], INT32, perm),           # 10
        tensor("transposed", [1, 4, 1, 1]),
        tensor("axis", [], INT32, axis),
        tensor("half0", [1, 2, 1, 1]),
        tensor("half1", [1, 2, 1, 1]),
        tensor("sum", [1, 2, 1, 1]),                # 15
        # CONV_3D: VALID, strides d 2, w 2, h 1, the height dilated by 2
        # (hostile: a depth stride of 0)
        tensor("volume", [1, 5, 6, 7, 2]),
        tensor("filter", [2, 3, 3, 2, 4], FLOAT32, bytes(4 * 144)),
        tensor("convolved", [1, 2, 2, 3, 4]),
    ], [0, 16], [15, 18], [
        op(PAD, [0, 1], [2]),
        op(SLICE, [2, 3, 4], [5]),
        op(TILE, [5, 6], [7]),
        # keep_dims a one-byte bool, as converters write it
        op(MEAN, [7, 8], [9], (REDUCER_OPTIONS, [True], False)),
        op(TRANSPOSE, [9, 10], [11]),
        op(SPLIT, [12, 11], [13, 14], (SPLIT_OPTIONS, [2], False)),
        op(ADD, [13, 14], [15]),
        op(CONV_3D, [16, 17], [18], (CONV_3D_OPTIONS,
           [1, 0 if hostile else 2, 2, 1, 0, 1, 1, 2], False)),
    ])
    return ModelWriter().model([main])


# ... and of the index rules' models (ta_tflite_shape_index.c)
STRIDED_SLICE, SPLIT_V, TOPK_V2, EMBEDDING_LOOKUP = 45, 102, 48, 7
SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, BROADCAST_TO, FILL = 38, 37, 130, 94
SHAPE, RANK, ADD_N, REVERSE_V2, CUMSUM = 77, 110, 106, 105, 128
RANGE, ONE_HOT = 96, 85
STRIDED_SLICE_OPTIONS, SPLIT_V_OPTIONS, SHAPE_OPTIONS = 32, 79, 55
ONE_HOT_OPTIONS = 61


def index_rules(hostile=False):
    """STRIDED_SLICE, SPACE_TO_BATCH_ND, BATCH_TO_SPACE_ND, SPLIT_V,
    TOPK_V2, BROADCAST_TO, ADD_N, REVERSE_V2, CUMSUM, SHAPE, FILL,
    EMBEDDING_LOOKUP and RANK in a chain from x [1, 6, 8, 2], a RANGE and a
    ONE_HOT of constants: each output shape as TFLite's kernel computes it
    (15 ops checked; LiteRT runs it in the oracle). hostile: the same
    recorded shapes, but constants each kernel refuses (a stride of 0
    beside every mask bit, a block of 0, negative crops, two -1 sizes, k of
    -1, sizes past 2^31 and near 2^63, negative dims, a lookup of rank 2, a
    RANGE step of 0, a depth of -1): those 10 ops are left unchecked,
    without overflowing; the 5 without constants are still checked."""
    big = 2 ** 62
    h = hostile
    main = subgraph("main", [
        tensor("x", [1, 6, 8, 2]),                                  # 0
        # x[:, 1:5, ::2, -2^31:2^31 - 1] (hostile: a stride of 0)
        tensor("begin", [4], INT32, int32s(0, 1, 0, -2 ** 31)),
        tensor("end", [4], INT32, int32s(0, 5, 0, 2 ** 31 - 1)),
        tensor("strides", [4], INT32,
               int32s(1, 1, 0, 1) if h else int32s(1, 1, 2, 1)),
        tensor("sliced", [1, 4, 4, 2]),
        tensor("block", [2], INT32, int32s(0, 2) if h else int32s(2, 2)),  # 5
        tensor("pads", [2, 2], INT32, int32s(0, 0, 1, 1)),
        tensor("batched", [4, 2, 3, 2]),
        tensor("crops", [2, 2], INT32,
               int32s(0, 0, -1, 1) if h else int32s(0, 0, 1, 1)),
        tensor("unbatched", [1, 4, 4, 2]),
        tensor("sizes", [2], INT64,                                 # 10
               int64s(-1, -1) if h else int64s(1, -1)),
        tensor("axis", [], INT32, int32s(1)),
        tensor("first", [1, 1, 4, 2]),
        tensor("rest", [1, 3, 4, 2]),
        tensor("k", [], INT32, int32s(-1) if h else int32s(1)),
        tensor("values", [1, 3, 4, 1]),                             # 15
        tensor("indices", [1, 3, 4, 1], INT32),
        tensor("to", [4], INT64,
               int64s(2, 3, big, 2) if h else int64s(2, 3, 4, 2)),
        tensor("broadcast", [2, 3, 4, 2]),
        tensor("doubled", [1, 3, 4, 1]),
        tensor("reversed", [1, 3, 4, 1]),                           # 20
        tensor("summed", [1, 3, 4, 1]),
        tensor("shape", [4], INT32),
        tensor("dims", [2], INT32, int32s(2, -2) if h else int32s(2, 2)),
        tensor("value", [], FLOAT32, struct.pack("<f", 1.0)),
        tensor("filled", [2, 2]),                                   # 25
        tensor("lookup", [1, 1] if h else [1], INT32, int32s(0)),
        tensor("rows", [1, 6, 8, 2]),
        tensor("rank", [], INT32),
        tensor("reverse_axis", [1], INT32, int32s(1)),
        # RANGE(-3, 7, 2) (hostile: a step of 0); ONE_HOT of [0, 2] on
        # the first axis, depth 3 (hostile: -1)
        tensor("start", [], INT32, int32s(-3)),                     # 30
        tensor("limit", [], INT32, int32s(7)),
        tensor("step", [], INT32, int32s(0) if h else int32s(2)),
        tensor("ranged", [5], INT32),
        tensor("hot", [2], INT32, int32s(0, 2)),
        tensor("depth", [], INT32, int32s(-1) if h else int32s(3)),  # 35
        tensor("one", [], FLOAT32, struct.pack("<f", 1.0)),
        tensor("hot_table", [3, 2]),
    ], [0], [18, 21, 16, 22, 25, 27, 28, 33, 37], [
        # begin_mask and end_mask: axes 0 and 2 (hostile: every bit)
        op(STRIDED_SLICE, [0, 1, 2, 3], [4], (STRIDED_SLICE_OPTIONS,
           [-1, -1, 0, 0, 0] if h else [5, 5, 0, 0, 0], False)),
        op(SPACE_TO_BATCH_ND, [4, 5, 6], [7]),
        op(BATCH_TO_SPACE_ND, [7, 5, 8], [9]),
        op(SPLIT_V, [9, 10, 11], [12, 13], (SPLIT_V_OPTIONS, [2], False)),
        op(TOPK_V2, [13, 14], [15, 16]),
        op(BROADCAST_TO, [12, 17], [18]),
        op(ADD_N, [15, 15], [19]),
        op(REVERSE_V2, [19, 29], [20]),
        op(CUMSUM, [20, 11], [21]),
        op(SHAPE, [0], [22], (SHAPE_OPTIONS, [INT32], False)),
        op(FILL, [23, 24], [25]),
        op(EMBEDDING_LOOKUP, [26, 0], [27]),
        op(RANK, [0], [28]),
        op(RANGE, [30, 31, 32], [33]),
        op(ONE_HOT, [34, 35, 36, 24], [37], (ONE_HOT_OPTIONS, [0], False)),
    ])
    return ModelWriter().model([main])


# ... and of the folded shapes' model (ta_tflite_fold.c)
CONCATENATION, GATHER, PACK, SUB = 2, 36, 83, 41
PACK_OPTIONS, GATHER_OPTIONS, CONCAT_OPTIONS = 59, 23, 10


def folded_shapes(hostile=False):
    """shapes computed in the graph, as converters write them: SHAPE of x
    [2, 3, 4], its first dimension (STRIDED_SLICE, shrunk) PACKed with -1
    for a RESHAPE to [2, 12]; paddings an ADD makes for a PAD to [4, 15];
    BROADCAST_TO x's SHAPE; multiples a CONCATENATION of a constant and a
    GATHER of the SHAPE for a TILE to [2, 24]; dims a SLICE of the SHAPE
    for a FILL [3, 4]; the axes of a MEAN to [2], RANGE(1, RANK(x), 1).
    TFLite computes them when it prepares the model (or, ADD's and PACK's,
    when it runs: from the same values); the reader folds the 9 values and
    checks all 15 ops (without folding, PAD, BROADCAST_TO, TILE, FILL and
    MEAN were taken as recorded and RESHAPE checked on its elements only).
    hostile: the same recorded shapes, an ADD past 2^31, a GATHER past the
    shape, a SLICE past it with a begin of 32 values, a RANGE step of 0:
    those values stay unknown, PAD, TILE, SLICE, FILL, RANGE and MEAN
    unchecked, no overflow (the begin once overran a one-value buffer)."""
    h = hostile
    big = 2 ** 31 - 1
    main = subgraph("main", [
        tensor("x", [2, 3, 4]),                                     # 0
        tensor("shape", [3], INT32),
        tensor("zero", [1], INT32, int32s(0)),
        tensor("one", [1], INT32, int32s(1)),
        tensor("batch", [], INT32),
        tensor("minus_one", [], INT32, int32s(-1)),                 # 5
        tensor("new_shape", [2], INT32),
        tensor("flat", [2, 12]),
        tensor("pads_a", [2, 2], INT32,
               int32s(big, 1, 1, 0) if h else int32s(0, 1, 1, 0)),
        tensor("pads_b", [2, 2], INT32, int32s(1, 0, 0, 2)),
        tensor("pads", [2, 2], INT32),                              # 10
        tensor("padded", [4, 15]),
        tensor("row", [4], FLOAT32, bytes(16)),
        tensor("broadcast", [2, 3, 4]),
        tensor("first", [1], INT32, int32s(7) if h else int32s(0)),
        tensor("batch_again", [1], INT32),                          # 15
        tensor("multiples", [2], INT32),
        tensor("tiled", [2, 24]),
        tensor("two", [1], INT32, int32s(5) if h else int32s(2)),
        tensor("dims", [2], INT32),
        tensor("half", [], FLOAT32, struct.pack("<f", 0.5)),        # 20
        tensor("filled", [3, 4]),
        tensor("from", [32 if h else 1], INT32,
               int32s(*[1] * 32) if h else int32s(1)),
        tensor("rank", [], INT32),
        tensor("one_scalar", [], INT32, int32s(1)),                 # 24
        tensor("step", [], INT32, int32s(0) if h else int32s(1)),
        tensor("axes", [2], INT32),
        tensor("mean", [2]),
    ], [0], [11, 13, 17, 21, 27], [
        op(SHAPE, [0], [1], (SHAPE_OPTIONS, [INT32], False)),
        op(STRIDED_SLICE, [1, 2, 3, 3], [4],
           (STRIDED_SLICE_OPTIONS, [0, 0, 0, 0, 1], False)),
        op(PACK, [4, 5], [6], (PACK_OPTIONS, [2, 0], False)),
        op(RESHAPE, [0, 6], [7]),
        op(ADD, [8, 9], [10]),
        op(PAD, [7, 10], [11]),
        op(BROADCAST_TO, [12, 1], [13]),
        op(GATHER, [1, 14], [15], (GATHER_OPTIONS, [0, 0], False)),
        op(CONCATENATION, [3, 15], [16], (CONCAT_OPTIONS, [0, 0], False)),
        op(TILE, [7, 16], [17]),
        op(SLICE, [1, 22, 18], [19]),
        op(FILL, [19, 20], [21]),
        op(RANK, [0], [23]),
        op(RANGE, [24, 23, 25], [26]),
        op(MEAN, [0, 26], [27], (REDUCER_OPTIONS, [False], False)),
    ])
    return ModelWriter().model([main])


def data_shapes():
    """values from the model's data (its input k) where TFLite does not
    size an output from them: a SLICE's size (TFLite keeps the recorded
    shape of a SLICE whose size is no constant), GATHER's indices (their
    shape counts, not their values); and a SHAPE of such a value, which is
    no data (a FILL sized by it is checked). With x's SHAPE for a RESHAPE:
    6 of 7 ops checked, 2 values folded, the model accepted (LiteRT runs it
    on zeros at its recorded shapes)"""
    main = subgraph("main", [
        tensor("x", [2, 3, 4]),                                     # 0
        tensor("k", [3], INT32),
        tensor("shape", [3], INT32),
        tensor("y", [2, 3, 4]),
        tensor("one", [3], INT32, int32s(1, 1, 1)),
        tensor("size", [3], INT32),                                 # 5
        tensor("begin", [3], INT32, int32s(0, 0, 0)),
        tensor("z", [1, 1, 1]),
        tensor("size_shape", [1], INT32),
        tensor("half", [], FLOAT32, struct.pack("<f", 0.5)),
        tensor("filled", [3]),                                      # 10
        tensor("table", [4, 2], FLOAT32, bytes(32)),
        tensor("rows", [3, 2]),
    ], [0, 1], [7, 10, 12], [
        op(SHAPE, [0], [2], (SHAPE_OPTIONS, [INT32], False)),
        op(RESHAPE, [0, 2], [3]),
        op(ADD, [1, 4], [5]),
        op(SLICE, [3, 6, 5], [7]),
        op(SHAPE, [5], [8], (SHAPE_OPTIONS, [INT32], False)),
        op(FILL, [8, 9], [10]),
        op(GATHER, [11, 1], [12], (GATHER_OPTIONS, [0, 0], False)),
    ])
    return ModelWriter().model([main])


def data_paddings():
    """a PAD whose paddings an ADD computes from the model's input k:
    TFLite sizes its output only when the model runs, from what k is fed
    (the recorded [1, 3, 4, 2] holds zero paddings only): refused at the
    PAD, naming its input 1, tensor 3"""
    main = subgraph("main", [
        tensor("x", [1, 3, 4, 2]),
        tensor("k", [4, 2], INT32),
        tensor("zero", [4, 2], INT32, int32s(*[0] * 8)),
        tensor("paddings", [4, 2], INT32),
        tensor("padded", [1, 3, 4, 2]),
    ], [0, 1], [4], [op(ADD, [1, 2], [3]), op(PAD, [0, 3], [4])])
    return ModelWriter().model([main])


def gather_type():
    """a GATHER of FLOAT32 rows recorded INT16: TFLite's kernel makes its
    output its input's type and sizes it so, 48 bytes where 24 are
    recorded: refused at the GATHER"""
    main = subgraph("main", [
        tensor("table", [5, 4]),
        tensor("indices", [3], INT32, int32s(0, 4, 1)),
        tensor("rows", [3, 4], INT16),
    ], [0], [2], [op(GATHER, [0, 1], [2], (GATHER_OPTIONS, [0, 0], False))])
    return ModelWriter().model([main])


def reshape_type():
    """a RESHAPE of [2, 3] FLOAT32 into [6] recorded INT8: TFLite's kernel
    assigns no type and checks none, and copies the input's 24 bytes where
    6 are recorded (TFLite Micro copies the input's element count times
    its type's size): refused at the RESHAPE"""
    main = subgraph("main", [
        tensor("x", [2, 3]),
        tensor("shape", [1], INT32, int32s(6)),
        tensor("flat", [6], INT8),
    ], [0], [2], [op(RESHAPE, [0, 1], [2])])
    return ModelWriter().model([main])


def reshape_arranged():
    """RESHAPE [2, 3] by the shape [2, 3], recorded [3, 2]: as many bytes,
    but TFLite's kernel writes [2, 3], so the PAD after it (5 rows more)
    writes [7, 3], 21 floats, where [8, 2], 16, are recorded: refused at
    the RESHAPE"""
    main = subgraph("main", [
        tensor("x", [2, 3]),
        tensor("shape", [2], INT32, int32s(2, 3)),
        tensor("y", [3, 2]),
        tensor("paddings", [2, 2], INT32, int32s(0, 5, 0, 0)),
        tensor("padded", [8, 2]),
    ], [0], [4], [op(RESHAPE, [0, 1], [2]), op(PAD, [2, 3], [4])])
    return ModelWriter().model([main])


MODELS = {
    "control_flow.tflite": control_flow,
    "if_same_branch.tflite": if_same_branch,
    "offline_meta.tflite": offline_meta,
    "offline_two.tflite": offline_two,
    "recursive.tflite": recursive,
    "unknown_call.tflite": unknown_call,
    "too_deep.tflite": too_deep,
    "bad_index.tflite": bad_index,
    "vela_layout.tflite": vela_layout,
    "vela_inside.tflite": vela_inside,
    "shape_rules.tflite": shape_rules,
    "shape_rules_hostile.tflite": lambda: shape_rules(True),
    "index_rules.tflite": index_rules,
    "index_rules_hostile.tflite": lambda: index_rules(True),
    "folded_shapes.tflite": folded_shapes,
    "folded_shapes_hostile.tflite": lambda: folded_shapes(True),
    "data_shapes.tflite": data_shapes,
    # not where the LiteRT oracle looks (tests/tflite-oracle/): LiteRT
    # runs it at its recorded shapes (its XNNPACK path), as TFLite Micro
    # would; TFLite's own RESHAPE kernel does not
    "refused/reshape_arranged.tflite": reshape_arranged,
    # refused, and LiteRT fed zeros runs it at its recorded shapes: the
    # oracle feeds its own such models other values (SYNTHETIC's Fed)
    "refused/data_paddings.tflite": data_paddings,
    "refused/gather_type.tflite": gather_type,
    "refused/reshape_type.tflite": reshape_type,
}


def main():
    out = sys.argv[1] if len(sys.argv) > 1 else \
        os.path.dirname(os.path.abspath(__file__))
    for name, build in MODELS.items():
        os.makedirs(os.path.dirname(os.path.join(out, name)), exist_ok=True)
        with open(os.path.join(out, name), "wb") as f:
            f.write(build())


if __name__ == "__main__":
    main()
