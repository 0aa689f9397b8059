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
    # a certified radius rounded down 1e-30 below log(1 + q/n), and a radius value 1e-30 off
    low = dataclasses.replace(ball, radius=ball.radius - F(1, 10**30))
    assert _failed(_ball_certificates(4, 100, F(95, 100), lo, hi, low, flat, inside, outside, 35)) == [docs[3]["name"]]
    off = dataclasses.replace(ball, radius_value=ball.radius_value + mpmath.mpf(10) ** -30)
    assert _failed(_ball_certificates(4, 100, F(95, 100), lo, hi, off, flat, inside, outside, 35)) == [docs[2]["name"]]


def _swap(doc, old, new):
    """The document with the JSON text ``old`` replaced by ``new`` (once at least)."""
    import json

    text = json.dumps(doc, separators=(",", ":"))
    assert old in text, old
    return json.loads(text.replace(old, new))


def test_pram_product_reduction_and_a_single_record_ratio_missing_its_maximiser():
    from proofs.pram.sec2_background import product_certificate

    q = [F(1, 5), F(7, 10), F(1, 2)]
    doc = product_certificate(q, 3)
    assert recheck(doc).ok and doc["statement"]["exact"]
    # the single-record ratio max_{z, x != x'} M[x][z]/M[x'][z] with one of its 18 ratios dropped: without the
    # largest (M[2][2]/M[1][2] = 1/2 / 3/20 = 10/3) it is rejected, without another (M[1][1]/M[0][1]) accepted
    assert not recheck(_swap(doc, ',["/","$M22","$M12"]]', "]")).ok
    assert recheck(_swap(doc, '["/","$M11","$M01"],', "")).ok
    # a "neighbour" changing both records (X = (2, 2), X' = (1, 1)) has a larger ratio (100/9)
    assert not recheck(_swap(doc, '["/",["*","$M22","$M22"],["*","$M12","$M22"]]',
                             '["/",["*","$M22","$M22"],["*","$M12","$M12"]]')).ok


P4, Q4 = [F(1, 2), F(1, 4), F(1, 4), F(0)], [F(1, 8), F(1, 8), F(1, 4), F(1, 2)]   # ratios 4, 2, 1, 0; TV = 1/2


def test_egamma_certificates_and_wrong_forms():
    from proofs.falpha.def2_egamma import egamma_certificates

    docs = egamma_certificates(0, P4, Q4, [F(0), F(1), F(3), F(1, 2), F(2), F(4)])
    assert len(docs) == 2 and all(recheck(d).ok for d in docs)
    # the positive-part form with (gamma Q - P)^+ for one term (x = 0 at gamma = 1/2: r = 1/2 - 1/16 != 0)
    assert not recheck(_swap(docs[0], '["max","$r3_0",0]', '["max",["-","$r3_0"],0]')).ok
    # eq. (5) without the 1/2 |1 - gamma| (at gamma = 3: E = 1/2 sum |P - 3Q| - 1 = 0, without it 1)
    assert not recheck(_swap(docs[0], '["/",["max",["-",1,"$g2"],["-",["-",1,"$g2"]]],2]', "0")).ok
    # TV over the events of one element only (max 3/8 < 1/2)
    import json

    short = json.loads(json.dumps(docs[1]))
    body = short["statement"]["expr"][2]
    body[2] = ["max", 0, *[e for e in body[2][2:] if len(e) == 3]]
    assert not recheck(short).ok


def test_integral_certificates_and_wrong_antiderivative_or_order():
    from proofs.falpha.def2_egamma import integral_certificates

    p, q = [F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)]   # ratios 2, 4/3, 1/3
    docs = integral_certificates(0, 3, p, q)
    assert len(docs) == 2 and all(recheck(d).ok for d in docs)
    # f' = alpha gamma^alpha (exponent alpha for alpha - 1) on one piece
    assert not recheck(_swap(docs[1], '["pow","$b4",2]', '["pow","$b4",3]')).ok
    # two breakpoints out of order
    assert not recheck(_swap(docs[0], '["b1",["/","1/6","1/2"]],["b2",1]', '["b1",1],["b2",["/","1/6","1/2"]]')).ok
    # E_gamma at a breakpoint from the wrong pair (P and Q swapped in eq. (5))
    assert not recheck(_swap(docs[1], '["E2",["-",["/",["+",["max",["-","$p0",["*","$b2","$q0"]]',
                             '["E2",["-",["/",["+",["max",["-","$q0",["*","$b2","$p0"]]')).ok


def test_chord_certificates_and_a_wrong_chord():
    from proofs.falpha.thm6_reverse_pinsker import chord_certificates

    p, q = [F(1, 2), F(1, 3), F(1, 6)], [F(1, 4), F(1, 4), F(1, 2)]
    gammas = [F(0), F(1, 3), F(1), F(4, 3), F(2)]
    (doc,) = chord_certificates(0, p, q, gammas)
    assert recheck(doc).ok
    # Delta halved (the chord through (1, TV/2)): E_1 = TV exceeds it
    half = _swap(doc, '"$D"', '["/","$D",2]')
    assert not recheck(half).ok
    # Gamma_min taken as the second-smallest ratio (4/3 > 1 is no Gamma_min: take min over x = 0, 1: 4/3): rejected
    narrow = _swap(doc, '["m",["min",["/","$p0","$q0"],["/","$p1","$q1"],["/","$p2","$q2"]]]',
                   '["m",["min",["/","$p0","$q0"],["/","$p1","$q1"]]]')
    assert not recheck(narrow).ok


def test_radius_rounded_down_is_caught_by_the_checker_not_the_claim():
    """The catalogue mutant certificate.confidence-radius-rounded-to-nearest: the claim stays VERIFIED, the checker
    rejects its certificate (and accepts it on the unmutated engine: test_confidence_radius_ball_certificates...)."""
    from rldp_verify.claims.mutants import run_subprocess

    run = run_subprocess("mutation.catalogue", "certificate.confidence-radius-rounded-to-nearest",
                         ["rldp.audit.confidence-radius"], timeout=300)
    got = run["results"]["rldp.audit.confidence-radius"]
    assert got["verdict"] == "VERIFIED", got
    assert got["certificate"].startswith("FAILED") and "certified radius R >= log(1 + q/n)" in got["certificate"]


def test_chord_certificate_of_equal_distributions():
    from proofs.falpha.thm6_reverse_pinsker import chord_certificates

    p = [F(1, 2), F(1, 3), F(1, 6)]
    (doc,) = chord_certificates(0, p, p, [F(0), F(1), F(2)])      # E_gamma = 0 everywhere; no chord (m = M = 1)
    assert recheck(doc).ok
    # P != Q (ratios 3/2, 1, 1/2): E = 0 at gamma = Gamma_min = 1/2, E_1 = TV = the chord at 1
    (doc,) = chord_certificates(0, p, [F(1, 3), F(1, 3), F(1, 3)], [F(0), F(1, 2), F(1)])
    assert recheck(doc).ok
