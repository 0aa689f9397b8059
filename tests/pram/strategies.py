"""Hypothesis strategies for the PRAM tests (shared ones are in tests/strategies.py)."""

from fractions import Fraction

from hypothesis import strategies as st

e_alphas = st.sampled_from([Fraction(1), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(7, 2), Fraction(9)])


@st.composite
def q_vectors(draw, S, interior=False, denom=60):
    lo, hi = (1, denom - 1) if interior else (0, denom)
    return [Fraction(draw(st.integers(lo, hi)), denom) for _ in range(S)]
