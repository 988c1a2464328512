"""What every door shares: the extension module, warnings, profiles."""
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


def emit(found, stacklevel=3):
    """Issues each warning libhawk gave as a HawkWarning."""
    for d in found:
        _warnings.warn(HawkWarning(Diagnostic(*d)), stacklevel=stacklevel + 1)


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
