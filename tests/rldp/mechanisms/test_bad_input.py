"""Bad input to every constructor, check and to the CLI: one-line InputError naming the bad value."""

from __future__ import annotations

import json
import math
from fractions import Fraction

import pytest

from rldp_verify.cli import main
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.mechanisms import (
    check_gamma,
    check_prop3,
    check_single_distribution,
    exact_level,
    exp_delta2,
    grr,
    grr_matrix,
    independent_reporting,
    ir_matrix,
    nonrobust,
    polyopt,
    polyopt_from_bounds,
    privacy_level,
    solve_eq46,
    srr,
    srr_matrix,
)
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.rldp.uncertainty import RenyiBall

PHAT = [["0.07", "0.10"], ["0.26", "0.57"]]


def _one_line(exc):
    assert "\n" not in str(exc.value)


@pytest.mark.parametrize("eps", ["-1", "abc", "log(1/2)", "log(x)", float("nan"), float("inf"), True, None, [1]])
def test_bad_eps(eps):
    with pytest.raises(InputError) as e:
        privacy_level(eps) if eps is not None else grr(PHAT, None)
    _one_line(e)


@pytest.mark.parametrize("fn", [grr, srr, nonrobust])
@pytest.mark.parametrize("phat", ["0.5,0.6;0.1,0.1", [["a", "b"]], [[1, 2], [3]], [], [[-1, 2]], "x"])
def test_bad_phat(fn, phat):
    with pytest.raises(InputError) as e:
        fn(phat, "log(2)")
    _one_line(e)


def test_bad_digits_and_labels():
    with pytest.raises(InputError):
        privacy_level("1", digits=0)
    with pytest.raises(InputError):
        grr(PHAT, "log(2)", sensitive=["a", "a"])
    with pytest.raises(InputError):
        grr(PHAT, "log(2)", sensitive=["a", "b", "c"])
    with pytest.raises(InputError):
        grr(None, "log(2)")


def test_bad_matrices():
    for args in [(0, 2), (2, Fraction(1, 2)), (True, 2)]:
        with pytest.raises(InputError):
            grr_matrix(*args)
    with pytest.raises(InputError):
        srr_matrix(2, 0, 2)
    with pytest.raises(InputError):
        srr_matrix(2, 2, Fraction(1, 3))
    with pytest.raises(InputError):
        exp_delta2(Fraction(1, 2), 1)
    with pytest.raises(InputError):
        exp_delta2(2, -1)
    assert exp_delta2(2, 0) == math.inf
    assert ir_matrix(1, 2, 2, math.inf) == [[1, 0], [0, 1]]


def test_bad_polyopt_inputs():
    with pytest.raises(InputError):
        polyopt(PHAT, "log(2)")                                    # not a ball
    for L in ([["0.6", "0.5"], ["0", "0"]], [["0.1"], ["0.1"]], [["-0.1", "0"], ["0", "0"]], [["x", "0"], ["0", "0"]]):
        with pytest.raises(InputError) as e:
            polyopt_from_bounds(PHAT, L, "log(2)")
        _one_line(e)
    with pytest.raises(InputError):
        solve_eq46([], [Fraction(1)])
    V = [(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1))]
    for p, bad in (([Fraction(1, 2), Fraction(1, 3)], "sums to 5/6"), ([Fraction(3, 2), Fraction(-1, 2)], "p[1]"),
                   ([0.5, float("nan")], "p[1]")):
        with pytest.raises(InputError, match=bad.replace("[", r"\[").replace("]", r"\]")) as e:
            solve_eq46(V, p)                                      # p is not a distribution
        _one_line(e)
    assert solve_eq46(V, [Fraction(1, 2), Fraction(1, 2)]).lower is not None


def test_bad_ir_inputs():
    ball = RenyiBall.from_radius(PHAT, 2, "1/10")
    with pytest.raises(InputError):
        independent_reporting(PHAT, "log(2)")
    with pytest.raises(InputError) as e:
        independent_reporting(ball, "log(2)", eps2="log(3)")       # eps2 > eps
    assert "eps2" in str(e.value)


def test_bad_checks():
    Q = [[Fraction(1, 2)] * 4, [Fraction(1, 2)] * 4]
    with pytest.raises(InputError):
        check_prop3(Q, "log(2)")                                   # sizes missing for a bare matrix
    with pytest.raises(InputError):
        check_prop3(Q, "log(2)", 3, 2)                             # wrong width
    with pytest.raises(InputError):
        check_single_distribution(Q, [Fraction(1, 2), Fraction(1, 2)], "log(2)", 2, 2)
    with pytest.raises(InputError):
        check_single_distribution(Q, [Fraction(1, 2)] * 4, "log(2)", 2, 2)  # sums to 2
    with pytest.raises(InputError):
        check_gamma(Q, [[0]], "log(2)", a1=2, a2=2)
    with pytest.raises(InputError):
        check_prop3([["a"]], "log(2)", 1, 1)
    with pytest.raises(InputError):
        exact_level(Fraction(1, 2))


def test_check_verdicts():
    # Proposition 3: max over s-block vs min over the other block
    Q = [[Fraction(2, 3), Fraction(1, 3), Fraction(1, 3), Fraction(1, 3)],
         [Fraction(1, 3), Fraction(2, 3), Fraction(2, 3), Fraction(2, 3)]]
    assert check_prop3(Q, "log(2)", 2, 2).holds is True
    res = check_prop3(Q, "log(3/2)", 2, 2)
    assert res.holds is False and res.worst["y"] == 0
    # a decimal eps has irrational e^eps, compared through a certified bracket
    assert check_prop3(Q, "0.6931471", 2, 2).holds is False
    assert check_prop3(Q, "0.6931472", 2, 2).holds is True


def test_mechanism_json_roundtrip(tmp_path):
    m = srr(PHAT, "log(2)")
    p = tmp_path / "m.json"
    m.save(p)
    back = Mechanism.load(p)
    assert back.matrix == m.matrix and back.eps == "log(2)" and back.utility == m.utility


# CLI ------------------------------------------------------------------------------------------


def _cli(capsys, *argv):
    code = main(list(argv))
    out = capsys.readouterr()
    return code, out.out, out.err


def test_cli_builds_every_kind(tmp_path, capsys):
    base = ["--eps", "log(2)", "--phat", "7,10;26,57"]
    ball = ["--alpha", "2", "--confidence", "0.95", "--samples", "100"]
    for kind, extra in (("grr", []), ("srr", []), ("nr", []), ("ir", ball), ("polyopt", ball),
                        ("polyopt", ball + ["--relaxed"])):
        out = tmp_path / f"{kind}{len(extra)}.json"
        code, _, err = _cli(capsys, "mechanism", kind, *base, *extra, "-o", str(out))
        assert code == 0, err
        doc = json.loads(out.read_text())
        assert set(doc) >= {"sensitive", "public", "outputs", "matrix", "eps", "guarantee", "utility"}
        m = Mechanism.from_json(doc)
        assert m.exact and all(sum(r[c] for r in m.matrix) == 1 for c in range(4))
    # Example 3's utility through the CLI
    doc = json.loads((tmp_path / f"polyopt{len(ball)}.json").read_text())
    assert doc["utility"]["I"].startswith("0.42278")


def test_cli_data(tmp_path, capsys):
    csv = tmp_path / "d.csv"
    csv.write_text("sex,edu\n" + "m,hs\n" * 7 + "m,ba\n" * 10 + "f,hs\n" * 26 + "f,ba\n" * 57)
    out = tmp_path / "m.json"
    code, _, err = _cli(capsys, "mechanism", "ir", "--eps", "1", "--data", str(csv), "--sensitive", "sex",
                        "--public", "edu", "--alpha", "2", "--confidence", "0.95", "-o", str(out))
    assert code == 0, err
    doc = json.loads(out.read_text())
    assert doc["sensitive"] == ["f", "m"] and doc["public"] == ["ba", "hs"]


@pytest.mark.parametrize("argv, needle", [
    (["mechanism", "grr", "--eps", "-1", "--phat", "1,1;1,1"], "eps"),
    (["mechanism", "grr", "--eps", "1"], "--phat"),
    (["mechanism", "polyopt", "--eps", "1", "--phat", "1,1;1,1"], "alpha"),
    (["mechanism", "polyopt", "--eps", "1", "--phat", "1,1;1,1", "--alpha", "2"], "radius"),
    (["mechanism", "polyopt", "--eps", "1", "--phat", "1,1;1,1", "--alpha", "0", "--radius", "1"], "alpha"),
    (["mechanism", "polyopt", "--eps", "1", "--phat", "1,1;1,1", "--alpha", "2", "--confidence", "0.95"], "samples"),
    (["mechanism", "polyopt", "--eps", "1", "--phat", "1,1;1,1", "--alpha", "2", "--radius", "1",
      "--confidence", "0.9", "--samples", "5"], "either"),
    (["mechanism", "grr", "--eps", "1", "--phat", "1,1;1,1", "--relaxed"], "relaxed"),
    (["mechanism", "srr", "--eps", "1", "--phat", "1,1;1,1", "--eps2", "0.5"], "eps2"),
    (["mechanism", "grr", "--eps", "1", "--phat", "1,1;1,1", "--radius", "1"], "does not use"),
    (["mechanism", "ir", "--eps", "1", "--phat", "1,1;1,1", "--alpha", "2", "--radius", "1", "--eps2", "2"], "eps2"),
    (["mechanism", "grr", "--eps", "1", "--phat", "0.5,0.6;0.1,0.1"], "sums"),
    (["mechanism", "grr", "--eps", "1", "--data", "/nonexistent.csv", "--sensitive", "0", "--public", "1"], "cannot read"),
    (["mechanism", "grr", "--eps", "1", "--phat", "1,1;1,1", "--dps", "x"], "dps"),
    (["mechanism", "grr", "--eps", "1", "--phat", "1,1;1,1", "--digits", "0"], "digits"),
    (["mechanism", "grr", "--eps", "1", "--phat", "1,1;1,1", "-o", "/nonexistent/dir/m.json"], "cannot write"),
])
def test_cli_bad_input(capsys, argv, needle):
    code, _, err = _cli(capsys, *argv)
    assert code == 2
    assert err.startswith("rldp-verify: error:") and needle in err and err.count("\n") == 1
