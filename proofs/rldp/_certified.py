"""Certified decisions for the extremal problems over a Rényi ball (Theorem 1, Proposition 1, Lemmas A5-A6).

Independent of the engine's formulas (xi-+, B_s, t_interval, rad): a check gives the engine's value v
and a tolerance eta; we decide with certificates, in arb, whether the true extremum lies within eta of v.

Facts used (theorems, not computations of the engine):

(H1) Data processing / Hölder: merging cells does not increase D_alpha. In particular, for a binary
     merge, D_alpha(c||R) >= D_alpha(Bern(c_X1) || Bern(R_X1)).
(H2) For the joint ball F = {P : D_alpha(P^||P) <= B} around a |S| x |U| table P^, a row s with
     p = P^_s > 0, b = 1 - p, c = P^_{U|s} and any P with R = P_{U|s}:
         D_alpha(P^||P) >= Phi(D_alpha(c||R)),
         Phi(d) = alpha/(alpha-1) log(p e^{(alpha-1) d/alpha} + b)   (alpha != 1),   Phi(d) = p d  (alpha = 1),
     (Hölder twice: the other rows proportional to P^, then the two-term minimum over P_s), with
     equality at P_s = gamma*(d) = p e^{(alpha-1)d/alpha} / (p e^{(alpha-1)d/alpha} + b) (alpha = 1: p).
     Phi is increasing. With one row (p = 1) Phi(d) = d: the ball around c itself (Lemmas A5-A6).
(H3) t -> D_alpha(Bern(rho)||Bern(t)) is nonincreasing on [0, rho] and nondecreasing on [rho, 1].

A level is *infeasible* when (H1)-(H3) and an arb evaluation show that no P in F reaches it, and
*feasible* when an exact rational witness P is certified in F (our own arb power sum, below) and
reaches the level exactly or certified in arb. A float optimiser plays no part.
"""

from __future__ import annotations

from fractions import Fraction
from itertools import combinations

import flint
import mpmath

from rldp_verify.core.rigorous import arb_exact, arb_precision

ETA = Fraction(1, 10**20)


# ------------------------------------------------------------------------------------ arithmetic

def _q(x) -> Fraction:
    if isinstance(x, Fraction):
        return x
    if isinstance(x, int):
        return Fraction(x)
    if isinstance(x, mpmath.mpf):
        m, e = x.man_exp   # exact (no re-rounding at the global precision)
        return Fraction(int(m)) * (Fraction(2) ** int(e))
    return Fraction(x)


def _mp(q) -> mpmath.mpf:
    """mpf of a Fraction / int / mpf (at the current mpmath precision)."""
    if isinstance(q, Fraction):
        return mpmath.mpf(q.numerator) / q.denominator
    return mpmath.mpf(q)


def rational(x, digits: int) -> Fraction:
    """A rational within about 10^-digits of the mpf/float x (any direction; callers certify)."""
    with mpmath.workdps(digits + 10):
        return Fraction(int(mpmath.nint(mpmath.mpf(x) * 10**digits)), 10**digits)


def arb_div(p, q, alpha):
    """arb enclosure of D_alpha(p||q) for exact rational vectors (None = +inf). Our own implementation
    (not the engine's), with 0^... conventions: cells with p = 0 contribute nothing; p > 0 = q gives
    +inf for alpha >= 1 and nothing for alpha < 1."""
    alpha = _q(alpha)
    a = arb_exact(alpha)
    total = flint.arb(0)
    for x, y in zip(p, q, strict=True):
        x, y = _q(x), _q(y)
        if x == 0:
            continue
        if y == 0:
            if alpha >= 1:
                return None
            continue
        if alpha == 1:
            total += arb_exact(x) * (arb_exact(x) / arb_exact(y)).log()
        else:
            total += arb_exact(x) ** a * arb_exact(y) ** (1 - a)
    if alpha == 1:
        return total
    if total == 0:
        return None
    return total.log() / (a - 1)


def mp_div(p, q, alpha):
    """mpmath value of D_alpha(p||q) (search only; never decides)."""
    a = _mp(alpha)
    tot = mpmath.mpf(0)
    for x, y in zip(p, q, strict=True):
        x, y = _mp(x), _mp(y)
        if x == 0:
            continue
        if y == 0:
            if a >= 1:
                return mpmath.inf
            continue
        tot += x * mpmath.log(x / y) if a == 1 else x**a * y ** (1 - a)
    if a == 1:
        return tot
    if tot == 0:
        return mpmath.inf
    return mpmath.log(tot) / (a - 1)


def phi_arb(d, p: Fraction, alpha: Fraction):
    """Phi(d) of (H2) for an arb d (None = +inf)."""
    if d is None:
        return None
    if p == 1:
        return d
    if alpha == 1:
        return arb_exact(p) * d
    a = arb_exact(alpha)
    return a / (a - 1) * (arb_exact(p) * ((a - 1) * d / a).exp() + arb_exact(1 - p)).log()


def _gamma_star(d, p: Fraction, alpha: Fraction, digits: int) -> Fraction:
    if p == 1:
        return Fraction(1)
    if alpha == 1:
        return p
    with mpmath.workdps(digits + 20):
        a = _mp(alpha)
        e = _mp(p) * mpmath.exp((a - 1) * d / a)
        g = e / (e + 1 - _mp(p))
    g = rational(g, digits)
    return min(max(g, Fraction(1, 10**digits)), Fraction(1))


# ------------------------------------------------------------------------------------ the setting

class RowProblem:
    """F = {P : D_alpha(P^||P) <= B} and the row s (P^ a tuple of rows of Fractions; one row = Lemmas A5-A6)."""

    def __init__(self, phat, s: int, alpha, B, *, dps: int = 50, eta: Fraction = ETA):
        self.phat = [[_q(v) for v in r] for r in phat]
        self.s, self.alpha, self.B = s, _q(alpha), _q(B)
        self.p = sum(self.phat[s])
        if self.p == 0:
            raise ValueError("P^_s = 0")
        self.c = [v / self.p for v in self.phat[s]]
        self.dps, self.eta = dps, _q(eta)
        self.digits = dps + 10

    # witnesses -----------------------------------------------------------------------------
    def lift(self, R):
        """The exact rational P with P_{U|s} = R, P_s = gamma*(D(c||R)) (rationalised), rows s' != s
        proportional to P^ (the equality case of (H2))."""
        with mpmath.workdps(self.digits + 10):
            d = mp_div(self.c, R, self.alpha)
        if d == mpmath.inf:
            return None
        g = _gamma_star(d, self.p, self.alpha, self.digits)
        b = 1 - self.p
        P = []
        for i, row in enumerate(self.phat):
            if i == self.s:
                P.extend(g * r for r in R)
            else:
                P.extend((1 - g) * v / b for v in row)
        return P

    def in_F(self, P) -> bool:
        """Certified: D_alpha(P^||P) <= B."""
        with arb_precision(self.dps):
            d = arb_div([v for r in self.phat for v in r], P, self.alpha)
            return d is not None and bool(d <= arb_exact(self.B))

    def witness(self, R, check) -> dict | None:
        """If the lift of the exact R is certified in F and ``check(R)`` (certified) holds: the witness."""
        if any(x < 0 for x in R) or sum(R) != 1:
            return None
        P = self.lift(R)
        if P is None or not self.in_F(P) or not check(R):
            return None
        return {"P": [str(x) for x in P], "R": [str(x) for x in R]}

    def beyond(self, d_arb) -> bool:
        """Certified: every P in F has D(c||P_{U|s}) != any value >= d, i.e. Phi(d) > B (H2)."""
        with arb_precision(self.dps):
            v = phi_arb(d_arb, self.p, self.alpha)
            return v is None or bool(v > arb_exact(self.B))

    def cap(self):
        """sup_R D_alpha(c||R) over the simplex: finite only for alpha < 1 and c > 0 (mpf)."""
        if self.alpha < 1 and min(self.c) > 0:
            a = _mp(self.alpha)
            return a / (1 - a) * mpmath.log(1 / _mp(min(self.c)))
        return mpmath.inf

    # levels --------------------------------------------------------------------------------
    def _segment_R(self, level):
        """An exact R on the segment from c towards the vertex of the smallest c_u with D(c||R) just
        above ``level`` (bisection in mpmath; the caller certifies)."""
        v = min(range(len(self.c)), key=lambda u: (self.c[u], u))
        if self.c[v] == 1:
            v = (v + 1) % len(self.c)

        def R_of(lam):
            return [(1 - lam) * x + (lam if u == v else 0) for u, x in enumerate(self.c)]

        with mpmath.workdps(self.digits + 10):
            target = _mp(level) + _mp(self.eta) / 8
            lo, hi = mpmath.mpf(0), mpmath.mpf(1)
            for _ in range(int(3.4 * self.digits) + 10):
                mid = (lo + hi) / 2
                if mp_div(self.c, R_of(mid), self.alpha) < target:
                    lo = mid
                else:
                    hi = mid
        lam = rational(hi, self.digits)
        lam = min(max(lam, Fraction(0)), Fraction(1))
        return R_of(lam)

    def radius_feasible(self, level: Fraction):
        """A witness P in F with D(c||P_{U|s}) >= level (certified), or None."""
        if level <= 0:
            return {"P": "P^ itself", "R": [str(x) for x in self.c]}
        if self.cap() != mpmath.inf and _mp(level) >= self.cap():
            return None
        R = self._segment_R(level)

        def reaches(R):
            with arb_precision(self.dps):
                d = arb_div(self.c, R, self.alpha)
                return d is None or bool(d >= arb_exact(level))
        return self.witness(R, reaches)

    def radius_infeasible(self, level: Fraction) -> bool:
        """Certified: no P in F has D(c||P_{U|s}) >= level (H2, or the simplex cap for alpha < 1)."""
        cap = self.cap()
        if cap != mpmath.inf:
            with arb_precision(self.dps):
                a = arb_exact(self.alpha)
                capa = a / (1 - a) * (1 / arb_exact(min(self.c))).log()
                if bool(capa < arb_exact(level)):
                    return True
        with arb_precision(self.dps):
            return self.beyond(arb_exact(level))

    def coordinate_infeasible(self, u: int, t: Fraction, side: str) -> bool:
        """side 'min': no P in F has P_{u|s} <= t; 'max': none has P_{u|s} >= t (H1 + H2 + H3)."""
        rho = self.c[u]
        if side == "min":
            if t < 0:
                return True
            if t >= rho:
                return False
        else:
            if t > 1:
                return True
            if t <= rho:
                return False
        with arb_precision(self.dps):
            return self.beyond(arb_div([rho, 1 - rho], [t, 1 - t], self.alpha))

    def _split_R(self, X1, t: Fraction):
        """R with R_X1 = t, proportional to c inside X1 and outside (uniform where c's mass is 0)."""
        rho = sum(self.c[i] for i in X1)
        out = [i for i in range(len(self.c)) if i not in X1]
        R = [Fraction(0)] * len(self.c)
        for grp, mass, tot in ((list(X1), t, rho), (out, 1 - t, 1 - rho)):
            for i in grp:
                R[i] = mass * self.c[i] / tot if tot > 0 else mass / len(grp)
        return R

    def coordinate_feasible(self, u: int, t: Fraction, side: str):
        if not 0 <= t <= 1:
            return None

        def ok(R):
            return R[u] <= t if side == "min" else R[u] >= t
        return self.witness(self._split_R((u,), t), ok)

    def l1_infeasible(self, r: Fraction) -> bool:
        """Certified: no P in F has ||P_{U|s} - c||_1 >= r (||R - c||_1 = 2 max_X1 (R_X1 - c_X1))."""
        m = len(self.c)
        if r <= 0:
            return False
        for k in range(1, m):
            for X1 in combinations(range(m), k):
                rho = sum(self.c[i] for i in X1)
                t = rho + r / 2
                if t > 1:
                    continue
                with arb_precision(self.dps):
                    if not self.beyond(arb_div([rho, 1 - rho], [t, 1 - t], self.alpha)):
                        return False
        return True

    def l1_feasible(self, r: Fraction):
        m = len(self.c)
        if r <= 0:
            return {"P": "P^ itself"}
        best = None
        for k in range(1, m):
            for X1 in combinations(range(m), k):
                rho = sum(self.c[i] for i in X1)
                t = rho + r / 2
                if t > 1:
                    continue
                # quick float screen: the binary divergence at t must be within the ball's reach
                with mpmath.workdps(30):
                    d = mp_div([rho, 1 - rho], [t, 1 - t], self.alpha)
                if best is None or d < best[0]:
                    best = (d, X1, t)
        if best is None:
            return None
        _, X1, t = best
        w = self.witness(self._split_R(X1, t),
                         lambda R: sum(abs(x - y) for x, y in zip(R, self.c, strict=True)) >= r)
        if w is not None:
            w["X1"] = list(X1)
        return w


# ------------------------------------------------------------------------------------ decisions

def decide(value, eta: Fraction, feasible, infeasible, *, sense: str):
    """Decide whether the extremum (sense 'sup' or 'inf') over F of a level functional equals ``value``
    within eta. ``feasible(level)`` returns a certified witness or None, ``infeasible(level)`` True when
    certified. Returns (status, detail) with status 'agrees', 'larger' (the true extremum lies beyond
    value in the direction of sense: sup > value or inf < value, with a witness), 'smaller' (certified
    bound on the other side), or 'undecided'."""
    v = _q(value)
    sg = 1 if sense == "sup" else -1
    outer, inner = v + sg * eta, v - sg * eta
    if infeasible(outer):
        w = feasible(inner)
        if w is not None:
            return "agrees", {"witness_level": str(inner), "witness": w, "excluded_level": str(outer)}
        if infeasible(inner):
            return "smaller", {"excluded_level": str(inner), "excluded_level_decimal": fmt(inner, 25)}
        return "undecided", {"excluded_level": str(outer)}
    w = feasible(v + sg * eta / 2)
    if w is None:
        return "undecided", {}
    # push the witness as far as it goes (factors of 10), so that the counterexample shows the size of the gap
    level, k = v + sg * eta / 2, 1
    while k <= 22:
        nxt = v + sg * eta / 2 * 10**k
        w2 = feasible(nxt)
        if w2 is None:
            break
        level, w, k = nxt, w2, k + 1
    return "larger", {"witness_level": str(level), "witness_level_decimal": fmt(level), "witness": w}


def fmt(q: Fraction, digits: int = 15) -> str:
    with mpmath.workdps(digits + 10):
        return mpmath.nstr(_mp(q), digits)


def bracket(feasible, infeasible, a: Fraction, b: Fraction, *, sense: str, width: Fraction = Fraction(1, 10**15),
            steps: int = 80):
    """A certified enclosure [lo, hi] of the extremum (``sense`` 'inf' or 'sup') of a level functional over F,
    by bisection on certified decisions only (no formula of the engine): for 'inf', ``infeasible(a)`` and
    ``feasible(b)`` must hold at the start (the minimum lies in (a, b]); for 'sup', ``feasible(a)`` and
    ``infeasible(b)`` (the maximum lies in [a, b)). Returns (lo, hi, witness at the feasible end, complete):
    ``complete`` is False when a midpoint could not be decided (the bracket is then wider than ``width``) or
    the start does not hold (lo, hi = None)."""
    a, b = _q(a), _q(b)
    feas_end, inf_end = (b, a) if sense == "inf" else (a, b)
    w = feasible(feas_end)
    if w is None or not infeasible(inf_end):
        return None, None, None, False
    for _ in range(steps):
        if abs(feas_end - inf_end) <= width:
            break
        mid = (feas_end + inf_end) / 2
        mid = rational(mid, 40) if mid.denominator > 10**40 else mid
        w2 = feasible(mid)
        if w2 is not None:
            feas_end, w = mid, w2
        elif infeasible(mid):
            inf_end = mid
        else:
            break
    lo, hi = min(feas_end, inf_end), max(feas_end, inf_end)
    return lo, hi, w, abs(feas_end - inf_end) <= width


# ------------------------------------------------------------------------------------ certificates (issue 23)

def _row_expr(prob: RowProblem, P) -> tuple[list, list]:
    """(R exact, R as expressions of the witness P): R_u = P_{s,u} / sum_u' P_{s,u'}, so that the checker derives
    the conditional from P itself."""
    a2 = len(prob.c)
    row = [Fraction(v) for v in P[prob.s * a2:(prob.s + 1) * a2]]
    tot = sum(row)
    return [v / tot for v in row], [["/", v, ["+", *row]] for v in row]


def _excluded_doc(prob: RowProblem, label: str, levels) -> dict | None:
    """The exclusion: min over the binary (or full) divergences d in ``levels`` (expressions; None = +inf) of
    Phi(d) > B, by (H1)-(H3); None when every level is infinite (nothing to evaluate)."""
    from rldp_verify.certificates.divergence import phi_expr
    from rldp_verify.certificates.value import value_certificate

    terms = [phi_expr(d, prob.p, prob.alpha) for d in levels if d is not None]
    if not terms:
        return None
    return value_certificate(f"{label}: Phi(D) > B = {prob.B} (Hölder bound (H2) of proofs/rldp/_certified.py)",
                             terms[0] if len(terms) == 1 else ["min", *terms], lower=prob.B, strict=True)


def _binary(prob: RowProblem, rho: Fraction, t: Fraction):
    """D_alpha(Bern(rho)||Bern(t)) as an expression, None when it is infinite."""
    from rldp_verify.certificates.divergence import binary_renyi_expr
    from rldp_verify.core.errors import InputError

    try:
        return binary_renyi_expr(rho, t, prob.alpha)
    except InputError:
        return None


def _cap_below(prob: RowProblem, level: Fraction) -> bool:
    """alpha/(1-alpha) log(1/min c) < level, certified in arb (alpha < 1)."""
    with arb_precision(prob.dps):
        a = arb_exact(prob.alpha)
        return bool(a / (1 - a) * (1 / arb_exact(min(prob.c))).log() < arb_exact(level))


def agreement_certificates(prob: RowProblem, quantity: str, detail: dict, *, u: int | None = None,
                           eta: Fraction = ETA) -> list[dict]:
    """The ``rigorous-value`` certificates of an "agrees" decision of :func:`decide` (issue 23). ``quantity`` is
    "radius" (sup D_alpha(c||P_{U|s})), "min" / "max" (inf / sup of P_{u|s}) or "l1" (sup ||P_{U|s} - c||_1).

    1.-2. :func:`witness_certificates` at the witness's level, with an eta slack: R_u <= level + eta (min),
       R_u >= level - eta (max), ||R - c||_1 >= level - eta (l1) -- the witness attains a rational level exactly,
       which a ball cannot certify; D_alpha(c||R) >= level (radius);
    3. :func:`exclusion_certificate` at the excluded level.

    So the extremum lies within 2 eta of the engine's value (the decision's eta on the excluded side)."""
    level, out = Fraction(detail["witness_level"]), Fraction(detail["excluded_level"])
    bound = {"radius": {"lower": level}, "min": {"upper": level + eta}, "max": {"lower": level - eta},
             "l1": {"lower": level - eta}}[quantity]
    docs = witness_certificates(prob, quantity, detail["witness"], bound, u=u)
    excl = exclusion_certificate(prob, quantity, out, u=u)
    return docs + ([excl] if excl is not None else [])


def witness_certificates(prob: RowProblem, quantity: str, w: dict, bound: dict, *, u: int | None = None,
                         strict: bool = False) -> list[dict]:
    """The witness P's ``rigorous-value`` certificates (none for "P^ itself"): 1. P lies in F, D_alpha(P^||P) <= B,
    written out from P; 2. its quantity (the conditional R derived from P inside the expression) lies within
    ``bound`` ({"lower": x} or {"upper": x}; strict with ``strict``): D_alpha(c||R) (radius), R_u (min, max) or
    sum_u |R_u - c_u| (l1)."""
    from rldp_verify.certificates.divergence import renyi_expr
    from rldp_verify.certificates.value import value_certificate

    if w["P"] == "P^ itself":
        return []
    P = [Fraction(v) for v in w["P"]]
    flat = [v for r in prob.phat for v in r]
    docs = [value_certificate(f"witness P in F: D_{prob.alpha}(P^||P) <= B = {prob.B}",
                              renyi_expr(flat, P, prob.alpha), upper=prob.B)]
    R, Re = _row_expr(prob, P)
    if quantity == "radius":
        e, what = renyi_expr(prob.c, R, prob.alpha, q_expr=Re), "D_alpha(P^_(U|s)||P_(U|s))"
    elif quantity in ("min", "max"):
        e, what = Re[u], f"P_(u{u}|s)"
    else:
        e = ["+", *[["max", ["-", x, c], ["-", c, x]] for x, c in zip(Re, prob.c, strict=True)]]
        what = "||P_(U|s) - P^_(U|s)||_1"
    rel = ("<" if strict else "<=") if "upper" in bound else (">" if strict else ">=")
    docs.append(value_certificate(f"the witness has {what} {rel} {next(iter(bound.values()))}", e, strict=strict,
                                  **bound))
    return docs


def exclusion_certificate(prob: RowProblem, quantity: str, out: Fraction, *, u: int | None = None) -> dict | None:
    """The ``rigorous-value`` certificate that no P in F reaches level ``out`` of the quantity (None when trivially
    so: P_(u|s) < 0 or > 1): Phi of the (merged, (H1)) divergence at that level exceeds B ((H2)-(H3)); for
    alpha < 1 and the radius, possibly the simplex cap alpha/(1-alpha) log(1/min c) < level instead."""
    from rldp_verify.certificates.value import value_certificate

    label = f"no P in F reaches {quantity} level {out}"
    if quantity == "radius":
        a = prob.alpha
        if prob.cap() != mpmath.inf and _cap_below(prob, out):   # the route radius_infeasible takes first
            return value_certificate(f"{label}: the simplex maximum alpha/(1-alpha) log(1/min c) < level",
                                     ["*", a / (1 - a), ["log", ["/", 1, min(prob.c)]]], upper=out, strict=True)
        return _excluded_doc(prob, label, [out])
    if quantity in ("min", "max"):
        trivial = out < 0 if quantity == "min" else out > 1
        return None if trivial else _excluded_doc(prob, label, [_binary(prob, prob.c[u], out)])
    m = len(prob.c)
    levels = []
    for k in range(1, m):
        for X1 in combinations(range(m), k):
            rho = sum(prob.c[i] for i in X1)
            if rho + out / 2 <= 1:
                levels.append(_binary(prob, rho, rho + out / 2))
    return _excluded_doc(prob, label, levels)
