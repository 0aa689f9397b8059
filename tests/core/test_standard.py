"""The statistical standard (rldp_verify.core.standard): each outcome reached, seeded, paired rows kept."""

from __future__ import annotations

import math

import numpy as np
import pytest

from rldp_verify.core import standard


def _mean(x):
    return float(np.mean(x))


def test_holds_fails_undecided():
    rng = np.random.default_rng(1)
    x = rng.normal(1.0, 0.1, 200)
    assert standard.decide("mean", x, _mean, 0.9, ">=").outcome == standard.HOLDS
    assert standard.decide("mean", x, _mean, 1.1, ">=").outcome == standard.FAILS
    assert standard.decide("mean", x, _mean, 1.1, "<=").outcome == standard.HOLDS
    d = standard.decide("mean", x, _mean, 1.0, ">=")
    assert d.outcome == standard.UNDECIDED and d.interval[0] < 1.0 < d.interval[1]


def test_a_wrong_side_is_caught():
    # the same sample read the other way round: the outcome flips, it does not stay 'holds'
    x = np.linspace(0, 1, 101)
    assert standard.decide("m", x, _mean, 0.2, ">=").outcome == standard.HOLDS
    assert standard.decide("m", x, _mean, 0.2, "<=").outcome == standard.FAILS


def test_seeded_and_deterministic():
    x = np.random.default_rng(3).exponential(size=50)
    a = standard.decide("median", x, lambda v: float(np.median(v)), 0.5, ">=")
    b = standard.decide("median", x, lambda v: float(np.median(v)), 0.5, ">=")
    assert a == b


def test_instances_to_decide_shrinks_the_interval_to_the_gap():
    x = np.random.default_rng(5).normal(1.0, 1.0, 30)
    d = standard.decide("mean", x, _mean, float(np.mean(x)) + 0.1, ">=")
    assert d.outcome == standard.UNDECIDED
    half = (d.interval[1] - d.interval[0]) / 2
    assert d.instances_to_decide == math.ceil(30 * (half / 0.1) ** 2) > 30
    assert "instances would decide it" in d.text()


def test_paired_rows_are_resampled_together():
    # column 1 = 2 x column 0 exactly: the ratio of means is 2 in every resample
    base = np.random.default_rng(7).uniform(1, 2, 40)
    rows = np.column_stack([base, 2 * base])
    lo, hi = standard.bootstrap_interval(rows, lambda a: float(np.mean(a[:, 1]) / np.mean(a[:, 0])))
    assert lo == pytest.approx(2.0) and hi == pytest.approx(2.0)


def test_infinite_and_nan_statistics():
    x = np.array([1.0, math.inf, math.inf, math.inf, 2.0])
    d = standard.decide("median", x, lambda v: float(np.median(v)), 10.0, ">=")
    assert d.interval[1] == math.inf
    assert standard.decide("mean", np.array([1.0, math.nan, 2.0]), _mean, 0, ">=").outcome == standard.UNDECIDED


def test_combine_and_bad_input():
    h = standard.decide("m", np.ones(5), _mean, 0.5, ">=")
    f = standard.decide("m", np.ones(5), _mean, 2.0, ">=")
    u = standard.decide("m", np.array([0.0, 1.0] * 5), _mean, 0.5, ">=")
    assert standard.combine([h, h]) == standard.HOLDS
    assert standard.combine([h, u]) == standard.UNDECIDED
    assert standard.combine([u, f]) == standard.FAILS
    with pytest.raises(ValueError, match="side"):
        standard.decide("m", np.ones(5), _mean, 1, ">")
    with pytest.raises(ValueError, match="at least 2"):
        standard.bootstrap_interval(np.ones(1), _mean)
