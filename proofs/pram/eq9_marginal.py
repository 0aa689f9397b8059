"""Sec. 3.1, eq. (8)-(9): the PRAM family is row-stochastic and Z has the marginal (9)."""


from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import CAP, all_zero, covers
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
    n, certified = 0, []
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
            if len(certified) < CAP or len(certified[-1][1]) < S:  # the first CAP and the first of each larger S
                certified.append((p, q, fast))
    return Outcome.verified(f"eq. (9) and its O(S) form equal p M exactly on {n} random rational "
                            "instances, S = 2..8", instances=n,
                            certificate_covers=covers(len(certified), n, "equalities (rows of M(q) of (8) sum to 1, "
                                                      "p M = eq. (9) = the engine's O(S) marginal, M written from q) "
                                                      f"-- the first {CAP} and the first instance of each larger S", chosen=True),
                            **built(_certificate, certified))


def _certificate(instances) -> dict:
    """One exact certificate: for each instance (p, q, the engine's marginal), every row sum of M(q) - 1, p M - eq. (9)
    and p M - the engine's value is 0 (M's entries q_k and (1 - q_k)/(S - 1) written from q)."""
    terms = []
    for p, q, fast in instances:
        S = len(q)
        M = [[q[k] if j == k else ["/", ["-", 1, q[k]], S - 1] for j in range(S)] for k in range(S)]
        terms += [["-", ["+", *row], 1] for row in M]
        for j in range(S):
            direct = ["+", *[["*", p[k], M[k][j]] for k in range(S)]]
            eq9 = ["+", ["*", p[j], q[j]], *[["/", ["*", p[k], ["-", 1, q[k]]], S - 1] for k in range(S) if k != j]]
            terms += [["-", direct, eq9], ["-", direct, fast[j]]]
    return all_zero(f"eq. (9): row sums of M(q) = 1 and p M = eq. (9) = the O(S) marginal on {len(instances)} "
                    "sampled (p, q)", terms)
