"""What every door shares: the extension module, warnings, profiles, and
the Python lines of traced kernels."""
import contextlib
import linecache
import os
import warnings as _warnings

from . import _hawk
from ._errors import Diagnostic, HawkError, HawkWarning

_hawk.set_error(HawkError)

# libhawk's HawkWarnings, by the name a door takes
_WARNINGS = {"default": 0, "ignore": 1, "error": 2}


def warnings_mode(mode):
    try:
        return _WARNINGS[mode]
    except KeyError:
        raise ValueError("warnings=%r: expected one of %s"
                         % (mode, ", ".join(repr(k) for k in _WARNINGS))) from None


# A traced kernel's HIR text, by the name it is parsed under: the Python
# file and line each of its lines came from (hawk._trace registers them).
_python_lines = {}


def register_lines(name, lines):
    _python_lines[name] = lines


def locate(d):
    """Diagnostic d, at the Python line its HIR line came from when it
    points into a traced kernel; else d itself."""
    lines = _python_lines.get(d.file)
    if lines is None or d.line not in lines:
        return d
    file, line = lines[d.line]
    src = linecache.getline(file, line).rstrip()
    rendered = "%s:%d: %s: %s\n%s" % (file, line, d.severity, d.message,
                                      src + "\n" if src else "")
    return d._replace(file=file, line=line, col=0, rendered=rendered)


@contextlib.contextmanager
def located():
    """Re-raises a HawkError with its diagnostics at the Python lines of
    the traced kernels they point into."""
    try:
        yield
    except HawkError as e:
        if not any(d.file in _python_lines for d in e.diagnostics):
            raise
        raise HawkError(e.message, [locate(d) for d in e.diagnostics]) from None


def emit(found, stacklevel=3):
    """Issues each warning libhawk gave as a HawkWarning, at the Python
    line of a traced kernel's instruction."""
    for d in found:
        _warnings.warn(HawkWarning(locate(Diagnostic(*d))),
                       stacklevel=stacklevel + 1)


def profile_pairs(profile):
    """A profile {"max_trips": 48, "fp_domain": "record"} as libhawk's
    (key, value) pairs: a key's '_' is the option's '-', True and False
    are on and off."""
    pairs = []
    for key, value in sorted((profile or {}).items()):
        if not isinstance(key, str):
            raise TypeError("a profile key is a str, got %r" % (key,))
        if isinstance(value, bool):
            value = "on" if value else "off"
        elif not isinstance(value, (str, int)):
            raise TypeError("profile %s=%r: expected a str, an int or a bool"
                            % (key, value))
        pairs.append((key.replace("_", "-"), str(value)))
    return pairs


def fspath(path):
    return os.fspath(path)
