"""The build door: kernels for several rows of the targets table."""
import collections

from . import _core, _hawk
from ._ir import units_of

BuildResult = collections.namedtuple(
    "BuildResult", "out_dir key cache why_missed kernels_built kernels_restored")
BuildResult.__doc__ = """What a build did: its directory, its cache key, what became
of the cache ("off", "hit" or "miss") and why a miss missed."""


def build(kernels, out_dir, targets=None, embedded_profile=None, check=True,
          cache_dir=None, warnings="default"):
    """Builds every kernel of kernels (a hawk.Kernel or hawk.Module, or a
    sequence of them) for each row of targets (ids such as "host" and
    "c"; None: every row) into out_dir, as hawk-build does: the rows a
    program loads get a manifest hawk.load reads.  embedded_profile is
    the C row's profile, a term of the cache key; cache_dir keeps builds
    by key."""
    units, _ = units_of(kernels)
    if isinstance(targets, str):
        raise TypeError("targets is a sequence of ids: write targets=(%r,)"
                        % targets)
    if targets is None:
        targets = ()
    out_dir = _core.fspath(out_dir)
    with _core.located():
        res, found = _hawk.build(
            [m.unit() for m in units], out_dir, list(targets),
            _core.profile_pairs(embedded_profile), bool(check),
            None if cache_dir is None else _core.fspath(cache_dir),
            _core.warnings_mode(warnings))
    _core.emit(found)
    return BuildResult(out_dir=out_dir, **res)
