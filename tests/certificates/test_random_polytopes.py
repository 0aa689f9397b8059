"""Random polytopes (dimension 2 to 4, a box cut by random integer rows, some with an equality): the complete
vertex list is accepted; without any one vertex, or without any one facet, it is rejected."""

import copy
import random

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.vertices import vertex_certificate, vertices_with_certificate


def _polytope(rng):
    n = rng.choice([2, 3, 3, 4])
    A = [[1 if j == i else 0 for j in range(n)] for i in range(n)] + [[-1 if j == i else 0 for j in range(n)]
                                                                      for i in range(n)]
    b = [rng.randint(1, 4) for _ in range(n)] + [rng.randint(0, 2) for _ in range(n)]
    for _ in range(rng.randint(1, 4)):
        A.append([rng.randint(-3, 3) for _ in range(n)])
        b.append(rng.randint(0, 6))
    E, f = ([[1] * n], [rng.randint(0, 2)]) if rng.random() < 0.3 else ([], [])
    return A, b, E, f


@pytest.mark.parametrize("seed", range(25))
def test_random_polytope(seed):
    rng = random.Random(seed)
    A, b, E, f = _polytope(rng)
    V, cert = vertices_with_certificate("random", A, b, E, f)
    if not V:
        pytest.skip("empty polytope")
    r = recheck(cert)
    assert r.ok, r.message
    if len(V) > 1:
        k = rng.randrange(len(V))
        assert not recheck(vertex_certificate("minus-one", A, b, E, f, V[:k] + V[k + 1:])).ok
        stale = copy.deepcopy(cert)
        stale["statement"]["vertices"].pop(k)
        stale["data"]["tight"].pop(k)
        assert not recheck(stale).ok
    if cert["data"]["facets"]:
        bad = copy.deepcopy(cert)
        bad["data"]["facets"].pop(rng.randrange(len(bad["data"]["facets"])))
        assert not recheck(bad).ok
