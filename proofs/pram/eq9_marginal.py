"""Sec. 3.1, eq. (8)-(9): the PRAM family is row-stochastic and Z has the marginal (9)."""


from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics import pram

from ._common import PAPER, rational_distribution, rational_points


@claim(
    id="pram.eq9.marginal",
    paper=PAPER,
    source="Sec. 3.1, eq. (8)-(9)",
    statement="For M of form (8), P(Z = j) = p_j q_j + sum_{k != j} p_k (1 - q_k)/(S - 1) = m_j, "
              "computable in O(S) through sum_k p_k (1 - q_k)/(S - 1); M is row-stochastic.",
    hypotheses=("q in [0, 1]^S", "p a probability vector"),
    method=(Method.EXACT, Method.PROPERTY),
)
def check(ctx):
    rng = ctx.rng("pram.eq9")
    n = 0
    for S in range(2, 9):
        for q in rational_points(25, rng, S):
            p = rational_distribution(rng, S, full_support=False)
            M = pram.pram_matrix(q)
            if any(sum(row) != 1 for row in M):
                return Outcome.refuted("matrix (8) is not row-stochastic", counterexample={"q": q}, kind="false")
            direct = [sum(p[k] * M[k][j] for k in range(S)) for j in range(S)]
            eq9 = [p[j] * q[j] + sum(p[k] * (1 - q[k]) / (S - 1) for k in range(S) if k != j)
                   for j in range(S)]
            fast = pram.marginal(p, q)
            if not (direct == eq9 == fast):
                return Outcome.refuted("eq. (9) differs from p M", counterexample={"p": p, "q": q},
                                       direct=direct, eq9=eq9, kind="false")
            n += 1
    return Outcome.verified(f"eq. (9) and its O(S) form equal p M exactly on {n} random rational "
                            "instances, S = 2..8", instances=n)
