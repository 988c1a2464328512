"""The embedded C target: verify a kernel under a profile, export it as
a C unit (docs/EmbeddedC.md)."""
import collections
import json
import os

from . import _core, _hawk
from ._ir import Kernel, Module, units_of

Artifact = collections.namedtuple("Artifact", "kernel c_path h_path report_path")
Artifact.__doc__ = """The files an export wrote for one kernel: its .c, its .h and
its report (<name>.embedded.json), as paths in the output directory."""

# hawk-opt -verify-embedded's pipeline
VERIFY_PIPELINE = ("unused,inline,feature-refusal,trip-bound,index-clamp,"
                   "fp-domain,int-sites,cost,interface")


def export(kernels, out_dir, profile=None, target=None, check=True,
           warnings="default"):
    """Exports kernels (a hawk.Kernel, a hawk.Module, or a sequence of
    them) into out_dir as hawk-emit does: every kernel is verified and
    written before anything is checked, and a refusal writes nothing.
    Returns the Artifact of a single kernel, else a list in order."""
    units, names = units_of(kernels)
    single = isinstance(kernels, Kernel)
    out_dir = _core.fspath(out_dir)
    with _core.located():
        made, found = _hawk.export(
            [m.unit() for m in units], out_dir, target,
            kernels.name if single else None, _core.profile_pairs(profile),
            bool(check), _core.warnings_mode(warnings))
    _core.emit(found)
    arts = [Artifact(k, os.path.join(out_dir, c) if c else None,
                     os.path.join(out_dir, h) if h else None,
                     os.path.join(out_dir, r) if r else None)
            for k, c, h, r in made]
    if single or (isinstance(kernels, Module) and len(arts) == 1):
        return arts[0]
    return arts


def verify(kernel, profile=None, warnings="default"):
    """Runs the C target's verify pipeline over a kernel (or every kernel
    of a module) under profile; raises HawkError on a refusal.  Returns
    the report's analyses (budgets, indices, fp_domain, ...) as a dict,
    or a dict of them by kernel name for a module."""
    m = kernel.module if isinstance(kernel, Kernel) else kernel
    if not isinstance(m, Module):
        raise TypeError("expected a hawk.Module or hawk.Kernel, got %s"
                        % type(kernel).__name__)
    with _core.located():
        (_, _, _, reports), found = _hawk.run(
            m.name, m.text, VERIFY_PIPELINE, _core.profile_pairs(profile),
            _core.warnings_mode(warnings), True)
    _core.emit(found)
    reports = {k: json.loads(v) for k, v in reports.items()}
    if isinstance(kernel, Kernel):
        return reports[kernel.name]
    return reports
