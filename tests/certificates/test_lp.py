"""lp-optimum certificates: built from the exact LP solvers, re-checked, and wrong variants rejected."""

import copy
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.lp import lp_certificate
from rldp_verify.core.lp import solve_certified, solve_exact

# maximise 3x + 2y  s.t.  x + y <= 4, x + 3y <= 6, x <= 3, x, y >= 0  (optimum 11 at (3, 1))
C, A, B = [3, 2], [[1, 1], [1, 3], [1, 0], [-1, 0], [0, -1]], [4, 6, 3, 0, 0]


@pytest.fixture(params=["exact", "certified"])
def cert(request):
    solve = solve_exact if request.param == "exact" else solve_certified
    return lp_certificate("toy", C, A, B, result=solve(C, A, B))


def test_accepted(cert):
    r = recheck(cert)
    assert r.ok, r.message
    assert "max = 11" in r.message


def test_perturbed_dual_rejected(cert):
    bad = copy.deepcopy(cert)
    y = [F(v) for v in bad["data"]["y"]]
    i = next(i for i, v in enumerate(y) if v)
    y[i] += F(1, 10**9)
    bad["data"]["y"] = [str(v) for v in y]
    assert not recheck(bad).ok


def test_wrong_value_rejected(cert):
    bad = copy.deepcopy(cert)
    bad["statement"]["value"] = "10"
    assert not recheck(bad).ok


def test_infeasible_primal_rejected(cert):
    bad = copy.deepcopy(cert)
    bad["data"]["x"] = ["3", "11/10"]       # c.x = 11.2 > 11 but violates x + y <= 4
    bad["statement"]["value"] = "56/5"
    assert "violates" in recheck(bad).message


def test_negative_multiplier_rejected(cert):
    bad = copy.deepcopy(cert)
    bad["data"]["y"] = ["-1"] + bad["data"]["y"][1:]
    assert not recheck(bad).ok


def test_min_sense_and_bounds():
    # minimise x + y s.t. x + 2y >= 2 (as -x - 2y <= -2), 0 <= x, y <= 5
    c, A, b = [1, 1], [[-1, -2]], [-2]
    res = solve_certified([-1, -1], A, b, lower=[0, 0], upper=[5, 5])
    cert = lp_certificate("min", c, A, b, result=res, lower=[0, 0], upper=[5, 5], sense="min")
    r = recheck(cert)
    assert r.ok and "min = 1" in r.message, r.message
    bad = copy.deepcopy(cert)
    bad["statement"]["lower"] = [None, None]   # a bound multiplier with no bound on its side
    if any(F(v) for v in cert["data"]["d"]):
        assert not recheck(bad).ok


def test_json_float_refused(tmp_path):
    from rldp_verify_check import check_path

    p = tmp_path / "f.json"
    p.write_text('{"certificate": "rldp-verify", "version": 1, "kind": "lp-optimum", "name": "f", '
                 '"statement": {"c": [1.0], "value": 0}, "data": {"x": [0], "y": []}}')
    (r,) = check_path(p)
    assert not r.ok and "float" in r.message


def test_solve_with_certificate_min_and_max():
    from rldp_verify.certificates.lp import solve_with_certificate

    res, cert = solve_with_certificate("max", C, A, B)
    assert res.value == 11 and recheck(cert).ok
    res, cert = solve_with_certificate("min", C, A, B, sense="min")
    assert res.value == 0 and recheck(cert).ok and "min = 0" in recheck(cert).message


@pytest.mark.parametrize("seed", range(20))
def test_random_lps(seed):
    """Random bounded LPs (with equalities and keyword bounds): accepted; the optimum moved by 10^-12, rejected."""
    import random

    from rldp_verify.certificates.lp import solve_with_certificate
    from rldp_verify.core.errors import InputError

    rng = random.Random(seed)
    n, m = rng.randint(2, 5), rng.randint(1, 5)
    A = [[rng.randint(-3, 5) for _ in range(n)] for _ in range(m)]
    b = [rng.randint(1, 10) for _ in range(m)]
    E, f = ([[1] * n], [rng.randint(1, 3)]) if seed % 3 == 0 else ([], [])
    c = [rng.randint(-4, 4) for _ in range(n)]
    sense = rng.choice(["max", "min"])
    try:
        res, cert = solve_with_certificate("r", c, A, b, E, f, lower=[0] * n, upper=[rng.randint(1, 4)] * n, sense=sense)
    except InputError:        # not optimal (infeasible): no optimum to certify
        pytest.skip("infeasible")
    assert recheck(cert).ok, recheck(cert).message
    bad = copy.deepcopy(cert)
    bad["statement"]["value"] = str(F(bad["statement"]["value"]) + F(1, 10**12))
    assert not recheck(bad).ok


def test_directory_skips_other_json_but_not_floats_in_certificates(tmp_path):
    import json

    from rldp_verify_check import check_path

    (tmp_path / "report.json").write_text(json.dumps({"seconds": 1.5, "claims": []}))   # not a certificate
    (tmp_path / "c.json").write_text('{"certificate": "rldp-verify", "version": 1, "kind": "rigorous-value", '
                                     '"name": "x", "statement": {"expr": 1, "upper": 1.0}, "data": {}}')
    (r,) = check_path(tmp_path)
    assert not r.ok and "float" in r.message
