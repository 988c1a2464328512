"""Errors and warnings: each carries the diagnostics libhawk gave."""
import collections

Diagnostic = collections.namedtuple(
    "Diagnostic",
    "file line col severity message rule fix_option fix_value rendered")
Diagnostic.__doc__ = """One diagnostic of libhawk: where (file, line and column,
1-based, 0 when it has no place), its severity ("error", "warning",
"note"), its message, the refusal rule ("budget.trips") or None, the
profile option its fix names as data ("fp_domain", "record") or None, and
the text as the command-line tools print it."""


class HawkError(Exception):
    """A door of hawk failed: parsing, verifying, a refusal, a check, a
    load.  ``diagnostics`` lists every diagnostic, errors and the notes and
    warnings around them; ``str()`` is their text as the tools print it."""

    def __init__(self, message, diagnostics=()):
        self.diagnostics = [d if isinstance(d, Diagnostic) else Diagnostic(*d)
                            for d in diagnostics]
        self.message = message
        super().__init__(message)

    @property
    def errors(self):
        return [d for d in self.diagnostics if d.severity == "error"]

    def __str__(self):
        if not self.diagnostics:
            return self.message
        return "".join(d.rendered for d in self.diagnostics).rstrip("\n")


class HawkWarning(UserWarning):
    """A mistake the analyses prove that the contract still builds
    (an index outside its extent, a result never used, ...); its
    ``diagnostic`` is the one libhawk gave."""

    def __init__(self, diagnostic):
        self.diagnostic = diagnostic
        super().__init__(diagnostic.rendered.rstrip("\n"))
