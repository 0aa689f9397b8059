"""rigorous-value certificates over an interval variable ("forall" with a cover by boxes): each wrong certificate
next to an accepted twin -- a gap between boxes, a box where the inequality fails, a cover starting at a point
other than the claimed end, points (midpoints) instead of boxes; and the engine's tail proofs of Kairouz et al.
(rldp_verify.topics.extremal.tail.rr_tail_boxes) written as such certificates."""

from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.interval import (
    h_expr,
    interval_certificate,
    kl_m_expr,
    mi_m_expr,
    rr_tail_certificates,
)
from rldp_verify.topics.extremal.tail import kl_tail, mi_tail, rr_tail_boxes

# 1/100 - (s - 1/2)^2: > 0 exactly on (2/5, 3/5); at a box's midpoint 1/2 it is 1/100 > 0 whatever the box
BUMP = ["-", F(1, 100), ["pow", ["-", "$s", F(1, 2)], 2]]
GOOD = [(F(9, 20), F(1, 2)), (F(1, 2), F(11, 20))]


def _bump(a, b, boxes):
    return recheck(interval_certificate("bump", BUMP, "s", a, b, boxes, lower=0, strict=True))


def test_cover_accepted():
    r = _bump(F(9, 20), F(11, 20), GOOD)
    assert r.ok and "for every s in [9/20, 11/20] (2 boxes" in r.message


def test_gap_between_boxes_rejected():
    r = _bump(F(9, 20), F(11, 20), [(F(9, 20), F(49, 100)), (F(1, 2), F(11, 20))])
    assert not r.ok and "not followed by a box starting at 49/100" in r.message


def test_box_where_the_inequality_fails_rejected():
    ok = _bump(F(9, 20), F(11, 20), GOOD)
    bad = _bump(F(9, 20), F(3, 5), GOOD[:1] + [(F(1, 2), F(3, 5))])   # at s = 3/5 the bump is 0, not > 0
    assert ok.ok and not bad.ok and "on the box [1/2, 3/5]" in bad.message


def test_cover_starting_above_the_claimed_end_rejected():
    """Statement: every s in [2/5 + 1/1000, 11/20]; boxes covering only [9/20, 11/20]."""
    r = _bump(F(2, 5) + F(1, 1000), F(11, 20), GOOD)
    assert not r.ok and "the boxes cover [9/20, 11/20], not [401/1000, 11/20]" in r.message
    r = _bump(F(9, 20), F(3, 5), GOOD)                                   # stops short of the claimed end
    assert not r.ok and "not [9/20, 3/5]" in r.message


def test_points_instead_of_boxes_rejected():
    """A box evaluated only at its midpoint: the point 1/2 passes (1/100 > 0), the whole box [0, 1] does not, and
    points [m, m] do not cover the interval."""
    assert _bump(F(1, 2), F(1, 2), [(F(1, 2), F(1, 2))]).ok          # the degenerate interval: the point itself
    r = _bump(0, 1, [(0, 1)])
    assert not r.ok and "on the box [0, 1]" in r.message
    r = _bump(0, 1, [(F(1, 4), F(1, 4)), (F(3, 4), F(3, 4))])
    assert not r.ok and "not [0, 1]" in r.message


def test_xlogx_enclosure_over_boxes_from_zero():
    """x log x >= -1/e = -0.3678... on [0, 1] (the box [0, 1/64] through xlogx's enclosure at 0): -2/5 is proved on
    a cover by 64 boxes and on the single box [0, 1] (xlogx encloses it by [-1/e, 0]); -7/20 fails on both."""
    boxes = [(F(i, 64), F(i + 1, 64)) for i in range(64)]
    ok = recheck(interval_certificate("xlogx", ["xlogx", "$s"], "s", 0, 1, boxes, lower=F(-2, 5)))
    bad = recheck(interval_certificate("xlogx", ["xlogx", "$s"], "s", 0, 1, boxes, lower=F(-7, 20)))
    assert ok.ok and not bad.ok and "on the box [" in bad.message
    assert recheck(interval_certificate("one", ["xlogx", "$s"], "s", 0, 1, [(0, 1)], lower=F(-2, 5))).ok
    assert not recheck(interval_certificate("one", ["xlogx", "$s"], "s", 0, 1, [(0, 1)], lower=F(-7, 20))).ok


def test_malformed_forall_rejected():
    assert not recheck(interval_certificate("empty", BUMP, "s", F(9, 20), F(11, 20), [], lower=0)).ok
    assert not recheck(interval_certificate("reversed", BUMP, "s", F(11, 20), F(9, 20),
                                            [(F(11, 20), F(9, 20))], lower=0)).ok


P0, P1 = (F(1, 2), F(3, 10), F(1, 5)), (F(1, 5), F(3, 10), F(1, 2))


@pytest.mark.parametrize("tail, m_expr", [(kl_tail(P0, P1), kl_m_expr(P0, P1)), (mi_tail(P0), mi_m_expr(P0))])
def test_engine_tail_boxes_give_accepted_certificates(tail, m_expr):
    boxes = rr_tail_boxes(3, tail, F(1, 6))
    assert boxes is not None and set(boxes) == {(0, 1), (0, 2), (1, 2), (0, 1, 2)}
    docs = rr_tail_certificates("t", 3, m_expr, F(1, 6), boxes)
    assert len(docs) == 4 and all(recheck(d).ok for d in docs)
    # the builder dropping the last box of the finest cover: the cover stops short of s_hi
    T = max(boxes, key=lambda T: len(boxes[T]))
    assert len(boxes[T]) > 1
    short = rr_tail_certificates("t", 3, m_expr, F(1, 6), {T: boxes[T][:-1]})[0]
    r = recheck(short)
    assert not r.ok and "not [0, 1/6]" in r.message


def test_tail_claimed_beyond_what_holds_rejected():
    """The KL tail is not provable on [0, 1/2] (rr_tail_boxes gives None there): the certificate of the boxes
    on [0, 1/6] with the last box stretched to 1/2 is rejected on that box."""
    assert rr_tail_boxes(3, kl_tail(P0, P1), F(1, 2)) is None
    boxes = rr_tail_boxes(3, kl_tail(P0, P1), F(1, 6))
    bad = {T: b[:-1] + [(b[-1][0], F(1, 2))] for T, b in boxes.items()}
    rs = [recheck(d) for d in rr_tail_certificates("t", 3, kl_m_expr(P0, P1), F(1, 2), bad)]
    assert not all(r.ok for r in rs) and any("not certainly in [0, inf] on the box" in r.message for r in rs)


def test_ratio_tie_tail_rejected():
    """P0(x)/P1(x) tied on {x1, x2}: h_{x1,x2}(s) < 0 near s = 0 (kairouz.thm8.rr-optimal-kl), so 'h > 0 on [0, 10^-6]'
    is rejected whatever the cover; the engine finds no proof either."""
    Q0, Q1 = (F(3, 10), F(3, 10), F(2, 5)), (F(1, 5), F(1, 5), F(3, 5))
    assert rr_tail_boxes(3, kl_tail(Q0, Q1), F(1, 10**6)) is None
    boxes = [(F(i, 10**7), F(i + 1, 10**7)) for i in range(10)]
    r = recheck(interval_certificate("tie", h_expr(3, kl_m_expr(Q0, Q1), (0, 1)), "s", 0, F(1, 10**6), boxes,
                                     lower=0, strict=True))
    assert not r.ok and "on the box [0, 1/10000000]" in r.message


def test_engine_tail_at_box_midpoints_is_caught(monkeypatch):
    """The semantic mutant certificate.rr-tail-at-box-midpoints (mutation/catalogue.py): the engine's boxes of s
    evaluated at their midpoints 'prove' h_T > 0 on coarser boxes; the checker evaluates each whole box and rejects."""
    import flint

    import rldp_verify.topics.extremal.tail as tail

    def at_midpoint(lo, hi):
        m = (F(lo) + F(hi)) / 2
        return flint.arb(flint.fmpq(m.numerator, m.denominator))

    good = rr_tail_boxes(3, kl_tail(P0, P1), F(1, 6))
    assert all(recheck(d).ok for d in rr_tail_certificates("t", 3, kl_m_expr(P0, P1), F(1, 6), good))
    monkeypatch.setattr(tail, "_interval", at_midpoint)
    coarse = rr_tail_boxes(3, kl_tail(P0, P1), F(1, 6))
    assert coarse is not None and sum(map(len, coarse.values())) < sum(map(len, good.values()))
    rs = [recheck(d) for d in rr_tail_certificates("t", 3, kl_m_expr(P0, P1), F(1, 6), coarse)]
    assert any(not r.ok and "on the box" in r.message for r in rs)


def _table3(alpha="2"):
    from proofs.pram.sec4_1_tables import prove_type4_never_wins
    from rldp_verify.core.rigorous import arb_precision

    boxes: list = []
    with arb_precision(50):
        assert prove_type4_never_wins(30, F(alpha), boxes=boxes)["proved"]
    return boxes


def test_pram_table3_certificates_and_wrong_twins(monkeypatch):
    """pram.table3.counts: g < 0 inside, g' < 0 / > 0 on the end intervals, accepted; the interior cover stretched
    to 0 (where g(0) = 0, so g < 0 fails there) and g' with its sign flipped are rejected."""
    import proofs.pram.sec4_1_tables as t3

    boxes = _table3()
    docs = t3._table3_certificates(30, {"2": boxes})
    assert len(docs) == 3 and all(recheck(d).ok for d in docs)
    bs = sorted(boxes)
    g = docs[1]["statement"]["expr"]
    r = recheck(interval_certificate("to 0", g, "s", 0, bs[-1][0], bs[:-1], upper=0, strict=True))
    assert not r.ok and f"on the box [0, {bs[0][1]}]" in r.message
    real = t3.type4_gap_bound_derivative
    monkeypatch.setattr(t3, "type4_gap_bound_derivative", lambda s, S, t: -real(s, S, t))
    flipped = t3._table3_certificates(30, {"2": boxes})
    assert [recheck(d).ok for d in flipped] == [False, True, False]
