"""Cross-checks on random instances: an independent optimiser over F never exceeds hi; lo <= hi; the
bracket shrinks with the precision (issue 4, Sec. 5)."""

from fractions import Fraction

import numpy as np
import pytest

from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.rldp.uncertainty import RenyiBall
from tests.rldp.audit.independent import best_ratio

CASES = [(Fraction(2), 0), (Fraction(1), 1), (Fraction(3, 4), 2), (Fraction(3), 3), (Fraction(1, 2), 4),
         (Fraction(3, 10), 5)]


def _instance(seed, alpha):
    rng = np.random.default_rng(seed)
    a1, a2, Y = int(rng.integers(2, 4)), int(rng.integers(2, 4)), int(rng.integers(2, 4))
    counts = rng.integers(0 if seed % 2 else 1, 25, size=(a1, a2))
    counts[:, 0] += 1
    Q = rng.dirichlet(np.ones(Y), size=a1 * a2).T
    m = Mechanism.from_matrix(Q, a1, a2, normalize=True)
    ball = RenyiBall.from_radius(counts.tolist(), alpha, Fraction(int(rng.integers(2, 40)), 100))
    return rng, m, ball


@pytest.mark.parametrize("alpha,seed", CASES)
def test_independent_optimiser_never_above_hi(alpha, seed):
    rng, m, ball = _instance(seed, alpha)
    r = audit(m, "1", ball=ball, dps=30)
    assert r.ratio_lower is not None and r.ratio_lower <= r.ratio_upper
    Qf = np.array([[float(v) for v in row] for row in m.matrix])
    ind, _ = best_ratio(Qf, np.array([float(v) for v in ball.flat()]), float(alpha), float(ball.radius),
                        ball.sensitive_size, ball.public_size, rng, starts=3, samples=150)
    assert ind <= float(r.ratio_upper) * (1 + 1e-9)
    # the witness is in F (checked by the audit in arb) and reproduces lo exactly
    W = r.witness
    assert ball.contains(W) is True


@pytest.mark.parametrize("alpha,seed", CASES[:4])
def test_bracket_shrinks_with_precision(alpha, seed):
    _, m, ball = _instance(seed, alpha)
    r20 = audit(m, "1", ball=ball, dps=20, max_dps=20)
    r40 = audit(m, "1", ball=ball, dps=40, max_dps=40)
    g20 = r20.ratio_upper - r20.ratio_lower
    g40 = r40.ratio_upper - r40.ratio_lower
    assert g40 <= g20
    assert g40 < Fraction(1, 10**14)


def test_screen_agrees_with_full_certification():
    _, m, ball = _instance(7, Fraction(2))
    a = audit(m, "1", ball=ball, dps=30)
    b = audit(m, "1", ball=ball, dps=30, screen=False)
    assert a.verdict == b.verdict
    assert b.ratio_lower <= a.ratio_upper and a.ratio_lower <= b.ratio_upper
