"""Secs. I and III: the formulations are convex (issue 24: statements not yet indexed)."""

from __future__ import annotations

from rldp_verify.certificates.claims import no_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.topics.chisquare.protocols import PROBLEMS, ProtocolSolver

from ._common import PAPER

DCP_REASON = no_certificate(  # issue 23
    "a solver's model class: the verdict is cvxpy's DCP analysis of the engine's model objects (curvature rules of "
    "its expression trees), not a fact about numbers that a certificate kind could re-derive")


@claim(
    id="isit.sec1.convex-formulations",
    paper=PAPER,
    source="Sec. I, contributions ('we provide convex formulations of the corresponding robust optimization problems. "
           "These formulations can be handled by standard convex optimization solvers'); Sec. III, after Theorem 1 "
           "('delta*(v | A) and f_*(v, x) are convex and concave functions, respectively, Theorem 1 provides a means "
           "to efficiently solve robust optimization problems')",
    statement="The four problems NUNP, NURP, RUNP, RURP (with the robust constraints in the form Theorem 1 gives) are "
              "convex programs that standard convex solvers accept.",
    method=Method.PROPERTY,
    reading="convex = the engine's cvxpy model of each problem is disciplined convex (DCP: every expression's "
            "curvature certified by cvxpy's composition rules, a sufficient condition), for |S| x |U| in 2x2, 2x3, "
            "3x2, 3x3 with the squared-error distortion",
)
def check_convex(ctx, form: str = "theorem1"):
    """``form="joint"`` is a wrong variant: the uncertain P_SU made a decision variable of the objective (the robust
    problem without Theorem 1's dual, bilinear in (P, Q)); tests/proofs/test_issue24_statements.py expects REFUTED."""
    import cvxpy as cp
    import numpy as np

    rows, bad = [], []
    for n_s, n_u in ((2, 2), (2, 3), (3, 2), (3, 3)):
        d = np.array([[float((i - j) ** 2) for j in range(n_u)] for i in range(n_u)])
        for kind in PROBLEMS:
            solver = ProtocolSolver(kind, n_s, d, 1.0)
            prob = solver.problem
            if form == "joint":
                P = cp.Variable((n_s, n_u), nonneg=True)
                b = cp.hstack([cp.sum(cp.multiply(Q, d), axis=1) for Q in solver.Q])
                prob = cp.Problem(cp.Minimize(cp.vec(P, order="C") @ b), prob.constraints + [cp.sum(P) == 1])
            ok = bool(prob.is_dcp())
            rows.append({"problem": kind, "|S|": n_s, "|U|": n_u, "dcp": ok,
                         "constraints": len(prob.constraints), "variables": len(prob.variables())})
            if not ok:
                bad.append(rows[-1])
    if bad:
        return Outcome.refuted(f"{len(bad)} of {len(rows)} models are not DCP", counterexample=bad[0], rows=rows,
                               kind="false", **DCP_REASON)
    return Outcome.verified(f"all {len(rows)} models (4 problems x 4 sizes) are DCP: convex programs by construction, "
                            "solved by a standard conic solver (Clarabel)", rows=rows, **DCP_REASON)
