"""Issue 9 (generic mutants of rldp_verify/rldp/audit): certified brackets, verdicts and the screen against
values known independently of the engine.

- Rényi balls with alpha = 2 and |U| = 2: the worst ratio from Theorem 1 / Sec. 4.1 by the chi-square
  quadratic and a 1-D search (tests/rldp/audit/binary_ball.py), for pairs where block 1, block 2 or
  neither is constant in u (the three branches of the primal search); the screen (screen=True) runs on
  every such audit, since only the leading pair is certified in arb first.
- exact audits (eps-LDP, P_X, {P}) against GRR's closed form e^eps and hand-computed ratios;
- the dual's pieces against their definitions (power means, Psi by brute force over z);
- the decimal / log formatting of the JSON against mpmath at 40 digits.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np
import pytest

from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.audit import exact as ex
from rldp_verify.rldp.audit.core import INCONCLUSIVE, AuditResult, Target, _dec, parse_eps
from rldp_verify.rldp.audit.pair import PairProblem, solve_pair
from rldp_verify.rldp.audit.screen import build_tables, certify_float, estimates
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.rldp.uncertainty import RenyiBall
from tests.fakes import ProgressRecorder
from tests.rldp.audit.binary_ball import grid_ratio_half, mp, pair_ratio, worst
from tests.rldp.audit.helpers import grr_matrix

F = Fraction
PH = [[3, 5], [4, 7]]        # P^_{s} = 8/19, 11/19; P^_{U|s} = (3/8, 5/8), (4/11, 7/11)
B = F(1, 10)
# Q1: block s = 1 constant in u (pairs with s2 = 1 have a fixed block 2, with s1 = 1 a fixed block 1)
Q1 = [[F(3, 5), F(1, 5), F(2, 5), F(2, 5)], [F(2, 5), F(4, 5), F(3, 5), F(3, 5)]]
# Q2: no block constant (the two-curve primal search)
Q2 = [[F(3, 5), F(1, 5), F(1, 2), F(3, 10)], [F(2, 5), F(4, 5), F(1, 2), F(7, 10)]]
PAIRS = [(0, 0, 1), (0, 1, 0), (1, 0, 1), (1, 1, 0)]
# the closed form is computed at 30 digits (binary_ball.DPS): lo <= rho <= hi is checked up to 1e-25 relative
# (a fixed block's bracket is exact to about 1e-31, below the closed form's own accuracy)
SLACK = mpmath.mpf("1e-25")


@pytest.fixture(autouse=True)
def _forty_digits():
    """mpmath arithmetic of these tests (rho * (1 + SLACK), hi - lo) at 40 digits."""
    with mpmath.workdps(40):
        yield


def _ball():
    return RenyiBall.from_radius(PH, 2, B)


@pytest.mark.parametrize("Q, screen", [(Q1, True), (Q2, True), (Q1, False)],
                         ids=["fixed-block", "free-blocks", "fixed-block-no-screen"])
def test_ball_bracket_contains_the_closed_form(Q, screen):
    rho, (y, s1, s2) = worst(Q, PH, B)
    r = audit(Mechanism.from_matrix(Q, 2, 2), f"log({_below(rho)})", ball=_ball(), dps=30, screen=screen)
    lo, hi = mp(r.ratio_lower), mp(r.ratio_upper)
    assert lo <= rho * (1 + SLACK) and rho * (1 - SLACK) <= hi
    assert hi - lo <= rho * mpmath.mpf("1e-14")
    assert (r.argmax["y"], r.argmax["s"], r.argmax["s_prime"]) == (y, s1, s2)
    assert r.verdict == "FAIL"          # e^eps below the true sup by 1e-12
    # the witness is a member of F whose exact ratio is lo
    W = r.witness
    assert _ball().contains(W, dps=40) is True
    q1, q2 = Q[y][2 * s1:2 * s1 + 2], Q[y][2 * s2:2 * s2 + 2]
    num = sum(a * b for a, b in zip(q1, W[s1], strict=True)) / sum(W[s1])
    den = sum(a * b for a, b in zip(q2, W[s2], strict=True)) / sum(W[s2])
    assert num / den == r.ratio_lower
    if screen:
        assert (r.pairs_certified_in_arb, r.pairs_screened) == (1, 3)
    else:
        assert (r.pairs_certified_in_arb, r.pairs_screened) == (4, 0)


def _below(rho, rel="1e-12"):
    return F(mpmath.nstr(rho * (1 - mpmath.mpf(rel)), 25))


def _above(rho, rel="1e-12"):
    return F(mpmath.nstr(rho * (1 + mpmath.mpf(rel)), 25))


@pytest.mark.parametrize("Q", [Q1, Q2], ids=["fixed-block", "free-blocks"])
def test_ball_verdicts_at_the_closed_form(Q):
    """PASS 1e-12 above the true sup, FAIL 1e-12 below it, for an exact e^eps = r and for an arb e^eps."""
    rho, _ = worst(Q, PH, B)
    m = Mechanism.from_matrix(Q, 2, 2)
    up = audit(m, f"log({_above(rho)})", ball=_ball(), dps=30)
    assert up.verdict == "PASS" and up.eps == f"log({_above(rho)})"
    eps_up = mpmath.log(rho) + mpmath.mpf("1e-12")
    arb_up = audit(m, mpmath.nstr(eps_up, 30), ball=_ball(), dps=30)
    assert arb_up.verdict == "PASS"
    arb_down = audit(m, mpmath.nstr(mpmath.log(rho) - mpmath.mpf("1e-12"), 30), ball=_ball(), dps=30)
    assert arb_down.verdict == "FAIL"


@pytest.mark.parametrize("Q", [Q1, Q2], ids=["fixed-block", "free-blocks"])
def test_screen_is_sound_and_settles_pairs_above_their_sup(Q):
    """certify_float must reject r below a pair's true sup (it would certify a false bound) and, with 1 %
    of room, accept; the point estimate is within 1 % of the sup."""
    ball = _ball()
    Qf = np.array([[float(v) for v in row] for row in Q])
    phf = np.array([[float(v) for v in row] for row in ball.phat])
    Phi = float(2 * (np.exp(0.05) - 1))        # phi(B) = (e^{B/2} - 1)/(1/2) at alpha = 2
    tab = build_tables(Qf, phf, 2.0, Phi)
    est, _ = estimates(tab)
    assert est[0, 0, 0] == est[1, 1, 1] == -np.inf
    for p in PAIRS:
        rho = float(pair_ratio(Q, PH, B, *p))
        assert abs(est[p] / rho - 1) < 1e-2
        pairs = np.array([p, p])
        ok_below = certify_float(tab, Qf, phf, 2.0, Phi, rho * (1 - 1e-6), pairs)
        ok_above = certify_float(tab, Qf, phf, 2.0, Phi, rho * 1.01, pairs)
        assert not ok_below.any()
        assert ok_above.all()


@pytest.mark.parametrize("Q", [Q1, Q2], ids=["fixed-block", "free-blocks"])
@pytest.mark.parametrize("pair", PAIRS)
def test_each_pair_brackets_its_closed_form(Q, pair):
    """solve_pair on every (y, s1, s2): Q1 has a fixed block 2 at (., 0, 1) and a fixed block 1 at (., 1, 0)."""
    y, s1, s2 = pair
    rows = [tuple(Q[y][2 * s:2 * s + 2]) for s in range(2)]
    res = solve_pair(PairProblem(_ball(), rows, y, s1, s2), 20)
    rho = pair_ratio(Q, PH, B, y, s1, s2)
    assert (res.y, res.s1, res.s2) == pair
    assert mp(res.lo) <= rho * (1 + SLACK) and rho * (1 - SLACK) <= mp(res.hi)
    assert mp(res.hi) - mp(res.lo) <= rho * mpmath.mpf("1e-4")
    assert _ball().contains(res.witness, dps=30) is True
    assert res.notes == []


# ------------------------------------------------------------------------------------- exact audits


@pytest.mark.parametrize("a, e", [(2, F(3)), (4, F(5, 2)), (6, F(1))])
def test_ldp_of_grr_is_its_eps(a, e):
    """GRR^eps (eq. (56)) is exactly eps-LDP: max ratio e^eps, argmax (y, x = y, x' != y)."""
    rho, arg = ex.audit_ldp(grr_matrix(a, e), a, 1)
    assert rho == e
    # row 0: the first maximum is x = 0 (e/C), the first minimum x = 1 (1/C; x = 0 itself when e = 1)
    assert arg == {"y": 0, "s": 0, "s_prime": 1 if e > 1 else 0, "u": 0, "u_prime": 0}


def test_exact_audits_by_hand():
    Q = [[F(1, 2), F(1, 4), F(0), F(0)], [F(1, 2), F(3, 4), F(1), F(1)]]
    # LDP: row 0 has max 1/2 and a zero -> inf; argmax (y 0, x 0 = (s0, u0), x' 2 = (s1, u0)) at a2 = 2
    rho, arg = ex.audit_ldp(Q, 2, 2)
    assert rho == float("inf")
    assert arg == {"y": 0, "s": 0, "s_prime": 1, "u": 0, "u_prime": 0}
    # P_X: same inf at (y 0, s 0, s' 1, u 0, u' 0); witness 1/2 on (0, 0) and (1, 0)
    rho, arg, P = ex.audit_full_simplex(Q, 2, 2)
    assert rho == float("inf")
    assert arg == {"y": 0, "s": 0, "s_prime": 1, "u": 0, "u_prime": 0}
    assert ((F(1, 2), F(0)), (F(1, 2), F(0))) == P
    # 0/0 = 1: a row that is zero on both blocks gives 1, not 0 or inf
    Z = [[F(0)] * 4, [F(1)] * 4]
    rho, arg, P = ex.audit_full_simplex(Z, 2, 2)
    assert rho == 1 and arg["y"] == 0
    assert ex.audit_ldp(Z, 2, 2)[0] == 1
    assert ex.audit_full_simplex(Z, 1, 4) == (F(1), None, None)
    # a single P: P(y=1|s=0) = (1/2 * 1 + 3/4 * 3)/4 = 11/16, P(y=1|s=1) = 1; worst is y 0: (5/16) / 0 = inf
    P = [[F(1), F(3)], [F(2), F(2)]]
    rho, arg = ex.audit_single(Q, P, 2, 2)
    assert rho == float("inf") and arg == {"y": 0, "s": 0, "s_prime": 1, "u": None, "u_prime": None}
    # P_{s=1} = 0: no pair has both conditionals, ratio 1 and no argmax
    assert ex.audit_single(Q, [[F(1), F(3)], [F(0), F(0)]], 2, 2) == (F(1), None)
    # three secrets, s = 2 empty: only (0, 1) and (1, 0); by hand y 1: (11/16) / 1 and 1 / (11/16) = 16/11
    Q3 = [[F(1, 2), F(1, 4), F(1, 2), F(1, 2), F(1, 3), F(1, 3)], [F(1, 2), F(3, 4), F(1, 2), F(1, 2), F(2, 3), F(2, 3)]]
    rho, arg = ex.audit_single(Q3, [[F(1), F(3)], [F(2), F(2)], [F(0), F(0)]], 3, 2)
    # y 0: (5/16)/(1/2) = 5/8, (1/2)/(5/16) = 8/5; y 1: 11/16 / (1/2) = 11/8, 8/11 -> worst 8/5 at (0, 1, 0)
    assert rho == F(8, 5) and (arg["y"], arg["s"], arg["s_prime"]) == (0, 1, 0)


def test_audit_modes_give_the_exact_values():
    e = F(3)
    Q = grr_matrix(4, e)
    m = Mechanism.from_matrix(Q, 2, 2)
    ldp = audit(m, "log(3)", ldp=True)
    assert (ldp.verdict, ldp.ratio_lower, ldp.ratio_upper) == ("PASS", e, e)
    assert ldp.uncertainty == "eps-LDP (Definition 2)" and ldp.witness is None
    assert audit(m, "log(299/100)", ldp=True).verdict == "FAIL"
    # GRR over P_X: Proposition 3, max over s != s' of Q[y|s,u]/Q[y|s',u'] = e as well
    full = audit(m, "log(3)", full_simplex=True)
    assert (full.ratio_lower, full.ratio_upper) == (e, e) and full.uncertainty == "F = P_X (Proposition 3)"
    # a single P uniform: P(y|s) = (e + 1)/(2C) for the two outputs of s, 2/(2C) for the others -> (e + 1)/2
    one = audit(m, "log(2)", distribution=[[F(1, 4)] * 2] * 2)
    assert (one.verdict, one.ratio_lower, one.ratio_upper) == ("PASS", F(2), F(2))
    assert one.uncertainty == "F = {P} (single distribution, eq. (62))" and one.witness == ((F(1, 4),) * 2,) * 2
    zero = audit(m, "log(2)", phat=[[1, 1], [1, 1]], alpha=2, radius=0)
    assert (zero.ratio_lower, zero.ratio_upper) == (F(2), F(2))
    assert zero.uncertainty == "Rényi ball alpha = 2, radius B = 0 (given radius): F = {P^}"
    assert audit(m, "log(199/100)", distribution=[[F(1, 4)] * 2] * 2).verdict == "FAIL"
    assert audit(m, "0", distribution=[[F(1, 4)] * 2] * 2).verdict == "FAIL"


# ------------------------------------------------------------------------------------------ targets


def test_target_comparisons_exact_and_arb():
    t = parse_eps("log(2)")
    assert t.le(F(2), 30) and not t.le(F(2) + F(1, 10**30), 30)
    assert t.lt_strict(F(2) + F(1, 10**30), 30) and not t.lt_strict(F(2), 30)
    assert not t.le(None, 30) and not t.le(float("inf"), 30)
    assert not t.lt_strict(None, 30) and t.lt_strict(float("inf"), 30)
    # eps = 1: e = 2.718281828459045235360287...
    u = parse_eps("1")
    lo, hi = F("2.718281828459045235"), F("2.718281828459045236")
    assert u.le(lo, 30) and not u.le(hi, 30)
    assert u.lt_strict(hi, 30) and not u.lt_strict(lo, 30)
    assert not u.le(None, 30) and u.lt_strict(float("inf"), 30) and not u.lt_strict(None, 30)
    assert Target("x", None, F(0)).le(F(1), 20) and not Target("x", None, F(0)).lt_strict(F(1), 20)


def test_verdict_inconclusive_between_bounds():
    from rldp_verify.rldp.audit.core import _verdict

    t = parse_eps("log(2)")
    assert _verdict(t, F(3, 2), F(5, 2), 30) == INCONCLUSIVE
    assert _verdict(t, F(3, 2), F(2), 30) == "PASS"
    assert _verdict(t, F(201, 100), F(5, 2), 30) == "FAIL"
    assert _verdict(t, None, float("inf"), 30) == INCONCLUSIVE


# ---------------------------------------------------------------------------------------- formatting


def test_decimal_and_log_strings():
    assert _dec(F(1, 3), 5, True) == "0.33333" and _dec(F(1, 3), 5, False) == "0.33334"
    assert _dec(F(-1, 3), 5, True) == "-0.33334" and _dec(F(-1, 3), 5, False) == "-0.33333"
    assert _dec(F(2, 3), 5, None) == "0.66667" and _dec(F(5, 2), 5, None) == "2.5"
    assert _dec(F(7), 20, True) == "7" and _dec(None, 5, True) is None and _dec(float("inf"), 5, True) == "inf"
    assert _dec(F(1, 10**25), 20, False) == "0.00000000000000000001" and _dec(F(1, 10**25), 20, True) == "0"
    r = AuditResult("PASS", F(1), F(2), None, None, 30, 0.0, "", "0")
    assert r.eps_realised() == ["0", "0.69314718055994530942"]    # log 2 = 0.693147180559945309417232...
    assert r.eps_realised(5) == ["0", "0.69315"]
    assert AuditResult("PASS", F(2), F(2), None, None, 30, 0.0, "", "0").eps_realised(5) == ["0.69314", "0.69315"]
    assert AuditResult("FAIL", None, float("inf"), None, None, 30, 0.0, "", "0").eps_realised() == [None, "inf"]
    assert AuditResult("PASS", F(0), F(1), None, None, 30, 0.0, "", "0").eps_realised()[0] == "-inf"
    # the log of 3/2 rounds outward: 0.405465108108164381978013115464...
    assert AuditResult("PASS", F(3, 2), F(3, 2), None, None, 30, 0.0, "", "0").eps_realised(12) == \
        ["0.405465108108", "0.405465108109"]


def test_json_document():
    m = Mechanism.from_matrix(grr_matrix(4, F(3)), 2, 2)
    j = audit(m, "log(3)", full_simplex=True).to_json()
    assert j["verdict"] == "PASS" and j["ratio_lower"] == j["ratio_upper"] == "3"
    assert j["eps_realised"] == ["1.09861228866810969139", "1.0986122886681096914"]   # log 3 = 1.098612288668109691395...
    # row 0: the first maximum of block 0 is u = 0 (e/C), the first minimum of block 1 is u' = 0 (1/C)
    assert j["witness"] == [["1/2", "0"], ["1/2", "0"]] and j["eps"] == "log(3)"
    assert j["witness_format"] == "exact rationals p/q"
    assert j["argmax"] == {"y": 0, "s": 0, "s_prime": 1, "u": 0, "u_prime": 0}
    assert j["uncertainty"] == "F = P_X (Proposition 3)" and j["dps"] == 50
    assert (j["pairs_certified_in_arb"], j["pairs_screened"]) == (0, 0) and j["notes"] == []
    third = audit(Mechanism.from_matrix([[F(1, 3)] * 4, [F(2, 3)] * 4], 2, 2), "0", ldp=True).to_json()
    assert third["ratio_lower"] == "1" and third["witness"] is None and third["verdict"] == "PASS"


# ------------------------------------------------------------------------------------------- the API


def test_matrix_forms_and_ball_forms_agree(monkeypatch):
    """A NumPy float matrix (entries 1/2, 1/4, 3/4: exact binary rationals), a DataFrame and nested Fractions are
    the same mechanism; phat/alpha/radius is the same ball as RenyiBall.from_radius; sizes may be given."""
    class DataFrame:  # what load_mechanism reads of a pandas DataFrame: its type name and to_numpy()
        def __init__(self, rows):
            self.rows = rows

        def to_numpy(self):
            return np.array(self.rows)

    Qf = [[0.5, 0.25, 0.75, 0.5], [0.5, 0.75, 0.25, 0.5]]
    Qq = [[F(1, 2), F(1, 4), F(3, 4), F(1, 2)], [F(1, 2), F(3, 4), F(1, 4), F(1, 2)]]
    ref = audit(Mechanism.from_matrix(Qq, 2, 2), "log(3)", full_simplex=True)
    assert (ref.ratio_lower, ref.ratio_upper) == (F(3), F(3))      # (3/4) / (1/4)
    for m in (np.array(Qf), DataFrame(Qf)):
        r = audit(m, "log(3)", full_simplex=True, sizes=(2, 2))
        assert (r.verdict, r.ratio_lower, r.ratio_upper) == ("PASS", F(3), F(3))
        assert "float matrix entries read exactly as binary rationals (from_float)" in r.notes
    assert "float matrix entries read exactly as binary rationals (from_float)" not in ref.notes
    a = audit(Q1, "1", phat=PH, alpha=2, radius=B, dps=30)
    b = audit(Mechanism.from_matrix(Q1, 2, 2), "1", ball=_ball(), sizes=(2, 2), dps=30)
    assert (a.ratio_lower, a.ratio_upper, a.argmax) == (b.ratio_lower, b.ratio_upper, b.argmax)
    assert a.uncertainty == "Rényi ball alpha = 2, radius B = 0.1 (given radius)" == b.uncertainty
    assert a.eps == "1" and a.dps == 30 and a.seconds > 0
    # confidence + samples: the ball of RenyiBall.from_confidence (its radius, eq. (11), costs seconds and is
    # tested with uncertainty.py; here it is replaced by a recorder returning the radius-B ball)
    seen = []

    def from_confidence(phat, alpha, confidence, samples, *, dps):
        seen.append((phat, alpha, confidence, samples, dps))
        return RenyiBall(RenyiBall.from_radius(phat, alpha, B).phat, F(alpha), B, "recorded")

    monkeypatch.setattr(RenyiBall, "from_confidence", staticmethod(from_confidence))
    c = audit(Q1, "1", phat=PH, alpha=2, confidence="0.9", samples=1000, dps=30)
    assert seen == [(PH, 2, "0.9", 1000, 30)]
    assert (c.ratio_lower, c.ratio_upper) == (a.ratio_lower, a.ratio_upper)
    assert c.uncertainty == "Rényi ball alpha = 2, radius B = 0.1 (recorded)"


def test_precision_is_raised_until_the_verdict_is_decided():
    """e^eps = rho (1 + 1e-20) with rho the closed form: inside the 30-digit bracket (width about 1e-15, so
    INCONCLUSIVE at max_dps = 30), PASS once the precision doubles to 60 digits (width about 1e-45)."""
    rho, _ = worst(Q1, PH, B)
    r = _above(rho, "1e-20")
    m = Mechanism.from_matrix(Q1, 2, 2)
    stuck = audit(m, f"log({r})", ball=_ball(), dps=30, max_dps=30)
    assert stuck.verdict == INCONCLUSIVE and stuck.dps == 30
    from rldp_verify.core import progress

    class Steps:
        def __init__(self):
            self.names = []

        def step(self, name, total, unit):
            self.names.append(name)

        def update(self, done, info):
            pass

    rec = Steps()
    with progress.reporting(rec):
        raised = audit(m, f"log({r})", ball=_ball(), dps=30, max_dps=60)
    assert raised.verdict == "PASS" and raised.dps == 60
    rounds = [n.split("]")[0] + "]" for n in rec.names if n.endswith("float screen tables")]
    assert rounds == ["[30 digits, precision round 1 of at most 2]", "[60 digits, precision round 2 of at most 2]"]
    assert mp(raised.ratio_upper) - mp(raised.ratio_lower) <= rho * mpmath.mpf("1e-40")


def test_secret_with_zero_mass_in_phat():
    """P^_{s=0} = 0: Theorem 1 leaves P_{U|s=0} unconstrained (the closed form takes max / min of q over it) and
    gives block 1 the whole budget. The audit has no interior KKT point and no witness (P^ has no conditional at
    s = 0), so: hi certified above the sup (within 1e-4 of it: the Theorem-1 product bound), lo None, and
    e^eps 1e-3 below the sup is INCONCLUSIVE, never PASS."""
    ph = [[0, 0], [4, 7]]
    rho, _ = worst(Q2, ph, B)
    r = audit(Mechanism.from_matrix(Q2, 2, 2), f"log({_below(rho, '1e-3')})", ball=RenyiBall.from_radius(ph, 2, B),
              dps=30)
    assert rho * (1 - SLACK) <= mp(r.ratio_upper) <= rho * (1 + mpmath.mpf("1e-4"))
    assert r.ratio_lower is None and r.argmax is None and r.witness is None
    assert r.verdict == INCONCLUSIVE
    assert "pair (y=0, s=1, s'=0): upper bound from the product of the Theorem-1 projections" in r.notes
    assert r.to_json()["ratio_lower"] is None and r.eps_realised()[0] is None


def test_alpha_half_is_certified_above_a_point_of_the_projection():
    """alpha = 1/2 (beta = -1): no interior KKT point, so hi comes from the bisection / product certificates and lo
    from P^ and the face witnesses. The Bhattacharyya form of D_{1/2} gives points of the joint projection in
    closed form (binary_ball.grid_ratio_half, 101 budget splits): their best ratio g is a lower bound of the sup,
    so hi >= g, and e^eps = g (1 - 1e-6) is never PASS; the witness is a member of F with exact ratio lo."""
    g = grid_ratio_half(Q2, PH, B, 0, 1, 0, n=100)
    ball = RenyiBall.from_radius(PH, F(1, 2), B)
    r = audit(Mechanism.from_matrix(Q2, 2, 2), f"log({_below(g, '1e-6')})", ball=ball, dps=30)
    assert mp(r.ratio_upper) >= g * (1 - SLACK)
    assert r.ratio_upper <= F(3, 5) / F(3, 10)               # Proposition 3: max q1 / min q2
    # the grid witness on the maximiser curves (issue 25) may reach g (1 - 1e-6): FAIL is then correct (lo is the
    # exact ratio of a member of F); it is never PASS
    assert r.verdict in (INCONCLUSIVE, "FAIL") and r.ratio_lower <= r.ratio_upper
    assert (r.verdict == "FAIL") == (r.ratio_lower > _below(g, "1e-6"))
    assert (r.argmax["y"], r.argmax["s"], r.argmax["s_prime"]) == (0, 1, 0)
    assert ball.contains(r.witness, dps=40) is True
    assert "pair (y=0, s=1, s'=0): no interior KKT point (degenerate block, alpha <= 1/2, zero mass or infinite " \
           "radius)" in r.notes


def test_proposition3_screen_decides_exactly():
    """px_ok: max_u Q[y|s1,u] <= r_cut min_u Q[y|s2,u] decided in Fractions; the float pre-filter has 1e-9 of
    room, so a pair 1e-12 over r_cut passes the filter and must still be rejected."""
    from rldp_verify.rldp.audit.pairs import px_ok

    r_cut = F(3)
    tiny = F(1, 10**12)
    rows = [[(F(3, 4), F(1, 4)), (F(1, 4), F(1, 2)), (F(3, 4) * (1 + tiny), F(1, 4))],   # y = 0, secrets 0, 1, 2
            [(F(1, 4), F(3, 4)), (F(3, 4), F(1, 2)), (F(1, 4) * (1 - tiny), F(3, 4))]]
    Qf = np.array([[float(v) for blk in row for v in blk] for row in rows])
    pairs = np.array([[0, 0, 1],     # 3/4 <= 3 * 1/4: exactly equal -> True
                      [0, 2, 1],     # 3/4 (1 + 1e-12) > 3/4 -> False (the float filter lets it through)
                      [0, 1, 0],     # 1/2 <= 3 * 1/4 -> True
                      [1, 1, 0],     # 3/4 <= 3 * 1/4 -> True
                      [1, 1, 2],     # 3/4 > 3 * 1/4 (1 - 1e-12) -> False
                      [1, 0, 1]])    # 3/4 <= 3 * 1/2 -> True
    assert px_ok(pairs, Qf, rows, 3, 2, r_cut).tolist() == [True, False, True, True, False, True]
    assert px_ok(pairs[:0], Qf, rows, 3, 2, r_cut).tolist() == []
    assert px_ok(pairs, Qf, rows, 3, 2, F(1, 2)).tolist() == [False, False, False, False, False, False]


def test_zero_in_the_denominator_block():
    """Q[y|s=1, u=1] = 0 with P^_{s=0} = 0: Proposition 3's bound max q1 / min q2 is inf, yet the ball keeps
    R_{U|s=1} off the zero cell (alpha = 2), so the sup is finite (closed form) and certified from above."""
    Qz = [[F(3, 5), F(1, 5), F(1, 2), F(0)], [F(2, 5), F(4, 5), F(1, 2), F(1)]]
    ph = [[0, 0], [4, 7]]
    rho = pair_ratio(Qz, ph, B, 0, 0, 1)
    assert rho == worst(Qz, ph, B)[0]
    r = audit(Mechanism.from_matrix(Qz, 2, 2), "1", ball=RenyiBall.from_radius(ph, 2, B), dps=30)
    assert rho * (1 - SLACK) <= mp(r.ratio_upper) <= rho * (1 + mpmath.mpf("1e-3"))


@pytest.mark.parametrize("screen", [True, False])
def test_progress_steps_of_a_ball_audit(screen):
    """The steps a front end sees, derived by hand: dps 30 doubling to max_dps 120 is at most 3 rounds
    (30, 60, 120); Q1 has 2 outputs x 2 ordered secret pairs = 4 pairs; with the screen 1 leads (its estimate
    is more than 1e-3 above the others'), the other 3 are settled by the float screen, 0 are left for arb."""
    from rldp_verify.core import progress

    rec = ProgressRecorder()
    with progress.reporting(rec):
        r = audit(Mechanism.from_matrix(Q1, 2, 2), "1", ball=_ball(), dps=30, max_dps=120, screen=screen)
    assert r.verdict == "PASS" and r.dps == 30
    pre = "[30 digits, precision round 1 of at most 3] "
    if screen:
        want = [(pre + "float screen tables", None, ""),
                (pre + "leading (y, s, s') pairs certified in arb (of 4 pairs)", 1, "pairs"),
                (pre + "float screen of the other 3 (y, s, s') pairs", None, ""),
                (pre + "(y, s, s') pairs the screen did not settle, certified in arb", 0, "pairs"),
                (pre + "exact audit at P-hat (a witness in F)", None, "")]
        assert rec.updates == [(0, None)]
    else:
        want = [(pre + "float screen tables", None, ""),
                (pre + "(y, s, s') pairs certified in arb (no screen)", 4, "pairs"),
                (pre + "exact audit at P-hat (a witness in F)", None, "")]
        assert rec.updates == [(0, None), (1, None), (2, None), (3, None)]
    assert rec.steps == want


def test_json_path_with_normalize_and_distribution_errors(tmp_path):
    """A mechanism file whose columns sum to 2 (GRR^log 3 on 4 inputs, doubled): normalize=True rescales it
    (the ratios, hence LDP's e^eps = 3, are unchanged), without it the audit stops on column 0. A bad
    distribution table is named as such in the one-line error."""
    import json

    from rldp_verify.core.errors import InputError

    doc = Mechanism.from_matrix(grr_matrix(4, F(3)), 2, 2).to_json()
    doc["matrix"] = [[str(2 * F(v)) for v in row] for row in doc["matrix"]]
    path = tmp_path / "grr2.json"
    path.write_text(json.dumps(doc))
    for p in (path, str(path)):
        r = audit(p, "log(3)", ldp=True, normalize=True)
        assert (r.verdict, r.ratio_upper) == ("PASS", F(3))
        assert any(n.startswith("normalized: 4 columns rescaled to sum to 1") for n in r.notes)
    with pytest.raises(InputError, match=r"^column 0 sums to 2"):
        audit(path, "log(3)", ldp=True)
    with pytest.raises(InputError, match=r"^distribution\[0\]\[1\] = -1/2 is negative$"):
        audit(Q1, "1", distribution=[[F(1, 2), F(-1, 2)], [F(1, 2), F(1, 2)]])


@pytest.mark.parametrize("ph", [[[0, 0], [4, 7]], [[3, 5], [0, 0]]], ids=["s0-empty", "s1-empty"])
def test_screen_with_a_zero_mass_secret(ph):
    """P^_s = 0 (the conditional of s unconstrained): the screen's tables, estimates and certify_float run without a
    NumPy warning, reject r below each pair's closed-form sup and accept it with 1 % of room."""
    import warnings

    ball = RenyiBall.from_radius(ph, 2, B)
    Qf = np.array([[float(v) for v in row] for row in Q2])
    phf = np.array([[float(v) for v in row] for row in ball.phat])
    Phi = float(2 * (np.exp(0.05) - 1))
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        tab = build_tables(Qf, phf, 2.0, Phi)
        estimates(tab)
        for p in PAIRS:
            rho = float(pair_ratio(Q2, ph, B, *p))
            pairs = np.array([p])
            assert not certify_float(tab, Qf, phf, 2.0, Phi, rho * (1 - 1e-6), pairs).any()
            assert certify_float(tab, Qf, phf, 2.0, Phi, rho * 1.01, pairs).all()


def test_alpha_half_face_witness():
    """alpha = 1/2, B = 1/2: the ball contains P with P_{U|s=0} on the face u = 1 (where q2 = Q[0|s=0, .] = (3/5, 1/5)
    is minimal) and P_{U|s=1} = P^_{U|s=1}: D_{1/2} of that face is -log(5/8), its budget P^_0 (1 - 5/8) = 3/19
    <= phi(B) = 1 - e^{-1/2}. Its ratio (4/11 1/2 + 7/11 3/10) / (1/5) = 41/22 is the witnessed lo (up to the
    1e-15 pull towards P^); the faces with R1 = e_{u=0} cost 7/19 (+ 3/19), more than phi(B)."""
    ball = RenyiBall.from_radius(PH, F(1, 2), F(1, 2))
    r = audit(Mechanism.from_matrix(Q2, 2, 2), "1", ball=ball, dps=30)
    assert F(41, 22) * (1 - F(1, 10**12)) <= r.ratio_lower <= r.ratio_upper  # the grid witness may beat the face
    assert ball.contains(r.witness, dps=40) is True
    assert mp(r.ratio_upper) >= grid_ratio_half(Q2, PH, F(1, 2), 0, 1, 0, n=50) * (1 - SLACK)


def test_screen_tables_stay_inside_the_simplex_bounds():
    """For every budget (including Phi = inf, phi(B) overflowing float64) the screen's max and min of <q, R> over a
    ball lie between min_u q and max_u q, and building them raises no NumPy warning."""
    import warnings

    Qf = np.array([[float(v) for v in row] for row in Q2])
    phf = np.array([[3 / 19, 5 / 19], [4 / 19, 7 / 19]])
    q = Qf.reshape(2, 2, 2)
    for Phi in (0.0, float(2 * (np.exp(0.05) - 1)), 50.0, np.inf):
        with warnings.catch_warnings():
            warnings.simplefilter("error")
            tab = build_tables(Qf, phf, 2.0, Phi)
        lo, hi = q.min(axis=2)[:, :, None], q.max(axis=2)[:, :, None]
        assert np.all(hi + 1e-12 >= tab.U) and np.all(lo - 1e-12 <= tab.L)
        assert np.all(lo - 1e-12 <= tab.U) and np.all(hi + 1e-12 >= tab.L)
        assert np.all(np.isfinite(tab.U)) and np.all(np.isfinite(tab.L))


def test_pair_ratio_of_conventions():
    """PairProblem.ratio_of, the conventions of 003 eq. (32): x/0 = inf for x > 0, 0/0 = 1, and None when P puts no
    mass on s1 or s2 (no conditional); otherwise the exact ratio of the conditionals."""
    rows = [(F(1, 2), F(0)), (F(0), F(1, 4))]              # q1 = Q[y|s=0, .], q2 = Q[y|s=1, .]
    prob = PairProblem(_ball(), rows, 0, 0, 1)
    assert prob.ratio_of([[F(1, 2), F(0)], [F(1, 2), F(0)]]) == float("inf")      # (1/2) / 0
    assert prob.ratio_of([[F(0), F(1, 2)], [F(1, 2), F(0)]]) == 1                 # 0 / 0
    assert prob.ratio_of([[F(1, 4), F(1, 4)], [F(1, 4), F(1, 4)]]) == 2           # (1/4) / (1/8)
    assert prob.ratio_of([[F(0), F(0)], [F(1, 2), F(1, 2)]]) is None
