"""Hypothesis strategies for the polytope / gamma / LP tests (exact rationals only)."""

from fractions import Fraction

from hypothesis import strategies as st


@st.composite
def lower_tables(draw, max_a1=3, max_a2=3, max_a=6, allow_full=False):
    """An |S| x |U| table of L_{u|s} >= 0 with row sums < 1 (or <= 1 with ``allow_full``)."""
    a1 = draw(st.integers(1, max_a1))
    a2 = draw(st.integers(1, max(1, min(max_a2, max_a // a1))))
    rows = []
    for _ in range(a1):
        w = [Fraction(draw(st.integers(0, 9)), 10) for _ in range(a2)]
        tot = sum(w)
        if tot >= 1 and not (allow_full and tot == 1):
            w = [x * Fraction(draw(st.integers(1, 9)), 10) / tot for x in w]
        rows.append(w)
    return rows


exp_eps_values = st.sampled_from([Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(7, 2), Fraction(10)])
