"""Proof steps of Appendix A.3 (proof of Lemma 1 and Proposition 2: Lemma A7, eqs. (A51)-(A58)) of
000_aca93ed29ea857ee.txt, alpha = 2 and B~ = e^B - 1.

Each ``printed_*`` function is a display as the paper writes it (the conversion lost the radicals: our reading
restores them, e.g. (A58) = sqrt(B~), which is Proposition 2 part 3's sqrt(e^{B_s} - 1)); wrong variants are the
mutants ``steps.a3.*`` of ``mutation/steps_catalogue.py``.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import pairwise

import mpmath

from rldp_verify.certificates.claims import built
from rldp_verify.certificates.instances_rldp import guarded
from rldp_verify.certificates.series import Formula, root
from rldp_verify.claims import Method, claim
from rldp_verify.core.numbers import working_precision

from ._steps import PAPER, Tally, mp, rand_fraction

LEMMA_A7 = ("rldp.lemma-a7.xi-formula", "rldp.lemma-a7.rho-opt", "rldp.prop2.part3")


def F31(a, C, rho, xi):
    """(A31) (the definition the steps start from)."""
    return rho * xi ** (1 - a) + (1 - rho) * ((1 - rho * xi) / (1 - rho)) ** (1 - a) - C


def xi_plus(Bt, rho):
    """xi+ of (A51) (checked against F's zeros by rldp.lemma-a7.xi-formula and again below)."""
    return (Bt + 2 * rho + mpmath.sqrt(Bt**2 + 4 * rho * Bt - 4 * Bt * rho**2)) / (2 * rho * (Bt + 1))


def printed_A52(Bt, rho, xi):
    """(A52): F(rho, xi) = rho/xi + (1-rho)^2/(1 - rho xi) - B~ - 1 (alpha = 2, C = B~ + 1)."""
    return rho / xi + (1 - rho) ** 2 / (1 - rho * xi) - Bt - 1


def printed_A53(Bt, rho):
    """(A53): 2 rho (xi+(rho) - 1) = (B~ - 2 B~ rho + sqrt(B~^2 + 4 B~ rho - 4 B~ rho^2)) / (B~ + 1)."""
    return (Bt - 2 * Bt * rho + mpmath.sqrt(Bt**2 + 4 * Bt * rho - 4 * Bt * rho**2)) / (Bt + 1)


def printed_A54(Bt, rho):
    """(A54): the derivative of (A53) in rho, -2B~/(B~+1) + (2B~ - 4B~ rho)/((B~+1) sqrt(B~^2 + 4B~ rho - 4B~ rho^2))."""
    return -2 * Bt / (Bt + 1) + (2 * Bt - 4 * Bt * rho) / ((Bt + 1) * mpmath.sqrt(Bt**2 + 4 * Bt * rho - 4 * Bt * rho**2))


def printed_rho_opt(Bt):
    """'which has a single solution rho_opt = (1 - sqrt(B~))/2' (radical restored)."""
    return (1 - mpmath.sqrt(Bt)) / 2


def printed_A57(Bt):
    """(A57): (A53) written out at rho_opt = (1 - sqrt(B~))/2."""
    r = (1 - mpmath.sqrt(Bt)) / 2
    return (Bt - 2 * Bt * r + mpmath.sqrt(Bt**2 + 4 * Bt * r - 4 * Bt * r**2)) / (Bt + 1)


def printed_A58(Bt):
    """(A58): the value sqrt(B~) (the conversion prints 'B~': the radical is lost)."""
    return mpmath.sqrt(Bt)


@claim(
    id="rldp.steps.a3.a52-a53",
    paper=PAPER,
    source="App. A.3, proof of Lemma A7, eqs. (A52)-(A53)",
    statement="(A52) is (A31) at alpha = 2, C = B~ + 1; xi+ of (A51) is its zero above 1; and (A53): 2 rho (xi+(rho) - 1) = "
              "(B~ - 2B~ rho + sqrt(B~^2 + 4B~ rho - 4B~ rho^2))/(B~ + 1).",
    hypotheses=("alpha = 2", "B~ > 0", "0 < rho < 1"),
    method=(Method.EXACT, Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_a52_a53(ctx):
    rng = ctx.rng("steps.a3.a52-a53")
    t, points = Tally(ctx.dps), []
    with working_precision(ctx.dps):
        for k in range(60):
            Bt = rand_fraction(rng, 0, 4) if k % 6 else Fraction(1, 10**6)
            rho = rand_fraction(rng, 0, 1)
            xi = rand_fraction(rng, 0, 1 / rho)
            pt = {"B~": Bt, "rho": rho, "xi": xi}
            # exact: (A52) against (A31) in rationals
            exact = printed_A52(Bt, rho, xi) == F31(2, Bt + 1, rho, xi)
            t.truth("(A52) exact", exact, pt, printed=printed_A52(Bt, rho, xi), recomputed=F31(2, Bt + 1, rho, xi))
            B, r = mp(Bt), mp(rho)
            xp = xi_plus(B, r)
            t.equal("xi+ zero of (A52)", printed_A52(B, r, xp) + B + 1, B + 1, pt)
            t.equal("(A53)", printed_A53(B, r), 2 * r * (xp - 1), pt)
            t.points += 1
            points.append((Bt, rho, xi))
    if t.failure is not None:
        return t.outcome("(A52)-(A53)", statement_claims=LEMMA_A7)
    return t.outcome("(A52)-(A53)", statement_claims=LEMMA_A7,
                     certificate_covers=f"(A52) = (A31) at alpha = 2, C = B~ + 1 exactly at all {len(points)} rational "
                                        "points (the printed formula and the definition, each evaluated by the checker "
                                        "in exact rationals); not xi+'s zero nor (A53) (equalities with a square root, "
                                        "which arb cannot decide and the exact mode cannot express)",
                     **built(_a52_certificate, points))


def _a52_certificate(points) -> dict:
    from rldp_verify.certificates import instances_rldp as inst
    from rldp_verify.certificates.series import numbers

    diffs = []
    for Bt, rho, xi in points:
        B, r, x = numbers(Bt, rho, xi)
        diffs.append((printed_A52(B, r, x) - F31(2, B + 1, r, x)).node)
    return inst.all_zero_certificate("rldp.steps.a3.a52-a53: (A52) - (A31) at alpha = 2, C = B~ + 1", diffs)


@claim(
    id="rldp.steps.a3.a54-derivative",
    paper=PAPER,
    source="App. A.3, proof of Lemma A7, eq. (A54) and 'which has a single solution rho_opt = (1 - sqrt(B~))/2'",
    statement="(A54) is the derivative of (A53) in rho, and for 0 < B~ < 1 its only zero in (0, 1) is rho_opt = "
              "(1 - sqrt(B~))/2.",
    hypotheses=("alpha = 2", "0 < B~ < 1"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
)
def check_a54(ctx):
    rng = ctx.rng("steps.a3.a54")
    cases = []   # B~ (exact) for the certificates (issue 23)
    t = Tally(ctx.dps, tol=mpmath.mpf(10) ** (-(ctx.dps // 2)))
    with working_precision(ctx.dps):
        for _k in range(40):
            B = mp(rand_fraction(rng, 0, 1))
            r = mp(rand_fraction(rng, 0, 1))
            cases.append(B)
            pt = {"B~": B, "rho": r}
            t.equal("(A54)", printed_A54(B, r), mpmath.diff(lambda z: printed_A53(B, z), r), pt)
            ro = printed_rho_opt(B)
            t.equal("rho_opt zero", printed_A54(B, ro), 0, {"B~": B})
            # the only zero: the sign of (A54) changes from + to - at rho_opt (grid on (0, 1))
            grid = sorted([mpmath.mpf(j) / 97 for j in range(1, 97)] + [ro / 2, ro * (1 - mpmath.mpf(10) ** -6),
                                                                       ro + (1 - ro) * mpmath.mpf(10) ** -6])
            signs = [(printed_A54(B, z) > 0) for z in grid]
            changes = sum(1 for u, v in pairwise(signs) if u != v)
            t.truth("single zero", changes == 1 and signs[0] and not signs[-1], {"B~": B}, sign_changes=changes)
            t.points += 1
    if t.failure is not None:
        return t.outcome("(A54) and rho_opt", statement_claims=LEMMA_A7)
    return t.outcome("(A54) and rho_opt", statement_claims=LEMMA_A7, **guarded(_a54_evidence, cases))


# --- certificates (issue 23): the printed displays (A53), (A54), rho_opt, (A57), (A58) and xi+ written out in the
# checker's language (the mpmath functions above, term by term, with sqrt as the checker's sqrt) -------------------

def _a53_e(B, r):
    return (B - 2 * B * r + root(B**2 + 4 * B * r - 4 * B * r**2)) / (B + 1)


def _a54_e(B, r):
    return -2 * B / (B + 1) + (2 * B - 4 * B * r) / ((B + 1) * root(B**2 + 4 * B * r - 4 * B * r**2))


def _rho_opt_e(B):
    return (1 - root(B)) / 2


def _xi_plus_e(B, rho):
    return (B + 2 * rho + root(B**2 + 4 * rho * B - 4 * B * rho**2)) / (2 * rho * (B + 1))


def _a54_evidence(cases) -> dict:
    """Per B~: (A54) = 0 at rho_opt within 1e-30, and (A54) > 0 at the grid points j/97 below rho_opt (and rho_opt/2,
    rho_opt (1 - 10^-6)), < 0 above it (and rho_opt + (1 - rho_opt) 10^-6): the single sign change."""
    from fractions import Fraction

    ties, strict = [], []
    for Bm in cases[:20]:   # the first 20 points (each with 99 grid evaluations): the claim's time stays ~2x
        B, ro = Formula("$B"), Formula("$ro")
        bind = [["B", Formula.number(Bm).node], ["ro", _rho_opt_e(B).node]]
        ro_m = (1 - mpmath.sqrt(Bm)) / 2
        ties.append(["let", bind, _a54_e(B, ro).node])
        below = [_a54_e(B, Formula.number(Fraction(j, 97))).node for j in range(1, 97) if mp(Fraction(j, 97)) < ro_m]
        above = [(-_a54_e(B, Formula.number(Fraction(j, 97)))).node for j in range(1, 97) if mp(Fraction(j, 97)) > ro_m]
        below += [_a54_e(B, ro / 2).node, _a54_e(B, ro * Fraction(999999, 10**6)).node]
        above.append((-_a54_e(B, ro + (1 - ro) * Fraction(1, 10**6))).node)
        strict += [["let", bind, ["min", *below]], ["let", bind, ["min", *above]]]
    return _steps_evidence("rldp.steps.a3.a54-derivative", len(cases), ties, strict,
                           "the sign of (A54) on the check's grid: > 0 below rho_opt, < 0 above; of the first 20 "
                           "points only",
                           "not (A54) as the derivative of (A53) (numerical differentiation), nor a zero between grid "
                           "points")


def _steps_evidence(name: str, n_points: int, ties: list, strict: list, what: str, gap: str) -> dict:
    """certificate_covers and the certificates of a step claim (instances_rldp.steps_certificates)."""
    from rldp_verify.certificates import instances_rldp as inst

    covers = (f"of the {n_points} sampled points: the first {min(len(ties), inst.CAP)} of {len(ties)} equalities "
              f"within 1e-30 (not the equalities) and the first {min(len(strict), inst.CAP)} of {len(strict)} strict "
              f"inequalities ({what}), the printed displays written out in the checker's language on the exact data, "
              f"each re-derived by the checker in arb; {gap}; not the steps for every instance")
    return {"certificate_covers": covers, **built(inst.steps_certificates, name, ties, strict)}


@claim(
    id="rldp.steps.a3.a56-a58",
    paper=PAPER,
    source="App. A.3, proof of Lemma A7 point 2, eqs. (A55)-(A58)",
    statement="(A56) 2 P^_{X1}(xi+(P^_{X1}) - 1) <= 2 rho_opt (xi+(rho_opt) - 1) for every rho = P^_{X1} in (0, 1); "
              "(A57) is (A53) at rho_opt; (A58) it equals sqrt(B~).",
    hypotheses=("alpha = 2", "0 < B~ < 1"),
    method=(Method.HIGH_PRECISION, Method.PROPERTY),
    reading="(A58) prints '= B~': the radical is lost in the conversion (Proposition 2 part 3 bounds rad_s by "
            "sqrt(e^{B_s} - 1)).",
)
def check_a56_a58(ctx):
    rng = ctx.rng("steps.a3.a56-a58")
    cases = []   # (B~, the rho of (A56)) for the certificates (issue 23)
    t = Tally(ctx.dps)
    with working_precision(ctx.dps):
        for k in range(40):
            B = mp(rand_fraction(rng, 0, 1)) if k % 8 else mpmath.mpf(10) ** -8
            rhos = []
            cases.append((B, rhos))
            ro = printed_rho_opt(B)
            top = 2 * ro * (xi_plus(B, ro) - 1)
            pt = {"B~": B}
            t.equal("(A57)", printed_A57(B), top, pt)
            t.equal("(A58)", printed_A58(B), printed_A57(B), pt)
            for r in [mp(rand_fraction(rng, 0, 1)) for _ in range(8)] + [mpmath.mpf(10) ** -9, 1 - mpmath.mpf(10) ** -9]:
                t.leq("(A56)", 2 * r * (xi_plus(B, r) - 1), top, {**pt, "rho": r})
                rhos.append(r)
            t.points += 1
    if t.failure is not None:
        return t.outcome("(A56)-(A58)", statement_claims=LEMMA_A7)
    return t.outcome("(A56)-(A58)", statement_claims=LEMMA_A7, **guarded(_a56_evidence, cases))


def _a56_evidence(cases) -> dict:
    """Per B~: (A57) = 2 rho_opt (xi+(rho_opt) - 1) and (A58) sqrt(B~) = (A57) within 1e-30; (A56) 2 rho_opt (xi+ - 1)
    - 2 rho (xi+(rho) - 1) > 0 at the check's rho (their min per B~)."""
    ties, strict = [], []
    for Bm, rhos in cases:
        B = Formula("$B")     # B~ and rho_opt bound once per point by let (the certificate stays small)
        bind = [["B", Formula.number(Bm).node], ["ro", _rho_opt_e(B).node]]
        ro = Formula("$ro")
        top = 2 * ro * (_xi_plus_e(B, ro) - 1)
        a57 = _a53_e(B, ro)
        ties += [["let", bind, (a57 - top).node], ["let", bind, (root(B) - a57).node]]
        strict.append(["let", bind, ["min", *((top - 2 * r * (_xi_plus_e(B, r) - 1)).node
                                             for r in map(Formula.number, rhos))]])
    return _steps_evidence("rldp.steps.a3.a56-a58", len(cases), ties, strict, "(A56) at the check's 10 rho per B~",
                           "not (A56) between the sampled rho")
