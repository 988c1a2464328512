"""hawk: numeric kernels in HIR, verified for embedded builds, exported as
MISRA C:2012, built for the host and loaded on NumPy arrays.

    import hawk
    from hawk import Mutable, Param, Vector
    from hawk.math import norm

    @hawk.kernel
    def drag(state: Vector[3], rho: Param, out: Mutable[Vector[3]]):
        out = -rho * state * norm(state)

    art = hawk.embedded.export(drag, "out/")
    hawk.build([drag], "out/", targets=("host", "c"))
    hawk.load("out/").drag(state=state, rho=1.2, out=out)

docs/Python.md describes every call.
"""
from . import embedded, math
from ._build import BuildResult, build
from ._errors import Diagnostic, HawkError, HawkWarning
from ._ir import Kernel, Module, parse, parse_file
from ._load import Build, LoadedKernel, load
from ._trace import TracedKernel, kernel, select
from ._types import Matrix, Mutable, Param, Scalar, Vector, f32, f64
from ._hawk import version as _version

__version__ = _version()

__all__ = ["Build", "BuildResult", "Diagnostic", "HawkError", "HawkWarning",
           "Kernel", "LoadedKernel", "Matrix", "Module", "Mutable", "Param",
           "Scalar", "TracedKernel", "Vector", "build", "embedded", "f32",
           "f64", "kernel", "load", "math", "parse", "parse_file", "select"]
