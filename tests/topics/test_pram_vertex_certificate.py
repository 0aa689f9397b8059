"""Engine tests: the adjacency certificate of a vertex set (rldp_verify.topics.pram.certify_vertex_set) against cdd's
enumeration, and the wrong point sets and rows it must not accept."""

from fractions import Fraction as F

import pytest

from rldp_verify.topics import pram


def _points(S, t, patterns=None):
    return [tuple(pram.point(p, S, t)) for p in (patterns or pram.prop32_patterns(S))]


@pytest.mark.parametrize("S, t", [(4, F(1)), (5, F(2)), (5, F(13, 5)), (6, F(37, 10)), (6, F(4))])
def test_certificate_agrees_with_enumeration(S, t):
    rows = pram.dp_rows(S, t)
    cert = pram.certify_vertex_set(rows, S, _points(S, t))
    assert cert["ok"], cert["reason"]
    assert set(pram.vertices(rows, S)) == set(_points(S, t))


@pytest.mark.parametrize("S", [5, 6])
def test_certificate_fails_above_S_minus_2(S):
    """Beyond e^alpha = S - 2 the type-5 points are infeasible (pram.prop3-2.condition-sharpness)."""
    t = F(S - 2) + F(1, 100)
    assert not pram.certify_vertex_set(pram.dp_rows(S, t), S, _points(S, t))["ok"]


def test_certificate_rejects_a_missing_orbit_and_an_extra_point():
    S, t = 6, F(2)
    rows = pram.dp_rows(S, t)
    no_type5 = [p for p in pram.prop32_patterns(S) if pram.V_MAX not in p]
    out = pram.certify_vertex_set(rows, S, _points(S, t, no_type5))
    assert not out["ok"] and "leads outside" in out["reason"]
    centre = tuple(sum(c) / len(c) for c in zip(*_points(S, t), strict=True))      # inside, not a vertex
    out = pram.certify_vertex_set(rows, S, _points(S, t) + [centre])
    assert not out["ok"] and "not a vertex" in out["reason"]


def test_certificate_needs_symmetric_rows_and_a_box():
    S, t = 5, F(2)
    rows = pram.dp_rows(S, t)
    asym = rows + [[F(1, 2)] + [F(-1)] + [F(0)] * (S - 1)]              # x_0 <= 1/2 only
    assert "invariant" in pram.certify_vertex_set(asym, S, _points(S, t))["reason"]
    assert "bounded" in pram.certify_vertex_set(pram.dp_rows(S, t, box=False), S, _points(S, t))["reason"]
