"""vertex-enumeration certificates of the mechanism polytope D_eps,l (Kairouz et al., Sec. 7): the simple
polytope at k = 2, l = 8 (64 vertices, dimension 14: the checker's route (a), vertex by vertex) and a
degenerate one at k = 3, l = 4 (88 vertices: route (b), the ridge walk) are accepted in seconds; without a
vertex, without a facet or with a vertex replaced by the midpoint of an edge they are rejected."""

import copy
from fractions import Fraction as F

import pytest

from proofs.kairouz.lem22_polytope import _vertex_certificates
from rldp_verify.certificates import recheck
from rldp_verify.topics.extremal.polytope import ldp_polytope_vertices


def _cert(k, l, t=F(2)):
    return _vertex_certificates([(k, l, t, ldp_polytope_vertices(k, l, t))])["certificates"][0]


@pytest.fixture(scope="module", params=[(2, 8), (3, 4)], ids=["simple-64", "degenerate-88"])
def cert(request):
    return _cert(*request.param)


def test_complete_list_accepted(cert):
    r = recheck(cert)
    assert r.ok and r.message.startswith(f"{len(cert['statement']['vertices'])} vertices, complete"), r.message


def test_missing_vertex_rejected(cert):
    bad = copy.deepcopy(cert)    # (route (a) fails at the lost vertex's neighbours; route (b)'s walk then too)
    del bad["statement"]["vertices"][5], bad["data"]["tight"][5]
    assert not recheck(bad).ok


def test_dropped_facet_rejected(cert):
    for i in (0, len(cert["data"]["facets"]) - 1):
        bad = copy.deepcopy(cert)
        del bad["data"]["facets"][i]
        assert not recheck(bad).ok


def test_vertex_replaced_by_an_edge_midpoint_rejected(cert):
    V = [[F(x) for x in v] for v in cert["statement"]["vertices"]]
    on = [set(T) for T in cert["data"]["tight"]]
    j = max(range(1, len(V)), key=lambda u: len(on[0] & on[u]))      # a vertex sharing most rows with vertex 0
    mid = [(a + b) / 2 for a, b in zip(V[0], V[j], strict=True)]
    bad = copy.deepcopy(cert)
    bad["statement"]["vertices"][0] = [str(x) for x in mid]
    bad["data"]["tight"][0] = sorted(on[0] & on[j])
    assert not recheck(bad).ok


def test_claim_builders_theorem4_lp_and_gamma_hat():
    """The builders wired into kairouz.thm4.vertex-counts-exhaustive (LP polytope) and rldp.sec5.vertex-bound
    (Gamma-hat): the engine's lists accepted; a list short of a vertex rejected (LP) or refused (Gamma-hat: the
    certified list must be the counted one)."""
    from proofs.kairouz.lem22_polytope import _lp_certificates
    from proofs.rldp.sec5_complexity import _counted_certificates
    from rldp_verify.rldp.gamma import gamma_hat_vertices
    from rldp_verify.topics.extremal.polytope import lp_polytope_vertices

    th = lp_polytope_vertices(3, F(2))
    good, short = _lp_certificates([(3, F(2), th), (3, F(2), th[1:])])
    assert recheck(good).ok and not recheck(short).ok
    L, e = [[F(1, 10), F(1, 5)], [F(0), F(3, 20)]], F(3, 2)
    V = gamma_hat_vertices(L, e)
    assert recheck(_counted_certificates([(2, 2, e, L, V)])[0]).ok
    with pytest.raises(ValueError, match="not the counted one"):
        _counted_certificates([(2, 2, e, L, V[1:])])
