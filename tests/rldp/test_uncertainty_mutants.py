"""rldp_verify.rldp.uncertainty: closed forms, boundary cases and exact messages (issue 9, generic mutants).

Every expected value is computed here independently of the engine: Theorem 1's B_s and the alpha = 2
quadratic for t-/t+ (000_aca93ed29ea857ee.txt, Sec. 4, Lemma 1) evaluated with mpmath at a higher
precision, scipy's chi2 quantile for eq. (9)/(11), or a hand computation given in the comment.
"""

import math
from fractions import Fraction

import mpmath
import numpy as np
import pytest
from scipy.stats import chi2

from rldp_verify.core.errors import InputError
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.uncertainty import RenyiBall, SimplexBall, confidence_radius, confidence_radius_upper, read_table

F = Fraction
EX = [[F(7, 100), F(10, 100)], [F(26, 100), F(57, 100)]]          # Example 1: P^_s = 0.17, 0.83
T23 = [[F(1, 10), F(2, 10), F(1, 10)], [F(3, 10), F(1, 10), F(2, 10)]]   # 2 x 3: |X| = 6, P^_s = 2/5, 3/5


@pytest.fixture(autouse=True)
def _precision():
    with mpmath.workdps(90):
        yield


def mp(q):
    return mpmath.mpf(q.numerator) / q.denominator


def bs_closed(B, alpha, ps):
    """Theorem 1 (eq. (23)) at the ambient (90-digit) precision; inf for the whole simplex."""
    B, a, ps = mp(F(B)), mp(F(alpha)), mp(F(ps))
    if a == 1:
        return B / ps
    arg = (mpmath.exp((a - 1) * B / a) - (1 - ps)) / ps
    return mpmath.inf if arg <= 0 else a / (a - 1) * mpmath.log(arg)


def t2(rho, Bs):
    """(t-, t+) for alpha = 2 by hand: D_2(Bern rho||Bern t) = log(rho^2/t + (1-rho)^2/(1-t)) = Bs is the
    quadratic e^Bs t^2 - (e^Bs - 1 + 2 rho) t + rho^2 = 0 (roots clipped to [0, 1])."""
    r, E = mp(F(rho)), mpmath.exp(Bs)
    b = E - 1 + 2 * r
    d = mpmath.sqrt(b * b - 4 * E * r * r)
    return max((b - d) / (2 * E), mpmath.mpf(0)), min((b + d) / (2 * E), mpmath.mpf(1))


# ---------------------------------------------------------------- eq. (9)/(11): the confidence radius


@pytest.mark.parametrize("alpha, n, a", [(F(2), 100, 2), (F(2), 1, 6), (F(1), 50, 6), (F(3), 10, 3),
                                         (F(1, 2), 100, 6), (F(1, 2), 2, 4)])
def test_confidence_radius_against_scipy_quantile(alpha, n, a):
    q = mpmath.mpf(chi2.ppf(0.95, a - 1))     # a second implementation of the quantile (double precision)
    al = mp(alpha)
    ref = q / (2 * n) if alpha == 1 else mpmath.log(1 + al * (al - 1) * q / (2 * n)) / (al - 1)
    val = confidence_radius(alpha, "0.95", n, a, dps=40)
    assert abs(val - ref) < 1e-12 * max(1, ref)
    up = confidence_radius_upper(alpha, "0.95", n, a, dps=30)
    # rounded up: >= the value (computed at 40 digits, so up to 1e-35), and tight
    assert isinstance(up, Fraction) and mp(up) >= val - mpmath.mpf(10) ** -35 and mp(up) - val < mpmath.mpf(10) ** -20


def test_confidence_radius_infinite_when_the_log_argument_is_negative():
    # alpha = 1/2, n = 1, 3 degrees of freedom: 1 + (1/2)(-1/2) q/2 = 1 - q/8 with q(0.99) = 11.34 > 8
    assert confidence_radius(F(1, 2), "0.99", 1, 4) == mpmath.inf
    assert confidence_radius_upper(F(1, 2), "0.99", 1, 4, dps=30) is None
    b = RenyiBall.from_confidence(EX, "1/2", "0.99", 1, dps=30)
    assert b.radius == math.inf and b.radius_value == mpmath.inf
    assert b.conditional_radius(0) == mpmath.inf and b.rad_certified(1) == 2 * (1 - F(26, 83))


def test_sample_size_values():
    q = mpmath.mpf(chi2.ppf(0.95, 3))
    assert abs(confidence_radius(2, "0.95", 1, 4, dps=30) - mpmath.log(1 + q)) < 1e-12          # n = 1 is valid
    three = mpmath.log(1 + q / 3)
    assert abs(confidence_radius(2, "0.95", F(3), 4, dps=30) - three) < 1e-12              # an integral Fraction
    assert abs(confidence_radius(2, "0.95", "3", 4, dps=30) - three) < 1e-12


@pytest.mark.parametrize("n, shown", [(2.0, "2.0"), (True, "True"), ("1.5", "'1.5'"), (None, "None"),
                                      (0, "0"), (-2, "-2"), ([3], "[3]")])
def test_bad_sample_size_message(n, shown):
    for call in (lambda: confidence_radius(2, "0.95", n, 4), lambda: confidence_radius_upper(2, "0.95", n, 4)):
        with pytest.raises(InputError) as exc:
            call()
        assert str(exc.value) == f"the sample size must be a positive integer, got {shown}"


def test_two_element_alphabet_is_valid():
    q = mpmath.mpf(chi2.ppf(0.9, 1))
    assert abs(confidence_radius(2, "0.9", 10, 2) - mpmath.log(1 + q / 10)) < 1e-12


# ---------------------------------------------------------------- reading tables and numbers


def test_read_number_paths():
    assert read_table([[np.float32(0.25), np.float32(0.75)]]) == ((F(1, 4), F(3, 4)),)   # np.floating, not float
    with pytest.raises(InputError) as exc:
        read_table([[F(1, 2), np.float32("nan")]])
    assert str(exc.value) == "phat[0][1] = nan is not a finite number"
    with pytest.raises(InputError) as exc:
        read_table([[F(1, 2), mpmath.mpf("nan")]])
    assert str(exc.value) == "phat[0][1] = nan is not a finite number"
    with pytest.raises(InputError) as exc:
        read_table([[F(1, 2), float("-inf")]])
    assert str(exc.value) == "phat[0][1] = -inf is not a finite number"
    assert read_table([[mpmath.mpf(0.375), mpmath.mpf(5) / 8]]) == ((F(3, 8), F(5, 8)),)
    assert read_table([[mpmath.mpf(2), mpmath.mpf(6)]]) == ((F(1, 4), F(3, 4)),)      # mpf counts, exponent > 0


def test_read_table_string_and_mixed_counts():
    assert read_table("1, 3 ; 2, 4") == ((F(1, 10), F(3, 10)), (F(2, 10), F(4, 10)))
    assert read_table("1/4,1/4;1/4,1/4", normalize_counts=False) == ((F(1, 4),) * 2,) * 2
    with pytest.raises(InputError) as exc:          # not all integers: not counts
        read_table([[F(1, 2), 1]])
    assert str(exc.value) == "phat sums to 1.5, not 1 (give probabilities summing to 1, or counts)"
    with pytest.raises(InputError) as exc:
        read_table([[1, 2]], name="Q", normalize_counts=False)
    assert str(exc.value) == "Q sums to 3.0, not 1 (give probabilities summing to 1, or counts)"


# ---------------------------------------------------------------- construction


def test_from_radius_fields():
    b = RenyiBall.from_radius([[1, 3], [2, 4]], "3/2", "1/10")
    assert b.phat == ((F(1, 10), F(3, 10)), (F(2, 10), F(4, 10))) and b.alpha == F(3, 2)
    assert b.radius == F(1, 10) and b.radius_value == F(1, 10) and b.provenance == "given radius"
    assert RenyiBall.from_radius(EX, 2, 0).radius == 0                     # radius 0 is valid
    assert RenyiBall.from_radius(EX, 2, " INF ").radius == math.inf
    assert RenyiBall.from_radius(EX, 2, math.inf).radius == math.inf
    with pytest.raises(InputError) as exc:
        RenyiBall.from_radius(EX, "-1/2", 1)
    assert str(exc.value) == "alpha must be in (0, inf), got alpha=-1/2"
    with pytest.raises(InputError) as exc:
        RenyiBall.from_radius(EX, 2, "-1/3")
    assert str(exc.value) == "radius must be >= 0, got radius=-1/3"


def test_from_confidence_uses_the_whole_alphabet():
    # |X| = 2 * 3 = 6 cells: chi2 with 5 degrees of freedom (2 + 3 - 1 = 4 would be wrong)
    b = RenyiBall.from_confidence(T23, 2, "0.95", 100, dps=30)
    q = mpmath.mpf(chi2.ppf(0.95, 5))
    assert abs(b.radius_value - mpmath.log(1 + q / 100)) < 1e-12
    assert isinstance(b.radius, Fraction) and b.radius >= F(mpmath.nstr(b.radius_value, 40)) - F(1, 10 ** 28)
    assert b.radius - F(mpmath.nstr(b.radius_value, 40)) < F(1, 10 ** 20)
    assert b.provenance == ("confidence 19/20 with n = 100 samples, chi2 with 5 degrees of freedom "
                            "(eq. (9)/(11); radius rounded up)")
    assert b.alpha == 2 and b.phat == tuple(tuple(r) for r in T23)


@pytest.mark.parametrize("alpha, conf, msg", [
    ("-1", "0.9", "alpha must be in (0, inf), got alpha=-1"),
    (2, "0", "confidence must be in (0, 1), got confidence=0"),
    (2, "1", "confidence must be in (0, 1), got confidence=1"),
])
def test_from_confidence_messages(alpha, conf, msg):
    with pytest.raises(InputError) as exc:
        RenyiBall.from_confidence(EX, alpha, conf, 10, dps=30)
    assert str(exc.value) == msg


def test_shape_flat_marginal_conditional():
    b = RenyiBall.from_radius(T23, 2, "1/10")
    assert (b.sensitive_size, b.public_size) == (2, 3)
    assert b.flat() == [F(1, 10), F(2, 10), F(1, 10), F(3, 10), F(1, 10), F(2, 10)]
    assert (b.marginal(0), b.marginal(1)) == (F(2, 5), F(3, 5))
    assert b.conditional(1) == (F(1, 2), F(1, 6), F(1, 3))


def test_divergence_of_a_string_is_not_normalised():
    b = RenyiBall.from_radius(EX, 2, "1/10")
    with pytest.raises(InputError) as exc:
        b.divergence("1,1;1,1")
    assert str(exc.value) == "P sums to 4.0, not 1 (give probabilities summing to 1, or counts)"


def test_contains_edge_cases():
    inf = RenyiBall.from_radius(EX, 2, "inf")
    assert inf.contains([0, F(1, 2), F(1, 4), F(1, 4)]) is True            # the whole simplex
    b = RenyiBall.from_radius(EX, 2, "1/10")
    assert b.contains([0, F(1, 2), F(1, 4), F(1, 4)]) is False             # P = 0 where P^ > 0: D = inf
    assert b.contains([[F(1, 4)] * 2] * 2) is False                         # D_2 = log(4 sum P^^2) = 0.33 > 0.1
    assert b.contains(b.flat()) is True
    z = RenyiBall.from_radius(EX, 2, 0)
    assert z.contains(z.flat()) in (True, None)                             # D = 0 = B: never "outside"


# ---------------------------------------------------------------- Theorem 1


@pytest.mark.parametrize("alpha", [F(1, 2), F(1), F(2), F(3)])
@pytest.mark.parametrize("s", [0, 1])
def test_conditional_radius_is_theorem1(alpha, s):
    b = RenyiBall.from_radius(EX, alpha, "1/10")
    ref = bs_closed(F(1, 10), alpha, b.marginal(s))
    assert abs(b.conditional_radius(s, dps=70) - ref) < mpmath.mpf(10) ** -64 * max(1, ref)
    with arb_precision(80):
        enc = b.conditional_radius_arb(s, dps=70)
        lo, hi = arb_lower(enc), arb_upper(enc)
    assert mp(lo) <= ref <= mp(hi) and hi - lo < F(1, 10 ** 60)
    ball = b.conditional_ball(s, dps=70)
    assert ball.center == b.conditional(s) and ball.alpha == alpha
    assert abs(ball.radius - ref) < mpmath.mpf(10) ** -64 * max(1, ref)


@pytest.mark.parametrize("alpha", [F(1, 2), F(1), F(2)])
def test_conditional_radius_special_cases(alpha):
    assert RenyiBall.from_radius(EX, alpha, 0).conditional_radius(1) == 0          # B = 0: B_s = 0
    one = RenyiBall.from_radius([[1, 3], [0, 0]], alpha, "1/7")                    # P^_s = 1: B_s = B
    assert abs(one.conditional_radius(0, dps=70) - mpmath.mpf(1) / 7) < mpmath.mpf(10) ** -65
    assert one.conditional_radius(1) == mpmath.inf and one.conditional_radius_arb(1) is None   # P^_s = 0
    with arb_precision(80):
        enc = one.conditional_radius_arb(0, dps=60)
        assert arb_lower(enc) <= F(1, 7) <= arb_upper(enc) and arb_upper(enc) - arb_lower(enc) < F(1, 10 ** 50)
    inf = RenyiBall.from_radius(EX, alpha, "inf")
    assert inf.conditional_radius(0) == mpmath.inf and inf.conditional_radius_arb(0) is None
    # B far below the working precision: B_s ~ B/P^_s = 6e-80 is lost in rounding (|error| <~ 10^-(dps-5)),
    # but the result is never below 0
    tiny = RenyiBall.from_radius(EX, alpha, F(1, 10 ** 80)).conditional_radius(0, dps=20)
    assert 0 <= tiny < mpmath.mpf(10) ** -15


def test_conditional_radius_infinite_for_small_alpha():
    # alpha = 1/2, B = 2: e^{-2} - (1 - 0.17) < 0 -> the whole simplex
    b = RenyiBall.from_radius(EX, "1/2", 2)
    assert b.conditional_radius(0) == mpmath.inf and b.conditional_radius_arb(0) is None
    # s = 1: e^{-2} - 0.17 = -0.035 < 0 too; alpha = 1/2, B = 1/10: e^{-1/10} - 0.83 > 0 finite
    assert b.conditional_radius(1) == mpmath.inf
    assert RenyiBall.from_radius(EX, "1/2", "1/10").conditional_radius_arb(0) is not None


# ---------------------------------------------------------------- Proposition 1 at alpha = 2 (closed form)


@pytest.mark.parametrize("s", [0, 1])
def test_lower_and_rad_alpha2_closed_form(s):
    b = RenyiBall.from_radius(T23, 2, "1/10")
    if s == 0:
        table = b.lower_table(dps=70)
        assert len(table) == 2 and all(len(r) == 3 for r in table)
    Bs = bs_closed(F(1, 10), 2, b.marginal(s))
    c = b.conditional(s)
    for u in range(3):
        ref = t2(c[u], Bs)[0]
        if s == 0:
            assert abs(table[s][u] - ref) < mpmath.mpf(10) ** -64
        else:
            assert abs(b.lower_value(u, s, dps=70) - ref) < mpmath.mpf(10) ** -64
        lc = b.lower_certified(u, s, dps=30)
        assert mp(lc) <= ref and ref - mp(lc) < mpmath.mpf(10) ** -12     # outward steps ~1e-17
    # eq. (30): every non-empty proper subset U1 of 3 outcomes
    sums = {c[0], c[1], c[2], c[0] + c[1], c[0] + c[2], c[1] + c[2]}
    rad = 2 * max(t2(x, Bs)[1] - mp(x) for x in sums)
    assert abs(b.rad_value(s, dps=70) - rad) < mpmath.mpf(10) ** -64
    rc = b.rad_certified(s, dps=30)
    assert mp(rc) >= rad and mp(rc) - rad < mpmath.mpf(10) ** -12


def test_zero_marginal_row():
    b = RenyiBall.from_radius([[0, 0], [1, 3]], 2, "1/10")
    assert b.lower_value(1, 0) == 0 and b.lower_certified(0, 0) == 0
    assert b.rad_value(0) == 2 and b.rad_certified(0) == 2
    assert b.lower_table(dps=30)[0] == [0, 0]


def test_statistics_fields():
    b = RenyiBall.from_radius([[0, 0], [1, 3]], 2, "1/10")     # P^_1 = 1: B_1 = B exactly
    st = b.statistics(dps=70, certified=True)
    assert (st["alpha"], st["radius"], st["radius_upper"], st["provenance"], st["dps"]) == \
        (2, F(1, 10), F(1, 10), "given radius", 70)
    r0, r1 = st["conditional"]
    assert (r0["s"], r0["marginal"], r0["radius"], r0["lower"], r0["rad"]) == (0, 0, math.inf, [0, 0], 2)
    assert isinstance(r0["radius"], float)
    assert (r0["lower_certified"], r0["rad_certified"]) == ([0, 0], 2)
    assert (r1["s"], r1["marginal"]) == (1, 1)
    assert abs(r1["radius"] - mpmath.mpf(1) / 10) < mpmath.mpf(10) ** -65
    ends = [t2(F(1, 4), mp(F(1, 10))), t2(F(3, 4), mp(F(1, 10)))]
    assert all(abs(x - e[0]) < mpmath.mpf(10) ** -64 for x, e in zip(r1["lower"], ends, strict=True))
    rad = 2 * max(ends[0][1] - mpmath.mpf(1) / 4, ends[1][1] - mpmath.mpf(3) / 4)
    assert abs(r1["rad"] - rad) < mpmath.mpf(10) ** -64
    assert all(mp(x) <= e[0] for x, e in zip(r1["lower_certified"], ends, strict=True)) and mp(r1["rad_certified"]) >= rad
    plain = b.statistics(dps=30)
    assert "lower_certified" not in plain["conditional"][1] and "rad_certified" not in plain["conditional"][1]
    c = RenyiBall.from_confidence(EX, 2, "0.95", 100, dps=30).statistics(dps=30)
    assert c["radius"] != c["radius_upper"] and mp(c["radius_upper"]) > c["radius"] > 0   # value vs certified bound
    raw = RenyiBall(b.phat, F(2), F(1, 10))      # built directly: no radius_value, the radius is reported
    assert raw.statistics(dps=30)["radius"] == F(1, 10)


# ---------------------------------------------------------------- Lemma A6 / eq. (30) on SimplexBall


def test_zero_coordinate_counts_in_the_l1_radius():
    # centre (0, 1): D_alpha((0,1)||R) = -log R_1 for every alpha, so R_1 >= e^{-B} and
    # sup ||R - c||_1 = 2 (1 - e^{-B}) (the subset {u0} has sum 0 and still contributes)
    B = F(1, 5)
    ref = 2 * (1 - mpmath.exp(-mp(B)))
    for alpha in (F(1, 2), F(2)):
        ball = SimplexBall((F(0), F(1)), alpha, B)
        assert abs(ball.l1_radius(dps=70) - ref) < mpmath.mpf(10) ** -60
        with arb_precision(60):
            cert = ball.l1_radius_certified(arb_exact(B), dps=60)
        assert mp(cert) >= ref and mp(cert) - ref < mpmath.mpf(10) ** -12


def test_l1_radius_small_radius_and_size_limit():
    # B = 1e-6 around (1/2, 1/2), alpha = 2: t+ from the quadratic; the l1 radius is ~1e-3, far below 1
    c = (F(1, 2), F(1, 2))
    B = F(1, 10 ** 6)
    ref = 2 * (t2(F(1, 2), mp(B))[1] - mpmath.mpf(1) / 2)
    assert abs(SimplexBall(c, F(2), B).l1_radius(dps=70) - ref) < mpmath.mpf(10) ** -60
    assert SimplexBall(tuple([F(1, 21)] * 21), F(2), B).l1_radius() == 2            # |U| > max_size = 20
    assert abs(SimplexBall(tuple([F(1, 3)] * 3), F(2), B).l1_radius(max_size=2) - 2) == 0
    three = SimplexBall(tuple([F(1, 3)] * 3), F(2), B)
    ref3 = 2 * max(t2(x, mp(B))[1] - mp(x) for x in (F(1, 3), F(2, 3)))     # the distinct sums: 1/3, 2/3
    assert abs(three.l1_radius(dps=70, exhaustive=True) - ref3) < mpmath.mpf(10) ** -60
    assert abs(three.l1_radius(dps=70, max_size=3) - ref3) < mpmath.mpf(10) ** -60     # |U| = max_size: not trivial
    with arb_precision(20):
        cert = three.l1_radius_certified(arb_exact(B), dps=20, max_size=3)
    assert mp(cert) >= ref3 and mp(cert) - ref3 < mpmath.mpf(10) ** -12


# ---------------------------------------------------------------- the certified window of the unimodal search

C5 = tuple(F(k, 15) for k in range(1, 6))      # 5 outcomes: the 14 subset sums 1/15, ..., 14/15


@pytest.fixture
def few(monkeypatch):
    """The unimodal search (and its certified window) for 14 sums instead of > 64 (same code, cheaper)."""
    monkeypatch.setattr(SimplexBall, "EXHAUSTIVE_UP_TO", 4)
    return SimplexBall(C5, F(2), F(1, 10))


def _count_bounds(monkeypatch):
    import rldp_verify.rldp.uncertainty as unc

    n = [0]
    orig = unc.t_interval_certified

    def counting(*args, **kw):
        n[0] += 1
        return orig(*args, **kw)
    monkeypatch.setattr(unc, "t_interval_certified", counting)
    return n


def _exhaustive(b):
    # every sum at 40 digits, from the alpha = 2 quadratic (independent of t_interval)
    return 2 * max(t2(x, mp(F(1, 10)))[1] - mp(x) for x in (F(k, 15) for k in range(1, 15)))


def test_certified_window_bounds_few_sums(monkeypatch, few):
    """With the window certified, only the window and its two neighbours are bounded (not all 14 sums)."""
    n = _count_bounds(monkeypatch)
    with arb_precision(20):
        cert = few.l1_radius_certified(arb_exact(F(1, 10)), dps=20)
    assert 0 < n[0] <= 11                              # window <= 7 + 2 neighbours + 2 certificate bounds
    ref = _exhaustive(few)
    assert mp(cert) >= ref and mp(cert) - ref < mpmath.mpf(10) ** -12
    assert abs(few.l1_radius(dps=20) - ref) < mpmath.mpf(10) ** -15      # the uncertified search finds it too


@pytest.mark.parametrize("wrong", [(0, 2, {}), (11, 13, {})])
def test_a_wrong_window_is_caught(monkeypatch, few, wrong):
    """Soundness: if the search returned a window far from the maximiser, the certificate must fail and every
    sum be bounded, so the result still bounds sup ||R - c||_1 (the wrong window alone would give less)."""
    monkeypatch.setattr(SimplexBall, "_argmax_window", lambda self, sums, dps: wrong)
    n = _count_bounds(monkeypatch)
    with arb_precision(20):
        cert = few.l1_radius_certified(arb_exact(F(1, 10)), dps=20)
    assert mp(cert) >= _exhaustive(few)
    assert n[0] >= 14                                  # fell back to every sum


def test_search_window_contains_the_maximiser(few):
    sums = few._candidate_sums(20)
    assert sums == [F(k, 15) for k in range(1, 15)]
    vals = [t2(x, mp(F(1, 10)))[1] - mp(x) for x in sums]
    best = max(range(len(sums)), key=lambda i: vals[i])
    lo, hi, cache = few._argmax_window(sums, 30)
    assert lo <= best <= hi and hi - lo <= 6 and lo >= 0 and hi <= 13
    assert all(abs(cache[i] - vals[i]) < mpmath.mpf(10) ** -25 for i in cache)


# ---------------------------------------------------------------- precision is passed down; errors in order


def _chi2_quantile_90(conf, k):
    """The chi2_k quantile by a second method: the root of the regularised lower incomplete gamma (90 digits)."""
    return mpmath.findroot(lambda x: mpmath.gammainc(mpmath.mpf(k) / 2, 0, x / 2, regularized=True) - mp(F(conf)),
                           mpmath.mpf(chi2.ppf(float(F(conf)), k)))


def test_confidence_radius_at_high_precision():
    # alpha = 1: B = q/(2n); at 60 digits the quantile must be computed at (at least) 60 digits, too
    ref = _chi2_quantile_90("0.95", 3) / 200
    assert abs(confidence_radius(1, "0.95", 100, 4, dps=60) - ref) < mpmath.mpf(10) ** -56
    b = RenyiBall.from_confidence(EX, 1, "0.95", 100, dps=60)
    assert abs(b.radius_value - ref) < mpmath.mpf(10) ** -56


def test_divergence_at_high_precision():
    # D_2(P^||U) = log(4 sum P^^2) for the uniform U on 4 cells
    b = RenyiBall.from_radius(EX, 2, "1/10")
    ref = mpmath.log(4 * sum(mp(v) ** 2 for r in EX for v in r))
    assert abs(b.divergence([F(1, 4)] * 4, dps=70) - ref) < mpmath.mpf(10) ** -65


def test_alpha_is_checked_before_the_confidence():
    with pytest.raises(InputError) as exc:
        RenyiBall.from_confidence(EX, 0, "2", 10, dps=30)
    assert str(exc.value) == "alpha must be in (0, inf), got alpha=0"
    with pytest.raises(InputError) as exc:
        RenyiBall.from_confidence([[1, 2], [3]], 0, "0.9", 10, dps=30)
    assert str(exc.value) == "alpha must be in (0, inf), got alpha=0"


def test_maximiser_at_the_first_sum(few):
    """alpha = 1/2, B = 3: D_{1/2}(Bern rho||Bern 1) = log(1/rho) <= 3 for rho >= e^-3, so t+ = 1 and
    g(rho) = 1 - rho on every sum k/15: the maximum of eq. (30) is at the first sum, 2 (1 - 1/15) = 28/15."""
    b = SimplexBall(C5, F(1, 2), F(3))
    assert abs(b.l1_radius(dps=30) - mpmath.mpf(28) / 15) < mpmath.mpf(10) ** -25
    with arb_precision(20):
        cert = b.l1_radius_certified(arb_exact(F(3)), dps=20)
    assert F(28, 15) <= cert < F(28, 15) + F(1, 10 ** 12)


def test_infinite_radius_with_many_sums(few):
    # the whole simplex: sup ||R - c||_1 = 2 (1 - min c) = 28/15, with or without the unimodal search
    b = SimplexBall(C5, F(2), mpmath.inf)
    assert b.l1_radius_certified(None, dps=20) == F(28, 15)
    assert abs(b.l1_radius(dps=30) - mpmath.mpf(28) / 15) < mpmath.mpf(10) ** -25


def test_few_sums_are_all_bounded(monkeypatch):
    """At most EXHAUSTIVE_UP_TO = 64 sums: every sum is bounded (no window)."""
    n = _count_bounds(monkeypatch)
    b = SimplexBall(C5, F(2), F(1, 10))
    with arb_precision(20):
        cert = b.l1_radius_certified(arb_exact(F(1, 10)), dps=20)
    assert n[0] == 14 and mp(cert) >= _exhaustive(b)


@pytest.mark.parametrize("call, msg", [
    (lambda: RenyiBall.from_radius(EX, "x", 1), "alpha = 'x' is not a number"),
    (lambda: RenyiBall.from_radius(EX, 2, "y"), "radius = 'y' is not a number"),
    (lambda: RenyiBall.from_confidence(EX, "x", "0.9", 10), "alpha = 'x' is not a number"),
    (lambda: RenyiBall.from_confidence(EX, 2, "z", 10), "confidence = 'z' is not a number"),
])
def test_unreadable_parameters_are_named(call, msg):
    with pytest.raises(InputError) as exc:
        call()
    assert str(exc.value) == msg


def test_conditional_radius_at_radius_one():
    # B = 1 is not a special case (only B = 0 and P^_s = 1 give B_s = B)
    b = RenyiBall.from_radius(EX, 2, 1)
    for s in (0, 1):
        ref = bs_closed(F(1), 2, b.marginal(s))
        assert abs(b.conditional_radius(s, dps=40) - ref) < mpmath.mpf(10) ** -35


def test_rad_certified_with_the_unimodal_search(few):
    # a row whose conditional is C5 = (1, ..., 5)/15 (14 sums > EXHAUSTIVE_UP_TO = 4): the search runs on B_s
    b = RenyiBall.from_radius([[F(k, 30) for k in range(1, 6)], [F(k, 30) for k in range(1, 6)]], 2, "1/10")
    Bs = bs_closed(F(1, 10), 2, F(1, 2))
    rad = 2 * max(t2(F(k, 15), Bs)[1] - mp(F(k, 15)) for k in range(1, 15))
    rc = b.rad_certified(0, dps=20)
    assert mp(rc) >= rad and mp(rc) - rad < mpmath.mpf(10) ** -12
