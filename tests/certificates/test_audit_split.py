"""Issue 23: the budget-split upper end of alpha <= 1/2 (rldp_verify/rldp/audit/grid.py split_entry) is printed as
ratio_upper and carries a pair entry of mode "split" that rldp_verify_check re-derives (Theorem 1's projections
per part of the budget); wrong certificates are rejected."""

from __future__ import annotations

import copy
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.audit.grid import split_entry
from rldp_verify.rldp.audit.pair import PairProblem
from rldp_verify.rldp.uncertainty import RenyiBall

A = [[F(868, 1441), F(121, 448), F(428, 741), F(273, 613)], [F(65, 1441), F(101, 224), F(623, 1482), F(235, 613)],
     [F(508, 1441), F(125, 448), F(1, 494), F(105, 613)]]               # ../shared/data/redteam/a.json
KW = dict(phat="0.1,0.2;0.3,0.4", alpha=F(1, 2), radius=F(1, 10))


@pytest.fixture(scope="module")
def split_cert():
    res = audit(A, "1", sizes=(2, 2), **KW)
    return res, audit_certificate(res, A, "1", sizes=(2, 2), **KW)


def _split_pair(cert):
    (pc,) = [p for p in cert["data"]["pairs"] if p.get("mode") == "split"]
    return pc


def test_alpha_half_interval_is_certified(split_cert):
    """a.json, alpha 1/2, radius 0.1: [8.0215, ~8.029], the upper end from the budget split, and the checker
    accepts the certificate (the split pair re-derived from Definition 3 and (C))."""
    res, cert = split_cert
    assert F(80214, 10000) < res.ratio_lower <= res.ratio_upper < F(80292, 10000)
    assert res.ratio_upper < res.ratio_lower * F(1001, 1000)
    pc = _split_pair(cert)
    assert len(pc["cuts"]) == len(pc["mu1"]) == len(pc["mu2"]) > 8 and F(pc["cuts"][0]) == 0
    chk = recheck(cert)
    assert chk.ok and chk.message.startswith("FAIL: ratio in [8.02147"), chk.message


def _rejected(cert, *words):
    chk = recheck(cert)
    assert not chk.ok, chk.message
    assert any(w in chk.message for w in words), chk.message


def test_split_r_below_the_witness_rejected(split_cert):
    """r (and the printed upper end) lowered below the witness's ratio: no dual can prove it."""
    res, cert = split_cert
    bad = copy.deepcopy(cert)
    low = str(res.ratio_lower * F(999, 1000))
    _split_pair(bad)["r"] = low
    _rejected(bad, "does not prove", "mu2")


def test_split_upper_end_rounded_down_rejected(split_cert):
    """The printed ratio_upper rounded down below the split pair's r."""
    _, cert = split_cert
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_upper"] = str(F(_split_pair(cert)["r"]) * (1 - F(1, 10**15)))
    _rejected(bad, "below the certified bound")


@pytest.mark.parametrize(("which", "shift"), [("mu1", F(-1, 1000)), ("mu1", F(1)), ("mu2", F(1)), ("mu2", F(-1))])
def test_split_part_entry_perturbed_rejected(split_cert, which, shift):
    """Every part's mu1 (or mu2) moved by shift |mu|: the bound of the tight part (convex in mu) grows past r, or
    mu falls below max q1 (-r min q2). (mu2 down by 0.1 % is accepted: the float-optimised mu2 of the tight part
    lies above its optimum, and any mu gives a valid bound.)"""
    _, cert = split_cert
    bad = copy.deepcopy(cert)
    pc = _split_pair(bad)
    pc[which] = [str(F(v) + shift * abs(F(v))) for v in pc[which]]
    _rejected(bad, "does not prove", "mu1 < max q1")


def test_split_uncovered_budget_rejected(split_cert):
    """The cuts must start at 0 (c1 in [0, t_1) otherwise uncovered) and increase."""
    _, cert = split_cert
    for change in ("start", "order"):
        bad = copy.deepcopy(cert)
        pc = _split_pair(bad)
        if change == "start":
            pc["cuts"][0] = str(F(pc["cuts"][1]) / 2)
        else:
            pc["cuts"][1], pc["cuts"][2] = pc["cuts"][2], pc["cuts"][1]
        _rejected(bad, "budget cuts")


def test_split_with_the_wrong_end_is_rejected():
    """A wrong variant of the engine's split (each part's numerator at its left end, as a bug would have it) gives
    a lower r; its entry is not accepted by the checker."""
    from rldp_verify.certificates.audit import _accepts

    ball = RenyiBall.from_radius(KW["phat"], KW["alpha"], KW["radius"])
    rows = [tuple(A[2][s * 2:(s + 1) * 2]) for s in range(2)]
    prob = PairProblem(ball, rows, 2, 0, 1)
    r, entry = split_entry(prob, 50)
    assert entry is not None and _accepts(A[2], 2, 0, 1, ball.phat, ball.alpha, ball.radius, entry)
    shifted = {**entry, "mu1": entry["mu1"][:1] + entry["mu1"][:-1]}  # part k takes part k-1's numerator
    wrong = max(F(1), r * F(99999, 100000))
    assert not _accepts(A[2], 2, 0, 1, ball.phat, ball.alpha, ball.radius, {**shifted, "r": wrong})


def test_a_pair_settled_without_an_entry_gets_the_split_entry(monkeypatch):
    """Example 3's Q_PolyOpt, alpha = 1/2, radius 1/10 (FAIL): pair (y, s, s') = (3, 0, 1) was settled by the audit
    without a pair entry and none of the single-budget duals proves it at R; the builder's budget-split fallback
    (certificates.audit._split_entry) does, so the certificate is accepted -- without it, rejected."""
    import rldp_verify.certificates.audit as ca
    from proofs.rldp.ex3_audit import PHAT, Q_PRINTED
    from rldp_verify.rldp.mechio import Mechanism

    mech = Mechanism.from_matrix(Q_PRINTED, ["s1", "s2"], ["u1", "u2"], normalize=True)
    kw = dict(phat=PHAT, alpha="1/2", radius="1/10")
    res = audit(mech, "log(2)", **kw)
    chk = recheck(audit_certificate(res, mech, "log(2)", **kw))
    assert res.verdict == "FAIL" and chk.ok, chk.message
    monkeypatch.setattr(ca, "_split_entry", lambda *a, **k: None)
    chk = recheck(audit_certificate(res, mech, "log(2)", **kw))
    assert not chk.ok and "(3, 0, 1)" in chk.message, chk.message
