"""Hypothesis strategies for the mechanism tests (sizes with |X| <= 6, exact P-hat, alpha, B, eps)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

SIZES = [(1, 2), (2, 1), (2, 2), (2, 3), (3, 2)]
ALPHAS = ["1/2", "1", "2", "3"]
RADII = ["0", "1/100", "1/20", "1/5", "1", "inf"]
EPS = ["0", "log(5/4)", "log(2)", "log(3)", "1/3", "1", "log(7/3)"]


@st.composite
def phat_tables(draw, sizes=SIZES, allow_zero=True):
    a1, a2 = draw(st.sampled_from(sizes))
    lo = 0 if allow_zero else 1
    w = draw(st.lists(st.integers(lo, 12), min_size=a1 * a2, max_size=a1 * a2).filter(lambda v: sum(v) > 0))
    t = sum(w)
    return tuple(tuple(Fraction(w[s * a2 + u], t) for u in range(a2)) for s in range(a1))


@st.composite
def instances(draw, sizes=SIZES, eps=EPS):
    """(phat table, alpha, radius, eps)."""
    return draw(phat_tables(sizes)), draw(st.sampled_from(ALPHAS)), draw(st.sampled_from(RADII)), draw(st.sampled_from(eps))
