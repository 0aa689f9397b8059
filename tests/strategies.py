"""Every hypothesis strategy of the tests, in one place (STYLE.md item 8), by the package they serve.

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


# ------------------------------------------------------------------ core, rldp: Rényi balls (core/test_divergence, rldp/test_uncertainty)

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


# ------------------------------------------------------------------ rldp/mechanisms

MECH_SIZES = [(1, 2), (2, 1), (2, 2), (2, 3), (3, 2)]
MECH_ALPHAS = ["1/2", "1", "2", "3"]
MECH_RADII = ["0", "1/100", "1/20", "1/5", "1", "inf"]
MECH_EPS = ["0", "log(5/4)", "log(2)", "log(3)", "1/3", "1", "log(7/3)"]


@st.composite
def phat_tables(draw, sizes=MECH_SIZES, allow_zero=True):
    a1, a2 = draw(st.sampled_from(sizes))
    lo = 0 if allow_zero else 1
    w = draw(st.lists(st.integers(lo, 12), min_size=a1 * a2, max_size=a1 * a2).filter(lambda v: sum(v) > 0))
    t = sum(w)
    return tuple(tuple(Fraction(w[s * a2 + u], t) for u in range(a2)) for s in range(a1))


@st.composite
def instances(draw, sizes=MECH_SIZES, eps=MECH_EPS):
    """(phat table, alpha, radius, eps)."""
    return draw(phat_tables(sizes)), draw(st.sampled_from(MECH_ALPHAS)), draw(st.sampled_from(MECH_RADII)), draw(st.sampled_from(eps))


# ------------------------------------------------------------------ rldp: polytopes, Gamma-hat, LPs (exact rationals only)

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


# ------------------------------------------------------------------ topics/fdiv

int_alphas = st.sampled_from([2, 3, 4, 5, 8])
real_alphas = st.sampled_from([Fraction(101, 100), Fraction(3, 2), Fraction(19, 10), Fraction(5, 2), Fraction(37, 10),
                               Fraction(103, 10)])
tvs = st.fractions(min_value=Fraction(1, 10**6), max_value=Fraction(999, 1000), max_denominator=10**6)


@st.composite
def fdiv_distribution_pair(draw, allow_zero=False):
    n = draw(st.integers(2, 5))
    return (draw(rational_distribution(size=n, allow_zero=allow_zero)),
            draw(rational_distribution(size=n, allow_zero=False)))


@st.composite
def channel(draw, nx=None, ny=None, allow_zero=True):
    nx = nx or draw(st.integers(2, 4))
    ny = ny or draw(st.integers(2, 4))
    return [draw(rational_distribution(size=ny, allow_zero=allow_zero, denom=20)) for _ in range(nx)]


# ------------------------------------------------------------------ topics/chisquare

chisquare_radii = st.sampled_from([Fraction(1, 100), Fraction(1, 10), Fraction(3, 10), Fraction(1)])


@st.composite
def ball_instance(draw, max_cells=6):
    """(v, P_hat, B): a payoff vector, an estimate (zeros allowed) and a radius for Theorem 2."""
    p = draw(rational_distribution(min_size=2, max_size=max_cells, allow_zero=True, denom=40))
    v = draw(st.lists(st.integers(-20, 20), min_size=len(p), max_size=len(p)))
    return [Fraction(x, 10) for x in v], p, draw(chisquare_radii)


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
    return v1, v2, table, draw(chisquare_radii)


# ------------------------------------------------------------------ topics/extremal

t_values = st.sampled_from([Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(7, 2), Fraction(10), Fraction(1000)])


@st.composite
def extremal_distribution_pair(draw, min_size=2, max_size=4):
    k = draw(st.integers(min_size, max_size))
    P0 = draw(rational_distribution(size=k, denom=30))
    P1 = draw(rational_distribution(size=k, denom=30).filter(lambda p: p != P0))
    return tuple(P0), tuple(P1)


# ------------------------------------------------------------------ topics/pram

e_alphas = st.sampled_from([Fraction(1), Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(7, 2), Fraction(9)])


@st.composite
def q_vectors(draw, S, interior=False, denom=60):
    lo, hi = (1, denom - 1) if interior else (0, denom)
    return [Fraction(draw(st.integers(lo, hi)), denom) for _ in range(S)]
