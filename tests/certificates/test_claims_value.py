"""Certificates of the claims that rest on a chi-square quantile (proofs/rldp/sec3_confidence.py,
ex1_confidence_ball.py) and of the exact rational equalities of the PRAM and f_alpha papers (issue 23): each is
accepted as the claim builds it and rejected once one operand is made wrong."""

import copy
from fractions import Fraction as F

from rldp_verify.certificates import recheck
from rldp_verify.core.stats import chi2_quantile_bracket


def _failed(docs) -> list[str]:
    """The names of the certificates the checker rejects."""
    return [d["name"] for d in docs if not recheck(d).ok]


def _with(doc, **statement):
    bad = copy.deepcopy(doc)
    bad["statement"].update(statement)
    return bad


def test_eq9_coverage_counterexample_and_its_wrong_twins():
    from proofs.rldp.sec3_confidence import _coverage_certificates

    p, n, c = F(1, 100), 10, F(95, 100)
    lo, hi = chi2_quantile_bracket(c, 1, dps=30)
    docs = _coverage_certificates(p, n, c, hi, list(range(1, 11)))
    assert len(docs) == 3 and not _failed(docs)
    # the outcome k = 0 (n chi2 = 0.101 < q) counted as outside F
    assert not recheck(_coverage_certificates(p, n, c, hi, list(range(0, 11)))[1]).ok
    # the quantile's upper end just below the true quantile (3.8414588...)
    assert not recheck(_coverage_certificates(p, n, c, lo * (1 - F(1, 10**20)), list(range(1, 11)))[0]).ok
    # one outcome too few outside F: P(k >= 2) = 0.0043 < 1/20
    assert not recheck(_coverage_certificates(p, n, c, hi, list(range(2, 11)))[2]).ok


def test_example1_radius_and_literal_argument_wrong_twins():
    from proofs.rldp.ex1_confidence_ball import _radius_certificates

    lo, hi = chi2_quantile_bracket(F(95, 100), 3, dps=40)
    docs = _radius_certificates("B", F(95, 100), lo, hi, "0.0752", True)
    assert len(docs) == 4 and not _failed(docs)
    # another printed value (0.0753 agrees with no B in the enclosure); the enclosure's upper end moved below q
    assert _failed(_radius_certificates("B", F(95, 100), lo, hi, "0.0753", True))
    assert not recheck(_radius_certificates("B", F(95, 100), lo, lo - F(1, 10**30), "0.0752", True)[1]).ok
    # the literal 0.05: B = 0.0035 < 0.0752, certified as below; claimed to agree, it is rejected
    lo5, hi5 = chi2_quantile_bracket(F(5, 100), 3, dps=40)
    below = _radius_certificates("B", F(5, 100), lo5, hi5, "0.0752", False)
    assert len(below) == 3 and not _failed(below) and "<" in below[2]["name"]
    assert _failed(_radius_certificates("B", F(5, 100), lo5, hi5, "0.0752", True))
    # the 0.05 bracket stated for the quantile at 0.95
    assert _failed(_radius_certificates("B", F(95, 100), lo5, hi5, "0.0752", False)[:2])


def test_confidence_radius_ball_certificates_and_wrong_twins():
    import dataclasses

    import mpmath

    from proofs.rldp.sec3_confidence import _ball_certificates
    from rldp_verify.rldp.uncertainty import RenyiBall

    phat = [[F(1, 6), F(2, 6)], [F(1, 6), F(2, 6)]]
    flat = [x for r in phat for x in r]
    ball = RenyiBall.from_confidence(phat, 2, F(95, 100), 100, dps=40)
    lo, hi = chi2_quantile_bracket(F(95, 100), 3, dps=40)
    inside = [F(20, 100), F(30, 100), F(15, 100), F(35, 100)]     # n chi2 = 2.93 < q = 7.81
    outside = [F(40, 100), F(20, 100), F(10, 100), F(30, 100)]    # n chi2 = 26.4 > q
    args = (4, 100, F(95, 100), lo, hi, ball, flat, inside, outside, 35)
    docs = _ball_certificates(*args)
    assert len(docs) == 8 and not _failed(docs)
    # the inside and outside points swapped
    bad = _ball_certificates(4, 100, F(95, 100), lo, hi, ball, flat, outside, inside, 35)
    assert _failed(bad) == [d["name"] for d in docs[4:]]
    # a certified radius rounded down below log(1 + q_hi/n), and a radius value 1e-30 off
    low = dataclasses.replace(ball, radius=ball.radius - F(1, 10**30))
    assert _failed(_ball_certificates(4, 100, F(95, 100), lo, hi, low, flat, inside, outside, 35)) == [docs[3]["name"]]
    off = dataclasses.replace(ball, radius_value=ball.radius_value + mpmath.mpf(10) ** -30)
    assert _failed(_ball_certificates(4, 100, F(95, 100), lo, hi, off, flat, inside, outside, 35)) == [docs[2]["name"]]
