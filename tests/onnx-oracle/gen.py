# SPDX-License-Identifier: GPL-2.0 OR MIT
"""Random small ONNX models for the oracle (oracle.py): chains and DAGs of
2 to 8 nodes over the op types of the importer's inference table
(ta_ox_ops[] in userspace/lib/ta_onnx.c), with random ranks and shapes:
broadcasting with the lower-rank operand first, scalars, negative axes,
constants (initializers and Constant nodes) feeding shape inputs, Shape
chains of activations, Slice with INT64_MAX and negative steps, pools with
ceil_mode, Resize scales that are not exact in float.

model(rng) -> onnx.ModelProto, from a random.Random. Shapes of the values
built so far come from onnx.shape_inference (opset 17, what python3-onnx
1.12 knows); a model may come out invalid (ONNX Runtime then refuses it:
oracle.py counts those apart). One model in six is written for opset 20
with Gelu and Mish (ops python3-onnx 1.12 does not know: they are built
as Relu and renamed at the end), its opset-17 forms rewritten as opset 18
has them (Reduce* axes as an input, Split's num_outputs); one in twenty is
an opset-9 model with Upsample.
"""
import numpy as np
import onnx
from onnx import helper, numpy_helper, shape_inference, TensorProto as T

INT64_MAX = 2 ** 63 - 1
INT64_MIN = -2 ** 63
F = T.FLOAT

UNARY = ["Abs", "Acos", "Asin", "Atan", "Ceil", "Cos", "Elu", "Erf", "Exp",
         "Floor", "HardSigmoid", "HardSwish", "LeakyRelu", "Log", "Neg",
         "Reciprocal", "Relu", "Round", "Selu", "Sigmoid", "Sign", "Sin",
         "Softplus", "Softsign", "Sqrt", "Tan", "Tanh", "ThresholdedRelu",
         "Celu", "Clip", "Sinh", "Cosh", "Asinh", "Acosh", "Atanh", "Shrink",
         "IsNaN", "IsInf"]
AXIS_OPS = ["Softmax", "LogSoftmax", "Hardmax", "LpNormalization"]
ARITH = ["Add", "Sub", "Mul", "Div", "Pow"]
VARIADIC = ["Max", "Min", "Sum", "Mean"]
LOGIC = ["And", "Or", "Xor"]
COMPARE = ["Equal", "Less", "Greater", "LessOrEqual", "GreaterOrEqual"]
REDUCE = ["ReduceL1", "ReduceL2", "ReduceLogSum", "ReduceLogSumExp",
          "ReduceMax", "ReduceMean", "ReduceMin", "ReduceProd",
          "ReduceSum", "ReduceSumSquare"]
# The op types the generator covers (oracle.py reports the table's others).
OPS = (UNARY + AXIS_OPS + ARITH + VARIADIC + LOGIC + COMPARE + REDUCE + [
    "Gelu", "Mish", "InstanceNormalization", "LRN", "MeanVarianceNormalization",
    "PRelu", "Not", "Identity", "Dropout", "BatchNormalization", "Cast", "Mod",
    "Where", "Conv", "MaxPool", "AveragePool", "LpPool", "GlobalAveragePool",
    "GlobalMaxPool", "GlobalLpPool", "Concat", "Reshape", "Flatten",
    "Transpose", "Slice", "Gemm", "MatMul", "Squeeze", "Unsqueeze", "Shape",
    "Size", "Gather", "Constant", "ConstantOfShape", "Pad", "Resize",
    "Expand", "Tile", "Split", "ArgMax", "ArgMin",
    # planned at the largest the data may give (oracle.py feeds them data
    # that makes them produce it as well as random data)
    "NonZero", "Unique", "Compress", "NonMaxSuppression", "TopK", "Range",
    # indexing, and what a quantized (QDQ) model for an NPU is made of
    "CumSum", "GatherElements", "GatherND", "ScatterND", "ScatterElements",
    "DepthToSpace", "SpaceToDepth", "Trilu", "LayerNormalization", "OneHot",
    "ReverseSequence", "EyeLike", "CastLike", "QuantizeLinear",
    "DequantizeLinear", "DynamicQuantizeLinear", "MatMulInteger",
    "QLinearMatMul", "ConvInteger", "QLinearConv", "ConvTranspose", "Einsum",
    "Det", "RNN", "GRU", "LSTM", "BitShift", "GridSample", "RoiAlign", "MaxUnpool",
    # an audio model's front end
    "DFT", "STFT", "HannWindow", "HammingWindow", "BlackmanWindow", "MelWeightMatrix",
    # a training graph's losses, text features
    "NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss", "TfIdfVectorizer",
    # random values (never folded), a region-of-interest pool
    "Bernoulli", "RandomNormal", "RandomUniform", "RandomNormalLike",
    "RandomUniformLike", "Multinomial", "MaxRoiPool"])
# Ops outside the inference table, in one model of eight: the importer
# takes their shapes from value_info, recorded here as ONNX Runtime's
# optimizer records them (every op of the default domain is in the table:
# a contrib op of ONNX Runtime's com.microsoft domain, which its CPU
# provider runs and onnx.shape_inference does not know).
OUTSIDE = ["com.microsoft.Gelu"]
# Not in models of opset 20 (its GridSample names its modes otherwise).
NOT_IN_20 = {"GridSample"}
PLACEHOLDER = "Relu"


class Builder:
    def __init__(self, rng, opset):
        self.rng, self.opset = rng, opset
        self.nodes, self.inits, self.inputs = [], [], []
        self.vals = {}  # activation name -> (dtype, shape)
        self.n = 0
        self.rename = {}  # node index -> final op type
        self.recorded = []  # value_info of the ops outside the table
        # one model in ten has zero-size dimensions in its new inputs:
        # ONNX Runtime's paths for empty tensors (Reduce writes more there)
        self.empty = rng.random() < 0.1

    def name(self, p="t"):
        self.n += 1
        return "%s%d" % (p, self.n)

    def rand_shape(self, rank=None):
        if rank is None:
            rank = self.rng.choice([0, 1, 1, 2, 2, 3, 3, 4, 4, 4])
        lo = 0 if self.empty and self.rng.random() < 0.3 else 1
        return [self.rng.randint(lo, 5) for _ in range(rank)]

    def new_input(self, dtype, shape):
        if any(d < 0 for d in shape):
            raise ValueError(shape)
        n = self.name("in")
        self.inputs.append(helper.make_tensor_value_info(n, dtype, shape))
        self.vals[n] = (dtype, list(shape))
        return n

    def const(self, arr, node=None):
        """An initializer, or a Constant node (node=True), of numpy arr."""
        n = self.name("c")
        if node is None:
            node = self.rng.random() < 0.3
        t = numpy_helper.from_array(np.asarray(arr), n)
        if node:
            self.nodes.append(helper.make_node("Constant", [], [n], value=t))
        else:
            self.inits.append(t)
        return n

    def ints(self, vals, node=None):
        return self.const(np.array(vals, dtype=np.int64), node)

    def rand_data(self, dtype, shape):
        if dtype == T.BOOL:
            return np.array(self.rng_np().random(shape) < 0.5)
        if dtype == T.INT64:
            return self.rng_np().integers(1, 4, size=shape).astype(np.int64)
        return (self.rng_np().random(shape) * 2 + 0.5).astype(np.float32)

    def rng_np(self):
        return np.random.default_rng(self.rng.randrange(2 ** 32))

    def operand(self, dtype, shape):
        """A new value of dtype and shape: an input, an initializer, a Constant."""
        r = self.rng.random()
        if r < 0.6:
            return self.new_input(dtype, shape)
        return self.const(self.rand_data(dtype, shape), node=r > 0.85)

    def pick(self, dtypes=(F,), min_rank=0, max_rank=8, pred=None, dyn=False):
        c = [n for n, (d, s) in self.vals.items()
             if d in dtypes and min_rank <= len(s) <= max_rank and (dyn or None not in s)
             and (pred is None or pred(s))]
        if not c:
            return None
        # mostly the newest (chains), sometimes an older one (DAGs)
        return c[-1] if self.rng.random() < 0.6 else self.rng.choice(c)

    def x(self, dtypes=(F,), min_rank=0, max_rank=8, pred=None, dyn=False):
        """An activation to work on: one built so far, or a new input. With
        dyn, also one whose dimensions depend on the data (an output of
        NonZero, Compress, Unique, NonMaxSuppression, TopK with a k from
        the data, or of an op after one): None for each dimension the data
        decides, so only ops that need no more than the rank take it."""
        n = self.pick(dtypes, min_rank, max_rank, pred, dyn)
        if n is None:
            for _ in range(20):
                s = self.rand_shape(self.rng.randint(min_rank, min(max_rank, 5)))
                if pred is None or pred(s):
                    break
            n = self.new_input(dtypes[0], s)
        return n, self.vals[n][1]

    def node(self, op, ins, n_out=1, final=None, **attrs):
        outs = [self.name("v") for _ in range(n_out)]
        self.nodes.append(helper.make_node(op, ins, outs, name=self.name("n_"), **attrs))
        if final:
            self.rename[len(self.nodes) - 1] = final
        return outs

    def bshape(self, shape):
        """A shape that broadcasts with shape: any rank up to one more,
        1s where it may."""
        r = self.rng.randint(0, len(shape) + 1)
        out = []
        for i in range(r):
            j = len(shape) - r + i
            if j < 0:
                out.append(self.rng.randint(1, 3))
            elif shape[j] == 1:
                out.append(self.rng.choice([1, 1, self.rng.randint(2, 4)]))
            else:
                out.append(self.rng.choice([shape[j], shape[j], 1]))
        return out

    def axis(self, rank, extra=0):
        """An axis in [-rank, rank + extra), negative half the time."""
        a = self.rng.randrange(rank + extra) if rank + extra > 0 else 0
        if self.rng.random() < 0.5 and a < rank + extra:
            a -= rank + extra
        return a

    def model(self):
        g = helper.make_graph(self.nodes, "random", self.inputs, [], self.inits,
                              value_info=self.recorded)
        m = helper.make_model(g, opset_imports=[helper.make_opsetid("", 17)])
        if any(n.domain == "com.microsoft" for n in self.nodes):
            m.opset_import.append(helper.make_opsetid("com.microsoft", 1))
        m.ir_version = 8
        return m

    def infer(self):
        """Learn the shapes of the new node outputs (onnx.shape_inference)."""
        try:
            m = shape_inference.infer_shapes(self.model(), strict_mode=True, data_prop=True)
        except Exception:
            return False
        known = {}
        for v in m.graph.value_info:
            tt = v.type.tensor_type
            # the rank known; None where a dimension depends on the data
            if tt.HasField("shape"):
                known[v.name] = (tt.elem_type, [d.dim_value if d.HasField("dim_value") else None
                                                for d in tt.shape.dim])
        for nd in self.nodes:
            if nd.op_type == "Constant":
                continue
            for o in nd.output:
                if o in known and o not in self.vals:
                    self.vals[o] = known[o]
        return True


def build_op(b, op):
    rng = b.rng
    if op in UNARY or op in ("Gelu", "Mish"):
        x, s = b.x(dyn=True)
        if op == "Clip" and rng.random() < 0.7:
            lo = b.const(np.array(rng.choice([0.0, 0.5]), np.float32), node=False)
            hi = b.const(np.array(rng.choice([1.0, 2.0]), np.float32), node=False)
            b.node(op, [x, lo, hi][:rng.randint(2, 3)])
        elif op in ("Gelu", "Mish"):
            b.node(PLACEHOLDER, [x], final=op)
        else:
            b.node(op, [x])
    elif op in AXIS_OPS:
        x, s = b.x(dyn=True, min_rank=1)
        b.node(op, [x], axis=b.axis(len(s)))
    elif op == "InstanceNormalization":
        x, s = b.x(min_rank=3, max_rank=5)
        c = s[1]
        b.node(op, [x, b.const(np.ones(c, np.float32)), b.const(np.zeros(c, np.float32))])
    elif op == "LRN":
        x, s = b.x(min_rank=4, max_rank=4)
        b.node(op, [x], size=rng.choice([1, 3, 5]))
    elif op == "MeanVarianceNormalization":
        x, s = b.x(min_rank=1)
        axes = sorted(rng.sample(range(len(s)), rng.randint(1, len(s))))
        b.node(op, [x], axes=axes)
    elif op == "PRelu":
        x, s = b.x(min_rank=1)
        slope = b.bshape(s)[-len(s):] if s else []
        if rng.random() < 0.8:  # unidirectional, as the operator says
            slope = [d if d in (1, s[len(s) - len(slope) + i]) else 1 for i, d in enumerate(slope)]
        elif rng.random() < 0.5:  # ONNX Runtime broadcasts both ways
            slope = b.bshape(s)
        b.node(op, [x, b.operand(F, slope)])
    elif op == "Not":
        x, s = b.x(dyn=True, dtypes=(T.BOOL,))
        b.node(op, [x])
    elif op == "Identity":
        x, s = b.x(dyn=True, dtypes=(F, T.INT64, T.BOOL))
        b.node(op, [x])
    elif op == "Dropout":
        x, s = b.x(dyn=True)
        ins = [x]
        if rng.random() < 0.5:
            ins.append(b.const(np.array(0.5, np.float32), node=False))
        b.node(op, ins, n_out=rng.choice([1, 2]))
    elif op == "BatchNormalization":
        x, s = b.x(min_rank=2, max_rank=5)
        c = s[1]
        b.node(op, [x] + [b.const(np.ones(c, np.float32) * k, node=False) for k in (1, 0, 0, 1)])
    elif op == "Cast":
        x, s = b.x(dyn=True, dtypes=(F, T.INT64, T.BOOL))
        b.node(op, [x], to=rng.choice([F, T.INT64, T.INT32, T.BOOL, T.DOUBLE, T.FLOAT16,
                                       T.UINT8, T.INT8]))
    elif op in ARITH or op in COMPARE or op == "Mod" or op in LOGIC:
        if op in LOGIC:
            dt = T.BOOL
        elif op == "Mod" or (op in ("Equal",) and rng.random() < 0.5):
            dt = T.INT64
        else:
            dt = F
        x, s = b.x(dyn=True, dtypes=(dt,))
        # a scalar or a [1] beside a value the data shapes: it broadcasts
        y = b.operand(dt, b.bshape(s) if None not in s else [1] * rng.randint(0, 1))
        ins = [x, y] if rng.random() < 0.5 else [y, x]
        b.node(op, ins, **({"fmod": 0} if op == "Mod" else {}))
    elif op in VARIADIC:
        x, s = b.x()
        ins = [x] + [b.operand(F, b.bshape(s)) for _ in range(rng.randint(0, 2))]
        rng.shuffle(ins)
        b.node(op, ins)
    elif op == "Where":
        x, s = b.x()
        ins = [b.operand(T.BOOL, b.bshape(s)), x, b.operand(F, b.bshape(s))]
        if rng.random() < 0.5:
            ins[1], ins[2] = ins[2], ins[1]
        b.node(op, ins)
    elif op == "Conv":
        x, s = b.x(min_rank=3, max_rank=5, pred=lambda s: s[1] <= 6)
        n_sp = len(s) - 2
        c = s[1]
        group = rng.choice([g for g in range(1, c + 1) if c % g == 0])
        m = group * rng.randint(1, 2)
        k = [rng.randint(1, 3) for _ in range(n_sp)]
        dil = [rng.choice([1, 1, 2]) for _ in range(n_sp)]
        strides = [rng.randint(1, 3) for _ in range(n_sp)]
        pads = [rng.randint(0, 2) for _ in range(2 * n_sp)]
        attrs = {"kernel_shape": k, "strides": strides, "dilations": dil, "group": group}
        ap = rng.choice(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"])
        if ap == "NOTSET":
            attrs["pads"] = pads
        else:
            attrs["auto_pad"] = ap
        ins = [x, b.const(np.ones([m, c // group] + k, np.float32), node=False)]
        if rng.random() < 0.5:
            ins.append(b.const(np.zeros(m, np.float32), node=False))
        b.node(op, ins, **attrs)
    elif op in ("MaxPool", "AveragePool", "LpPool"):
        x, s = b.x(min_rank=3, max_rank=5)
        n_sp = len(s) - 2
        k = [rng.randint(1, 3) for _ in range(n_sp)]
        attrs = {"kernel_shape": k, "strides": [rng.randint(1, 3) for _ in range(n_sp)]}
        ap = rng.choice(["NOTSET", "NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"])
        if ap == "NOTSET":
            attrs["pads"] = [rng.randint(0, kk - 1) for kk in k] * 2
        else:
            attrs["auto_pad"] = ap
        if op != "LpPool":
            attrs["ceil_mode"] = rng.choice([0, 1])
        if op == "MaxPool" and rng.random() < 0.3:
            attrs["dilations"] = [rng.randint(1, 2) for _ in range(n_sp)]
        if op == "AveragePool":
            attrs["count_include_pad"] = rng.choice([0, 1])
        n_out = 2 if op == "MaxPool" and rng.random() < 0.3 else 1
        b.node(op, [x], n_out=n_out, **attrs)
    elif op.startswith("Global"):
        x, s = b.x(dyn=True, min_rank=3, max_rank=5)
        b.node(op, [x])
    elif op == "Concat":
        x, s = b.x(min_rank=1)
        ax = b.axis(len(s))
        ins = [x]
        for _ in range(rng.randint(1, 2)):
            t = list(s)
            t[ax] = rng.randint(1, 3)
            ins.append(b.operand(F, t))
        rng.shuffle(ins)
        b.node(op, ins, axis=ax)
    elif op == "Reshape":
        x, s = b.x(dtypes=(F, T.INT64))
        n = int(np.prod(s)) if s else 1
        dims = []
        while n > 1 and len(dims) < 4:
            f = rng.choice([d for d in range(1, n + 1) if n % d == 0])
            dims.append(f)
            n //= f
        if n > 1:
            dims.append(n)
        rng.shuffle(dims)
        if rng.random() < 0.3:
            dims.insert(rng.randint(0, len(dims)), 1)
        if dims and rng.random() < 0.5:
            dims[rng.randrange(len(dims))] = -1
        for i in range(min(len(dims), len(s))):
            if dims[i] == s[i] and rng.random() < 0.3:
                dims[i] = 0
        if rng.random() < 0.2 and s:
            # the shape from a Shape of the activation: x.view(x.size(0), -1)
            sh = b.node("Shape", [x])[0]
            first = b.node("Slice", [sh, b.ints([0]), b.ints([1])])[0]
            shape = b.node("Concat", [first, b.ints([-1])], axis=0)[0]
        else:
            shape = b.ints(dims)
        b.node(op, [x, shape])
    elif op == "Flatten":
        x, s = b.x(dyn=True, min_rank=1)
        b.node(op, [x], axis=b.axis(len(s), extra=1))
    elif op == "Transpose":
        x, s = b.x(dyn=True, min_rank=1)
        if rng.random() < 0.3:
            b.node(op, [x])
        else:
            p = list(range(len(s)))
            rng.shuffle(p)
            b.node(op, [x], perm=p)
    elif op == "Slice":
        x, s = b.x(min_rank=1)
        axes = rng.sample(range(len(s)), rng.randint(1, len(s)))
        starts, ends, steps = [], [], []
        for a in axes:
            d = s[a]
            st = rng.choice([1, 1, 1, -1, 2, -2, 3])
            starts.append(rng.choice([0, 1, -1, d, -d - 1, rng.randint(-d, d), INT64_MAX if st < 0 else 0]))
            ends.append(rng.choice([d, -1, INT64_MAX, INT64_MIN, rng.randint(-d - 2, d + 2),
                                    -d - 1 if st < 0 else d]))
            steps.append(st)
        ax = [a - len(s) if rng.random() < 0.5 else a for a in axes]
        ins = [x, b.ints(starts), b.ints(ends)]
        if rng.random() < 0.8:
            ins.append(b.ints(ax))
            if rng.random() < 0.8:
                ins.append(b.ints(steps))
        b.node(op, ins)
    elif op == "Gemm":
        ta, tb = rng.randint(0, 1), rng.randint(0, 1)
        x, s = b.x(min_rank=2, max_rank=2)
        mm, kk = (s[1], s[0]) if ta else (s[0], s[1])
        nn = rng.randint(1, 4)
        bb = b.operand(F, [nn, kk] if tb else [kk, nn])
        ins = [x, bb]
        if rng.random() < 0.6:
            ins.append(b.operand(F, b.bshape([mm, nn])[-2:]))
        b.node(op, ins, transA=ta, transB=tb)
    elif op == "MatMul":
        x, s = b.x(min_rank=1, max_rank=4)
        if len(s) == 1:
            kk = s[0]
        else:
            kk = s[-1]
        r = rng.randint(1, 4)
        if r == 1:
            t = [kk]
        else:
            batch = b.bshape(s[:-2]) if len(s) > 2 else [rng.randint(1, 3) for _ in range(r - 2)]
            t = batch + [kk, rng.randint(1, 4)]
        y = b.operand(F, t)
        if rng.random() < 0.3 and len(t) >= 1:
            # the other operand first: x must then be [.., K, N]-shaped; use
            # a fresh one
            left = b.operand(F, [rng.randint(1, 3), s[0] if len(s) == 1 else s[-2]])
            b.node(op, [left, x])
        else:
            b.node(op, [x, y])
    elif op == "Squeeze":
        x, s = b.x(min_rank=1, pred=lambda s: 1 in s)
        ones = [i for i, d in enumerate(s) if d == 1]
        if not ones or rng.random() < 0.2:
            b.node(op, [x])
        else:
            ax = rng.sample(ones, rng.randint(1, len(ones)))
            b.node(op, [x, b.ints([a - len(s) if rng.random() < 0.5 else a for a in ax])])
    elif op == "Unsqueeze":
        x, s = b.x(dyn=True)
        k = rng.randint(1, 2)
        r = len(s) + k
        ax = rng.sample(range(r), k)
        b.node(op, [x, b.ints([a - r if rng.random() < 0.5 else a for a in ax])])
    elif op == "Shape":
        x, s = b.x(dyn=True, dtypes=(F, T.INT64, T.BOOL))
        attrs = {}
        if rng.random() < 0.5:
            attrs["start"] = rng.randint(-len(s) - 1, len(s) + 1)
        if rng.random() < 0.5:
            attrs["end"] = rng.randint(-len(s) - 1, len(s) + 1)
        b.node(op, [x], **attrs)
    elif op == "Size":
        x, s = b.x(dyn=True, dtypes=(F, T.INT64, T.BOOL))
        b.node(op, [x])
    elif op == "Gather":
        x, s = b.x(dtypes=(F, T.INT64), min_rank=1)
        ax = b.axis(len(s))
        d = s[ax]
        ishape = b.rand_shape(rng.choice([0, 1, 1, 2]))
        idx = np.array([rng.randint(-d, d - 1) for _ in range(int(np.prod(ishape)))],
                       np.int64).reshape(ishape)
        b.node(op, [x, b.const(idx)], axis=ax)
    elif op == "Constant":
        r = rng.random()
        out = b.name("v")
        if r < 0.5:
            t = numpy_helper.from_array(b.rand_data(F, b.rand_shape()), out + "_t")
            nd = helper.make_node(op, [], [out], value=t)
        elif r < 0.7:
            nd = helper.make_node(op, [], [out], value_float=1.5)
        elif r < 0.85:
            nd = helper.make_node(op, [], [out], value_floats=[1.0, 2.0, 3.0][:rng.randint(1, 3)])
        else:
            nd = helper.make_node(op, [], [out], value_ints=[1, 2, 3][:rng.randint(1, 3)])
        b.nodes.append(nd)
        # what uses it: an op with an activation
        x, s = b.x(dtypes=(T.INT64,) if r >= 0.85 else (F,))
        b.node(rng.choice(["Add", "Mul", "Sub"]), [out, x] if rng.random() < 0.5 else [x, out])
    elif op == "ConstantOfShape":
        if rng.random() < 0.5:
            x, s = b.x(dyn=True, dtypes=(F, T.INT64, T.BOOL))
            shape = b.node("Shape", [x])[0]
        else:
            shape = b.ints(b.rand_shape(rng.randint(1, 4)))
        attrs = {}
        if rng.random() < 0.7:
            dt = rng.choice([np.float32, np.int64, np.bool_, np.int32, np.float64])
            attrs["value"] = numpy_helper.from_array(np.array([1], dt), "value")
        b.node(op, [shape], **attrs)
    elif op == "Pad":
        x, s = b.x(min_rank=1)
        mode = rng.choice(["constant", "constant", "reflect", "edge"])
        pads = []
        for side in range(2):
            for d in s:
                lo = -(d - 1) if mode == "constant" else 0
                hi = d - 1 if mode == "reflect" else 2
                pads.append(rng.randint(lo, max(lo, hi)) if rng.random() < 0.7 else 0)
        ins = [x, b.ints(pads)]
        if mode == "constant" and rng.random() < 0.5:
            ins.append(b.const(np.array(0.5, np.float32), node=False))
        b.node(op, ins, mode=mode)
    elif op == "Resize":
        if rng.random() < 0.3:  # larger dimensions: floor(d x scale) in float
            x = b.new_input(F, [rng.randint(1, 3), rng.randint(1, 3)] +
                            [rng.randint(5, 13) for _ in range(rng.randint(0, 2))])
            s = b.vals[x][1]
        else:
            x, s = b.x(min_rank=1, max_rank=5)
        mode = rng.choice(["nearest", "nearest", "linear"])
        roi = ""
        if rng.random() < 0.6:
            sc = [rng.choice([0.5, 0.7, 1.0, 1.3, 1.5, 2.0, 0.33, 2.5, 0.6, 1.7]) for _ in s]
            if mode == "linear" and len(s) > 2:
                sc[0] = sc[1] = 1.0
            if mode == "linear" and len(s) <= 2:
                mode = "nearest"
            ins = [x, roi, b.const(np.array(sc, np.float32))]
        else:
            sz = [max(1, int(d * rng.choice([0.5, 1, 2, 1.5]))) for d in s]
            if mode == "linear":
                mode = "nearest"
            ins = [x, roi, "", b.ints(sz)]
        b.node(op, ins, mode=mode)
    elif op == "Expand":
        x, s = b.x(dtypes=(F, T.INT64))
        t = b.bshape(s)
        b.node(op, [x, b.ints(t)])
    elif op == "Tile":
        x, s = b.x(dyn=True, dtypes=(F, T.INT64), min_rank=1)
        b.node(op, [x, b.ints([rng.randint(1, 3) for _ in s])])
    elif op == "Split":
        x, s = b.x(min_rank=1, pred=lambda s: max(s) >= 2)
        ax = b.axis(len(s))
        d = s[ax]
        if d >= 2 and rng.random() < 0.7:
            cut = rng.randint(1, d - 1)
            b.node(op, [x, b.ints([cut, d - cut])], n_out=2, axis=ax)
        else:
            n = rng.choice([k for k in (1, 2, 3) if d % k == 0])
            b.node(op, [x], n_out=n, axis=ax)
    elif op in REDUCE:
        x, s = b.x(dyn=True, min_rank=0)
        attrs = {"keepdims": rng.randint(0, 1)}
        axes = [a - len(s) if rng.random() < 0.5 else a
                for a in rng.sample(range(len(s)), rng.randint(0, len(s)))] if s else []
        ins = [x]
        if op == "ReduceSum":
            if axes or rng.random() < 0.3:
                ins.append(b.ints(axes))
            if rng.random() < 0.3:
                attrs["noop_with_empty_axes"] = 1
        elif axes:
            attrs["axes"] = axes
        b.node(op, ins, **attrs)
    elif op in ("ArgMax", "ArgMin"):
        x, s = b.x(dyn=True, min_rank=1)
        b.node(op, [x], axis=b.axis(len(s)), keepdims=rng.randint(0, 1),
               select_last_index=rng.randint(0, 1))
    elif op == "TopK":
        x, s = b.x(min_rank=1)
        ax = b.axis(len(s))
        if rng.random() < 0.4:
            # k from the data, 0 to the axis' length: how many of a new
            # input's values pass 0.5 (all with the largest feed, none
            # with the zeros feed)
            v = b.new_input(F, [s[ax]])
            big = b.node("Cast", [b.node("Greater", [v, b.const(np.array(0.5, np.float32),
                                                                node=False)])[0]], to=T.INT64)[0]
            k = b.node("ReduceSum", [big, b.ints([0], node=False)], keepdims=1)[0]
        else:
            k = b.ints([rng.randint(1, s[ax])])
        b.node(op, [x, k], n_out=2, axis=ax, largest=rng.randint(0, 1))
    elif op == "CumSum":
        x, s = b.x(min_rank=1)
        b.node(op, [x, b.ints(b.axis(len(s)), node=False)], exclusive=rng.randint(0, 1))
    elif op == "GatherElements":
        x, s = b.x(min_rank=1)
        ax = b.axis(len(s))
        t = [rng.randint(1, d) for d in s]
        t[ax] = rng.randint(1, 4)
        idx = np.array([rng.randint(0, s[ax] - 1) for _ in range(int(np.prod(t)))], np.int64).reshape(t)
        b.node(op, [x, b.const(idx)], axis=ax)
    elif op in ("DepthToSpace", "SpaceToDepth"):
        k = rng.randint(1, 3)
        if op == "DepthToSpace":
            x = b.new_input(F, [1, k * k * rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 3)])
        else:
            x = b.new_input(F, [1, rng.randint(1, 2), k * rng.randint(1, 2), k * rng.randint(1, 2)])
        b.node(op, [x], blocksize=k)
    elif op == "Trilu":
        x, s = b.x(min_rank=2)
        b.node(op, [x, b.ints(rng.randint(-2, 2), node=False)], upper=rng.randint(0, 1))
    elif op == "LayerNormalization":
        x, s = b.x(min_rank=1)
        ax = b.axis(len(s))
        nshape = s[ax:] if ax >= 0 else s[len(s) + ax:]
        b.node(op, [x, b.const(np.ones(nshape, np.float32), node=False)], axis=ax,
               n_out=rng.choice([1, 1, 2, 3]))
    elif op == "OneHot":
        x, s = b.x(dtypes=(T.INT64,), max_rank=3)
        b.node(op, [x, b.ints(rng.randint(2, 5), node=False),
                    b.const(np.array([0, 1], np.float32), node=False)], axis=b.axis(len(s), extra=1))
    elif op == "Einsum":
        x, s = b.x(min_rank=2, max_rank=3)
        if len(s) == 2:
            y = b.operand(F, [s[1], rng.randint(1, 4)])
            eq = rng.choice(["ij,jk->ik", "ij,jk", "ij, jk -> ki", "ij,jk->"])
            b.node(op, [x, y], equation=eq)
        else:
            eq = rng.choice(["bij->bji", "bij->b", "bij", "bii->bi", "...ii->...i"]
                            if s[1] == s[2] else ["bij->bji", "bij->b", "bij", "bij->jb",
                                                  "...ij->...ji", "...j", "b...->...b"])
            b.node(op, [x], equation=eq)
    elif op == "ReverseSequence":
        x, s = b.x(min_rank=2, pred=lambda s: len(s) >= 2)
        lens = [rng.randint(1, s[0]) for _ in range(s[1])]
        b.node(op, [x, b.ints(lens, node=False)], batch_axis=1, time_axis=0)
    elif op == "Range":
        x, s = b.x()
        r = b.node(op, [b.const(np.array(0, np.float32), node=False),
                        b.const(np.array(rng.randint(1, 6), np.float32), node=False),
                        b.const(np.array(1, np.float32), node=False)])[0]
        if s and s[-1] == 1:  # used with an activation, so not folded
            b.node("Add", [x, r] if rng.random() < 0.5 else [r, x])
    elif op == "NonZero":
        x, s = b.x(dyn=True, max_rank=4)
        b.node(op, [x])
    elif op == "Unique":
        x, s = b.x(min_rank=1, max_rank=3)
        attrs = {"sorted": rng.randint(0, 1)}
        if rng.random() < 0.5:
            attrs["axis"] = b.axis(len(s))
        b.node(op, [x], n_out=rng.randint(1, 4), **attrs)
    elif op == "Compress":
        x, s = b.x(min_rank=1, max_rank=4)
        attrs = {}
        if rng.random() < 0.6:
            attrs["axis"] = b.axis(len(s))
            n = s[attrs["axis"]]
        else:
            n = int(np.prod(s))
        n = max(1, n + rng.randint(-1, 1))
        cond = b.operand(T.BOOL, [n])
        b.node(op, [x, cond], **attrs)
    elif op == "NonMaxSuppression":
        nb, nc, ns = rng.randint(1, 2), rng.randint(1, 3), rng.randint(1, 6)
        boxes = b.new_input(F, [nb, ns, 4])
        scores = b.new_input(F, [nb, nc, ns])
        ins = [boxes, scores]
        if rng.random() < 0.7:
            ins.append(b.ints([rng.randint(0, ns + 2)], node=False))
            if rng.random() < 0.5:
                ins.append(b.const(np.array([0.5], np.float32), node=False))
        b.node(op, ins, center_point_box=rng.randint(0, 1))
    elif op == "GatherND":
        x, s = b.x(dtypes=(F, T.INT64), min_rank=1)
        q = rng.randint(1, len(s))
        m = rng.randint(1, 3)
        idx = np.array([[rng.randint(0, d - 1) for d in s[:q]] for _ in range(m)],
                       np.int64).reshape(m, q)
        b.node(op, [x, b.const(idx)])
    elif op == "ScatterND":
        x, s = b.x(min_rank=1, pred=lambda s: min(s) >= 1)
        q = rng.randint(1, len(s))
        m = rng.randint(1, 2)
        idx = np.array([[rng.randint(0, d - 1) for d in s[:q]] for _ in range(m)],
                       np.int64).reshape(m, q)
        b.node(op, [x, b.const(idx), b.operand(F, [m] + s[q:])])
    elif op == "ScatterElements":
        x, s = b.x(min_rank=1, pred=lambda s: min(s) >= 1)
        ax = b.axis(len(s))
        t = [rng.randint(1, d) for d in s]
        idx = np.array([rng.randint(0, s[ax] - 1) for _ in range(int(np.prod(t)))],
                       np.int64).reshape(t)
        b.node(op, [x, b.const(idx), b.operand(F, t)], axis=ax)
    elif op == "CastLike":
        x, s = b.x(dyn=True, dtypes=(F, T.INT64, T.BOOL))
        like = rng.choice([F, T.INT64, T.BOOL])
        b.node(op, [x, b.const(b.rand_data(like, [1]), node=False)])
    elif op == "QuantizeLinear":
        x, s = b.x(dyn=True)
        ins = [x, b.const(np.array(rng.choice([0.02, 0.1, 1.0]), np.float32), node=False)]
        if rng.random() < 0.7:
            zt = rng.choice([np.uint8, np.int8])
            ins.append(b.const(np.array(rng.randint(0, 10), zt), node=False))
        b.node(op, ins)
    elif op == "DequantizeLinear":
        s = b.rand_shape()
        x = b.new_input(rng.choice([T.UINT8, T.INT8]), s)
        ins = [x, b.const(np.array(0.1, np.float32), node=False)]
        if rng.random() < 0.5:
            zt = np.uint8 if b.vals[x][0] == T.UINT8 else np.int8
            ins.append(b.const(np.array(3, zt), node=False))
        b.node(op, ins)
    elif op == "DynamicQuantizeLinear":
        x, s = b.x()
        b.node(op, [x], n_out=3)
    elif op == "MatMulInteger":
        mm, kk, nn = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
        a = b.new_input(T.UINT8, [rng.randint(1, 2), mm, kk][rng.randint(0, 1):])
        bb = b.const(np.ones([kk, nn], np.uint8), node=False)
        b.node(op, [a, bb])
    elif op == "QLinearMatMul":
        mm, kk, nn = rng.randint(1, 4), rng.randint(1, 4), rng.randint(1, 4)
        a = b.new_input(T.UINT8, [rng.randint(1, 2), mm, kk][rng.randint(0, 1):])
        sc = b.const(np.array(0.1, np.float32), node=False)
        z = b.const(np.array(1, np.uint8), node=False)
        w = b.const(np.ones([kk, nn], np.uint8), node=False)
        zy = b.const(np.array(2, rng.choice([np.uint8, np.int8])), node=False)
        b.node(op, [a, sc, z, w, sc, z, sc, zy])
    elif op in ("ConvInteger", "QLinearConv", "ConvTranspose"):
        n_sp = rng.randint(1, 2)
        c = rng.randint(1, 3)
        x = b.new_input(F if op == "ConvTranspose" else T.UINT8,
                        [1, c] + [rng.randint(2, 6) for _ in range(n_sp)])
        k = [rng.randint(1, 3) for _ in range(n_sp)]
        attrs = {"strides": [rng.randint(1, 3) for _ in range(n_sp)]}
        if rng.random() < 0.3:
            attrs["dilations"] = [rng.randint(1, 2) for _ in range(n_sp)]
        ap = rng.choice(["NOTSET", "NOTSET", "VALID", "SAME_UPPER", "SAME_LOWER"])
        if ap == "NOTSET":
            attrs["pads"] = [rng.randint(0, kk - 1) for kk in k] * 2
        else:
            attrs["auto_pad"] = ap
        m = rng.randint(1, 3)
        if op == "ConvTranspose":
            if rng.random() < 0.3:
                attrs["output_padding"] = [rng.randint(0, s - 1) for s in attrs["strides"]]
            w = b.const(np.ones([c, m] + k, np.float32), node=False)
            ins = [x, w]
            if rng.random() < 0.5:
                ins.append(b.const(np.zeros(m, np.float32), node=False))
            b.node(op, ins, **attrs)
        elif op == "ConvInteger":
            w = b.const(np.ones([m, c] + k, np.uint8), node=False)
            b.node(op, [x, w], **attrs)
        else:
            sc = b.const(np.array(0.1, np.float32), node=False)
            z = b.const(np.array(1, np.uint8), node=False)
            w = b.const(np.ones([m, c] + k, np.uint8), node=False)
            zy = b.const(np.array(2, np.uint8), node=False)
            ins = [x, sc, z, w, sc, z, sc, zy]
            if rng.random() < 0.5:
                ins.append(b.const(np.zeros(m, np.int32), node=False))
            b.node(op, ins, **attrs)
    elif op in ("RNN", "GRU", "LSTM"):
        gates = {"RNN": 1, "GRU": 3, "LSTM": 4}[op]
        layout = int(rng.random() < 0.1)  # ONNX Runtime runs layout 0 only
        seq, batch, inp, hid = (rng.randint(1, 4) for _ in range(4))
        nd = rng.choice([1, 2])
        x = b.new_input(F, [batch, seq, inp] if layout else [seq, batch, inp])
        w = b.const(np.ones([nd, gates * hid, inp], np.float32) * 0.1, node=False)
        r = b.const(np.ones([nd, gates * hid, hid], np.float32) * 0.1, node=False)
        attrs = {"direction": "bidirectional" if nd == 2 else rng.choice(["forward", "reverse"])}
        if layout:
            attrs["layout"] = 1
        if rng.random() < 0.9:  # ONNX Runtime needs it
            attrs["hidden_size"] = hid
        n_out = rng.randint(1, 3 if op == "LSTM" else 2)
        b.node(op, [x, w, r], n_out=n_out, **attrs)
    elif op == "BitShift":
        s = b.rand_shape()
        x = b.new_input(T.UINT8, s)
        y = b.const(np.ones(b.bshape(s), np.uint8), node=False)
        ins = [x, y] if rng.random() < 0.5 else [y, x]
        b.node(op, ins, direction=rng.choice(["LEFT", "RIGHT"]))
    elif op == "GridSample":
        x, s = b.x(min_rank=4, max_rank=4)
        grid = b.new_input(F, [s[0], rng.randint(1, 4), rng.randint(1, 4), 2])
        b.node(op, [x, grid], mode=rng.choice(["bilinear", "nearest"]))
    elif op == "RoiAlign":
        x, s = b.x(min_rank=4, max_rank=4, pred=lambda s: s[1] >= 1)
        r = rng.randint(1, 3)
        rois = b.const(np.array([[0, 0, 1, 1]] * r, np.float32), node=False)
        idx = b.const(np.zeros(r, np.int64), node=False)
        b.node(op, [x, rois, idx], output_height=rng.randint(1, 3),
               output_width=rng.randint(1, 3))
    elif op == "MaxUnpool":
        x, s = b.x(min_rank=4, max_rank=4, pred=lambda s: min(s[2:]) >= 2)
        k = [2, 2]
        y, i = b.node("MaxPool", [x], n_out=2, kernel_shape=k, strides=k)
        ins = [y, i]
        if rng.random() < 0.4:
            ins.append(b.ints(s))
        b.node(op, ins, kernel_shape=k, strides=k)
    elif op == "Bernoulli":
        x, s = b.x()
        attrs = {}
        if rng.random() < 0.5:
            attrs["dtype"] = rng.choice([T.FLOAT, T.DOUBLE, T.INT32, T.INT64, T.BOOL, T.UINT8])
        b.node(op, [b.node("Sigmoid", [x])[0]], **attrs)
    elif op in ("RandomNormal", "RandomUniform"):
        attrs = {"shape": b.rand_shape()}
        if rng.random() < 0.5:
            attrs["dtype"] = rng.choice([T.FLOAT, T.DOUBLE])
        b.node(op, [], **attrs)
    elif op in ("RandomNormalLike", "RandomUniformLike"):
        x, s = b.x(dtypes=(F, T.INT64))
        attrs = {}
        if rng.random() < 0.5 or b.vals[x][0] != F:
            attrs["dtype"] = rng.choice([T.FLOAT, T.DOUBLE])
        b.node(op, [x], **attrs)
    elif op == "Multinomial":
        x, s = b.x(min_rank=2, max_rank=2, pred=lambda t: t[1] >= 1)
        attrs = {"sample_size": rng.randint(1, 4)}
        if rng.random() < 0.5:
            attrs["dtype"] = rng.choice([T.INT32, T.INT64])
        b.node(op, [x], **attrs)
    elif op == "MaxRoiPool":
        x, s = b.x(min_rank=4, max_rank=4, pred=lambda t: min(t) >= 1)
        r = rng.randint(1, 3)
        rois = b.const(np.array([[0, 0, 0, 1, 1]] * r, np.float32), node=False)
        b.node(op, [x, rois], pooled_shape=[rng.randint(1, 3), rng.randint(1, 3)],
               spatial_scale=rng.choice([1.0, 0.5]))
    elif op == "com.microsoft.Gelu":
        # recorded as exporters record: no negative dimension (python3-onnx
        # 1.12 infers some for a pool's window past its input)
        x, s = b.x(pred=lambda t: all(d >= 0 for d in t))
        y = b.node("Gelu", [x], domain="com.microsoft")[0]
        b.vals[y] = (F, list(s))
        b.recorded.append(helper.make_tensor_value_info(y, F, s))
    elif op == "DFT":
        # [batch, signal..., 1 (real) or 2 (complex)], the axis not the last
        if rng.random() < 0.5:
            x, sh = b.x(min_rank=3, max_rank=4, pred=lambda t: t[-1] in (1, 2) and 0 not in t)
        else:
            sh = ([rng.randint(1, 2)] + [rng.randint(1, 9) for _ in range(rng.randint(1, 2))] +
                  [rng.choice([1, 2])])
            x = b.new_input(F, sh)
        r = len(sh)
        attrs = {"axis": rng.choice(list(range(1, r - 1)) + [-2])}
        if rng.random() < 0.5:
            attrs["onesided"] = 1
        elif rng.random() < 0.3:
            attrs["inverse"] = 1
        ins = [x]
        if rng.random() < 0.5:
            ins.append(b.ints(rng.randint(1, 12)))
        b.node(op, ins, **attrs)
    elif op == "STFT":
        n = rng.randint(4, 16)
        x = b.new_input(F, [rng.randint(1, 2), n] + ([rng.choice([1, 2])] if rng.random() < 0.7 else []))
        frame = rng.randint(2, n - 1)
        ins = [x, b.ints(rng.randint(1, 4))]
        how = rng.randint(0, 2)  # a window, frame_length, or both
        if how in (0, 2):
            ins.append(b.node(rng.choice(["HannWindow", "HammingWindow"]), [b.ints(frame)])[0]
                       if rng.random() < 0.5 else b.const(np.ones(frame, np.float32)))
        else:
            ins.append("")
        if how in (1, 2):
            ins.append(b.ints(frame))
        attrs = {}
        if len(b.vals[x][1]) == 3 and b.vals[x][1][2] == 2 or rng.random() < 0.3:
            attrs["onesided"] = 0
        b.node(op, ins, **attrs)
    elif op in ("HannWindow", "HammingWindow", "BlackmanWindow"):
        attrs = {"periodic": rng.randint(0, 1)}
        if rng.random() < 0.3:
            attrs["output_datatype"] = rng.choice([T.DOUBLE, T.INT64, T.UINT8])
        b.node(op, [b.ints(rng.randint(1, 10))], **attrs)
    elif op == "MelWeightMatrix":
        dft = rng.randint(8, 64)
        rate = rng.choice([8000, 16000])
        attrs = {}
        if rng.random() < 0.3:
            attrs["output_datatype"] = T.DOUBLE
        b.node(op, [b.ints(rng.randint(1, 8)), b.ints(dft), b.ints(rate),
                    b.const(np.array(0.0, np.float32)),
                    b.const(np.array(rate / 4, np.float32))], **attrs)
    elif op in ("NegativeLogLikelihoodLoss", "SoftmaxCrossEntropyLoss"):
        n, c = rng.randint(1, 3), rng.randint(2, 4)
        extra = [rng.randint(1, 3) for _ in range(rng.randint(0, 2))]
        x = b.new_input(F, [n, c] + extra)
        labels = b.ints(np.array([rng.randrange(c) for _ in range(n * int(np.prod(extra)))],
                                 np.int64).reshape([n] + extra))
        attrs = {"reduction": rng.choice(["none", "mean", "sum"])}
        n_out = 2 if op == "SoftmaxCrossEntropyLoss" and rng.random() < 0.5 else 1
        b.node(op, [x, labels], n_out=n_out, **attrs)
    elif op == "TfIdfVectorizer":
        k = rng.randint(1, 6)
        x = b.new_input(T.INT64, [rng.randint(1, 3), rng.randint(1, 6)][rng.randint(0, 1):])
        b.node(op, [x], mode="TF", min_gram_length=1, max_gram_length=1, max_skip_count=0,
               ngram_counts=[0], pool_int64s=list(range(1, k + 1)),
               ngram_indexes=rng.sample(range(0, 9), k))
    elif op == "Det":
        n = rng.randint(1, 3)
        x = b.new_input(F, [rng.randint(1, 2), n, n][rng.randint(0, 1):])
        b.node(op, [x])
    elif op == "EyeLike":
        x, s = b.x(min_rank=2, max_rank=2)
        b.node(op, [x], k=rng.randint(-1, 1))
    else:
        raise ValueError(op)


def resize_axes(m, nd, vals, rng):
    """A Resize of opset 18 or later given scales or sizes for some axes
    (the attribute axes: those that change, or one, with others at
    random), and sizes under a keep_aspect_ratio_policy when nothing reads
    its output (the policy changes the shape the generator built on)."""
    x = vals.get(nd.input[0])
    k = 3 if len(nd.input) > 3 and nd.input[3] else 2
    consts = {t.name: t for t in m.graph.initializer}
    consts.update({n.output[0]: a.t for n in m.graph.node if n.op_type == "Constant"
                   for a in n.attribute if a.name == "value"})
    if x is None or None in x[1] or len(nd.input) <= k or nd.input[k] not in consts:
        return
    shape = x[1]
    v = numpy_helper.to_array(consts[nd.input[k]])
    if len(v) != len(shape):
        return
    same = [(v[i] == 1.0) if k == 2 else (v[i] == shape[i]) for i in range(len(v))]
    axes = [i for i in range(len(v)) if not same[i] or rng.random() < 0.3]
    if not axes:
        axes = [rng.randrange(len(v))]
    name = nd.output[0] + "_" + ("scales" if k == 2 else "sizes")
    m.graph.initializer.append(numpy_helper.from_array(v[axes], name))
    nd.input[k] = name
    nd.attribute.append(helper.make_attribute("axes", axes))
    read = {i for n in m.graph.node for i in n.input}
    if k == 3 and nd.output[0] not in read and rng.random() < 0.6:
        nd.attribute.append(helper.make_attribute(
            "keep_aspect_ratio_policy", rng.choice(["not_larger", "not_smaller"])))


def to_opset18(m, vals=None, rng=None):
    """Rewrite a model's opset-17 forms as opsets 18 to 20 have them; with
    @vals (the values' shapes) and @rng, the Resize nodes given axes."""
    for nd in m.graph.node:
        if nd.op_type == "Resize" and vals is not None:
            resize_axes(m, nd, vals, rng)
        if nd.op_type in REDUCE and nd.op_type != "ReduceSum":
            for a in list(nd.attribute):
                if a.name == "axes":
                    name = nd.output[0] + "_axes"
                    m.graph.initializer.append(
                        numpy_helper.from_array(np.array(a.ints, np.int64), name))
                    nd.input.append(name)
                    nd.attribute.remove(a)
        if nd.op_type == "Split" and len(nd.input) < 2:
            nd.attribute.append(helper.make_attribute("num_outputs", len(nd.output)))
        if nd.op_type == "DFT":  # opset 20: the axis an input
            for a in list(nd.attribute):
                if a.name == "axis":
                    name = nd.output[0] + "_axis"
                    m.graph.initializer.append(numpy_helper.from_array(np.array(a.i, np.int64), name))
                    while len(nd.input) < 2:
                        nd.input.append("")
                    nd.input.append(name)
                    nd.attribute.remove(a)


def upsample_model(rng):
    """Opset 9: Upsample (scales input), maybe a Scatter, then a unary op or
    two."""
    b = Builder(rng, 9)
    x = b.new_input(F, [rng.randint(1, 2), rng.randint(1, 3)] +
                    [rng.randint(1, 12) for _ in range(rng.randint(0, 2))])
    s = b.vals[x][1]
    sc = [1.0, 1.0] + [rng.choice([1.0, 1.3, 1.5, 2.0, 2.5, 1.7, 3.0, 1.1])
                       for _ in s[2:]]
    mode = rng.choice(["nearest", "linear"])
    y = b.node("Upsample", [x, b.const(np.array(sc, np.float32), node=False)], mode=mode)[0]
    if rng.random() < 0.5:
        # Scatter (opset 9 and 10, ScatterElements since): the data's shape
        ones = [1] * len(s)
        y = b.node("Scatter", [y, b.ints(np.zeros(ones, np.int64), node=False),
                               b.const(np.ones(ones, np.float32), node=False)],
                   axis=rng.randrange(len(s)))[0]
    for _ in range(rng.randint(1, 2)):
        y = b.node(rng.choice(["Relu", "Sigmoid", "Neg"]), [y])[0]
    m = b.model()
    m.opset_import[0].version = 9
    m.ir_version = 4
    m.graph.output.append(onnx.ValueInfoProto(name=y))
    return m


def model(rng):
    """A random model: 2 to 8 ops, shapes known where inference knows them."""
    if rng.random() < 1 / 20:
        return upsample_model(rng)
    opset = 20 if rng.random() < 1 / 6 else 17
    ops = [o for o in OPS if opset == 20 or o not in ("Gelu", "Mish")]
    if opset == 20:
        # Gelu and Mish only there: weighed up, so 500 models have both
        # Resize weighed up too: opset 18 gave it axes and keep_aspect_ratio_policy
        ops = [o for o in ops if o not in NOT_IN_20] + ["Gelu", "Mish"] * 4 + ["Resize"] * 3
    if opset == 17 and rng.random() < 1 / 8:
        ops = ops + OUTSIDE * 4  # a model with ops the importer cannot infer
    b = Builder(rng, opset)
    want = rng.randint(2, 8)
    tries = 0
    while sum(1 for n in b.nodes if n.op_type != "Constant") < want and tries < 40:
        tries += 1
        keep = (list(b.nodes), list(b.inits), list(b.inputs), dict(b.vals), dict(b.rename),
                list(b.recorded))
        try:
            build_op(b, rng.choice(ops))
            ok = b.infer()
        except (ValueError, IndexError, ZeroDivisionError):
            ok = False
        if not ok:
            b.nodes, b.inits, b.inputs, b.vals, b.rename, b.recorded = keep
    m = b.model()
    # the graph outputs: every node output no node reads (a value of a
    # graph output is sized by the runtime, not recorded here)
    read = {i for n in m.graph.node for i in n.input}
    for nd in m.graph.node:
        for o in nd.output:
            if o not in read:
                m.graph.output.append(onnx.ValueInfoProto(name=o))
    if not m.graph.output and m.graph.node:
        m.graph.output.append(onnx.ValueInfoProto(name=m.graph.node[-1].output[0]))
    for i, op in b.rename.items():
        m.graph.node[i].op_type = op
    if opset == 20:
        to_opset18(m, b.vals, rng)
        m.opset_import[0].version = 20
        m.ir_version = 9
    return m
