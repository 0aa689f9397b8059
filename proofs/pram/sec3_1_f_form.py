"""Sec. 3.1: the O(S) form of f(q) = I(X, Z) and its minimum at q = 1/S."""

from fractions import Fraction

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import covers
from rldp_verify.certificates.rest import log_ties_evidence
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision
from rldp_verify.topics import pram

from ._common import PAPER, rational_distribution, rational_points


@claim(
    id="pram.sec3-1.f-linear-form",
    paper=PAPER,
    source="Sec. 3.1, the display after f(q) = H(Z) - H(Z|X)",
    statement="f(q) = sum_x p_x (q_x log q_x + (1 - q_x) log((1 - q_x)/(S - 1))) - sum_z m_z log m_z "
              "equals I(X, Z) for the PRAM matrix (8).",
    hypotheses=("natural logarithms, 0 log 0 = 0",),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_form(ctx):
    rng = ctx.rng("pram.f-form")
    worst, n = mpmath.mpf(0), 0
    chosen: list = []
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 8))
        for S in range(2, 9):
            pts = rational_points(20, rng, S) + [[Fraction(1)] * S, [Fraction(0)] * S]
            for q in pts:
                p = rational_distribution(rng, S, full_support=False)
                a, b = pram.f_simplified(p, q), pram.mi_pram(p, q)
                d = abs(a - b)
                worst = max(worst, d)
                if d > tol:
                    return Outcome.refuted("the O(S) form differs from I(X, Z)",
                                           counterexample={"p": p, "q": q}, f_form=a, mi=b, kind="false")
                n += 1
                if len(pts) - pts.index(q) <= 2 or pts.index(q) < 4:
                    chosen.append((p, q))
    return Outcome.verified(f"O(S) form = I(X, Z) on {n} instances (S = 2..8, q incl. 0 and 1); "
                            f"max |difference| {mpmath.nstr(worst, 3)} at {ctx.dps} digits",
                            instances=n, max_abs_difference=mpmath.nstr(worst, 5), dps=ctx.dps,
                            **log_ties_evidence(covers(len(chosen), n, "O(S) form - I(X, Z) within 1e-30, not the "
                                                       "equality (the first 4 random q and the two ends q = 1, q = 0 "
                                                       "for each S = 2..8)", chosen=True),
                                                _form_certificate, chosen))  # issue 23


def _form_expr(p, q) -> list:
    """The display's O(S) form, sum_x p_x (q_x log q_x + (1 - q_x) log((1 - q_x)/(S - 1))) - sum_z m_z log m_z, with
    m_z = sum_x p_x M[x][z] (eq. (9)) written from the exact entries of (8); 0 log 0 = 0: a term whose exact factor
    is 0 is left out."""
    S, M = len(q), pram.pram_matrix(q)
    terms = []
    for x in range(S):
        if p[x] != 0 and q[x] != 0:
            terms.append(["*", p[x], q[x], ["log", q[x]]])
        if p[x] != 0 and q[x] != 1:
            terms.append(["*", p[x], ["-", 1, q[x]], ["log", ["/", ["-", 1, q[x]], S - 1]]])
    m_vals = pram.marginal(p, q)
    m = [["+", 0, *[["*", p[x], M[x][z]] for x in range(S) if p[x] * M[x][z] != 0]] for z in range(S)]
    return ["-", ["+", 0, *terms], ["+", 0, *[["*", e, ["log", e]] for v, e in zip(m_vals, m, strict=True) if v != 0]]]


def _form_certificate(chosen) -> dict:
    """|O(S) form - I(X, Z)| <= 1e-30 at each chosen (p, q): I(X, Z) from the definition (divergence.mi_expr over
    the channel (8)), both evaluated by the checker from p and q."""
    from rldp_verify.certificates.divergence import mi_expr
    from rldp_verify.certificates.instances_other import near_zero

    terms = []
    for p, q in chosen:
        M = pram.pram_matrix(q)
        terms.append(["-", _form_expr(p, q), mi_expr([[M[x][z] for x in range(len(q))] for z in range(len(q))], p)])
    return near_zero(f"the O(S) form of f(q) = I(X, Z) (8) within 1e-30 at {len(chosen)} sampled (p, q), S = 2..8",
                     terms)


@claim(
    id="pram.sec3-1.f-minimum",
    paper=PAPER,
    source="Sec. 3.1, 'f is minimal, equal to 0, for q_1 = .. = q_S = 1/S'",
    statement="f(1/S, ..., 1/S) = 0 = min f.",
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check_min(ctx):
    rng = ctx.rng("pram.f-min")
    with working_precision(ctx.dps):
        for S in range(2, 12):
            q = [Fraction(1, S)] * S
            M = pram.pram_matrix(q)
            if any(x != Fraction(1, S) for row in M for x in row):
                return Outcome.refuted("M(1/S) is not the uniform channel", counterexample={"S": S}, kind="false")
            for _ in range(10):
                p = rational_distribution(rng, S, full_support=False)
                m = pram.marginal(p, q)  # exact: every log-ratio Q(z|x)/m_z is exactly 1
                if any(M[x][z] != m[z] for x in range(S) for z in range(S)):
                    return Outcome.refuted("f(1/S) != 0", counterexample={"S": S, "p": p}, m=m, kind="false")
    return Outcome.verified("M(1/S,...,1/S) has identical (uniform) rows exactly, so Z is independent "
                            "of X and f = 0, the minimum of a mutual information (f >= 0); S = 2..11",
                            **built(_uniform_certs, range(2, 12)))  # issue 23


def _uniform_certs(sizes) -> list[dict]:
    """Per S: the ``symbolic-identity`` certificate (no variables: an exact rational equality) that
    sum_{x, z} (M[x][z] - M[0][z])^2 = 0 for M = M(1/S, ..., 1/S) of eq. (8) (diagonal q_x, off-diagonal
    (1 - q_x)/(S - 1), written with q_x = 1/S for the checker to evaluate): the rows of M are identical, so Z is
    independent of X for every law p and f = I(X, Z) = 0, the minimum of a mutual information."""
    from rldp_verify.certificates import envelope
    from rldp_verify.certificates.value import expr

    out = []
    for S in sizes:
        q = Fraction(1, S)
        M = [[q if x == z else ["/", ["-", 1, q], S - 1] for z in range(S)] for x in range(S)]
        lhs = ["+", *[["pow", ["-", M[x][z], M[0][z]], 2] for x in range(1, S) for z in range(S)]]
        out.append(envelope("symbolic-identity", f"the rows of M(1/S) are identical, S = {S}",
                            {"lhs": expr(lhs), "rhs": 0, "variables": [],
                             "substitution": "no variables: an exact rational equality"}, {"points": {}}))
    return out
