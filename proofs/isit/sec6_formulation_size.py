"""Sec. VI (issue 12): "Our convex formulations ... have a number of variables and constraints that grows
exponentially in |S| and |U|."

We count the scalar variables and constraints two ways: from the paper's formulas (the decision variable
P_{Y|SU} with Y = U; robust utility (22) through Theorem 2's (21): w in R^{|S||U|}, c, D; robust privacy (30)
through Theorem 4's (29): c, w_1, w_2 in R^{|U|} for each (y, s1 != s2)), and from the cvxpy model that
rldp_verify builds for RURP (every scalar of every variable, every scalar constraint row). Both are
polynomials of degree 2 in |S| and in |U| (O(|S|^2 |U|^2)). The check passes the counting formula in as a
parameter; the test runs an exponential variant (one privacy constraint per output set, as in set-based
LDP (1) of seed 004) to see the verdict flip.
"""

from __future__ import annotations

from rldp_verify.claims import Method, Outcome, claim

from ._common import PAPER


def paper_count(nS: int, nU: int, variant: str = "paper") -> tuple[int, int]:
    """(variables, constraints) of RURP from the formulas of Secs. II-IV."""
    pairs = nS * (nS - 1)
    vars_ = nS * nU * nU + (nS * nU + 2) + nU * pairs * (1 + 2 * nU)
    cons = nS * nU + nS * nU * nU + (nS * nU + 2) + nU * pairs * (2 * nU + 2)
    if variant == "per-set":  # wrong variant: one robust constraint per output set S subset Y
        vars_ += (2 ** nU) * pairs * (1 + 2 * nU)
        cons += (2 ** nU) * pairs * (2 * nU + 2)
    return vars_, cons


def cvxpy_count(nS: int, nU: int) -> tuple[int, int]:
    import numpy as np

    from rldp_verify.topics.chisquare.protocols import ProtocolSolver

    d = (np.arange(nU)[:, None] - np.arange(nU)[None, :]) ** 2
    prob = ProtocolSolver("RURP", nS, d, 0.5).problem
    return sum(v.size for v in prob.variables()), sum(c.size for c in prob.constraints)


def size_certificates(variant: str = "paper") -> list[dict]:
    """The count is a polynomial, certified as ``symbolic-identity`` certificates in the variables S = |S|, U = |U|:
    (variables + constraints) of :func:`paper_count`, written as its formula, equals 4 S^2 U^2 + 3 S^2 U - 2 S U^2 + 4,
    and 11 S^2 U^2 minus it equals 3 S^2 U (U - 1) + 4 (S U - 1)(S U + 1) + 2 S U^2, non-negative for S, U >= 1 (each
    term a product of non-negative factors): at most 11 |S|^2 |U|^2, not exponential. With ``variant`` "per-set" (the
    exponential wrong variant) the formula has 2^U and the builder raises (no integer power of a variable)."""
    from rldp_verify.certificates.identity import Tree, tree_identity_certificate

    S, U = Tree.var("S"), Tree.var("U")
    v, c = paper_count(S, U, variant)  # type: ignore[arg-type] - the formula evaluated on expression trees
    total = v + c
    return [tree_identity_certificate("isit.sec6.formulation-size: variables + constraints of RURP (the formulas of "
                                      "(21), (22), (29), (30)) = 4 S^2 U^2 + 3 S^2 U - 2 S U^2 + 4",
                                      total, 4 * S**2 * U**2 + 3 * S**2 * U - 2 * S * U**2 + 4,
                                      words="none: S = |S|, U = |U|"),
            tree_identity_certificate("isit.sec6.formulation-size: 11 S^2 U^2 - (variables + constraints) = "
                                      "3 S^2 U (U - 1) + 4 (S U - 1)(S U + 1) + 2 S U^2 >= 0 for S, U >= 1",
                                      11 * S**2 * U**2 - total,
                                      3 * S**2 * U * (U - 1) + 4 * (S * U - 1) * (S * U + 1) + 2 * S * U**2,
                                      words="none: S = |S|, U = |U|")]


def size_evidence(variant: str = "paper") -> dict:
    """The certificates of :func:`size_certificates` (the paper's formulas), with what they do not cover."""
    from rldp_verify.certificates.claims import built

    out = built(size_certificates, variant)
    if "certificates" in out:
        out["certificate_covers"] = ("the counts from the paper's formulas (a polynomial of degree 2 in |S| and in "
                                     "|U|, at most 11 |S|^2 |U|^2); not the counts of rldp_verify's cvxpy model")
    return out


def check_size(ctx, variant="paper") -> Outcome:
    sizes = [(s, u) for s in (2, 3, 4, 6, 8, 12) for u in (2, 3, 5, 8, 12)]
    rows = []
    for nS, nU in sizes:
        v, c = paper_count(nS, nU, variant)
        rows.append({"|S|": nS, "|U|": nU, "variables": v, "constraints": c,
                     "per |S|^2|U|^2": round((v + c) / (nS * nS * nU * nU), 3)})
    measured = []
    for nS, nU in ((2, 2), (3, 3), (3, 5), (4, 4)):
        v, c = cvxpy_count(nS, nU)
        measured.append({"|S|": nS, "|U|": nU, "cvxpy variables": v, "cvxpy constraint rows": c,
                         "per |S|^2|U|^2": round((v + c) / (nS * nS * nU * nU), 3)})
    ratio = [r["per |S|^2|U|^2"] for r in rows] + [m["per |S|^2|U|^2"] for m in measured]
    polynomial = max(ratio) <= 16
    ev = {"formula_counts": rows, "cvxpy_counts": measured}
    if polynomial:
        return Outcome.refuted(
            "the formulation of RURP has O(|S|^2 |U|^2) scalar variables and constraints (at most "
            f"{max(ratio)} |S|^2 |U|^2 on |S| up to 12, |U| up to 12, and in rldp_verify's cvxpy model): polynomial, "
            "not exponential, in |S| and |U|",
            counterexample={"|S|": 12, "|U|": 12, "variables + constraints": rows[-1]["variables"] + rows[-1]["constraints"],
                            "|S|^2 |U|^2": 12 ** 4}, **ev, kind="false", **size_evidence(variant))
    return Outcome.verified("the number of variables and constraints grows exponentially", **ev)


@claim(id="isit.sec6.formulation-size", paper=PAPER, source="Sec. VI, second paragraph ('a number of variables and "
       "constraints that grows exponentially in |S| and |U|')",
       statement="The convex formulations of (7)-(10) have a number of variables and constraints that grows "
                 "exponentially in |S| and |U|.",
       hypotheses=("Y = U (Sec. VI)", "RURP, the largest of the four problems"), method=(Method.EXACT,),
       reading="counted from the formulas (21), (22), (29), (30) and from rldp_verify's cvxpy model of RURP; 'grows "
               "exponentially' judged false when (variables + constraints)/(|S|^2 |U|^2) stays bounded (<= 16)")
def _size(ctx):
    return check_size(ctx)
