"""Issue 24: the rigorous refutations of 'exists eps*' statements (Theorems 8/14 on a tail of eps, Theorem 12 near 0)."""

from fractions import Fraction as F

from rldp_verify.core.rigorous import arb_precision
from rldp_verify.topics.extremal.tail import h_all, kl_tail, mi_tail, rr_not_optimal_on_tail

P4 = (F(1, 10), F(2, 10), F(3, 10), F(4, 10))


def _negated(m_of_set):
    return lambda A: (lambda g: lambda lo, hi: -g(lo, hi))(m_of_set(A))


def test_true_mi_and_kl_have_no_negative_tail():
    assert rr_not_optimal_on_tail(4, mi_tail(P4)) is None
    assert rr_not_optimal_on_tail(3, kl_tail((F(1, 2), F(1, 3), F(1, 6)), (F(1, 5), F(3, 10), F(1, 2)))) is None


def test_negated_utility_is_refuted_on_a_whole_tail():
    found = rr_not_optimal_on_tail(4, _negated(mi_tail(P4)))
    assert found is not None and len(found["pattern"]) >= 2 and F(found["s0"]) == F(1, 1000)
    # the enclosure is really negative over [0, s0] (recomputed with the public wrapper)
    A = frozenset(found["pattern"])
    m = _negated(mi_tail(P4))
    with arb_precision(64):
        h = h_all([m(frozenset({i})) for i in range(4)], {A: m(A)}, [A], 4, F(0), F(found["s0"]))[0]
    assert h < 0


def test_thm12_series_refutation():
    from proofs.kairouz.thm12_mutual_information import _binary_beaten_near_zero, _f_u

    assert _binary_beaten_near_zero(P4, frozenset({0, 3}), _f_u) is None          # P(T) = 1/2: the maximiser
    wrong = _binary_beaten_near_zero(P4, frozenset({0}), _f_u)                    # P(T) = 1/10: beaten at eps^2
    assert wrong is not None and wrong["U(bin A) - U(bin T) eps-coefficients (eps^0..)"][:2] == ["0", "0"]
    assert _binary_beaten_near_zero(P4, frozenset({0, 3}), lambda z, u: -_f_u(z, u)) is not None   # -mu
