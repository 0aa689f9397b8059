"""Issue 23: the ``lattice-laplace`` audit certificate form (OpenDP's make_laplace / make_geometric on integers,
floats on the 2^k lattice and vectors, rldp_verify.structured.noise): accepted at the audit's verdicts, its wrong
twins rejected (eps rounded down, a lattice index off by one, a bound moved to another lattice point, printed ends
that miss e^eps), and written by ``rldp-verify audit --adapter opendp:... --ldp --certificate``."""

from __future__ import annotations

import copy
import json
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import structured_certificate
from rldp_verify.structured.audit import Adapted, audit_structured
from rldp_verify.structured.composite import DiscreteLaplaceShift
from rldp_verify.structured.noise import K_MIN_F64, LatticeLaplace, VectorLaplace

# (structure, eps_c): eps_c = size (i(upper) - i(lower)) 2^k / scale, computed by hand
CASES = [
    (DiscreteLaplaceShift(4, 1.0, lo=0), F(3)),                                     # integers 0..3, scale 1
    (LatticeLaplace(3, 0.5, lower=0.2, upper=1.7, k=0), F(4)),                      # indices 0 and 2 (README: 4, not 3)
    (LatticeLaplace(3, 0.5, lower=0.0, upper=1.0, k=K_MIN_F64), F(2)),              # every float a lattice point
    (LatticeLaplace(3, 0.25, lower=-0.75, upper=0.5, k=-1), F(4)),                  # indices -1 (tie up) and 1
    (VectorLaplace(4, 1.0, lower=0, upper=3, size=4, k=0), F(12)),
    (VectorLaplace(3, 0.5, lower=0.0, upper=1.0, size=3, k=K_MIN_F64), F(6)),
]


def _cert(st, eps):
    model = Adapted(st, "test lattice noise", "exact")
    res = audit_structured(model, eps)
    return res, structured_certificate(res, model, eps)


@pytest.mark.parametrize(("st", "eps_c"), CASES)
def test_lattice_accepted_pass_at_eps_fail_below(st, eps_c):
    for eps, verdict in ((str(eps_c), "PASS"), (str(eps_c - F(1, 2**40)), "FAIL"), (str(eps_c + 1), "PASS")):
        res, cert = _cert(st, eps)
        chk = recheck(cert)
        assert str(res.verdict) == verdict and chk.ok and chk.message.startswith(verdict), chk.message
        assert f"eps_c = {eps_c} " in chk.message


def test_lattice_exp_eps_target():
    st = LatticeLaplace(3, 0.5, lower=0.2, upper=1.7, k=0)                          # e^4 = 54.598...
    for r, verdict in (("54", "FAIL"), ("55", "PASS")):
        res, cert = _cert(st, f"log({r})")
        chk = recheck(cert)
        assert cert["statement"]["eps"] == {"exp_eps": int(r)} and str(res.verdict) == verdict and chk.ok, chk.message
        bad = copy.deepcopy(cert)
        bad["statement"]["verdict"] = "PASS" if verdict == "FAIL" else "FAIL"
        assert not recheck(bad).ok


def _wrong(cert, path, value):
    bad = copy.deepcopy(cert)
    node = bad
    for key in path[:-1]:
        node = node[key]
    node[path[-1]] = value(node[path[-1]])
    return recheck(bad)


@pytest.mark.parametrize(("st", "eps_c"), CASES)
def test_lattice_wrong_twins_rejected(st, eps_c):
    _, cert = _cert(st, str(eps_c))
    assert recheck(cert).ok
    lat = ("statement", "lattice-laplace")
    wrong = {
        "eps rounded down": (("statement", "eps"), lambda e: {"eps": str(eps_c - F(1, 10**30))}),
        "i_upper + 1": (("data", "i_upper"), lambda i: i + 1),
        "i_lower - 1": (("data", "i_lower"), lambda i: i - 1),
        "i_upper - 1": (("data", "i_upper"), lambda i: i - 1),
        "upper moved one lattice step": ((*lat, "upper"), lambda x: str(F(x) + F(2) ** cert["statement"][
            "lattice-laplace"]["k"])),
        "scale doubled": ((*lat, "scale"), lambda s: str(2 * F(s))),
        "size + 1": ((*lat, "size"), lambda n: n + 1),
        "upper end rounded down": (("statement", "ratio_upper"), lambda r: str(F(r) - F(1, 10**15))),
        "lower end rounded up": (("statement", "ratio_lower"), lambda r: str(F(r) + F(1, 10**15))),
    }
    for why, (path, value) in wrong.items():
        chk = _wrong(cert, path, value)
        assert not chk.ok, why


def test_lattice_off_by_one_index_message():
    _, cert = _cert(LatticeLaplace(3, 0.5, lower=0.2, upper=1.7, k=0), "4")
    bad = copy.deepcopy(cert)
    bad["data"]["i_upper"] = 3                                                      # 1.7 rounds to 2, not 3
    chk = recheck(bad)
    assert not chk.ok and "not floor(x 2^-k + 1/2) of the bounds (k = 0)" in chk.message, chk.message


def test_cli_writes_the_lattice_certificate(tmp_path, capsys):
    pytest.importorskip("opendp")
    from rldp_verify.cli import main

    cert = tmp_path / "lap.json"
    assert main(["audit", "--adapter", "opendp:make_laplace", "--param", "bounds=0.2,1.7", "--param", "scale=0.5",
                 "--param", "T=float", "--param", "k=0", "--eps", "4", "--ldp", "--certificate", str(cert)]) == 0
    doc = json.loads(cert.read_text())
    assert doc["statement"]["lattice-laplace"]["k"] == 0 and doc["data"]["i_upper"] == 2
    assert main(["check-certificates", str(cert)]) == 0
    assert "re-checked" in capsys.readouterr().err
