"""The tracer: a decorated Python function becomes a HIR kernel.

@hawk.kernel calls the function once, at decoration, with one traced
value per slot.  Each operation on traced values appends one HIR
instruction, in the order Python evaluates them (so the kernel computes
what the function's expressions say, in their order); a slot is loaded
where it is first used.  A Mutable slot's value when the function
returns (the local of its name, read through the profiler's return
event) is stored back.  The text goes through the same parser and
verifier as any .hir file."""
import inspect
import os
import sys

from . import _core
from ._errors import Diagnostic, HawkError
from ._ir import Kernel, Module
from ._types import Elem, Shape, f32, f64, slot_of

_I1 = Elem("i1")

_HERE = os.path.dirname(os.path.abspath(__file__))


def _user_frame():
    """The innermost frame outside the package: where the user's line is."""
    f = sys._getframe(1)
    while f is not None and os.path.dirname(os.path.abspath(
            f.f_code.co_filename)) == _HERE:
        f = f.f_back
    return f


def trace_error(what, instead):
    """A HawkError at the user's line saying what to write instead."""
    f = _user_frame()
    file, line = (f.f_code.co_filename, f.f_lineno) if f else (None, 0)
    msg = "%s; %s" % (what, instead)
    text = "%s:%d: error: %s\n" % (file, line, msg) if file else "error: %s\n" % msg
    return HawkError(msg, [Diagnostic(file, line, 0, "error", msg, None, None,
                                      None, text)])


class _Builder:
    def __init__(self):
        self.lines = []
        self.where = []       # (file, line) of the user's code, per line
        self.count = 0

    def fresh(self):
        self.count += 1
        return "t%d" % self.count

    def emit(self, text, where=None):
        if where is None:
            f = _user_frame()
            where = (f.f_code.co_filename, f.f_lineno) if f else None
        self.lines.append("  " + text)
        self.where.append(where)


_current = []          # the builder of the trace in progress


def _builder():
    if not _current:
        raise trace_error("a traced value is used outside its kernel's trace",
                          "use it inside the decorated function")
    return _current[-1]


def _literal(x, elem):
    """A Python number as a HIR literal of elem: exact for f64 (the
    shortest decimal of the double), and for f32 the double's exact hex,
    which the parser rounds once, as numpy.float32(x) does."""
    x = float(x)
    if x != x:
        return "nan"
    if x in (float("inf"), float("-inf")):
        return "inf" if x > 0 else "-inf"
    return repr(x) if elem is f64 else x.hex()


def _broadcast(a, b, op):
    if a.elem is not b.elem:
        raise trace_error("%s of %s and %s values" % (op, a.elem.name, b.elem.name),
                          "convert one of them so both have one width")
    if not a.dims:
        return Shape(b.dims, a.elem)
    if not b.dims or a.dims == b.dims:
        return Shape(a.dims, a.elem)
    raise trace_error("%s of shapes %s and %s" % (op, a.hir(), b.hir()),
                      "the shapes must be equal, or one of them a scalar")


class Value:
    """A traced value: the name of a HIR value and its Shape."""

    __array_priority__ = 1000     # numpy scalars defer to us

    def __init__(self, name, shape):
        self.name = name
        self.shape = shape

    # Python control flow and indexing cannot be traced
    def __bool__(self):
        raise trace_error("a traced value is used as a Python bool (an if, a "
                          "while, and, or, not)",
                          "write hawk.select(cond, a, b) for a value")

    def __index__(self):
        raise trace_error("a traced value is used as a Python index",
                          "index with a Python int")

    def __iter__(self):
        raise trace_error("a traced value is iterated in Python",
                          "use hawk.math.sum, dot or norm for a fold")

    def __float__(self):
        raise trace_error("a traced value is converted to a Python float",
                          "keep it a traced value")

    def __pow__(self, other):
        raise trace_error("** on a traced value",
                          "write x * x, or hawk.math.pow(x, y)")

    __rpow__ = __pow__

    def _bin(self, op, other, swap=False):
        o = as_value(other, self.shape.elem)
        a, b = (o, self) if swap else (self, o)
        shape = _broadcast(a.shape, b.shape, op)
        return instr(op, [a, b], shape)

    def __add__(self, o): return self._bin("fadd", o)
    def __radd__(self, o): return self._bin("fadd", o, True)
    def __sub__(self, o): return self._bin("fsub", o)
    def __rsub__(self, o): return self._bin("fsub", o, True)
    def __mul__(self, o): return self._bin("fmul", o)
    def __rmul__(self, o): return self._bin("fmul", o, True)
    def __truediv__(self, o): return self._bin("fdiv", o)
    def __rtruediv__(self, o): return self._bin("fdiv", o, True)

    def _cmp(self, pred, other):
        o = as_value(other, self.shape.elem)
        shape = _broadcast(self.shape, o.shape, "fcmp " + pred)
        b = _builder()
        res = b.fresh()
        b.emit("%%%s = fcmp %s %%%s, %%%s : %s" % (
            res, pred, self.name, o.name, Shape(shape.dims, _I1).hir()))
        return Value(res, Shape(shape.dims, _I1))

    # Python's comparisons on floats: ordered, but != is true on NaN
    def __lt__(self, o): return self._cmp("olt", o)
    def __le__(self, o): return self._cmp("ole", o)
    def __gt__(self, o): return self._cmp("ogt", o)
    def __ge__(self, o): return self._cmp("oge", o)
    def __eq__(self, o): return self._cmp("oeq", o)
    def __ne__(self, o): return self._cmp("une", o)
    __hash__ = object.__hash__

    def __neg__(self):
        return instr("fneg", [self], self.shape)

    def __pos__(self):
        return self

    def __abs__(self):
        return instr("abs", [self], self.shape)


class _SlotValue(Value):
    """A slot's value, loaded where it is first used."""

    def __init__(self, slot_name, shape):
        self.slot_name = slot_name
        self.shape = shape
        self._name = None

    @property
    def name(self):
        if self._name is None:
            self._name = self.slot_name + ".v"
            _builder().emit("%%%s = load %%%s : %s" % (
                self._name, self.slot_name, self.shape.hir()))
        return self._name


def instr(op, operands, shape):
    b = _builder()
    names = ", ".join("%" + v.name for v in operands)
    res = b.fresh()
    b.emit("%%%s = %s %s : %s" % (res, op, names, shape.hir()))
    return Value(res, shape)


def as_value(x, elem=f64):
    """A traced value, or a Python number as a constant of elem."""
    if isinstance(x, Value):
        return x
    if isinstance(x, bool) or not isinstance(x, (int, float)):
        try:
            import numpy as np
            if isinstance(x, np.generic) and x.shape == ():
                x = x.item()
            else:
                raise TypeError
        except (ImportError, TypeError):
            raise trace_error("%r (%s) is not a number or a traced value"
                              % (x, type(x).__name__),
                              "pass a number, or a traced value") from None
    b = _builder()
    res = b.fresh()
    b.emit("%%%s = const %s : %s" % (res, _literal(x, elem), elem.name))
    return Value(res, Shape((), elem))


def _signature(fn):
    """[(name, Slot)] of fn's parameters, each annotated with a role."""
    out = []
    hints = getattr(fn, "__annotations__", {})
    for p in inspect.signature(fn).parameters.values():
        slot = slot_of(hints.get(p.name))
        if slot is None:
            raise trace_error("parameter '%s' of '%s' has no slot annotation"
                              % (p.name, fn.__name__),
                              "annotate it: Scalar, Vector[n], Matrix[r, c], "
                              "Param or Mutable[...]")
        out.append((p.name, slot))
    return out


def _returned_locals(fn, args):
    """Calls fn(*args); the locals of its frame when it returned, and
    the (file, line) it returned from."""
    seen = {}
    code = fn.__code__

    def profile(frame, event, arg):
        if event == "return" and frame.f_code is code:
            seen["locals"] = dict(frame.f_locals)
            seen["where"] = (code.co_filename, frame.f_lineno)
    old = sys.getprofile()
    sys.setprofile(profile)
    try:
        result = fn(*args)
    finally:
        sys.setprofile(old)
    if result is not None:
        raise trace_error("kernel '%s' returns a value" % fn.__name__,
                          "assign the result to a Mutable slot instead")
    return seen.get("locals", {}), seen.get("where")


def trace(fn):
    """The HIR text of the kernel fn's trace, and the Python (file, line)
    of each of its lines that came from one."""
    sig = _signature(fn)
    b = _Builder()
    args = [_SlotValue(name, slot.shape) for name, slot in sig]
    _current.append(b)
    try:
        final, returned = _returned_locals(fn, args)
        stores = []
        for (name, slot), arg in zip(sig, args):
            v = final.get(name, arg)
            if slot.role != "mutable" or v is arg:
                continue
            v = as_value(v, slot.shape.elem)
            if v.shape != slot.shape:
                if v.shape.dims == () and v.shape.elem is slot.shape.elem:
                    v = _splat(v, slot.shape)
                else:
                    raise trace_error("'%s' is %s but is given a %s value"
                                      % (name, slot.shape.hir(), v.shape.hir()),
                                      "give it a value of its shape")
            stores.append("store %%%s, %%%s" % (v.name, name))
        for st in stores:
            b.emit(st, returned)
    finally:
        _current.pop()
    params = ", ".join("%%%s: %s %s" % (n, s.role, s.shape.hir()) for n, s in sig)
    file = inspect.getsourcefile(fn) or "<unknown>"
    line = fn.__code__.co_firstlineno
    text = ("; traced from %s:%d\nkernel @%s(%s) {\n%s\n  ret\n}\n"
            % (os.path.basename(file), line, fn.__name__, params,
               "\n".join(b.lines)))
    # the body starts on line 3; the kernel's line and its end are the def's
    lines = {2: (file, line), 3 + len(b.lines): (file, line),
             4 + len(b.lines): (file, line)}
    lines.update({3 + k: w for k, w in enumerate(b.where) if w is not None})
    return text, lines


def _size(shape):
    n = 1
    for d in shape.dims:
        n *= d
    return n


def _splat(v, shape):
    """A scalar value as every component of shape."""
    return instr("build", [v] * _size(shape), shape)


def select(cond, a, b):
    """a where cond is true, else b, component-wise (HIR select)."""
    if not isinstance(cond, Value) or cond.shape.elem is not _I1:
        raise trace_error("hawk.select's condition is not a traced comparison",
                          "compare traced values: hawk.select(x > 0, x, -x)")
    traced = [v for v in (a, b) if isinstance(v, Value)]
    elem = traced[0].shape.elem if traced else f64
    a, b = as_value(a, elem), as_value(b, elem)
    shape = _broadcast(a.shape, b.shape, "select")
    if cond.shape.dims and cond.shape.dims != shape.dims:
        raise trace_error("hawk.select of a %s condition and %s values"
                          % (cond.shape.hir(), shape.hir()),
                          "the condition must be a scalar or of the values' shape")
    return instr("select", [cond, a, b], shape)


class TracedKernel(Kernel):
    """A kernel written as a Python function: a hawk.Kernel every door
    takes, whose module is the trace's HIR text (``hir``)."""

    def __init__(self, fn):
        text, lines = trace(fn)
        name = "<traced %s from %s:%d>" % (
            fn.__name__, os.path.basename(fn.__code__.co_filename),
            fn.__code__.co_firstlineno)
        _core.register_lines(name, lines)
        super().__init__(Module(text, name), fn.__name__)
        self.fn = fn
        self.hir = text
        self.__doc__ = fn.__doc__
        self.__wrapped__ = fn

    def __repr__(self):
        return "<hawk.kernel %s>" % self.name


def kernel(fn):
    """@hawk.kernel: traces fn into a HIR kernel (see hawk._trace)."""
    return TracedKernel(fn)
