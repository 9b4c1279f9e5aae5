#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Write the hand-made seeds of tests/fuzz/corpus/<target>/.

Deterministic: run it again and the seed-* files come out the same. The
corpus directories also hold a few inputs the fuzzers found themselves
(named by their SHA-1, as libFuzzer names them); this script leaves those
alone.

  tests/fuzz/make-seeds.py [CORPUS_DIR]
"""
import os
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))


def write(root, target, name, data):
    d = os.path.join(root, target)
    os.makedirs(d, exist_ok=True)
    if isinstance(data, str):
        data = data.encode()
    with open(os.path.join(d, "seed-" + name), "wb") as f:
        f.write(data)


# ---- fuzz_planner: the byte format of fuzz_planner.c's decoder ----

def size_bytes(size):
    """fuzz_size(): k < 0xe0 gives u16 * ((k & 3) + 1); k in [0xe0, 0xf0) 0."""
    if size == 0:
        return bytes([0xe0])
    for mul in range(1, 5):
        if size % mul == 0 and size // mul < 65536:
            return bytes([mul - 1]) + struct.pack("<H", size // mul)
    raise ValueError(size)


def align_bytes(align):
    return bytes([align.bit_length() - 1])  # 1 << (k % 8), align <= 128


FLAG = {"": 0x00, "input": 0xa0, "output": 0xa1, "constant": 0xa2,
        "persistent": 0xa3}


def ref_bytes(t, n):
    """A ref to tensor t of n, explicitly: 0xf0..0xfe are b % n, 0xff a u32."""
    for b in range(0xf0, 0xff):
        if b % n == t:
            return bytes([b])
    return b"\xff" + struct.pack("<I", t)


def planner_graph(tensors, ops, graph_form=True):
    """tensors: [(size, align, flag)], ops: [([inputs], [outputs])]."""
    n = len(tensors)
    b = bytes([0x02 if graph_form else 0x00, 0x01, n - 1, len(ops) - 1])
    for size, align, flag in tensors:
        b += bytes([FLAG[flag]]) + size_bytes(size) + align_bytes(align)
    for ins, outs in ops:
        b += bytes([len(ins), len(outs)])
        for t in ins + outs:
            b += ref_bytes(t, n)
    return b


def planner_trace(bufs):
    """bufs: [(size, align, start, length)] with start < 32, length <= 16."""
    b = bytes([0x03, len(bufs) - 1])
    for size, align, start, length in bufs:
        b += bytes([0x00]) + size_bytes(size) + align_bytes(align)
        b += bytes([start, length - 1])
    return b


def planner_seeds(root):
    t = "fuzz_planner"
    # a chain: x -> a -> b -> y
    chain_t = [(1000, 16, "input"), (2000, 16, ""), (1500, 16, ""),
               (100, 16, "output")]
    chain_o = [([0], [1]), ([1], [2]), ([2], [3])]
    write(root, t, "chain", planner_graph(chain_t, chain_o))
    write(root, t, "chain-trace-form", planner_graph(chain_t, chain_o, False))
    # a residual block with weights
    res_t = [(3000, 64, "input"), (500, 16, "constant"), (500, 16, "constant"),
             (3000, 64, ""), (3000, 64, ""), (3000, 64, "output")]
    res_o = [([0, 1], [3]), ([3, 2], [4]), ([0, 4], [5])]
    write(root, t, "residual", planner_graph(res_t, res_o))
    # two branches that join (pingpong finds them)
    br_t = [(4096, 1, "input"), (100, 4, ""), (200, 4, ""), (300, 4, ""),
            (400, 4, ""), (500, 4, ""), (60, 8, "output")]
    br_o = [([0], [1]), ([1], [2]), ([0], [3]), ([3], [4]),
            ([2, 4], [5]), ([5], [6])]
    write(root, t, "branches", planner_graph(br_t, br_o))
    # persistent state, zero-size tensor, an op with two outputs
    st_t = [(64, 1, "input"), (256, 32, "persistent"), (0, 1, ""),
            (128, 8, ""), (128, 8, ""), (64, 2, "output")]
    st_o = [([0, 1], [1, 2]), ([2], [3, 4]), ([3, 4], [5])]
    write(root, t, "state-zero-multi", planner_graph(st_t, st_o))
    # ten equal tensors in a chain: more than stack's exhaustive limit
    n = 12
    lt = [(256, 16, "input")] + [(256 * (1 + i % 3), 16, "")
                                 for i in range(n - 2)] + [(16, 16, "output")]
    lo = [([i], [i + 1]) for i in range(n - 1)]
    write(root, t, "long-chain", planner_graph(lt, lo))
    # invalid: read before produced, produced twice, unreferenced
    write(root, t, "bad-read-early",
          planner_graph([(10, 1, ""), (10, 1, "")], [([1], [0]), ([0], [1])]))
    write(root, t, "bad-twice",
          planner_graph([(10, 1, "input"), (10, 1, "")],
                        [([0], [1]), ([0], [1])]))
    # traces: the classic 12-buffer example, interval stacks, alignment
    ex = [(4, 1, 0, 3), (4, 1, 3, 6), (4, 1, 0, 9), (4, 1, 9, 12),
          (8, 1, 2, 4), (8, 1, 4, 9), (8, 1, 12, 4), (4, 1, 6, 5),
          (12, 1, 1, 3), (4, 1, 15, 2), (16, 1, 5, 2), (4, 1, 10, 6)]
    write(root, t, "trace-example", planner_trace(ex))
    write(root, t, "trace-aligned",
          planner_trace([(100, 128, 0, 4), (3, 64, 1, 2), (77, 32, 2, 5),
                         (4096, 128, 3, 1), (1, 1, 0, 16), (0, 8, 5, 3)]))
    write(root, t, "trace-many",
          planner_trace([((i * 37) % 500 + 1, 1 << (i % 5), (i * 7) % 30,
                          1 + (i * 5) % 16) for i in range(24)]))


# ---- fuzz_graphfile ----

GRAPHS = {
    "residual": """tensorarena-graph 1
# a residual block
tensor x     150528  input align=64
tensor w1    9408    constant
tensor w2    9408    constant
tensor h1    802816
tensor h2    802816
tensor y     802816  output
op conv1 x w1 -> h1
op conv2 h1 w2 -> h2
op add   x h2 -> y
""",
    "flags-suffixes": "tensorarena-graph 1\r\n"
        "tensor in 1K input align=16\r\n"
        "tensor state 2k persistent align=4096\r\n"
        "tensor big 3M\r\n"
        "tensor huge 1G output align=1\r\n"
        "tensor empty 0\r\n"
        "tensor both 7 input output\r\n"
        "op a in state -> big empty\r\n"
        "op b big both -> huge state\r\n",
    "no-inputs-outputs": "tensorarena-graph 1\n"
        "tensor a 10\ntensor b 20 output\n"
        "op make -> a\nop use a ->\nop again -> b\n",
    "tabs-comments": "  tensorarena-graph\t1   # magic\n\n"
        "tensor\tt1\t5\tinput # comment\n#tensor x 1\n"
        "tensor t2 9223372036854775807\n"
        "op\tdo\tt1\t->\tt2\n",
    "bad-twice": "tensorarena-graph 1\ntensor x 1 input\n"
        "tensor y 1\nop a x -> y\nop b x -> y\n",
    "bad-undeclared": "tensorarena-graph 1\ntensor x 1 input\nop a x -> z\n",
    "bad-align": "tensorarena-graph 1\ntensor x 1 input align=3\n"
        "tensor y 8 align=8589934592\nop a x -> y\n",
    "bad-size": "tensorarena-graph 1\n"
        "tensor x 18446744073709551615K input\nop a x ->\n",
    "bad-magic": "tensorarena-graph 2\ntensor x 1\n",
}


def graphfile_seeds(root):
    for name, text in GRAPHS.items():
        write(root, "fuzz_graphfile", name, text)
    # a longer chain with branches
    lines = ["tensorarena-graph 1", "tensor t0 4096 input align=16"]
    for i in range(1, 40):
        lines.append(f"tensor t{i} {(i * 1237) % 9000 + 1} align={1 << (i % 6)}"
                     + (" output" if i == 39 else ""))
    for i in range(1, 40):
        ins = f"t{i - 1}" + (f" t{i - 3}" if i >= 3 and i % 4 == 0 else "")
        lines.append(f"op op{i} {ins} -> t{i}")
    write(root, "fuzz_graphfile", "chain40", "\n".join(lines) + "\n")


# ---- fuzz_trace ----

TRACES = {
    "example": """id,lower,upper,size
b1,0,3,4
b2,3,9,4
b3,0,9,4
b4,9,21,4
b5,2,6,8
b6,4,13,8
b7,12,16,8
b8,6,11,4
b9,1,4,12
b10,15,17,4
b11,5,7,16
b12,10,16,4
""",
    "all-columns": "# a comment\r\noffset, size ,alignment,upper,lower,id\r\n"
        "0,100,64,5,0,a\r\n128,27,1,3,1, b \r\n\r\n0,0,8,9,6,empty\r\n",
    "align-alias": "id,lower,upper,size,align\nx,0,1,1,4096\ny,0,2,18446744073709551615,1\n",
    "alias-classes": "id,lower,upper,size,alignment,offset,alias\n"
        "a,0,2,64,16,0,0\nb,1,3,64,64,0,0\nc,0,3,32,1,64,2\nd,2,4,64,1,0,0\n",
    "alias-bad": "id,lower,upper,size,offset,alias\n"
        "a,0,2,64,0,1\nb,1,3,64,0,0\nc,0,3,32,64,0\n",
    "bad-fields": "id,lower,upper,size\na,0,1\n",
    "bad-number": "id,lower,upper,size\na,0,1,-5\n",
    "bad-header": "id,lower,upper,size,size\n",
    "bad-lifetime": "id,lower,upper,size\na,5,5,1\nb,7,3,1\nc,0,4294967296,1\n",
    "big-limits": "id,lower,upper,size,alignment\na,0,16777217,1,1\n"
        "b,0,1,9223372036854775808,1\nc,0,1,1,8589934592\n",
}


def trace_seeds(root):
    for name, text in TRACES.items():
        write(root, "fuzz_trace", name, text)
    head = ["id,lower,upper,size"] + [
        f"{i},{(i * 3) % 50},{(i * 3) % 50 + 1 + (i * 7) % 20},{(i * 977) % 100000}"
        for i in range(60)]
    write(root, "fuzz_trace", "sixty", "\n".join(head) + "\n")


# ---- fuzz_tflite: a tiny FlatBuffer builder (as tests/unit/test_tflite.c) --

class FBB:
    """Objects laid out front to back; offsets always point forward."""

    def __init__(self):
        self.b = bytearray()

    def alloc(self, size):
        while len(self.b) % 4:
            self.b.append(0)
        p = len(self.b)
        self.b += bytes(size)
        return p

    def put32(self, at, v):
        self.b[at:at + 4] = struct.pack("<I", v & 0xffffffff)

    def ref(self, at, target):
        self.put32(at, target - at)

    def table(self, fields):
        """fields: list of field byte sizes (None = absent), 4-byte slots."""
        nf = len(fields)
        vt = self.alloc(4 + 2 * nf)
        struct.pack_into("<HH", self.b, vt, 4 + 2 * nf, 4 + 4 * nf)
        for i, f in enumerate(fields):
            struct.pack_into("<H", self.b, vt + 4 + 2 * i,
                             0 if f is None else 4 + 4 * i)
        t = self.alloc(4 + 4 * nf)
        struct.pack_into("<i", self.b, t, t - vt)
        return t

    @staticmethod
    def field(table, i):
        return table + 4 + 4 * i

    def vec32(self, values):
        p = self.alloc(4 + 4 * len(values))
        self.put32(p, len(values))
        for i, v in enumerate(values):
            self.put32(p + 4 + 4 * i, v)
        return p

    def bytes_(self, data):
        p = self.alloc(4 + len(data) + 1)
        self.put32(p, len(data))
        self.b[p + 4:p + 4 + len(data)] = data
        return p

    def table_vec(self, n):
        v = self.alloc(4 + 4 * n)
        self.put32(v, n)
        return v


def tflite_model(tensors, ops, opcodes, inputs, outputs, buffers,
                 n_subgraphs=1):
    """tensors: [(shape, type, buffer, name, var)]; ops: [(opcode, ins, outs)];
    opcodes: [(deprecated, builtin, custom)]; buffers: [data_len]."""
    f = FBB()
    f.alloc(8)
    f.b[4:8] = b"TFL3"
    model = f.table([4, 4, 4, None, 4])   # version, codes, subgraphs, -, buffers
    f.ref(0, model)
    f.put32(f.field(model, 0), 3)
    v = f.table_vec(len(opcodes))
    f.ref(f.field(model, 1), v)
    for i, (dep, builtin, custom) in enumerate(opcodes):
        oc = f.table([1, None if custom is None else 4, None,
                      None if builtin is None else 4])
        f.ref(v + 4 + 4 * i, oc)
        f.b[f.field(oc, 0)] = dep & 0xff
        if builtin is not None:
            f.put32(f.field(oc, 3), builtin)
        if custom is not None:
            f.ref(f.field(oc, 1), f.bytes_(custom))
    sgv = f.table_vec(n_subgraphs)
    f.ref(f.field(model, 2), sgv)
    for s in range(n_subgraphs):
        sg = f.table([4, 4, 4, 4])
        f.ref(sgv + 4 + 4 * s, sg)
        tv = f.table_vec(len(tensors))
        f.ref(f.field(sg, 0), tv)
        for i, (shape, typ, buf, name, var) in enumerate(tensors):
            t = f.table([4, 1, 4, 4, None, 1])
            f.ref(tv + 4 + 4 * i, t)
            f.ref(f.field(t, 0), f.vec32(shape))
            f.b[f.field(t, 1)] = typ
            f.put32(f.field(t, 2), buf)
            f.ref(f.field(t, 3), f.bytes_(name))
            f.b[f.field(t, 5)] = var
        f.ref(f.field(sg, 1), f.vec32(inputs))
        f.ref(f.field(sg, 2), f.vec32(outputs))
        ov = f.table_vec(len(ops))
        f.ref(f.field(sg, 3), ov)
        for i, (code, ins, outs) in enumerate(ops):
            o = f.table([4, 4, 4])
            f.ref(ov + 4 + 4 * i, o)
            f.put32(f.field(o, 0), code)
            f.ref(f.field(o, 1), f.vec32(ins))
            f.ref(f.field(o, 2), f.vec32(outs))
    bv = f.table_vec(len(buffers))
    f.ref(f.field(model, 4), bv)
    for i, n in enumerate(buffers):
        b = f.table([None if n <= 0 else 4, None, 8 if n < 0 else None, None])
        f.ref(bv + 4 + 4 * i, b)
        if n > 0:
            f.ref(f.field(b, 0), f.bytes_(bytes(n)))
        if n < 0:   # data outside the file: Buffer.size (a u64 at field 2)
            struct.pack_into("<Q", f.b, f.field(b, 2), -n)
    return bytes(f.b)


def tflite_seeds(root):
    t = "fuzz_tflite"
    # the unit test's tiny model: FULLY_CONNECTED then SVDF
    write(root, t, "tiny", tflite_model(
        tensors=[([1, 8], 9, 0, b"input x", 0), ([8, 8], 9, 1, b"weights", 0),
                 ([1, 8], 7, 0, b"hidden#1", 0), ([1, 4], 0, 0, b"state", 1),
                 ([1, 2], 0, 0, b"out", 0), ([3, 0], 2, 0, b"unused", 0)],
        ops=[(0, [0, 1, 0xffffffff], [2]), (1, [2, 3, 0], [4])],
        opcodes=[(9, 9, None), (27, None, None)],
        inputs=[0], outputs=[4], buffers=[0, 64]))
    # a conv chain with every element type the reader sizes
    types = [0, 1, 2, 3, 4, 6, 7, 9, 10, 15, 16, 17, 18, 8, 11, 12]
    tens = [([1, 4, 4, 3], 3, 0, b"image", 0)]
    ops = []
    for i, ty in enumerate(types):
        tens.append(([1, 2 + i % 3, 2, 1 + i], ty, 0, b"t%d" % i, 0))
        ops.append((i % 3, [i], [i + 1]))
    write(root, t, "types-chain", tflite_model(
        tensors=tens, ops=ops,
        opcodes=[(3, 3, None), (4, 4, None), (32, 32, b"MyCustomOp")],
        inputs=[0], outputs=[len(types)], buffers=[0]))
    # large builtin code (new-style only), external buffer (size field),
    # two subgraphs, a variable with initial data
    write(root, t, "codes-buffers", tflite_model(
        tensors=[([2, 2], 0, 0, b"in", 0), ([2, 2], 0, 1, b"ext", 0),
                 ([4], 0, 2, b"var", 1), ([2, 2], 0, 0, b"out", 0)],
        ops=[(0, [0, 1, 2], [3]), (1, [3], [2])],
        opcodes=[(127, 150, None), (0, 200, None)],
        inputs=[0], outputs=[3], buffers=[0, -1 << 20, 16],
        n_subgraphs=2))
    # rejected: dynamic shape; a written input
    write(root, t, "bad-dynamic", tflite_model(
        tensors=[([0xffffffff, 4], 0, 0, b"in", 0), ([4], 0, 0, b"out", 0)],
        ops=[(0, [0], [1])], opcodes=[(0, 0, None)],
        inputs=[0], outputs=[1], buffers=[0]))
    write(root, t, "bad-written-input", tflite_model(
        tensors=[([4], 0, 0, b"in", 0), ([4], 0, 0, b"out", 0)],
        ops=[(0, [1], [0])], opcodes=[(0, 0, None)],
        inputs=[0], outputs=[1], buffers=[0]))
    # the hand-made models of tests/data (tests/data/make-tflite-models.py):
    # control flow inlined or refused, OfflineMemoryAllocation metadata
    data = os.path.join(HERE, "..", "data")
    for name in sorted(os.listdir(data)):
        if name.endswith(".tflite"):
            with open(os.path.join(data, name), "rb") as fh:
                write(root, t, name, fh.read())
    smallest = "/work/shared/models/hello_world_mlp_f32.tflite"
    if os.path.exists(smallest):
        with open(smallest, "rb") as fh:
            write(root, t, "hello_world_mlp_f32.tflite", fh.read())


# ---- fuzz_onnx: the shared ONNX models, made small ----

def pb_varint(v):
    out = bytearray()
    while True:
        b = v & 0x7f
        v >>= 7
        out.append(b | (0x80 if v else 0))
        if not v:
            return bytes(out)


def pb_field(num, wire, payload):
    """One field: a varint value (wire 0) or bytes (wire 2)."""
    if wire == 0:
        return pb_varint(num << 3) + pb_varint(payload & ((1 << 64) - 1))
    return pb_varint(num << 3 | 2) + pb_varint(len(payload)) + payload


def pb_fields(buf):
    """[(number, wire, value, raw bytes of the whole field)]."""
    out, pos = [], 0
    while pos < len(buf):
        start = pos
        key, pos = pb_read_varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, pos = pb_read_varint(buf, pos)
        elif wire == 2:
            n, pos = pb_read_varint(buf, pos)
            val, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            val, pos = buf[pos:pos + 4], pos + 4
        else:
            val, pos = buf[pos:pos + 8], pos + 8
        out.append((num, wire, val, buf[start:pos]))
    return out


def pb_read_varint(buf, pos):
    val = shift = 0
    while True:
        b = buf[pos]
        pos += 1
        val |= (b & 0x7f) << shift
        shift += 7
        if b < 0x80:
            return val, pos


def onnx_shrink(data):
    """The model with every initializer over 64 bytes of data replaced by
    a ConstantOfShape node (as onnx's 'light' test models are made): the
    same graph and shapes in a few KiB."""
    model = pb_fields(data)
    out = bytearray()
    for num, _, val, raw in model:
        if num != 7:
            out += raw
            continue
        nodes, rest, made = bytearray(), bytearray(), set()
        graph = pb_fields(val)
        for gnum, _, gval, graw in graph:
            if gnum != 5:
                (nodes if gnum == 1 else rest).extend(graw)
                continue
            t = pb_fields(gval)
            dims = [v for n, w, v, _ in t if n == 1 and w == 0]
            name = [v for n, _, v, _ in t if n == 8][0]
            dtype = [v for n, _, v, _ in t if n == 2][0]
            data_len = sum(len(v) for n, w, v, _ in t if w == 2 and n != 8)
            if data_len <= 64 or len(dims) != sum(1 for n, *_ in t if n == 1):
                rest += graw
                continue
            made.add(name)
            shape = name + b"__SHAPE"
            rest += pb_field(5, 2, pb_field(1, 0, len(dims)) +
                             pb_field(2, 0, 7) + pb_field(8, 2, shape) +
                             b"".join(pb_field(7, 0, d) for d in dims))
            value = pb_field(1, 0, 1) + pb_field(2, 0, dtype) + \
                pb_field(9, 2, bytes(4 if dtype == 1 else 8))
            attr = pb_field(1, 2, b"value") + pb_field(5, 2, value) + \
                pb_field(20, 0, 4)
            nodes[0:0] = pb_field(1, 2, pb_field(1, 2, shape) +
                                  pb_field(2, 2, name) +
                                  pb_field(4, 2, b"ConstantOfShape") +
                                  pb_field(5, 2, attr))
        # before IR 4 initializers are graph inputs too: not these now
        kept = bytearray()
        for gnum, _, gval, graw in pb_fields(bytes(rest)):
            if gnum == 11 and [v for n, _, v, _ in pb_fields(gval)
                               if n == 1][0] in made:
                continue
            kept += graw
        out += pb_field(7, 2, bytes(nodes + kept))
    return bytes(out)


def onnx_seeds(root):
    t = "fuzz_onnx"
    for name in ("mnist_cnn", "inception_v1_light", "ultraface_rfb320"):
        path = "/work/shared/models/%s.onnx" % name
        if not os.path.exists(path):
            continue
        with open(path, "rb") as fh:
            data = fh.read()
        small = onnx_shrink(data)
        if len(small) <= 65536:
            write(root, t, name + ".onnx", small)


# ---- fuzz_group: the byte format of fuzz_group.c's decoder ----

def group_size(size):
    """fg_size(): 0x20..0xf7 then a u16 gives 1 + u16 % 2048; below 0x20 0."""
    if size == 0:
        return bytes([0x00])
    return bytes([0x40]) + struct.pack("<H", size - 1)


def group_graph(lane, sizes, const_first=False, inplace=()):
    """A chain member: tensor 0 the input, the last the output."""
    b = bytes([lane << 1, len(sizes) - 2])
    for i, size in enumerate(sizes):
        flags = 1 if (i == 0 and const_first) else 0
        b += bytes([flags]) + group_size(size) + bytes([0])  # align 1
    for i in range(len(sizes) - 1):
        b += bytes([2 if i in inplace else 0])
    return b


def group_trace(lane, bufs, alias=False):
    """bufs: [(size, start, length)], start < 8, length <= 6."""
    b = bytes([lane << 1 | 1, len(bufs), 0xff if alias else 0])
    for size, start, length in bufs:
        b += bytes([start | (length - 1) << 3]) + group_size(size) + bytes([2])
    return b


def group_input(members, links=(), shared=(), strategy=0, nudge=(0, 0, 0),
                extend=(0, 0)):
    b = bytes([len(members) - 1]) + b"".join(members)
    b += bytes([len(links)]) + b"".join(bytes(l) for l in links)
    b += bytes([len(shared)]) + b"".join(bytes(s) for s in shared)
    b += bytes([strategy]) + bytes(nudge)
    b += bytes([extend[0]]) + struct.pack("<H", extend[1])
    return b


def group_seeds(root):
    t = "fuzz_group"
    chain = [100, 300, 200, 50]
    write(root, t, "pipeline", group_input(
        [group_graph(0, chain), group_graph(0, [50, 400, 10]),
         group_graph(0, [10, 20, 700])],
        links=[(0, 3, 1, 0), (1, 2, 2, 0)], extend=(1, 64)))
    write(root, t, "concurrent-shared", group_input(
        [group_graph(0, chain), group_graph(1, [50, 400, 400, 10])],
        shared=[(0, 1, 7, 0), (1, 2, 7, 0)], strategy=1, extend=(0, 500)))
    write(root, t, "cross-lane-link", group_input(
        [group_graph(0, chain, inplace=(1,)), group_graph(2, [50, 60])],
        links=[(0, 3, 1, 0)], strategy=3, nudge=(1, 1, 0)))
    write(root, t, "traces-alias", group_input(
        [group_trace(0, [(64, 0, 2), (64, 1, 3), (32, 2, 2)], alias=True),
         group_trace(0, [(128, 0, 1), (16, 0, 6)])], strategy=2,
        nudge=(2, 3, 4), extend=(0, 0)))
    # the old member has no tensor and the capacity is 0
    write(root, t, "extend-empty-old", group_input(
        [group_trace(0, []), group_trace(0, [(1, 0, 1)])], extend=(0, 0)))
    write(root, t, "bad-link", group_input(
        [group_graph(0, chain), group_graph(0, chain)],
        links=[(1, 3, 0, 0), (0, 1, 1, 1)]))


def main():
    root = sys.argv[1] if len(sys.argv) > 1 else os.path.join(HERE, "corpus")
    planner_seeds(root)
    graphfile_seeds(root)
    trace_seeds(root)
    tflite_seeds(root)
    onnx_seeds(root)
    group_seeds(root)


if __name__ == "__main__":
    main()
