"""hawk: numeric kernels in HIR, verified for embedded builds, exported as
MISRA C:2012, built for the host and loaded on NumPy arrays.

    import hawk
    m = hawk.parse_file("examples/drag.hir")
    art = hawk.embedded.export(m["drag"], "out/")
    hawk.build([m], "out/", targets=("host", "c"))
    hawk.load("out/").drag(state=state, rho=1.2, out=out)

docs/Python.md describes every call.
"""
from . import embedded
from ._build import BuildResult, build
from ._errors import Diagnostic, HawkError, HawkWarning
from ._ir import Kernel, Module, parse, parse_file
from ._load import Build, LoadedKernel, load
from ._hawk import version as _version

__version__ = _version()

__all__ = ["Build", "BuildResult", "Diagnostic", "HawkError", "HawkWarning",
           "Kernel", "LoadedKernel", "Module", "build", "embedded", "load",
           "parse", "parse_file"]
