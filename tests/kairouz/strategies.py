"""Hypothesis strategies for the Kairouz et al. (004) engine tests."""

from fractions import Fraction

from hypothesis import strategies as st

from tests.strategies import rational_distribution

t_values = st.sampled_from([Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(7, 2), Fraction(10), Fraction(1000)])


@st.composite
def distribution_pair(draw, min_size=2, max_size=4):
    k = draw(st.integers(min_size, max_size))
    P0 = draw(rational_distribution(size=k, denom=30))
    P1 = draw(rational_distribution(size=k, denom=30).filter(lambda p: p != P0))
    return tuple(P0), tuple(P1)
