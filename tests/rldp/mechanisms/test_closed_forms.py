"""GRR, SRR, IR and NR against the closed forms of the paper (000_aca93ed29ea857ee.txt: eq. (56),
Definition 4, Definition 5 with Theorem 5), the exact guarantee checks and the sound rounding on small
cases computed by hand (exact Fractions), and every bad-input branch with its one-line message.

Every expected value below is worked out by hand in the comment next to it (or is a closed form of
the paper, or an identity between two constructions), never copied from the code's output.
"""

from __future__ import annotations

import math
import re
from fractions import Fraction as F

import flint
import mpmath
import pytest

import rldp_verify.rldp.mechanisms as mechanisms
from rldp_verify.core import progress
from rldp_verify.core.errors import InputError
from rldp_verify.core.information import mutual_information_bounds, mutual_information_value
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.mechanisms import (
    CheckResult,
    check_column_stochastic,
    check_gamma,
    check_ldp,
    check_prop3,
    check_single_distribution,
    exact_level,
    exp_delta2,
    exp_eps_bracket,
    grr,
    grr_matrix,
    independent_reporting,
    ir_distance,
    ir_matrix,
    lower_bounds,
    nonrobust,
    optimise_eps2,
    privacy_level,
    rad_bounds,
    realized_eps,
    srr,
    srr_matrix,
)
from rldp_verify.rldp.mechanisms._common import alphabets, build, fstr_table, labels_for, phat_table, utility_record
from rldp_verify.rldp.mechanisms.guarantees import _extreme_over_D
from rldp_verify.rldp.mechanisms.ir import (
    _branch_and_bound,
    _utility_arb,
    _utility_mp,
    conditional_l1_spread,
    distance_from,
    ir_split_matrix,
)
from rldp_verify.rldp.mechanisms.nonrobust import nonrobust_lower
from rldp_verify.rldp.mechanisms.rounding import check_lower_table, round_down, round_up
from rldp_verify.rldp.uncertainty import RenyiBall

PHAT = [["0.07", "0.10"], ["0.26", "0.57"]]
P4 = [F(1, 10), F(2, 10), F(3, 10), F(4, 10)]
T4 = [[F(1, 10), F(2, 10)], [F(3, 10), F(4, 10)]]


def _raises(fn, *args, match, **kw):
    with pytest.raises(InputError, match=match) as e:
        fn(*args, **kw)
    assert "\n" not in str(e.value)


def test_public_api_names_exist():
    for name in mechanisms.__all__:
        assert hasattr(mechanisms, name), name
    assert len(set(mechanisms.__all__)) == len(mechanisms.__all__)


# ---------------------------------------------------------------------------------------------
# GRR, eq. (56): e^eps / (e^eps + a - 1) on the diagonal, 1 / (e^eps + a - 1) elsewhere
# ---------------------------------------------------------------------------------------------


def test_grr_matrix_eq56():
    # a = 3, e^eps = 3: denominator 5
    assert grr_matrix(3, 3) == [[F(3, 5), F(1, 5), F(1, 5)], [F(1, 5), F(3, 5), F(1, 5)], [F(1, 5), F(1, 5), F(3, 5)]]
    assert grr_matrix(2, F(1, 1)) == [[F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)]]       # eps = 0: uniform
    assert grr_matrix(1, 7) == [[1]]                                                 # |X| = 1
    assert grr_matrix(3, math.inf) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]              # GRR^inf = identity
    assert all(isinstance(v, F) for r in grr_matrix(3, math.inf) + grr_matrix(2, "3/2") for v in r)
    # e^eps = 3/2, a = 2: 3/2 / (5/2) = 3/5
    assert grr_matrix(2, "3/2") == [[F(3, 5), F(2, 5)], [F(2, 5), F(3, 5)]]


@pytest.mark.parametrize("size", [0, -2, True, 2.0, "2"])
def test_grr_matrix_bad_size(size):
    _raises(grr_matrix, size, 2, match="^GRR alphabet size must be a positive integer, got " + re.escape(repr(size)) + "$")


def test_grr_matrix_bad_ratio():
    _raises(grr_matrix, 2, F(1, 2), match=r"^GRR needs e\^eps >= 1, got 1/2$")


def test_grr_constructor_records():
    m = grr(None, "log(3)", sensitive=["a", "b"], public=3)
    assert m.sensitive == ("a", "b") and m.public == ("u1", "u2", "u3")
    assert m.outputs == ("(a,u1)", "(a,u2)", "(a,u3)", "(b,u1)", "(b,u2)", "(b,u3)")
    # a = 6, e^eps = 3: denominator 8
    for y in range(6):
        for x in range(6):
            assert m.matrix[y][x] == (F(3, 8) if x == y else F(1, 8))
    assert m.parameters == {"mechanism": "GRR", "eps": "log(3)", "exp_eps_used": "3", "exp_eps_exact": True, "a": 6}
    assert m.eps == "log(3)" and m.utility is None
    g = m.guarantee
    assert g.startswith("eps-LDP (Definition 2) with e^eps >= 3, hence") and g.endswith("for every F")
    _raises(grr, PHAT, None, match="^GRR needs eps$")
    _raises(grr, None, "log(2)", sensitive=2, match="^GRR needs P-hat or the sensitive and public alphabets$")


def test_grr_digits_and_dps_reach_the_rounding():
    # digits = 3: e rounded down to 2.718; a = 2: diagonal 2.718 / 3.718
    m = grr(None, "1", sensitive=1, public=2, digits=3)
    assert m.parameters["exp_eps_used"] == "1359/500" and m.parameters["exp_eps_exact"] is False
    assert "10^-3" in m.parameters["rounding"]
    assert m.matrix[0] == (F(2718, 3718), F(1000, 3718))
    # a 5-digit arb enclosure of e cannot certify 12 correct digits: the rounded value is visibly lower
    lo5 = F(grr(None, "1", sensitive=1, public=2, dps=5).parameters["exp_eps_used"])
    assert F(2718281828, 10**9) - lo5 > F(1, 10**9)


def test_grr_utility_under_phat():
    # identity-like check: the utility record exists and I <= H(X) with I > 0 for eps > 0
    m = grr(PHAT, "log(2)")
    assert set(m.utility) == {"I", "NMI", "unit", "distribution"}
    assert m.utility["unit"] == "nats" and m.utility["distribution"] == "P-hat"
    p = [F(7, 100), F(10, 100), F(26, 100), F(57, 100)]
    with mpmath.workdps(30):
        direct = mutual_information_value(grr_matrix(4, 2), p, dps=30)
        assert abs(mpmath.mpf(m.utility["I"]) - direct) < mpmath.mpf(10) ** -11
    # Example 4: SRR^{log 2} has I = 0.1005 nats under P-hat
    assert abs(float(srr(PHAT, "log(2)").utility["I"]) - 0.1005) < 5e-5
    assert srr(None, "log(2)", sensitive=2, public=2).utility is None
    # dps reaches SRR's rounding of e^eps as well (see test_grr_digits_and_dps_reach_the_rounding)
    lo5 = F(srr(None, "1", sensitive=1, public=2, dps=5).parameters["exp_eps_used"])
    assert F(2718281828, 10**9) - lo5 > F(1, 10**9)


# ---------------------------------------------------------------------------------------------
# SRR, Definition 4: e^eps / C, e^-eps / C (same s), 1 / C (other s), C = e^eps + e^-eps (a2 - 1) + a - a2
# ---------------------------------------------------------------------------------------------


def test_srr_matrix_definition4():
    # a1 = 2, a2 = 3, e^eps = 2: C = 2 + 2/2 + 6 - 3 = 6 -> 1/3, 1/12, 1/6 (columns sum to 1/3 + 2/12 + 3/6 = 1)
    a, b, c = F(1, 3), F(1, 12), F(1, 6)
    assert srr_matrix(2, 3, 2) == [
        [a, b, b, c, c, c],
        [b, a, b, c, c, c],
        [b, b, a, c, c, c],
        [c, c, c, a, b, b],
        [c, c, c, b, a, b],
        [c, c, c, b, b, a],
    ]


def test_srr_degenerate_alphabets_are_grr():
    # a2 = 1: C = e + a1 - 1 -> GRR^eps on S.  a1 = 1: ratio e / e^-1 = e^2 -> GRR^{2 eps} on U.
    assert srr_matrix(3, 1, 2) == grr_matrix(3, 2)
    assert srr_matrix(1, 2, 2) == grr_matrix(2, 4)
    assert srr_matrix(1, 3, F(3, 2)) == grr_matrix(3, F(9, 4))
    assert srr_matrix(2, 2, 1) == grr_matrix(4, 1)                 # eps = 0: uniform


@pytest.mark.parametrize("a1, a2, name, bad", [(0, 2, "a1", 0), (2, 0, "a2", 0), (True, 2, "a1", True),
                                               (2, 1.0, "a2", 1.0), (-1, 1, "a1", -1)])
def test_srr_matrix_bad_sizes(a1, a2, name, bad):
    _raises(srr_matrix, a1, a2, 2, match=f"^SRR size {name} must be a positive integer, got {re.escape(repr(bad))}$")


def test_srr_matrix_bad_ratio():
    _raises(srr_matrix, 2, 2, F(1, 3), match=r"^SRR needs e\^eps >= 1, got 1/3$")


def test_srr_constructor_records():
    m = srr(None, "log(2)", sensitive=2, public=["x", "y", "z"])
    assert m.outputs == ("(s1,x)", "(s1,y)", "(s1,z)", "(s2,x)", "(s2,y)", "(s2,z)")
    assert [list(r) for r in m.matrix] == srr_matrix(2, 3, 2)
    assert m.parameters == {"mechanism": "SRR", "eps": "log(2)", "exp_eps_used": "2", "exp_eps_exact": True, "a1": 2, "a2": 3}
    assert m.guarantee.startswith("(eps, P_X)-RLDP (Lemma 2)") and m.guarantee.endswith("for every F")
    _raises(srr, PHAT, None, match="^SRR needs eps$")
    _raises(srr, None, "log(2)", public=2, match="^SRR needs P-hat or the sensitive and public alphabets$")
    # digits reach the rounding: e^1 -> 2.71, a1 = a2 = 1 is the trivial 1 x 1 mechanism
    assert srr(None, "1", sensitive=2, public=1, digits=2).parameters["exp_eps_used"] == "271/100"


def test_srr_prop3_is_tight():
    # Lemma 2 / Proposition 3: the largest ratio across different s is e^eps / 1 exactly
    m = srr(None, "log(2)", sensitive=2, public=2)
    assert check_prop3(m, "log(2)").holds is True
    res = check_prop3(m, "log(3/2)")
    assert res.holds is False and res.checked == 4 * 2


# ---------------------------------------------------------------------------------------------
# IR: Definition 5 and Theorem 5
# ---------------------------------------------------------------------------------------------


def test_conditional_l1_spread():
    # conditionals (1/2, 1/2) and (1/4, 3/4): ||.||_1 = 1/4 + 1/4
    assert conditional_l1_spread([[1, 1], [1, 3]]) == F(1, 2)
    # (1/2,1/2), (1/4,3/4), (3/4,1/4): the extreme pair differs by 1/2 + 1/2
    assert conditional_l1_spread([[2, 2], [1, 3], [3, 1]]) == 1
    assert conditional_l1_spread([[1, 2]]) == 0                     # one sensitive value
    assert conditional_l1_spread([[1, 3], [0, 0]]) == 2             # P-hat_s = 0: no conditional
    assert conditional_l1_spread([[0, 0], [1, 3]]) == 2


def test_distance_from_theorem5():
    # d = min{2, 2 max_s d_s + spread}: 2 * 1/5 + 1/2
    assert distance_from([F(1, 10), F(1, 5)], [[1, 1], [1, 3]]) == F(9, 10)
    assert distance_from([F(1, 5), F(1, 10)], [[1, 1], [1, 3]]) == F(9, 10)
    assert distance_from([F(3, 4), 0], [[1, 1], [1, 3]]) == 2        # 2 * 3/4 + 1/2 = 2 exactly
    assert distance_from([1, 1], [[1, 1], [1, 3]]) == 2              # capped at 2
    assert distance_from([0, 0], [[1, 1], [2, 2]]) == 0
    _raises(distance_from, [F(-1, 10), 0], [[1, 1], [1, 3]], match=r"^rad bounds must be >= 0, got \['-1/10', '0'\]$")


def test_ir_distance_bounds_theorem5_d():
    # one sensitive value: no spread, d = min(2, 2 rad_1)
    ball = RenyiBall.from_radius([["1/4", "3/4"]], 2, "1/10")
    with mpmath.workdps(30):
        true = F(mpmath.nstr(min(2, 2 * ball.rad_value(0)), 25))
    d12, d3 = ir_distance(ball), ir_distance(ball, digits=3)
    for d, slack in ((d12, F(3, 10**12)), (d3, F(3, 10**3))):
        assert true - F(1, 10**20) <= d <= true + slack
    assert d3 != d12


def test_exp_delta2():
    assert exp_delta2(3, 1) == 5                    # 1 + 2 (3 - 1) / 1
    assert exp_delta2(1, 2) == 1
    assert exp_delta2("3/2", "1/2") == 3            # 1 + 2 (1/2) / (1/2)
    assert exp_delta2(2, 2) == 2                    # d = 2: e^delta2 = e^eps2
    assert exp_delta2(5, 0) == math.inf
    assert exp_delta2(1, 0) == math.inf
    _raises(exp_delta2, F(1, 2), 1, match=r"^e\^eps2 must be >= 1, got 1/2$")
    _raises(exp_delta2, 2, -1, match="^d must be >= 0, got -1$")


def test_ir_matrix_kronecker():
    # R1 = GRR(e=3) on 2 values: 3/4, 1/4; R2 = GRR(e=2) on 2 values: 2/3, 1/3; Q = R1 (x) R2
    assert ir_matrix(2, 2, 3, 2) == [
        [F(1, 2), F(1, 4), F(1, 6), F(1, 12)],
        [F(1, 4), F(1, 2), F(1, 12), F(1, 6)],
        [F(1, 6), F(1, 12), F(1, 2), F(1, 4)],
        [F(1, 12), F(1, 6), F(1, 4), F(1, 2)],
    ]
    assert ir_matrix(1, 3, 5, math.inf) == [[1, 0, 0], [0, 1, 0], [0, 0, 1]]
    assert ir_matrix(3, 1, 2, 7) == grr_matrix(3, 2)
    # a1 = 2, a2 = 3, e1 = 1 (uniform 1/2), e2 = inf: Q[(y1, y2) | (s, u)] = 1/2 [y2 == u]
    Q = ir_matrix(2, 3, 1, math.inf)
    assert [[F(1, 2) if (x % 3) == (y % 3) else 0 for x in range(6)] for y in range(6)] == Q


def test_ir_split_matrix():
    # r = 4, t = 2, d = 1: e^eps1 = 2, e^delta2 = 3
    assert ir_split_matrix(2, 2, 4, 2, 1) == ir_matrix(2, 2, 2, 3)
    assert ir_split_matrix(2, 2, 4, 1, 1) == ir_matrix(2, 2, 4, 1)       # t = 1: R2 uniform
    assert ir_split_matrix(2, 2, 4, 4, 2) == ir_matrix(2, 2, 1, 4)       # t = r: R1 uniform
    _raises(ir_split_matrix, 2, 2, 4, 5, 1, match=r"^e\^eps2 = 5 must lie in \[1, e\^eps\] = \[1, 4\]$")
    _raises(ir_split_matrix, 2, 2, 4, F(1, 2), 1, match=r"^e\^eps2 = 1/2 must lie in")


@pytest.mark.parametrize("p", [P4, [F(0), F(1, 2), F(1, 4), F(1, 4)]])
@pytest.mark.parametrize("t, d", [(F(2), F(1)), (F(3, 2), F(0)), (F(1), F(2)), (F(4), F(1, 3))])
def test_ir_utility_two_routes(p, t, d):
    """The mpmath and arb utilities of the IR split agree with I of the exact matrix."""
    exact_I = mutual_information_value(ir_split_matrix(2, 2, 4, t, d), p, dps=40)
    with mpmath.workdps(40):
        assert abs(_utility_mp(2, 2, p, F(4), mpmath.mpf(t.numerator) / t.denominator, d) - exact_I) < 1e-30
        lo_I, hi_I = F(mpmath.nstr(exact_I, 35)) - F(1, 10**30), F(mpmath.nstr(exact_I, 35)) + F(1, 10**30)
    with arb_precision(40):
        enc = _utility_arb(2, 2, p, F(4), arb_exact(t), d)
        assert arb_lower(enc) <= hi_I and arb_upper(enc) >= lo_I and arb_upper(enc) - arb_lower(enc) < F(1, 10**25)


def test_ir_utility_arb_encloses_an_interval():
    # T = [3/2 - 1/100, 3/2 + 1/100]: the enclosure contains I(t) at both ends and the centre
    with arb_precision(30):
        enc = _utility_arb(2, 2, P4, F(4), flint.arb(arb_exact(F(3, 2)), arb_exact(F(1, 100))), F(1))
        lo, hi = arb_lower(enc), arb_upper(enc)
    assert hi - lo < F(1, 10)
    for t in (F(149, 100), F(3, 2), F(151, 100)):
        a, b = mutual_information_bounds(ir_split_matrix(2, 2, 4, t, 1), P4, dps=30)
        assert lo <= a and b <= hi


def _grid_values(table, r, d, n=12):
    p = [v for row in table for v in row]
    a1, a2 = len(table), len(table[0])
    ts = [1 + (r - 1) * F(k, n) for k in range(n + 1)]
    return {t: mutual_information_bounds(ir_split_matrix(a1, a2, r, t, d), p, dps=30) for t in ts}


def test_branch_and_bound_is_an_upper_bound():
    vals = _grid_values(T4, F(4), F(1))
    best = max(b for _, b in vals.values())
    best_lo = max(a for a, _ in vals.values())          # a certified utility: max_t I(t) >= best_lo
    up, n, complete = _branch_and_bound(2, 2, P4, F(4), F(1), best_lo, F(1, 10**4), 4000, 30)
    assert complete and n > 1 and best <= up <= best_lo + F(1, 10**4)
    # stopped after one box: still an upper bound, flagged incomplete
    up1, n1, c1 = _branch_and_bound(2, 2, P4, F(4), F(1), F(0), F(1, 10**8), 1, 30)
    assert (n1, c1) == (1, False) and up1 >= best
    # a known lower value above every enclosure ends the search with that value
    assert _branch_and_bound(2, 2, P4, F(4), F(1), F(10), F(1, 10**8), 4000, 30)[::2] == (F(10), True)
    # r = 1: nothing to search
    assert _branch_and_bound(2, 2, P4, F(1), F(1), F(1, 3), F(1, 10**8), 4000, 30) == (F(1, 3), 0, True)


def test_branch_and_bound_trivial_bound_when_enclosure_is_not_finite():
    # t in [1, 10^6] in one box: the interval utility is not finite; the bound falls back to
    # I <= H(X) <= log |X| = log 4
    up, n, complete = _branch_and_bound(2, 2, P4, F(10**6), F(1), F(0), F(1, 10**8), 1, 30)
    assert (n, complete) == (1, False)
    with mpmath.workdps(40):
        log4 = F(mpmath.nstr(mpmath.log(4), 35))
    assert log4 - F(1, 10**30) <= up <= log4 + F(1, 10**25)


@pytest.mark.parametrize("d", [F(1), F(2)])
def test_optimise_eps2_brackets_the_grid(d):
    tol = F(1, 10**5)
    opt = optimise_eps2(T4, F(4), d, tol=tol)
    assert 1 <= opt.t <= 4 and opt.lower <= opt.upper and opt.complete and opt.evaluations > 0
    # lower is the certified utility of the mechanism at t (recomputed independently)
    assert opt.lower == mutual_information_bounds(ir_split_matrix(2, 2, 4, opt.t, d), P4, dps=30)[0]
    # completeness: no split beats lower by more than the tolerance; upper covers every split
    for t, (a, b) in _grid_values(T4, F(4), d).items():
        assert a <= opt.lower + tol, t
        assert b <= opt.upper, t
    assert opt.upper - opt.lower <= tol


def test_optimise_eps2_closed_cases():
    # d = 0: R2 is the identity for every split, so moving budget to R1 only helps: t = 1
    opt = optimise_eps2(T4, F(4), F(0))
    assert opt.t == 1 and opt.complete
    assert opt.lower == mutual_information_bounds(ir_matrix(2, 2, 4, math.inf), P4, dps=30)[0]
    # r = 1 (eps = 0): the only split, no search
    opt1 = optimise_eps2(T4, F(1), F(1))
    assert (opt1.t, opt1.evaluations, opt1.complete) == (1, 0, True) and opt1.lower == opt1.upper
    assert opt1.lower == mutual_information_bounds(grr_matrix(4, 1), P4, dps=30)[0]
    # the grid size and precision are used: a 2-point grid still finds a certified split
    opt2 = optimise_eps2(T4, F(4), F(1), grid=2, max_boxes=1)
    assert not opt2.complete and opt2.lower <= opt2.upper


def test_independent_reporting_fixed_split():
    ball = RenyiBall.from_radius(T4, 2, "0")
    m = independent_reporting(ball, "log(4)", eps2="log(2)", d=1, sensitive=["a", "b"])
    # t = 2: e^eps1 = 2, e^delta2 = 1 + 2 (2 - 1) / 1 = 3
    assert [list(r) for r in m.matrix] == ir_matrix(2, 2, 2, 3)
    p = m.parameters
    assert (p["exp_eps2"], p["exp_eps1"], p["exp_delta2"], p["d"]) == ("2", "2", "3", "1")
    assert p["mechanism"] == "IR" and p["exp_eps_used"] == "4" and "10^-12" in p["d_rounding"]
    assert p["d_rounding"].startswith("rad_s(F) certified upper bounds")
    assert "eq82_optimum_bracket" not in p
    with mpmath.workdps(30):
        direct = mutual_information_value(ir_matrix(2, 2, 2, 3), P4, dps=30)
        assert abs(mpmath.mpf(m.utility["I"]) - direct) < mpmath.mpf(10) ** -11      # utility under P-hat
    assert m.outputs == ("(a,u1)", "(a,u2)", "(b,u1)", "(b,u2)")
    assert m.guarantee.startswith("(eps, F)-RLDP by Theorem 5")
    # d = 0: R2 is the identity
    m0 = independent_reporting(ball, "log(4)", eps2="log(2)", d=0)
    assert m0.parameters["exp_delta2"] == "inf" and [list(r) for r in m0.matrix] == ir_matrix(2, 2, 2, math.inf)
    # digits reach the rounding of eps: e^1 -> 2.718, eps2 = 0
    m3 = independent_reporting(ball, "1", eps2=0, d=1, digits=3)
    assert m3.parameters["exp_eps1"] == "1359/500" and "10^-3" in m3.parameters["d_rounding"]
    _raises(independent_reporting, ball, "log(2)", eps2="log(3)",
            match=r"^eps2 = 'log\(3\)' exceeds eps = log\(2\) \(e\^eps2 = 3 > 2\)$")
    _raises(independent_reporting, T4, "log(2)", match="^IR needs a RenyiBall .*got list$")


def test_independent_reporting_default_d_and_split():
    ball = RenyiBall.from_radius(T4, 2, "1/10")
    m = independent_reporting(ball, "log(4)")
    p = m.parameters
    assert F(p["d"]) == ir_distance(ball)
    lo, up = (F(x) for x in p["eq82_optimum_bracket"])
    assert p["eq82_bracket_complete"] is True and lo <= up
    t = F(p["exp_eps2"])
    assert F(p["exp_eps1"]) * t == 4 and F(p["exp_delta2"]) == exp_delta2(t, F(p["d"]))
    assert lo == mutual_information_bounds(m.matrix, P4, dps=30)[0]


# ---------------------------------------------------------------------------------------------
# NR
# ---------------------------------------------------------------------------------------------


def test_nonrobust_lower_and_ball_centre():
    L, active = nonrobust_lower([[0, 0], [1, 3]])
    assert ((0, 0), (F(1, 4), F(3, 4))) == L and active == [1]
    L2, active2 = nonrobust_lower([[F(1, 10), F(3, 10)], [F(3, 10), F(3, 10)]])
    assert ((F(1, 4), F(3, 4)), (F(1, 2), F(1, 2))) == L2 and active2 == [0, 1]
    ball = RenyiBall.from_radius(T4, 2, "1/10")
    a, b = nonrobust(ball, "log(2)"), nonrobust(T4, "log(2)", sensitive=["x", "y"])
    assert a.matrix == b.matrix and b.sensitive == ("x", "y") and a.parameters["mechanism"] == "NR"
    assert a.guarantee.startswith("(eps, {P-hat})-RLDP only")
    assert check_single_distribution(a, P4, "log(2)").holds is True
    # digits reach the rounding of eps
    assert nonrobust(T4, "1", digits=3).parameters["exp_eps_used"] == "1359/500"
    assert nonrobust(T4, "log(2)", public=["x", "y"]).public == ("x", "y")
    # the pairs s1 = s2 are vacuous for NR (D_s is the single point P-hat_{U|s}) and are left out
    assert a.parameters["include_same_s"] is False


def test_nonrobust_zero_row_imposes_nothing():
    # P-hat_s1 = 0: only s2 is active, Definition 1 has no pair s != s' left, so NR may reveal X:
    # I = H(P-hat) = H(1/4, 3/4) = 0.5623351446188... nats, NMI = 1
    m = nonrobust([[0, 0], [1, 3]], "log(2)")
    assert m.parameters["active_sensitive"] == [1]
    assert abs(float(m.utility["I"]) - (-(0.25 * math.log(0.25) + 0.75 * math.log(0.75)))) < 1e-11
    assert m.utility["NMI"] == "1.0"


# ---------------------------------------------------------------------------------------------
# exact guarantee checks
# ---------------------------------------------------------------------------------------------


def test_matrix_reading():
    _raises(check_ldp, [[True, 0]], "0", match="^matrix entry True is not a number$")
    _raises(check_ldp, [["a", 0]], "0", match="^matrix entry 'a' is not a number$")
    _raises(check_ldp, [], "0", match="^matrix has no rows$")
    assert check_column_stochastic([[0.5], [0.5]]) is True
    # a float is its binary value: Fraction(0.1) + Fraction(0.9) = 1 + 2^-55
    assert check_column_stochastic([[0.1], [0.9]]) is False
    assert check_column_stochastic([[F(1, 10)], [F(9, 10)]]) is True


def test_check_column_stochastic():
    assert check_column_stochastic(grr(None, "log(2)", sensitive=2, public=2)) is True
    assert check_column_stochastic([[F(3, 2)], [F(-1, 2)]]) is False          # sums to 1, negative entry
    assert check_column_stochastic([[1, F(1, 2)], [0, F(1, 3)]]) is False     # second column sums to 5/6
    assert check_column_stochastic([[F(1, 2), 1], [F(1, 3), 0]]) is False     # first column sums to 5/6
    assert check_column_stochastic([[0, 1], [1, 0]]) is True


def test_check_ldp_hand_case():
    # row 0: max 3/4 (x=0), min 1/3 (x=1), ratio 9/4; row 1: max 2/3 (x=1), min 1/4 (x=0), ratio 8/3
    Q = [[F(3, 4), F(1, 3)], [F(1, 4), F(2, 3)]]
    ok = check_ldp(Q, "log(8/3)")                                  # equality in row 1 holds
    assert ok.holds is True and ok.checked == 2 and bool(ok) is True
    bad = check_ldp(Q, "log(2)")
    assert bad.holds is False and bool(bad) is False and bad.checked == 2
    # gaps lhs - 2 rhs: row 0: 3/4 - 2/3 = 1/12; row 1: 2/3 - 1/2 = 1/6 (the worst)
    assert bad.worst == {"y": 1, "x": 1, "x'": 0, "lhs": "2/3", "rhs": "1/4", "excess": "1/6"}
    assert bad.what == "eps-LDP (Definition 2)"
    assert bad.to_json() == {"holds": False, "what": "eps-LDP (Definition 2)", "checked": 2, "worst": bad.worst}
    assert check_ldp(Q, "log(9/4)").holds is False
    # GRR is exactly eps-LDP (eq. (56): ratio e^eps)
    assert check_ldp(grr_matrix(3, 5), "log(5)").holds is True
    assert check_ldp(grr_matrix(3, 5), "log(49/10)").holds is False


def _near_e():
    with mpmath.workdps(90):
        return F(mpmath.nstr(mpmath.e, 75))


def test_undecided_when_ratio_is_inside_the_bracket():
    # a ratio within 1e-70 of e cannot be compared with e^1 from a 50-digit bracket: None, never True
    e = _near_e()
    Q = [[e, F(1)]]
    res = check_ldp(Q, "1")
    assert res.holds is None and bool(res) is False and res.to_json()["holds"] is None
    # a certain failure in another row wins over "undecided", in either order
    assert check_ldp([[F(3), F(1)], [e, F(1)]], "1").holds is False
    assert check_ldp([[e, F(1)], [F(3), F(1)]], "1").holds is False
    # and a certain pass is still True
    assert check_ldp([[F(2), F(1)]], "1").holds is True
    assert check_ldp([[F(2718281828459045, 10**15), F(1)]], "1").holds is True       # just below e
    assert check_ldp([[F(2718281828459046, 10**15), F(1)]], "1").holds is False      # just above e


def test_check_prop3_hand_case():
    # blocks (1/4, 1/2) and (1/8, 1/16): s=0 vs s'=1: 1/2 (u=1) over 1/16 (u'=1) = 8; s=1 vs 0: 1/8 / 1/4
    Q = [[F(1, 4), F(1, 2), F(1, 8), F(1, 16)]]
    assert check_prop3(Q, "log(8)", 2, 2).holds is True
    res = check_prop3(Q, "log(7)", 2, 2)
    assert res.holds is False and res.checked == 2
    assert res.worst == {"y": 0, "s": 0, "u": 1, "s'": 1, "u'": 1, "lhs": "1/2", "rhs": "1/16", "excess": "1/16"}
    assert res.what == "(eps, P_X)-RLDP via Proposition 3"
    # |S| = 1: no pair s != s', nothing to check
    one = check_prop3([[F(1), F(0)], [F(0), F(1)]], "0", 1, 2)
    assert one.holds is True and one.checked == 0
    # 3 sensitive values, 1 public: GRR on S: 3 rows x 6 ordered pairs, ratio e^eps exactly
    assert check_prop3(grr_matrix(3, 2), "log(2)", 3, 1).checked == 18
    assert check_prop3(grr_matrix(3, 2), "log(19/10)", 3, 1).holds is False
    _raises(check_prop3, Q, "log(8)", match=r"^give the sizes a1 = \|S\| and a2 = \|U\| for a bare matrix$")
    _raises(check_prop3, Q, "log(8)", 2, None, match="^give the sizes")
    _raises(check_prop3, Q, "log(8)", 3, 2, match=r"^matrix rows must have \|S\|\|U\| = 6 entries$")


Q_SD = [[F(3, 4), F(1, 4), F(1, 2), F(1, 2)], [F(1, 4), F(3, 4), F(1, 2), F(1, 2)]]
P_SD = [[F(3, 8), F(1, 8)], [F(1, 4), F(1, 4)]]


def test_check_single_distribution_hand_case():
    # P(Y=y | S=s): s=0: row 0 (9/32 + 1/32) / (1/2) = 5/8, row 1 3/8; s=1: 1/2 and 1/2.
    # largest ratio: row 1, (1/2) / (3/8) = 4/3; then row 0, (5/8) / (1/2) = 5/4
    assert check_single_distribution(Q_SD, P_SD, "log(4/3)", 2, 2).holds is True
    res = check_single_distribution(Q_SD, P_SD, "log(5/4)", 2, 2)
    assert res.holds is False and res.checked == 4
    assert res.worst == {"y": 1, "s": 1, "s'": 0, "lhs": "1/2", "rhs": "3/8", "excess": "1/32"}
    assert res.what == "(eps, {P})-RLDP (Definition 1, single distribution)"
    flat = [v for r in P_SD for v in r]
    assert check_single_distribution(Q_SD, flat, "log(5/4)", 2, 2).worst == res.worst
    assert check_single_distribution(Q_SD, [float(v) for v in flat], "log(4/3)", 2, 2).holds is True
    # a third sensitive value with probability 0 imposes nothing, whatever its columns are
    Q3 = [r + [F(1), F(0)] for r in Q_SD[:1]] + [Q_SD[1] + [F(0), F(1)]]
    res3 = check_single_distribution(Q3, flat + [0, 0], "log(4/3)", 3, 2)
    assert res3.holds is True and res3.checked == 4
    res3b = check_single_distribution(Q3, [0, 0] + flat, "log(4/3)", 3, 2)   # zero marginal first
    assert res3b.checked == 4


@pytest.mark.parametrize("p, match", [
    ([F(1, 2), F(1, 2)], r"^the distribution has 2 entries, expected \|X\| = 4$"),
    ([True, 0, 0, 0], r"^P\[0\] = True is not a number$"),
    ([0, "x", 0, 1], r"^P\[1\] = 'x' is not a number$"),
    ([F(-1, 2), F(1, 2), F(1, 2), F(1, 2)], r"^P\[0\] = Fraction\(-1, 2\) is negative$"),
    ([F(1, 2)] * 4, r"^the distribution sums to 2\.0, not 1$"),
    ([0, 0, 0, 0], r"^the distribution sums to 0\.0, not 1$"),
])
def test_distribution_bad_input(p, match):
    _raises(check_single_distribution, Q_SD, p, "0", 2, 2, match=match)
    _raises(realized_eps, Q_SD, p, 2, 2, match=match)


def test_extreme_over_D():
    # a = (1, 3, 2), L = (1/4, 0, 1/4): L.a = 3/4, slack 1/2 -> max 3/4 + 3/2, min 3/4 + 1/2
    a, L = [F(1), F(3), F(2)], [F(1, 4), F(0), F(1, 4)]
    assert _extreme_over_D(a, L, True) == F(9, 4)
    assert _extreme_over_D(a, L, False) == F(5, 4)
    # D a single point (sum L = 1): max = min = L.a
    assert _extreme_over_D(a, [F(1, 2), F(1, 2), 0], True) == _extreme_over_D(a, [F(1, 2), F(1, 2), 0], False) == 2


def test_check_gamma_hand_case():
    # row (1/2, 0 | 1/4, 1/4), L = ((1/4, 1/4), (0, 0)):
    # D_0: L.b = 1/8, slack 1/2 -> max 3/8, min 1/8; D_1: max = min = 1/4
    # ratios: (0,0) 3; (0,1) 3/2; (1,0) 2; (1,1) 1
    Q = [[F(1, 2), F(0), F(1, 4), F(1, 4)]]
    L = [[F(1, 4), F(1, 4)], [0, 0]]
    assert check_gamma(Q, L, "log(3)", a1=2, a2=2).holds is True
    full = check_gamma(Q, L, "log(2)", a1=2, a2=2)
    assert full.holds is False and full.checked == 4
    assert full.worst == {"y": 0, "s1": 0, "s2": 0, "lhs": "3/8", "rhs": "1/8", "excess": "1/8"}
    assert full.what == "Gamma_eps membership (Definition 3)"
    rel = check_gamma(Q, L, "log(2)", a1=2, a2=2, include_same_s=False)
    assert rel.holds is True and rel.checked == 2
    assert rel.what == "Gamma_eps membership (Definition 3, pairs s1 != s2 only)"
    assert check_gamma(Q, L, "log(19/10)", a1=2, a2=2, include_same_s=False).holds is False
    # active subsets
    only0 = check_gamma(Q, L, "log(2)", a1=2, a2=2, active=[0])
    assert only0.holds is False and only0.checked == 1
    assert check_gamma(Q, L, "0", a1=2, a2=2, active=[1]).holds is True
    assert check_gamma(Q, L, "0", a1=2, a2=2, active=[0], include_same_s=False).checked == 0
    _raises(check_gamma, Q, [[0, 0]], "0", a1=2, a2=2, match="^lower bounds must form a 2 x 2 table$")
    _raises(check_gamma, Q, [[0], [0]], "0", a1=2, a2=2, match="^lower bounds must form a 2 x 2 table$")
    _raises(check_gamma, Q, L, "0", a1=3, a2=2, match=r"^matrix rows must have \|S\|\|U\| = 6 entries$")


def test_check_gamma_sizes_from_mechanism():
    # GRR with e^eps = 2 on 2 x 2 and L = 0: D_s is the whole simplex: max over block 2/5, min 1/5 -> ratio 2
    m = grr(None, "log(2)", sensitive=2, public=2)
    L0 = [[0, 0], [0, 0]]
    assert check_gamma(m, L0, "log(2)").holds is True and check_gamma(m, L0, "log(2)").checked == 4 * 4
    assert check_gamma(m, L0, "log(19/10)").holds is False


def test_realized_eps_hand_case():
    # the ratios of test_check_single_distribution_hand_case: largest 4/3
    with mpmath.workdps(60):
        v = realized_eps(Q_SD, P_SD, 2, 2, dps=60)
        assert abs(v - mpmath.log(mpmath.mpf(4) / 3)) < mpmath.mpf(10) ** -55
    # every conditional equal: eps* = 0
    assert realized_eps(grr_matrix(4, 3), [F(1, 4)] * 4, 1, 4) == 0          # one sensitive value
    # zero-probability sensitive value skipped; a row that is 0 on every active value is skipped
    Q3 = [Q_SD[0] + [F(1), F(1)], Q_SD[1] + [F(0), F(0)]]
    with mpmath.workdps(60):
        v3 = realized_eps(Q3, [v for r in P_SD for v in r] + [0, 0], 3, 2, dps=60)
        assert abs(v3 - mpmath.log(mpmath.mpf(4) / 3)) < mpmath.mpf(10) ** -55
    Qz = [[F(1), F(1), F(0), F(0)], [F(0), F(0), F(0), F(0)], [F(0), F(0), F(1), F(1)]]
    assert realized_eps(Qz, [F(1, 2), F(1, 2), 0, 0], 2, 2) == 0
    assert realized_eps(Qz, [F(1, 4)] * 4, 2, 2) == mpmath.inf
    # sizes from a mechanism; GRR's realised eps under uniform P on 2 x 1 is eps itself
    m = grr(None, "log(3)", sensitive=2, public=1)
    with mpmath.workdps(40):
        assert abs(realized_eps(m, [F(1, 2), F(1, 2)], dps=40) - mpmath.log(3)) < mpmath.mpf(10) ** -35


# ---------------------------------------------------------------------------------------------
# rounding
# ---------------------------------------------------------------------------------------------


def test_round_down_up():
    assert round_down(F(7, 3), 2) == F(233, 100) and round_up(F(7, 3), 2) == F(234, 100)
    assert round_down(F(-7, 3), 2) == F(-234, 100) and round_up(F(-7, 3), 2) == F(-233, 100)
    assert round_down(F(1, 4), 2) == round_up(F(1, 4), 2) == F(1, 4)
    assert round_down(F(1, 3)) == F(333333333333, 10**12) and round_up(F(1, 3)) == F(333333333334, 10**12)
    assert round_down("2/3", 1) == F(6, 10)


def test_privacy_level_readings():
    lv = privacy_level("log(3/2)")
    assert (lv.text, lv.exp_eps, lv.exact, lv.digits) == ("log(3/2)", F(3, 2), True, None)
    assert privacy_level("ln(4)").text == "log(4)"
    z = privacy_level(0)
    assert (z.text, z.exp_eps, z.exact) == ("0", 1, True)
    h = privacy_level(F(1, 2))
    assert (h.text, h.exact, h.digits) == ("1/2", False, 12)
    assert privacy_level("0.5").text == "0.5" and privacy_level(0.5).text == "1/2" and privacy_level(1).text == "1"
    assert privacy_level(lv) is lv
    # e^(1/2) = 1.6487212707001281...: rounded down at 12 digits
    assert h.exp_eps == F(1648721270700, 10**12)
    three = privacy_level("1", digits=3)
    assert (three.exp_eps, three.digits) == (F(2718, 1000), 3)
    # a tiny eps: e^eps < 1 + 10^-12 rounds down to 1, never below
    assert privacy_level("1/10000000000000000").exp_eps == 1
    for bad in (0, -1, True, 1.5, "3"):
        _raises(privacy_level, "1", digits=bad, match="^rounding digits must be a positive integer, got " + re.escape(repr(bad)) + "$")


def test_privacy_level_eps_value_and_json():
    with mpmath.workdps(40):
        assert abs(privacy_level("log(2)").eps_value - mpmath.log(2)) < mpmath.mpf(10) ** -35
        assert privacy_level("1/2").eps_value == mpmath.mpf(1) / 2
        assert privacy_level("0.7").eps_value == mpmath.mpf("0.7")
    assert privacy_level("log(2)").to_json() == {"eps": "log(2)", "exp_eps_used": "2", "exp_eps_exact": True}
    j = privacy_level("1", digits=4).to_json()
    assert set(j) == {"eps", "exp_eps_used", "exp_eps_exact", "rounding"} and j["exp_eps_exact"] is False
    assert j["exp_eps_used"] == "13591/5000" and "10^-4" in j["rounding"]
    assert j["rounding"].startswith("e^eps rounded down") and j["rounding"].endswith("hence with e^eps")


def test_exp_eps_bracket():
    lv = privacy_level("log(5/2)")
    assert exp_eps_bracket(lv) == (F(5, 2), F(5, 2))
    lo, hi = exp_eps_bracket(privacy_level("1"))
    e = _near_e()
    assert lo < e < hi and hi - lo < F(1, 10**45)
    lo10, hi10 = exp_eps_bracket(privacy_level("1"), dps=10)
    assert lo10 < e < hi10 and hi10 - lo10 > F(1, 10**30)     # 10 digits cannot resolve 30


def test_lower_and_rad_bounds_certified():
    ball = RenyiBall.from_radius([["1/4", "3/4"]], 2, "1/10")
    for digits in (12, 3):
        L = lower_bounds(ball, digits=digits)
        R = rad_bounds(ball, digits=digits)
        step = F(1, 10**digits)
        with mpmath.workdps(30):
            for s in range(1):
                rv = F(mpmath.nstr(ball.rad_value(s), 25))
                assert rv - F(1, 10**20) <= R[s] <= rv + step + F(1, 10**20)
                assert (R[s] / step).denominator == 1
                for u in range(2):
                    lv = F(mpmath.nstr(ball.lower_value(u, s), 25))
                    assert lv - step - F(1, 10**20) <= L[s][u] <= lv + F(1, 10**20)
                    assert (L[s][u] / step).denominator == 1


def test_check_lower_table():
    assert check_lower_table([[0.1, 0.2], [0, 0]], 2, 2) == ((F(1, 10), F(1, 5)), (0, 0))
    assert check_lower_table([["1", 0], [0, "1/2"]], 2, 2) == ((1, 0), (0, F(1, 2)))       # row sum exactly 1
    assert check_lower_table(((F(1, 2), F(1, 2)),), 1, 2) == ((F(1, 2), F(1, 2)),)
    _raises(check_lower_table, 5, 2, 2, match="^lower bounds must be a table, got 5$")
    _raises(check_lower_table, [[0, 0]], 2, 2, match=r"^lower bounds must be a 2 x 2 table, got \[2\]$")
    _raises(check_lower_table, [[0, 0], [0]], 2, 2, match=r"^lower bounds must be a 2 x 2 table, got \[2, 1\]$")
    _raises(check_lower_table, [[0, "x"], [0, 0]], 2, 2, match=r"^L\[0\]\[1\] = 'x' is not a number$")
    _raises(check_lower_table, [[0, 0], [None, 0]], 2, 2, match=r"^L\[1\]\[0\] = None is not a number$")
    _raises(check_lower_table, [[0, 0], [2, 0]], 2, 2, match=r"^L\[1\]\[0\] = 2 is not in \[0, 1\]$")
    _raises(check_lower_table, [[0, -0.5], [0, 0]], 2, 2, match=r"^L\[0\]\[1\] = -0\.5 is not in \[0, 1\]$")
    _raises(check_lower_table, [[0.75, 0.75], [0, 0]], 2, 2, match=r"^lower bounds of row 0 sum to 1\.5 > 1$")
    _raises(check_lower_table, [[0, 0], [0.5, 0.75]], 2, 2, match=r"^lower bounds of row 1 sum to 1\.25 > 1$")


def test_exact_level():
    lv = exact_level(3)
    assert (lv.text, lv.exp_eps, lv.exact, lv.digits) == ("log(3)", 3, True, None)
    assert exact_level(1).exp_eps == 1 and exact_level("5/2").text == "log(5/2)"
    _raises(exact_level, F(1, 2), match=r"^e\^eps = 1/2 must be >= 1$")


# ---------------------------------------------------------------------------------------------
# shared plumbing
# ---------------------------------------------------------------------------------------------


def test_common_labels_and_tables():
    table, S, U = alphabets(None, 2, ["a", "b", "c"], "X")
    assert table is None and S == ["s1", "s2"] and U == ["a", "b", "c"]
    table, S, U = alphabets(T4, None, None, "X")
    assert table == ((F(1, 10), F(1, 5)), (F(3, 10), F(2, 5))) and (S, U) == (["s1", "s2"], ["u1", "u2"])
    _raises(alphabets, None, 2, None, "Foo", match="^Foo needs P-hat or the sensitive and public alphabets$")
    _raises(alphabets, None, None, 2, "Foo", match="^Foo needs P-hat")
    assert labels_for([[1, 2, 3]], ["a"], None) == (["a"], ["u1", "u2", "u3"])
    assert alphabets(T4, None, ["x", "y"], "X")[1:] == (["s1", "s2"], ["x", "y"])
    assert alphabets(T4, ["a", "b"], None, "X")[1:] == (["a", "b"], ["u1", "u2"])
    _raises(labels_for, [[1, 2], [3, 4]], 3, None, match="^P-hat is 2 x 2 but 3 sensitive and 2 public labels are given$")
    _raises(labels_for, [[1, 2], [3, 4]], None, ["a", "b", "c"],
            match="^P-hat is 2 x 2 but 2 sensitive and 3 public labels are given$")
    ball = RenyiBall.from_radius(T4, 2, "0")
    assert phat_table(ball) is ball.phat
    assert fstr_table([[F(1, 2), 3], [F(-2, 4), 0]]) == [["1/2", "3"], ["-1/2", "0"]]


def test_build_and_utility_record():
    m = build(grr_matrix(2, 2), ["s1"], ["u1", "u2"], ["a", "b"], name="T", level=exact_level(2), guarantee="g",
              parameters={"k": 1}, notes=("n1",))
    assert m.parameters == {"mechanism": "T", "eps": "log(2)", "exp_eps_used": "2", "exp_eps_exact": True, "k": 1}
    assert (m.eps, m.guarantee, m.utility, m.outputs) == ("log(2)", "g", None, ("a", "b"))
    assert "n1" in m.notes
    # identity on 2 values under the uniform distribution: I = H(X) = log 2, NMI = 1
    ident = [[F(1), F(0)], [F(0), F(1)]]
    u = utility_record(ident, [F(1, 2), F(1, 2)], digits=5)
    assert u == {"I": "0.69315", "NMI": "1.0", "unit": "nats", "distribution": "P-hat"}
    assert utility_record(ident, [F(1, 2), F(1, 2)])["I"] == "0.69314718056"     # 12 significant digits
    mu = build(ident, ["s1"], ["u1", "u2"], ["a", "b"], name="T", level=exact_level(2), guarantee="g",
               parameters={}, phat=[[F(1, 2), F(1, 2)]])
    assert mu.utility == {"I": "0.69314718056", "NMI": "1.0", "unit": "nats", "distribution": "P-hat"}


def test_check_result_defaults():
    r = CheckResult(True, "w", 0)
    assert r.worst is None and bool(r) is True and r.to_json() == {"holds": True, "what": "w", "checked": 0, "worst": None}


def test_optimise_eps2_interior_optimum():
    # here the best split is strictly inside (1, r): I(1) and I(r) are both beaten on a grid, so the
    # returned split must come from the grid + golden-section search, and be at least as good as every
    # grid point (I is smooth and unimodal here; arb enclosures are ~1e-30 wide)
    tab = [[F(1, 8), F(3, 8)], [F(3, 8), F(1, 8)]]
    p = [v for r in tab for v in r]
    r, d = F(20), F(1, 2)
    grid = {t: mutual_information_bounds(ir_split_matrix(2, 2, r, t, d), p, dps=30)
            for t in [1 + F(k, 4) for k in range(77)]}
    ends = max(grid[F(1)][1], grid[r][1])
    best_grid = max(a for a, _ in grid.values())
    assert best_grid > ends + F(1, 10**4)                       # the optimum is interior
    opt = optimise_eps2(tab, r, d, max_boxes=20)
    assert 1 < opt.t < r and not opt.complete and 20 <= opt.evaluations < 40
    assert opt.lower >= best_grid and all(b <= opt.upper for _, b in grid.values())
    assert opt.lower == mutual_information_bounds(ir_split_matrix(2, 2, r, opt.t, d), p, dps=30)[0]
    # a coarser grid finds the same optimum (golden section refines it)
    opt8 = optimise_eps2(tab, r, d, grid=8, max_boxes=1)
    assert abs(opt8.t - opt.t) < F(1, 10**6) and opt8.lower >= best_grid
    # dps reaches the search: at 8 digits the flat maximum is located only to ~sqrt(1e-8) = 1e-4 (here
    # 5e-4 off; an 8-digit print of a 50-digit search would be within 5e-8),
    # and its certified utility still lies below the certified upper bound
    low = optimise_eps2(tab, r, d, max_boxes=1, dps=8)
    assert F(1, 10**6) < abs(low.t - opt.t) < F(1, 10**2) and low.lower <= opt.upper


@pytest.mark.parametrize("a1, a2", [(3, 2), (2, 3), (1, 3)])
@pytest.mark.parametrize("d", [F(1, 2), F(0)])
def test_ir_utility_two_routes_unequal_sizes(a1, a2, d):
    """|S| != |U| (so that a1 and a2 cannot be confused): mpmath and arb utilities against the exact matrix."""
    n = a1 * a2
    p = [F(k + 1, n * (n + 1) // 2) for k in range(n)]                 # 1/21, 2/21, ... (sums to 1)
    r, t = F(5), F(3, 2)
    exact_I = mutual_information_value(ir_split_matrix(a1, a2, r, t, d), p, dps=40)
    with mpmath.workdps(40):
        assert abs(_utility_mp(a1, a2, p, r, mpmath.mpf(3) / 2, d) - exact_I) < 1e-30
        mid = F(mpmath.nstr(exact_I, 35))
    with arb_precision(40):
        enc = _utility_arb(a1, a2, p, r, arb_exact(t), d)
        assert arb_lower(enc) <= mid + F(1, 10**30) and arb_upper(enc) >= mid - F(1, 10**30)
        assert arb_upper(enc) - arb_lower(enc) < F(1, 10**25)


def test_lower_and_rad_bounds_honour_dps():
    # an 8-digit certification is valid but looser: lower bounds never higher, rad bounds never lower
    ball = RenyiBall.from_radius([["1/4", "3/4"]], 2, "1/10")
    L8, L50 = lower_bounds(ball, dps=8), lower_bounds(ball)
    R8, R50 = rad_bounds(ball, dps=8), rad_bounds(ball)
    assert all(x <= y for a, b in zip(L8, L50, strict=True) for x, y in zip(a, b, strict=True)) and L8 != L50
    assert all(x >= y for x, y in zip(R8, R50, strict=True)) and R8 != R50


def test_utility_precision_is_honoured():
    # log 2 = 0.693147180559945...: at 5 working digits the 12-digit string is visibly off, but within 1e-5
    u5 = utility_record([[F(1), F(0)], [F(0), F(1)]], [F(1, 2), F(1, 2)], dps=5)
    assert u5["I"] != "0.69314718056" and abs(float(u5["I"]) - math.log(2)) < 1e-5
    for build_fn in (grr, srr):
        u_lo, u_hi = build_fn(PHAT, "log(2)", dps=5).utility, build_fn(PHAT, "log(2)").utility
        for key in ("I", "NMI"):
            assert u_lo[key] != u_hi[key] and abs(float(u_lo[key]) - float(u_hi[key])) < 1e-5
    # a float eps is read as its decimal (0.1 -> 1/10), not its binary value
    assert privacy_level(0.1).text == "1/10"


def test_independent_reporting_honours_dps_for_d():
    # d from 8-digit certified rad bounds: still >= Theorem 5's d (valid), but looser than at 50 digits
    ball = RenyiBall.from_radius([["1/4", "3/4"]], 2, "1/10")
    d8 = F(independent_reporting(ball, "log(4)", eps2="log(2)", dps=8).parameters["d"])
    d50 = F(independent_reporting(ball, "log(4)", eps2="log(2)").parameters["d"])
    assert d8 > d50 and d50 == ir_distance(ball) and ir_distance(ball, dps=8) == d8


class _Recorder:
    def __init__(self):
        self.calls = []

    def step(self, name, total, unit):
        self.calls.append(("step", name, total, unit))

    def update(self, done, info):
        self.calls.append(("update", done, info))


def test_lower_bounds_reports_progress_per_cell():
    # 1 x 2 ball: one step of 2 cells, then the cells done 1, 2
    rec = _Recorder()
    with progress.reporting(rec):
        lower_bounds(RenyiBall.from_radius([["1/4", "3/4"]], 2, "1/10"), digits=3)
    assert [c[0] for c in rec.calls] == ["step", "update", "update"]
    assert rec.calls[0][2:] == (2, "cells") and "lower bounds" in rec.calls[0][1]
    assert [c[1] for c in rec.calls[1:]] == [1, 2]
