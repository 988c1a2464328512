"""@hawk.kernel: straight-line kernels traced into HIR."""
import os
import runpy

import numpy as np
import pytest

import hawk
from hawk import Matrix, Mutable, Param, Scalar, Vector, f32
from hawk.math import dot, norm, sqrt

HERE = os.path.dirname(os.path.abspath(__file__))


def test_quickstart_runs_as_written(tmp_path, monkeypatch):
    """The Quickstart, verbatim (quickstart.py): export, then a build of
    the host and C rows, loaded and run on NumPy arrays."""
    monkeypatch.chdir(tmp_path)
    ns = runpy.run_path(os.path.join(HERE, "quickstart.py"))
    art = ns["art"]
    assert [os.path.basename(p) for p in art[1:]] == [
        "drag.c", "drag.h", "drag.embedded.json"]
    drag = hawk.load("out/").drag
    state = np.random.default_rng(7).standard_normal((3, 500))
    out = np.zeros((3, 500))
    drag(state=state, rho=1.3, out=out)
    # ((-rho) * state) * norm(state), norm a left fold then sqrt
    n = np.sqrt((state[0] * state[0] + state[1] * state[1]) + state[2] * state[2])
    assert np.array_equal(out, (-1.3 * state) * n)


def test_the_trace_is_hir_in_python_order():
    @hawk.kernel
    def drag(state: Vector[3], rho: Param, out: Mutable[Vector[3]]):
        out = -rho * state * norm(state)
    assert drag.name == "drag"
    body = [l.strip() for l in drag.hir.splitlines()[2:-2]]
    assert body == [
        "%rho.v = load %rho : f64",
        "%t1 = fneg %rho.v : f64",
        "%state.v = load %state : <3 x f64>",
        "%t2 = fmul %t1, %state.v : <3 x f64>",
        "%t3 = norm %state.v : f64",
        "%t4 = fmul %t2, %t3 : <3 x f64>",
        "store %t4, %out",
    ]
    assert drag.hir.splitlines()[1] == (
        "kernel @drag(%state: vec_in <3 x f64>, %rho: uniform f64, "
        "%out: mutable <3 x f64>) {")


def test_constants_are_exact_at_both_widths():
    @hawk.kernel
    def k(x: Scalar[f32], y: Mutable[Scalar[f32]]):
        y = x * 0.1 + 1
    # the double 0.1, rounded once to f32 by the parser, as numpy.float32
    assert "const 0x1.999999999999ap-4 : f32" in k.hir
    assert "const 0.1 : f32" in str(k.module)
    assert "const 1.0 : f32" in str(k.module)

    @hawk.kernel
    def g(x: Scalar, y: Mutable[Scalar]):
        y = 0.1 * x
    assert "const 0.1 : f64" in g.hir


def test_a_mutable_read_then_written(tmp_path):
    @hawk.kernel
    def step(v: Mutable[Vector[2]], a: Vector[2], dt: Param):
        v = v + a * dt
    hawk.build(step, tmp_path, targets=("host",), check=False)
    v = np.array([[1.0, 2.0], [3.0, 4.0]])
    a = np.array([[0.5, 0.25], [1.0, 2.0]])
    want = v + a * 0.1
    hawk.load(tmp_path).step(v=v, a=a, dt=0.1)
    assert np.array_equal(v, want)


def test_comparisons_and_select(tmp_path):
    @hawk.kernel
    def relu(x: Scalar, y: Mutable[Scalar]):
        y = hawk.select(x > 0.0, x, 0.0 * x)
    assert "%t2 = fcmp ogt %x.v, %t1 : i1" in relu.hir
    hawk.build(relu, tmp_path, targets=("host",), check=False)
    x = np.array([-1.0, 2.0, 0.5, -0.0, 3.0, -4.0, np.nan, 1.0])
    y = np.zeros(8)
    hawk.load(tmp_path).relu(x=x, y=y)
    want = np.where(x > 0.0, x, 0.0 * x)
    assert np.array_equal(y.view(np.int64), want.view(np.int64))


def test_matrix_and_folds_verify():
    @hawk.kernel
    def k(m: Matrix[2, 2], x: Vector[2], s: Mutable[Scalar]):
        s = sqrt(dot(x, x)) + norm(x) * 2.0
    assert "dot %x.v, %x.v : f64" in k.hir
    hawk.embedded.verify(k)


@pytest.mark.parametrize("body, what, instead", [
    ("if x > 0:\n        y = x", "used as a Python bool", "hawk.select"),
    ("y = x ** 2", "** on a traced value", "x * x"),
    ("y = [1.0, 2.0][x]", "used as a Python index", "Python int"),
    ("y = x + 'a'", "is not a number or a traced value", "pass a number"),
])
def test_untraceable_python_names_the_line(tmp_path, body, what, instead):
    src = tmp_path / "user_kernel.py"
    src.write_text(
        "import hawk\nfrom hawk import Mutable, Scalar\n\n"
        "def k(x: Scalar, y: Mutable[Scalar]):\n    %s\n" % body)
    ns = runpy.run_path(str(src))
    with pytest.raises(hawk.HawkError) as e:
        hawk.kernel(ns["k"])
    d = e.value.diagnostics[0]
    assert (os.path.basename(d.file), d.line) == ("user_kernel.py", 5)
    assert what in d.message and instead in d.message
    assert str(e.value).startswith(str(src) + ":5: error: ")


def test_a_parameter_without_a_role_is_refused():
    def k(x, y: Mutable[Scalar]):
        y = x
    with pytest.raises(hawk.HawkError, match="parameter 'x' of 'k' has no slot"):
        hawk.kernel(k)


def test_mixed_widths_are_refused():
    def k(x: Scalar[f32], z: Scalar, y: Mutable[Scalar]):
        y = x + z
    with pytest.raises(hawk.HawkError, match="fadd of f32 and f64 values"):
        hawk.kernel(k)


def _line_of(fn, text):
    """The line of fn's source that holds text."""
    import inspect
    src, first = inspect.getsourcelines(fn)
    return first + next(k for k, l in enumerate(src) if text in l)


def test_a_refusal_names_the_python_line(tmp_path):
    def ratio(a: Scalar, b: Scalar, q: Mutable[Scalar]):
        s = a * 2.0
        q = s / b
    k = hawk.kernel(ratio)
    with pytest.raises(hawk.HawkError) as e:
        hawk.embedded.export(k, tmp_path, profile={"fp_domain": "refuse"},
                             check=False)
    d = e.value.errors[0]
    assert (d.file, d.line) == (__file__, _line_of(ratio, "q = s / b"))
    assert d.rule == "fp.domain" and "fp_domain='record'" in d.message
    assert str(e.value).startswith("%s:%d: error: 'ratio': " % (__file__, d.line))
    assert "        q = s / b" in str(e.value)


def test_a_warning_names_the_python_line():
    def spare(a: Scalar, q: Mutable[Scalar]):
        t = a * 3.0
        q = a + 1.0
    k = hawk.kernel(spare)
    with pytest.warns(hawk.HawkWarning) as w:
        hawk.embedded.verify(k)
    d = w[0].message.diagnostic
    assert (d.file, d.line) == (__file__, _line_of(spare, "t = a * 3.0"))
    assert "is never used" in d.message


def test_a_pipeline_result_is_named_for_its_text():
    @hawk.kernel
    def k(a: Scalar, q: Mutable[Scalar]):
        q = a * a
    j = k.module.run("jvp")
    assert j.name == k.module.name + " (after jvp)"
