"""Robustness of the Python API: every input ends in a value or a Python exception.

A seeded fuzzer calls every public callable of gradgen, gradgen.Tensor, gradgen.autograd,
gradgen.forward_ad, gradgen.profiler and gradgen.jit (enumerated here, so that new ops are
covered without a change to this file), with arguments built from each overload's signature and
then perturbed: wrong types, odd NumPy arrays (negative and zero strides, size-0 and size-1 dims,
float16, complex, object, big-endian, datetime, non-writeable, scalars of every dtype), huge and
negative sizes, dims out of range, out= aliasing an input; plus call sequences: hooks that raise
or return the wrong shape, double backward without retain_graph, reentrant backward from a hook,
in-place changes of saved tensors, contexts (no_grad, dual_level, profile, trace, ...) exited
twice or nested wrongly, and so on (KINDS below, 17 kinds).

The calls run in batches in forked child processes (2 at a time), each under an address-space
limit (so that a huge allocation fails fast with MemoryError). A child writes each call's
description to a log before making it: a crash (a signal, an abort) or a hang (no progress for
HANG_SECONDS) is reported as a failure naming that call, and the batch resumes after it. An
exception whose message is a bare "std::bad_cast" or a SystemError (an error without a message
saying what was expected) is a failure too.

    GRADGEN_ROBUSTNESS_CALLS=1000000 GRADGEN_ROBUSTNESS_SEED=7   a longer campaign (README, docs/testing.md)
"""

import collections
import math
import multiprocessing
import os
import random
import re
import resource
import sys
import tempfile
import time
import warnings

import numpy as np
import pytest

import gradgen
import gradgen.autograd
import gradgen.forward_ad
import gradgen.jit
import gradgen.profiler

CALLS = int(os.environ.get("GRADGEN_ROBUSTNESS_CALLS", "20000"))
SEED = int(os.environ.get("GRADGEN_ROBUSTNESS_SEED", "28"))
BATCH = int(os.environ.get("GRADGEN_ROBUSTNESS_BATCH", "1000"))
HANG_SECONDS = float(os.environ.get("GRADGEN_ROBUSTNESS_HANG_SECONDS", "20"))
MEMORY_LIMIT = 2 << 30  # bytes of address space per child: a 2 GB tensor fails at once

HUGE = [2**31, 2**40, 2**62, 2**63 - 1, -(2**63), -1, -2]
INTS = [0, 1, 2, 3, -1, 5, -3] + HUGE
NUMBERS = [0.0, -1.5, 1e308, math.nan, math.inf, -math.inf, True, False]

# --- the public callables ----------------------------------------------------------------------

_OVERLOAD = re.compile(r"^(\w+)\((.*)\)(?: -> .*)?$")


def _split_params(text):
    out, depth, cur = [], 0, ""
    for ch in text:
        if ch in "[(":
            depth += 1
        elif ch in "])":
            depth -= 1
        if ch == "," and depth == 0:
            out.append(cur.strip())
            cur = ""
        else:
            cur += ch
    if cur.strip():
        out.append(cur.strip())
    return out


def _overloads(fn):
    """[(params)] of a nanobind function's signatures, params as (name, type, has_default, kw)."""
    doc = getattr(fn, "__doc__", None) or ""
    sigs = []
    for line in doc.split("\n\n")[0].splitlines():
        m = _OVERLOAD.match(line.strip())
        if not m:
            continue
        params, kw = [], False
        for p in _split_params(m.group(2)):
            if p == "*":
                kw = True
                continue
            if p == "/":
                continue
            name, _, rest = p.partition(":")
            typ, _, default = rest.partition("=")
            params.append((name.strip(), typ.strip(), bool(default.strip()), kw))
        sigs.append(params)
    return sigs


def public_callables():
    """[(qualified name, callable, is_method)] of everything a user can call."""
    found = []
    modules = [gradgen, gradgen.autograd, gradgen.forward_ad, gradgen.profiler, gradgen.jit]
    for module in modules:
        names = getattr(module, "__all__", None) or dir(module)
        for name in sorted(set(names) | {n for n in dir(module) if not n.startswith("_")}):
            if name.startswith("_"):
                continue
            obj = getattr(module, name, None)
            if callable(obj) and not isinstance(obj, type(gradgen)):
                found.append(("%s.%s" % (module.__name__, name), obj, False))
    dunders = [
        "__add__", "__radd__", "__sub__", "__rsub__", "__mul__", "__rmul__", "__truediv__",
        "__rtruediv__", "__matmul__", "__pow__", "__rpow__", "__neg__", "__abs__", "__iadd__",
        "__isub__", "__imul__", "__itruediv__", "__eq__", "__ne__", "__lt__", "__le__", "__gt__",
        "__ge__", "__getitem__", "__setitem__", "__len__", "__iter__", "__bool__", "__float__",
        "__int__", "__index__", "__repr__", "__array__", "__dlpack__", "__dlpack_device__",
    ]  # fmt: skip
    for name in sorted(n for n in dir(gradgen.Tensor) if not n.startswith("_")) + dunders:
        obj = getattr(gradgen.Tensor, name, None)
        if callable(obj):
            found.append(("Tensor.%s" % name, name, True))
    return found


# --- values ------------------------------------------------------------------------------------


class V:
    """A value to pass, made fresh for each call by `make`, described by `desc`."""

    def __init__(self, desc, make):
        self.desc, self.make = desc, make

    def __repr__(self):
        return self.desc


def _t(desc, make):
    return V(desc, make)


def tensor_values():
    g = gradgen
    return [
        _t("randn(2,3)", lambda: g.randn(2, 3, seed=1)),
        _t("randn(2,3,rg)", lambda: g.randn(2, 3, seed=1, requires_grad=True)),
        _t("randn(3,rg)", lambda: g.randn(3, seed=2, requires_grad=True)),
        _t("randn(3,3)", lambda: g.randn(3, 3, seed=3)),
        _t("randn(2,3,4)", lambda: g.randn(2, 3, 4, seed=4)),
        _t("tensor(2.5)", lambda: g.tensor(2.5)),
        _t("tensor(1.5,rg)", lambda: g.tensor(1.5, requires_grad=True)),
        _t("zeros(0)", lambda: g.zeros(0)),
        _t("zeros(0,3,rg)", lambda: g.zeros(0, 3, requires_grad=True)),
        _t("zeros(3,0)", lambda: g.zeros(3, 0)),
        _t("ones(1)", lambda: g.ones(1)),
        _t("ones(1,1,1)", lambda: g.ones(1, 1, 1)),
        _t("ones(1).expand([0,2**62])", lambda: g.ones(1).expand([0, 2**62])),
        _t("ones(1).expand([300,300])", lambda: g.ones(1).expand([300, 300])),
        _t("randn(4,3).t()", lambda: g.randn(4, 3, seed=5).t()),
        _t("randn(4,6)[:,1:4]", lambda: g.randn(4, 6, seed=6)[:, 1:4]),
        _t("tensor([0,2,1])", lambda: g.tensor([0, 2, 1])),
        _t("tensor([5,-7])", lambda: g.tensor([5, -7])),
        _t("tensor(0)", lambda: g.tensor(0)),
        _t("tensor([[0,1],[1,0]])", lambda: g.tensor([[0, 1], [1, 0]])),
        _t("tensor([True,False,True])", lambda: g.tensor([True, False, True])),
        _t("tensor([nan,inf,-inf])", lambda: g.tensor([math.nan, math.inf, -math.inf])),
        _t("randn(3,dtype=float32)", lambda: g.randn(3, seed=7, dtype=g.float32)),
        _t("randn(2,3)*2 (non-leaf)", lambda: g.randn(2, 3, seed=8, requires_grad=True) * 2),
        _t("Tensor.__new__(Tensor)", lambda: gradgen.Tensor.__new__(gradgen.Tensor)),
    ]


def _strided(a, shape, strides):
    return np.lib.stride_tricks.as_strided(a, shape, strides)


def _readonly(a):
    a.setflags(write=False)
    return a


def numpy_values():
    scalars = [
        np.float16(1), np.float32(1.5), np.float64(2.5), np.longdouble(3), np.complex64(1j),
        np.complex128(1 + 1j), np.int8(-1), np.int16(2), np.int32(3), np.int64(4), np.uint8(5),
        np.uint16(6), np.uint32(7), np.uint64(2**64 - 1), np.bool_(True),
        np.datetime64("2020-01-01"), np.timedelta64(5, "s"), np.str_("x"), np.bytes_(b"x"),
        np.void(b"ab"),
    ]  # fmt: skip
    out = [V("np.%s(%r)" % (type(s).__name__, s.item() if s.dtype.kind not in "MmV" else s),
             (lambda s=s: s)) for s in scalars]  # fmt: skip
    arrays = [
        ("zeros(1)[::-1]", lambda: np.zeros(1)[::-1]),
        ("zeros((1,1))[::-1,::-1]", lambda: np.zeros((1, 1))[::-1, ::-1]),
        ("arange(6.)[::-1]", lambda: np.arange(6.0)[::-1]),
        ("arange(6.)[::-2]", lambda: np.arange(6.0)[::-2]),
        ("zeros((2,0))[::-1]", lambda: np.zeros((2, 0))[::-1]),
        ("zeros(0)", lambda: np.zeros(0)),
        ("zeros((0,3))", lambda: np.zeros((0, 3))),
        ("ones((3,1))", lambda: np.ones((3, 1))),
        ("zero-stride (4,3)", lambda: _strided(np.ones(3), (4, 3), (0, 8))),
        ("zero-stride (2**20,)", lambda: _strided(np.ones(1), (2**20,), (0,))),
        ("fortran (3,4)", lambda: np.asfortranarray(np.ones((3, 4)))),
        ("float16", lambda: np.ones(3, np.float16)),
        ("float32", lambda: np.ones(3, np.float32)),
        ("int32", lambda: np.ones(3, np.int32)),
        ("uint8", lambda: np.ones(3, np.uint8)),
        ("int64", lambda: np.arange(3)),
        ("bool", lambda: np.ones(3, bool)),
        ("complex128", lambda: np.ones(3, complex)),
        ("object", lambda: np.array([1, "a", None], dtype=object)),
        (">f8 (big-endian)", lambda: np.ones(3, ">f8")),
        (">i8 (big-endian)", lambda: np.ones(3, ">i8")),
        ("datetime64[s]", lambda: np.zeros(3, "datetime64[s]")),
        ("timedelta64[ns]", lambda: np.zeros(3, "timedelta64[ns]")),
        ("0-d datetime64", lambda: np.array(np.datetime64("2020-01-01"))),
        ("0-d float64", lambda: np.array(2.0)),
        ("non-writeable", lambda: _readonly(np.ones((2, 2)))),
        ("str <U1", lambda: np.array(["a", "b"])),
        ("structured", lambda: np.zeros(2, dtype=[("a", "f8"), ("b", "i4")])),
        ("unaligned f8", lambda: np.frombuffer(b"\0" * 25, dtype=np.float64, offset=1, count=3)),
        ("matrix", lambda: np.asmatrix(np.ones((2, 2)))),
    ]
    out += [V("np:" + d, m) for d, m in arrays]
    return out


class _Weird:
    def __float__(self):
        raise ValueError("weird float")

    def __index__(self):
        raise ValueError("weird index")

    def __len__(self):
        return -1

    def __getitem__(self, i):
        raise RuntimeError("weird getitem")


class _BadSeq:
    def __len__(self):
        return 3

    def __getitem__(self, i):
        if i == 1:
            raise KeyError(i)
        return 1.0


_DEEP = {}


def _deep(n):
    """A list nested n deep (made once: the calls only read it)."""
    if n not in _DEEP:
        out = [1.0]
        for _ in range(n):
            out = [out]
        _DEEP[n] = out
    return _DEEP[n]


def _recursive():
    a = []
    a.append(a)
    return a


def other_values():
    g = gradgen
    vals = [V(repr(i), (lambda i=i: i)) for i in INTS]
    vals += [V(repr(x), (lambda x=x: x)) for x in NUMBERS + [None, "", "abc"]]
    vals += [
        V("b'x'", lambda: b"x"), V("1j", lambda: 1j), V("object()", object),
        V("[]", list), V("()", tuple), V("{}", dict), V("[1, 2]", lambda: [1, 2]),
        V("[0, -1]", lambda: [0, -1]), V("[2**62, 2]", lambda: [2**62, 2]),
        V("[-1, 3]", lambda: [-1, 3]), V("[1.5, 2]", lambda: [1.5, 2]),
        V("[None]", lambda: [None]), V("(2, 3)", lambda: (2, 3)),
        V("[[1,2],[3]]", lambda: [[1, 2], [3]]), V("deep list 100000", lambda: _deep(100000)),
        V("deep list 200", lambda: _deep(200)), V("recursive list", _recursive),
        V("_Weird()", _Weird), V("_BadSeq()", _BadSeq), V("range(3)", lambda: range(3)),
        V("slice(None)", lambda: slice(None)), V("Ellipsis", lambda: Ellipsis),
        V("lambda x: x", lambda: (lambda x: x)), V("lambda *a: 1/0", lambda: (lambda *a: 1 / 0)),
        V("gradgen.float32", lambda: g.float32), V("gradgen.int64", lambda: g.int64),
        V("gradgen.bool", lambda: g.bool), V("gradgen.strided", lambda: g.strided),
        V("gradgen.contiguous_format", lambda: g.contiguous_format),
        V("gradgen.device('cpu')", lambda: g.device("cpu")), V("float", lambda: float),
        V("Generator(3)", lambda: g.Generator(3)),
        V("Node.__new__(Node)", lambda: g.Node.__new__(g.Node)),
        V("AccumulateGrad.__new__", lambda: g.AccumulateGrad.__new__(g.AccumulateGrad)),
        V("Generator.__new__", lambda: g.Generator.__new__(g.Generator)),
        V("grad_fn of a*2", lambda: (g.randn(2, seed=1, requires_grad=True) * 2).grad_fn),
        V("[randn(2), randn(2)]", lambda: [g.randn(2, seed=1), g.randn(2, seed=2)]),
        V("[randn(2), 3]", lambda: [g.randn(2, seed=1), 3]),
        V("[randn(2,3), randn(3)]", lambda: [g.randn(2, 3, seed=1), g.randn(3, seed=2)]),
    ]  # fmt: skip
    return vals


# --- calls -------------------------------------------------------------------------------------


class Ctx:
    """The values and the random stream of one batch."""

    def __init__(self, rng):
        self.rng = rng
        self.tensors = tensor_values()
        self.numpy = numpy_values()
        self.other = other_values()
        self.everything = self.tensors + self.numpy + self.other
        self.ints = [V(repr(i), (lambda i=i: i)) for i in INTS]
        self.numbers = self.ints + [V(repr(x), (lambda x=x: x)) for x in NUMBERS]
        self.dtypes = [v for v in self.other if v.desc.startswith("gradgen.") and "device" not in v.desc]
        self.callables = public_callables()

    def pick(self, values):
        return values[self.rng.randrange(len(values))]

    def wild(self):
        return self.pick(self.everything)

    def for_type(self, typ):
        """A value for a parameter of type `typ` (a signature's text), sometimes a wrong one."""
        r = self.rng.random()
        if r < 0.12:
            return self.wild()
        if "| None" in typ and r < 0.25:
            return V("None", lambda: None)
        if "Sequence[gradgen.Tensor]" in typ:
            n = self.rng.randrange(4)
            items = [self.pick(self.tensors) for _ in range(n)]
            return V("[%s]" % ", ".join(i.desc for i in items), lambda: [i.make() for i in items])
        if "Sequence[int]" in typ:
            n = self.rng.randrange(4)
            items = [self.pick(self.ints) for _ in range(n)]
            return V(repr([i.make() for i in items]), lambda: [i.make() for i in items])
        if "Tensor" in typ:
            return self.pick(self.tensors)
        if "Scalar" in typ or "float" in typ:
            return self.pick(self.numbers)
        if "int" in typ:
            return self.pick(self.ints)
        if "bool" in typ:
            return self.pick([V("True", lambda: True), V("False", lambda: False)])
        if "dtype" in typ:
            return self.pick(self.dtypes)
        if "Generator" in typ:
            return V("Generator(3)", lambda: gradgen.Generator(3))
        return self.wild()


def _signature_call(ctx, name, fn, is_method):
    """A call of fn built from one of its overloads' signatures (or random arguments)."""
    rng = ctx.rng
    target = getattr(gradgen.Tensor, fn) if is_method else fn
    sigs = _overloads(target)
    if is_method:
        self_v = ctx.pick(ctx.tensors) if rng.random() < 0.9 else ctx.wild()
    if not sigs or rng.random() < 0.1:  # Python functions, or plain random arguments
        args = [ctx.wild() for _ in range(rng.randrange(4))]
        kwargs = {}
    else:
        params = sigs[rng.randrange(len(sigs))]
        args, kwargs = [], {}
        for pname, typ, has_default, kw in params:
            if pname == "self":
                continue
            if has_default and rng.random() < 0.5:
                continue
            if pname.startswith("*"):
                for _ in range(rng.randrange(4)):
                    args.append(ctx.pick(ctx.ints) if rng.random() < 0.8 else ctx.wild())
                continue
            if pname == "out" and rng.random() < 0.6 and args:  # out= aliasing an input
                value = args[rng.randrange(len(args))]
            else:
                value = ctx.for_type(typ)
            if kw or (has_default and rng.random() < 0.3):
                kwargs[pname] = value
            else:
                args.append(value)
        if rng.random() < 0.05:
            args.append(ctx.wild())
        if rng.random() < 0.05:
            kwargs["bogus"] = ctx.wild()

    def describe():
        parts = [a.desc for a in args] + ["%s=%s" % (k, v.desc) for k, v in kwargs.items()]
        if is_method:
            return "(%s).%s(%s)" % (self_v.desc, fn, ", ".join(parts))
        return "%s(%s)" % (name, ", ".join(parts))

    def run():
        a = [v.make() for v in args]
        k = {key: v.make() for key, v in kwargs.items()}
        if is_method:
            return getattr(self_v.make(), fn)(*a, **k)
        return fn(*a, **k)

    return describe(), run


# Call sequences: each returns (description, thunk).


def kind_call(ctx):
    name, fn, is_method = ctx.pick(ctx.callables)
    return _signature_call(ctx, name, fn, is_method)


def kind_wild(ctx):
    name, fn, is_method = ctx.pick(ctx.callables)
    args = [ctx.wild() for _ in range(ctx.rng.randrange(5))]
    self_v = ctx.wild() if ctx.rng.random() < 0.3 else ctx.pick(ctx.tensors)

    def run():
        a = [v.make() for v in args]
        if is_method:
            return getattr(gradgen.Tensor, fn)(self_v.make(), *a)
        return fn(*a)

    who = "Tensor.%s(%s, " % (fn, self_v.desc) if is_method else name + "("
    return who + ", ".join(a.desc for a in args) + ")", run


def kind_numpy(ctx):
    op = ctx.rng.randrange(7)
    arr = ctx.pick(ctx.numpy)
    if op in (0, 1, 5) and ctx.rng.random() < 0.05:  # only converted: anything else would run
        # over its 2**40 elements, as PyTorch would
        arr = V("np:zero-stride (2**40,)", lambda: _strided(np.ones(1), (2**40,), (0,)))
    g = gradgen

    def run():
        a = arr.make()
        if op == 0:
            return g.from_numpy(a)
        if op == 1:
            return g.tensor(a)
        if op == 2:
            return g.tensor([a, a])
        if op == 3:
            t = g.from_numpy(a)
            return t.sum(), t.numpy(), repr(t)
        if op == 4:
            return g.randn(3, seed=1) + g.tensor(a)
        if op == 5:
            return g.tensor(a, dtype=g.float32)
        t = g.from_numpy(a)
        a[...] = 0  # writes through the shared memory
        return t.tolist()

    return "numpy op %d on %s" % (op, arr.desc), run


def kind_out_alias(ctx):
    ops = [n for n, fn, m in ctx.callables if not m and any(p[0] == "out" for s in _overloads(fn) for p in s)]
    if not ops:
        return kind_call(ctx)
    name = ctx.pick(ops)
    fn = dict((n, f) for n, f, _ in ctx.callables)[name]
    a, b = ctx.pick(ctx.tensors), ctx.pick(ctx.tensors)
    view = ctx.rng.random() < 0.5

    def run():
        x, y = a.make(), b.make()
        out = x[0] if view and x.dim() > 0 and x.shape[0] > 0 else x
        sig = [s for s in _overloads(fn) if any(p[0] == "out" for p in s)][0]
        args = [x, y, y][: sum(1 for p in sig if not p[2] and not p[3] and p[0] != "out")]
        return fn(*args, out=out)

    return "%s(%s, %s, out=%s%s)" % (name, a.desc, b.desc, a.desc, "[0]" if view else ""), run


def kind_hook(ctx):
    g = gradgen
    which = ctx.rng.randrange(6)
    x = ctx.pick([t for t in ctx.tensors if "rg" in t.desc])
    hooks = [
        ("raises", lambda grad: 1 / 0),
        ("wrong shape", lambda grad: g.ones(7)),
        ("wrong dtype", lambda grad: g.ones(grad.shape, dtype=g.float32) if grad is not None else None),
        ("returns int", lambda grad: 3),
        ("returns None", lambda grad: None),
        ("returns uninitialized Tensor", lambda grad: g.Tensor.__new__(g.Tensor)),
    ]
    desc, hook = hooks[which]

    def run():
        t = x.make()
        t.register_hook(hook)
        y = (t * 2).sum()
        y.backward()
        return t.grad

    return "hook that %s on %s, then backward" % (desc, x.desc), run


def kind_double_backward(ctx):
    g = gradgen
    use_grad = ctx.rng.random() < 0.5

    def run():
        x = g.randn(3, seed=1, requires_grad=True)
        y = (x.exp() * x).sum()
        if use_grad:
            g.autograd.grad([y], [x])
            return g.autograd.grad([y], [x])
        y.backward()
        y.backward()

    return "double %s without retain_graph" % ("grad" if use_grad else "backward"), run


def kind_reentrant(ctx):
    g = gradgen
    variant = ctx.rng.choices(range(4), [3, 3, 1, 3])[0]

    def run():
        x = g.randn(3, seed=1, requires_grad=True)
        y = (x * x).sum()

        def hook(grad):
            if variant == 0:
                y.backward()  # the graph running now
            elif variant == 1:
                z = g.randn(3, seed=2, requires_grad=True)
                (z * 3).sum().backward()
            elif variant == 2:
                g.autograd.grad([y], [x], retain_graph=True)  # which calls this hook again...
            elif not entered:  # ... once only
                entered.append(1)
                g.autograd.grad([y], [x], retain_graph=True)
            return grad

        entered = []

        x.register_hook(hook)
        y.backward(retain_graph=variant != 0)
        return x.grad

    return "reentrant backward from a hook (variant %d)" % variant, run


def kind_saved_inplace(ctx):
    g = gradgen
    op = ctx.pick(["exp", "mul", "sigmoid", "tanh", "pow", "sqrt", "log_softmax", "relu"])
    change = ctx.pick(["add_", "zero_", "mul_", "setitem", "relu_", "numpy write"])

    def run():
        x = g.randn(4, seed=1, requires_grad=True)
        a = x * 1
        if op == "mul":
            y = a * a
        elif op == "pow":
            y = a.pow(2)
        elif op == "log_softmax":
            y = a.log_softmax(0)
        else:
            y = getattr(a, op)()
        with g.no_grad():
            if change == "add_":
                a.add_(g.ones(4))
            elif change == "zero_":
                a.zero_()
            elif change == "mul_":
                a.mul_(g.ones(4))
            elif change == "setitem":
                a[0] = 5.0
            elif change == "relu_":
                y.relu_()
            else:
                a.detach().numpy()[0] = 7.0
        y.sum().backward()
        return x.grad

    return "saved tensor of %s changed by %s, then backward" % (op, change), run


def _contexts():
    g = gradgen
    return [
        ("no_grad", lambda: g.no_grad()),
        ("enable_grad", lambda: g.enable_grad()),
        ("set_grad_enabled(False)", lambda: g.set_grad_enabled(False)),
        ("detect_anomaly", lambda: g.autograd.detect_anomaly()),
        ("set_detect_anomaly(True)", lambda: g.autograd.set_detect_anomaly(True)),
        ("dual_level", lambda: g.forward_ad.dual_level()),
        ("profile", lambda: g.profiler.profile()),
    ]


def kind_context(ctx):
    g = gradgen
    contexts = _contexts()
    (da, ma), (db, mb) = ctx.pick(contexts), ctx.pick(contexts)
    pattern = ctx.rng.randrange(5)

    def run():
        a, b = ma(), mb()
        if pattern == 0:  # exited twice
            a.__enter__()
            a.__exit__(None, None, None)
            a.__exit__(None, None, None)
        elif pattern == 1:  # exited without being entered
            a.__exit__(None, None, None)
        elif pattern == 2:  # entered twice
            a.__enter__()
            a.__enter__()
            a.__exit__(None, None, None)
        elif pattern == 3:  # nested wrongly: a, b entered, a exited first
            a.__enter__()
            b.__enter__()
            a.__exit__(None, None, None)
            b.__exit__(None, None, None)
        else:  # an exception inside, and ops between
            try:
                with a:
                    with b:
                        x = g.randn(2, seed=1, requires_grad=True)
                        (x * 2).sum().backward()
                        raise KeyError("inside")
            except KeyError:
                pass
        return g.is_grad_enabled(), g.forward_ad._current_level(), g.is_anomaly_enabled()

    def reset():  # the next call starts from the defaults, whatever this one left
        g._C._set_grad_enabled(True)
        g._C._set_anomaly_enabled(False)
        level = g._C._current_dual_level()
        if level:
            g._C._exit_dual_level(level)

    return "contexts %s / %s, pattern %d" % (da, db, pattern), run, reset


def kind_forward_ad(ctx):
    g = gradgen
    fa = g.forward_ad
    p, t = ctx.pick(ctx.tensors), ctx.pick(ctx.tensors)
    variant = ctx.rng.randrange(5)
    level = ctx.pick(ctx.ints)

    def run():
        if variant == 0:
            return fa.make_dual(p.make(), t.make())  # no level open
        if variant == 1:
            with fa.dual_level():
                d = fa.make_dual(p.make(), t.make())
                return fa.unpack_dual(d.sin() * d).tangent
        if variant == 2:
            with fa.dual_level():
                return fa.make_dual(p.make(), t.make(), level=level.make())
        if variant == 3:
            with fa.dual_level():
                d = fa.make_dual(p.make(), t.make())
            return fa.unpack_dual(d), d * 2  # after its level closed
        return fa.exit_dual_level(level=level.make())

    return "forward_ad variant %d: primal %s, tangent %s, level %s" % (variant, p.desc, t.desc, level.desc), run


def kind_trace(ctx):
    g = gradgen
    variant = ctx.rng.randrange(7)
    inp = ctx.pick(ctx.tensors)
    arg = ctx.wild()

    def run():
        x = inp.make()
        if variant == 0:
            return g.jit.trace(lambda a: 3, (x,))
        if variant == 1:
            return g.jit.trace(lambda a: 1 / 0, (x,))
        if variant == 2:
            traced = g.jit.trace(lambda a: (a * 2).sum(), (x,))
            return traced(arg.make())
        if variant == 3:
            traced = g.jit.trace(lambda a: a.exp(), (x,))
            return traced._graph.replay([None])
        if variant == 4:  # nested traces
            return g.jit.trace(lambda a: g.jit.trace(lambda b: b * 2, (a,))(a), (x,))
        if variant == 5:
            return g._C._trace(lambda ins: arg.make(), [x])
        traced = g.jit.trace(lambda a: [a, a * 2], (x,))
        return traced(x, x), traced.json(), traced.graph

    return "trace variant %d on %s with %s" % (variant, inp.desc, arg.desc), run


def kind_index(ctx):
    t = ctx.pick(ctx.tensors)
    keys = [
        0, -1, 5, 2**62, -(2**63), None, Ellipsis, slice(None), slice(1, None), slice(None, None, 2),
        slice(None, None, -1), (0, 0), (None, 0, None), (Ellipsis, Ellipsis), (0, 0, 0, 0, 0),
        True, 1.5, "a", [0, 1], (slice(0, 2**62), 0),
    ]  # fmt: skip
    key = ctx.pick(keys)
    value = ctx.wild() if ctx.rng.random() < 0.5 else None

    def run():
        x = t.make()
        k = key() if callable(key) else key
        if value is None:
            return x[k]
        x[k] = value.make()
        return x

    return "(%s)[%r]%s" % (t.desc, key, "" if value is None else " = " + value.desc), run


def kind_grad_api(ctx):
    g = gradgen
    out, inp, go = ctx.pick(ctx.tensors), ctx.pick(ctx.tensors), ctx.wild()
    variant = ctx.rng.randrange(4)

    def run():
        x = inp.make()
        y = out.make()
        if variant == 0:
            return g.autograd.grad([y], [x], allow_unused=True)
        if variant == 1:
            return g.autograd.grad([y], [x], grad_outputs=[go.make()], allow_unused=True)
        if variant == 2:
            return g.autograd.backward([y], grad_tensors=[go.make()])
        return y.backward(go.make())

    return "autograd variant %d: out %s, input %s, grad %s" % (variant, out.desc, inp.desc, go.desc), run


def kind_operator(ctx):
    a, b = (ctx.pick(ctx.tensors) if ctx.rng.random() < 0.5 else ctx.wild()), ctx.wild()
    op = ctx.pick(["+", "-", "*", "/", "@", "**", "==", "<", ">=", "+=", "*=", "/=", "-="])

    def run():
        x, y = a.make(), b.make()
        if op.endswith("=") and op not in ("==", ">="):
            exec("x %s y" % op, {}, {"x": x, "y": y})
            return x
        return eval("x %s y" % op, {}, {"x": x, "y": y})

    return "%s %s %s" % (a.desc, op, b.desc), run


def kind_conversion(ctx):
    g = gradgen
    t = ctx.pick(ctx.tensors + [V("ones(1).expand([3, 2**40])", lambda: g.ones(1).expand([3, 2**40]))])
    conv = ctx.pick(["repr", "str", "item", "tolist", "float", "int", "bool", "len", "iter", "numpy",
                     "numpy(force)", "array", "dlpack", "index", "hash", "data_ptr"])  # fmt: skip

    def run():
        x = t.make()
        if conv in ("repr", "str"):
            return len(repr(x))
        if conv == "tolist":
            return x.tolist() if x.numel() < 10**6 else None
        if conv in ("float", "int", "bool", "len", "hash"):
            return eval(conv)(x)
        if conv == "iter":
            return [len(repr(i)) for i in iter(x)][:3] if x.dim() == 0 or x.shape[0] < 10**4 else None
        if conv == "numpy":
            return x.numpy()
        if conv == "numpy(force)":
            return x.numpy(force=True)
        if conv == "array":
            return np.asarray(x)
        if conv == "dlpack":
            return np.from_dlpack(x)
        if conv == "index":
            return [10, 20, 30][x]
        return getattr(x, conv)()

    return "%s(%s)" % (conv, t.desc), run


def kind_generator(ctx):
    g = gradgen
    seed, p = ctx.pick(ctx.ints + [V("-1.5", lambda: -1.5), V("None", lambda: None)]), ctx.wild()
    variant = ctx.rng.randrange(4)

    def run():
        if variant == 0:
            return g.Generator(seed.make())
        if variant == 1:
            return g.manual_seed(seed.make())
        if variant == 2:
            return g.dropout(g.randn(4, seed=1), p.make(), True)
        return g.randn(3, seed=seed.make()), g.Generator(3).manual_seed(seed.make())

    return "generator variant %d: seed %s, p %s" % (variant, seed.desc, p.desc), run


def kind_graph(ctx):
    g = gradgen
    node = ctx.pick([v for v in ctx.other if "Node" in v.desc or "grad_fn" in v.desc or "Accum" in v.desc])
    op = ctx.pick(["name", "next_functions", "repr", "to_dot", "forward_call_site", "variable", "anomaly"])

    def run():
        n = node.make()
        if op == "name":
            return n.name()
        if op == "next_functions":
            return n.next_functions
        if op == "repr":
            return repr(n)
        if op == "to_dot":
            return g.autograd.to_dot([g.randn(2, seed=1, requires_grad=True) * 2], {"x": n})
        if op == "forward_call_site":
            return g.autograd.forward_call_site(n)
        if op == "variable":
            return n.variable
        return g._C._anomaly_metadata(n)

    return "%s of %s" % (op, node.desc), run


KINDS = [
    (kind_call, 40), (kind_wild, 10), (kind_numpy, 8), (kind_out_alias, 3), (kind_hook, 3),
    (kind_double_backward, 1), (kind_reentrant, 2), (kind_saved_inplace, 3), (kind_context, 4),
    (kind_forward_ad, 3), (kind_trace, 3), (kind_index, 4), (kind_grad_api, 3),
    (kind_operator, 5), (kind_conversion, 4), (kind_generator, 2), (kind_graph, 2),
]  # fmt: skip


# --- the child ---------------------------------------------------------------------------------


def _is_bad_error(e):
    """An exception that says nothing of what was expected, or that nanobind should not raise."""
    if isinstance(e, MemoryError):  # Python's own carries no message
        return False
    return isinstance(e, SystemError) or str(e).strip() in ("std::bad_cast", "bad_cast", "")


def worker(seed, first, count, log_path, result_path):
    """Makes calls [first, first + count) of the campaign `seed`; logs each before making it."""
    resource.setrlimit(resource.RLIMIT_AS, (MEMORY_LIMIT, MEMORY_LIMIT))
    os.chdir(tempfile.mkdtemp(prefix="gradgen_robustness_"))  # files ops write land here
    warnings.simplefilter("ignore")
    sys.setrecursionlimit(2000)
    log = os.open(log_path, os.O_WRONLY | os.O_APPEND | os.O_CREAT)
    counts = collections.Counter()
    bad = []
    weights = [w for _, w in KINDS]
    for i in range(first, first + count):
        rng = random.Random("%d/%d" % (seed, i))
        if "ctx" not in _CTX:
            _CTX["ctx"] = Ctx(rng)
        ctx = _CTX["ctx"]
        ctx.rng = rng
        kind = rng.choices(KINDS, weights)[0][0]
        made = kind(ctx)
        desc, run = made[0], made[1]
        os.write(log, ("%d\t%s\t%s\n" % (i, kind.__name__, desc.replace("\n", " "))).encode())
        try:
            result = run()
            if isinstance(result, gradgen.Tensor):
                repr(result)
            counts["value"] += 1
        except Exception as e:  # noqa: BLE001 (every exception is an answer; bad ones are noted)
            counts[type(e).__name__] += 1
            if _is_bad_error(e):
                bad.append("call %d (%s): %s: %r" % (i, desc, type(e).__name__, str(e)))
        finally:
            if len(made) > 2:
                made[2]()
        if gradgen._C._current_dual_level():
            gradgen._C._exit_dual_level(gradgen._C._current_dual_level())
    with open(result_path, "w") as f:
        f.write(repr((dict(counts), bad)))
    os.close(log)
    os._exit(0)


_CTX = {}


# --- the parent --------------------------------------------------------------------------------


def _last_call(log_path):
    try:
        with open(log_path) as f:
            lines = f.read().splitlines()
    except FileNotFoundError:
        return None, None
    if not lines:
        return None, None
    index, _, rest = lines[-1].partition("\t")
    return int(index), rest


def campaign(seed, calls, batch, jobs=2):
    """Runs the campaign; returns (counts, failures)."""
    fork = multiprocessing.get_context("fork")
    work = tempfile.mkdtemp(prefix="gradgen_robustness_logs_")
    pending = [(first, min(batch, calls - first)) for first in range(0, calls, batch)]
    running = []
    counts, failures = collections.Counter(), []
    serial = 0
    while pending or running:
        while pending and len(running) < jobs:
            first, count = pending.pop(0)
            serial += 1
            log = os.path.join(work, "log%d" % serial)
            res = os.path.join(work, "res%d" % serial)
            p = fork.Process(target=worker, args=(seed, first, count, log, res))
            p.start()
            running.append([p, first, count, log, res, time.monotonic(), -1])
        time.sleep(0.05)
        for entry in list(running):
            p, first, count, log, res, since, last = entry
            index, desc = _last_call(log)
            now = time.monotonic()
            if index is not None and index != last:
                entry[5], entry[6] = now, index
            if p.exitcode is None and now - entry[5] < HANG_SECONDS:
                continue
            if p.exitcode is None:
                p.kill()
                p.join()
                problem = "hang (no progress for %.0f s)" % HANG_SECONDS
            elif p.exitcode != 0 or not os.path.exists(res):
                problem = "crash (exit code %d)" % p.exitcode
            else:
                problem = None
            running.remove(entry)
            if problem is None:
                with open(res) as f:
                    batch_counts, bad = eval(f.read())  # noqa: S307 (our own child's repr)
                counts.update(batch_counts)
                failures += ["bad error: " + b for b in bad]
                continue
            counts[problem.split()[0]] += 1
            failures.append("%s at call %s: %s" % (problem, index, desc))
            # The calls before it were made (their answers are lost with the child: not
            # counted); resume after the one that failed.
            done = (index - first + 1) if index is not None else count
            if done < count:
                pending.insert(0, (first + done, count - done))
    return counts, failures


def test_public_callables_are_enumerated():
    names = [n for n, _, _ in public_callables()]
    assert len(names) > 200, len(names)
    for expected in ("gradgen.add", "gradgen.from_numpy", "Tensor.sum", "gradgen.jit.trace",
                     "gradgen.forward_ad.make_dual", "gradgen.profiler.profile",
                     "gradgen.autograd.grad"):  # fmt: skip
        assert expected in names


def test_every_call_ends_in_a_value_or_an_exception(capsys):
    start = time.monotonic()
    counts, failures = campaign(SEED, CALLS, BATCH)
    elapsed = time.monotonic() - start
    crashes, hangs = counts.pop("crash", 0), counts.pop("hang", 0)
    values = counts.pop("value", 0)
    exceptions = sum(counts.values())
    summary = (
        "robustness: %d calls (seed %d, %d kinds of call sequence, %d public callables) in %.0f s: "
        "%d values, %d exceptions (%s), %d crashes, %d hangs, %d bad errors"
        % (CALLS, SEED, len(KINDS), len(public_callables()), elapsed, values, exceptions,
           ", ".join("%s %d" % kv for kv in counts.most_common()), crashes, hangs,
           len(failures) - crashes - hangs)
    )  # fmt: skip
    with capsys.disabled():
        print("\n" + summary)
        for f in failures[:50]:
            print("  " + f)
    assert not failures, "\n".join([summary] + failures[:50])
    assert values + exceptions >= CALLS * 0.99  # every call was made and answered


if __name__ == "__main__":
    sys.exit(pytest.main([__file__, "-q"] + sys.argv[1:]))
