"""vertex-enumeration certificates: complete lists accepted; a vertex off its facets, a missing vertex, a
point that is no vertex and an incomplete facet list rejected."""

import copy
import itertools
from fractions import Fraction as F

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.vertices import vertex_certificate
from rldp_verify.core.polytope import vertices

CUBE_CUT = ([[1, 0, 0], [0, 1, 0], [0, 0, 1], [-1, 0, 0], [0, -1, 0], [0, 0, -1], [1, 1, 1]], [1, 1, 1, 0, 0, 0, 2])
CROSS4 = ([list(s) for s in itertools.product([1, -1], repeat=4)], [1] * 16)
SIMPLEX = ([[-1, 0, 0], [0, -1, 0], [0, 0, -1]], [0, 0, 0], [[1, 1, 1]], [1])
# a degenerate pyramid: 4 facets through the apex (0, 0, 1)
PYRAMID = ([[0, 0, -1], [1, 0, 1], [-1, 0, 1], [0, 1, 1], [0, -1, 1]], [0, 1, 1, 1, 1])


@pytest.fixture(params=["cube-cut", "cross4", "simplex", "pyramid"])
def case(request):
    P = {"cube-cut": CUBE_CUT, "cross4": CROSS4, "simplex": SIMPLEX, "pyramid": PYRAMID}[request.param]
    V, rays = vertices(*P)
    assert not rays
    return P, V


@pytest.mark.parametrize("facets_from", ["rows", "hull"])
def test_complete_list_accepted(case, facets_from):
    P, V = case
    r = recheck(vertex_certificate("p", *P[:2], *(P[2:] or ((), ())), vertices=V, facets_from=facets_from))
    assert r.ok, r.message
    assert f"{len(V)} vertices, complete" in r.message


def _cert(P, V):
    return vertex_certificate("p", *P[:2], *(P[2:] or ((), ())), vertices=V)


def test_missing_vertex_rejected(case):
    P, V = case
    assert not recheck(_cert(P, V[1:])).ok   # A's irredundant rows as facets
    hull = vertex_certificate("p", *P[:2], *(P[2:] or ((), ())), vertices=V[1:], facets_from="hull")
    assert not recheck(hull).ok              # the hull of the shorter list, with the LP's multipliers
    stale = copy.deepcopy(_cert(P, V))       # the full list's facets, one vertex dropped
    stale["statement"]["vertices"].pop(0)
    stale["data"]["tight"].pop(0)
    assert not recheck(stale).ok


def test_vertex_off_its_facets_rejected(case):
    P, V = case
    cert = _cert(P, V)
    bad = copy.deepcopy(cert)                # a coordinate moved by 10^-12: off its tight rows (or out of P)
    v = [F(x) for x in bad["statement"]["vertices"][0]]
    v[0] += F(1, 10**12) if v[0] <= 0 else -F(1, 10**12)
    bad["statement"]["vertices"][0] = [str(x) for x in v]
    assert not recheck(bad).ok
    bad = copy.deepcopy(cert)                # a row listed as tight that is not
    loose = [i for i in range(len(P[0])) if i not in cert["data"]["tight"][0]]
    if loose:
        bad["data"]["tight"][0].append(loose[0])
        assert "off a row" in recheck(bad).message


def test_point_that_is_not_a_vertex_rejected():
    V, _ = vertices(*CUBE_CUT)
    mid = [(a + b) / 2 for a, b in zip(V[0], V[1], strict=True)]   # on an edge (or inside): no rank-3 tight set
    assert not recheck(_cert(CUBE_CUT, V + [mid])).ok


def test_incomplete_facet_list_rejected(case):
    P, V = case
    bad = copy.deepcopy(_cert(P, V))
    bad["data"]["facets"].pop()
    assert not recheck(bad).ok


def test_wrong_farkas_rejected():
    V, _ = vertices(*CUBE_CUT)
    bad = copy.deepcopy(_cert(CUBE_CUT, V))
    fk = bad["data"]["facets"][0]["farkas"]
    fk["lam"][0][1] = str(F(fk["lam"][0][1]) + F(1, 10**6))
    assert "facet 0" in recheck(bad).message


def test_vertices_with_certificate_and_rays_refused():
    from rldp_verify.certificates.vertices import vertices_with_certificate
    from rldp_verify.core.errors import InputError

    V, cert = vertices_with_certificate("cube-cut", *CUBE_CUT)
    assert len(V) == 7 and recheck(cert).ok
    with pytest.raises(InputError):
        vertices_with_certificate("quadrant", [[-1, 0], [0, -1]], [0, 0])


def test_gamma_hat_of_polyopt_certified():
    """A real engine polytope: PolyOpt's Gamma-hat (Sec. 5 of the RLDP paper) for a 2 x 2 table of lower bounds."""
    from rldp_verify.certificates.vertices import gamma_hat_certificate
    from rldp_verify.rldp.gamma import gamma_inequalities

    L, e = [[F(1, 5), F(1, 4)], [F(1, 10), F(3, 10)]], F(2)
    V, cert = gamma_hat_certificate("gamma-hat", L, e)
    A, b = gamma_inequalities(L, e)
    r = recheck(cert)
    assert r.ok and r.message.startswith("14 vertices, complete"), r.message
    assert not recheck(vertex_certificate("gamma-hat", A, b, [[1] * 4], [1], V[1:])).ok
