"""Proof steps of Appendix A.1 (proof of Theorem 1: Lemmas A1-A4, eqs. (A1)-(A27)) of 000_aca93ed29ea857ee.txt.

Each ``printed_*`` function is a display as the paper writes it (the conversion dropped minus and relation
signs; the reading is in each claim). The claims compare them with values computed from the definitions
(the Rényi divergence of the engine, conditionals of random tables) at random rational points and at the
boundaries, for orders below and above 1 (the paper proves alpha < 1 and says alpha > 1 is analogous).
Wrong variants of each printed step are the mutants ``steps.a1.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath
import sympy as sp

from rldp_verify.certificates.instances_rldp import guarded as _guarded
from rldp_verify.claims import Method, claim
from rldp_verify.core.divergence import kl_divergence, renyi_divergence
from rldp_verify.core.numbers import working_precision

from ._sec34 import rand_table
from ._steps import PAPER, Tally, mp, nstr, rand_fraction

ORDERS = (Fraction(1, 5), Fraction(1, 2), Fraction(4, 5), Fraction(6, 5), Fraction(3, 2), Fraction(2),
          Fraction(3), Fraction(7, 2), Fraction(10))
LEMMA_A1 = ("rldp.thm1.projection-in-ball", "rldp.thm1.radius-direct-optimisation")
LEMMA_A2 = ("rldp.thm1.lift-in-F", "rldp.thm1.radius-direct-optimisation")


# ---------------------------------------------------------------------------------------------
# the printed steps (our reading of the converted text)
# ---------------------------------------------------------------------------------------------


def printed_A1(alpha, B):
    """(A1): D_alpha(P^||P) <= B  <=>  sum_x P^_x^a P_x^(1-a)  REL  C with C = e^{B(alpha-1)}; REL is '>='
    for alpha < 1 (the case the proof treats) and '<=' for alpha > 1 ((A30)). Returns (C, REL)."""
    return mpmath.exp(mp(B) * (mp(alpha) - 1)), (">=" if alpha < 1 else "<=")


def printed_A2(a, phat_s, p_s, inner):
    """(A2): the s-block of the power sum, P^_s^a P_s^(1-a) sum_u P^_{u|s}^a P_{u|s}^(1-a)."""
    return phat_s**a * p_s ** (1 - a) * inner


def printed_A4(a, phat_s, p_s, inner_not_s):
    """(A4): the other blocks, (1-P^_s)^a (1-P_s)^(1-a) sum P^_{|not s}^a P_{|not s}^(1-a)."""
    return (1 - phat_s) ** a * (1 - p_s) ** (1 - a) * inner_not_s


def printed_A5(alpha):
    """(A5): sum P^_{|not s}^a P_{|not s}^(1-a) = e^{(a-1) D_a(...)} REL 1: '<=' for alpha < 1 (the relation
    sign is lost in the conversion; '<=' is what (A6) needs), '>=' for alpha > 1."""
    return "<=" if alpha < 1 else ">="


def printed_A7_rhs(a, C, phat_s, x):
    """RHS of (A7) as a function of x = P_s: x^(a-1) / P^_s^a (C - (1-P^_s)^a (1-x)^(1-a))."""
    return x ** (a - 1) / phat_s**a * (C - (1 - phat_s) ** a * (1 - x) ** (1 - a))


def printed_A8(a, C, phat_s, x):
    """(A8): d/dx RHS(A7) = (a-1) x^(a-2) (1-P^_s)^a / P^_s^a (C/(1-P^_s)^a - 1/(1-x)^a)."""
    return (a - 1) * x ** (a - 2) * (1 - phat_s) ** a / phat_s**a * (C / (1 - phat_s) ** a - 1 / (1 - x) ** a)


def printed_stationary(a, C, phat_s):
    """'Setting this equal to 0, we find P_s = 1 - C^{-1/alpha}(1 - P^_s)' (minus signs restored)."""
    return 1 - C ** (-1 / a) * (1 - phat_s)


def printed_A9(a, C, phat_s):
    """(A9): the RHS of (A7) at the stationary point, (C^{1/a} - (1-P^_s))^a / P^_s^a."""
    return (C ** (1 / a) - (1 - phat_s)) ** a / phat_s**a


def printed_A10(a, B, phat_s):
    """(A10): the bound alpha/(alpha-1) log((e^{(alpha-1)B/alpha} - (1-P^_s))/P^_s) (= B_s of (23))."""
    return a / (a - 1) * mpmath.log((mpmath.exp((a - 1) * B / a) - (1 - phat_s)) / phat_s)


def printed_A14(a, C, phat_s):
    """(A14): B_s = alpha/(alpha-1) log(C^{1/alpha} gamma / P^_s), gamma = 1 - C^{-1/alpha}(1-P^_s)."""
    gamma = 1 - C ** (-1 / a) * (1 - phat_s)
    return a / (a - 1) * mpmath.log(C ** (1 / a) * gamma / phat_s)


def printed_A15(a, C, gamma, phat_s):
    """(A15): the bound C gamma^a / P^_s^a on sum_u P^_{u|s}^a R_u^(1-a) ('>=' for alpha < 1)."""
    return C * gamma**a / phat_s**a


def printed_A16(a, C, gamma, R, s, phat):
    """(A16): the lift P_{u,s'} = gamma R_u (s' = s), C^{-1/a} P^_{u,s'} otherwise (a table)."""
    return [[gamma * mp(R[j]) if i == s else C ** (-1 / a) * mp(v) for j, v in enumerate(row)]
            for i, row in enumerate(phat)]


def printed_A18(a, C, gamma, phat_s, inner):
    """(A18): P^_s^a gamma^(1-a) sum_u P^_{u|s}^a R_u^(1-a) + C^{(a-1)/a} (1 - P^_s)."""
    return phat_s**a * gamma ** (1 - a) * inner + C ** ((a - 1) / a) * (1 - phat_s)


def printed_A19(a, C, gamma, phat_s):
    """(A19): gamma C + C^{(a-1)/a}(1 - P^_s) (the bound on (A18) by (A15))."""
    return gamma * C + C ** ((a - 1) / a) * (1 - phat_s)


def printed_A24(phat_s, d_joint, d_not_s, d_bern):
    """(A24): D_1(P^_{U|s}||P_{U|s}) = (D_1(P^||P) - (1-P^_s) D_1(not s) - D_1(V_{P^_s}||V_{P_s})) / P^_s."""
    return (d_joint - (1 - phat_s) * d_not_s - d_bern) / phat_s


def printed_A25(phat_s, d_joint):
    """(A25): the bound D_1(P^||P) / P^_s."""
    return d_joint / phat_s


# ---------------------------------------------------------------------------------------------
# instances
# ---------------------------------------------------------------------------------------------


def _pair(rng, k):
    """A random P^ (|S| x |U| table, full support), a random P and a row s; every 4th P is close to P^."""
    a1, a2 = rng.choice((2, 3)), rng.choice((2, 3, 4))
    phat = rand_table(rng, a1, a2)
    p = rand_table(rng, a1, a2)
    if k % 4 == 3:   # near P^: the boundary case of small divergences
        t = Fraction(1, rng.randint(50, 5000))
        p = tuple(tuple((1 - t) * x + t * y for x, y in zip(r, q, strict=True)) for r, q in zip(phat, p, strict=True))
    return phat, p, rng.randrange(a1)


def _blocks(table, s):
    flat = [mp(v) for r in table for v in r]
    row = [mp(v) for v in table[s]]
    rest = [mp(v) for i, r in enumerate(table) if i != s for v in r]
    return flat, row, rest


def _power_sum(ph, p, a):
    return mpmath.fsum(x**a * y ** (1 - a) for x, y in zip(ph, p, strict=True) if x != 0)


def _normal(v):
    t = mpmath.fsum(v)
    return [x / t for x in v]


# --- certificates (issue 23): the steps at the sampled exact instances, in the checker's language ------------------

def _xblocks(table, s):
    """(flat, row s, the other rows flat) of an exact table."""
    return ([v for r in table for v in r], list(table[s]), [v for i, r in enumerate(table) if i != s for v in r])


def _xnormal(v):
    t = sum(v)
    return [x / t for x in v]


def _power_sum_expr(ph, p, a) -> list:
    """sum_{P^_x > 0} P^_x^a P_x^(1-a) (exact vectors, exact a)."""
    return ["+", 0, *(["*", ["pow", x, a], ["pow", y, 1 - a]] for x, y in zip(ph, p, strict=True) if x != 0)]


def _steps_evidence(name: str, n_points: int, ties: list, strict: list, what: str) -> dict:
    """certificate_covers and the certificates of a step claim (instances_rldp.steps_certificates)."""
    from rldp_verify.certificates import instances_rldp as inst

    covers = (f"of the {n_points} sampled points: the first {min(len(ties), inst.CAP)} of {len(ties)} equalities "
              f"within 1e-30 (not the equalities) and the first {min(len(strict), inst.CAP)} of {len(strict)} strict "
              f"inequalities ({what}), the printed steps called on the exact data and the definitions written out, "
              "each re-derived by the checker in arb; ties of an inequality (B = D exactly) are not listed; not the "
              "steps for every instance")
    from rldp_verify.certificates.partial import exact_ties_evidence

    return exact_ties_evidence(covers, inst.steps_certificates, name, ties, strict)


# ---------------------------------------------------------------------------------------------
# claims
# ---------------------------------------------------------------------------------------------


@claim(
    id="rldp.steps.a1.a1-a4-decomposition",
    paper=PAPER,
    source="App. A.1, proof of Lemma A1, eqs. (A1)-(A4) (and (A30) of App. A.2)",
    statement="(A1) D_alpha(P^||P) <= B iff sum_x P^_x^a P_x^(1-a) >= C = e^{B(alpha-1)} (alpha < 1; <= for "
              "alpha > 1, (A30)); (A2) the s-block of that sum is P^_s^a P_s^(1-a) sum_u P^_{u|s}^a P_{u|s}^(1-a); "
              "(A3)-(A4) the other blocks are (1-P^_s)^a (1-P_s)^(1-a) times the power sum of the conditionals "
              "given 'not s'.",
    hypotheses=("alpha in (0, 1) u (1, inf)", "P^, P of full support"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="The conversion lost the relation signs; (A1) is read with '>=' for alpha < 1 (as the proof's "
            "alpha < 1 case needs) and (A30) with '<=' for alpha > 1.",
)
def check_a1_a4(ctx):
    rng = ctx.rng("steps.a1.a1-a4")
    t = Tally(ctx.dps)
    cases = []   # exact (alpha, P^, P, s, r1, r2) for the certificates (issue 23)
    with working_precision(ctx.dps):
        for k in range(60):
            alpha = ORDERS[k % len(ORDERS)]
            a = mp(alpha)
            phat, p, s = _pair(rng, k)
            fph, rph, nph = _blocks(phat, s)
            fp, rp, np_ = _blocks(p, s)
            total = _power_sum(fph, fp, a)
            D = renyi_divergence(fph, fp, alpha, dps=ctx.dps)
            # B below, at and above D(P^||P): the equivalence must hold on both sides and at the boundary
            r1, r2 = rand_fraction(rng, 0, 1), rand_fraction(rng, 0, 1)
            cases.append((alpha, phat, p, s, r1, r2))
            for B in (D * mp(r1), D * (1 + mp(r2))):
                C, rel = printed_A1(alpha, B)
                holds = total >= C if rel == ">=" else total <= C
                t.truth("(A1)", holds == (D <= B), {"alpha": alpha, "B": B, "s": s},
                        in_F=D <= B, power_sum=total, C=C, relation=rel)
            t.equal("(A1) boundary", printed_A1(alpha, D)[0], total, {"alpha": alpha, "B": D, "s": s})
            phs, ps = mpmath.fsum(rph), mpmath.fsum(rp)
            inner = _power_sum(_normal(rph), _normal(rp), a)
            inner_ns = _power_sum(_normal(nph), _normal(np_), a)
            pt = {"alpha": alpha, "s": s, "P^": [str(v) for v in fph[:4]]}
            t.equal("(A2)", printed_A2(a, phs, ps, inner), _power_sum(rph, rp, a), pt)
            t.equal("(A3)-(A4)", printed_A4(a, phs, ps, inner_ns), _power_sum(nph, np_, a), pt)
            t.equal("(A2)+(A4)", printed_A2(a, phs, ps, inner) + printed_A4(a, phs, ps, inner_ns), total, pt)
            t.points += 1
    return t.outcome("(A1)-(A4)", statement_claims=LEMMA_A1,
                     **(_guarded(_a1_certificates, cases) if t.failure is None else {}))


def _a1_certificates(cases) -> dict:
    """(A1) on both sides of the boundary (B = r1 D outside F, B = (1 + r2) D inside: the power sum strictly on the
    side of C = e^{B(alpha-1)} that printed_A1's relation states), (A1) at B = D, (A2), (A3)-(A4) and their sum within
    1e-30 (the printed steps called on Formula numbers)."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.series import Formula

    ties, strict = [], []
    for alpha, phat, p, s, r1, r2 in cases:
        (fph, rph, nph), (fp, rp, np_) = _xblocks(phat, s), _xblocks(p, s)
        D, total = renyi_expr(fph, fp, alpha), _power_sum_expr(fph, fp, alpha)
        ge = printed_A1(alpha, 0)[1] == ">="
        for B, in_F in ((["*", D, r1], False), (["*", D, 1 + r2], True)):
            C = ["exp", ["*", B, alpha - 1]]
            strict.append(["-", total, C] if ge == in_F else ["-", C, total])
        ties.append(["-", ["exp", ["*", D, alpha - 1]], total])
        phs, ps = Formula.number(sum(rph)), Formula.number(sum(rp))
        a2 = printed_A2(alpha, phs, ps, Formula(_power_sum_expr(_xnormal(rph), _xnormal(rp), alpha)))
        a4 = printed_A4(alpha, phs, ps, Formula(_power_sum_expr(_xnormal(nph), _xnormal(np_), alpha)))
        ties += [["-", a2.node, _power_sum_expr(rph, rp, alpha)], ["-", a4.node, _power_sum_expr(nph, np_, alpha)],
                 ["-", (a2 + a4).node, total]]
    return _steps_evidence("rldp.steps.a1.a1-a4-decomposition", len(cases), ties, strict,
                           "(A1) on both sides of B = D")


@claim(
    id="rldp.steps.a1.a5-a6-direction",
    paper=PAPER,
    source="App. A.1, proof of Lemma A1, eqs. (A5)-(A6) ('As such, we have', 'Applying this to (A4)')",
    statement="(A5) the power sum of the conditionals given 'not s' is e^{(alpha-1)D_alpha} <= 1 for alpha < 1 "
              "(>= 1 for alpha > 1), so (A6) P^_s^a P_s^(1-a) sum_u P^_{u|s}^a P_{u|s}^(1-a) >= C - (1-P^_s)^a "
              "(1-P_s)^(1-a) for every P in F (<= for alpha > 1).",
    hypotheses=("alpha != 1", "P in F = {D_alpha(P^||P) <= B}"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="(A5) prints '= e^{(alpha-1)D} 1' with the relation lost; '<= 1' for alpha < 1 is what (A6) needs.",
)
def check_a5_a6(ctx):
    rng = ctx.rng("steps.a1.a5-a6")
    t = Tally(ctx.dps)
    cases = []   # exact (alpha, P^, P, s, r) for the certificates (issue 23)
    with working_precision(ctx.dps):
        for k in range(60):
            alpha = ORDERS[k % len(ORDERS)]
            a = mp(alpha)
            phat, p, s = _pair(rng, k)
            fph, rph, nph = _blocks(phat, s)
            fp, rp, np_ = _blocks(p, s)
            qn, pn = _normal(nph), _normal(np_)
            inner_ns = _power_sum(qn, pn, a)
            pt = {"alpha": alpha, "s": s, "P^": [str(v) for v in fph[:4]], "P": [str(v) for v in fp[:4]]}
            t.equal("(A5) identity", inner_ns, mpmath.exp((a - 1) * renyi_divergence(qn, pn, alpha, dps=ctx.dps)), pt)
            rel = printed_A5(alpha)
            if rel == "<=":
                t.leq("(A5)", inner_ns, 1, pt)
            else:
                t.leq("(A5)", 1, inner_ns, pt)
            # (A6) at P in F: the smallest radius that contains P, and a larger one
            D = renyi_divergence(fph, fp, alpha, dps=ctx.dps)
            r = rand_fraction(rng, 0, 1) if k % 2 else None
            B = D * (1 + mp(r)) if r is not None else D
            cases.append((alpha, phat, p, s, r))
            C = mpmath.exp(B * (a - 1))
            phs, ps = mpmath.fsum(rph), mpmath.fsum(rp)
            lhs = _power_sum(rph, rp, a)
            bound = C - printed_A4(a, phs, ps, 1)
            if alpha < 1:
                t.leq("(A6)", bound, lhs, {**pt, "B": B})
            else:
                t.leq("(A6)", lhs, bound, {**pt, "B": B})
            t.points += 1
    return t.outcome("(A5)-(A6)", statement_claims=LEMMA_A1,
                     **(_guarded(_a5_certificates, cases) if t.failure is None else {}))


def _a5_certificates(cases) -> dict:
    """(A5)'s identity within 1e-30; (A5)'s relation and (A6) strictly, on the side printed_A5 states (B = D or
    (1 + r) D, C = e^{B(alpha-1)}, the bound C - printed_A4(..., 1))."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.series import Formula

    ties, strict = [], []
    for alpha, phat, p, s, r in cases:
        (fph, rph, nph), (fp, rp, np_) = _xblocks(phat, s), _xblocks(p, s)
        qn, pn = _xnormal(nph), _xnormal(np_)
        inner_ns = _power_sum_expr(qn, pn, alpha)
        ties.append(["-", inner_ns, ["exp", ["*", alpha - 1, renyi_expr(qn, pn, alpha)]]])
        le = printed_A5(alpha) == "<="
        strict.append(["-", 1, inner_ns] if le else ["-", inner_ns, 1])
        D = renyi_expr(fph, fp, alpha)
        B = D if r is None else ["*", D, 1 + r]
        bound = ["-", ["exp", ["*", B, alpha - 1]],
                 printed_A4(alpha, Formula.number(sum(rph)), Formula.number(sum(rp)), 1).node]
        lhs = _power_sum_expr(rph, rp, alpha)
        strict.append(["-", lhs, bound] if alpha < 1 else ["-", bound, lhs])
    return _steps_evidence("rldp.steps.a1.a5-a6-direction", len(cases), ties, strict, "(A5)'s relation and (A6)")


@claim(
    id="rldp.steps.a1.a8-derivative",
    paper=PAPER,
    source="App. A.1, proof of Lemma A1, eq. (A8) and 'Setting this equal to 0, we find P_s = ...'",
    statement="The derivative of the RHS of (A7) with respect to P_s is (A8), and it vanishes at "
              "P_s = 1 - C^{-1/alpha}(1 - P^_s).",
    hypotheses=("alpha != 1", "0 < P^_s < 1", "0 < P_s < 1"),
    method=(Method.SYMBOLIC, Method.HIGH_PRECISION),
    reading="(A8) read as (alpha-1) P_s^(alpha-2) (1-P^_s)^alpha / P^_s^alpha (C/(1-P^_s)^alpha - 1/(1-P_s)^alpha); "
            "the stationary point with the minus signs restored.",
)
def check_a8(ctx):
    x, C, ph = sp.symbols("P_s C Phat_s", positive=True)
    t = Tally(ctx.dps)
    rng = ctx.rng("steps.a1.a8")
    symbolic, identities = {}, {}   # identities: (A8) per order as a symbolic-identity certificate (issue 23)
    for alpha in (Fraction(1, 2), Fraction(3, 2), Fraction(3)):
        # sympy differentiates the RHS of (A7) exactly; the difference with (A8) is evaluated at rational points
        a = sp.Rational(alpha.numerator, alpha.denominator)
        identities[f"(A8) = d/dP_s RHS(A7), alpha = {alpha}"] = (sp.diff(printed_A7_rhs(a, C, ph, x), x),
                                                                 printed_A8(a, C, ph, x))
        diff = sp.diff(printed_A7_rhs(a, C, ph, x), x) - printed_A8(a, C, ph, x)
        worst = mpmath.mpf(0)
        for _ in range(4):
            sub = {x: sp.Rational(rng.randint(1, 98), 99), C: sp.Rational(rng.randint(1, 300), 100),
                   ph: sp.Rational(rng.randint(1, 98), 99)}
            val = mpmath.mpf(str(sp.N(diff.subs(sub), ctx.dps)))
            worst = max(worst, abs(val))
            t.truth("(A8) symbolic", abs(val) <= t.tol, {"alpha": str(alpha), **{str(k): str(v) for k, v in sub.items()}},
                    difference=val)
        symbolic[str(alpha)] = nstr(worst, 3)
    with working_precision(ctx.dps):
        for k in range(40):
            alpha = ORDERS[k % len(ORDERS)]
            a = mp(alpha)
            phs = mp(rand_fraction(rng, 0, 1))
            Cv = mpmath.exp(mp(rand_fraction(rng, 0, 2)) * (a - 1))
            xv = mp(rand_fraction(rng, 0, 1)) if k % 3 else mp(Fraction(1, 10**6))
            pt = {"alpha": alpha, "P^_s": phs, "C": Cv, "P_s": xv}
            f = lambda z: printed_A7_rhs(a, Cv, phs, z)   # noqa: E731
            t.equal("(A8)", printed_A8(a, Cv, phs, xv), mpmath.diff(f, xv), pt)
            xs = printed_stationary(a, Cv, phs)
            if 0 < xs < 1:
                t.leq("stationary", abs(printed_A8(a, Cv, phs, xs)), mpmath.mpf(10) ** (-(ctx.dps - 15)), pt)
            t.points += 1
    from rldp_verify.certificates.identity import identity_evidence

    return t.outcome("(A8) and its zero", statement_claims=LEMMA_A1, symbolic_difference=symbolic,
                     **identity_evidence("rldp.steps.a1.a8-derivative", identities,
                                         uncovered="the 40 high-precision points at other orders (mpmath.diff) and the "
                                                   "zero at the stationary point (a numeric evaluation)"))


@claim(
    id="rldp.steps.a1.a7-a10-extremum",
    paper=PAPER,
    source="App. A.1, proof of Lemma A1, eqs. (A7), (A9), (A10) and 'To find the bound ... we have to minimize "
           "the RHS'",
    statement="(A7) holds for P in F; the stationary point P_s = 1 - C^{-1/alpha}(1-P^_s) minimises the RHS of (A7) "
              "over P_s in (0, 1) for alpha < 1 (maximises it for alpha > 1, the analogous case), with value (A9); "
              "hence (A10) D_alpha(P^_{U|s}||P_{U|s}) <= alpha/(alpha-1) log((e^{(alpha-1)B/alpha} - (1-P^_s))/P^_s).",
    hypotheses=("alpha != 1", "0 < P^_s < 1", "e^{(alpha-1)B/alpha} > 1 - P^_s (where (23) is defined)"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="For alpha > 1 the inequalities of (A6)-(A7) reverse and 'minimise' becomes 'maximise' (the proof's "
            "'analogously'). Where e^{(alpha-1)B/alpha} <= 1 - P^_s the stationary point leaves (0, 1) and (23) is "
            "undefined: that case is rldp.thm1.alpha-lt-1-defined's missing hypothesis, not checked here.",
)
def check_a7_a10(ctx):
    rng = ctx.rng("steps.a1.a7-a10")
    t = Tally(ctx.dps)
    cases = []   # exact (alpha, P^, P, s, r, grid or None) for the certificates (issue 23)
    skipped = 0
    with working_precision(ctx.dps):
        for k in range(45):
            alpha = ORDERS[k % len(ORDERS)]
            a = mp(alpha)
            phat, p, s = _pair(rng, k)
            fph, rph, _ = _blocks(phat, s)
            fp, rp, _ = _blocks(p, s)
            D = renyi_divergence(fph, fp, alpha, dps=ctx.dps)
            r = rand_fraction(rng, 0, 1) if k % 2 else None
            B = D * (1 + mp(r)) if r is not None else D
            C = mpmath.exp(B * (a - 1))
            phs, ps = mpmath.fsum(rph), mpmath.fsum(rp)
            pt = {"alpha": alpha, "s": s, "B": B, "P^_s": phs, "P_s": ps}
            inner = _power_sum(_normal(rph), _normal(rp), a)
            rhs7 = printed_A7_rhs(a, C, phs, ps)
            t.leq("(A7)", rhs7, inner, pt) if alpha < 1 else t.leq("(A7)", inner, rhs7, pt)
            xs = printed_stationary(a, C, phs)
            if not (0 < xs < 1) or mpmath.exp((a - 1) * B / a) <= 1 - phs:
                skipped += 1
                cases.append((alpha, phat, p, s, r, None))
                continue
            best = printed_A7_rhs(a, C, phs, xs)
            grid = [mpmath.mpf(j) / 64 for j in range(1, 64)] + [mpmath.mpf(10) ** -8, 1 - mpmath.mpf(10) ** -8,
                                                                  xs * (1 - mpmath.mpf(10) ** -6)]
            for z in grid:
                val = printed_A7_rhs(a, C, phs, z)
                t.leq("extremum", best, val, {**pt, "x": z}) if alpha < 1 else t.leq("extremum", val, best, {**pt, "x": z})
            t.equal("(A9)", printed_A9(a, C, phs), best, pt)
            dcond = renyi_divergence(_normal(rph), _normal(rp), alpha, dps=ctx.dps)
            t.leq("(A10)", dcond, printed_A10(a, B, phs), pt)
            t.points += 1
            cases.append((alpha, phat, p, s, r, grid))
    return t.outcome("(A7), (A9), (A10)", statement_claims=LEMMA_A1, skipped_outside_domain=skipped,
                     **(_guarded(_a7_certificates, cases) if t.failure is None else {}))


def _a7_certificates(cases) -> dict:
    """Per point (C = e^{B(alpha-1)}, B = D or (1 + r) D bound by ``let``): (A7) strictly on its side; where the
    stationary point is inside, the extremum over the check's grid (min over the grid of the signed difference
    with the value at printed_stationary, > 0), (A9) within 1e-30 and (A10) strictly (B_s of (A10) written out)."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.series import Formula

    ties, strict = [], []
    for alpha, phat, p, s, r, grid in cases:
        (fph, rph, _), (fp, rp, _) = _xblocks(phat, s), _xblocks(p, s)
        D = renyi_expr(fph, fp, alpha)
        B = D if r is None else ["*", D, 1 + r]
        bind = [["B", B], ["C", ["exp", ["*", "$B", alpha - 1]]]]
        C, phs, ps = Formula("$C"), Formula.number(sum(rph)), Formula.number(sum(rp))
        sign = 1 if alpha < 1 else -1   # alpha < 1: the RHS of (A7) is below and minimised; alpha > 1: reversed
        inner = _power_sum_expr(_xnormal(rph), _xnormal(rp), alpha)
        strict.append(["let", bind, ["*", sign, ["-", inner, printed_A7_rhs(alpha, C, phs, ps).node]]])
        if grid is None:
            continue
        best = printed_A7_rhs(alpha, C, phs, printed_stationary(alpha, C, phs))
        # the grid of the check; its last point x_s (1 - 10^-6) with the factor exact
        zs = [Formula.number(z) for z in grid[:-1]] + [printed_stationary(alpha, C, phs) * Fraction(999999, 10**6)]
        strict.append(["let", bind, ["min", *(["*", sign, (printed_A7_rhs(alpha, C, phs, z) - best).node] for z in zs)]])
        ties.append(["let", bind, (printed_A9(alpha, C, phs) - best).node])
        Bs = ["*", alpha / (alpha - 1), ["log", ["/", ["-", ["exp", ["/", ["*", alpha - 1, "$B"], alpha]], 1 - sum(rph)],
                                                 sum(rph)]]]
        strict.append(["let", bind, ["-", Bs, renyi_expr(_xnormal(rph), _xnormal(rp), alpha)]])
    return _steps_evidence("rldp.steps.a1.a7-a10-extremum", len(cases), ties, strict,
                           "(A7), the extremum over the check's 66 grid points, (A10)")


@claim(
    id="rldp.steps.a1.a13-a20-lift",
    paper=PAPER,
    source="App. A.1, proof of Lemma A2, eqs. (A13)-(A20)",
    statement="(A13) = (A14) with gamma = 1 - C^{-1/alpha}(1-P^_s); (A15) sum_u P^_{u|s}^a R_u^(1-a) >= C gamma^a / "
              "P^_s^a (alpha < 1; <= for alpha > 1) when D_alpha(P^_{U|s}||R) <= B_s; the lift (A16) is a "
              "distribution with P_{U|s} = R; (A17) = (A18); (A19) bounds (A18) by gamma C + C^{(a-1)/a}(1-P^_s); "
              "(A20) that equals C.",
    hypotheses=("alpha != 1", "0 < P^_s < 1", "R with D_alpha(P^_{U|s}||R) <= B_s"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="Minus signs restored as in rldp.thm1.stationary-point's reading (the lift uses C^{-1/alpha}).",
)
def check_a13_a20(ctx):
    rng = ctx.rng("steps.a1.a13-a20")
    t = Tally(ctx.dps)
    cases = []   # exact (alpha, P^, P, s, r) for the certificates (issue 23)
    with working_precision(ctx.dps):
        for k in range(50):
            alpha = ORDERS[k % len(ORDERS)]
            a = mp(alpha)
            phat, p, s = _pair(rng, k)
            fph, rph, _ = _blocks(phat, s)
            R = _normal(_blocks(p, s)[1])
            phs = mpmath.fsum(rph)
            cond = _normal(rph)
            Dr = renyi_divergence(cond, R, alpha, dps=ctx.dps)
            r = rand_fraction(rng, 0, 1) if k % 2 else None
            Bs = Dr * (1 + mp(r)) if r is not None else Dr      # R on the boundary or inside
            cases.append((alpha, phat, p, s, r))
            B = a / (a - 1) * mpmath.log(phs * mpmath.exp((a - 1) * Bs / a) + 1 - phs)   # the B whose B_s is Bs
            C = mpmath.exp(B * (a - 1))
            gamma = 1 - C ** (-1 / a) * (1 - phs)
            pt = {"alpha": alpha, "s": s, "B": B, "P^_s": phs}
            t.equal("(A13)=(A14)", printed_A14(a, C, phs), printed_A10(a, B, phs), pt)
            inner = _power_sum(cond, R, a)
            bound15 = printed_A15(a, C, gamma, phs)
            t.leq("(A15)", bound15, inner, pt) if alpha < 1 else t.leq("(A15)", inner, bound15, pt)
            P = printed_A16(a, C, gamma, R, s, phat)
            t.equal("(A16) sums to 1", mpmath.fsum(v for r in P for v in r), 1, pt)
            t.truth("(A16) non-negative", all(v >= 0 for r in P for v in r), pt)
            t.equal("(A16) P_{U|s} = R", max(abs(x - y) for x, y in zip(_normal(P[s]), R, strict=True)), 0, pt)
            joint = _power_sum(fph, [v for r in P for v in r], a)
            v18 = printed_A18(a, C, gamma, phs, inner)
            t.equal("(A17)-(A18)", v18, joint, pt)
            v19 = printed_A19(a, C, gamma, phs)
            t.leq("(A19)", v19, v18, pt) if alpha < 1 else t.leq("(A19)", v18, v19, pt)
            t.equal("(A20)", v19, C, pt)
            t.truth("P in F", renyi_divergence(fph, [v for r in P for v in r], alpha, dps=ctx.dps) <= B * (1 + t.tol),
                    pt)
            t.points += 1
    return t.outcome("(A13)-(A20)", statement_claims=LEMMA_A2,
                     **(_guarded(_a13_certificates, cases) if t.failure is None else {}))


def _a13_certificates(cases) -> dict:
    """Per point, with B_s = D_alpha(P^_(U|s)||R) (R on the boundary) or (1 + r) times it, B the radius whose B_s it
    is, C = e^{B(alpha-1)} and gamma = 1 - C^{-1/alpha}(1 - P^_s) bound by ``let``: (A13) = (A14) (both written as
    printed), the lift (A16) sums to 1, (A17) = (A18), (A20) (A19) = C within 1e-30; (A15) and (A19) strictly on
    their side where R is inside (they are equalities on the boundary, then listed within 1e-30)."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.series import Formula

    ties, strict = [], []
    for alpha, phat, p, s, r in cases:
        (fph, rph, _), R = _xblocks(phat, s), _xnormal(list(p[s]))
        ph_s, cond = sum(rph), _xnormal(rph)
        Dr = renyi_expr(cond, R, alpha)
        Bs = Dr if r is None else ["*", Dr, 1 + r]
        e = (alpha - 1) / alpha
        bind = [["Bs", Bs], ["B", ["*", 1 / e, ["log", ["+", ["*", ph_s, ["exp", ["*", e, "$Bs"]]], 1 - ph_s]]]],
                ["C", ["exp", ["*", "$B", alpha - 1]]], ["g", ["-", 1, ["*", ["pow", "$C", -1 / alpha], 1 - ph_s]]]]
        C, g, phs = Formula("$C"), Formula("$g"), Formula.number(ph_s)

        def let(x):
            return ["let", bind, x.node if isinstance(x, Formula) else x]   # noqa: B023 - used at once
        a14 = ["*", 1 / e, ["log", ["/", ["*", ["pow", "$C", 1 / alpha], "$g"], ph_s]]]
        a10 = ["*", 1 / e, ["log", ["/", ["-", ["exp", ["*", e, "$B"]], 1 - ph_s], ph_s]]]
        ties.append(let(["-", a14, a10]))
        lift = [["*", "$g", x] if i == s else ["*", ["pow", "$C", -1 / alpha], v]
                for i, row in enumerate(phat) for x, v in zip(R, row, strict=True)]
        ties.append(let(["-", ["+", *lift], 1]))
        inner = Formula(_power_sum_expr(cond, R, alpha))
        v18, v19 = printed_A18(alpha, C, g, phs, inner), printed_A19(alpha, C, g, phs)
        ties.append(let(["-", v18.node, _power_sum_expr(fph, lift, alpha)]))
        ties.append(let((v19 - C).node))
        sign = 1 if alpha < 1 else -1
        for low, high in ((printed_A15(alpha, C, g, phs), inner), (v19, v18)):
            (ties if r is None else strict).append(let(["*", sign, (high - low).node]))
    return _steps_evidence("rldp.steps.a1.a13-a20-lift", len(cases), ties, strict,
                           "(A15) and (A19) where R is inside the B_s-ball")


@claim(
    id="rldp.steps.a1.a24-a26-kl-bound",
    paper=PAPER,
    source="App. A.1, proof of Lemma A3, eqs. (A24)-(A26) ('Since D_1 is non-negative and D_1(P^||P) <= B')",
    statement="(A24) D_1(P^_{U|s}||P_{U|s}) = (D_1(P^||P) - (1-P^_s) D_1(P^_{|not s}||P_{|not s}) - "
              "D_1(V_{P^_s}||V_{P_s}))/P^_s; (A25) <= D_1(P^||P)/P^_s; (A26) <= B/P^_s for P in F.",
    hypotheses=("alpha = 1", "0 < P^_s < 1"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_a24_a26(ctx):
    rng = ctx.rng("steps.a1.a24-a26")
    t = Tally(ctx.dps)
    cases = []   # exact (P^, P, s, r) for the certificates (issue 23)
    with working_precision(ctx.dps):
        for k in range(60):
            phat, p, s = _pair(rng, k)
            fph, rph, nph = _blocks(phat, s)
            fp, rp, np_ = _blocks(p, s)
            phs, ps = mpmath.fsum(rph), mpmath.fsum(rp)
            dj = kl_divergence(fph, fp, dps=ctx.dps)
            dns = kl_divergence(_normal(nph), _normal(np_), dps=ctx.dps)
            db = kl_divergence([phs, 1 - phs], [ps, 1 - ps], dps=ctx.dps)
            dc = kl_divergence(_normal(rph), _normal(rp), dps=ctx.dps)
            r = rand_fraction(rng, 0, 1) if k % 2 else None
            B = dj * (1 + mp(r)) if r is not None else dj
            pt = {"s": s, "P^_s": phs, "P_s": ps, "B": B}
            t.equal("(A24)", printed_A24(phs, dj, dns, db), dc, pt)
            t.leq("(A25)", dc, printed_A25(phs, dj), pt)
            t.leq("(A26)", printed_A25(phs, dj), B / phs, pt)
            t.points += 1
            cases.append((phat, p, s, r))
    return t.outcome("(A24)-(A26)", statement_claims=("rldp.thm1.kl-chain-rule", "rldp.thm1.projection-in-ball"),
                     **(_guarded(_a24_certificates, cases) if t.failure is None else {}))


def _a24_certificates(cases) -> dict:
    """(A24) within 1e-30; (A25) D_1(P^||P)/P^_s - D_1(P^_(U|s)||P_(U|s)) > 0; (A26) B/P^_s - (A25) > 0 where
    B = D_1(P^||P) (1 + r) (the ties B = D_1 are not listed)."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.series import Formula

    ties, strict = [], []
    for phat, p, s, r in cases:
        (fph, rph, nph), (fp, rp, np_) = _xblocks(phat, s), _xblocks(p, s)
        phs, ps = sum(rph), sum(rp)
        dj, dc = Formula(renyi_expr(fph, fp, 1)), renyi_expr(_xnormal(rph), _xnormal(rp), 1)
        dns = Formula(renyi_expr(_xnormal(nph), _xnormal(np_), 1))
        db = Formula(renyi_expr([phs, 1 - phs], [ps, 1 - ps], 1))
        ties.append(["-", printed_A24(phs, dj, dns, db).node, dc])
        strict.append(["-", printed_A25(phs, dj).node, dc])
        if r is not None:
            strict.append(["-", (dj * (1 + r) / phs).node, printed_A25(phs, dj).node])
    return _steps_evidence("rldp.steps.a1.a24-a26-kl-bound", len(cases), ties, strict, "(A25), and (A26) where B > D_1")
