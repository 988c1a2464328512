"""The slot annotations of a traced kernel: the roles of LangRef "Slots"
as Python types.  Scalar, Vector[n], Matrix[r, c] are per-sample inputs;
Param a uniform; Mutable[T] a per-sample value the kernel reads and
writes.  A trailing f32 gives the single width: Vector[3, f32]."""


class Elem:
    def __init__(self, name):
        self.name = name

    def __repr__(self):
        return "hawk." + self.name


f64 = Elem("f64")
f32 = Elem("f32")


class Shape:
    """An element type and a shape: (), (n,) or (r, c)."""

    def __init__(self, dims=(), elem=f64):
        self.dims = tuple(dims)
        self.elem = elem

    def hir(self):
        if not self.dims:
            return self.elem.name
        return "<%s x %s>" % (" x ".join(str(d) for d in self.dims), self.elem.name)

    def __eq__(self, other):
        return (isinstance(other, Shape) and self.dims == other.dims
                and self.elem is other.elem)

    def __hash__(self):
        return hash((self.dims, self.elem.name))


class Slot:
    """An annotation: a role and a Shape."""

    def __init__(self, role, shape, spelled):
        self.role = role
        self.shape = shape
        self.spelled = spelled

    def __repr__(self):
        return self.spelled


def _split(args):
    """(dims, elem) of a subscript such as [3], [3, f32], [2, 2]."""
    if not isinstance(args, tuple):
        args = (args,)
    elem = f64
    if args and isinstance(args[-1], Elem):
        elem, args = args[-1], args[:-1]
    for d in args:
        if not isinstance(d, int) or isinstance(d, bool) or d < 1:
            raise TypeError("an extent is a positive int, got %r" % (d,))
    return tuple(args), elem


class _Family:
    """Scalar, Vector, Matrix, Param: subscripted for shape and width."""

    def __init__(self, name, role, rank, default=None):
        self.name, self.role, self.rank = name, role, rank
        self.default = default

    def __getitem__(self, args):
        if isinstance(args, Slot):           # Param[Vector[3]]
            return Slot(self.role, args.shape, "%s[%r]" % (self.name, args))
        dims, elem = _split(args)
        if self.rank is not None and len(dims) != self.rank:
            raise TypeError("%s takes %d extent%s, got %r"
                            % (self.name, self.rank, "" if self.rank == 1 else "s",
                               args))
        return Slot(self.role, Shape(dims, elem), "%s[%s]" % (self.name, ", ".join(
                        [str(d) for d in dims] + ([elem.name] if elem is f32 else []))))

    def slot(self):
        return self.default

    def __repr__(self):
        return self.name


Scalar = _Family("Scalar", "per_sample", 0, Slot("per_sample", Shape(), "Scalar"))
Vector = _Family("Vector", "vec_in", 1)
Matrix = _Family("Matrix", "mat_in", 2)
Param = _Family("Param", "uniform", None, Slot("uniform", Shape(), "Param"))


class _MutableFamily:
    def __getitem__(self, inner):
        if isinstance(inner, _Family) and inner.slot() is not None:
            inner = inner.slot()
        if not isinstance(inner, Slot) or inner.role not in (
                "per_sample", "vec_in", "mat_in"):
            raise TypeError("Mutable takes Scalar, Vector[n] or Matrix[r, c], "
                            "got %r" % (inner,))
        return Slot("mutable", inner.shape, "Mutable[%r]" % inner)

    def __repr__(self):
        return "Mutable"


Mutable = _MutableFamily()


def slot_of(annotation):
    """The Slot an annotation names, or None."""
    if isinstance(annotation, Slot):
        return annotation
    if isinstance(annotation, _Family):
        return annotation.slot()
    return None
