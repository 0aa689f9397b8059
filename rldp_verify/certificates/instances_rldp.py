"""Certificates of the sampled instances of exact property tests (issue 23), for the rldp claims.

A property test decides each sampled instance exactly (Fractions); a sample is not a proof of the universal
statement, but each instance's exact fact can be re-derived by the independent checker.  The builders here
write those facts as ``rigorous-value`` certificates in exact mode (:mod:`rldp_verify_check.value`, ``fmpq``),
one document per shape and claim, over the first ``cap`` instances:

- :func:`all_zero_certificate` -- every listed expression equals 0: ``max_i |e_i| = 0`` (an equality per
  instance, e.g. lhs - rhs of an identity evaluated at the instance's raw numbers);
- :func:`all_nonneg_certificate` -- every listed expression is >= 0 (``> 0`` with ``strict``):
  ``min_i e_i >= 0`` (an inequality per instance); ``exact=False`` evaluates in arb (for log / exp / sqrt);
- :func:`ldp_expressions` -- the expressions t Q[y][x'] - Q[y][x] of "Q is (log t)-LDP", one per (y, x, x'),
  from Q's raw entries (Definition 2's ratio, cross-multiplied);
- :func:`cover_note` -- the ``certificate_covers`` text the claims print.

Each expression holds the instance's raw data (the mechanism's entries, the distribution, e^eps), never the
engine's conclusion: the checker recomputes the value from them.
"""

from __future__ import annotations

from rldp_verify.certificates.value import abs_expr, value_certificate

CAP = 50   # instances per certificate: the documents stay small and the claims within about 2x of their time


def _capped(exprs, cap: int) -> list:
    exprs = list(exprs)
    if not exprs:
        raise ValueError("no instance to certify (an empty list of expressions)")
    return exprs[:cap]


def all_zero_certificate(name: str, exprs, *, cap: int = CAP) -> dict:
    """The exact ``rigorous-value`` certificate that each of the first ``cap`` expressions equals 0
    (``max_i max(e_i, -e_i) = 0``, evaluated in exact rationals)."""
    es = _capped(exprs, cap)
    return value_certificate(f"{name} ({len(es)} instances: each = 0)", ["max", *(abs_expr(e) for e in es)],
                             lower=0, upper=0, exact=True)


def all_nonneg_certificate(name: str, exprs, *, strict: bool = False, exact: bool = True, cap: int = CAP,
                           prec: int = 128) -> dict:
    """The ``rigorous-value`` certificate that each of the first ``cap`` expressions is >= 0 (``> 0`` with
    ``strict``): ``min_i e_i`` against 0, in exact rationals (``exact``) or in arb."""
    es = _capped(exprs, cap)
    rel = ">" if strict else ">="
    return value_certificate(f"{name} ({len(es)} instances: each {rel} 0)", ["min", *es], lower=0, strict=strict,
                             exact=exact, prec=prec)


def all_positive_certificate(name: str, exprs, **kwargs) -> dict:
    """:func:`all_nonneg_certificate` with ``strict``: each expression > 0."""
    return all_nonneg_certificate(name, exprs, strict=True, **kwargs)


def ldp_expressions(Q, t) -> list:
    """t Q[y][x'] - Q[y][x] for every output y and inputs x != x' (``Q[y][x]``: exact entries or expressions;
    ``t``: e^eps, exact or an expression): all >= 0 iff Q is (log t)-LDP (Definition 2: Q[y][x] <= e^eps Q[y][x'])."""
    out = []
    for row in Q:
        for i, a in enumerate(row):
            for j, b in enumerate(row):
                if i != j:
                    out.append(["-", ["*", t, b], a])
    return out


def ldp_level_certificate(name: str, Q, t) -> dict:
    """The exact certificate that Q's LDP level max_{y, x, x'} Q[y][x] / Q[y][x'] is exactly t (Q with positive
    entries): min_{y, x != x'} (t Q[y][x'] - Q[y][x]) = 0 -- every ratio <= t and one equal to t."""
    return value_certificate(f"{name} (LDP level exactly {t})", ["min", *ldp_expressions(Q, t)], lower=0, upper=0,
                             exact=True)


def transpose(M) -> list:
    """Rows x columns y -> ``Q[y][x]``."""
    return [list(col) for col in zip(*M, strict=True)]


def cover_note(n_total: int, n_cert: int, what: str, extra: str = "") -> str:
    """``certificate_covers``: "the N sampled instances' <what>, each re-derived; not the statement for every
    instance" (with the cap named when fewer than all are certified)."""
    head = (f"the {n_cert} sampled instances' {what}" if n_cert >= n_total else
            f"the first {n_cert} of the {n_total} sampled instances' {what}")
    return f"{head}, each re-derived by the checker; not the statement for every instance{extra}"


def exp_eps_expr(eps):
    """(e^eps as an expression, whether it is rational): the exact r of eps = log(r), else ["exp", eps] for a
    rational eps (arb)."""
    from rldp_verify.core.numbers import exact
    from rldp_verify.rldp.mechanisms.rounding import privacy_level

    level = privacy_level(eps)
    if level.exact:
        return level.exp_eps, True
    return ["exp", exact(eps)], False


def conditional_expr(row, P, s: int, a2: int) -> list:
    """P(Y = y | S = s) = sum_u Q[y][(s, u)] P(s, u) / sum_u P(s, u) (``row`` = Q[y] over the flat X = S x U)."""
    cells = range(s * a2, (s + 1) * a2)
    return ["/", ["+", *(["*", row[x], P[x]] for x in cells)], ["+", *(P[x] for x in cells)]]


def definition1_expressions(Q, P, a2: int, t) -> list:
    """t P(y|s') - P(y|s) for every output y and s != s' with P(s), P(s') > 0 (``Q[y]`` rows over the flat
    X = S x U, ``P`` flat): all >= 0 iff Q satisfies Definition 1 at P with e^eps = t (eq. (1))."""
    a1 = len(P) // a2
    live = [s for s in range(a1) if sum(P[s * a2:(s + 1) * a2]) > 0]
    return [["-", ["*", t, conditional_expr(row, P, s2, a2)], conditional_expr(row, P, s1, a2)]
            for row in Q for s1 in live for s2 in live if s1 != s2]


def in_ball_expression(phat, P, alpha, B) -> list:
    """B - D_alpha(P^ || P) (flat distributions; arb): >= 0 iff P lies in the Rényi ball F of eq. (8)."""
    from rldp_verify.certificates.divergence import renyi_expr

    return ["-", B, renyi_expr(phat, P, alpha)]


def definition1_at_points_certificates(name: str, cases, *, cap: int = CAP) -> list[dict]:
    """Definition 1 at sampled points of F: ``cases`` = (Q, P, a2, eps, phat, alpha, B) with ``Q[y]`` over the flat
    X; certificates that each P is in the Rényi ball (arb) and that Q satisfies (1) at P (exact where e^eps is
    rational, arb otherwise), over the first ``cap`` cases."""
    cases = list(cases)[:cap]
    exact_group: list = []
    arb_group: list = []
    for Q, P, a2, eps, *_ in cases:
        t, is_exact = exp_eps_expr(eps)
        es = definition1_expressions(Q, P, a2, t)
        if es:
            (exact_group if is_exact else arb_group).append(["min", *es])
    docs = [all_nonneg_certificate(f"{name}: P in F, B - D_alpha(P^||P)",
                                   [in_ball_expression(phat, P, alpha, B) for _, P, _, _, phat, alpha, B in cases],
                                   exact=False)]
    if exact_group:
        docs.append(all_nonneg_certificate(f"{name}: Definition 1 at P, e^eps P(y|s') - P(y|s)", exact_group,
                                           cap=cap))
    if arb_group:
        docs.append(all_nonneg_certificate(f"{name}: Definition 1 at P, e^eps P(y|s') - P(y|s) (eps rational, arb)",
                                           arb_group, exact=False, cap=cap))
    return docs


def robust_lp_certificate(name: str, a, L, largest: bool) -> tuple:
    """(the optimum, its ``lp-optimum`` certificate) of max (or min) R^T a over D = {R : R_u >= L_u, sum R = 1}
    (App. A.4's inner problem of (41)), by an exact LP."""
    from fractions import Fraction

    from rldp_verify.certificates.lp import lp_certificate
    from rldp_verify.core.lp import solve_exact

    n = len(a)
    sign = 1 if largest else -1
    A = [[Fraction(-1) if j == i else Fraction(0) for j in range(n)] for i in range(n)]
    b = [-Fraction(x) for x in L]
    res = solve_exact([sign * Fraction(x) for x in a], A, b, [[Fraction(1)] * n], [Fraction(1)])
    doc = lp_certificate(name, [Fraction(x) for x in a], A, b, [[Fraction(1)] * n], [Fraction(1)], res,
                         sense="max" if largest else "min")   # raises unless the LP is solved to optimality
    assert res.value is not None
    return sign * res.value, doc


def condition41_certificates(name: str, items, *, cap: int = 20) -> list[dict]:
    """(41) <= 0 for the first ``cap`` of ``items`` = (row Q[y] over the flat X, L, r, eps, s1, s2, a2), r the
    e^eps the check used (exact, or e^eps rounded down): per item the two LP optima over D_s1, D_s2
    (``lp-optimum``); exactly, r min_{D_s2} - max_{D_s1} >= 0 with the LPs' values; and, where r is not e^eps
    itself, e^eps - r >= 0 in arb (so (41) holds with e^eps too, the minimum being >= 0)."""
    from fractions import Fraction

    docs, slack, rounded = [], [], []
    for k, (row, L, r, eps, s1, s2, a2) in enumerate(list(items)[:cap]):
        hi, d1 = robust_lp_certificate(f"{name} (41) item {k}: max R1^T Q_y|s1 over D_s1",
                                       row[s1 * a2:(s1 + 1) * a2], L[s1], True)
        lo, d2 = robust_lp_certificate(f"{name} (41) item {k}: min R2^T Q_y|s2 over D_s2",
                                       row[s2 * a2:(s2 + 1) * a2], L[s2], False)
        docs += [d1, d2]
        slack.append(["-", ["*", r, lo], hi])
        t, is_exact = exp_eps_expr(eps)
        if not is_exact:
            rounded.append(["-", t, Fraction(r)])
    docs.append(all_nonneg_certificate(f"{name}: (41), e^eps min_D_s2 - max_D_s1 (LP values)", slack, cap=cap))
    if rounded:
        docs.append(all_nonneg_certificate(f"{name}: e^eps - r (e^eps rounded down)", rounded, exact=False, cap=cap))
    return docs


def prop3_expressions(Q, a2: int, t) -> list:
    """t Q[y][(s', u')] - Q[y][(s, u)] for every y and cells with s != s' (``Q[y]`` over the flat X = S x U): all
    >= 0 iff Proposition 3's ratio condition holds at e^eps = t."""
    a = len(Q[0]) if Q else 0
    return [["-", ["*", t, row[x2]], row[x1]] for row in Q for x1 in range(a) for x2 in range(a)
            if x1 // a2 != x2 // a2]


def definition3_max_expr(v, L, r, s1: int, s2: int, a2: int) -> list:
    """max over u1, u2 of the left-hand side of Definition 3 (eq. (3)) for the pair (s1, s2), from the row v
    (over the flat X = S x U), the bounds L[s][u] and e^eps = r:
    v_{s1,u1} - r v_{s2,u2} + sum_u L_{u|s1} (v_{s1,u} - v_{s1,u1}) - r sum_u L_{u|s2} (v_{s2,u} - v_{s2,u2})."""
    return ["max", *(["-", ["+", v[s1 * a2 + u1], *(["*", L[s1][u], ["-", v[s1 * a2 + u], v[s1 * a2 + u1]]]
                                                    for u in range(a2))],
                      ["*", r, ["+", v[s2 * a2 + u2], *(["*", L[s2][u], ["-", v[s2 * a2 + u], v[s2 * a2 + u2]]]
                                                        for u in range(a2))]]]
                     for u1 in range(a2) for u2 in range(a2))]


def cone_membership_certificate(name: str, cases, *, same_s: bool = True) -> dict:
    """Every row of each Q lies in Gamma_eps (Definition 3; without the pairs s1 = s2 when not ``same_s``: the
    relaxed cone): exactly, min over rows y and pairs (s1, s2) of -(Definition 3's maximum) >= 0. ``cases`` =
    (Q with rows Q[y] over the flat X, L, r = e^eps exact)."""
    per = []
    for Q, L, r in cases:
        a1, a2 = len(L), len(L[0])
        per.append(["min", *(["-", definition3_max_expr(row, L, r, s1, s2, a2)] for row in Q
                             for s1 in range(a1) for s2 in range(a1) if same_s or s1 != s2)])
    return all_nonneg_certificate(f"{name}: rows in {'Gamma_eps' if same_s else 'the relaxed cone'}, -max (3)",
                                  per, cap=len(per))


# --- high-precision property tests (issue 23, round 3): arb certificates of each sampled instance's inequality ---

def exact_vector(xs) -> list:
    """Exact numbers (ints, Fractions, mpmath mpf as the binary rationals they are; floats refused)."""
    from rldp_verify.certificates.series import exact_number

    return [exact_number(x) for x in xs]


def conditional_radius_expr(phat_s, alpha, B) -> list:
    """B_s of Theorem 1 (eq. (23)) from P^_s, alpha, B (exact): ``alpha/(alpha-1) log((e^{(alpha-1)B/alpha} -
    (1 - P^_s)) / P^_s)`` (alpha != 1), ``B / P^_s`` (alpha = 1); the checker requires the log's argument > 0
    (for alpha < 1 a finite B_s needs e^{(alpha-1)B/alpha} > 1 - P^_s)."""
    from fractions import Fraction

    ps, a, b = Fraction(phat_s), Fraction(alpha), Fraction(B)
    if a == 1:
        return ["/", b, ps]
    return ["*", a / (a - 1), ["log", ["/", ["-", ["exp", (a - 1) * b / a], 1 - ps], ps]]]


def within_certificate(name: str, exprs, tol, *, cap: int = CAP, prec: int = 128) -> dict:
    """The arb ``rigorous-value`` certificate that each of the first ``cap`` expressions has |e_i| <= ``tol``
    (``max_i max(e_i, -e_i) <= tol``): an equality of irrational values that arb cannot decide, certified only
    within ``tol`` (weaker than the equality)."""
    es = _capped(exprs, cap)
    return value_certificate(f"{name} ({len(es)} instances: each |.| <= {tol})", ["max", *(abs_expr(e) for e in es)],
                             upper=tol, prec=prec)


def projection_slack_expressions(cases) -> list:
    """B_s - D_alpha(P^_{U|s} || P_{U|s}) per case (P^ a table of exact rows, alpha, B exact, P flat: exact or
    mpf, s with P^_s > 0 and a finite B_s): > 0 iff the conditional of P at s lies strictly inside Theorem 1's
    B_s-ball (Lemmas A1, A3), each written from the definitions (the conditionals as exact rationals)."""
    from rldp_verify.certificates.divergence import renyi_expr

    out = []
    for phat, alpha, B, P, s in cases:
        a2 = len(phat[s])
        ps = sum(phat[s])
        row = exact_vector(P[s * a2:(s + 1) * a2])
        m = sum(row)
        out.append(["-", conditional_radius_expr(ps, alpha, B),
                    renyi_expr([v / ps for v in phat[s]], [v / m for v in row], alpha)])
    return out


def ball_slack_expressions(cases) -> list:
    """B - D_alpha(P^ || P) per case (P^ a table of exact rows, alpha, B, P flat: exact or mpf)."""
    from rldp_verify.certificates.divergence import renyi_expr

    return [["-", B, renyi_expr([v for r in phat for v in r], exact_vector(P), alpha)]
            for phat, alpha, B, P in cases]


def alpha2_root_expr(p, E, sign: int) -> list:
    """Lemma 1 / Proposition 2 part 1 (alpha = 2): t-+ = (E + 2p - 1 -+ sqrt((E - 1)(E - (2p - 1)^2))) / (2E), the
    roots of p^2/t + (1-p)^2/(1-t) = E (``p`` exact, ``E`` = e^{B_s} an expression; ``sign`` -1 or +1)."""
    from fractions import Fraction

    p = Fraction(p)
    root = ["sqrt", ["*", ["-", E, 1], ["-", E, (2 * p - 1) ** 2]]]
    return ["/", ["+", E, 2 * p - 1, ["*", sign, root]], ["*", 2, E]]


def alpha2_residual_expr(p, t, E) -> list:
    """p^2/t + (1-p)^2/(1-t) - E: e^{D_2(Bern(p)||Bern(t))} - e^{B_s} (0 iff t is on the boundary of the binary
    B_s-ball; ``t``, ``E`` expressions)."""
    from fractions import Fraction

    p = Fraction(p)
    return ["-", ["+", ["/", p * p, t], ["/", (1 - p) ** 2, ["-", 1, t]]], E]


def subset_gain_expr(rho, E) -> list:
    """2 rho (xi+(rho) - 1) = 2 (t+(rho) - rho) at alpha = 2 (Lemma 1's closed form, :func:`alpha2_root_expr`,
    E = e^{B_s} = 1 + B~ exact or an expression): the value of the subset X1 with P^_{X1} = rho in (A6) / eq. (30)."""
    return ["*", 2, ["-", alpha2_root_expr(rho, E, 1), rho]]


def argmax_at_min_expression(center, Btil) -> list:
    """min over the non-empty proper subsets X1 with P^_{X1} != P^_min of g(P^_min) - g(P^_{X1}) (g of
    :func:`subset_gain_expr`, E = 1 + B~; ``center`` exact, ``Btil`` exact or mpf): > 0 iff the maximum over
    subsets is attained at {x_min} and only at subsets of the same mass (those tie by the same formula)."""
    from fractions import Fraction
    from itertools import combinations

    from rldp_verify.certificates.series import exact_number

    c = [Fraction(x) for x in center]
    E = 1 + exact_number(Btil)
    pmin = min(c)
    top = subset_gain_expr(pmin, "$E")
    masses = sorted({sum(c[i] for i in X1) for r in range(1, len(c)) for X1 in combinations(range(len(c)), r)})
    return ["let", [["E", E]], ["min", *(["-", top, subset_gain_expr(rho, "$E")] for rho in masses if rho != pmin)]]


def rad_below_sqrt_expression(center, E) -> list:
    """sqrt(E - 1) - max over non-empty proper subsets X1 of g(P^_{X1}) (g of :func:`subset_gain_expr`; ``center``
    = P^_{U|s} exact, ``E`` = e^{B_s} an expression): > 0 iff eq. (30)'s rad_s at alpha = 2 (the maximum over
    subsets, Lemma A6) is below Proposition 2 part 3's sqrt(e^{B_s} - 1)."""
    from fractions import Fraction
    from itertools import combinations

    c = [Fraction(x) for x in center]
    masses = sorted({sum(c[i] for i in X1) for r in range(1, len(c)) for X1 in combinations(range(len(c)), r)})
    rad = ["max", *(subset_gain_expr(rho, "$E") for rho in masses)]
    return ["let", [["E", E]], ["-", ["sqrt", ["-", "$E", 1]], rad]]


def steps_certificates(name: str, ties: list, strict: list, *, tol=None, cap: int = CAP) -> list[dict]:
    """A proof-step claim's certificates (``proofs/rldp/_steps.py``): the equalities ``ties`` (expressions lhs - rhs)
    each within ``tol`` (default 1e-30: an equality of irrational values, certified only within it) and the strict
    inequalities ``strict`` (expressions > 0), each list over its first ``cap``."""
    from fractions import Fraction

    docs = []
    if ties:
        docs.append(within_certificate(f"{name}: equalities", ties, Fraction(1, 10**30) if tol is None else tol,
                                       cap=cap))
    if strict:
        docs.append(all_positive_certificate(f"{name}: strict inequalities", strict, exact=False, cap=cap))
    if not docs:
        raise ValueError(f"{name}: no step to certify")
    return docs


def guarded(evidence_builder, *args) -> dict:
    """``evidence_builder(*args)`` (a claim's certificate evidence: documents and their ``certificate_covers``), or,
    when it raises, a ``no_certificate`` naming the exception (as :func:`rldp_verify.certificates.claims.built`): a
    certificate that cannot be built never turns a verdict into ERROR."""
    from rldp_verify.certificates.claims import no_certificate

    try:
        return evidence_builder(*args)
    except Exception as exc:  # noqa: BLE001 - reported per claim, never hidden
        return no_certificate(f"building the certificate failed: {type(exc).__name__}: {str(exc)[:200]}")


def ball_dual_certificates(name: str, cases) -> list[dict]:
    """rldp.audit.ball-support-dual's certificates: per case (alpha, R^, v, d, mu, R) (exact or mpf), the stated
    maximiser R in the ball (d - D_alpha(R^||R) >= 0) and 0 <= dual(mu) - v.R <= 1e-15, with dual(mu) =
    mu - e^{-d} M_beta(mu - v; R^) written out (beta = 1 - 1/alpha; the geometric mean at alpha = 1), in arb."""
    from fractions import Fraction

    from rldp_verify.certificates.divergence import renyi_expr

    gaps, inside = [], []
    for alpha, wm, vm, dm, mu, R in cases:
        w, v, r = exact_vector(wm), exact_vector(vm), exact_vector(R)
        d, m = exact_vector([dm])[0], exact_vector([mu])[0]
        be = 1 - 1 / Fraction(alpha)
        M: list
        if be == 0:
            M = ["exp", ["+", *(["*", x, ["log", m - y]] for x, y in zip(w, v, strict=True))]]
        else:
            M = ["pow", ["+", *(["*", x, ["pow", m - y, be]] for x, y in zip(w, v, strict=True))], 1 / be]
        vr = ["+", *(["*", x, y] for x, y in zip(v, r, strict=True))]
        gaps.append(["-", ["-", m, ["*", ["exp", -d], M]], vr])
        inside.append(["-", d, renyi_expr(w, r, alpha)])
    return [all_nonneg_certificate(f"{name}: d - D_alpha(R^||R) at the stated maximiser", inside, exact=False),
            all_nonneg_certificate(f"{name}: dual(mu) - v.R", gaps, exact=False),
            within_certificate(f"{name}: dual(mu) - v.R", gaps, Fraction(1, 10**15))]
