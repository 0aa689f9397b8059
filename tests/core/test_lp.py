"""rldp_verify.core.lp: solve_certified agrees exactly with solve_exact and returns a valid certificate."""

from fractions import Fraction

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from rldp_verify.core.errors import InputError
from rldp_verify.core.lp import _recheck_bounded, solve_certified, solve_exact

F = Fraction
small = st.fractions(min_value=-5, max_value=5, max_denominator=4)


@st.composite
def lps(draw):
    n = draw(st.integers(1, 5))
    m = draw(st.integers(0, 5))
    k = draw(st.integers(0, 2))
    A = [[draw(small) for _ in range(n)] for _ in range(m)]
    b = [draw(small) for _ in range(m)]
    E = [[draw(small) for _ in range(n)] for _ in range(k)]
    f = [draw(small) for _ in range(k)]
    c = [draw(small) for _ in range(n)]
    if draw(st.booleans()):    # box rows keep most instances bounded
        for j in range(n):
            r = [F(0)] * n
            r[j] = F(1)
            A.append(r)
            b.append(F(draw(st.integers(0, 4))))
            r = [F(0)] * n
            r[j] = F(-1)
            A.append(r)
            b.append(F(draw(st.integers(0, 4))))
    return c, A, b, E, f


def _certificate_ok(res, c, A, b, E, f):
    n = len(c)
    d = res.reduced_costs if res.reduced_costs is not None else [F(0)] * n
    _recheck_bounded(c, A, b, E, f, [None] * n, [None] * n, res.x, list(res.dual), list(d), res.value)
    return True


@settings(max_examples=120, deadline=None)
@given(lps())
@example(([F(1), F(1)], [[F(1), F(1)]], [F(1)], [], []))            # dual degenerate optimum
@example(([F(1)], [[F(1)], [F(-1)]], [F(1), F(-2)], [], []))        # infeasible
@example(([F(1)], [[F(-1)]], [F(0)], [], []))                       # unbounded
def test_certified_equals_exact(lp):
    c, A, b, E, f = lp
    r1 = solve_exact(c, A, b, E, f)
    r2 = solve_certified(c, A, b, E, f)
    assert r1.status == r2.status
    assert r1.value == r2.value
    if r2.status == "optimal":
        assert _certificate_ok(r2, c, A, b, E, f)


def test_bounds_keyword_and_reduced_costs():
    # max x0 + 2 x1, x0 + x1 = 1, 0 <= x <= 3/4
    c = [F(1), F(2)]
    r = solve_certified(c, [], [], [[F(1), F(1)]], [F(1)], lower=[F(0), F(0)], upper=[F(3, 4), F(3, 4)])
    assert r.status == "optimal" and r.value == F(1, 4) + F(3, 2) and r.x == (F(1, 4), F(3, 4))
    assert r.reduced_costs is not None and r.reduced_costs[1] > 0
    _recheck_bounded(c, [], [], [[F(1), F(1)]], [F(1)], [F(0), F(0)], [F(3, 4), F(3, 4)], r.x,
                     list(r.dual), list(r.reduced_costs), r.value)


def test_polyopt_shaped_lp_matches_exact_and_repairs_tolerance_basis():
    # LP (46) shape with objective values that differ by ~1e-18 (HiGHS's tolerance would stop early;
    # the exact simplex repair must find the true optimum).
    from rldp_verify.rldp.gamma import gamma_hat_vertices
    L = [[F(1, 10), F(1, 5)], [F(1, 20), F(3, 10)]]
    V = gamma_hat_vertices(L, F(3, 2))
    n, a = len(V), 4
    c = [F(1, 7) + F(j % 3, 10 ** 18) for j in range(n)]
    E = [[v[x] for v in V] for x in range(a)]
    r1 = solve_certified(c, [], [], E, [F(1)] * a, lower=[F(0)] * n)
    A = [[F(-1) if i == j else F(0) for j in range(n)] for i in range(n)]
    r2 = solve_exact(c, A, [F(0)] * n, E, [F(1)] * a)
    assert r1.value == r2.value and r1.method == "highs+exact-basis"


def test_bad_row_length():
    with pytest.raises(InputError, match="row 0 of A"):
        solve_certified([F(1), F(1)], [[F(1)]], [F(1)])


# the exact certificate checks reject each kind of bad certificate (issue 9: generic mutants of core/lp.py) -------

def _F(*v):
    return [Fraction(x) for x in v]


# max x1 + x2  s.t.  x1 <= 1, x2 <= 2, x1 - x2 = -1 (x free): x* = (1, 2), value 3; y_A = (1/2, 3/2), y_E = 1/2
C, A, B, E, FF = _F(1, 1), [_F(1, 0), _F(0, 1)], _F(1, 2), [_F(1, -1)], _F(-1)
Y = [Fraction(1, 2), Fraction(3, 2), Fraction(1, 2)]


@pytest.mark.parametrize("x, y, value, message", [
    (_F(1, 2), Y, 3, None),                                          # valid, both inequalities tight
    (_F(1), Y, 3, "primal solution has the wrong length"),
    (_F(2, 3), Y, 5, "primal solution violates inequality 0"),
    (_F(1, 3), Y, 4, "primal solution violates inequality 1"),
    (_F(1, 1), Y, 2, "primal solution violates equality 0"),
    (_F(1, 2), Y, 4, "objective value does not match the primal solution"),
    (_F(1, 2), _F(-1, 3, 2), 3, "dual multiplier of an inequality is negative"),
    (_F(1, 2), _F(1, 1, 1), 3, "dual solution violates stationarity in coordinate 0"),
    (_F(1, 2), [Fraction(1, 2), Fraction(1), Fraction(1, 2)], 3, "dual solution violates stationarity in coordinate 1"),
    (_F(0, 1), Y, 1, "duality gap is not zero"),                     # feasible, not optimal
])
def test_recheck_rejects_each_defect(x, y, value, message):
    from rldp_verify.core.errors import CertificationError
    from rldp_verify.core.lp import _recheck

    if message is None:
        _recheck(C, A, B, E, FF, x, y, Fraction(value))
        return
    with pytest.raises(CertificationError) as exc:
        _recheck(C, A, B, E, FF, x, y, Fraction(value))
    assert str(exc.value) == message


# max x1 +- x2  s.t.  x1 <= 1, lo <= x2 <= up (x1 free)
@pytest.mark.parametrize("c, lo, up, x, y, d, value, message", [
    (_F(1, 1), [None, 0], [None, 2], _F(1, 2), _F(1), _F(0, 1), 3, None),
    (_F(1, -1), [None, 0], [None, 2], _F(1, 0), _F(1), _F(0, -1), 1, None),
    (_F(1, 1), [None, 0], [None, 2], _F(2, 2), _F(1), _F(0, 1), 4, "primal solution violates inequality 0"),
    (_F(1, 1), [None, 0], [None, 2], _F(1, -1), _F(1), _F(0, 1), 0, "primal solution violates lower bound 1"),
    (_F(1, 1), [None, 0], [None, 2], _F(1, 3), _F(1), _F(0, 1), 4, "primal solution violates upper bound 1"),
    (_F(1, 1), [None, 0], [None, 2], _F(1, 2), _F(-1), _F(2, 1), 3, "dual multiplier of an inequality is negative"),
    (_F(1, 1), [None, 0], [None, 2], _F(1, 2), _F(1), _F(0, 2), 3, "dual solution violates stationarity"),
    (_F(1, 1), [None, 0], [None, None], _F(1, 2), _F(1), _F(0, 1), 3,
     "reduced cost 1 positive without an upper bound"),
    (_F(1, -1), [None, None], [None, 2], _F(1, 0), _F(1), _F(0, -1), 1,
     "reduced cost 1 negative without a lower bound"),
    (_F(1, 1), [None, 0], [None, 2], _F(1, 1), _F(1), _F(0, 1), 2, "duality gap is not zero"),
    (_F(1, 1), [None, 0], [None, 2], _F(1, 2), _F(1), _F(0, 1), 2, "duality gap is not zero"),
])
@pytest.mark.parametrize("flint_product", [False, True])
def test_recheck_bounded_rejects_each_defect(c, lo, up, x, y, d, value, message, flint_product):
    from rldp_verify.core.errors import CertificationError
    from rldp_verify.core.lp import _flint_transpose

    A1 = [_F(1, 0)]
    MT = _flint_transpose(A1, 2) if flint_product else None
    args = (c, A1, _F(1), [], [], lo, up, x, y, d, Fraction(value), MT)
    if message is None:
        _recheck_bounded(*args)
        return
    with pytest.raises(CertificationError) as exc:
        _recheck_bounded(*args)
    assert str(exc.value) == message


def test_recheck_bounded_equality_rows():
    """With an equality row: x1 + x2 = 3, x1 <= 1, 0 <= x2 <= 2 (max x1 + x2): any feasible x is optimal."""
    from rldp_verify.core.errors import CertificationError

    c, A1, b1, E1, f1 = _F(1, 1), [_F(1, 0)], _F(1), [_F(1, 1)], _F(3)
    lo, up = [None, 0], [None, 2]
    _recheck_bounded(c, A1, b1, E1, f1, lo, up, _F(1, 2), _F(0, 1), _F(0, 0), Fraction(3))
    with pytest.raises(CertificationError) as exc:
        _recheck_bounded(c, A1, b1, E1, f1, lo, up, _F(1, 1), _F(0, 1), _F(0, 0), Fraction(2))
    assert str(exc.value) == "primal solution violates equality 0"


def test_flint_transpose_and_product():
    from rldp_verify.core.lp import _flint_transpose, _times

    assert _flint_transpose([], 3) is None
    MT = _flint_transpose([_F(1, 2, 3), [Fraction(1, 2), Fraction(0), Fraction(-1)]], 3)
    assert (MT.nrows(), MT.ncols()) == (3, 2)
    assert _times(MT, _F(2, 4)) == [Fraction(4), Fraction(4), Fraction(2)]


@pytest.mark.parametrize("solver", [solve_exact, solve_certified])
def test_infeasible_and_unbounded_statuses(solver):
    inf = solver([1], [[1], [-1]], [1, -2])                 # x <= 1 and x >= 2
    assert inf.status == "infeasible" and inf.value is None and inf.x is None
    unb = solver([1], [[-1]], [0])                          # max x, x >= 0
    assert unb.status == "unbounded" and unb.value is None and unb.x is None
    opt = solver([1, 1], [[1, 0], [0, 1]], [1, 2], [[1, -1]], [-1])
    assert opt.status == "optimal" and opt.value == 3 and opt.x == (1, 2)


@pytest.mark.parametrize("solver", [solve_exact, solve_certified])
def test_primal_and_dual_both_infeasible_is_infeasible(solver):
    """cdd says 'dual inconsistent' when the primal is empty too (0 x <= -1): that LP is infeasible, not
    unbounded (it was reported unbounded; found by the generic mutation run's review)."""
    for kw in ({}, {"lower": [0, 0]}):
        r = solver([1, 1], [[0, 0]], [-1], **kw) if solver is solve_certified else solver([1, 1], [[0, 0]], [-1])
        assert r.status == "infeasible" and r.value is None and r.x is None
    both = solver([1, 0], [[1, -1], [-1, 1]], [-1, -1])     # x1 - x2 <= -1 and x2 - x1 <= -1: empty
    assert both.status == "infeasible"
    assert solver([1, 1], [[1, -1]], [1]).status == "unbounded"   # feasible and unbounded stays so


def test_fallback_maps_keyword_bound_multipliers():
    """The exact fallback (keyword bounds as rows) gives the certified solver's optimum, duals and reduced costs:
    max x1 + x2 s.t. x1 + 2 x2 <= 4, 0 <= x1 <= 3, x2 >= 0."""
    from rldp_verify.core.lp import _fallback

    F = Fraction
    fb = _fallback([F(1), F(1)], [[F(1), F(2)]], [F(4)], [], [], [F(0), F(0)], [F(3), None])
    cert = solve_certified([1, 1], [[1, 2]], [4], lower=[0, 0], upper=[3, None])
    for r in (fb, cert):
        assert r.status == "optimal" and r.value == F(7, 2) and r.x == (3, F(1, 2))
        assert r.dual == (F(1, 2),) and r.reduced_costs == (F(1, 2), 0)   # x1 at its upper bound 3
    assert fb.method == "cdd-exact"
    # without keyword bounds the fallback is solve_exact (no reduced costs)
    plain = _fallback([F(1)], [[F(1)]], [F(2)], [], [], [None], [None])
    assert plain.status == "optimal" and plain.value == 2 and plain.reduced_costs is None
    # a lower bound's multiplier is negative: max -x1 s.t. x1 <= 5, x1 >= 1
    low = _fallback([F(-1)], [[F(1)]], [F(5)], [], [], [F(1)], [None])
    assert low.value == -1 and low.x == (1,) and low.reduced_costs == (-1,)


@pytest.mark.parametrize("failures", [1, 2])
def test_incremental_lp_retries_a_solve_that_does_not_end_optimal(monkeypatch, failures):
    """HiGHS can stop a warm-started solve with status kUnknown (seen on the 224-row LP (46) of Adult
    occupation x education at eps 2): IncrementalLP.solve repeats it from scratch (then with the primal
    simplex, restoring the option after) instead of giving up."""
    import highspy
    import numpy as np

    from rldp_verify.core.highs import IncrementalLP

    lp = IncrementalLP([1.0, 1.0], [1.0, 1.0])                    # max c.x, x >= 0, x1 + x3 = 1, x2 + x3 = 1
    lp.add_columns([1.0, 1.0, 3.0], [0, 0, 0], [np.inf] * 3, np.array([[1, 0], [0, 1], [1, 1]], float))
    real, strategy = lp.h.getModelStatus, lp.h.getOptionValue("simplex_strategy")   # (status, value) here
    calls = []

    def flaky():                                                   # the first status reads say kUnknown
        calls.append(1)
        return highspy.HighsModelStatus.kUnknown if len(calls) <= failures else real()

    monkeypatch.setattr(lp.h, "getModelStatus", flaky, raising=False)
    sol = lp.solve()
    assert sol.optimal and abs(sol.objective - 3.0) < 1e-12 and lp.retries == 1
    assert len(calls) == failures + 1
    assert lp.h.getOptionValue("simplex_strategy") == strategy
