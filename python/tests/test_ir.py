"""hawk.parse, verify, pipelines and printing over libhawk."""
import warnings

import pytest

import hawk

DRAG = """kernel @drag(%state: vec_in <3 x f64>, %rho: uniform f64, %out: mutable <3 x f64>) {
  %s = load %state : <3 x f64>
  %r = load %rho : f64
  %n = norm %s : f64
  %rn = fmul %r, %n : f64
  %neg = fneg %rn : f64
  %f = fmul %neg, %s : <3 x f64>
  store %f, %out
  ret
}
"""


def test_parse_gives_canonical_text_and_kernels():
    m = hawk.parse(DRAG, name="drag.hir")
    assert m.kernels == ["drag"]
    assert m.functions == ["drag"]
    assert str(m).startswith("kernel @drag(")
    assert hawk.parse(str(m)).canonical == m.canonical
    assert repr(m["drag"]) == "<hawk.Kernel drag of drag.hir>"


def test_parse_error_names_line_and_column():
    bad = DRAG.replace("fmul %r, %n", "fmull %r, %n")
    with pytest.raises(hawk.HawkError) as e:
        hawk.parse(bad, name="bad.hir")
    d = e.value.errors[0]
    assert (d.file, d.line, d.col, d.severity) == ("bad.hir", 5, 9, "error")
    assert "fmull" in d.message and "did you mean 'fmul'" in d.message
    assert str(e.value).startswith("bad.hir:5:9: error: ")
    assert "^" in str(e.value)


def test_verifier_error_is_a_hawk_error():
    bad = DRAG.replace("store %f, %out", "store %r, %out")
    with pytest.raises(hawk.HawkError) as e:
        hawk.parse(bad, name="v.hir")
    assert e.value.errors[0].line == 8


def test_unknown_kernel_lists_the_kernels():
    with pytest.raises(KeyError, match="its kernels: drag"):
        hawk.parse(DRAG)["dragg"]


def test_pipeline_transforms_and_prints():
    m = hawk.parse(DRAG)
    j = m.run("jvp")
    assert j.kernels == ["drag", "drag_jvp"] or "drag_jvp" in j.kernels
    cost = m.run("print<instcount>")
    assert "norm" in cost.output
    with pytest.raises(hawk.HawkError, match="did you mean 'dce'"):
        m.run("dcee")


def test_warnings_are_python_warnings():
    text = DRAG.replace("  ret\n", "  %spare = fadd %r, %r : f64\n  ret\n")
    m = hawk.parse(text, name="w.hir")
    with pytest.warns(hawk.HawkWarning, match=r"w.hir:9:3: warning: 'drag': %spare \(fadd\) is never used"):
        hawk.embedded.verify(m)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        m.run("dce", warnings="ignore")
    with pytest.raises(hawk.HawkError, match="a warning made an error"):
        hawk.embedded.verify(m, warnings="error")


def test_warnings_mode_is_checked():
    with pytest.raises(ValueError, match="'default', 'ignore', 'error'"):
        hawk.parse(DRAG, warnings="off")
