"""HIR modules and their kernels, as text: the IR's one contract."""
import os

from . import _core, _hawk


class Module:
    """A verified HIR module.  ``text`` is the text it was made from (so
    diagnostics point into it), ``canonical`` its canonical form (what
    ``str()`` gives), ``functions`` the names of its kernels and funcs in
    order, ``kernels`` those of its kernels."""

    def __init__(self, text, name="<string>", warnings="default", _checked=None):
        if not isinstance(text, str):
            raise TypeError("HIR text is a str, got %s" % type(text).__name__)
        self.name = name
        self.text = text
        if _checked is None:
            with _core.located():
                (canonical, funcs), found = _hawk.check(
                    name, text, _core.warnings_mode(warnings))
            _core.emit(found)
        else:
            canonical, funcs = _checked
        self.canonical = canonical
        self._funcs = funcs
        self.output = ""

    @property
    def functions(self):
        return [name for name, _ in self._funcs]

    @property
    def kernels(self):
        return [name for name, is_kernel in self._funcs if is_kernel]

    def __str__(self):
        return self.canonical

    def __repr__(self):
        return "<hawk.Module %s: %s>" % (self.name, ", ".join(self.functions))

    def __getitem__(self, name):
        if name not in self.kernels:
            raise KeyError("no kernel %r in %s (its kernels: %s)"
                           % (name, self.name, ", ".join(self.kernels) or "none"))
        return Kernel(self, name)

    def __iter__(self):
        return (Kernel(self, name) for name in self.kernels)

    def run(self, pipeline, options=None, warnings="default"):
        """Runs a pass pipeline ("inline,dce", "vjp{wrt=x}",
        "print<cost>") as hawk-opt -passes= would; returns the module it
        leaves, whose ``output`` holds what print<...> passes printed.
        ``options`` are pipeline-wide options (a profile)."""
        with _core.located():
            (text, funcs, output, _), found = _hawk.run(
                self.name, self.text, pipeline, _core.profile_pairs(options),
                _core.warnings_mode(warnings), False)
        _core.emit(found)
        # the printed text: its lines are not the ones of self.text
        m = Module(text, "%s (after %s)" % (self.name, pipeline),
                   _checked=(text, funcs))
        m.output = output
        return m

    def unit(self):
        return (self.name, self.text)


class Kernel:
    """One kernel of a module, by name: what the doors take."""

    def __init__(self, module, name):
        self.module = module
        self.name = name

    def __repr__(self):
        return "<hawk.Kernel %s of %s>" % (self.name, self.module.name)


def parse(text, name="<string>", warnings="default"):
    """Parses and verifies HIR text; a HawkError names each mistake with
    its line and column in ``name``."""
    return Module(text, name, warnings)


def parse_file(path, warnings="default"):
    """Parses and verifies the HIR file at path."""
    path = os.fspath(path)
    with open(path, encoding="utf-8") as f:
        return Module(f.read(), path, warnings)


def units_of(kernels):
    """The (name, text) units and the kernel names (None: every kernel of
    the units) of what a door was given: a Module, a Kernel, or a
    sequence of them.  Two kernels of one module share its unit."""
    if isinstance(kernels, (Module, Kernel)):
        kernels = [kernels]
    units, names, seen = [], [], {}
    for k in kernels:
        m = k.module if isinstance(k, Kernel) else k
        if not isinstance(m, Module):
            raise TypeError("expected a hawk.Module or hawk.Kernel, got %s"
                            % type(k).__name__)
        if id(m) not in seen:
            seen[id(m)] = len(units)
            units.append(m)
        names.append(k.name if isinstance(k, Kernel) else None)
    return units, names
