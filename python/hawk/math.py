"""The math of a traced kernel: each function appends its HIR op
(docs/LangRef.md, "Math" and "Tensor folds and products")."""
from ._trace import Value, _broadcast, as_value, instr, trace_error
from ._types import Shape


def _one(op):
    def f(x):
        x = _traced(op, x)
        return instr(op, [x], x.shape)
    f.__name__ = op
    f.__doc__ = "The HIR op %s, component-wise." % op
    return f


def _two(op):
    def f(x, y):
        x, y = _pair(op, x, y)
        return instr(op, [x, y], _broadcast(x.shape, y.shape, op))
    f.__name__ = op
    f.__doc__ = "The HIR op %s, component-wise (broadcast)." % op
    return f


def _traced(op, x):
    if not isinstance(x, Value):
        raise trace_error("hawk.math.%s of %r, which is not traced" % (op, x),
                          "call it on a kernel's values")
    return x


def _pair(op, x, y):
    if not isinstance(x, Value) and not isinstance(y, Value):
        _traced(op, x)
    elem = (x if isinstance(x, Value) else y).shape.elem
    return as_value(x, elem), as_value(y, elem)


sqrt, rsqrt, exp, log, log2, log10, log1p, expm1 = map(
    _one, ["sqrt", "rsqrt", "exp", "log", "log2", "log10", "log1p", "expm1"])
sin, cos, tan, asin, acos, atan = map(
    _one, ["sin", "cos", "tan", "asin", "acos", "atan"])
sinh, cosh, tanh, asinh, acosh, atanh = map(
    _one, ["sinh", "cosh", "tanh", "asinh", "acosh", "atanh"])
floor, ceil = _one("floor"), _one("ceil")
atan2, pow, hypot = _two("atan2"), _two("pow"), _two("hypot")
minimum, maximum = _two("minimum"), _two("maximum")


def fabs(x):
    """abs, component-wise."""
    return abs(_traced("abs", x))


def _fold(op, x, result):
    x = _traced(op, x)
    return instr(op, [x], result(x.shape))


def norm(x):
    """The Euclidean norm of a vector: sqrt of the left fold of squares."""
    return _fold("norm", x, lambda s: Shape((), s.elem))


def sum(x):
    """The left fold of the components with fadd."""
    return _fold("sum", x, lambda s: Shape((), s.elem))


def prod(x):
    """The left fold of the components with fmul."""
    return _fold("prod", x, lambda s: Shape((), s.elem))


def dot(x, y):
    """The dot product of two vectors: the left fold of the products."""
    x, y = _traced("dot", x), _traced("dot", y)
    return instr("dot", [x, y], Shape((), x.shape.elem))


def cross(x, y):
    """The cross product of two 3-vectors."""
    x, y = _traced("cross", x), _traced("cross", y)
    return instr("cross", [x, y], x.shape)


def clip(x, lo, hi):
    """minimum(maximum(x, lo), hi)."""
    x = _traced("clip", x)
    return instr("clip", [x, as_value(lo, x.shape.elem), as_value(hi, x.shape.elem)],
                 x.shape)
