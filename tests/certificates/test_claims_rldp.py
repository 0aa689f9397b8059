"""Certificates of the RLDP paper's claims (proofs/rldp, issue 23): built by the claims' own builders, accepted by
the independent checker, and rejected once a number in them is made wrong (a narrowed bound, a witness moved out
of the ball, an excluded level moved inside the reachable set, a printed value replaced by the true one)."""

import copy
from fractions import Fraction as F

import flint
import pytest

from rldp_verify.certificates import recheck
from rldp_verify_check.value import evaluate


def _value(doc, prec=400) -> flint.arb:
    with flint.ctx.workprec(prec):
        return evaluate(doc["statement"]["expr"])


def _mid(doc) -> F:
    """A rational at the centre of the checker's own ball of the certificate's expression."""
    return F(_value(doc).mid().str(60, radius=False))


def _with(doc, **statement):
    bad = copy.deepcopy(doc)
    bad["statement"].update(statement)
    return bad


def test_thm4_zero_mass_gap_narrowed_above_the_true_gap_rejected():
    from fractions import Fraction

    from proofs.rldp.thm4_srr_optimal import _gap_certificates, _rr_on_support

    docs = _gap_certificates([Fraction(0), Fraction(1, 2), Fraction(1, 2)], 3, 1, _rr_on_support)
    assert len(docs) == 6 and all(recheck(d).ok for d in docs)
    # the lower end moved just above the true gap I(better) - I(SRR) (1e-40 above the ball's centre)
    gap = _mid(docs[0])
    assert gap > 0
    r = recheck(_with(docs[0], lower=str(gap + F(1, 10**40))))
    assert not r.ok and "not certainly in" in r.message
    # and SRR compared with itself (gap exactly 0) is not certainly > 0
    same = _with(docs[0], expr=["-", docs[0]["statement"]["expr"][2], docs[0]["statement"]["expr"][2]])
    assert not recheck(same).ok


def test_xi_plus_domain_witness_moved_outside_the_ball_rejected():
    from proofs.rldp.sec4_2_phi import _domain_certificates

    rho, B = F(1, 10), F(1)
    inside, beyond_cap = _domain_certificates(rho, B, F(1, 5))   # R = 1/5: D_2 = log(1/20 + 81/80) < 1
    assert recheck(inside).ok and recheck(beyond_cap).ok
    # R = 9/10 lies outside the ball (D_2(Bern(1/10)||Bern(9/10)) = log(1/90 + 81/10) > 1): its membership is rejected
    outside, _ = _domain_certificates(rho, B, F(9, 10))
    assert not recheck(outside).ok
    # a witness at the printed cap rho/(1-rho) = 1/9 itself is not beyond it
    _, at_cap = _domain_certificates(rho, B, F(1, 9))
    assert not recheck(at_cap).ok


def test_fprime_linear_form_true_coefficient_is_not_the_printed_one():
    from proofs.rldp.ex2_projections import check_linear

    docs = check_linear(None).evidence["certificates"]
    assert len(docs) == 1 and recheck(docs[0]).ok
    # the printed value replaced by the true one, 1 - 0.1620 = 0.838: "0.838 < 0.838" is rejected
    assert not recheck(_with(docs[0], upper="0.838")).ok


@pytest.fixture(scope="module")
def a5_decision():
    """A Lemma A5 decision (max P_x over a Rényi ball around (1/4, 3/4), alpha = 2, B = 1/10) and its certificates."""
    from proofs.rldp._certified import ETA, RowProblem, agreement_certificates, decide
    from rldp_verify.rldp.uncertainty import SimplexBall

    center, alpha, B = [F(1, 4), F(3, 4)], F(2), F(1, 10)
    _, tp = SimplexBall(tuple(center), alpha, B).coordinate_interval(0, dps=30)
    prob = RowProblem([center], 0, alpha, B, dps=40)
    status, detail = decide(tp, ETA, lambda t: prob.coordinate_feasible(0, t, "max"),
                            lambda t: prob.coordinate_infeasible(0, t, "max"), sense="sup")
    assert status == "agrees"
    return agreement_certificates(prob, "max", detail, u=0)


def test_lemma_a5_certificates_accepted(a5_decision):
    assert len(a5_decision) == 3
    assert all(recheck(d).ok for d in a5_decision), [recheck(d).message for d in a5_decision]


def test_lemma_a5_witness_bound_narrowed_rejected(a5_decision):
    """The witness's membership D_2(P^||P) <= B with B replaced by a bound 1e-40 below D_2 itself."""
    member = a5_decision[0]
    assert "witness P in F" in member["name"]
    r = recheck(_with(member, upper=str(_mid(member) - F(1, 10**40))))
    assert not r.ok and "not certainly in" in r.message


def test_lemma_a5_excluded_level_moved_inside_rejected(a5_decision):
    """The exclusion Phi(D(Bern(rho)||Bern(t))) > B at a level t 1e-15 below the true maximum: the checker finds the
    divergence there below B."""
    excl = a5_decision[2]
    assert "no P in F reaches" in excl["name"]
    witness_level = F(a5_decision[1]["statement"]["lower"])   # the witness's level - eta
    from rldp_verify.certificates.divergence import binary_renyi_expr
    from rldp_verify.certificates.value import expr

    bad = _with(excl, expr=expr(binary_renyi_expr(F(1, 4), witness_level - F(1, 10**15), 2)))
    assert not recheck(bad).ok


def test_lemma_a8_slice_missing_vertex_rejected():
    """The extreme generators of Lemma A8 at 2 x 2, e^eps = 3/2, as the complete vertex list of C ∩ {sum = 1}:
    accepted; with one generator dropped the list is incomplete and rejected."""
    from proofs.rldp.lemA8_cone import _slice_certificate

    doc = _slice_certificate(2, 2, F(3, 2), "blocks")
    assert recheck(doc).ok
    bad = copy.deepcopy(doc)
    bad["statement"]["vertices"].pop()
    bad["data"]["tight"].pop()
    assert not recheck(bad).ok


def test_lemma_a8_single_secret_separation_perturbed_rejected():
    """The separating y of Lemma A8 with |S| = 1: the optimum 1 is accepted; a dual multiplier changed, or the
    stated optimum moved by 1/10^9, is rejected."""
    from proofs.rldp.lemA8_cone import _separation_certificate
    from rldp_verify.rldp.srr_threshold import lemma_a8_generators

    doc = _separation_certificate(lemma_a8_generators(1, 2, F(2)), (F(1), F(0)))
    assert recheck(doc).ok
    y = doc["data"]["y"]
    j = next(i for i, v in enumerate(y) if F(v) != 0)
    bad = copy.deepcopy(doc)
    bad["data"]["y"][j] = str(F(y[j]) + F(1, 10**9))
    assert not recheck(bad).ok
    assert not recheck(_with(doc, value=str(1 + F(1, 10**9)))).ok


def test_grr_status_certificates_flipped_rejected():
    """GRR in LP (11) for P = (2/5, 3/10, 1/5, 1/10) (rldp.sec7.choice-of-grr, rldp.sec9.grr-regime): optimal at
    e^eps = 100, not at 11/10. The opposite statements are rejected (a negative reduced cost at 11/10; none at 100),
    and so is the dual's basic-residual certificate with its denominator t + k - 1 changed to t + k (a wrong alpha)."""
    from proofs.rldp.sec1_9_sentences import GRR_P
    from rldp_verify.certificates.staircase import rr_status_certificate

    assert all(recheck(d).ok for d in rr_status_certificate("ok", GRR_P, F(100), True))
    assert all(recheck(d).ok for d in rr_status_certificate("ok", GRR_P, F(11, 10), False))
    assert not recheck(rr_status_certificate("flipped", GRR_P, F(11, 10), True)[0]).ok
    with pytest.raises(ValueError, match="no pattern"):
        rr_status_certificate("flipped", GRR_P, F(100), False)
    doc = rr_status_certificate("ok", GRR_P, F(100), True)[1]   # the basic residuals

    def swap(e):   # t + k - 1 = 103 -> 104 wherever it occurs
        return [swap(a) for a in e] if isinstance(e, list) else (104 if e == 103 else e)

    wrong = _with(doc, expr=swap(doc["statement"]["expr"]))
    assert wrong != doc and not recheck(wrong).ok


def test_srr_dual_with_a_wrong_inverse_entry_rejected():
    """Theorem 4's LP for Example 1's P-hat at e^eps = 30 (rldp.thm4.*): SRR optimal, its dual >= 0, accepted; one
    coefficient of the exact inverse (A_B^T)^-1 moved by 1/10^6 breaks the basic equations and is rejected; at
    e^eps = 2 (and 10) SRR is not optimal, and claiming it optimal there is rejected."""
    from proofs.rldp.thm4_srr_optimal import PHAT
    from rldp_verify.certificates.srr import srr_status_certificates

    docs = srr_status_certificates("ok", PHAT, 2, 2, F(30), True, dual_sign=True)
    assert len(docs) == 3 and all(recheck(d).ok for d in docs)
    res = docs[0]
    binds = res["statement"]["expr"][1]
    a0 = next(b for b in binds if b[0] == "a0")
    term = a0[1][2]                         # ["*", inv[0][j], "$mj"]
    bad = copy.deepcopy(res)
    bad_a0 = next(b for b in bad["statement"]["expr"][1] if b[0] == "a0")
    bad_a0[1][2] = ["*", str(F(term[1]) + F(1, 10**6)), term[2]]
    assert not recheck(bad).ok
    assert all(recheck(d).ok for d in srr_status_certificates("ok", PHAT, 2, 2, F(2), False))
    assert not recheck(srr_status_certificates("wrong", PHAT, 2, 2, F(2), True)[1]).ok
    assert not recheck(srr_status_certificates("wrong", PHAT, 2, 2, F(10), True)[1]).ok
