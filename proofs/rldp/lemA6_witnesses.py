"""Lemmas A5-A6 (App. A.2) of 000_aca93ed29ea857ee.txt by certified witnesses: t+-(rho) and rad of eq. (30).

For a Rényi ball {R : D_alpha(P^||R) <= B} on P_U and a subset U1 with rho = P^_{U1}, Lemma A6's
extremal points scale P^ by xi = t/rho on U1 and by psi = (1 - t)/(1 - rho) off U1. Their divergence is
the binary one, D_alpha(Bern rho || Bern t), so t+(rho) (eq. (28), computed by the engine) is the
largest t with that point in the ball, and ||R - P^||_1 = 2 (t - rho). Both facts are checked in arb
with a divergence computed here (not the engine's): the point just inside t+ is certainly in the
ball, the point just outside is certainly not, and the engine's rad (eq. (30)) lies between the
largest certified inner distance and the certified outer one. The same for t- (eq. (27)) on
singletons. This is the attained (lower) side of Lemma A6 and a certified two-sided check of
xi-+, and the engine's certified enclosures (t_interval_certified, l1_radius_certified) must contain
every certified point (they may only err outwards); the upper side (no point is farther) is Lemma A6 itself (rldp.lemma-a6.l1-radius).
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import flint

from rldp_verify.certificates.claims import built
from rldp_verify.claims import Method, Outcome, claim
from rldp_verify.rldp.uncertainty import SimplexBall, t_interval, t_interval_certified

from ._sec34 import PAPER

DIGITS = 30
STEP = Fraction(1, 10**24)      # how far inside / outside t+- the witnesses are placed


def _arb(q: Fraction) -> flint.arb:
    return flint.arb(q.numerator) / q.denominator


def _renyi_arb(p, r, alpha: Fraction):
    """D_alpha(p||r) for rational vectors, in arb (independent of the engine); None for +inf."""
    a = _arb(alpha)
    if alpha == 1:
        tot = flint.arb(0)
        for x, y in zip(p, r, strict=True):
            if x == 0:
                continue
            if y == 0:
                return None
            tot += _arb(x) * (_arb(x) / _arb(y)).log()
        return tot
    tot = flint.arb(0)
    for x, y in zip(p, r, strict=True):
        if x == 0:
            continue
        if y == 0:
            if alpha > 1:
                return None
            continue
        tot += (_arb(x).log() * a + _arb(y).log() * (1 - a)).exp()
    return tot.log() / (a - 1)


def _point(center, U1, rho: Fraction, t: Fraction):
    xi, psi = t / rho, (1 - t) / (1 - rho)
    return [c * xi if i in U1 else c * psi for i, c in enumerate(center)]


def _exact(x) -> Fraction:
    """The exact value of an mpf (or a Fraction)."""
    if isinstance(x, Fraction):
        return x
    man, exp = (int(v) for v in x.man_exp)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2**-exp)


def _round(x, up: bool) -> Fraction:
    q = _exact(x)
    scale = 10**DIGITS
    n = q * scale
    n = -((-n.numerator) // n.denominator) if up else n.numerator // n.denominator
    return Fraction(n, scale)


def _status(center, U1, rho, t, alpha, B):
    """'in' / 'out' / None (undecided) for the witness at t."""
    d = _renyi_arb(center, _point(center, U1, rho, t), alpha)
    if d is None or d > _arb(B):
        return "out"
    if d <= _arb(B):
        return "in"
    return None


def _instances(rng, count):
    alphas = (Fraction(1, 2), Fraction(1), Fraction(3, 2), Fraction(2), Fraction(4))
    for k in range(count):
        m = 3 + k % 2
        w = [rng.randint(1, 40) for _ in range(m)]
        center = tuple(Fraction(x, sum(w)) for x in w)
        yield center, alphas[k % len(alphas)], Fraction(rng.randint(20, 600), 1000)


@claim(
    id="rldp.lemma-a6.l1-radius-witnesses",
    paper=PAPER,
    source="App. A.2, Lemmas A5-A6, eqs. (A29)-(A50); Sec. 4.2 eqs. (27)-(28); Proposition 1 eq. (30)",
    statement="For every U1 subset U, the point of Lemma A6 at t = t+(P^_{U1}) lies on the boundary of the Rényi "
              "ball (in it just inside t+, outside just beyond), likewise t-(P^_u) for singletons, and "
              "rad = 2 max_{U1} (t+(P^_{U1}) - P^_{U1}) of eq. (30) is attained by these points.",
    hypotheses=("P^ of full support", "0 < B < inf", "alpha in (0, inf)"),
    method=(Method.EXACT, Method.HIGH_PRECISION),
    reading="xi+ over [1, 1/rho] (rldp.sec42.xi-plus-domain); the witnesses are rationals 1e-24 inside and outside "
            "t+- whose divergence is enclosed in arb by a route independent of the engine",
)
def check(ctx):
    rng = ctx.rng("lemma-a6.witnesses")
    tol = 4 * STEP + Fraction(1, 10**(DIGITS - 4))
    rows, n, witnesses = [], 0, []
    for center, alpha, B in _instances(rng, 5):
        m = len(center)
        ball = SimplexBall(center, alpha, B)
        rad = ball.l1_radius(dps=DIGITS, exhaustive=True)
        rad_cert = ball.l1_radius_certified(_arb(B), dps=DIGITS)
        rad_q = _round(rad, up=False)
        best_in, best_out = Fraction(0), Fraction(0)
        for r in range(1, m):
            for U1 in combinations(range(m), r):
                U1 = frozenset(U1)
                rho = sum(center[i] for i in U1)
                tm, tp = t_interval(rho, alpha, B, dps=DIGITS)
                cert = t_interval_certified(rho, alpha, _arb(B), dps=DIGITS)   # (lo <= t-, hi >= t+), rationals
                ends = [("t+", tp, 1)] + ([("t-", tm, -1)] if r == 1 else [])
                for label, t, sign in ends:
                    inner = _round(t, up=sign < 0) - sign * STEP
                    outer = _round(t, up=sign > 0) + sign * STEP
                    ex = {"P^": [str(c) for c in center], "alpha": str(alpha), "B": str(B), "U1": sorted(U1),
                          "end": label, "engine": str(t)}
                    if (sign > 0 and inner > rho) or (sign < 0 and 0 < inner < rho):
                        if _status(center, U1, rho, inner, alpha, B) == "out":
                            return Outcome.refuted(
                                f"{label}(rho) overshoots: the Lemma A6 point at {label} - 1e-24 is certainly outside "
                                f"the ball (alpha = {alpha}, B = {B}, rho = {rho})",
                                counterexample={**ex, "t": str(inner)}, kind="false")
                        n += 1
                        witnesses.append((center, U1, rho, inner, alpha, B, True))
                        if sign > 0:
                            best_in = max(best_in, 2 * (inner - rho))
                        if (sign > 0 and cert[1] < inner) or (sign < 0 and cert[0] > inner):
                            return Outcome.refuted(
                                f"the certified bound of {label} ({float(cert[1 if sign > 0 else 0]):.15g}) excludes a "
                                "point certified in the ball: the certified route errs on the unsafe side",
                                counterexample={**ex, "t": str(inner), "certified": [str(c) for c in cert]},
                                kind="false")
                    if 0 < outer < 1:
                        if _status(center, U1, rho, outer, alpha, B) == "in":
                            return Outcome.refuted(
                                f"{label}(rho) undershoots: the Lemma A6 point beyond {label} is certainly inside the "
                                f"ball (alpha = {alpha}, B = {B}, rho = {rho})",
                                counterexample={**ex, "t": str(outer)}, kind="false")
                        n += 1
                        witnesses.append((center, U1, rho, outer, alpha, B, False))
                        if sign > 0:
                            best_out = max(best_out, 2 * (outer - rho))
                    elif sign > 0:
                        best_out = max(best_out, 2 * (1 - rho))
        ex = {"P^": [str(c) for c in center], "alpha": str(alpha), "B": str(B), "rad_engine": str(rad)}
        if best_in > rad_q + tol:
            return Outcome.refuted(f"rad of eq. (30) = {float(rad):.12g} is below the distance {float(best_in):.12g} "
                                   "of a point certified in the ball", counterexample={**ex, "distance": str(best_in)}, kind="false")
        if rad_cert < best_in:
            return Outcome.refuted(f"the certified rad {float(rad_cert):.15g} is below the distance of a point certified "
                                   "in the ball (unsafe)", counterexample={**ex, "rad_certified": str(rad_cert),
                                                                            "distance": str(best_in)}, kind="false")
        if rad_q > max(best_in, best_out) + tol:
            return Outcome.refuted(f"rad of eq. (30) = {float(rad):.12g} exceeds 2 max_U1 (t+ - rho) = "
                                   f"{float(best_out):.12g}, the Lemma A6 points' largest distance",
                                   counterexample={**ex, "distance": str(best_out)}, kind="false")
        rows.append({**ex, "rad_engine": f"{float(rad):.15g}", "max_certified_inside": f"{float(best_in):.15g}"})
    return Outcome.verified(f"{len(rows)} random balls, {n} Lemma A6 points certified in arb on the right side of "
                            "t+- (1e-24 inside / outside); rad of eq. (30) equals the largest certified distance to "
                            "within 1e-23", witnesses=n, instances=rows, **built(_witness_certificates, witnesses))


def _witness_certificates(witnesses) -> list[dict]:
    """Issue 23: per Lemma A6 point (P^ scaled by t/rho on U1 and (1-t)/(1-rho) off it, written out in the
    expression), the ``rigorous-value`` certificate D_alpha(P^||point) <= B (inside) or > B (outside)."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.value import value_certificate

    docs = []
    for center, U1, rho, t, alpha, B, inside in witnesses:
        pt = _point(center, U1, rho, t)
        pe = [["*", c, ["/", t, rho]] if i in U1 else ["*", c, ["/", ["-", 1, t], ["-", 1, rho]]]
              for i, c in enumerate(center)]
        side = {"upper": B} if inside else {"lower": B, "strict": True}
        docs.append(value_certificate(f"P^ = {[str(c) for c in center]}, U1 = {sorted(U1)}, t = {t}: the Lemma A6 point "
                                      f"is {'inside' if inside else 'outside'} the ball D_{alpha} <= {B}",
                                      renyi_expr(center, pt, alpha, q_expr=pe), **side))
    return docs
