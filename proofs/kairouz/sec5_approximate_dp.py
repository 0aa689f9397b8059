"""Section 5: Proposition 17 (data processing), Theorems 18-20 (quaternary mechanism, operational
characterisation of (eps, delta)-LDP, Blackwell dominance) for binary inputs."""

from fractions import Fraction
from itertools import combinations

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import (
    CAP,
    agreement,
    all_nonneg,
    bind,
    covers,
    matmul,
    utility_expr,
    zero_entries,
)
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.rigorous import arb_precision
from rldp_verify.topics.extremal.polytope import approx_ldp_binary_vertices, exact_feasible_point
from rldp_verify.topics.extremal.utilities import (
    mu_chi2,
    mu_kl,
    mu_mi,
    mu_tv,
    quaternary_mechanism,
    utility,
)

from ._common import PAPER, generic_dist, rand_pair


def _rand_stoch(rng, r, c, den=6):
    while True:
        M = [[Fraction(rng.randint(0, den)) for _ in range(c)] for _ in range(r)]
        if all(sum(row) > 0 for row in M):
            return [[v / sum(row) for v in row] for row in M]


def _compose(Q, W):
    return [[sum(Q[i][y] * W[y][z] for y in range(len(W))) for z in range(len(W[0]))] for i in range(len(Q))]


def _dominates(Q1, Q2):
    """Exact: a stochastic W with Q2 = Q1 W (as a list W[y][z] -> y*m + z), or None when there is none."""
    l, m = len(Q1[0]), len(Q2[0])
    n = l * m  # W[y][z] -> y*m + z
    A, b = [], []
    for x in range(len(Q1)):
        for z in range(m):
            A.append([Q1[x][y] if zz == z else Fraction(0) for y in range(l) for zz in range(m)])
            b.append(Q2[x][z])
    for y in range(l):
        A.append([Fraction(1) if yy == y else Fraction(0) for yy in range(l) for zz in range(m)])
        b.append(Fraction(1))
    return exact_feasible_point(A, b, n)   # W (row-major, truthy) or None


def _region_points(Q):
    """(P_MD, P_FA) = (Q(S|1), 1 - Q(S|0)) for every deterministic rule 'decide 0 on S'."""
    m = len(Q[0])
    pts = []
    for r in range(m + 1):
        for S in combinations(range(m), r):
            pts.append((sum((Q[1][y] for y in S), Fraction(0)), 1 - sum((Q[0][y] for y in S), Fraction(0))))
    return pts


def _region_included(Q2, Q1):
    """Exact: is conv(points of Q2) inside conv(points of Q1)? (each point of Q2 is a convex combination)"""
    P1 = _region_points(Q1)
    for p in _region_points(Q2):
        A = [[q[0] for q in P1], [q[1] for q in P1], [Fraction(1)] * len(P1)]
        if exact_feasible_point(A, [p[0], p[1], Fraction(1)], len(P1)) is None:
            return False
    return True


def _is_approx_ldp(Q, t, delta):
    m = len(Q[0])
    return all(sum(Q[a][y] for y in S) <= t * sum(Q[b][y] for y in S) + delta
               for r in range(1, m + 1) for S in combinations(range(m), r) for a, b in ((0, 1), (1, 0)))


@claim(
    id="kairouz.prop17.data-processing",
    paper=PAPER,
    source="Sec. 5, Proposition 17; proof Sec. 10, eq. (140)",
    statement="Every utility U(Q) = sum_y mu(Q_y) with mu sublinear obeys U(Q W) <= U(Q) for all stochastic W.",
    method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY),
)
def check(ctx):
    rng = ctx.rng("p17")
    n, bad, certified = 0, [], []
    with arb_precision(ctx.dps):
        for _ in range(80):
            k, l, m = rng.randint(2, 4), rng.randint(1, 4), rng.randint(1, 4)
            Q = _rand_stoch(rng, k, l)
            W = _rand_stoch(rng, l, m)
            QW = _compose(Q, W)
            P0, P1 = rand_pair(rng, k, 12, ties_ok=True)
            P = generic_dist(rng, k, 97)
            decided = []
            for name, mu in (("tv", mu_tv(P0, P1)), ("chi2", mu_chi2(P0, P1)), ("kl", mu_kl(P0, P1)), ("mi", mu_mi(P))):
                a, b = utility(QW, mu), utility(Q, mu)
                n += 1
                if name in ("tv", "chi2") or (a < b) is True:   # arb: only the strict cases (a tie is undecidable)
                    decided.append(name)
                if (a > b) is True:
                    bad.append({"utility": name, "Q": [[str(v) for v in r] for r in Q], "W": [[str(v) for v in r] for r in W]})
            if len(certified) < CAP:
                certified.append((Q, W, QW, {"P0": P0, "P1": P1, "P": P}, decided))
    if bad:
        return Outcome.refuted("data processing violated", counterexample=bad[0], kind="false")
    n_arb = sum(len(c[4]) - 2 for c in certified)
    return Outcome.verified(f"{n} random (Q, W, utility) triples: U(QW) <= U(Q) (exact for TV and chi^2, arb for KL and MI)",
                            certificate_covers=covers(len(certified), n // 4, "inequalities U(Q W) <= U(Q) for TV and "
                                                      f"chi^2 (exactly) and for KL and MI at the {n_arb} of "
                                                      f"{2 * len(certified)} where U(Q W) < U(Q) strictly (arb; a tie "
                                                      "cannot be decided in arb), Q W multiplied out and every mu "
                                                      "written from P0, P1, P by the checker"),
                            **built(_p17_certificates, certified))


def _p17_certificates(instances) -> list[dict]:
    """An exact certificate (TV, chi^2) and an arb one (KL, MI): U(Q) - U(Q W) >= 0 per instance and utility, with
    Q W's entries multiplied out by the checker; a column of Q W that the engine found zero (it contributes 0) is
    stated as -(its sum) >= 0, and so is each zero entry that MI's sum leaves out (exact certificate)."""
    exact_terms, arb_terms, binds = [], [], []
    for i, (Q, W, QW, dists, names) in enumerate(instances):
        b, C = bind(f"i{i}", matmul(Q, W))
        binds += b
        ys = [y for y in range(len(Q[0])) if any(row[y] for row in Q)]
        keep = [z for z in range(len(QW[0])) if any(row[z] for row in QW)]
        cols_q, vals_q = [[row[y] for row in Q] for y in ys], [[row[y] for row in Q] for y in ys]
        cols_qw, vals_qw = [[row[z] for row in C] for z in keep], [[row[z] for row in QW] for z in keep]
        exact_terms += [["-", ["+", *[row[z] for row in C]]] for z in range(len(QW[0])) if z not in keep]
        if "mi" in names:
            exact_terms += zero_entries(cols_qw, vals_qw)
        for name in names:
            d = {"P": dists["P"]} if name == "mi" else {"P0": dists["P0"], "P1": dists["P1"]}
            term = ["-", utility_expr(name, cols_q, vals_q, **d), utility_expr(name, cols_qw, vals_qw, **d)]
            (exact_terms if name in ("tv", "chi2") else arb_terms).append(term)
    docs = [all_nonneg(f"Prop. 17: U(Q W) <= U(Q) for TV and chi^2 on {len(instances)} sampled (Q, W)", exact_terms,
                       binds=binds)]
    if arb_terms:
        docs.append(all_nonneg(f"Prop. 17: U(Q W) <= U(Q) for KL and MI, {len(arb_terms)} strict cases", arb_terms,
                               binds=binds, exact=False))
    return docs


@claim(
    id="kairouz.thm19.operational-ldp",
    paper=PAPER,
    source="Sec. 5, Theorem 19 (and the two inequalities before it)",
    statement="A binary-input mechanism Q is (eps, delta)-LDP iff its error region R_Q lies in R_eps,delta = "
              "{P_FA + e^eps P_MD >= 1 - delta, e^eps P_FA + P_MD >= 1 - delta}.",
    method=(Method.EXACT, Method.PROPERTY),
)
def check_19(ctx):
    rng = ctx.rng("t19")
    n = agree = n_priv = 0
    certified = []
    for _ in range(400):
        m = rng.randint(1, 4)
        Q = _rand_stoch(rng, 2, m, 5)
        t = Fraction(rng.randint(10, 30), 10)
        delta = Fraction(rng.randint(0, 5), 20)
        ldp = _is_approx_ldp(Q, t, delta)
        inside = all(pfa + t * pmd >= 1 - delta and t * pfa + pmd >= 1 - delta for pmd, pfa in _region_points(Q))
        n += 1
        n_priv += ldp
        agree += ldp == inside
        if len(certified) < 2 * CAP and ldp == inside:
            certified.append((ldp, *_t19_terms(Q, t, delta), ()))
    if agree != n:
        return Outcome.refuted("the two notions disagree", counterexample=n - agree, kind="false")
    return Outcome.verified(f"{n} random binary-input mechanisms ({n_priv} private): (eps, delta)-LDP holds exactly "
                            "when every vertex of R_Q satisfies both inequalities (R_Q is the hull of the "
                            "deterministic-rule points)",
                            certificate_covers=covers(len(certified), n, "agreements of (eps, delta)-LDP (every set of "
                                                      "outputs) with R_Q's deterministic-rule points satisfying both "
                                                      "inequalities of R_eps,delta"),
                            **built(agreement, "Theorem 19: (eps, delta)-LDP and R_Q in R_eps,delta", certified))


def _t19_terms(Q, t, delta) -> tuple[list, list]:
    """(eps, delta)-LDP as terms >= 0 (t Q(S|b) + delta - Q(S|a), every non-empty S, (a, b) = (0, 1), (1, 0)), and
    R_Q in R_eps,delta at the deterministic-rule points (P_MD, P_FA) = (Q(S|1), 1 - Q(S|0)), every S:
    P_FA + t P_MD - (1 - delta) and t P_FA + P_MD - (1 - delta)."""
    m = len(Q[0])
    sets = [S for r in range(m + 1) for S in combinations(range(m), r)]
    mass = lambda a, S: ["+", 0, *[Q[a][y] for y in S]]  # noqa: E731
    ldp = [["-", ["+", ["*", t, mass(b, S)], delta], mass(a, S)] for S in sets if S for a, b in ((0, 1), (1, 0))]
    region = []
    for S in sets:
        pmd, pfa = mass(1, S), ["-", 1, mass(0, S)]
        region += [["-", ["+", pfa, ["*", t, pmd]], ["-", 1, delta]], ["-", ["+", ["*", t, pfa], pmd], ["-", 1, delta]]]
    return ldp, region


@claim(
    id="kairouz.thm18.quaternary-optimal",
    paper=PAPER,
    source="Sec. 5, Theorem 18, eq. (38); Figure 9",
    statement="For |X| = 2, any eps, delta and any utility obeying the data processing inequality, the quaternary "
              "mechanism maximises U(Q) over all (eps, delta)-LDP Q (every such Q is Q_QT followed by some W), and "
              "R_{Q_QT} = R_eps,delta.",
    method=Method.EXACT,
)
def check_18(ctx):
    return _thm18((2, 3, 4) if ctx.include_slow else (2, 3), "m = 2..4" if ctx.include_slow else "m = 2, 3")


def _thm18(ms, label):
    rows, bad, cases = [], [], []   # cases: (t, delta, [(V, W)], {m: vertices}) for the certificates (issue 23)
    for t, delta in ((Fraction(2), Fraction(1, 10)), (Fraction(3), Fraction(0)), (Fraction(3, 2), Fraction(1, 4)),
                     (Fraction(5), Fraction(1, 2))):
        QT = quaternary_mechanism(t, delta)
        cases.append((t, delta, [], {}))
        ok_priv = _is_approx_ldp(QT, t, delta)
        # R_{Q_QT} = R_eps,delta: Q_QT is private (its region lies above both lines) and every corner of the
        # lower boundary of R_eps,delta is in conv(R_{Q_QT})
        corners = [(Fraction(0), Fraction(1)), (Fraction(1), Fraction(0)), (Fraction(0), 1 - delta),
                   (1 - delta, Fraction(0)), ((1 - delta) / (1 + t), (1 - delta) / (1 + t))]
        pts = set(_region_points(QT))
        region_eq = ok_priv and all(c in pts or _point_in_hull(c, list(pts)) for c in corners)
        nv = 0
        for m in ms:
            cases[-1][3][m] = approx_ldp_binary_vertices(m, t, delta)
            for V in cases[-1][3][m]:
                nv += 1
                W = _dominates(QT, V)
                cases[-1][2].append((V, W))
                if not W:
                    bad.append({"t": str(t), "delta": str(delta), "Q": [[str(v) for v in r] for r in V]})
        rows.append({"t": str(t), "delta": str(delta), "Q_QT_private": ok_priv, "region_equal": region_eq,
                     f"vertices_checked({label})": nv})
        if not (ok_priv and region_eq):
            bad.append(rows[-1])
    if bad:
        return Outcome.refuted("quaternary mechanism does not dominate", counterexample=bad[0], rows=rows, kind="false")
    return Outcome.verified(f"for each (e^eps, delta) tested, every vertex of the (eps, delta)-LDP polytope with {label} "
                            "outputs equals Q_QT W for an exact stochastic W (cdd GMP feasibility), hence so does every "
                            "convex combination; with Proposition 17 this gives U(Q) <= U(Q_QT)", rows=rows,
                            **built(lambda: [d for c in cases for d in _thm18_certificates(*c)]))


def _approx_ldp_rows(m, t, delta):
    """(A, b) of the (eps, delta)-LDP mechanisms with inputs {0, 1} and m outputs (eq. (33), every set S):
    Q(S|a) - t Q(S|b) <= delta, variables q = (Q(.|0), Q(.|1))."""
    A, b = [], []
    for r in range(1, m + 1):
        for S in combinations(range(m), r):
            for a, c in ((0, 1), (1, 0)):
                row = [Fraction(0)] * (2 * m)
                for y in S:
                    row[a * m + y] += 1
                    row[c * m + y] -= t
                A.append(row)
                b.append(delta)
    return A, b


def _point_in_hull(p, pts):
    """Exact: convex weights of ``pts`` whose combination is ``p`` (a list), or None."""
    A = [[q[0] for q in pts], [q[1] for q in pts], [Fraction(1)] * len(pts)]
    return exact_feasible_point(A, [p[0], p[1], Fraction(1)], len(pts))


def _thm18_certificates(t, delta, pairs, verts) -> list[dict]:
    """For one (e^eps, delta): Q_QT is (eps, delta)-LDP (an lp-optimum whose one feasible point is Q_QT); each
    corner of R_eps,delta is a convex combination of Q_QT's region points (a feasible point); per m the
    vertex-enumeration of the (eps, delta)-LDP polytope (so the vertex list is complete) and, per vertex V, the
    stochastic W with Q_QT W = V that the check found (a feasible point)."""
    from rldp_verify.certificates.vertices import vertex_certificate

    from ._certified import feasibility_certificate

    QT, tag = quaternary_mechanism(t, delta), f"e^eps={t} delta={delta}"
    A4, b4 = _approx_ldp_rows(4, t, delta)
    x = [v for row in QT for v in row]
    fix = [[Fraction(1) if j == i else Fraction(0) for j in range(8)] for i in range(8)]
    docs = [feasibility_certificate(f"Q_QT is (eps, delta)-LDP, {tag}", x, A4, b4, fix, x)]
    pts = _region_points(QT)
    corners = [(Fraction(0), Fraction(1)), (Fraction(1), Fraction(0)), (Fraction(0), 1 - delta),
               (1 - delta, Fraction(0)), ((1 - delta) / (1 + t), (1 - delta) / (1 + t))]
    E = [[p[0] for p in pts], [p[1] for p in pts], [Fraction(1)] * len(pts)]
    for c in corners:
        lam = _point_in_hull(c, pts)
        if lam is None:
            raise ValueError(f"corner {c} is not in the hull of Q_QT's region points")
        docs.append(feasibility_certificate(f"corner {tuple(map(str, c))} of R_eps,delta in conv(R_Q_QT), {tag}",
                                            lam, E=E, f=[c[0], c[1], 1]))
    for m, V_list in verts.items():
        A, b = _approx_ldp_rows(m, t, delta)
        A += [[Fraction(-1) if j == i else Fraction(0) for j in range(2 * m)] for i in range(2 * m)]
        b += [Fraction(0)] * (2 * m)
        E = [[Fraction(1) if x_ * m <= j < (x_ + 1) * m else Fraction(0) for j in range(2 * m)] for x_ in range(2)]
        docs.append(vertex_certificate(f"(eps, delta)-LDP mechanisms, 2 inputs, {m} outputs, {tag}", A, b, E, [1, 1],
                                       [[v for row in V for v in row] for V in V_list]))
    for V, W in pairs:   # W[y][z] -> y*m + z: Q_QT W = V, rows of W sum to 1
        m = len(V[0])
        E = [[QT[x_][y] if zz == z else Fraction(0) for y in range(4) for zz in range(m)]
             for x_ in range(2) for z in range(m)]
        E += [[Fraction(1) if yy == y else Fraction(0) for yy in range(4) for zz in range(m)] for y in range(4)]
        f = [V[x_][z] for x_ in range(2) for z in range(m)] + [Fraction(1)] * 4
        docs.append(feasibility_certificate(f"V = Q_QT W, W stochastic, V={[[str(v) for v in r] for r in V]}, {tag}",
                                            W, E=E, f=f))
    return docs


@claim(
    id="kairouz.thm20.blackwell",
    paper=PAPER,
    source="Sec. 5, Theorem 20 (Blackwell 1953)",
    statement="For binary inputs, Q1 dominates Q2 (Q2 = Q1 W for a stochastic W) iff R_{Q2} is contained in R_{Q1}.",
    method=(Method.EXACT, Method.PROPERTY),
)
def check_20(ctx):
    rng = ctx.rng("t20")
    n, pos, bad, certified, refuted = 0, 0, [], [], []
    for i in range(60):
        l, m = rng.randint(2, 3), rng.randint(2, 3)
        Q1 = _rand_stoch(rng, 2, l, 4)
        Q2 = _compose(Q1, _rand_stoch(rng, l, m, 3)) if i % 2 == 0 else _rand_stoch(rng, 2, m, 4)
        dom = _dominates(Q1, Q2) is not None
        inc = _region_included(Q2, Q1)
        n += 1
        pos += dom
        if dom and inc and len(certified) < CAP:
            certified.append((Q1, Q2))
        if not dom and not inc and len(refuted) < CAP:
            refuted.append((Q1, Q2))
        if dom != inc:
            bad.append({"Q1": [[str(v) for v in r] for r in Q1], "Q2": [[str(v) for v in r] for r in Q2],
                        "dominates": dom, "region_included": inc})
    if bad:
        return Outcome.refuted("dominance and region inclusion disagree", counterexample=bad[0], kind="false")
    return Outcome.verified(f"{n} random pairs ({pos} dominated): exact dominance LP and exact region inclusion agree",
                            certificate_covers=covers(len(certified), pos, "dominated pairs' both sides: a stochastic W "
                                                      "with Q2 = Q1 W, and each deterministic-rule point of R_Q2 a "
                                                      "convex combination of R_Q1's (exact feasible points); and "
                                                      f"{len(refuted)} of the {n - pos} pairs where both fail: no "
                                                      "stochastic W with Q2 = Q1 W and a point of R_Q2 outside "
                                                      "conv(R_Q1), each by a phase-one LP with a positive exact "
                                                      "optimum (lp-optimum)", chosen=True),
                            **built(lambda: [d for Q1, Q2 in certified for d in _t20_certificates(Q1, Q2)]
                                    + [d for Q1, Q2 in refuted for d in _t20_infeasible_certificates(Q1, Q2)]))


def _t20_infeasible_certificates(Q1, Q2) -> list[dict]:
    """Issue 23, for a pair where both sides fail: the system Q1 W = Q2, W >= 0 with rows summing to 1 has no
    solution, and the first point of R_Q2 not in conv(R_Q1) is not (both by :func:`infeasibility_certificate`)."""
    from rldp_verify.certificates.exact_gaps import infeasibility_certificate

    l, m = len(Q1[0]), len(Q2[0])
    tag = f"Q1={[[str(v) for v in r] for r in Q1]}, Q2={[[str(v) for v in r] for r in Q2]}"
    E = [[Q1[x][y] if zz == z else Fraction(0) for y in range(l) for zz in range(m)] for x in range(2) for z in range(m)]
    E += [[Fraction(1) if yy == y else Fraction(0) for yy in range(l) for zz in range(m)] for y in range(l)]
    docs = [infeasibility_certificate(f"no stochastic W with Q2 = Q1 W, {tag}", E,
                                      [Q2[x][z] for x in range(2) for z in range(m)] + [Fraction(1)] * l)]
    P1 = _region_points(Q1)
    outside = next(p for p in _region_points(Q2) if _point_in_hull(p, P1) is None)
    E = [[q[0] for q in P1], [q[1] for q in P1], [Fraction(1)] * len(P1)]
    docs.append(infeasibility_certificate(f"{tuple(map(str, outside))} of R_Q2 not in conv(R_Q1), {tag}", E,
                                          [outside[0], outside[1], 1]))
    return docs


def _t20_certificates(Q1, Q2) -> list[dict]:
    """Q2 = Q1 W with W stochastic (W[y][z] -> y*m + z, a feasible point), and each point of R_Q2 in conv(R_Q1)."""
    from ._certified import feasibility_certificate

    l, m = len(Q1[0]), len(Q2[0])
    W, tag = _dominates(Q1, Q2), f"Q1={[[str(v) for v in r] for r in Q1]}, Q2={[[str(v) for v in r] for r in Q2]}"
    E = [[Q1[x][y] if zz == z else Fraction(0) for y in range(l) for zz in range(m)] for x in range(2) for z in range(m)]
    E += [[Fraction(1) if yy == y else Fraction(0) for yy in range(l) for zz in range(m)] for y in range(l)]
    docs = [feasibility_certificate(f"Q2 = Q1 W, W stochastic, {tag}", W, E=E,
                                    f=[Q2[x][z] for x in range(2) for z in range(m)] + [Fraction(1)] * l)]
    P1 = _region_points(Q1)
    E = [[q[0] for q in P1], [q[1] for q in P1], [Fraction(1)] * len(P1)]
    for p in _region_points(Q2):
        docs.append(feasibility_certificate(f"{tuple(map(str, p))} of R_Q2 in conv(R_Q1), {tag}",
                                            _point_in_hull(p, P1), E=E, f=[p[0], p[1], 1]))
    return docs


@claim(
    id="kairouz.thm18.quaternary-optimal-m5",
    paper=PAPER,
    source="Sec. 5, Theorem 18 (exhaustive: five outputs)",
    statement="Every (eps, delta)-LDP mechanism with binary input and 5 outputs is Q_QT followed by a stochastic W.",
    method=Method.EXACT,
    slow=True,
)
def check_18_m5(ctx):
    return _thm18((5,), "m = 5")
