"""Statements of seed 001 that had no claim (issue 12): eq. (1) (pure LDP as Rényi LDP of order infinity),
the DPI (7), the confusion-graph reformulation of (11) (Sec. III-A) and the sentence after Example 12 on
channels with linearly many non-zeros.

Each check takes the formula it tests as a parameter (default: the paper's); tests/falpha/
test_sentences_uncovered.py runs a wrong variant and expects REFUTED.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from itertools import pairwise

import mpmath

from rldp_verify.certificates.claims import built, no_certificate
from rldp_verify.certificates.instances_other import CAP, all_nonneg, covers, dot
from rldp_verify.certificates.taylor import rr_level_limit_certificate
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.core.divergence import renyi_divergence
from rldp_verify.core.numbers import working_precision
from rldp_verify.topics.fdiv import f_alpha_divergence, push

from ._common import PAPER, rand_channel, rand_dist


def _mp(x):
    return mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)


# --- eq. (1): D_alpha -> log max P/Q ---------------------------------------------------------------------

def check_eq1(ctx, direction="p/q") -> Outcome:
    """For full-support P, Q: log(r*) + log(P(x*))/(alpha-1) <= D_alpha(P||Q) <= log(r*), r* = max P/Q, so
    D_alpha -> log r* as alpha -> inf. ``direction="q/p"`` is a wrong variant (log max Q/P)."""
    rng = ctx.rng("falpha.eq1")
    rows, pairs = [], []
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
        for _ in range(40):
            n = rng.randint(2, 6)
            P, Q = rand_dist(rng, n), rand_dist(rng, n)
            if P == Q:
                continue
            ratios = [(p / q, p) for p, q in zip(P, Q, strict=True)] if direction == "p/q" else [(q / p, p) for p, q in zip(P, Q, strict=True)]
            r, px = max(ratios)
            dinf = mpmath.log(_mp(r))
            prev = None
            for alpha in ("2.5", "10.5", "100.5", "1000.5", "10000.5"):  # non-integer: mpmath, not huge rationals
                d = renyi_divergence(P, Q, alpha, dps=ctx.dps)
                alpha = mpmath.mpf(alpha)
                lower = dinf + mpmath.log(_mp(px)) / (alpha - 1)
                if d > dinf + tol or d < lower - tol or (prev is not None and d < prev - tol):
                    return Outcome.refuted(
                        "D_alpha is not squeezed towards log max ratio", counterexample={
                            "P": [str(x) for x in P], "Q": [str(x) for x in Q], "alpha": alpha,
                            "D_alpha": mpmath.nstr(d, 15), "log max ratio": mpmath.nstr(dinf, 15),
                            "lower": mpmath.nstr(lower, 15)}, kind="false")
                prev = d
            rows.append({"n": n, "D_10000": mpmath.nstr(d, 12), "log max P/Q": mpmath.nstr(dinf, 12)})
            if direction == "p/q":
                pairs.append((P, Q, r, px))
    return Outcome.verified(
        "on 40 random full-support pairs D_alpha is non-decreasing in alpha and log r* + log P(x*)/(alpha-1) <= D_alpha "
        "<= log r* (r* = max P/Q attained at x*), so D_alpha -> log max P/Q = D_inf", rows=rows[:8],
        certificate_covers=covers(min(len(pairs), CAP), len(pairs), "log r* - D_alpha > 0 and D_alpha' - D_alpha > 0 "
                                  "at the five orders alpha = 2.5, 10.5, 100.5, 1000.5, 10000.5, and D_alpha - log r* - "
                                  "log P(x*)/(alpha - 1) > 0 at alpha = 2.5 and 10.5 only (at larger alpha that slack "
                                  "falls below 10^-1500, which arb's 16384 bits cannot separate from 0 after the "
                                  "cancellation against log r*); not the limit alpha -> infinity itself"),
        **built(eq1_certificate, pairs[:CAP]))


EQ1_ORDERS = tuple(Fraction(a) for a in ("2.5", "10.5", "100.5", "1000.5", "10000.5"))


def eq1_certificate(pairs) -> dict:
    """At each sampled (P, Q, r* = max P/Q, P(x*)) and each order of :data:`EQ1_ORDERS`: log r* - D_alpha > 0,
    D_alpha - log r* - log P(x*)/(alpha - 1) > 0 (at alpha = 2.5 and 10.5 only: see below), and D_alpha increases strictly from one order to the next (P != Q),
    D_alpha (eq. (2)) written from P and Q (:func:`rldp_verify.certificates.divergence.renyi_expr`); r* is checked
    here to be the exact max of P/Q (a wrong r* changes the expressions the checker evaluates)."""
    from rldp_verify.certificates.divergence import renyi_expr

    terms = []
    for P, Q, r, px in pairs:
        if r != max(p / q for p, q in zip(P, Q, strict=True)) or (r, px) not in {(p / q, p) for p, q in zip(P, Q,
                                                                                                           strict=True)}:
            raise ValueError(f"r* = {r} at P(x*) = {px} is not max P/Q")
        d = [renyi_expr(P, Q, a) for a in EQ1_ORDERS]
        for a, da in zip(EQ1_ORDERS, d, strict=True):
            terms.append(["-", ["log", r], da])
            if a < 100:   # the lower bound's slack, (1/(alpha-1)) log(1 + sum_{x != x*} ...), is below 10^-1500 at
                # alpha ~ 10^4 for many pairs: beyond arb's 16384 bits after the cancellation against log r*
                terms.append(["-", da, ["+", ["log", r], ["/", ["log", px], a - 1]]])
        terms += [["-", b, a] for a, b in pairwise(d)]
    return all_nonneg(f"eq. (1): D_alpha < log r* and increasing in alpha (alpha = 2.5 ... 10000.5), "
                      f"log r* + log P(x*)/(alpha-1) < D_alpha (alpha = 2.5, 10.5), at {len(pairs)} sampled "
                      "full-support pairs", terms, strict=True, exact=False)


@claim(id="falpha.eq1.dinf-limit", paper=PAPER, source="Sec. I, eq. (1)",
       statement="max_y log P_{X|W=w}(y)/P_{X|W=w'}(y) = lim_{alpha->inf} D_alpha(P_{X|W=w}||P_{X|W=w'}).",
       hypotheses=("full support (finite LDP level)",), method=(Method.HIGH_PRECISION, Method.PROPERTY),
       reading="the limit is shown per instance by the squeeze log r* + log P(x*)/(alpha-1) <= D_alpha <= log r*, "
               "checked at alpha up to 10^4")
def _eq1(ctx):
    return check_eq1(ctx)


# --- eq. (7): the DPI ---------------------------------------------------------------------------------------

def check_dpi(ctx, direction="contract") -> Outcome:
    """D(W o P || W o Q) <= D(P || Q) for f_alpha (exact at integer alpha) and Rényi divergences.
    ``direction="expand"`` is a wrong variant (the reverse inequality)."""
    rng = ctx.rng("falpha.eq7")
    n_exact = n_hp = 0
    certified = []
    with working_precision(ctx.dps):
        tol = mpmath.mpf(10) ** (-(ctx.dps - 10))
        for _ in range(60):
            nx, ny = rng.randint(2, 5), rng.randint(2, 5)
            W = rand_channel(rng, nx, ny)
            P, Q = rand_dist(rng, nx), rand_dist(rng, nx)
            strict = []
            for alpha in (2, 3, 5):
                a, b = f_alpha_divergence(push(W, P), push(W, Q), alpha), f_alpha_divergence(P, Q, alpha)
                ok = a <= b if direction == "contract" else a >= b
                if not ok:
                    return Outcome.refuted(f"D_f_alpha at alpha = {alpha} violates the stated inequality",
                                           counterexample={"W": [[str(x) for x in r] for r in W], "P": [str(x) for x in P],
                                                           "Q": [str(x) for x in Q], "out": str(a), "in": str(b)}, kind="false")
                n_exact += 1
            for alpha in ("0.5", "1", "2.5", "10.3"):
                a = renyi_divergence(push(W, P), push(W, Q), alpha, dps=ctx.dps)
                b = renyi_divergence(P, Q, alpha, dps=ctx.dps)
                ok = a <= b + tol if direction == "contract" else a >= b - tol
                if b - a > tol:   # arb decides only a strict inequality
                    strict.append(Fraction(alpha))
                if not ok:
                    return Outcome.refuted(f"D_alpha at alpha = {alpha} violates the stated inequality",
                                           counterexample={"P": [str(x) for x in P], "Q": [str(x) for x in Q],
                                                           "out": mpmath.nstr(a, 15), "in": mpmath.nstr(b, 15)}, kind="false")
                n_hp += 1
            if len(certified) < CAP and direction == "contract":
                certified.append((W, P, Q, strict))
    n_arb = sum(len(c[3]) for c in certified)
    return Outcome.verified(f"D(W o P || W o Q) <= D(P || Q) on {n_exact} exact f_alpha cases (alpha = 2, 3, 5) and "
                            f"{n_hp} Rényi cases (alpha = 0.5, 1, 2.5, 10.3) at {ctx.dps} digits (channels with zeros)",
                            certificate_covers=covers(len(certified), n_exact // 3, "inequalities: D_f_alpha exactly "
                                                      "at alpha = 2, 3, 5, and D_alpha in arb at the "
                                                      f"{n_arb} of {4 * len(certified)} (alpha, instance) where it is "
                                                      "strict (a tie cannot be decided in arb); W o P and W o Q "
                                                      "written from W, P, Q"),
                            **built(_dpi_certificates, certified))


def _power_terms(p, q, vp, vq, a) -> list:
    """p_i^a q_i^(1-a) over the cells with both exact values > 0 (the others contribute 0 here: a cell with
    p > 0 = q makes D infinite and is refused)."""
    if any(x > 0 and y == 0 for x, y in zip(vp, vq, strict=True)):
        raise ValueError("a cell with P > 0 = Q: an infinite divergence, nothing to certify")
    if a == int(a):
        return [["/", ["pow", x, int(a)], ["pow", y, int(a) - 1]] for x, y, u, v in zip(p, q, vp, vq, strict=True)
                if u > 0]
    return [["*", ["pow", x, a], ["pow", y, 1 - a]] for x, y, u, v in zip(p, q, vp, vq, strict=True) if u > 0 and v > 0]


def _renyi(p, q, vp, vq, a) -> list:
    """D_alpha(p||q) (nats): log(sum p^a q^(1-a))/(a - 1), and KL sum p (log p - log q) at a = 1."""
    if a == 1:
        return ["+", 0, *[["-", ["xlogx", x], ["*", x, ["log", y]]]
                          for x, y, u in zip(p, q, vp, strict=True) if u > 0]]
    return ["/", ["log", ["+", 0, *_power_terms(p, q, vp, vq, a)]], a - 1]


def _dpi_certificates(instances) -> list[dict]:
    """Exact: sum_x P^a/Q^(a-1) - sum_y (WP)^a/(WQ)^(a-1) >= 0 at alpha = 2, 3, 5 (so D_f_alpha contracts); arb:
    D_alpha(P||Q) - D_alpha(WP||WQ) >= 0 at the strict cases; WP, WQ written from W, P, Q, an output with
    (WP)_y = (WQ)_y = 0 left out and stated as -(WP)_y >= 0 and -(WQ)_y >= 0 (exactly)."""
    exact, arb = [], []
    for W, P, Q, strict in instances:
        cols = [[row[y] for row in W] for y in range(len(W[0]))]
        wp, wq = [dot(P, c) for c in cols], [dot(Q, c) for c in cols]
        vp, vq = push(W, P), push(W, Q)
        exact += [["-", e] for e, v in zip(wp + wq, vp + vq, strict=True) if v == 0]
        for a in (2, 3, 5):
            exact.append(["-", ["+", 0, *_power_terms(P, Q, P, Q, a)], ["+", 0, *_power_terms(wp, wq, vp, vq, a)]])
        arb += [["-", _renyi(P, Q, P, Q, a), _renyi(wp, wq, vp, vq, a)] for a in strict]
    docs = [all_nonneg(f"eq. (7): D_f_alpha(W o P || W o Q) <= D_f_alpha(P || Q) at alpha = 2, 3, 5, "
                       f"{len(instances)} sampled (W, P, Q)", exact)]
    if arb:
        docs.append(all_nonneg(f"eq. (7): D_alpha(W o P || W o Q) <= D_alpha(P || Q), {len(arb)} strict cases at "
                               "alpha = 1/2, 1, 5/2, 103/10", arb, exact=False))
    return docs


@claim(id="falpha.eq7.data-processing", paper=PAPER, source="Sec. II-B, eq. (7) and the sentence before it",
       statement="All f-divergences, in particular f_alpha- and Rényi divergences, satisfy the data processing "
                 "inequality D(P_{Y|X} o P_X || P_{Y|X} o Q_X) <= D(P_X || Q_X).",
       method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY))
def _dpi(ctx):
    return check_dpi(ctx)


# --- Sec. III-A: the confusion graph -------------------------------------------------------------------------

def confusion_complete(supports, rule="share-output") -> bool:
    """Is the confusion graph W of (16) complete? Edge (x_i, x_j) iff some y has both in X^(y).
    ``rule="equal-support"`` is a wrong variant (edge iff the two rows have the same support)."""
    n = len(supports)
    for i, j in itertools.combinations(range(n), 2):
        edge = bool(supports[i] & supports[j]) if rule == "share-output" else supports[i] == supports[j]
        if not edge:
            return False
    return True


def check_confusion_graph(ctx, rule="share-output") -> Outcome:
    checked = 0
    for nx, ny in ((2, 2), (2, 3), (3, 2), (3, 3), (3, 4), (4, 3)):
        for pattern in itertools.product((0, 1), repeat=nx * ny):
            rows = [frozenset(y for y in range(ny) if pattern[x * ny + y]) for x in range(nx)]
            if any(not r for r in rows):
                continue
            cond11 = any(not (rows[i] & rows[j]) for i, j in itertools.combinations(range(nx), 2))
            if cond11 == confusion_complete(rows, rule):
                return Outcome.refuted("(11) and 'confusion graph incomplete' disagree",
                                       counterexample={"supports": [sorted(r) for r in rows], "(11)": cond11}, kind="false")
            checked += 1
    example = [[Fraction(1, 2), Fraction(1, 2), 0], [0, Fraction(1, 2), Fraction(1, 2)], [Fraction(1, 2), 0, Fraction(1, 2)]]
    sup = [frozenset(y for y in range(3) if example[x][y]) for x in range(3)]
    assert confusion_complete(sup, rule) or rule != "share-output"
    return Outcome.verified(
        f"(11) holds exactly when the confusion graph (16) is incomplete, on all {checked} support patterns of 2x2 to "
        "4x3 channels; a complete confusion graph does not need a positive matrix: [[1/2,1/2,0],[0,1/2,1/2],[1/2,0,1/2]]",
        non_positive_complete=[[str(x) for x in r] for r in example],
        **no_certificate(  # issue 23
            "a combinatorial equivalence checked by exhausting the 0/1 support patterns up to 4 x "
            "3: no numeric verdict to certify"))


@claim(id="falpha.sec3a.confusion-graph", paper=PAPER, source="Sec. III-A, eqs. (16)-(17) and the paragraphs around them",
       statement="Condition (11) is equivalent to the channel's confusion graph being incomplete; a fully connected "
                 "confusion graph is not equivalent to a strictly positive channel matrix.",
       method=(Method.EXACT,), reading="exhaustive over 0/1 support patterns up to 4 x 3 (rows non-empty)")
def _confusion(ctx):
    return check_confusion_graph(ctx)


# --- after Example 12: linearly many non-zeros ----------------------------------------------------------------

def rr(N, t):
    d = N - 1 + t
    return [[t / d if x == w else 1 / d for x in range(N)] for w in range(N)]


def p_channel(N):
    """P^(N) of (59): y_j gets 1/2 from x_j and x_{j+1 mod N} (2N non-zeros)."""
    return [[Fraction(1, 2) if (i == j or i == (j + 1) % N) else Fraction(0) for j in range(N)] for i in range(N)]


def cascade_level(N, t, alpha, dps):
    """max_{w != w'} D_alpha of the rows of RR_N followed by P^(N); the cascade is circulant, so w = 0."""
    M = rr(N, t)
    W = p_channel(N)
    r1 = [_mp(x) for x in push(W, M[0])]
    best = mpmath.mpf(0)
    for w2 in range(1, N):
        r2 = [_mp(x) for x in push(W, M[w2])]
        best = max(best, _renyi_mp(r1, r2, alpha))
    return best


def _renyi_mp(p, q, alpha):
    """D_alpha for full-support mpf vectors; alpha = "inf" gives log max p/q."""
    if alpha == "inf":
        return mpmath.log(max(a / b for a, b in zip(p, q, strict=True)))
    a = mpmath.mpf(alpha)
    return mpmath.log(sum(x ** a * y ** (1 - a) for x, y in zip(p, q, strict=True))) / (a - 1)


def check_linear_nonzeros(ctx, alpha="2") -> Outcome:
    """eps*(N) of RR_N o P^(N) at fixed eps tends to 0. ``alpha="inf"`` is the wrong variant (pure LDP)."""
    t = Fraction(10)  # eps = log 10, as in Figure 2 (c), (d)
    Ns = (5, 10, 20, 40, 80)
    with working_precision(30):
        levels = [cascade_level(N, t, alpha, 30) for N in Ns]
        rr_level = [_renyi_mp([_mp(x) for x in rr(N, t)[0]], [_mp(x) for x in rr(N, t)[1]], alpha) for N in Ns]
    ev = {"eps": "log 10", "alpha": alpha, "N": list(Ns), "eps*(RR_N o P^(N))": [mpmath.nstr(x, 6) for x in levels],
          "eps*(RR_N) alone": [mpmath.nstr(x, 6) for x in rr_level],
          "note": "every channel has eps* <= eps*(RR_N) (DPI), and eps*(RR_N) -> 0 for finite alpha: the limit needs no "
                  "condition on the number of non-zeros"}
    import sympy as sp

    n_sym = sp.symbols("N", positive=True)
    if alpha == "inf":
        bound_limit = sp.log(sp.Integer(10))  # RR_N's pure-LDP level is log t for every N
    else:  # RR_N's rows differ in two entries: sum p^a q^(1-a) = (t^a + t^(1-a) + N - 2)/(N - 1 + t)
        a = sp.nsimplify(alpha)
        expr = sp.log((10 ** a + 10 ** (1 - a) + n_sym - 2) / (n_sym - 1 + 10)) / (a - 1)
        bound_limit = sp.limit(expr, n_sym, sp.oo)
    ev["limit of eps*(RR_N) as N -> inf"] = str(bound_limit)
    decreasing = all(b < a for a, b in pairwise(levels))
    below = all(x <= y + mpmath.mpf(10) ** -20 for x, y in zip(levels, rr_level, strict=True))
    if decreasing and below and bound_limit == 0:
        return Outcome.verified(
            f"for P^(N) (2N non-zeros) and eps = log 10 the Rényi-{alpha} LDP of the cascade decreases, "
            f"{mpmath.nstr(levels[0], 4)} (N = 5) to {mpmath.nstr(levels[-1], 4)} (N = 80), below RR_N's own level "
            "(DPI), whose limit is 0: the system approaches perfect privacy, but the condition on the number of "
            "non-zeros is not needed (every channel inherits RR_N's limit)", **ev,
            **built(rr_level_limit_certificate, t, alpha),
            certificate_covers="the limit: RR_N's Rényi level (its two rows' sum with the N - 2 equal terms collected, "
                               "in x = 1/N) is analytic at x = 0 with c_0 = 0 exactly (series kind), so it tends to 0; "
                               "not the DPI bound eps*(RR_N o P^(N)) <= eps*(RR_N) (a theorem) nor the cascade's levels "
                               "at N = 5..80 (high precision)")
    return Outcome.refuted(
        f"the level of RR_N o P^(N) does not tend to 0 (alpha = {alpha}): {[mpmath.nstr(x, 4) for x in levels]}, "
        f"bound limit {bound_limit}",
        counterexample={"N": list(Ns), "levels": [mpmath.nstr(x, 6) for x in levels]}, **ev, kind="false")


@claim(id="falpha.sec6.linear-nonzeros", paper=PAPER, source="Sec. VI, paragraph after Example 12 ('as long as the number "
       "of non-zero elements in the channel matrix grows linearly with N, the privacy guarantee of the system will "
       "approach perfect privacy as the alphabet size grows')",
       statement="For RR_N followed by a channel whose number of non-zeros grows linearly in N (here P^(N) of (59)), the "
                 "Rényi LDP of the system tends to 0 as N grows.",
       hypotheses=("eps = log 10 fixed; alpha = 2 (finite alpha)",), method=(Method.HIGH_PRECISION,),
       reading="'privacy guarantee' read as the Rényi-alpha LDP level (47)-(48) at a finite alpha; at alpha = inf (pure "
               "LDP) the level of RR_N o P^(N) stays log((e^eps + 1)/2)")
def _linear_nonzeros(ctx):
    return check_linear_nonzeros(ctx)
