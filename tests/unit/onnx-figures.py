#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Figures of an ONNX model, computed apart from ta_onnx.c to check it.

Python's standard library only: its own protobuf decoding, its own shape
inference for the op types of ../shared/models/*.onnx, the same rules as
Documentation/onnx.md (a node whose inputs are all constant is folded; the
graph's tensors are those a node that is not folded uses; lifetimes as
ta_graph_lifetimes()). Prints per model: tensors, ops, initializers,
constants, folded nodes, in-place ops, and the lower bound (most bytes live
at one step) with and without the constants.

  tests/unit/onnx-figures.py MODEL.onnx...
"""
import math
import struct
import sys

ELEM = {1: 4, 2: 1, 3: 1, 4: 2, 5: 2, 6: 4, 7: 8, 9: 1, 10: 2, 11: 8,
        12: 4, 13: 8, 16: 2}


def fields(buf):
    """[(number, wire type, value)] of one message."""
    out, pos = [], 0
    while pos < len(buf):
        key, pos = varint(buf, pos)
        num, wire = key >> 3, key & 7
        if wire == 0:
            val, pos = varint(buf, pos)
        elif wire == 2:
            n, pos = varint(buf, pos)
            val, pos = buf[pos:pos + n], pos + n
        elif wire == 5:
            val, pos = buf[pos:pos + 4], pos + 4
        elif wire == 1:
            val, pos = buf[pos:pos + 8], pos + 8
        else:
            raise ValueError("wire type %d" % wire)
        out.append((num, wire, val))
    return out


def varint(buf, pos):
    val = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        val |= (byte & 0x7f) << shift
        shift += 7
        if byte < 0x80:
            return val, pos


def signed(v):
    return v - (1 << 64) if v >= 1 << 63 else v


def one(fs, num, default=None):
    vals = [v for n, _, v in fs if n == num]
    return vals[-1] if vals else default


def many(fs, num):
    return [v for n, _, v in fs if n == num]


def ints(fs, num):
    out = []
    for n, w, v in fs:
        if n != num:
            continue
        if w == 0:
            out.append(signed(v))
        else:
            pos = 0
            while pos < len(v):
                x, pos = varint(v, pos)
                out.append(signed(x))
    return out


def tensor_proto(buf):
    fs = fields(buf)
    dims = ints(fs, 1)
    dtype = one(fs, 2, 0)
    vals = None
    if dtype == 7:
        raw = one(fs, 9)
        vals = (list(struct.unpack("<%dq" % (len(raw) // 8), raw))
                if raw is not None else ints(fs, 7))
    return one(fs, 8, b"").decode(), dtype, dims, vals


def value_info(buf):
    fs = fields(buf)
    name = one(fs, 1).decode()
    tt = fields(one(fields(one(fs, 2)), 1))
    dims = []
    for d in many(fields(one(tt, 2)), 1):
        df = fields(d)
        dims.append(one(df, 1, 1))     # a symbolic dim is taken as 1
    return name, one(tt, 1), dims


def attrs(node_fs):
    out = {}
    for a in many(node_fs, 5):
        af = fields(a)
        name = one(af, 1).decode()
        typ = one(af, 20)
        if typ == 2:
            out[name] = signed(one(af, 3))
        elif typ == 7:
            out[name] = ints(af, 8)
        elif typ == 3:
            out[name] = one(af, 4).decode()
        elif typ == 4:
            out[name] = tensor_proto(one(af, 5))
        elif typ == 1:
            out[name] = struct.unpack("<f", one(af, 2))[0]
    return out


def window(x, k, a, dil=True):
    """Output spatial dims of a conv or pool."""
    nsp = len(x) - 2
    strides = a.get("strides", [1] * nsp)
    dils = a.get("dilations", [1] * nsp) if dil else [1] * nsp
    pads = a.get("pads", [0] * (2 * nsp))
    auto = a.get("auto_pad", "NOTSET")
    out = []
    for i in range(nsp):
        ek = (k[i] - 1) * dils[i] + 1
        if auto.startswith("SAME"):
            out.append(-(-x[2 + i] // strides[i]))
        elif auto == "VALID":
            out.append((x[2 + i] - ek) // strides[i] + 1)
        else:
            span = x[2 + i] + pads[i] + pads[i + nsp] - ek
            if a.get("ceil_mode", 0):
                o = -(-span // strides[i]) + 1
                if (o - 1) * strides[i] >= x[2 + i] + pads[i]:
                    o -= 1
            else:
                o = span // strides[i] + 1
            out.append(o)
    return out


def broadcast(a, b):
    r = max(len(a), len(b))
    a = [1] * (r - len(a)) + a
    b = [1] * (r - len(b)) + b
    out = []
    for x, y in zip(a, b):
        assert x == y or x == 1 or y == 1, (a, b)
        out.append(y if x == 1 else x)
    return out


def infer(op, a, ins, vals, opset):
    """[(dtype, dims)] of the node's outputs."""
    t0, x = ins[0] if ins else (None, None)
    if op in ("Relu", "LRN", "Softmax", "Exp", "Sigmoid", "Identity"):
        return [(t0, x)]
    if op == "Dropout":
        return [(t0, x), (t0 if opset < 10 else 9, x)]
    if op in ("Add", "Mul", "Sub", "Div"):
        return [(t0, broadcast(x, ins[1][1]))]
    if op == "Conv":
        w = ins[1][1]
        return [(t0, [x[0], w[0]] + window(x, w[2:], a))]
    if op in ("MaxPool", "AveragePool"):
        return [(t0, x[:2] + window(x, a["kernel_shape"], a,
                                     op == "MaxPool"))]
    if op == "Concat":
        ax = a["axis"] % len(x)
        out = list(x)
        out[ax] = sum(d[ax] for _, d in ins)
        return [(t0, out)]
    if op == "Reshape":
        shape = list(vals[1])
        for i, d in enumerate(shape):
            if d == 0:
                shape[i] = x[i]
        if -1 in shape:
            known = math.prod(d for d in shape if d != -1)
            shape[shape.index(-1)] = math.prod(x) // known
        assert math.prod(shape) == math.prod(x)
        return [(t0, shape)]
    if op == "MatMul":
        return [(t0, x[:-1] + ins[1][1][-1:])]
    if op == "Gemm":
        m = x[1] if a.get("transA", 0) else x[0]
        b = ins[1][1]
        n = b[0] if a.get("transB", 0) else b[1]
        return [(t0, [m, n])]
    if op == "Transpose":
        return [(t0, [x[p] for p in a["perm"]])]
    if op == "Slice":
        out = list(x)
        for s, e, ax in zip(a["starts"], a["ends"],
                            a.get("axes", range(len(x)))):
            d = x[ax]
            s = min(max(s + d if s < 0 else s, 0), d)
            e = min(max(e + d if e < 0 else e, 0), d)
            out[ax] = max(e - s, 0)
        return [(t0, out)]
    if op == "ConstantOfShape":
        dtype = a["value"][1] if "value" in a else 1
        return [(dtype, list(vals[0]))]
    raise ValueError("op %s not in this script" % op)


def figures(path):
    model = fields(open(path, "rb").read())
    opset = [one(fields(o), 2) for o in many(model, 8)
             if not one(fields(o), 1)][0]
    g = fields(one(model, 7))
    info = {}           # name -> (dtype, dims)
    values = {}         # name -> int64 values
    const = set()
    order = []          # value names in the order they appear
    inits = [tensor_proto(t) for t in many(g, 5)]
    for name, dtype, dims, vals in inits:
        info[name] = (dtype, dims)
        const.add(name)
        order.append(name)
        if vals is not None:
            values[name] = vals
    inputs = []
    for vi in many(g, 11):
        name, dtype, dims = value_info(vi)
        if name not in info:
            info[name] = (dtype, dims)
            inputs.append(name)
            order.append(name)
    outputs = [value_info(vi)[0] for vi in many(g, 12)]
    recorded = {n: (t, d) for n, t, d in map(value_info, many(g, 13))}
    ops = []            # (op_type, [inputs], [outputs]) or None if folded
    for node in many(g, 1):
        nf = fields(node)
        op = one(nf, 4).decode()
        ins = [s.decode() for s in many(nf, 1) if s]
        outs = [s.decode() for s in many(nf, 2) if s]
        res = infer(op, attrs(nf), [info[i] for i in ins],
                    [values.get(i) for i in ins], opset)
        for o, r in zip(outs, res):
            info[o] = r
            order.append(o)
            if o in recorded:
                assert recorded[o] == (r[0], r[1]), (o, recorded[o], r)
            if op == "Reshape" and ins[0] in values:
                values[o] = values[ins[0]]
        folded = all(i in const for i in ins) and \
            not any(o in outputs for o in outs)
        if folded:
            const.update(outs)
        ops.append(None if folded else (op, ins, outs))
    used = {t for op in ops if op for t in op[1] + op[2]}
    tensors = [t for t in dict.fromkeys(order) if t in used]
    size = {t: math.prod(info[t][1]) * ELEM[info[t][0]] for t in tensors}
    n = len(ops)
    life = {}
    for t in tensors:
        if t in const:
            life[t] = (0, n)
            continue
        first = 0 if t in inputs else None
        last = None
        for k, op in enumerate(ops):
            if op and t in op[2] and first is None:
                first = k
            if op and t in op[1] + op[2]:
                last = k
        life[t] = (first, n if t in outputs else last + 1)

    def lower_bound(with_const):
        return max(sum(size[t] for t in tensors
                       if life[t][0] <= s < life[t][1] and
                       (with_const or t not in const))
                   for s in range(n))
    inplace = sum(1 for op in ops if op and op[0] in
                  ("Reshape", "Flatten", "Squeeze", "Unsqueeze", "Identity",
                   "Dropout") and len(op[2]) == 1 and
                  size[op[1][0]] == size[op[2][0]])
    return {
        "tensors": len(tensors), "ops": n, "initializers": len(inits),
        "constants": sum(1 for t in tensors if t in const),
        "folded": sum(1 for op in ops if op is None), "inplace": inplace,
        "naive": sum(size.values()),
        "lb": lower_bound(True), "lb_noconst": lower_bound(False),
        "tensors_noconst": sum(1 for t in tensors if t not in const),
    }


for p in sys.argv[1:]:
    f = figures(p)
    print(p.split("/")[-1], " ".join("%s=%d" % kv for kv in f.items()))
