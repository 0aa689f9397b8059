"""Hypothesis strategies for the f_alpha engine tests."""

from __future__ import annotations

from fractions import Fraction

from hypothesis import strategies as st

from tests.strategies import rational_distribution

int_alphas = st.sampled_from([2, 3, 4, 5, 8])
real_alphas = st.sampled_from([Fraction(101, 100), Fraction(3, 2), Fraction(19, 10), Fraction(5, 2), Fraction(37, 10),
                               Fraction(103, 10)])
tvs = st.fractions(min_value=Fraction(1, 10**6), max_value=Fraction(999, 1000), max_denominator=10**6)


@st.composite
def distribution_pair(draw, allow_zero=False):
    n = draw(st.integers(2, 5))
    return (draw(rational_distribution(size=n, allow_zero=allow_zero)),
            draw(rational_distribution(size=n, allow_zero=False)))


@st.composite
def channel(draw, nx=None, ny=None, allow_zero=True):
    nx = nx or draw(st.integers(2, 4))
    ny = ny or draw(st.integers(2, 4))
    return [draw(rational_distribution(size=ny, allow_zero=allow_zero, denom=20)) for _ in range(nx)]
