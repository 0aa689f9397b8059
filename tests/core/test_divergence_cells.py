"""rldp_verify.core.divergence: cell order and result types of the chi-square divergence (issue 9: generic mutants of
core/divergence.py). Expected values by hand."""

import math
from fractions import Fraction

import mpmath
import pytest

from rldp_verify.core.divergence import (
    chi_square,
    chi_square_sum,
    renyi_divergence,
    renyi_power_sum,
    validate_distribution,
)
from rldp_verify.core.errors import InputError

F = Fraction


def test_a_zero_cell_before_the_others_is_skipped_not_the_end():
    # (1/2 - 1/4)^2 / (1/4) + (1/2 - 3/4)^2 / (3/4) = 1/4 + 1/12 = 1/3, the 0/0 cell first
    assert chi_square([F(0), F(1, 2), F(1, 2)], [F(0), F(1, 4), F(3, 4)]) == F(1, 3)
    assert math.isclose(chi_square([0.0, 0.5, 0.5], [0.0, 0.25, 0.75]), 1 / 3, rel_tol=1e-15)
    # a missing cell (P2_x = 0 < P1_x) after the 0/0 cell still gives +inf
    assert chi_square([F(0), F(1, 2), F(1, 2)], [F(0), F(1), F(0)]) == mpmath.inf


def test_result_types_follow_the_inputs():
    # floats in, float out (also the infinite value: math.inf, not mpmath.inf)
    inf = chi_square([0.5, 0.5], [1.0, 0.0])
    assert type(inf) is float and inf == math.inf
    val = chi_square([0.5, 0.5], [0.5, 0.5])
    assert type(val) is float and val == 0.0
    # the raw loop starts from the given zero and returns the given infinity
    assert chi_square_sum([F(1, 2)], [F(1, 2)], F(3), "inf") == F(3)
    assert chi_square_sum([F(1, 2), F(1, 2)], [F(1), F(0)], F(0), "inf") == "inf"
    assert chi_square_sum([], [], mpmath.mpf(0), mpmath.inf) == 0


def test_float_sum_tolerance_is_inclusive():
    # sums 1 + 2^-10 and 1 + 2^-9 are exact in binary: an error equal to tol is accepted, twice tol is not
    assert validate_distribution([0.5, 0.5 + 2 ** -10], "x", tol=2 ** -10) == [0.5, 0.5 + 2 ** -10]
    with pytest.raises(InputError, match=r"^x sums to 1\.001953125, not 1$"):
        validate_distribution([0.5, 0.5 + 2 ** -9], "x", tol=2 ** -10)


def test_a_missing_cell_first_is_dropped_for_alpha_below_one():
    # alpha = 1/2: the cell with P_x = 0 < P^_x contributes 0 and the sum goes on:
    # S = (1/2)^(1/2) * 1^(1/2) = 2^(-1/2), D = log(S) / (1/2 - 1) = log 2
    s = renyi_power_sum([F(1, 2), F(1, 2)], [F(0), F(1)], F(1, 2))
    assert abs(s - mpmath.sqrt(mpmath.mpf(1) / 2)) < mpmath.mpf(10) ** -14
    d = renyi_divergence([F(1, 2), F(1, 2)], [F(0), F(1)], F(1, 2), dps=30)
    with mpmath.workdps(30):
        assert abs(d - mpmath.log(2)) < mpmath.mpf(10) ** -25
