# test_my_radius.py -- regression-check a float64 implementation of B_s (RLDP paper, Theorem 1, eq. (23))
# against rldp-verify's certified reference values. Run with `pytest`: installing rldp-verify registers
# its pytest plugin, which provides the fixtures used here.
import math


def my_B_s(p_s, alpha, B):
    """B_s = alpha/(alpha-1) log((e^{(alpha-1)B/alpha} - (1 - p_s))/p_s), B/p_s at alpha = 1."""
    if p_s == 0:
        return math.inf
    if alpha == 1:
        return B / p_s
    x = math.expm1((alpha - 1) * B / alpha)          # e^{(alpha-1)B/alpha} - 1, accurate for small B
    if x + p_s <= 0:
        return math.inf                             # alpha < 1: the projection is the whole simplex
    return max(alpha / (alpha - 1) * math.log1p(x / p_s), 0.0)


def chi_square_B_s(p_s, alpha, B):
    """The chi-square radius (e^B - 1)/p_s printed in the paper's Example 2 -- not Theorem 1's B_s."""
    return math.expm1(B) / p_s if p_s > 0 else math.inf


def test_my_B_s(rldp_assert_matches_reference):
    # 324 points: p_s from 1e-12 to 1 - 1e-6, alpha from 0.1 to 100, B from 1e-10 to 10
    rldp_assert_matches_reference(my_B_s, "B_s", rtol=1e-9)


def test_chi_square_B_s(rldp_assert_matches_reference):
    # fails, listing every bad grid point: inputs, got, wanted, relative difference
    rldp_assert_matches_reference(chi_square_B_s, "B_s", rtol=1e-9)


def test_lower_bound_is_safe(rldp_assert_matches_reference, rldp_reference_grid):
    # a one-sided claim: an implementation's lower bound must never exceed the certified value
    grid = [p for p in rldp_reference_grid("B_s") if p["alpha"] == 2.0]
    rldp_assert_matches_reference(lambda p_s, alpha, B: 0.0, "B_s", grid=grid, direction="lower")
