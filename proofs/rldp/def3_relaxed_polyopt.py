"""Relaxed PolyOpt: Definition 3 without the pairs s1 = s2 (our variant; Sec. 5, App. A.4).

Finding. Definition 3 quantifies over all s1, s2 including s1 = s2, but Theorem 2 does not need the
pairs s1 = s2:

Proof. Definition 1 for s = s' reads P(Y=y|S=s) <= e^eps P(Y=y|S=s), true for eps >= 0. For s1 != s2,
App. A.4 shows (by LP duality, checked in rldp.thm2.dual-form) that the inequalities (3) for the pair
(s1, s2) alone are equivalent to max_{R1 in D_s1, R2 in D_s2} R1^T Q_{y|s1} - e^eps R2^T Q_{y|s2} <= 0,
and since P_{U|s} in F_{U|s} subset D_s for every P in F, this gives
P(Y=y|S=s1) - e^eps P(Y=y|S=s2) <= 0. Nothing in the argument uses the pairs s1 = s2. QED.

The pairs s1 = s2 are not implied by the others: they force max_u Q_{y|s,u} - e^eps min_u Q_{y|s,u}
to be small within a block, which (eps, F)-RLDP does not require (SRR, which is (eps, P_X)-RLDP, has
within-block ratio e^{2 eps} and violates them).
"""

from __future__ import annotations

from rldp_verify.certificates import instances_rldp as inst
from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.mechanisms import (
    check_gamma,
    check_prop3,
    check_single_distribution,
    exact_level,
    lower_bounds,
    polyopt_from_bounds,
    privacy_level,
    srr,
)

from ._mech_common import (
    PAPER,
    example_ball,
    gamma_hat_nonempty,
    points_in_ball,
    rand_instance,
    robust_extreme_lp,
    s,
)


@claim(
    id="rldp.relaxed-polyopt.guarantee",
    paper=PAPER,
    source="Sec. 5, Definition 3 and Theorem 2; App. A.4 (our variant)",
    statement="Theorem 2 holds for the relaxed cone (only the inequalities (3) with s1 != s2): every Q whose rows "
              "lie in it is (eps, F)-RLDP.",
    hypotheses=("D_s = {R : R_u >= L_{u|s}} contains F_{U|s}", "eps >= 0"),
    method=(Method.EXACT, Method.PROPERTY),
    reading="Proof in the module docstring; checked on relaxed-PolyOpt mechanisms of random instances: (41) for "
            "s1 != s2 by exact LPs, and Definition 1 exactly at certified points of F.",
)
def check_guarantee(ctx):
    rng = ctx.rng("relaxed.guarantee")
    pts, at_points, items41 = 0, [], []
    for k in range(6):
        ball, eps = rand_instance(rng, k)
        L = lower_bounds(ball, dps=ctx.dps)
        mech, _ = polyopt_from_bounds(ball.phat, L, eps, include_same_s=False, dps=ctx.dps)
        r = privacy_level(eps).exp_eps
        a1, a2 = len(mech.sensitive), len(mech.public)
        for y, row in enumerate(mech.matrix):
            for s1 in range(a1):
                for s2 in range(a1):
                    if s1 != s2:
                        val = (robust_extreme_lp(row[s1 * a2:(s1 + 1) * a2], L[s1], True)
                               - r * robust_extreme_lp(row[s2 * a2:(s2 + 1) * a2], L[s2], False))
                        if val > 0:
                            return Outcome.refuted("(41) fails", counterexample={"y": y, "s1": s1, "s2": s2}, kind="false")
                        items41.append((row, L, r, eps, s1, s2, a2))
        for P in points_in_ball(ball, rng, 6):
            pts += 1
            res = check_single_distribution(mech, P, eps)
            if res.holds is not True:
                return Outcome.refuted("relaxed PolyOpt violates Definition 1 at a point of F",
                                       counterexample={"P": [str(x) for x in P], **res.to_json()}, kind="false")
            at_points.append((mech.matrix, P, a2, eps, list(ball.flat()), ball.alpha, ball.radius))
    name = "rldp.relaxed-polyopt.guarantee"
    return Outcome.verified(f"6 random instances: (41) holds for all s1 != s2 (exact LPs); Definition 1 holds "
                            f"exactly at {pts} certified points of F", points=pts,
                            certificate_covers=inst.cover_note(pts, min(pts, inst.CAP), "points: P in F (arb) and "
                                                               "Definition 1 at P (exact, or arb where e^eps is "
                                                               "irrational)", f"; and (41) for the first "
                                                               f"{min(20, len(items41))} of its {len(items41)} (y, s1, "
                                                               "s2) cases (two exact LP certificates each, L as the "
                                                               "engine bounded it)"),
                            **built(lambda: inst.definition1_at_points_certificates(name, at_points)
                                    + inst.condition41_certificates(name, items41)))


@claim(
    id="rldp.relaxed-polyopt.same-s-not-needed",
    paper=PAPER,
    source="Sec. 5, Definition 3 (pairs s1 = s2)",
    statement="The inequalities (3) with s1 = s2 are not necessary for (eps, F)-RLDP: in Example 3's setting SRR "
              "is (eps, P_X)-RLDP (hence (eps, F)-RLDP) yet its rows violate them, and they cut the relaxed cone "
              "strictly.",
    hypotheses=("Example 1's ball", "eps = log 2"),
    method=Method.EXACT,
)
def check_not_needed(ctx):
    ball = example_ball()
    L = lower_bounds(ball, dps=ctx.dps)
    m = srr(ball.phat, "log(2)")
    p3 = check_prop3(m, "log(2)")
    full = check_gamma(m, L, exact_level(2))
    relaxed = check_gamma(m, L, exact_level(2), include_same_s=False)
    ev = dict(prop3=p3.to_json(), full_cone=full.to_json(), relaxed_cone=relaxed.to_json())
    if p3.holds is True and full.holds is False and relaxed.holds is True:
        from rldp_verify.certificates.claims import built

        return Outcome.verified("SRR is (log 2, P_X)-RLDP and lies in the relaxed cone but not in Gamma_eps", **ev,
                                **built(_cone_certificates, m.matrix, L, 2))
    return Outcome.refuted("SRR does not separate the two cones here", counterexample=ev, **ev, kind="false")


def _cone_certificates(Q, L, t) -> list[dict]:
    """Issue 23: SRR's rows against the two cones (rows of :func:`rldp_verify.rldp.gamma.gamma_inequalities`,
    b = 0): a ``rigorous-value`` certificate that one row Q_y violates an inequality with s1 = s2 (A_i . Q_y > 0,
    exactly rational), and per row Q_y an ``lp-optimum`` whose only feasible point is Q_y (E = I) over the relaxed
    rows (s1 != s2): the checker verifies A_rel Q_y <= 0 exactly."""
    from rldp_verify.certificates.lp import solve_with_certificate
    from rldp_verify.certificates.value import value_certificate
    from rldp_verify.rldp.gamma import gamma_inequalities

    A, _ = gamma_inequalities(L, t)
    A_rel, b_rel = gamma_inequalities(L, t, include_same_s=False)
    a = len(A[0])
    docs = []
    viol = next(((y, i) for y, row in enumerate(Q) for i, r in enumerate(A)
                 if sum(x * v for x, v in zip(r, row, strict=True)) > 0), None)
    if viol is None:
        raise ValueError("no row of SRR violates Gamma_eps")
    y, i = viol
    docs.append(value_certificate(f"SRR's row y = {y} violates row {i} of Gamma_eps (a pair s1 = s2): A_i . Q_y > 0",
                                  ["+", 0, *[["*", x, v] for x, v in zip(A[i], Q[y], strict=True) if x != 0]],
                                  lower=0, strict=True))
    eye = [[1 if j == k else 0 for k in range(a)] for j in range(a)]
    for y, row in enumerate(Q):
        _, doc = solve_with_certificate(f"SRR's row y = {y} lies in the relaxed cone (pairs s1 != s2 only): the LP "
                                        "over {x = Q_y} and the relaxed rows is feasible", [0] * a, A_rel, b_rel,
                                        eye, list(row))
        docs.append(doc)
    return docs


@claim(
    id="rldp.relaxed-polyopt.utility-gain",
    paper=PAPER,
    source="Sec. 5 (our variant), measured",
    statement="Relaxed PolyOpt's optimum is at least PolyOpt's (nested feasible sets); the gain is measured on "
              "Example 3 and on random instances.",
    hypotheses=("same certified L', same rational e^eps",),
    method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY),
    reading="Utilities are certified brackets of the LP (46) optima; the ordering is asserted as "
            "I(relaxed) >= I(PolyOpt) - gap(relaxed) with PolyOpt's Q exactly in the relaxed cone.",
)
@gamma_hat_nonempty
def check_gain(ctx):
    rng = ctx.rng("relaxed.gain")
    rows, members, sols = [], [], []   # sols: (label, LP (46) solution) for the brackets' certificates
    cases = [(example_ball(), "log(2)")] + [rand_instance(rng, k) for k in range(3)]
    for ball, eps in cases:
        L = lower_bounds(ball, dps=ctx.dps)
        full, fs = polyopt_from_bounds(ball.phat, L, eps, dps=ctx.dps)
        rel, rs = polyopt_from_bounds(ball.phat, L, eps, include_same_s=False, dps=ctx.dps)
        r = privacy_level(eps).exp_eps
        inside = check_gamma(full, L, exact_level(r), include_same_s=False).holds is True
        ordered = rs.lower >= fs.upper - (rs.upper - rs.lower) - (fs.upper - fs.lower)
        members.append((full.matrix, L, r))
        sols += [(f"instance {len(members) - 1}, PolyOpt", fs, L, r, True),
                 (f"instance {len(members) - 1}, relaxed", rs, L, r, False)]
        rows.append({"size": f"{len(ball.phat)}x{len(ball.phat[0])}", "eps": eps, "alpha": str(ball.alpha),
                     "B": str(ball.radius), "I_polyopt": s(fs.lower, 8), "I_relaxed": s(rs.lower, 8),
                     "gain": s(rs.lower - fs.lower, 6), "rel_gain": s((rs.lower - fs.lower) / fs.lower, 4)
                     if fs.lower > 0 else "n/a"})
        if not (inside and ordered):
            return Outcome.refuted("relaxed optimum below PolyOpt's or PolyOpt's Q outside the relaxed cone",
                                   counterexample=rows[-1], table=rows, kind="false")
    return Outcome.verified(f"I(relaxed) >= I(PolyOpt) on {len(rows)} instances; Example 3: {rows[0]['I_polyopt']} -> "
                            f"{rows[0]['I_relaxed']} nats", table=rows,
                            certificate_covers=f"PolyOpt's Q inside the relaxed cone on all {len(members)} instances "
                                               "(Definition 3's inequalities with s1 != s2 from L and e^eps, exactly: "
                                               "the nesting of the feasible sets); and the utilities' brackets of LP (46) "
                                               "(arb: I(Q) >= lower, weak duality for upper at every listed vertex of "
                                               f"Gamma-hat) of the {sum(len(x[1].vertices) <= BRACKET_CAP for x in sols)} "
                                               f"of the {len(sols)} optima whose Gamma-hat has at most {BRACKET_CAP} "
                                               "vertices, with the vertex list (of Gamma-hat or of the relaxed cone's "
                                               "slice) proved complete (vertex-enumeration) for the "
                                               f"{sum(len(x[1].vertices) <= BRACKET_VERTEX_CAP for x in sols)} with at "
                                               f"most {BRACKET_VERTEX_CAP} (size guards); not the other "
                                               "brackets or vertex lists, nor the ordering of the brackets' ends "
                                               "(rationals)",
                            **built(lambda: [inst.cone_membership_certificate("rldp.relaxed-polyopt.utility-gain",
                                                                              members, same_s=False),
                                             *_bracket_certificates("rldp.relaxed-polyopt.utility-gain", sols)]))


# size guards for the brackets' and the vertex lists' certificates (issue 23: the caps of 100 and 20 vertices
# were lifted; the largest sampled Gamma-hat, 162 vertices, costs 0.2 s and 0.2 MB)
BRACKET_CAP, BRACKET_VERTEX_CAP = 1000, 1000


def _bracket_certificates(name: str, sols) -> list[dict]:
    """Issue 23: the ``rigorous-value`` certificates of each LP (46) bracket (:func:`eq46_bracket_certificates`)
    whose Gamma-hat has at most :data:`BRACKET_CAP` vertices (``sols``: label, solution, L, e^eps, whether the
    pairs s1 = s2 are in the cone), and the ``vertex-enumeration`` certificate of the vertex list for those with
    at most :data:`BRACKET_VERTEX_CAP`."""
    from rldp_verify.certificates.exact_gaps import eq46_bracket_certificates, gamma_hat_vertex_certificate

    docs = []
    for label, sol, L, r, same_s in sols:
        if len(sol.vertices) <= BRACKET_CAP:
            docs += eq46_bracket_certificates(f"{name}: {label}", sol)
        if len(sol.vertices) <= BRACKET_VERTEX_CAP:
            docs.append(gamma_hat_vertex_certificate(f"{name}: {label}: LP (46)'s vertex list is complete", L, r,
                                                     sol.vertices, include_same_s=same_s))
    return docs
