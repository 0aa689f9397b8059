"""Hypothesis strategies for the foundation tests (RLDP paper Secs. 3-4)."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

ALPHAS = [Fraction(1, 4), Fraction(1, 2), Fraction(9, 10), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3),
          Fraction(7, 2), Fraction(10)]
alphas = st.sampled_from(ALPHAS)
radii = st.sampled_from([Fraction(0), Fraction(1, 1000), Fraction(1, 50), Fraction(1, 5), Fraction(1), Fraction(3)])


@st.composite
def tables(draw, max_s=3, max_u=4, allow_zero=True):
    """A |S| x |U| rational table; every row has positive mass."""
    a1 = draw(st.integers(1, max_s))
    a2 = draw(st.integers(2, max_u))
    lo = 0 if allow_zero else 1
    rows = draw(st.lists(st.lists(st.integers(lo, 40), min_size=a2, max_size=a2).filter(lambda r: sum(r) > 0),
                         min_size=a1, max_size=a1))
    t = sum(map(sum, rows))
    return [[Fraction(x, t) for x in r] for r in rows]


@st.composite
def distributions(draw, n=None, allow_zero=True):
    n = n if n is not None else draw(st.integers(2, 5))
    lo = 0 if allow_zero else 1
    w = draw(st.lists(st.integers(lo, 50), min_size=n, max_size=n).filter(lambda v: sum(v) > 0))
    return [Fraction(x, sum(w)) for x in w]


rhos = st.fractions(min_value=0, max_value=1, max_denominator=1000)
