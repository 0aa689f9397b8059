"""rldp_verify.core.divergence and rldp_verify.core.stats (000_aca93ed29ea857ee.txt, Sec. 3 eqs. (7), (9), (11))."""

from fractions import Fraction
from itertools import pairwise

import mpmath
import pytest
from hypothesis import example, given, settings

from rldp_verify.core.divergence import (
    chi_square,
    kl_divergence,
    renyi_divergence,
    renyi_divergence_arb,
    renyi_power_sum,
)
from rldp_verify.core.errors import InputError
from rldp_verify.core.stats import chi2_cdf, chi2_quantile, chi2_quantile_bracket, chi2_sf
from tests.strategies import alphas, distributions

F = Fraction


def test_power_sum_exact_for_integer_alpha():
    s = renyi_power_sum([F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)], 2)
    assert s == F(1, 4) / F(1, 4) + F(1, 4) / F(3, 4)
    assert isinstance(s, Fraction)


def test_zero_conventions():
    p, q = [F(1, 2), F(1, 2), F(0)], [F(1), F(0), F(0)]
    assert renyi_divergence(p, q, 2) == mpmath.inf            # P^_x > 0 = P_x, alpha > 1
    assert kl_divergence(p, q) == mpmath.inf
    with mpmath.workdps(30):
        # alpha < 1: the term vanishes; D_{1/2} = -2 log(sqrt(1/2)) = log 2
        assert abs(renyi_divergence(p, q, F(1, 2), dps=30) - mpmath.log(2)) < mpmath.mpf(10) ** -28
    assert renyi_divergence([F(1), F(0)], [F(0), F(1)], F(1, 2)) == mpmath.inf   # disjoint supports
    assert renyi_divergence([F(0), F(1)], [F(1, 2), F(1, 2)], 3) == pytest.approx(float(mpmath.log(2)))


def test_mpf_inputs_keep_their_precision():
    with mpmath.workdps(60):
        p = [mpmath.mpf(1) / 3, 1 - mpmath.mpf(1) / 3]
        q = [mpmath.mpf(1) / 7, 1 - mpmath.mpf(1) / 7]
        a = renyi_divergence(p, q, mpmath.mpf(1) / 3, dps=60)
        b = renyi_divergence(["1/3", "2/3"], ["1/7", "6/7"], "1/3", dps=60)
        assert abs(a - b) < mpmath.mpf(10) ** -55


@given(distributions(n=4), distributions(n=4, allow_zero=False))
@settings(max_examples=40)
def test_d2_is_log_one_plus_chi2(p, q):
    with mpmath.workdps(40):
        assert abs(renyi_divergence(p, q, 2, dps=40) - mpmath.log(1 + mpmath.mpf(chi_square(p, q).numerator)
                                                                  / chi_square(p, q).denominator)) < mpmath.mpf(10) ** -35


@given(distributions(n=3), distributions(n=3, allow_zero=False), alphas)
@settings(max_examples=40)
def test_arb_enclosure_contains_value(p, q, alpha):
    v = renyi_divergence(p, q, alpha, dps=40)
    e = renyi_divergence_arb(p, q, alpha, dps=40)
    assert e is not None
    with mpmath.workdps(40):
        assert abs(mpmath.mpf(e.mid().str(45, radius=False)) - v) <= mpmath.mpf(10) ** -30 + float(e.rad())


@given(distributions(n=3), distributions(n=3, allow_zero=False))
@settings(max_examples=30)
@example([F(0), F(0), F(1)], [F(1, 4), F(1, 4), F(1, 2)])     # equal values for every alpha, rounded apart
def test_monotone_in_alpha(p, q):
    vals = [renyi_divergence(p, q, a, dps=30) for a in (F(1, 2), F(1), F(2), F(5))]
    with mpmath.workdps(30):     # y + 1e-25 at the default 15 digits would round y down (found: p = (0, 0, 1))
        assert all(x <= y + mpmath.mpf(10) ** -25 for x, y in pairwise(vals))


@pytest.mark.parametrize("bad", [0, -1, "-0.5", float("nan"), "abc"])
def test_bad_alpha(bad):
    with pytest.raises(InputError):
        renyi_divergence([F(1, 2), F(1, 2)], [F(1, 2), F(1, 2)], bad)


@pytest.mark.parametrize("p", [[F(1, 2), F(1, 3)], [F(3, 2), F(-1, 2)], [float("nan"), 1.0], []])
def test_bad_distributions(p):
    with pytest.raises(InputError):
        renyi_divergence(p, [F(1, 2), F(1, 2)], 2)


def test_length_mismatch():
    with pytest.raises(InputError):
        renyi_divergence([F(1)], [F(1, 2), F(1, 2)], 2)


# chi-square quantiles -------------------------------------------------------------------------

@pytest.mark.parametrize("q,k,ref", [("0.95", 3, "7.81472790325117738909"), ("0.05", 3, "0.35184631774927171"),
                                     ("0.5", 1, "0.45493642311957283")])
def test_chi2_quantile_known_values(q, k, ref):
    # references: scipy.stats.chi2.ppf (double precision) for the leading digits
    assert abs(float(chi2_quantile(q, k, dps=30)) - float(ref)) < 1e-12


def test_chi2_quantile_high_precision_roundtrip():
    with mpmath.workdps(80):
        x = chi2_quantile("0.95", 3, dps=80)
        assert abs(chi2_cdf(x, 3, dps=80) - mpmath.mpf("0.95")) < mpmath.mpf(10) ** -75


def test_chi2_quantile_extreme_levels():
    with mpmath.workdps(40):
        q = F(1) - F(1, 10**40)
        x = chi2_quantile(q, 3, dps=40)
        assert x > 100
        assert abs(chi2_sf(x, 3, dps=60) / mpmath.mpf(10) ** -40 - 1) < mpmath.mpf(10) ** -35
        assert chi2_quantile(F(1, 10**40), 3, dps=40) < mpmath.mpf(10) ** -20


def test_chi2_bracket_is_certified():
    lo, hi = chi2_quantile_bracket("0.95", 3, dps=40)
    assert lo < hi and hi - lo < F(1, 10**38)
    assert float(lo) == pytest.approx(7.814727903251178)


@pytest.mark.parametrize("q,k", [("0", 3), ("1", 3), ("1.5", 3), ("0.5", 0), ("0.5", 1.5)])
def test_chi2_bad_input(q, k):
    with pytest.raises(InputError):
        chi2_quantile(q, k)


def test_renyi_divergence_mp_on_a_grid():
    """The unvalidated fast path agrees with the validated one (an exact rational power sum for integer alpha)
    at 60 digits over orders of magnitude of alpha and of the probabilities; every bad point is listed."""
    from fractions import Fraction as Fr

    import mpmath

    from rldp_verify.core.divergence import renyi_divergence, renyi_divergence_mp
    from tests.grid import check_grid

    alphas = [Fr(1, 100), Fr(1, 4), Fr(1, 2), Fr(99, 100), Fr(1), Fr(101, 100), Fr(2), Fr(7), Fr(50)]
    eps = [Fr(1, 10**k) for k in (1, 3, 8, 15)]
    points = [(a, e) for a in alphas for e in eps]

    def got(a, e):
        with mpmath.workdps(60):
            return renyi_divergence_mp([1 - e, e], [e, 1 - e], a)

    def wanted(a, e):
        return renyi_divergence([1 - e, e], [e, 1 - e], a, dps=60)

    check_grid(got, wanted, points, rtol=mpmath.mpf(10) ** -50, label="renyi_divergence_mp")


def test_check_grid_lists_every_bad_point():
    import pytest

    from tests.grid import check_grid

    with pytest.raises(AssertionError) as exc:
        check_grid(lambda x: x * 1.001, lambda x: x, [(1,), (2,), (3,)], rtol=1e-6, label="demo")
    msg = str(exc.value)
    assert "3 of 3 grid points" in msg and "at (2,)" in msg and "at (3,)" in msg


# exact values, branches and error messages (issue 9: generic mutants of core/divergence.py) ---------------------

P2, Q2 = [F(1, 2), F(1, 2)], [F(1, 4), F(3, 4)]


def _close(x, y, digits):
    return abs(mpmath.mpf(x) - y) < mpmath.mpf(10) ** -digits


def test_kl_and_renyi_known_values_at_high_precision():
    with mpmath.workdps(60):
        log43 = mpmath.log(mpmath.mpf(4) / 3)
        kl = kl_divergence(P2, Q2, dps=60)
        assert isinstance(kl, mpmath.mpf) and _close(kl, log43 / 2, 55)          # 1/2 log 2 + 1/2 log(2/3)
        assert _close(renyi_divergence(P2, Q2, 1, dps=60), log43 / 2, 55)       # alpha = 1 is KL
        assert _close(renyi_divergence(P2, Q2, 2, dps=60), log43, 55)           # log sum p^2/q
        # alpha = 3/2: 2 log(sum p^{3/2} q^{-1/2})
        s = mpmath.mpf(1) / 2 ** mpmath.mpf(1.5) * (2 + 2 / mpmath.sqrt(3))
        assert _close(renyi_divergence(P2, Q2, F(3, 2), dps=60), 2 * mpmath.log(s), 55)
        assert _close(renyi_divergence(P2, Q2, F(1, 2), dps=60),
                      -2 * mpmath.log(mpmath.sqrt(mpmath.mpf(1) / 8) + mpmath.sqrt(mpmath.mpf(3) / 8)), 55)
        assert renyi_divergence(P2, P2, 2, dps=60) == 0 and kl_divergence(P2, P2, dps=60) == 0
        assert kl_divergence(Q2, P2, dps=60) != kl_divergence(P2, Q2, dps=60)   # argument order matters


def test_kl_precision_follows_dps():
    with mpmath.workdps(80):
        ref = mpmath.log(mpmath.mpf(4) / 3) / 2
        assert _close(kl_divergence(P2, Q2, dps=70), ref, 68)
        low = kl_divergence(P2, Q2, dps=10)
        assert abs(low - ref) < mpmath.mpf(10) ** -9 and abs(low - ref) > mpmath.mpf(10) ** -40


def test_power_sum_paths():
    s = renyi_power_sum(P2, Q2, 3)                   # exact: sum p^3 / q^2
    assert s == F(1, 8) / F(1, 16) + F(1, 8) / F(9, 16) and isinstance(s, Fraction)
    sf = renyi_power_sum([0.5, 0.5], [0.25, 0.75], 2)    # float inputs: not exact, mpf
    assert isinstance(sf, mpmath.mpf) and _close(sf, mpmath.mpf(4) / 3, 14)
    with mpmath.workdps(40):
        s32 = renyi_power_sum(P2, Q2, F(3, 2))
        assert _close(s32, mpmath.mpf(1) / 2 ** mpmath.mpf(1.5) * (2 + 2 / mpmath.sqrt(3)), 35)
    # zero conventions of the power sum: alpha > 1 and P_x = 0 < P^_x is +inf; alpha < 1 drops the term
    assert renyi_power_sum([F(1, 2), F(1, 2)], [F(1), F(0)], 2) == mpmath.inf
    assert renyi_power_sum([F(1, 2), F(1, 2)], [F(1), F(0)], F(3, 2)) == mpmath.inf
    with mpmath.workdps(30):
        assert _close(renyi_power_sum([F(1, 2), F(1, 2)], [F(1), F(0)], F(1, 2)), mpmath.sqrt(mpmath.mpf(1) / 2), 25)
    assert renyi_power_sum([F(0), F(1)], Q2, 2) == F(1) / F(3, 4)                # P^_x = 0 contributes 0


def test_chi_square_exact_float_and_zero_cells():
    assert chi_square(P2, Q2) == F(1, 16) / F(1, 4) + F(1, 16) / F(3, 4)
    assert chi_square(P2, P2) == 0 and isinstance(chi_square(P2, P2), Fraction)
    assert chi_square([0.5, 0.5], [0.25, 0.75]) == pytest.approx(1 / 3, rel=1e-15)
    assert chi_square(P2, [F(1), F(0)]) == mpmath.inf
    assert chi_square([0.5, 0.5], [1.0, 0.0]) == float("inf")
    assert chi_square([F(1, 2), F(1, 2), F(0)], [F(1, 4), F(3, 4), F(0)]) == F(1, 3)     # 0/0 cell skipped
    assert chi_square([0.5, 0.5, 0.0], [0.25, 0.75, 0.0]) == pytest.approx(1 / 3, rel=1e-15)


def test_arb_enclosures_known_values():
    with mpmath.workdps(60):
        log43 = mpmath.log(mpmath.mpf(4) / 3)
        for alpha, ref in ((1, log43 / 2), (2, log43), (F(1, 2), -2 * mpmath.log(mpmath.sqrt(mpmath.mpf(1) / 8)
                                                                                   + mpmath.sqrt(mpmath.mpf(3) / 8)))):
            e = renyi_divergence_arb(P2, Q2, alpha, dps=50)
            assert float(e.rad()) < 1e-45, (alpha, e)
            assert abs(mpmath.mpf(e.mid().str(55, radius=False)) - ref) < mpmath.mpf(10) ** -45
    assert renyi_divergence_arb(P2, [F(1), F(0)], 1) is None                # KL = +inf
    assert renyi_divergence_arb(P2, [F(1), F(0)], 2) is None                # alpha > 1 and a missing cell
    assert renyi_divergence_arb([F(1), F(0)], [F(0), F(1)], F(1, 2)) is None  # disjoint supports: sum = 0
    e = renyi_divergence_arb(P2, [F(1), F(0)], F(1, 2))                    # alpha < 1: the cell is dropped
    assert e is not None and abs(float(e.mid()) - float(mpmath.log(2))) < 1e-12
    assert renyi_divergence_arb([F(0), F(1)], Q2, 2) is not None


def test_mpf_and_float_values_are_not_rerounded():
    from rldp_verify.core.divergence import _coerce, renyi_divergence_mp, validate_alpha

    with mpmath.workdps(50):
        x = mpmath.mpf(1) / 3
        assert _coerce(x) is x
        assert validate_alpha(x) is x and validate_alpha(0.5) == 0.5 and validate_alpha("3/2") == F(3, 2)
        p = [mpmath.mpf(1) / 3, 1 - mpmath.mpf(1) / 3]
        v = renyi_divergence_mp(p, [F(1, 2), F(1, 2)], 2)
        ref = mpmath.log(2 * (p[0] ** 2 + p[1] ** 2))
        assert abs(v - ref) < mpmath.mpf(10) ** -45
        assert renyi_divergence_mp(p, [F(1), F(0)], 2) == mpmath.inf
        assert renyi_divergence_mp([F(1), F(0)], [F(0), F(1)], F(1, 2)) == mpmath.inf
        kl = renyi_divergence_mp(p, [F(1, 2), F(1, 2)], 1)
        assert abs(kl - (p[0] * mpmath.log(2 * p[0]) + p[1] * mpmath.log(2 * p[1]))) < mpmath.mpf(10) ** -45


@pytest.mark.parametrize("call, message", [
    (lambda: renyi_divergence(P2, P2, "abc"), "not a number: 'abc'"),
    (lambda: renyi_divergence(P2, P2, float("nan")), "not a finite number: nan"),
    (lambda: renyi_divergence(P2, P2, mpmath.inf), "not a finite number: +inf"),
    (lambda: renyi_divergence(P2, P2, 0), "alpha must be in (0, inf), got alpha=0"),
    (lambda: renyi_divergence(P2, P2, "-1/2"), "alpha must be in (0, inf), got alpha=-1/2"),
    (lambda: renyi_divergence([float("nan"), 1.0], P2, 2), "phat[0] = nan is not a finite number"),
    (lambda: renyi_divergence([mpmath.inf, 0], P2, 2), "phat[0] = mpf('+inf') is not a finite number"),
    (lambda: renyi_divergence(P2, [F(3, 2), F(-1, 2)], 2), "p[1] = -1/2 is negative"),
    (lambda: renyi_divergence([], P2, 2), "phat is empty"),
    (lambda: renyi_divergence([F(1, 2), F(1, 3)], P2, 2), "phat sums to 5/6, not 1"),
    (lambda: renyi_divergence(P2, [0.5, 0.5000001], 2), "p sums to 1.0000000999999998, not 1"),
    (lambda: renyi_divergence([F(1)], P2, 2), "phat has 1 entries but p has 2"),
    (lambda: kl_divergence(P2, [F(1)]), "phat has 2 entries but p has 1"),
    (lambda: renyi_power_sum(P2, Q2, 1), "the power sum is not defined at alpha = 1 (use kl_divergence)"),
    (lambda: chi_square([F(1)], P2), "phat has 1 entries but p has 2"),
    (lambda: renyi_divergence_arb([F(1, 2), F(1, 3)], P2, 2), "phat sums to 5/6, not 1"),
    (lambda: renyi_divergence_arb(P2, [F(1, 2), F(1, 3)], 2), "p sums to 5/6, not 1"),
    (lambda: renyi_divergence_arb(P2, Q2, 0), "alpha must be in (0, inf), got alpha=0"),
])
def test_bad_input_messages_name_the_value(call, message):
    with pytest.raises(InputError) as exc:
        call()
    assert str(exc.value) == message


def test_distribution_tolerance():
    from rldp_verify.core.divergence import validate_distribution

    assert validate_distribution([0.5, 0.5 + 1e-10], "x", tol=1e-9) == [0.5, 0.5 + 1e-10]
    assert validate_distribution([0.5, 0.5 + 1e-13], "x") == [0.5, 0.5 + 1e-13]     # default 1e-12
    with pytest.raises(InputError, match=r"^x sums to 1\.0000000001, not 1$"):
        validate_distribution([0.5, 0.5 + 1e-10], "x")
    with pytest.raises(InputError, match=r"^distribution is empty$"):
        validate_distribution([])
    assert validate_distribution(["1/2", "1/2"]) == [F(1, 2), F(1, 2)]
