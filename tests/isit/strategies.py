"""Hypothesis strategies for the ISIT (003) tests."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from tests.strategies import rational_distribution

radii_isit = st.sampled_from([Fraction(1, 100), Fraction(1, 10), Fraction(3, 10), Fraction(1)])


@st.composite
def ball_instance(draw, max_cells=6):
    """(v, P_hat, B): a payoff vector, an estimate (zeros allowed) and a radius for Theorem 2."""
    p = draw(rational_distribution(min_size=2, max_size=max_cells, allow_zero=True, denom=40))
    v = draw(st.lists(st.integers(-20, 20), min_size=len(p), max_size=len(p)))
    return [Fraction(x, 10) for x in v], p, draw(radii_isit)


@st.composite
def joint_instance(draw, max_u=4):
    """(v1, v2, table, B) for Theorem 4 with s1 = 0, s2 = 1; rows of the table have positive mass."""
    n_s = draw(st.integers(2, 3))
    n_u = draw(st.integers(2, max_u))
    w = draw(st.lists(st.lists(st.integers(0, 30), min_size=n_u, max_size=n_u), min_size=n_s, max_size=n_s))
    w = [[x + (1 if u == 0 else 0) for u, x in enumerate(r)] for r in w]  # every row keeps positive mass
    t = sum(map(sum, w))
    table = [[Fraction(x, t) for x in r] for r in w]
    v1 = [Fraction(draw(st.integers(-10, 10)), 10) for _ in range(n_u)]
    v2 = [Fraction(draw(st.integers(-10, 10)), 10) for _ in range(n_u)]
    return v1, v2, table, draw(radii_isit)
