"""Sec. 3.2.1-3.2.3: the binary and the symmetric sub-families."""

from fractions import Fraction

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_other import all_nonneg, covers
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.numbers import working_precision
from rldp_verify.topics import pram

from ._certs import diagonal_interval_certs, ends_certs, f_expr, gap_cert, vertex_cert
from ._common import PAPER, rational_distribution

T_VALUES = (Fraction(11, 10), Fraction(3, 2), Fraction(2), Fraction(5), Fraction(20))
EPS = Fraction(1, 10**9)


def _diagonal_interval_ok(S, t, lo, hi):
    """The DP set on the diagonal q_1 = ... = q_S is the interval [lo, hi]: both ends are private
    with ratio exactly e^alpha (boundary), the midpoint is private, points EPS outside are not.
    (The DP set is convex, so its trace on the diagonal is an interval.)"""
    d = lambda x: [x] * S  # noqa: E731
    return (pram.dp_ratio(d(lo)) == t and pram.dp_ratio(d(hi)) == t and pram.is_private(d((lo + hi) / 2), t)
            and not pram.is_private(d(lo - EPS), t) and not pram.is_private(d(hi + EPS), t))


@claim(
    id="pram.ex3-2-1.interval",
    paper=PAPER,
    source="Sec. 3.2.1",
    statement="For S = 2 and q_1 = q_2 = q, alpha-DP iff q in [1/(1 + e^alpha), e^alpha/(1 + e^alpha)].",
    method=Method.EXACT,
)
def check_binary_interval(ctx):
    for t in T_VALUES:
        lo, hi = 1 / (1 + t), t / (1 + t)
        if not _diagonal_interval_ok(2, t, lo, hi):
            return Outcome.refuted("the DP interval differs", counterexample={"e^alpha": t, "interval": [lo, hi]}, kind="false")
    # issue 23: max and min of q on the diagonal of the DP polytope are the two ends (exact LP optima)
    certs = built(lambda: [c for t in T_VALUES for c in diagonal_interval_certs(2, t, 1 / (1 + t), t / (1 + t))])
    return Outcome.verified("exact: both ends have privacy ratio exactly e^alpha, points 1e-9 outside are not "
                            "private, e^alpha in {11/10, 3/2, 2, 5, 20}", **certs)


@claim(
    id="pram.ex3-2-1.optimum",
    paper=PAPER,
    source="Sec. 3.2.1",
    statement="f(q) = f(1 - q) (relabelling Z by psi(x) = 1 - x); hence both ends 1/(1+e^alpha) and "
              "e^alpha/(1+e^alpha) are optimal, independently of p.",
    hypotheses=("p_1, p_2 > 0 (for p = (1, 0) every q is optimal, f = 0)",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check_binary_optimum(ctx):
    rng = ctx.rng("pram.ex3-2-1")
    n, cases = 0, []
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
        for t in T_VALUES:
            lo, hi = 1 / (1 + t), t / (1 + t)
            for _ in range(8):
                p = rational_distribution(rng, 2)
                q = Fraction(rng.randint(0, 1000), 1000)
                M, Mf = pram.pram_matrix([q, q]), pram.pram_matrix([1 - q, 1 - q])
                if any(M[x][z] != Mf[x][1 - z] for x in range(2) for z in range(2)):
                    return Outcome.refuted("Q_{1-q} is not Q_q with Z relabelled", counterexample={"q": q}, kind="false")
                if abs(pram.mi_pram(p, [q, q]) - pram.mi_pram(p, [1 - q, 1 - q])) > tol:
                    return Outcome.refuted("f(q) != f(1-q)", counterexample={"p": p, "q": q}, kind="false")
                f_end = pram.mi_pram(p, [hi, hi])
                if abs(f_end - pram.mi_pram(p, [lo, lo])) > tol:
                    return Outcome.refuted("the two ends differ", counterexample={"p": p, "e^alpha": t}, kind="false")
                inner = [lo + (hi - lo) * Fraction(k, 20) for k in range(1, 20)]
                cases.append((p, lo, hi, inner))
                worst = max(pram.mi_pram(p, [x, x]) for x in inner)
                if not worst < f_end - tol:
                    return Outcome.refuted("an interior q is as good as the ends",
                                           counterexample={"p": p, "e^alpha": t}, f_end=f_end, f_inner=worst, kind="false")
                n += 1
    # issue 23: per instance, f at the two ends agrees to 10^-30 and beats the 19 interior points (arb)
    certs = built(lambda: [c for p, lo, hi, inner in cases
                           for c in ends_certs(p, [lo, lo], [hi, hi], [[x, x] for x in inner])])
    return Outcome.verified(f"M(1-q) is M(q) with its columns swapped (exact), f(q) = f(1-q) and both ends "
                            f"beat 19 interior points on {n} (p, e^alpha) instances", instances=n, **certs)


@claim(
    id="pram.ex3-2-2.vertices",
    paper=PAPER,
    source="Sec. 3.2.2",
    statement="For S = 2 the DP polytope has the four vertices (1,0), (0,1), (1/(1+e^a), 1/(1+e^a)), "
              "(e^a/(1+e^a), e^a/(1+e^a)).",
    hypotheses=("alpha > 0",),
    method=Method.EXACT,
)
def check_binary_vertices(ctx):
    docs = []
    for t in T_VALUES:
        V = set(pram.vertices(pram.dp_rows(2, t), 2))
        docs.append((t, sorted(V)))
        want = {(Fraction(1), Fraction(0)), (Fraction(0), Fraction(1)),
                (1 / (1 + t), 1 / (1 + t)), (t / (1 + t), t / (1 + t))}
        if want != V:
            return Outcome.refuted("vertex set differs", counterexample={"e^alpha": t},
                                   ours=sorted(map(list, V)), printed=sorted(map(list, want)), kind="false")
    return Outcome.verified("exact vertex enumeration (cdd, GMP) gives exactly these four vertices for "
                            "e^alpha in {11/10, 3/2, 2, 5, 20}", **built(lambda: [vertex_cert(f"DP polytope, S = 2, e^alpha = {t}", pram.dp_rows(2, t), V) for t, V in docs]))  # issue 23


@claim(
    id="pram.ex3-2-2.optimum",
    paper=PAPER,
    source="Sec. 3.2.2",
    statement="At (1,0) and (0,1) the mutual information is 0; the only optimal solutions are the two "
              "symmetric matrices of Sec. 3.2.1.",
    hypotheses=("p_1, p_2 > 0 (for p = (1, 0) every feasible q is optimal)",),
    method=(Method.EXACT, Method.HIGH_PRECISION),
)
def check_binary_general_optimum(ctx):
    rng = ctx.rng("pram.ex3-2-2")
    n, cases = 0, []
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
        for t in T_VALUES:
            for _ in range(6):
                p = rational_distribution(rng, 2)
                for v in ([1, 0], [0, 1]):
                    M = pram.pram_matrix([Fraction(x) for x in v])
                    if M[0] != M[1]:
                        return Outcome.refuted("Z is not independent of X", counterexample={"q": v}, kind="false")
                a = pram.mi_pram(p, [t / (1 + t)] * 2)
                b = pram.mi_pram(p, [1 / (1 + t)] * 2)
                mid = pram.mi_pram(p, [Fraction(1, 2)] * 2)  # midpoint of the two optimal vertices
                cases.append((p, t))
                if not (a > tol and abs(a - b) <= tol and mid < a - tol):
                    return Outcome.refuted("the symmetric vertices are not the unique optima",
                                           counterexample={"p": p, "e^alpha": t}, f_sym=a, f_anti=b, f_mid=mid, kind="false")
                n += 1
    return Outcome.verified(f"(1,0), (0,1) give identical rows (I = 0 exactly); the two symmetric vertices "
                            f"tie with I > 0 and their midpoint is strictly worse, so (convexity) no "
                            f"non-vertex optimum exists; {n} instances", instances=n,
                            **built(_binary_optimum_certs, cases))  # issue 23


def _binary_optimum_certs(cases) -> list[dict]:
    """Per (p, e^alpha): f = 0 at (1, 0) and (0, 1) (arb, exact here: every log-ratio is log 1); f at the two
    symmetric vertices agree to 10^-30, and both exceed f at their midpoint (1/2, 1/2) and at (1, 0), (0, 1)."""
    out = []
    for p, t in cases:
        ps = [str(x) for x in p]
        out += [value_certificate(f"f({v}) = 0, p = {ps}", f_expr(p, v), lower=0, upper=0) for v in ([1, 0], [0, 1])]
        out += ends_certs(p, [1 / (1 + t)] * 2, [t / (1 + t)] * 2, [[Fraction(1, 2)] * 2, [1, 0], [0, 1]])
    return out


@claim(
    id="pram.ex3-2-3.interval",
    paper=PAPER,
    source="Sec. 3.2.3",
    statement="For q_1 = ... = q_S = q, alpha-DP iff q in [e^-a/(S-1+e^-a), e^a/(S-1+e^a)].",
    method=Method.EXACT,
)
def check_sym_interval(ctx):
    for S in range(2, 10):
        for t in T_VALUES:
            if not _diagonal_interval_ok(S, t, pram.v_malpha(S, t), pram.v_alpha(S, t)):
                return Outcome.refuted("the DP interval differs", counterexample={"S": S, "e^alpha": t}, kind="false")
    # issue 23: max and min of q on the diagonal of the DP polytope are the two ends (exact LP optima)
    certs = built(lambda: [c for S in range(2, 10) for t in T_VALUES
                           for c in diagonal_interval_certs(S, t, pram.v_malpha(S, t), pram.v_alpha(S, t))])
    return Outcome.verified("exact: ends have privacy ratio exactly e^alpha, 1e-9 beyond is not private, "
                            "S = 2..9, e^alpha in {11/10, 3/2, 2, 5, 20}", **certs)


def _sym_values(p, S, t):
    return pram.f_simplified(p, [pram.v_alpha(S, t)] * S), pram.f_simplified(p, [pram.v_malpha(S, t)] * S)


@claim(
    id="pram.ex3-2-3.optimum-at-boundary",
    paper=PAPER,
    source="Sec. 3.2.3",
    statement="On the symmetric family the optimum of (7) is attained at an end of the interval.",
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_sym_boundary(ctx):
    rng = ctx.rng("pram.ex3-2-3.b")
    n, chosen = 0, []
    with working_precision(ctx.dps):
        for S in range(2, 9):
            for t in T_VALUES:
                p = rational_distribution(rng, S, full_support=False)
                a, b = _sym_values(p, S, t)
                lo, hi = pram.v_malpha(S, t), pram.v_alpha(S, t)
                inner = max(pram.f_simplified(p, [lo + (hi - lo) * Fraction(k, 16)] * S) for k in range(1, 16))
                if inner > max(a, b):
                    return Outcome.refuted("an interior q beats both ends",
                                           counterexample={"S": S, "e^alpha": t, "p": p}, kind="false")
                n += 1
                if T_VALUES.index(t) < 3 and max(p) != 1:
                    chosen.append((p, S, t))
    return Outcome.verified(f"max over 15 interior points <= max of the two ends on {n} instances "
                            "(as convexity guarantees)", instances=n,
                            certificate_covers=covers(len(chosen), n, "max(f(v_-alpha), f(v_alpha)) > max f at the "
                                                      "15 interior points (the first three e^alpha per S, p not a "
                                                      "point mass: there f = 0 on the whole interval, a tie)",
                                                      chosen=True),
                            **built(_boundary_certificate, chosen))  # issue 23


def _boundary_certificate(chosen) -> dict:
    """At each chosen (p, S, e^alpha): max f(ends) - max f(interior) > 0, f = I(X, Z) of the symmetric PRAM matrix
    (8) at q = v_-alpha + (v_alpha - v_-alpha) k/16 (k = 0..16), evaluated by the checker in arb."""
    terms = []
    for p, S, t in chosen:
        lo, hi = pram.v_malpha(S, t), pram.v_alpha(S, t)
        qs = [lo + (hi - lo) * Fraction(k, 16) for k in range(17)]
        terms.append(["-", ["max", f_expr(p, [qs[0]] * S), f_expr(p, [qs[16]] * S)],
                      ["max", *[f_expr(p, [x] * S) for x in qs[1:16]]]])
    return all_nonneg(f"max f(ends) > max f(15 interior points) at {len(chosen)} sampled (p, S, e^alpha)", terms,
                      strict=True, exact=False)


@claim(
    id="pram.ex3-2-3.both-ends-optimal",
    paper=PAPER,
    source="Sec. 3.2.3, 'As before ... the optimal q are the boundary values'",
    statement="As in Sec. 3.2.1 (where both ends are optimal), both boundary values of the symmetric "
              "interval are optimal.",
    reading="'the optimal q are the boundary values' (plural, 'as before') read as in Sec. 3.2.1: both "
            "ends optimal. pram.ex3-2-3.optimum-at-boundary checks the weaker reading.",
    hypotheses=("S >= 2", "p arbitrary"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_sym_both(ctx):
    rng = ctx.rng("pram.ex3-2-3.c")
    S, t, p = 3, Fraction(2), [Fraction(1, 3)] * 3
    with working_precision(ctx.dps):
        a, b = _sym_values(p, S, t)
        separated = abs(a - b) > mpmath.mpf(10) ** (-(ctx.dps - 10))
        wins_upper = n = 0
        for S2 in range(3, 9):
            for t2 in T_VALUES:
                for _ in range(5):
                    p2 = rational_distribution(rng, S2, full_support=False)
                    a2, b2 = _sym_values(p2, S2, t2)
                    wins_upper += a2 - b2 > mpmath.mpf(10) ** (-(ctx.dps - 10))
                    n += 1
    if separated:
        return Outcome.refuted(
            f"false for S >= 3: S = 3, e^alpha = 2, uniform p: f(v_alpha = 1/2) = {mpmath.nstr(a, 12)} > "
            f"f(v_-alpha = 1/5) = {mpmath.nstr(b, 12)}; only the upper end is optimal (upper end strictly "
            f"better in {wins_upper}/{n} random instances with S = 3..8)",
            counterexample={"S": S, "e^alpha": t, "p": p, "v_alpha": pram.v_alpha(S, t),
                            "v_-alpha": pram.v_malpha(S, t), "f(v_alpha)": a, "f(v_-alpha)": b},
            upper_end_strictly_better=wins_upper, instances=n, kind="false",
            **built(both_ends_certificates, p, S, t))
    return Outcome.verified("both ends tie")


def both_ends_certificates(p, S: int, t: Fraction) -> list[dict]:
    """The counterexample, certified: the symmetric family's DP interval is exactly [v_-alpha, v_alpha] (two exact
    LP optima on the diagonal of the DP polytope), and f(v_alpha) - f(v_-alpha) > 0 (I(X, Z) of each end's PRAM
    matrix, evaluated by the checker in arb): the lower end is not optimal."""
    hi, lo = pram.v_alpha(S, t), pram.v_malpha(S, t)
    return [*diagonal_interval_certs(S, t, lo, hi),
            gap_cert(f"f(v_alpha = {hi}) - f(v_-alpha = {lo}) > 0, S = {S}, e^alpha = {t}, p = {[str(x) for x in p]}",
                     f_expr(p, [hi] * S), [f_expr(p, [lo] * S)])]
