"""hawk.embedded.export and verify, hawk.build and hawk.load on NumPy."""
import json
import os

import numpy as np
import pytest

import hawk


def test_export_writes_the_three_files(example, tmp_path):
    drag = example("drag")["drag"]
    art = hawk.embedded.export(drag, tmp_path, check=False)
    assert art.kernel == "drag"
    assert os.path.basename(art.c_path) == "drag.c"
    assert os.path.basename(art.h_path) == "drag.h"
    assert os.path.basename(art.report_path) == "drag.embedded.json"
    for p in art[1:]:
        assert os.path.isfile(p)
    report = json.load(open(art.report_path))
    assert report["kernel"] == "drag"


def test_export_is_hawk_emits_bytes(example, tmp_path):
    """The same text through the binding and through hawk-emit: the
    same unit (hawk-emit's golden files)."""
    golden = os.path.join(os.path.dirname(__file__), "..", "..", "test", "Emit",
                          "golden")
    m = example("drag")
    hawk.embedded.export(m, tmp_path, check=False)
    for name in ("drag.c", "drag.h"):
        assert open(tmp_path / name).read() == open(os.path.join(golden, name)).read()


RATIO = """kernel @ratio(%a: per_sample f64, %b: per_sample f64, %q: mutable f64) {
  %x = load %a : f64
  %y = load %b : f64
  %r = fdiv %x, %y : f64
  store %r, %q
  ret
}
"""


def test_refusal_names_rule_and_fix_in_python_spelling(tmp_path):
    m = hawk.parse(RATIO, name="ratio.hir")
    with pytest.raises(hawk.HawkError) as e:
        hawk.embedded.export(m, tmp_path, profile={"fp_domain": "refuse"},
                             check=False)
    d = e.value.errors[0]
    assert d.rule == "fp.domain"
    assert (d.fix_option, d.fix_value) == ("fp-domain", "record")
    assert "run with fp_domain='record'" in d.message
    assert (d.file, d.line, d.col) == ("ratio.hir", 4, 8)
    assert not os.listdir(tmp_path)


def test_verify_returns_the_reports_numbers(example):
    r = hawk.embedded.verify(example("trajectory_tape")["trajectory_tape"])
    assert r["budgets"]["max_trips"] == 16
    sites = hawk.embedded.verify(example("haversine"))["haversine"]["fp_domain"]
    assert [(s["op"], s["verdict"]) for s in sites] == [("sqrt", "unknown"),
                                                          ("asin", "safe")]
    with pytest.raises(hawk.HawkError) as e:
        hawk.embedded.verify(example("trajectory_tape"), profile={"max_trips": 15})
    assert e.value.errors[0].rule == "budget.trips"
    assert "run with max_trips=16" in e.value.errors[0].message


def test_profile_values_are_checked(example):
    with pytest.raises(TypeError, match="expected a str, an int or a bool"):
        hawk.embedded.verify(example("drag"), profile={"max_trips": 1.5})


def test_build_and_load_run_on_numpy(example, tmp_path):
    m = example("drag")
    res = hawk.build([m], tmp_path, targets=("host", "c"), check=False)
    assert res.cache == "off"
    b = hawk.load(tmp_path)
    assert list(b.kernels) == ["drag"]
    rng = np.random.default_rng(1)
    state = rng.standard_normal((3, 1000))
    out = np.zeros((3, 1000))
    b.drag(state=state, rho=1.25, out=out)
    # drag.hir: out = (-rho * state) * norm(state), the norm's sum in
    # LangRef's order; every op is exactly rounded, so the bits agree
    n = np.sqrt((state[0] * state[0] + state[1] * state[1]) + state[2] * state[2])
    assert np.array_equal(out, (-1.25 * state) * n)
    out2 = np.zeros((3, 1000))
    b["drag"](state=state, rho=1.25, out=out2, threads=3)
    assert np.array_equal(out, out2)


def test_load_checks_dtype_shape_and_contiguity(example, tmp_path):
    hawk.build([example("drag")], tmp_path, targets=("host",), check=False)
    drag = hawk.load(tmp_path).drag
    state = np.ones((3, 8))
    out = np.zeros((3, 8))
    with pytest.raises(hawk.HawkError, match="'state' is float32, not float64"):
        drag(state=state.astype(np.float32), rho=1.0, out=out)
    with pytest.raises(hawk.HawkError, match=r"shape \(8, 3\).*\(3, n\)"):
        drag(state=np.ones((8, 3)), rho=1.0, out=out)
    with pytest.raises(hawk.HawkError, match="not C-contiguous"):
        drag(state=np.ones((8, 3)).T, rho=1.0, out=out)
    with pytest.raises(hawk.HawkError, match="written by the kernel but read-only"):
        ro = np.zeros((3, 8))
        ro.flags.writeable = False
        drag(state=state, rho=1.0, out=ro)
    with pytest.raises(hawk.HawkError, match="disagree on the sample count"):
        drag(state=state, rho=1.0, out=np.zeros((3, 9)))
    with pytest.raises(hawk.HawkError, match="n=4, but the planes hold 8"):
        drag(state=state, rho=1.0, out=out, n=4)
    with pytest.raises(hawk.HawkError, match="missing slot 'rho'"):
        drag(state=state, out=out)
    with pytest.raises(hawk.HawkError, match="no slot 'rh'"):
        drag(state=state, rh=1.0, out=out)


def test_load_refuses_a_c_only_build(example, tmp_path):
    hawk.build([example("drag")], tmp_path, targets=("c",), check=False)
    with pytest.raises(hawk.HawkError, match="source for an embedded build"):
        hawk.load(tmp_path)


def test_lookup_table_length_comes_from_the_array(example, tmp_path):
    hawk.build([example("lut_interp")], tmp_path, targets=("host",), check=False)
    k = hawk.load(tmp_path).lut_interp
    table = np.array([0.0, 10.0, 20.0, 30.0])
    x = np.array([0.0, 0.5, 1.0, 2.5])
    y = np.zeros(4)
    k(x=x, table=table, x0=0.0, dx=1.0, y=y)
    assert y.tolist() == [0.0, 5.0, 10.0, 25.0]


def test_build_cache_misses_then_hits(example, tmp_path):
    m = example("drag")
    cache = tmp_path / "cache"
    first = hawk.build(m, tmp_path / "a", targets=("host",), check=False,
                       cache_dir=cache)
    again = hawk.build(m, tmp_path / "b", targets=("host",), check=False,
                       cache_dir=cache)
    assert (first.cache, again.cache) == ("miss", "hit")
    assert first.key == again.key and len(first.key) == 64
    other = hawk.build(m, tmp_path / "c", targets=("host",), check=False,
                       cache_dir=cache, embedded_profile={"max_trips": 8})
    assert other.cache == "miss" and other.key != first.key


def test_export_of_several_modules_is_one_export(example, tmp_path):
    arts = hawk.embedded.export([example("drag"), example("pid")], tmp_path,
                                check=False)
    assert [a.kernel for a in arts] == ["drag", "pid"]
    assert sorted(os.listdir(tmp_path)) == [
        "drag.c", "drag.embedded.json", "drag.h", "hawk_runtime.c",
        "hawk_runtime.h", "pid.c", "pid.embedded.json", "pid.h"]
    with pytest.raises(hawk.HawkError, match="drag"):
        hawk.embedded.export([example("drag"), example("drag")], tmp_path / "x",
                             check=False)


def test_targets_must_be_a_sequence(example, tmp_path):
    with pytest.raises(TypeError, match=r"targets=\('host',\)"):
        hawk.build(example("drag"), tmp_path, targets="host")
    with pytest.raises(hawk.HawkError, match="toy"):
        hawk.build(example("drag"), tmp_path, targets=("toy",), check=False)
