"""The reference quantities: formula, inputs, a certified evaluator and the claims that check the formula.

Each evaluator takes a grid point (exact inputs, see :mod:`rldp_verify.reference.inputs`) and ``dps`` and
returns a :class:`~rldp_verify.reference._certify.Ref`: the value printed at ``dps`` significant digits and
a certified bound on its error (arb enclosures of the closed forms, certified brackets of roots, exact
rationals where the value is rational). Papers: [lopuhaa-2024] (RLDP) and
[kairouz-2016] (Kairouz, Oh & Viswanath).

Which claims check each formula is recorded with the claims (``proofs/reference_claims.py``), not here:
the engine knows no papers' claim ids; ``rldp-verify reference`` resolves them in the claim registry.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache

from rldp_verify.core.errors import CertificationError
from rldp_verify.core.information import mutual_information_arb
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.reference._certify import (
    Ref,
    ref_exact,
    ref_from_arb,
    ref_from_bracket,
    ref_inf,
    ref_matrix,
    ref_max,
    t_pair_certified,
)
from rldp_verify.reference._certify import hi as arb_hi
from rldp_verify.reference._certify import lo as arb_lo
from rldp_verify.reference.inputs import Input
from rldp_verify.rldp.mechanisms.grr import grr_matrix_arb
from rldp_verify.rldp.mechanisms.guarantees import realized_log_ratios_arb
from rldp_verify.rldp.mechanisms.ir import ir_matrix_arb
from rldp_verify.rldp.mechanisms.srr import srr_matrix_arb
from rldp_verify.rldp.uncertainty import radius_from_quantile_arb

INF = math.inf


@dataclass(frozen=True)
class Quantity:
    """A reference quantity: its name, formula (with the paper and equation), inputs, the certified evaluator
    ``evaluate(point, dps) -> Ref`` and the default grid."""

    name: str
    formula: str                     # the formula and where it is from
    inputs: tuple[Input, ...]
    evaluate: Callable[[dict, int], Ref]
    default_grid: Callable[[], list[dict]]
    shape: str = "scalar"            # "scalar" or "matrix"


# ------------------------------------------------------------------------------------------- helpers


def _prec(dps: int) -> int:
    return dps + 30


def _B_s_arb(p_s: Fraction, alpha: Fraction, B, dps: int):
    """arb enclosure of B_s (Theorem 1, eq. (23)) through the engine's RenyiBall (None = +inf)."""
    from rldp_verify.rldp.uncertainty import RenyiBall

    if p_s == 0 or B == INF:
        return None
    ball = RenyiBall.from_radius([[p_s], [1 - p_s]], alpha, B)
    return ball.conditional_radius_arb(0, dps=_prec(dps))


def _cond_radius(p_s, alpha, B, dps):
    """B_s as arb (None = +inf), re-trying at higher precision when alpha < 1 leaves the sign of the log's
    argument undecided."""
    for extra in (0, 50, 200):
        r = _B_s_arb(p_s, alpha, B, dps + extra)
        if r is not None or alpha >= 1 or p_s == 0 or B == INF:
            return r
        with arb_precision(_prec(dps + extra)):
            a = arb_exact(alpha)
            arg = ((a - 1) * arb_exact(B) / a).exp() - (1 - arb_exact(p_s))
            if arg <= 0:
                return None   # the whole simplex (RLDP paper, our reading of Theorem 1 for alpha < 1)
    raise CertificationError(f"B_s undecided for P_s = {p_s}, alpha = {alpha}, B = {B}")


# ------------------------------------------------------------------------------------------- B


@lru_cache(maxsize=256)
def _quantile_bracket(conf: Fraction, k: int, dps: int):
    from rldp_verify.core.stats import chi2_quantile_bracket

    return chi2_quantile_bracket(conf, k, dps=dps)


def eval_B(pt, dps):
    """B = log(1 + alpha (alpha - 1) q / (2n)) / (alpha - 1) (q / (2n) at alpha = 1), q the chi-square quantile of
    level ``confidence`` with a - 1 degrees of freedom: eq. (11) of 000, Sec. 3. Certified: B is increasing in q,
    so the bracket of q gives a bracket of B (arb), rounded outwards; +inf when the log's argument is <= 0."""
    alpha, conf, n, a = pt["alpha"], pt["confidence"], pt["n"], pt["a"]
    q_lo, q_hi = _quantile_bracket(conf, a - 1, dps + 10)
    with arb_precision(_prec(dps)):

        def B(q):
            try:
                return radius_from_quantile_arb(q, alpha, n)
            except CertificationError:
                raise CertificationError(f"sign of 1 + alpha(alpha-1)q/(2n) undecided at {pt}") from None

        lo, hi = B(q_lo), B(q_hi)     # B is increasing in the quantile q
        if lo is None and hi is None:
            return ref_inf()
        if lo is None or hi is None:
            raise CertificationError(f"B crosses +inf inside the quantile bracket at {pt}")
        return ref_from_bracket(arb_lo(lo), arb_hi(hi), dps)


# ------------------------------------------------------------------------------------------- B_s


def eval_B_s(pt, dps):
    """B_s, the radius of the projection F_{U|s} of Theorem 1 (000, Sec. 4.1), from P-hat_s, alpha and B:
    certified arb bracket (clipped at 0 from below), +inf when the projection is the whole simplex."""
    r = _cond_radius(pt["p_s"], pt["alpha"], pt["B"], dps)
    if r is None:
        return ref_inf()
    return ref_from_bracket(max(arb_lo(r), Fraction(0)), arb_hi(r), dps)   # B_s >= 0


# ------------------------------------------------------------------------------------------- xi-, xi+, L


def _radius_arb(B):
    return None if B == INF else B


def eval_xi(side):
    """The evaluator of ``xi_-`` (``side`` < 0) or ``xi_+`` (``side`` > 0) of eq. (28) (000, Sec. 4.2): the certified
    bracket of ``t_-(rho) / rho`` or ``t_+(rho) / rho`` for the binary Rényi ball of radius B_s."""
    def ev(pt, dps):
        rho, alpha, B = pt["rho"], pt["alpha"], pt["B_s"]
        (m_lo, m_hi), (p_lo, p_hi) = t_pair_certified(rho, alpha, _radius_arb(B), dps)
        lo, hi = (m_lo, m_hi) if side < 0 else (p_lo, p_hi)
        return ref_from_bracket(lo / rho, hi / rho, dps)
    return ev


def eval_L(pt, dps):
    """L_{u|s} = ``t_-(rho)`` with rho = P-hat_{u|s} (Proposition 1, 000 Sec. 4.2): certified bracket; 0 when
    P-hat_s = 0."""
    rho, p_s, alpha, B = pt["rho"], pt["p_s"], pt["alpha"], pt["B"]
    if p_s == 0:
        return ref_exact(Fraction(0), dps)
    Bs = _cond_radius(p_s, alpha, B, dps)
    (lo, hi), _ = t_pair_certified(rho, alpha, Bs, dps)
    return ref_from_bracket(lo, hi, dps)


def eval_rad(pt, dps):
    """rad_s = 2 max_{U1} (t_+(P-hat_{U1|s}) - P-hat_{U1|s}) (eq. (30), 000 Sec. 4.2) over every subset sum of the
    conditional: certified bracket; 2 when P-hat_s = 0."""
    cond, p_s, alpha, B = pt["cond"], pt["p_s"], pt["alpha"], pt["B"]
    if p_s == 0:
        return ref_exact(Fraction(2), dps)
    Bs = _cond_radius(p_s, alpha, B, dps)
    sums = {Fraction(0)}
    for v in cond:
        sums |= {x + v for x in sums}
    sums = sorted(s for s in sums if 0 < s < 1)
    lo_best, hi_best = Fraction(0), Fraction(0)   # rad = 2 max_{U1} (t+(P_U1) - P_U1), eq. (30); U1 = U gives 0
    for s in sums:
        _, (p_lo, p_hi) = t_pair_certified(s, alpha, Bs, dps)
        lo_best, hi_best = max(lo_best, p_lo - s), max(hi_best, p_hi - s)
    return ref_from_bracket(2 * lo_best, 2 * hi_best, dps)


# ------------------------------------------------------------------------------------------- matrices


def _exp_arb(eps):
    return arb_exact(eps).exp()


def _matrix_arb(pt):
    kind = pt.get("mechanism")
    if "delta2" in pt:
        return ir_matrix_arb(pt["a1"], pt["a2"], _exp_arb(pt["eps1"]), _exp_arb(pt["delta2"]))
    if kind == "grr" or (kind is None and "a" in pt):
        size = pt["a"] if "a" in pt else pt["a1"] * pt["a2"]
        return grr_matrix_arb(size, _exp_arb(pt["eps"]))
    return srr_matrix_arb(pt["a1"], pt["a2"], _exp_arb(pt["eps"]))


def eval_matrix(pt, dps):
    """The matrix of GRR (eq. (56)), SRR (Definition 4) or IR (Definition 5) of 000 at exp(eps): arb entries,
    rounded outwards."""
    with arb_precision(_prec(dps)):
        Q = _matrix_arb(pt)
        return ref_matrix([[ref_from_arb(v, dps) for v in row] for row in Q])


def eval_utility(pt, dps):
    """The utility I_P-hat(X;Y) of GRR / SRR / IR (000, eq. (8)) as a certified arb bracket."""
    phat = pt["phat"]
    a1, a2 = len(phat), len(phat[0])
    pt = dict(pt, a1=a1, a2=a2)
    flat = [v for r in phat for v in r]
    with arb_precision(_prec(dps)):
        return ref_from_arb(mutual_information_arb(_matrix_arb(pt), flat), dps)


def eval_realized_eps(pt, dps):
    """eps* = max_{y, s != s'} log(P(y|s)/P(y|s')) under X ~ P (Sec. 8.3, eq. (62)); s with P_s = 0 skipped."""
    P = pt["p"]
    a1, a2 = len(P), len(P[0])
    with arb_precision(_prec(dps)):
        Q = _matrix_arb(dict(pt, a1=a1, a2=a2))
        best = [ref_from_arb(x, dps) for x in realized_log_ratios_arb(Q, P, a1, a2)]
        return ref_max(best) if best else ref_exact(Fraction(0), dps)


# ------------------------------------------------------------------------------------------- PolyOpt, audit


def _polyopt(pt, dps):
    from rldp_verify.rldp.mechanisms import polyopt
    from rldp_verify.rldp.uncertainty import RenyiBall

    ball = RenyiBall.from_radius(pt["phat"], pt["alpha"], pt["B"])
    return polyopt(ball, f"log({pt['exp_eps'].numerator}/{pt['exp_eps'].denominator})", dps=dps)


def eval_polyopt_matrix(pt, dps):
    """The PolyOpt mechanism (000, Definition 3 / LP (46)) built by the engine: its exact rational entries."""
    m = _polyopt(pt, dps)
    return ref_matrix([[ref_exact(Fraction(v), dps) for v in row] for row in m.matrix])


def eval_polyopt_utility(pt, dps):
    """The certified bracket [lower, upper] of the optimum of LP (46) recorded with the PolyOpt mechanism."""
    m = _polyopt(pt, dps)
    lo, hi = (Fraction(x) for x in m.parameters["optimum_bracket"])
    return ref_from_bracket(lo, hi, dps)


def eval_audit_ratio(pt, dps):
    """The worst ratio sup_{P in F} P(y|s)/P(y|s') of GRR or SRR at e^eps over the Rényi ball F (Definition 1 of
    000): the certified audit's bracket [lower (a witness in F), upper (arb)]."""
    from rldp_verify.rldp.audit import audit
    from rldp_verify.rldp.mechanisms import grr_matrix, srr_matrix
    from rldp_verify.rldp.mechio import Mechanism

    phat = pt["phat"]
    a1, a2 = len(phat), len(phat[0])
    r = pt["exp_eps"]
    Q = grr_matrix(a1 * a2, r) if pt["mechanism"] == "grr" else srr_matrix(a1, a2, r)
    res = audit(Mechanism.from_matrix(Q, a1, a2), "0", phat=phat, alpha=pt["alpha"], radius=pt["B"],
                dps=max(dps, 15), max_dps=max(dps, 15))
    if res.ratio_lower is None or res.ratio_upper == INF:
        raise CertificationError(f"the audit could not bracket the worst ratio at {pt}")
    return ref_from_bracket(Fraction(res.ratio_lower), Fraction(res.ratio_upper), dps)


# ------------------------------------------------------------------------------------------- Kairouz


def eval_kairouz_f(pt, dps):
    """eps* = log t* of the universal binary threshold (004, Lemma 24: a closed form), certified in arb;
    +inf when there is none."""
    from rldp_verify.topics.extremal.thresholds import universal_binary_threshold

    uni = universal_binary_threshold(pt["p0"], pt["p1"])
    if uni.t_star is None:
        return ref_inf()
    with arb_precision(_prec(dps)):
        return ref_from_arb(arb_exact(uni.t_star).log(), dps)


def eval_kairouz_kl_rr(pt, dps):
    """The threshold eps* above which randomized response maximises the KL utility (004, Theorem 8): a bisected
    bracket [log t_lo, log t_hi] whose tail beyond the grid is certified; CertificationError otherwise."""
    from rldp_verify.topics.extremal.tail import certify_rr_tail, kl_tail
    from rldp_verify.topics.extremal.thresholds import bracket_threshold, default_grid, rr_status
    from rldp_verify.topics.extremal.utilities import mu_kl

    P0, P1 = pt["p0"], pt["p1"]
    k = len(P0)
    mu = mu_kl(P0, P1)
    m_of_set = kl_tail(P0, P1)
    br = bracket_threshold(lambda t: rr_status(mu, k, t), "rr", default_grid(0.001, 30.0), tol=1e-12,
                           tail_fn=lambda t: certify_rr_tail(k, m_of_set, 1 / t))
    if br.kind != "bisected" or not br.tail_certified:
        raise CertificationError(f"no certified RR threshold bracket for {pt} ({br.kind})")
    lo_t = Fraction(1) if br.t_lo is None else Fraction(br.t_lo)
    hi_t = Fraction(br.t_hi)
    with arb_precision(_prec(dps)):
        return ref_from_bracket(arb_lo(arb_exact(lo_t).log()), arb_hi(arb_exact(hi_t).log()), dps)
