"""rldp_verify.core.lp on small LPs whose optimum, primal point and multipliers are computed by hand: single-non-zero
rows read as bounds, equality multipliers of both signs, the exact simplex started from chosen (non-optimal,
infeasible, singular) bases, its iteration limit, and the exact fallback's size guard (issue 9: generic mutants of
core/lp.py). Every optimum is checked by weak duality by hand: b.y (+ bound terms) = c.x."""

from fractions import Fraction

import pytest

from rldp_verify.core import lp as lpmod
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.lp import LPStatus, solve_certified, solve_exact, solve_square

F = Fraction


def test_solve_exact_equality_multipliers_of_both_signs():
    # max -x1 + x2 s.t. x1 = 2, x2 = 3 (E only): value 1, y_E = (-1, 1) (c = E^T y)
    r = solve_exact([-1, 1], [], [], [[1, 0], [0, 1]], [2, 3])
    assert (r.status, r.value, r.x, r.dual) == (LPStatus.OPTIMAL, 1, (2, 3), (-1, 1))
    assert r.method == "cdd-exact" and r.reduced_costs is None
    # with an inequality first: max x1 + x2 s.t. x1 + x2 <= 5, x1 - x2 = 1 -> x = (3, 2), y = (1, 0)
    r = solve_exact([1, 1], [[1, 1]], [5], [[1, -1]], [1])
    assert (r.value, r.x, r.dual) == (5, (3, 2), (1, 0))
    # max 2 x1 s.t. x1 + x2 <= 4, x2 >= 1 (-x2 <= -1), x1 - x2 = 0 -> x = (2, 2), value 4;
    # c = (2, 0) = y1 (1, 1) + y2 (0, -1) + y3 (1, -1) with y2 = 0 (x2 >= 1 slack): y1 = y3 = 1
    r = solve_exact([2, 0], [[1, 1], [0, -1]], [4, -1], [[1, -1]], [0])
    assert (r.value, r.x, r.dual) == (4, (2, 2), (1, 0, 1))


def test_solve_exact_zero_objective_and_unbounded():
    # objective 0 over a feasible set: the optimum is 0 at any feasible point
    r = solve_exact([0, 0], [[1, 1]], [1])
    assert r.status == "optimal" and r.value == 0
    # unbounded on a feasible set with an equality: max x1 s.t. x1 - x2 = 0
    assert solve_exact([1, 0], [], [], [[1, -1]], [0]).status == "unbounded"


def test_infeasible_equalities_with_an_infeasible_dual():
    # cdd reports these as 'dual inconsistent'; the primal is empty because of the equalities alone:
    # 0 x1 = 1; x1 - x2 = 0 and x1 - x2 = 1; x1 - x2 <= 0 with x1 - x2 = 1 (the dual of each is infeasible too:
    # E^T y = c has no solution for c = (1, 0))
    assert solve_exact([1], [], [], [[0]], [1]).status == "infeasible"
    assert solve_exact([1, 0], [], [], [[1, -1], [1, -1]], [0, 1]).status == "infeasible"
    assert solve_exact([1, 0], [[1, -1]], [0], [[1, -1]], [1]).status == "infeasible"
    assert solve_certified([1, 0], [[1, -1]], [0], [[1, -1]], [1]).status == "infeasible"


def test_certified_single_nonzero_rows_are_bounds_with_their_multipliers():
    # max x s.t. 2x <= 3, 4x <= 10 (the tighter row is the first): x = 3/2, y = (1/2, 0)
    r = solve_certified([1], [[2], [4]], [3, 10])
    assert (r.status, r.value, r.x, r.dual, r.reduced_costs) == ("optimal", F(3, 2), (F(3, 2),), (F(1, 2), 0), None)
    assert r.method == "highs+exact-basis"
    # the tighter row second: 4x <= 10, 2x <= 3
    r = solve_certified([1], [[4], [2]], [10, 3])
    assert (r.value, r.dual) == (F(3, 2), (0, F(1, 2)))
    assert r.method == "highs+exact-basis"
    # lower bounds from negative rows: max -x s.t. -2x <= -1, -x <= 0, -3x <= -1 -> x = 1/2, y = (1/2, 0, 0)
    r = solve_certified([-1], [[-2], [-1], [-3]], [-1, 0, -1])
    assert (r.value, r.x, r.dual) == (F(-1, 2), (F(1, 2),), (F(1, 2), 0, 0))
    assert r.method == "highs+exact-basis"
    # a keyword bound tighter than the row: max x s.t. 2x <= 3, x <= 1 (keyword) -> x = 1, reduced cost 1, y = 0
    r = solve_certified([1], [[2]], [3], upper=[1])
    assert (r.value, r.x, r.dual, r.reduced_costs) == (1, (1,), (0,), (1,))
    assert r.method == "highs+exact-basis"
    # a row tighter than the keyword bound: max x s.t. 2x <= 3, x <= 2 (keyword) -> the row's multiplier 1/2
    r = solve_certified([1], [[2]], [3], upper=[2])
    assert (r.value, r.x, r.dual, r.reduced_costs) == (F(3, 2), (F(3, 2),), (F(1, 2),), (0,))
    assert r.method == "highs+exact-basis"
    # the same for a lower bound: max -x s.t. -x <= -1 (x >= 1), keyword lower 1/2 / 2
    r = solve_certified([-1], [[-1]], [-1], lower=[F(1, 2)])
    assert (r.value, r.dual, r.reduced_costs) == (-1, (1,), (0,))
    assert r.method == "highs+exact-basis"
    r = solve_certified([-1], [[-1]], [-1], lower=[2])
    assert (r.value, r.dual, r.reduced_costs) == (-2, (0,), (-1,))
    assert r.method == "highs+exact-basis"


def test_certified_equal_bounds_keep_the_first_source():
    # x <= 1 twice (keyword and the row 2x <= 2, or two rows): max x gives x = 1, value 1; the multiplier sits on the
    # first source (documented in _BoundedLP): the keyword bound (reduced cost 1), else the first row (2 y = 1)
    r = solve_certified([1], [[2]], [2], upper=[1])
    assert (r.value, r.dual, r.reduced_costs, r.method) == (1, (0,), (1,), "highs+exact-basis")
    r = solve_certified([1], [[2], [1]], [2, 1])
    assert (r.value, r.dual, r.method) == (1, (F(1, 2), 0), "highs+exact-basis")
    # the same for lower bounds: max -x with x >= 1 (keyword, or -3x <= -3 and -x <= -1)
    r = solve_certified([-1], [[-3]], [-3], lower=[1])
    assert (r.value, r.dual, r.reduced_costs, r.method) == (-1, (0,), (-1,), "highs+exact-basis")
    r = solve_certified([-1], [[-3], [-1]], [-3, -1])
    assert (r.value, r.dual, r.method) == (-1, (F(1, 3), 0), "highs+exact-basis")


def test_certified_rows_with_small_positive_coefficients_are_upper_bounds():
    # x/2 <= 1 and x/2 <= 3 (the second not tighter; both coefficients in (0, 1)): max x gives x = 2, and
    # 1 = y1 / 2 -> y = (2, 0); a coefficient below 1 must not make a row a lower bound
    r = solve_certified([1], [[F(1, 2)], [F(1, 2)]], [1, 3])
    assert (r.value, r.x, r.dual, r.method) == (2, (2,), (2, 0), "highs+exact-basis")
    # with a tighter keyword bound x <= 1: reduced cost 1, both rows slack
    r = solve_certified([1], [[F(1, 2)]], [1], upper=[1])
    assert (r.value, r.x, r.dual, r.reduced_costs, r.method) == (1, (1,), (0,), (1,), "highs+exact-basis")


def test_certified_falls_back_when_highs_fails(monkeypatch):
    def broken(*args, **kw):
        raise RuntimeError("HiGHS crashed")

    monkeypatch.setattr(lpmod, "highs_solve", broken)
    r = solve_certified(*LP1, **KW1)
    assert (r.value, r.x, r.dual, r.reduced_costs, r.method) == (F(7, 2), (3, F(1, 2)), (F(1, 2),), (F(1, 2), 0),
                                                                 "cdd-exact")


def test_certified_bound_rows_next_to_general_rows():
    # max x1 + x2 s.t. x1 + 2 x2 <= 4, x1 <= 3, -x2 <= 0 (the last two are bounds): x = (3, 1/2), value 7/2;
    # c = (1, 1) = y1 (1, 2) + y2 (1, 0) + y3 (0, -1) with y3 = 0 (x2 > 0): y = (1/2, 1/2, 0); b.y = 2 + 3/2 = 7/2
    r = solve_certified([1, 1], [[1, 2], [1, 0], [0, -1]], [4, 3, 0])
    assert (r.value, r.x, r.dual, r.method) == (F(7, 2), (3, F(1, 2)), (F(1, 2), F(1, 2), 0), "highs+exact-basis")
    # with a second general row that is slack at the optimum (x1 + x2 = 7/2 < 10, multiplier 0): its slack is basic
    r = solve_certified([1, 1], [[1, 2], [1, 1], [1, 0], [0, -1]], [4, 10, 3, 0])
    assert (r.value, r.x, r.dual, r.method) == (F(7, 2), (3, F(1, 2)), (F(1, 2), 0, F(1, 2), 0), "highs+exact-basis")
    # the bound rows first: the same multipliers in the row order
    r = solve_certified([1, 1], [[0, -1], [1, 0], [1, 2]], [0, 3, 4])
    assert (r.value, r.x, r.dual, r.method) == (F(7, 2), (3, F(1, 2)), (0, F(1, 2), F(1, 2)), "highs+exact-basis")


def test_certified_zero_rows_and_equalities():
    # 0 x <= 0 and 0 x <= 5 are no constraint; max x1 + x2 s.t. x1 + x2 <= 2, x1 - x2 = 1 (both in G)
    r = solve_certified([1, 1], [[0, 0], [1, 1], [0, 0]], [0, 2, 5], [[1, -1]], [1])
    assert (r.value, r.x, r.dual) == (2, (F(3, 2), F(1, 2)), (0, 1, 0, 0))
    assert r.method == "highs+exact-basis"
    # equality multipliers of both signs through HiGHS's basis: max -x1 + x2 s.t. x1 + x2 = 2, x2 <= 1 ... with
    # x1 + x2 = 2 and x1 - x2 = 0: x = (1, 1), c = (-1, 1) = y1 (1, 1) + y2 (1, -1): y = (0, -1)
    r = solve_certified([-1, 1], [], [], [[1, 1], [1, -1]], [2, 0])
    assert (r.value, r.x, r.dual) == (0, (1, 1), (0, -1))
    assert r.method == "highs+exact-basis"
    r = solve_certified([3, 1], [], [], [[1, 1], [1, -1]], [2, 0])
    assert (r.value, r.x, r.dual) == (4, (1, 1), (2, 1))
    assert r.method == "highs+exact-basis"


def test_certified_bad_equality_row_length():
    with pytest.raises(InputError, match=r"^row 1 of E has 3 entries, expected 2$"):
        solve_certified([1, 1], [[1, 1]], [1], [[1, 0], [1, 1, 1]], [0, 1])


def test_certified_only_lower_keyword_gives_reduced_costs():
    # max -x1 - x2 s.t. x1 + x2 >= 1 (-x1 - x2 <= -1), x >= 0 (keyword): value -1, y = 1, reduced costs 0
    r = solve_certified([-1, -1], [[-1, -1]], [-1], lower=[0, 0])
    assert r.value == -1 and r.dual == (1,) and r.reduced_costs == (0, 0)
    # keyword bounds with None entries: max x1 - x2, x1 <= 2 (keyword), x2 >= -1 (keyword), x1 + x2 <= 5
    r = solve_certified([1, -1], [[1, 1]], [5], lower=[None, -1], upper=[2, None])
    assert (r.value, r.x, r.dual, r.reduced_costs) == (3, (2, -1), (0,), (1, -1))
    assert r.method == "highs+exact-basis"


# --- the exact simplex from chosen starting bases ------------------------------------------------------------

# max x1 + x2 s.t. x1 + 2 x2 <= 4, 0 <= x1 <= 3, x2 >= 0: optimum x = (3, 1/2), value 7/2,
# y = 1/2 (x1 + 2 x2 <= 4), reduced costs (1/2, 0) (x1 at its upper bound 3); b.y + 3 * 1/2 = 2 + 3/2 = 7/2
LP1 = ([1, 1], [[1, 2]], [4])
KW1 = {"lower": [0, 0], "upper": [3, None]}


def _start_from(monkeypatch, col_st, row_st):
    monkeypatch.setattr(lpmod, "_highs_basis", lambda lp: (tuple(col_st), tuple(row_st)))


def _capture_lp(monkeypatch):
    seen = []
    monkeypatch.setattr(lpmod, "_highs_basis", lambda lp: seen.append(lp))
    return seen


@pytest.mark.parametrize("col_st, row_st", [
    ("LL", "B"),      # origin, slack basic: a bound flip of x1 (to 3), then x2 enters and the row leaves
    ("UL", "B"),      # x1 at its upper bound already: one pivot
    ("BL", "U"),      # x1 basic with the row at its bound 4: x1 = 4 > 3 infeasible start -> fallback
    ("LB", "U"),      # x2 basic = 2, x1 at 0: x1 enters, reaches 3 (a bound flip) before x2 would reach 0
    ("UB", "U"),      # the optimal basis itself: no pivot
    ("NL", "B"),      # 'N' on a bounded column: read at its lower bound
])
def test_exact_simplex_reaches_the_optimum_from_any_start(monkeypatch, col_st, row_st):
    _start_from(monkeypatch, col_st, row_st)
    r = solve_certified(*LP1, **KW1)
    assert (r.status, r.value, r.x, r.dual, r.reduced_costs) == ("optimal", F(7, 2), (3, F(1, 2)), (F(1, 2),),
                                                                 (F(1, 2), 0))
    assert r.method == ("cdd-exact" if (col_st, row_st) == ("BL", "U") else "highs+exact-basis")


def test_exact_simplex_bad_bases_fall_back(monkeypatch):
    # a wrong number of basic variables (3, 0, 2 for 1 row), a singular basis and an unbounded ray all go to the
    # exact solver, which gives the same optimum
    for col_st, row_st in (("BB", "B"), ("LL", "L"), ("BB", "L")):
        _start_from(monkeypatch, col_st, row_st)
        r = solve_certified(*LP1, **KW1)
        assert (r.value, r.x, r.method) == (F(7, 2), (3, F(1, 2)), "cdd-exact")
    # singular basis: max x1 s.t. x1 + x2 <= 1 and 2 x1 + 2 x2 <= 3 (m = 2) with both rows' columns parallel
    _start_from(monkeypatch, "BB", "LL")
    r = solve_certified([1, 0], [[1, 1], [2, 2]], [1, 3], lower=[0, 0])
    assert (r.value, r.method) == (1, "cdd-exact")
    # unbounded: max x1 + x2, x1 - x2 <= 1, x >= 0 from the origin: the simplex finds a ray, the exact solver
    # reports "unbounded"
    _start_from(monkeypatch, "LL", "B")
    assert solve_certified([1, 1], [[1, -1]], [1], lower=[0, 0]).status == "unbounded"


def test_exact_simplex_iteration_limit(monkeypatch):
    seen = _capture_lp(monkeypatch)
    solve_certified(*LP1, **KW1)
    lp = seen[0]
    # from the origin the optimum needs two steps (a bound flip, then a pivot)
    assert lpmod._exact_simplex(lp, "LL", "B", max_iter=0) is None
    assert lpmod._exact_simplex(lp, "LL", "B", max_iter=1) is None
    x, y, d = lpmod._exact_simplex(lp, "LL", "B", max_iter=2)
    assert (x, y, d) == ([3, F(1, 2)], [F(1, 2)], [F(1, 2), 0])
    # from the optimal basis no step is needed
    assert lpmod._exact_simplex(lp, "UB", "U", max_iter=0) == ([3, F(1, 2)], [F(1, 2)], [F(1, 2), 0])
    # the default limit (50 + 4 m) is ample here
    assert lpmod._exact_simplex(lp, "LL", "B") == ([3, F(1, 2)], [F(1, 2)], [F(1, 2), 0])


def test_exact_simplex_bound_flip_down_and_lower_bound_leaving(monkeypatch):
    # max -x1 s.t. -x1 + x2 <= 2, x1 >= -5, 0 <= x2 <= 1: x1 >= x2 - 2 >= -2, so x = (-2, 0), value 2;
    # c = A^T y + d: -1 = -y (x1 off its bounds, d1 = 0) -> y = 1; d2 = 0 - y = -1 < 0 with x2 at its lower bound
    # 0; dual bound b.y + d2 * 0 = 2 = value
    seen = _capture_lp(monkeypatch)
    ref = solve_certified([-1, 0], [[-1, 1]], [2], lower=[-5, 0], upper=[None, 1])
    assert (ref.value, ref.x, ref.dual, ref.reduced_costs) == (2, (-2, 0), (1,), (0, -1))
    lp = seen[0]
    # start x1 = -5, x2 = 0: the row's activity 5 > 2, an infeasible start
    assert lpmod._exact_simplex(lp, "LL", "B") is None
    # start: the row at its bound 2, x2 at its upper bound 1, x1 basic = -1; x2 enters downwards (d2 = -1), x1
    # falls by the same amount: x2 reaches 0 (a bound flip) before x1 reaches -5
    assert lpmod._exact_simplex(lp, "BU", "U") == ([-2, 0], [1], [0, -1])
    # with x1 >= -3/2 instead, x1 reaches its lower bound first (after 1/2) and leaves the basis:
    # x = (-3/2, 1/2), y = 0, d = (-1, 0); value 3/2 = d1 * (-3/2)
    seen.clear()
    ref = solve_certified([-1, 0], [[-1, 1]], [2], lower=[F(-3, 2), 0], upper=[None, 1])
    assert ref.value == F(3, 2)
    assert lpmod._exact_simplex(seen[0], "BU", "U") == ([F(-3, 2), F(1, 2)], [0], [-1, 0])


def test_exact_simplex_ratio_test_against_a_bound_flip(monkeypatch):
    # The step length decides between a bound flip of the entering column and a basic column leaving; steps of
    # slope |delta| != 1 tell t = (bound - z) / delta from other formulas.
    # (a) LP1 with x2 <= 1: second step x2 enters (flip length 1), the row's slack r = 3 + 2 t reaches 4 at t = 1/2
    #     and leaves; the optimum (3, 1/2) is unchanged
    seen = _capture_lp(monkeypatch)
    solve_certified(*LP1, lower=[0, 0], upper=[3, 1])
    assert lpmod._exact_simplex(seen[0], "LL", "B") == ([3, F(1, 2)], [F(1, 2)], [F(1, 2), 0])
    # (b) max -x1 s.t. -2 x1 + x2 <= 2, x1 >= -5/4, 0 <= x2 <= 1: x1 >= (x2 - 2) / 2 >= -1, so x = (-1, 0), value 1;
    #     -1 = -2 y -> y = 1/2, d2 = 0 - y = -1/2 at x2's lower bound; dual bound 2 * 1/2 = 1.  From x2 = 1 (x1 =
    #     -1/2 basic) x2 decreases with x1 = -1/2 - t/2: x1 would reach -5/4 at t = 3/2 > 1, so x2 flips to 0
    seen.clear()
    ref = solve_certified([-1, 0], [[-2, 1]], [2], lower=[F(-5, 4), 0], upper=[None, 1])
    assert (ref.value, ref.x, ref.dual, ref.reduced_costs) == (1, (-1, 0), (F(1, 2),), (0, F(-1, 2)))
    assert lpmod._exact_simplex(seen[0], "BU", "U") == ([-1, 0], [F(1, 2)], [0, F(-1, 2)])


def test_exact_simplex_counts_pivots_and_flips_from_a_nonzero_lower_bound(monkeypatch):
    # max x1 + x2 + x3 s.t. x1 + x2 + x3 <= 10, x1 + x2 <= 10, x1, x2 in [0, 1], x3 in [-1, 1]: both rows slack at
    # the optimum x = (1, 1, 1) (value 3, y = 0, d = c = (1, 1, 1), each column at its upper bound).  From the lower
    # bounds with both slacks basic, each column flips to its upper bound (x3 over its length 2; x3 does not appear
    # in the second row): three pivots
    seen = _capture_lp(monkeypatch)
    ref = solve_certified([1, 1, 1], [[1, 1, 1], [1, 1, 0]], [10, 10], lower=[0, 0, -1], upper=[1, 1, 1])
    assert (ref.value, ref.x, ref.dual, ref.reduced_costs) == (3, (1, 1, 1), (0, 0), (1, 1, 1))
    lp = seen[0]
    want = ([1, 1, 1], [0, 0], [1, 1, 1])
    assert lpmod._exact_simplex(lp, "LLL", "BB", max_iter=2) is None
    assert lpmod._exact_simplex(lp, "LLL", "BB", max_iter=3) == want
    assert lpmod._exact_simplex(lp, "LLL", "BB") == want


def test_exact_simplex_ratio_ties(monkeypatch):
    # Documented tie rule: a bound flip of the entering column wins a tie; among basic columns, the smallest index.
    # max 2 x1 + x2 s.t. x1 + x2 <= 1, x1, x2 in [0, 1] from the origin (slack r basic): x1 enters, its flip (1)
    # ties with r reaching 1: x1 flips to 1 (r = 1 stays basic, degenerate); then x2 enters and r leaves at once
    # (ratio 0).  Final basis {x2}: y = c2 = 1, d = (2 - 1, 0) = (1, 0); x = (1, 0), value 2 = b.y + d1 * 1.
    # (Had r left on the tie, the basis {x1} would give y = 2, d = (0, -1), also optimal: the rule decides.)
    seen = _capture_lp(monkeypatch)
    ref = solve_certified([2, 1], [[1, 1]], [1], lower=[0, 0], upper=[1, 1])
    assert ref.value == 2 and ref.x == (1, 0)
    assert lpmod._exact_simplex(seen[0], "LL", "B") == ([1, 0], [1], [1, 0])
    # two basic columns tie: max x3 s.t. x1 + x3 <= 1, x2 + x3 <= 1, x3 >= 0 with x1, x2 fixed at 0 ... (free
    # slacks r1, r2 both reach 1 at t = 1): the smaller index (r1) leaves, x3 = 1; y solves B^T y = c_B with basis
    # {x3, r2}: y = (1, 0), d = (0 - 1, 0, 0) = (-1, 0, 0)
    seen.clear()
    ref = solve_certified([0, 0, 1], [[1, 0, 1], [0, 1, 1]], [1, 1], lower=[0, 0, 0], upper=[0, 0, None])
    assert ref.value == 1 and ref.x == (0, 0, 1)
    assert lpmod._exact_simplex(seen[0], "LLL", "BB") == ([0, 0, 1], [1, 0], [-1, 0, 0])


def test_exact_simplex_free_and_fixed_columns(monkeypatch):
    # max x1 s.t. x1 + x2 <= 3, x2 = 1 (fixed by keyword bounds 1 <= x2 <= 1), x1 free: x = (2, 1), y = 1,
    # reduced cost of x2: 0 - 1 = -1 (a fixed column may carry either sign)
    for col_st in ("ZL", "ZU", "ZN"):
        _start_from(monkeypatch, col_st, "B")
        r = solve_certified([1, 0], [[1, 1]], [3], lower=[None, 1], upper=[None, 1])
        assert (r.value, r.x, r.dual, r.reduced_costs, r.method) == (2, (2, 1), (1,), (0, -1), "highs+exact-basis")


def test_fallback_size_guard(monkeypatch):
    def refuse(*args):
        raise AssertionError("the size guard let a dense LP through")

    monkeypatch.setattr(lpmod, "solve_exact", refuse)     # fail fast instead of building 4e7 entries
    n = 4500     # 4500 variables with both keyword bounds: 4500 * 9000 = 4.05e7 dense entries > 4e7
    with pytest.raises(CertificationError, match=r"\(4500 variables, 9000 dense rows\) is too large"):
        lpmod._fallback([F(0)] * n, [], [], [], [], [F(0)] * n, [F(1)] * n)
    n = 6400     # lower bounds only plus 6 rows: 6400 * 6406 > 4e7
    with pytest.raises(CertificationError, match=r"\(6400 variables, 6406 dense rows\) is too large"):
        lpmod._fallback([F(0)] * n, [[]] * 6, [F(0)] * 6, [], [], [F(0)] * n, [None] * n)
    # exactly 4e7 entries (10000 variables, 4000 rows, no keyword bound) is still allowed
    with pytest.raises(AssertionError, match="size guard"):
        lpmod._fallback([F(0)] * 10000, [[]] * 4000, [F(0)] * 4000, [], [], [None] * 10000, [None] * 10000)
    # 1 variable, both bounds: far below the guard, reaches the exact solver
    with pytest.raises(AssertionError, match="size guard"):
        lpmod._fallback([F(1)], [], [], [], [], [F(0)], [F(1)])


def test_exact_simplex_degenerate_start_is_accepted(monkeypatch):
    # max x1 + x2 s.t. x1 + 2 x2 <= 3, 0 <= x1 <= 3, x2 >= 0: optimum x = (3, 0), value 3; the basis {x2} with x1
    # at 3 and the row at 3 has x2 = 0 on its lower bound (degenerate, feasible): certified without the fallback;
    # y = 1/2, d = (1/2, 0), dual bound 3 * 1/2 + 3 * 1/2 = 3
    _start_from(monkeypatch, "UB", "U")
    r = solve_certified([1, 1], [[1, 2]], [3], lower=[0, 0], upper=[3, None])
    assert (r.value, r.x, r.dual, r.reduced_costs, r.method) == (3, (3, 0), (F(1, 2),), (F(1, 2), 0),
                                                                 "highs+exact-basis")
    # the same with x2's upper bound 0 (x2 fixed at 0, basic at both bounds)
    r = solve_certified([1, 1], [[1, 2]], [3], lower=[0, 0], upper=[3, 0])
    assert (r.value, r.x, r.method) == (3, (3, 0), "highs+exact-basis")


def test_solve_square():
    assert solve_square([], []) == []
    assert solve_square([[F(2), F(1)], [F(1), F(3)]], [F(3), F(5)]) == [F(4, 5), F(7, 5)]
    assert solve_square([[F(1), F(2)], [F(2), F(4)]], [F(1), F(2)]) is None
