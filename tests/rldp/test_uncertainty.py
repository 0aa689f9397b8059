"""rldp_verify.rldp.uncertainty: Rényi balls, Theorem 1, xi-/xi+, L_{u|s}, rad_s (000_aca93ed29ea857ee.txt, Sec. 4)."""

from fractions import Fraction

import mpmath
import numpy as np
import pytest
from hypothesis import assume, example, given, settings
from hypothesis import strategies as st

from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.errors import InputError
from rldp_verify.rldp.uncertainty import RenyiBall, SimplexBall, confidence_radius, read_table
from rldp_verify.rldp.xi_interval import (
    binary_renyi,
    phi,
    t_interval,
    t_interval_alpha2,
    t_interval_certified,
    xi_minus,
    xi_plus,
)
from tests.strategies import alphas, radii, rhos, tables

F = Fraction
DPS = 30
TOL = mpmath.mpf(10) ** -(DPS - 8)
EX = "0.07,0.10;0.26,0.57"


@pytest.fixture(autouse=True)
def _precision():
    """Compare values at a precision above the one they were computed at (no rounding in the test itself)."""
    with mpmath.workdps(DPS + 30):
        yield


@given(rhos, alphas, radii)
@settings(max_examples=80)
@example(F(1, 2), F(1, 2), F(1))          # alpha < 1: phi stays finite, xi- = 0, xi+ = 1/rho
@example(F(1, 10), F(2), F(1))            # xi+ beyond the printed domain (1 - rho)^-1
@example(F(1, 19), F(1), F(3))            # found by hypothesis: t- ~ 3.5e-27, an interior root next to 0
@example(F(53, 59), F(1, 4), F(1, 5))     # found by hypothesis: t+ = 1 exactly (xi+ = 1/rho)
@example(F(41, 44), F(1), F(3))            # found by hypothesis: t+ = 1 - 2e-21, phi steep at xi+
@example(F(87, 89), F(1), F(3))            # found by hypothesis: t+ = 1 - 1e-58 rounds to 1
def test_xi_bracket_and_roots(rho, alpha, B):
    assume(0 < rho < 1)
    with mpmath.workdps(DPS):
        xm, xp = xi_minus(rho, alpha, B, dps=DPS), xi_plus(rho, alpha, B, dps=DPS)
        assert xm <= 1 + TOL and 1 - TOL <= xp <= 1 / mpmath.mpf(rho.numerator) * rho.denominator + TOL
        eps = mpmath.mpf(10) ** -(DPS - 12)
        tm, tp = t_interval(rho, alpha, B, dps=DPS)
        for x, t, inward in ((xm, tm, 1 + eps), (xp, tp, 1 - eps)):
            if 0 < t < 1 and B > 0:
                # a verified root: phi >= 0 at the returned (outward) point, or a relative eps outward of it
                # where phi is too steep for a dps-digit number (t+ = 1 - 2e-21: dphi/dt ~ 3e19), and
                # phi <= 0 a relative eps inside
                out = x / inward if inward > 1 else min(x / inward, mpmath.mpf(rho.denominator) / rho.numerator)
                assert phi(rho, x, alpha, B) >= -eps or phi(rho, out, alpha, B) >= 0
                assert phi(rho, x * inward, alpha, B) <= 0
            elif B > 0:
                # an end of the domain (alpha < 1 or t+ = 1): phi <= 0 there, no root inside -- or the root
                # lies within a relative eps of the end (t+ = 1 - 1e-58 is 1 at dps digits, rounded outward)
                assert phi(rho, x, alpha, B) <= 0 or phi(rho, x * inward, alpha, B) <= 0


@given(rhos, radii)
@settings(max_examples=60)
@example(F(1, 2), F(0))                   # found by hypothesis: B = 0 (double root) lost half the digits
def test_lemma1_closed_form_matches_root_finding(rho, B):
    a, b = t_interval(rho, 2, B, dps=DPS), t_interval_alpha2(rho, B, dps=DPS)
    assert abs(a[0] - b[0]) < TOL and abs(a[1] - b[1]) < TOL


@given(rhos, alphas, radii)
@settings(max_examples=40)
@example(F(0), F(1, 4), F(0))             # found by hypothesis
@example(F(1, 3), F(1, 4), F(0))          # found by hypothesis
def test_certified_t_interval_is_outward(rho, alpha, B):
    tm, tp = t_interval(rho, alpha, B, dps=DPS)
    with mpmath.workdps(DPS):
        from rldp_verify.core.rigorous import arb_exact, arb_precision

        with arb_precision(DPS):
            lo, hi = t_interval_certified(rho, alpha, arb_exact(B), dps=DPS)
    assert lo <= F(mpmath.nstr(tm + TOL, 40)) and hi >= F(mpmath.nstr(tp - TOL, 40)) and 0 <= lo <= hi <= 1


def test_theorem1_radius_values():
    b = RenyiBall.from_radius(EX, 2, "0.0752")
    with mpmath.workdps(30):
        B1 = 2 * mpmath.log((mpmath.exp(mpmath.mpf("0.0752") / 2) - mpmath.mpf("0.83")) / mpmath.mpf("0.17"))
        assert abs(b.conditional_radius(0, dps=30) - B1) < mpmath.mpf(10) ** -25
    b1 = RenyiBall.from_radius(EX, 1, "0.0752")
    assert abs(float(b1.conditional_radius(0)) - 0.0752 / 0.17) < 1e-14


def test_theorem1_infinite_cases():
    # alpha < 1 and e^{(alpha-1)B/alpha} <= 1 - P^_s: the whole simplex
    b = RenyiBall.from_radius([[1, 1], [1, 1]], "1/2", 2)
    assert b.conditional_radius(0) == mpmath.inf and b.conditional_radius_arb(0) is None
    assert b.lower_value(0, 0) == 0 and b.lower_certified(0, 0) == 0
    # P^_s = 0: whole simplex (for B > 0)
    z = RenyiBall.from_radius([[0, 0], [1, 1]], 2, "0.1")
    assert z.conditional_radius(0) == mpmath.inf and z.rad_certified(0) == 2
    inf = RenyiBall.from_radius(EX, 2, "inf")
    # the whole simplex: sup ||R - c||_1 = 2 (1 - min_u c_u)
    assert inf.conditional_radius(1) == mpmath.inf
    assert abs(inf.rad_value(1) - 2 * (1 - mpmath.mpf(26) / 83)) < mpmath.mpf(10) ** -40


@given(tables(), alphas, radii, st.randoms(use_true_random=False))
@settings(max_examples=25)
def test_lift_of_projected_ball_lies_in_F(phat, alpha, B, rnd):
    """Lemma A2/A4: for R in the B_s-ball around P^_{U|s}, the lift P has P_{U|s} = R and D(P^||P) <= B."""
    ball = RenyiBall.from_radius(phat, alpha, B)
    s = rnd.randrange(len(phat))
    with mpmath.workdps(DPS):
        Bs = ball.conditional_radius(s, dps=DPS)
        assume(Bs != mpmath.inf)
        c = [mpmath.mpf(v.numerator) / v.denominator for v in ball.conditional(s)]
        # R = the lower end of a coordinate interval (a boundary point of the ball, Lemma A5)
        u = rnd.randrange(len(c))
        t = t_interval(ball.conditional(s)[u], alpha, Bs, dps=DPS)[0]
        rest = (1 - t) / (1 - c[u]) if c[u] < 1 else mpmath.mpf(0)
        R = [t if i == u else rest * v for i, v in enumerate(c)]
        if c[u] == 1:
            R = [t if i == u else (1 - t) / (len(c) - 1) for i in range(len(c))]
        a = mpmath.mpf(alpha.numerator) / alpha.denominator
        ps = mpmath.mpf(sum(phat[s]).numerator) / sum(phat[s]).denominator
        if alpha == 1:
            gamma, scale = ps, mpmath.mpf(1)
        else:
            cst = mpmath.exp((a - 1) * B / a)
            gamma, scale = 1 - (1 - ps) / cst, 1 / cst
        P = [gamma * R[j] if i == s else scale * v for i, r in enumerate(phat) for j, v in enumerate(r)]
        assert abs(sum(P) - 1) < TOL
        assert renyi_divergence([v for r in phat for v in r], P, alpha, dps=DPS) <= B + mpmath.mpf(10) ** -(DPS - 12)


@given(tables(), alphas, radii, st.randoms(use_true_random=False))
@settings(max_examples=25)
@example([[F(0), F(1)]], F(1, 4), F(0), __import__("random").Random(0))   # found by hypothesis: F = {P^}
def test_points_of_F_project_into_the_ball(phat, alpha, B, rnd):
    """Lemma A1/A3: P in F (on the segment from P^ towards a random point) has D(P^_{U|s}||P_{U|s}) <= B_s."""
    ball = RenyiBall.from_radius(phat, alpha, B)
    fl = [v for r in phat for v in r]
    w = [rnd.randint(0, 9) for _ in fl]
    assume(sum(w) > 0)
    Q = [F(x, sum(w)) for x in w]
    lam = F(1)
    while ball.contains([(1 - lam) * a + lam * b for a, b in zip(fl, Q, strict=True)], dps=20) is not True and lam > F(1, 2**30):
        lam /= 4
    P = [(1 - lam) * a + lam * b for a, b in zip(fl, Q, strict=True)]
    if ball.contains(P, dps=20) is not True:
        P = fl
    a2 = len(phat[0])
    for s in range(len(phat)):
        row = P[s * a2:(s + 1) * a2]
        if sum(phat[s]) == 0 or sum(row) == 0:
            continue
        Bs = ball.conditional_radius(s, dps=DPS)
        D = renyi_divergence(list(ball.conditional(s)), [x / sum(row) for x in row], alpha, dps=DPS)
        assert Bs + mpmath.mpf(10) ** -(DPS - 10) >= D


@given(tables(), alphas, radii)
@settings(max_examples=25)
@example([[F(1, 3), F(2, 3)], [F(0), F(0)]], F(2), F(0))   # B = 0: B_s rounded to -7e-42 before the clamp
def test_lower_below_center_and_certified_order(phat, alpha, B):
    ball = RenyiBall.from_radius(phat, alpha, B)
    for s in range(len(phat)):
        if sum(phat[s]) == 0:
            continue
        c = ball.conditional(s)
        for u in range(len(c)):
            L = ball.lower_value(u, s, dps=DPS)
            assert mpmath.mpf(c[u].numerator) / c[u].denominator + TOL >= L
            lc = ball.lower_certified(u, s, dps=DPS)
            assert mpmath.mpf(lc.numerator) / lc.denominator <= L + TOL
        r = ball.rad_value(s, dps=DPS)
        assert 0 <= r <= 2 + TOL
        rc = ball.rad_certified(s, dps=DPS)
        assert mpmath.mpf(rc.numerator) / rc.denominator >= r - TOL


@given(tables(max_s=2, max_u=3), alphas)
@settings(max_examples=12)
def test_monotone_in_radius(phat, alpha):
    prev = None
    for B in (F(0), F(1, 100), F(1, 10), F(1)):
        ball = RenyiBall.from_radius(phat, alpha, B)
        cur = [(ball.lower_value(0, s, dps=20), ball.rad_value(s, dps=20)) for s in range(len(phat))
               if sum(phat[s]) > 0]
        if prev is not None:
            for (l0, r0), (l1, r1) in zip(prev, cur, strict=True):
                assert l1 <= l0 + TOL and r1 >= r0 - TOL
        prev = cur


def test_rad_search_matches_exhaustive():
    c = tuple(F(k, 78) for k in range(1, 13))    # 12 outcomes, 76 distinct sums: the unimodal search is used
    for alpha in (F(1, 2), F(2), F(3)):
        b = SimplexBall(c, alpha, F(1, 10))
        assert abs(b.l1_radius(dps=20) - b.l1_radius(dps=20, exhaustive=True)) < mpmath.mpf(10) ** -15


def test_confidence_radius_example1():
    b = RenyiBall.from_confidence(EX, 2, "0.95", 100, dps=40)
    assert float(b.radius_value) == pytest.approx(0.0752440856339434, abs=1e-15)
    assert b.radius >= F(str(mpmath.nstr(b.radius_value, 30))) - F(1, 10**29)
    with mpmath.workdps(40):
        from rldp_verify.core.stats import chi2_quantile

        assert abs(confidence_radius(1, "0.95", 100, 4, dps=40) - chi2_quantile("0.95", 3, dps=40) / 200) \
            < mpmath.mpf(10) ** -35


def test_counts_are_normalised():
    a = RenyiBall.from_radius("7,10;26,57", 2, "0.1")
    b = RenyiBall.from_radius(EX, 2, "0.1")
    assert a.phat == b.phat


@pytest.mark.parametrize("phat", ["0.5,0.6;0.1,0.1", "0.5,-0.1;0.3,0.3", "nan,0.5;0.25,0.25", "0.5,0.5;0.5",
                                  "a,b;c,d", "", "0.5,0.5;0,0.5,0"])
def test_bad_tables(phat):
    with pytest.raises(InputError):
        RenyiBall.from_radius(phat, 2, "0.1")


@pytest.mark.parametrize("alpha,radius", [(0, "0.1"), ("-1", "0.1"), (2, "-0.1"), (2, "nan"), ("x", "0.1")])
def test_bad_alpha_radius(alpha, radius):
    with pytest.raises(InputError):
        RenyiBall.from_radius(EX, alpha, radius)


@pytest.mark.parametrize("conf,n", [("0", 100), ("1", 100), ("1.2", 100), ("0.95", 0), ("0.95", "1.5"),
                                    ("0.95", "abc"), ("0.95", -3), ("0.95", True)])
def test_bad_confidence(conf, n):
    with pytest.raises(InputError):
        RenyiBall.from_confidence(EX, 2, conf, n)


def test_public_api_names():
    """Backward compatibility for the mechanisms and audit modules."""
    b = RenyiBall.from_radius(EX, 2, "0.0752")
    for name in ("lower_value", "lower_certified", "rad_value", "rad_certified", "conditional_radius",
                 "conditional_radius_arb", "contains", "conditional_ball", "statistics"):
        assert callable(getattr(b, name))
    assert b.contains([["0.07", "0.10"], ["0.26", "0.57"]]) is True
    assert b.contains([["0.5", "0"], ["0.26", "0.24"]]) is False
    assert binary_renyi(F(1, 2), F(1, 2), 2) == 0


# error messages word for word and the confidence radius of every order (issue 9: generic mutants) ----------------

@pytest.mark.parametrize("call, message", [
    (lambda: read_table([[True, 1]]), "phat[0][0] = True is not a number"),
    (lambda: read_table([["x", 1]]), "phat[0][0] = 'x' is not a number"),
    (lambda: read_table([[float("nan"), 1]]), "phat[0][0] = nan is not a finite number"),
    (lambda: read_table([[mpmath.inf, 1]]), "phat[0][0] = +inf is not a finite number"),
    (lambda: read_table([[1, 2], [3]]), "phat row 1 has 1 entries, row 0 has 2"),
    (lambda: read_table([]), "phat is empty"),
    (lambda: read_table([[]]), "phat is empty"),
    (lambda: read_table([[1, -2]]), "phat[0][1] = -2 is negative"),
    (lambda: read_table([[0, 0]]), "phat has total mass 0"),
    (lambda: read_table(5), "phat must be a table (rows of numbers), got 5"),
    (lambda: read_table([[0.5, 0.6]]), "phat sums to 1.1, not 1 (give probabilities summing to 1, or counts)"),
    (lambda: read_table([[1, 1]], name="dist", normalize_counts=False),
     "dist sums to 2.0, not 1 (give probabilities summing to 1, or counts)"),
    (lambda: RenyiBall.from_radius([[3, 5], [4, 7]], 0, 1), "alpha must be in (0, inf), got alpha=0"),
    (lambda: RenyiBall.from_radius([[3, 5], [4, 7]], 2, -1), "radius must be >= 0, got radius=-1"),
    (lambda: RenyiBall.from_confidence([[3, 5], [4, 7]], 0, "0.9", 10), "alpha must be in (0, inf), got alpha=0"),
    (lambda: RenyiBall.from_confidence([[3, 5], [4, 7]], 2, "1.5", 10), "confidence must be in (0, 1), got confidence=3/2"),
    (lambda: RenyiBall.from_confidence([[3, 5], [4, 7]], 2, "0.95", 0), "the sample size must be a positive integer, got 0"),
    (lambda: RenyiBall.from_radius([[0, 0], [1, 1]], 2, 1).conditional(0),
     "P^_s = 0 for s = 0: the conditional distribution is undefined"),
    (lambda: confidence_radius(2, "0.95", 100, 1), "the alphabet needs at least 2 elements, got 1"),
])
def test_bad_input_messages_name_the_value(call, message):
    with pytest.raises(InputError) as exc:
        call()
    assert str(exc.value) == message


def test_read_table_exact_values():
    mpf_row = [[mpmath.mpf(0.25), mpmath.mpf(0.75)]]
    assert read_table(mpf_row, normalize_counts=False) == ((F(1, 4), F(3, 4)),)         # the mpf's exact value
    assert read_table([[mpmath.mpf(3), mpmath.mpf(1)]]) == ((F(3, 4), F(1, 4)),)        # exponent >= 0
    assert read_table([[np.float64(0.1), 0.9]]) == ((F(1, 10), F(9, 10)),)               # shortest decimal of a float
    assert read_table([[1, 3]]) == ((F(1, 4), F(3, 4)),)                                  # counts normalised
    assert read_table([["1/3", "2/3"]], normalize_counts=False) == ((F(1, 3), F(2, 3)),)


def test_confidence_radius_every_order():
    """alpha = 2 is eq. (11); alpha = 1: q/(2n); other alpha: log(1 + alpha(alpha-1) q/(2n))/(alpha-1)."""
    from rldp_verify.core.stats import chi2_quantile

    with mpmath.workdps(40):
        q = chi2_quantile("0.95", 3, dps=40)
        assert abs(confidence_radius(2, "0.95", 100, 4, dps=30) - mpmath.log(1 + q / 100)) < mpmath.mpf(10) ** -28
        assert abs(confidence_radius(1, "0.95", 100, 4, dps=30) - q / 200) < mpmath.mpf(10) ** -28
        assert abs(confidence_radius(3, "0.95", 100, 4, dps=30) - mpmath.log(1 + 6 * q / 200) / 2) < mpmath.mpf(10) ** -28
        half = F(1, 2)
        ref = mpmath.log(1 + mpmath.mpf(-0.25) * q / 200) / mpmath.mpf(-0.5)
        assert abs(confidence_radius(half, "0.95", 100, 4, dps=30) - ref) < mpmath.mpf(10) ** -28
    assert RenyiBall.from_radius([[3, 5], [4, 7]], 2, "inf").radius == mpmath.inf
    assert RenyiBall.from_radius([[3, 5], [4, 7]], 2, "Infinity").radius == mpmath.inf


def _arb_radius(B):
    import flint

    from rldp_verify.core.rigorous import arb_exact, arb_precision

    with arb_precision(40):
        return arb_exact(B) + flint.arb(0, flint.arb(10) ** -35)   # a thin ball around B


@pytest.mark.parametrize("center", [
    (F(1, 6), F(1, 3), F(1, 2)),                        # few sums: every sum is bounded
    tuple(F(k, 78) for k in range(1, 13)),              # 76 distinct sums: the certified window is used
])
@pytest.mark.parametrize("alpha", [F(1, 2), F(1), F(2)])
def test_certified_l1_radius_is_tight_and_above(center, alpha):
    """l1_radius_certified is >= sup ||R - center||_1 and within 1e-12 of it (not merely a valid upper bound:
    2 is always valid), both with few sums and with the certified window of the unimodal search."""
    b = SimplexBall(center, alpha, F(1, 10))
    cert = b.l1_radius_certified(_arb_radius(F(1, 10)), dps=40)
    with mpmath.workdps(40):
        val = b.l1_radius(dps=40, exhaustive=True)
        assert isinstance(cert, Fraction) and cert < 2
        c = mpmath.mpf(cert.numerator) / cert.denominator
        assert c >= val - mpmath.mpf(10) ** -30
        assert c - val < mpmath.mpf(10) ** -12     # the outward steps of t_interval_certified: ~1e-17
    assert b.l1_radius_certified(None, dps=40) == 2 * (1 - min(center))             # radius inf: t+ = 1 everywhere
    assert SimplexBall(tuple(F(1, 21) for _ in range(21)), alpha, F(1, 10)).l1_radius_certified(
        _arb_radius(F(1, 10)), dps=40) == 2                                            # |U| > max_size


def test_coordinate_interval_is_lemma_a5():
    from rldp_verify.rldp.xi_interval import t_interval

    b = SimplexBall((F(1, 5), F(4, 5)), F(2), F(1, 10))
    for u in (0, 1):
        lo, hi = b.coordinate_interval(u, dps=30)
        assert (lo, hi) == t_interval(b.center[u], F(2), F(1, 10), dps=30)
        assert lo < mpmath.mpf(b.center[u].numerator) / b.center[u].denominator < hi


@pytest.mark.parametrize("alpha", [F(1, 2), F(1), F(3)])
def test_from_confidence_every_order(alpha):
    b = RenyiBall.from_confidence(EX, alpha, "0.95", 100, dps=40)
    with mpmath.workdps(40):
        ref = confidence_radius(alpha, "0.95", 100, 4, dps=40)
        assert abs(b.radius_value - ref) < mpmath.mpf(10) ** -30
        assert b.radius >= F(str(mpmath.nstr(ref, 35))) - F(1, 10 ** 33)      # radius rounded up


def test_ball_divergence_at_the_requested_precision():
    b = RenyiBall.from_radius([[3, 5], [4, 7]], 2, "1/10")
    p = [[F(1, 4), F(1, 4)], [F(1, 4), F(1, 4)]]
    got = [b.divergence(p, dps=50), b.divergence([F(1, 4)] * 4, dps=50)]   # at the default mpmath precision
    assert b.divergence("1/4,1/4;1/4,1/4", dps=50) == got[0]                   # a table string
    with mpmath.workdps(60):
        ref = renyi_divergence([F(3, 19), F(5, 19), F(4, 19), F(7, 19)], [F(1, 4)] * 4, 2, dps=60)
        assert all(abs(g - ref) < mpmath.mpf(10) ** -45 for g in got)
