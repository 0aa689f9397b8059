"""Benchmark certificates that failed or crashed (issue 23): red-team X8 (radius 2000, the upper end ~2.4e870
from Theorem 1's product of projections) is certified by product entries the checker accepts, and rejected with
its upper end rounded down; the checker formats ratios beyond float's range (10^600) without crashing, and reads
gzip-compressed certificates (.json.gz)."""

import copy
import gzip
import json
import math
from fractions import Fraction as F
from pathlib import Path

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.rldp.audit import audit
from rldp_verify_check.audit import _s

# /work/shared/data/redteam/X8.json (benchmarks/bench_audit_redteam.py): 4 outputs, |S| = 2, |U| = 4
X8 = [["0", "6/11", "0", "2/21", "1/4", "7/24", "5/28", "5/23"],
      ["7/15", "0", "4/13", "1/3", "3/20", "0", "9/28", "2/23"],
      ["7/15", "3/11", "3/13", "5/21", "1/10", "1/3", "1/7", "9/23"],
      ["1/15", "2/11", "6/13", "1/3", "1/2", "3/8", "5/14", "7/23"]]
X8_KW = dict(phat="257/1974,61/329,311/1316,23/564;757/3948,25/658,265/3948,109/987", alpha=F(3, 2), radius=2000)
X8_EPS = "1.1391964703845507"


@pytest.fixture(scope="module")
def x8():
    Q = [[F(v) for v in row] for row in X8]
    res = audit(Q, X8_EPS, sizes=(2, 4), **X8_KW)
    return res, audit_certificate(res, Q, X8_EPS, sizes=(2, 4), name="X8", **X8_KW)


def test_x8_accepted(x8):
    res, cert = x8
    r = recheck(cert)
    assert r.ok, r.message
    assert F(cert["statement"]["ratio_upper"]) > 10**869           # the radius-2000 regime, not Proposition 3
    assert r.message.startswith("FAIL: ratio in [") and "e+870]" in r.message, r.message
    products = [p for p in cert["data"]["pairs"] if p.get("mode") == "product"]
    assert {(p["y"], p["s"], p["s_prime"]) for p in products} >= {(0, 1, 0), (1, 1, 0)}


def test_x8_upper_end_rounded_down_rejected(x8):
    _, cert = x8
    bad = copy.deepcopy(cert)                              # the printed upper end rounded down
    bad["statement"]["ratio_upper"] = str(F(bad["statement"]["ratio_upper"]) * (1 - F(1, 10**30)))
    assert "below the certified bound" in recheck(bad).message
    for p in cert["data"]["pairs"]:                        # each product pair's r rounded down, its mu kept
        if p.get("mode") != "product":
            continue
        bad = copy.deepcopy(cert)
        pb = next(b for b in bad["data"]["pairs"] if (b["y"], b["s"], b["s_prime"]) == (p["y"], p["s"], p["s_prime"]))
        pb["r"] = str(F(pb["r"]) * (1 - F(1, 10**12)))
        msg = recheck(bad).message
        assert "does not prove" in msg or "mu2 < -r min q2" in msg, msg


def test_x8_builder_without_the_engine_product_entry(x8, monkeypatch):
    """The builder's own product entry (mu = max v when z ~ 1e-868 puts the optimum below the search range)
    is accepted too: the certificate does not depend on the audit exposing its entry."""
    from rldp_verify.certificates import audit_product

    monkeypatch.setattr(audit_product, "_engine_product_entry", lambda *a: None)
    res, _ = x8
    Q = [[F(v) for v in row] for row in X8]
    r = recheck(audit_certificate(res, Q, X8_EPS, sizes=(2, 4), name="X8", **X8_KW))
    assert r.ok, r.message


@pytest.mark.parametrize("x, want", [(F(10**600), "1.00000000000e+600"), (F(1, 10**600), "1.00000000000e-600"),
                                     (F(-3 * 10**400, 7), "-4.28571428571e+399"), (F(3, 2), "1.5"),
                                     (F(0), "0"), (None, "None"), (float("inf"), "inf")])
def test_s_without_float(x, want):
    assert _s(x) == want


def test_ratio_of_ten_to_the_600_checked():
    """A certificate whose ratio is 10^600 (the '1e-300 block' red-team inputs): eps-LDP, Q[0|0] / Q[0|1] = 10^600;
    the checker's success line formats it without float (it crashed with OverflowError)."""
    tiny = F(1, 2 * 10**600)
    Q = [[F(1, 2), tiny], [F(1, 2), 1 - tiny]]
    res = audit(Q, "1", sizes=(2, 1), ldp=True)
    cert = audit_certificate(res, Q, "1", sizes=(2, 1), ldp=True, name="1e-600")
    r = recheck(cert)
    assert r.ok, r.message
    assert r.message.startswith("FAIL: ratio in [1.00000000000e+600, 1.00000000000e+600]"), r.message
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_upper"] = str(F(bad["statement"]["ratio_upper"]) - 1)
    assert "below the certified bound" in recheck(bad).message


def _gz(path, doc):
    path.write_bytes(gzip.compress(json.dumps(doc).encode()))
    return path


def test_gzip_certificate_accepted_and_tampered_rejected(tmp_path, capsys):
    """A certificate above the benchmarks' 5 MB is written as .json.gz: the checker (a file, a directory) and
    ``rldp-verify check-certificates`` read it; a tampered one (upper end rounded down) and a corrupt or
    truncated file are rejected."""
    from rldp_verify.cli import main
    from rldp_verify_check import check_path

    tiny = F(1, 2 * 10**600)
    Q = [[F(1, 2), tiny], [F(1, 2), 1 - tiny]]
    cert = audit_certificate(audit(Q, "1", sizes=(2, 1), ldp=True), Q, "1", sizes=(2, 1), ldp=True, name="gz")
    (tmp_path / "good").mkdir()
    good = _gz(tmp_path / "good" / "a.json.gz", cert)
    [r] = check_path(good)
    assert r.ok and r.name == "gz", r.message
    [r] = check_path(good.parent)                          # found in a directory
    assert r.ok, r.message
    assert main(["check-certificates", str(good.parent)]) == 0
    assert "1 certificates, 1 re-checked, 0 failed" in capsys.readouterr().out
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_upper"] = str(F(bad["statement"]["ratio_upper"]) - 1)
    (tmp_path / "bad").mkdir()
    _gz(tmp_path / "bad" / "a.json.gz", bad)
    blob = gzip.compress(json.dumps(cert).encode())
    (tmp_path / "bad" / "truncated.json.gz").write_bytes(blob[:len(blob) // 2])
    (tmp_path / "bad" / "corrupt.json.gz").write_bytes(blob[:12] + bytes(b ^ 0xFF for b in blob[12:40]) + blob[40:])
    (tmp_path / "bad" / "plain.json.gz").write_text(json.dumps(cert))       # not gzip
    rs = {Path(r.name).name if r.kind == "?" else r.name: r for r in check_path(tmp_path / "bad")}
    assert len(rs) == 4 and not any(r.ok for r in rs.values()), rs
    assert "below the certified bound" in rs["gz"].message
    assert all(rs[f].message.startswith("unreadable") for f in ("truncated.json.gz", "corrupt.json.gz", "plain.json.gz"))
    assert main(["check-certificates", str(tmp_path / "bad")]) == 1


@pytest.mark.parametrize("k, m, want", [(2**16, 2**15, "at least 2^"), (200, 3, f"has {math.perm(200, 3) * 200} entries")])
def test_dense_head_counts_formatted(k, m, want):
    """Ordered subset selection has no structured form; the refusal names the dense matrix's entry count, which at
    k = 2^16 has more than Python's 4300-digit limit for str(int) (ValueError before): written as at least 2^j."""
    from types import SimpleNamespace

    from rldp_verify.certificates.audit import _dense_head
    from rldp_verify.core.errors import InputError
    from rldp_verify.structured.channels import SubsetSelection

    st = SubsetSelection(k=k, m=m, P=F(1, 2), ordered=True)
    with pytest.raises(InputError) as e:
        _dense_head(SimpleNamespace(adapter="ordered-subsets"), st, [k, 1], "ordered subsets")
    assert want in str(e.value), str(e.value)
    if k == 2**16:
        n = math.perm(k, m) * k
        j = int(str(e.value).split("at least 2^")[1].split()[0])
        assert 2**j <= n < 2**(j + 1)


@pytest.mark.parametrize("alpha", [F(10**400), F(10**308), F(5000), F(100), F(16)])
def test_in_ball_at_huge_integer_order(alpha):
    """The red-team audits at alpha 1e400 / 1e308 (integers once read exactly): the checker's exact route computed
    h^alpha / p^(alpha - 1) as rationals (> 15 min; L7 at alpha 100: 38 s); above order 16 the Rényi sum is evaluated
    in arb (16: still exact).  D = D_alpha(P^||P) from mpmath at 60 digits: the witness is in F at radius D + 1e-15,
    not at D - 1e-15."""
    import time

    import mpmath

    from rldp_verify_check.audit import in_ball

    phat = [[F(1, 4), F(3, 4)], [F(0), F(0)]]
    P = [[F(9, 40), F(31, 40)], [F(0), F(0)]]
    with mpmath.workdps(60):
        a = mpmath.mpf(alpha.numerator)
        S = sum(mpmath.exp(a * mpmath.log(mpmath.mpf(h.numerator) / h.denominator)
                           + (1 - a) * mpmath.log(mpmath.mpf(p.numerator) / p.denominator))
                for h, p in ((F(1, 4), F(9, 40)), (F(3, 4), F(31, 40))))
        D = mpmath.log(S) / (a - 1)
        assert 0 < D < math.log(10 / 9)                                   # D_alpha <= D_inf
        for shift, inside in ((F(1, 10**15), True), (F(-1, 10**15), False)):
            B = F(int(mpmath.nint(D * 10**30)), 10**30) + shift
            t = time.perf_counter()
            assert in_ball(P, phat, alpha, B) is inside, (alpha, inside)
            assert time.perf_counter() - t < 5


def test_proposition3_pairs_skip_the_screen_and_the_checker_calls(monkeypatch):
    """|U| = 1 (red-team 240x1: 1.38M pairs): every pair is settled by Proposition 3's exact entry, written without
    a checker call or a float screen; the certificate is accepted, and rejected with a pair's mu2 rounded up."""
    import rldp_verify.certificates.audit as cert_audit

    Q = [[F(1, 2), F(1, 4), F(1, 3)], [F(1, 2), F(3, 4), F(2, 3)]]
    kw = dict(phat="1;2;3", alpha=2, radius="1/10")
    res = audit(Q, "1", sizes=(3, 1), **kw)

    def boom(*a, **k):
        raise AssertionError("called")
    monkeypatch.setattr(cert_audit, "_accepts", boom)
    monkeypatch.setattr(cert_audit, "_screen_params", boom)
    cert = audit_certificate(res, Q, "1", sizes=(3, 1), name="240x1-like", **kw)
    pairs = cert["data"]["pairs"]
    assert len(pairs) == 2 * 3 * 2 and all(F(p["t"]) == 0 for p in pairs)
    r = recheck(cert)
    assert r.ok, r.message
    bad = copy.deepcopy(cert)
    worst = bad["data"]["pairs"][0]
    worst["mu2"] = str(F(worst["mu2"]) + F(1, 10**30))               # mu2 < -r min q2: rejected
    assert not recheck(bad).ok
