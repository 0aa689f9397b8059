"""Hypothesis strategies shared by the tests (STYLE.md item 8: strategies live in one place).

Every counterexample a property test ever found is kept as an ``@example`` at the test.
"""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st


@st.composite
def rational_distribution(draw, size: int | None = None, min_size=2, max_size=6, allow_zero=False, denom=97):
    """A probability vector of Fractions with a common small denominator (all > 0 unless allow_zero)."""
    n = size if size is not None else draw(st.integers(min_size, max_size))
    lo = 0 if allow_zero else 1
    w = draw(st.lists(st.integers(lo, denom), min_size=n, max_size=n).filter(lambda v: sum(v) > 0))
    t = sum(w)
    return [Fraction(x, t) for x in w]


@st.composite
def joint_table(draw, max_s=3, max_u=4, allow_zero=False):
    """A |S| x |U| joint distribution (list of rows of Fractions), every row with positive mass."""
    a1 = draw(st.integers(2, max_s))
    a2 = draw(st.integers(2, max_u))
    lo = 0 if allow_zero else 1
    while True:
        w = [[draw(st.integers(lo, 50)) for _ in range(a2)] for _ in range(a1)]
        if all(sum(r) > 0 for r in w):
            break
    t = sum(map(sum, w))
    return [[Fraction(x, t) for x in r] for r in w]


alphas = st.sampled_from([Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(3), Fraction(5)])
radii = st.sampled_from([Fraction(1, 1000), Fraction(1, 100), Fraction(1, 20), Fraction(1, 5), Fraction(1)])
