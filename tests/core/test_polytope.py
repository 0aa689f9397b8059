"""rldp_verify.core.polytope: the lrs backend agrees exactly with cddlib's GMP double description."""

from fractions import Fraction

from hypothesis import given, settings
from hypothesis import strategies as st

from rldp_verify.core.polytope import vertices, vertices_lrs

F = Fraction


@st.composite
def polytopes(draw):
    n = draw(st.integers(1, 4))
    A, b = [], []
    for j in range(n):                   # a box keeps it bounded
        for sgn in (1, -1):
            r = [F(0)] * n
            r[j] = F(sgn)
            A.append(r)
            b.append(F(draw(st.integers(1, 3))))
    for _ in range(draw(st.integers(0, 5))):
        A.append([F(draw(st.integers(-3, 3)), draw(st.integers(1, 3))) for _ in range(n)])
        b.append(F(draw(st.integers(-1, 3)), draw(st.integers(1, 2))))
    E, f = [], []
    if n >= 2 and draw(st.booleans()):
        E.append([F(1)] * n)
        f.append(F(draw(st.integers(-1, 1))))
    return A, b, E, f


@settings(max_examples=40, deadline=None)
@given(polytopes())
def test_lrs_equals_cdd(p):
    A, b, E, f = p
    v1, r1 = vertices(A, b, E, f)
    v2, r2 = vertices_lrs(A, b, E, f)
    assert set(v1) == set(v2) and not r1 and not r2


def test_lrs_simplex():
    A = [[F(-1), F(0)], [F(0), F(-1)]]
    v, r = vertices_lrs(A, [F(0), F(0)], [[F(1), F(1)]], [F(1, 3)])
    assert set(v) == {(F(1, 3), F(0)), (F(0), F(1, 3))} and not r


def test_irredundant_rows():
    from rldp_verify.core.polytope import irredundant_rows

    # x1 <= 1 (twice: one representative kept), x2 <= 1; x1 + x2 <= 3 and 2 x1 + 2 x2 <= 6 are implied
    assert irredundant_rows([[1, 0], [0, 1], [1, 1], [2, 2], [1, 0]], [1, 1, 3, 6, 1]) == [1, 4]
    # with x1 = x2, the row x1 + x2 <= 1 implies x1 <= 1/2 and x2 <= 1/2
    assert irredundant_rows([[1, 0], [0, 1], [1, 1]], [1, 1, 1], [[1, -1]], [0]) == [2]
    assert irredundant_rows([[1, 0], [0, 1]], [1, 1]) == [0, 1]
