"""Loading a host build: each kernel a callable over NumPy arrays."""
import json
import os

import numpy as np

from . import _core, _hawk
from ._errors import Diagnostic, HawkError

_DTYPES = {"i1": np.bool_, "i32": np.int32, "u32": np.uint32,
           "i64": np.int64, "f32": np.float32, "f64": np.float64}
# hawk_status_t of the runtime unit
_STATUS = {1: "HAWK_E_NULL", 2: "HAWK_E_RANGE", 3: "HAWK_E_SELFTEST"}


def _keyword(field):
    """The keyword of a member: its name without the role's prefix
    (vin_state: state; a slot's '.' is '_' there: vin_state_dot)."""
    if field["role"] == "mix":
        return field["name"]
    return field["name"].split("_", 1)[1]


class LoadedKernel:
    """A kernel of a loaded build, called with one keyword per slot:
    a per-sample plane as an array of shape (components, n) in C order
    (or (n,) for one component), a table of runtime length as a 1-D array
    (its length is set from it), a uniform as a number (or a sequence of
    its components).  The arrays are used in place: their dtype must be
    the slot's, they must be C-contiguous, and those the kernel writes
    writable.  n (the sample count) is read from the planes unless given;
    threads=N splits the samples over up to N threads as libhawk-rt does,
    with the bytes of one thread."""

    def __init__(self, build, entry):
        self._build = build
        self.name = entry["name"]
        self.walk_digest = entry["walk_digest"]
        self.fields = entry["abi"]["fields"]
        self._by_kw = {_keyword(f): f for f in self.fields if f["kind"] != "length"}
        self._lengths = {f["name"]: f for f in self.fields if f["kind"] == "length"}

    @property
    def slots(self):
        return list(self._by_kw)

    def __repr__(self):
        return "<hawk kernel %s(%s)>" % (self.name, ", ".join(self.slots))

    def _fail(self, what):
        raise HawkError("%s: %s" % (self.name, what), [Diagnostic(
            None, 0, 0, "error", "%s: %s" % (self.name, what), None, None, None,
            "error: '%s': %s\n" % (self.name, what))])

    def _array(self, kw, f, value):
        dtype = np.dtype(_DTYPES[f["dtype"]])
        if not isinstance(value, np.ndarray):
            self._fail("'%s' takes a NumPy array of %s, got %s"
                       % (kw, dtype, type(value).__name__))
        if value.dtype != dtype:
            self._fail("'%s' is %s, not %s: convert it first (a launch "
                       "never copies)" % (kw, value.dtype, dtype))
        if not value.flags.c_contiguous:
            self._fail("'%s' is not C-contiguous: pass np.ascontiguousarray(%s)"
                       % (kw, kw))
        if f["direction"] != "in" and not value.flags.writeable:
            self._fail("'%s' is written by the kernel but read-only" % kw)
        return value

    def _samples(self, kw, f, a):
        c = f["components"]
        if a.ndim == 2 and a.shape[0] == c:
            return a.shape[1]
        if a.ndim == 1 and c == 1:
            return a.shape[0]
        self._fail("'%s' has shape %s; a plane of %d component%s per sample "
                   "has shape (%d, n)%s" % (kw, a.shape, c, "" if c == 1 else "s",
                                            c, " or (n,)" if c == 1 else ""))

    def __call__(self, n=None, threads=1, **slots):
        missing = [kw for kw in self._by_kw if kw not in slots]
        unknown = [kw for kw in slots if kw not in self._by_kw]
        if unknown:
            self._fail("no slot %s; its slots: %s" % (
                ", ".join(repr(k) for k in unknown), ", ".join(self._by_kw)))
        if missing:
            self._fail("missing slot%s %s" % ("" if len(missing) == 1 else "s",
                                              ", ".join(repr(k) for k in missing)))
        members, counts = [], {}
        for kw, f in self._by_kw.items():
            members.extend(self._member(kw, f, slots[kw], counts))
        ns = set(counts.values())
        if len(ns) > 1:
            self._fail("the planes disagree on the sample count: %s" % ", ".join(
                "%s has %d" % kv for kv in counts.items()))
        if n is None:
            if not ns:
                self._fail("no per-sample plane gives the sample count: pass n=")
            n = ns.pop()
        elif ns and n != min(ns):
            # the sample count is every per-sample plane's pitch
            self._fail("n=%d, but the planes hold %d samples: a plane's "
                       "component c of sample i is at [c, i], so n is its "
                       "second extent" % (n, min(ns)))
        status = _hawk.launch(self._build._rt, self.name, members, int(n),
                              int(threads))
        if status != 0:
            self._fail("the kernel returned %s (%d)"
                       % (_STATUS.get(status, "an unknown status"), status))

    def _member(self, kw, f, value, counts):
        """The launch's members for slot kw: (field, object, is_plane,
        writes), its length member too."""
        if f["kind"] == "value":
            a = np.asarray(value, dtype=_DTYPES[f["dtype"]]).reshape(-1)
            if a.size != f["components"]:
                self._fail("'%s' takes %d value%s, got %d" % (
                    kw, f["components"], "" if f["components"] == 1 else "s", a.size))
            return [(f["name"], a.tobytes(), False, False)]
        a = self._array(kw, f, value)
        out = [(f["name"], a, True, f["direction"] != "in")]
        if f["addressing"] == "soa":
            counts[kw] = self._samples(kw, f, a)
        length = self._lengths.get(f["name"] + "_len")
        if length is not None:
            rows = a.shape[0] if a.ndim > 1 else a.size // max(f["components"], 1)
            out.append((length["name"], np.int64(rows).tobytes(), False, False))
        elif f["addressing"] != "soa" and a.size != f["components"]:
            self._fail("'%s' holds %d elements, not %d" % (kw, a.size, f["components"]))
        return out


class Build:
    """A loaded build: its kernels by name (``build.drag`` or
    ``build["drag"]``)."""

    def __init__(self, out_dir):
        self.out_dir = _core.fspath(out_dir)
        self._rt = _hawk.load(self.out_dir)
        with open(os.path.join(self.out_dir, "hawk.manifest.json"),
                  encoding="utf-8") as f:
            manifest = json.load(f)
        self.kernels = {e["name"]: LoadedKernel(self, e)
                        for e in manifest["kernels"]}

    def __getitem__(self, name):
        try:
            return self.kernels[name]
        except KeyError:
            raise KeyError("no kernel %r in %s (its kernels: %s)" % (
                name, self.out_dir, ", ".join(self.kernels))) from None

    def __getattr__(self, name):
        if name.startswith("_") or "kernels" not in self.__dict__:
            raise AttributeError(name)
        try:
            return self.kernels[name]
        except KeyError:
            raise AttributeError("no kernel %r in %s (its kernels: %s)" % (
                name, self.out_dir, ", ".join(self.kernels))) from None

    def __repr__(self):
        return "<hawk.Build %s: %s>" % (self.out_dir, ", ".join(self.kernels))


def load(out_dir):
    """Loads the host build in out_dir (hawk.build with "host" among its
    targets) through its manifest.  A build of the C target alone is
    source for an embedded build, not something a program loads, and is
    refused as such."""
    return Build(out_dir)
