"""rldp_verify.testing.assert_matches_reference: every bad point listed, tolerances, directions, bad input."""

import math

import numpy as np
import pytest

from rldp_verify.core.errors import InputError
from rldp_verify.testing import assert_matches_reference, reference_points, reference_values

GRID = [{"p_s": "0.5", "alpha": "2", "B": "0.1"}, {"p_s": "1e-12", "alpha": "2", "B": "1e-10"},
        {"p_s": "0.2", "alpha": "1", "B": "1"}, {"p_s": "0.3", "alpha": "0.1", "B": "10"}]


def exact_bs(p_s, alpha, B):
    if alpha == 1:
        return B / p_s
    x = math.expm1((alpha - 1) * B / alpha)
    if x + p_s <= 0:
        return math.inf
    return alpha / (alpha - 1) * math.log1p(x / p_s)


def test_right_implementation_passes():
    s = assert_matches_reference(exact_bs, "B_s", grid=GRID, rtol=1e-12)
    assert s.points == 4 and s.max_rel_diff < 1e-13


def test_wrong_implementation_lists_every_bad_point():
    def off(p_s, alpha, B):
        return exact_bs(p_s, alpha, B) * (1 + 1e-6)
    with pytest.raises(AssertionError) as e:
        assert_matches_reference(off, "B_s", grid=GRID, rtol=1e-9)
    msg = str(e.value)
    assert msg.startswith("3 of 4 points of 'B_s' do not match")   # the inf point matches (inf * c = inf)
    assert msg.count("rel. diff 1e-06") == 3 and "p_s=1e-12, alpha=2.0, B=1e-10" in msg


def test_float_inputs_are_exact_binary_rationals():
    # the reference is evaluated at the float the implementation receives: 0.1 + tiny differences show
    (pt, ref), = reference_values("B_s", [{"p_s": "0.1", "alpha": "1", "B": "0.3"}])
    assert pt == {"p_s": 0.1, "alpha": 1.0, "B": 0.3}
    from fractions import Fraction
    exact = Fraction(0.3) / Fraction(0.1)
    assert abs(Fraction(ref.value) - exact) <= ref.error


def test_directions():
    def low(p_s, alpha, B):
        return exact_bs(p_s, alpha, B) * 0.5 if math.isfinite(exact_bs(p_s, alpha, B)) else 1.0
    assert_matches_reference(low, "B_s", grid=GRID, direction="lower")
    with pytest.raises(AssertionError, match="direction='upper'"):
        assert_matches_reference(low, "B_s", grid=GRID, direction="upper")
    def high(p_s, alpha, B):
        return math.inf
    assert_matches_reference(high, "B_s", grid=GRID, direction="upper")


def test_matrix_quantity_and_per_region_tolerance():
    def grr(eps, a):
        e = math.exp(eps)
        return (np.full((a, a), 1.0) + (e - 1) * np.eye(a)) / (e + a - 1)
    grid = [{"eps": "1e-6", "a": "2"}, {"eps": "1", "a": "5"}, {"eps": "20", "a": "2"}]
    assert_matches_reference(grr, "grr_matrix", grid=grid, rtol=1e-14, atol=lambda p: 1e-16)
    with pytest.raises(AssertionError, match="shape"):
        assert_matches_reference(lambda eps, a: [1.0], "grr_matrix", grid=grid)


def test_exceptions_and_nan_are_bad_points():
    def bad(p_s, alpha, B):
        if alpha == 1:
            raise ZeroDivisionError("boom")
        return math.nan
    with pytest.raises(AssertionError) as e:
        assert_matches_reference(bad, "B_s", grid=GRID)
    assert "4 of 4" in str(e.value) and "raised ZeroDivisionError: boom" in str(e.value)


@pytest.mark.parametrize("kw, msg", [({"rtol": -1}, "rtol must be a finite number >= 0, got -1.0"),
                                     ({"atol": float("nan")}, "atol must be a finite number >= 0, got nan"),
                                     ({"direction": "up"}, "direction must be None, 'upper' or 'lower', got 'up'"),
                                     ({"grid": [{"p_s": "2", "alpha": "1", "B": "1"}]},
                                      "grid point 0: p_s = '2' must be in [0, 1]"),
                                     ({"grid": [{"p_s": "0.5", "alpha": "1"}]}, "grid point 0: missing input 'B' for B_s")])
def test_bad_input_names_the_value(kw, msg):
    with pytest.raises(InputError) as e:
        assert_matches_reference(exact_bs, "B_s", **kw)
    assert str(e.value) == msg


def test_reference_points_are_what_the_implementation_receives():
    pts = reference_points("rad_s")
    assert pts[0] == {"cond": [0.5, 0.5], "p_s": 0.01, "alpha": 0.5, "B": 1e-10}
