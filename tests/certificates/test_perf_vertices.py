"""The vertex checker's affine dimensions from homogeneous rows (1, v), each scaled to integers by its own
denominators (the global lcm of the 3 x 3 Gamma-hat's 510 vertices has 5,550 bits and made its re-check take
about 130 s; now a few seconds); equal to the affine dimension of the differences on random rational points; the
3 x 3 instance of rldp.sec5.vertex-bound accepted, and rejected without one of its vertices (slow: ~8 s)."""

import copy
import random
from fractions import Fraction as F
from math import lcm

import flint
import pytest

from rldp_verify.certificates import recheck
from rldp_verify_check.vertices import _affdim


def _brute(pts) -> int:
    if not pts:
        return -1
    rows = [[flint.fmpq((a - c).numerator, (a - c).denominator) for a, c in zip(p, pts[0], strict=True)] for p in pts]
    return flint.fmpq_mat(rows).rank()


def test_affdim_from_homogeneous_rows_is_the_affine_dimension():
    rng = random.Random(11)
    for _ in range(200):
        n, k = rng.randint(1, 5), rng.randint(1, 7)
        base = [[F(rng.randint(-5, 5), rng.randint(1, 9)) for _ in range(n)] for _ in range(3)]
        pts = [[sum((F(rng.randint(-2, 2)) * b[j] for b in base), F(rng.randint(0, 1), 7)) for j in range(n)]
               for _ in range(k)]                    # points on low-dimensional affine sets, repeats included
        Vz = [[(m := lcm(*(x.denominator for x in v)))] + [int(x * m) for x in v] for v in pts]
        S = rng.randint(0, (1 << k) - 1)
        assert _affdim(Vz, S, {}) == _brute([p for i, p in enumerate(pts) if S >> i & 1]), (pts, S)


@pytest.mark.slow
def test_gamma_hat_3x3_accepted_and_a_dropped_vertex_rejected():
    from proofs.rldp.sec5_complexity import _instance
    from rldp_verify.certificates.vertices import gamma_hat_certificate

    rng = random.Random("20240306:sec5-vertex-bound")   # the claim's instances; the 3 x 3 one is the 11th
    for a1, a2 in ((2, 2), (2, 3), (3, 2), (2, 4), (4, 2)):
        _instance(rng, a1, a2), _instance(rng, a1, a2)
    L = _instance(rng, 3, 3)
    V, cert = gamma_hat_certificate("Gamma-hat (3 x 3, e^eps = 3/2)", L, F(3, 2))
    assert len(V) == 510
    r = recheck(cert)
    assert r.ok and r.message.startswith(f"{len(V)} vertices, complete (polytope of dimension 8"), r.message
    bad = copy.deepcopy(cert)
    del bad["statement"]["vertices"][7], bad["data"]["tight"][7]
    r = recheck(bad)
    assert not r.ok and "incomplete" in r.message, r.message
