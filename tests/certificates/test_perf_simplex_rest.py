"""Rényi-ball audit certificates that list only the pairs Proposition 3 does not settle (``"simplex_rest": true``,
beyond INLINE_PAIRS pairs): accepted, with the checker's simplex bound for the rest; its max over pairs without
trying them all equals brute force; wrong variants rejected: a listed pair dropped, the flag dropped, the printed
upper end below the simplex bound, a Q entry raised."""

import copy
import random
from fractions import Fraction as F

import pytest

import rldp_verify.certificates.audit as builder
from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate
from rldp_verify.rldp.audit import audit
from rldp_verify_check.audit import _max_ratio, _ratio, _simplex

Q = [[F(1, 2), F(1, 6), F(1, 5), F(1, 6)], [F(1, 6), F(1, 2), F(1, 5), F(1, 6)],
     [F(1, 6), F(1, 6), F(2, 5), F(1, 6)], [F(1, 6), F(1, 6), F(1, 5), F(1, 2)]]
PHAT = "0.07,0.10;0.26,0.57"
BALLS = {"ball-2": dict(phat=PHAT, alpha=2, radius="1/10"), "ball-1": dict(phat=PHAT, alpha=1, radius="1/20"),
         "ball-3/4": dict(phat=PHAT, alpha=F(3, 4), radius="1/20")}


def _make(kind, eps, monkeypatch):
    monkeypatch.setattr(builder, "INLINE_PAIRS", 0)
    res = audit(Q, eps, sizes=(2, 2), **BALLS[kind])
    return res, audit_certificate(res, Q, eps, sizes=(2, 2), name=kind, **BALLS[kind])


@pytest.mark.parametrize("kind", sorted(BALLS))
@pytest.mark.parametrize("eps", ["log(4)", "log(3)"])
def test_rest_accepted(kind, eps, monkeypatch):
    res, cert = _make(kind, eps, monkeypatch)
    assert cert["data"]["simplex_rest"] is True and len(cert["data"]["pairs"]) < 4 * 2
    r = recheck(cert)
    assert r.ok, r.message
    assert r.message.startswith(str(res.verdict))


def test_rest_wrong_variants_rejected(monkeypatch):
    res, cert = _make("ball-2", "log(4)", monkeypatch)
    assert res.verdict == "PASS" and cert["data"]["pairs"]
    bad = copy.deepcopy(cert)                        # an unsettled pair dropped: its simplex bound exceeds R
    bad["data"]["pairs"].pop()
    assert "below the certified bound" in recheck(bad).message
    bad = copy.deepcopy(cert)                        # the flag dropped: the unlisted pairs have no certificate
    del bad["data"]["simplex_rest"]
    assert "have no certificate" in recheck(bad).message
    bad = copy.deepcopy(cert)
    bad["data"]["pairs"].append(dict(bad["data"]["pairs"][0]))
    assert "listed twice" in recheck(bad).message


def test_settled_everywhere_lists_no_pair(monkeypatch):
    """|U| = 1: P(y|s) = Q[y|s], the ball's sup is the simplex bound; every pair is settled, none listed; the printed
    upper end one part in 10^20 lower, or a Q entry raised by 1%, is rejected."""
    monkeypatch.setattr(builder, "INLINE_PAIRS", 0)
    Q1 = [[F(1, 10), F(3, 10), F(6, 10)], [F(2, 10), F(3, 10), F(1, 10)], [F(7, 10), F(4, 10), F(3, 10)]]
    kw = dict(phat="1;2;3", alpha=2, radius="1/2")
    res = audit(Q1, "log(5)", sizes=(3, 1), **kw)
    cert = audit_certificate(res, Q1, "log(5)", sizes=(3, 1), **kw)
    assert cert["data"]["pairs"] == [] and cert["data"]["simplex_rest"] is True
    assert recheck(cert).ok, recheck(cert).message
    top = max(_ratio(a, b) for row in Q1 for a in row for b in row)
    assert F(cert["statement"]["ratio_upper"]) >= top
    bad = copy.deepcopy(cert)
    bad["statement"]["ratio_upper"] = str(top - top / 10**20)
    assert "below the certified bound" in recheck(bad).message
    bad = copy.deepcopy(cert)
    bad["statement"]["Q"][0][2] = str(F(6, 10) * F(101, 100))          # the worst ratio 7/1 -> 7.07 > printed
    bad["statement"]["Q"][1][2] = str(F(1, 10) * F(99, 100))
    assert not recheck(bad).ok


def test_max_ratio_is_brute_force():
    rng = random.Random(7)
    for _ in range(300):
        n = rng.randint(1, 6)
        num = [F(rng.choice([0, 0, 1, 2, 3, 5])) for _ in range(n)]
        den = [F(rng.choice([0, 1, 2, 3, 5])) for _ in range(n)]
        skip = {(i, j) for i in range(n) for j in range(n) if rng.random() < 0.3}
        brute = max([F(1)] + [_ratio(num[i], den[j]) for i in range(n) for j in range(n)
                              if i != j and (i, j) not in skip])
        assert _max_ratio(num, den, skip) == brute, (num, den, skip)
    rows = [[F(rng.randint(0, 4)) for _ in range(6)] for _ in range(5)]
    brute = max(_ratio(max(r[s * 2:s * 2 + 2]), min(r[t * 2:t * 2 + 2])) for r in rows for s in range(3)
                for t in range(3) if s != t)
    assert _simplex(rows, 3, 2, {}) == max(brute, 1)
