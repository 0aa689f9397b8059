"""Certificates for the exact or rigorous evidence that other builders left uncovered (issue 23, "partial").

Existing kinds only (``rigorous-value``, with its ``forall`` boxes, and ``symbolic-identity``):

- :func:`pair_upper_certificates`: the upper end hi of an audit's bracket of one ratio sup_{P in F} P(y|s1)/P(y|s2)
  over a Rényi ball F (``rldp.audit.pair-bracket``), from the pair entry (r = hi, t, mu1, mu2) that the engine
  certified it with, the weak-duality bound written out in the checker's expression language;
- :func:`phi_convexity_certificates`: phi_{B_s}(rho, xi) of eq. (26) convex in xi on a whole interval (not at grid
  points): phi'' > 0 written out in closed form and evaluated on boxes covering the interval, with the algebra that
  brings the quotient rule's numerator to that form as a ``symbolic-identity``.

The weak-duality bound of a pair (the derivation is the docstring of :mod:`rldp_verify_check.audit`, restated here
from the definitions).  Write q_i = Q[y|s_i, .], p_i = P^_{s_i}, w_i = P^_{U|s_i}, R_i = P_{U|s_i},
d_i = D_a(w_i || R_i), z_i = e^{-d_i} in (0, 1], beta = 1 - 1/a, x1 = mu1 - q1 >= 0, x2 = mu2 + r q2 >= 0.  As each
R_i sums to 1, <q1,R1> - r <q2,R2> = mu1 + mu2 - <x1,R1> - <x2,R2>, and Hölder (a > 1: exponents a, a/(a-1) on
w x^beta = (w^a R^(1-a))^(1/a) (R x)^beta; a < 1 the reverse; Jensen at a = 1) gives <x_i, R_i> >= z_i M_i with
M_i = (sum_u w_i(u) x_i(u)^beta)^(1/beta) (the geometric mean at beta = 0).  Membership in F: sum_x P^_x^a
P_x^(1-a) = sum_s p_s^a P_s^(1-a) e^{(a-1) d_s} and Hölder over s give sum_s p_s z_s^-beta <= e^{beta B}
(beta > 0; >= for beta < 0), and z_s^-beta >= 1 (<= 1) for the other secrets, so p1 z1^-beta + p2 z2^-beta <= K
(>= K), K = e^{beta B} - 1 + p1 + p2; at a = 1 the chain rule gives p1 log(1/z1) + p2 log(1/z2) <= B.  With
t beta >= 0 (t >= 0 at a = 1) the multiplier's term is >= 0 on F, so

    <q1,R1> - r <q2,R2> <= mu1 + mu2 + t K + sum_i sup_{z in (0, 1]} h_i(z),   h_i(z) = -M_i z - t p_i z^-beta

(t B and h_i(z) = -M_i z + t p_i log z at a = 1).  For -1 < beta, c = t p_i with c beta >= 0, h_i is concave with
h_i'(z) = -M_i + c beta z^(-beta-1) (c log z: -M_i + c / z), so its sup on (0, 1] is h_i(min(1, z*)),
z* = (c beta / M_i)^(1/(1+beta)) (c / M_i at beta = 0); c = 0: sup = 0.  The bound certainly <= 0 proves
P(y|s1) <= r P(y|s2) for every P in F, i.e. the sup of the ratio is at most r = hi.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.interval import interval_certificate
from rldp_verify.certificates.value import abs_expr, expr, value_certificate


def _power_mean_expr(x: list[Fraction], w: list[Fraction], beta: Fraction):
    """M_beta(x; w) = (sum w_u x_u^beta)^(1/beta) over w_u > 0 (geometric mean at beta = 0), or 0 (exactly) when
    it is 0: all x_u = 0, or some x_u = 0 with beta <= 0."""
    items = [(xi, wi) for xi, wi in zip(x, w, strict=True) if wi > 0]
    if all(xi == 0 for xi, _ in items) or (beta <= 0 and any(xi == 0 for xi, _ in items)):
        return 0
    items = [(xi, wi) for xi, wi in items if xi > 0]          # 0^beta = 0 for beta > 0
    if beta == 0:
        return ["exp", ["+", *(["*", wi, ["log", xi]] for xi, wi in items)]]
    return ["pow", ["+", *(["*", wi, ["pow", xi, beta]] for xi, wi in items)], 1 / beta]


def _sup_h_expr(M, c: Fraction, beta: Fraction):
    """sup over z in (0, 1] of -M z - c z^-beta (-M z + c log z at beta = 0), for c beta >= 0 and -1 < beta (module
    docstring): h(min(1, z*)); M = 0 (exactly): h increases, sup = h(1) = -c (0 at beta = 0)."""
    if c == 0:
        return 0
    if M == 0:
        return 0 if beta == 0 else -c
    if beta == 0:
        z = ["min", 1, ["/", c, M]]
        return ["let", [["z", z]], ["+", ["-", ["*", M, "$z"]], ["*", c, ["log", "$z"]]]]
    z = ["min", 1, ["pow", ["/", c * beta, M], 1 / (1 + beta)]]
    return ["let", [["z", z]], ["-", ["-", ["*", M, "$z"]], ["*", c, ["pow", "$z", -beta]]]]


def pair_bound_expr(Q_y, a2: int, s1: int, s2: int, phat, alpha, B, entry: dict) -> tuple[list, list]:
    """(the weak-duality bound of <q1,R1> - r <q2,R2> over the Rényi ball (P^ = ``phat``, order alpha, radius B) at
    the entry's (r, t, mu1, mu2), its exact side conditions as expressions that must be >= 0: x1, x2 >= 0 and
    t beta >= 0 (t >= 0 at alpha = 1)).  ``Q_y``: the row of output y over the flat X = S x U."""
    alpha, B = Fraction(alpha), Fraction(B)
    if entry.get("mode") is not None:
        raise ValueError(f"pair entry of mode {entry['mode']!r}: only the weak-duality entry (r, t, mu1, mu2) is "
                         "written out here")
    r, t, mu1, mu2 = (Fraction(entry[k]) for k in ("r", "t", "mu1", "mu2"))
    beta = 1 - 1 / alpha
    if not beta > -1:
        raise ValueError(f"alpha = {alpha} <= 1/2: h is not concave, the weak-duality entry is not written out here")
    q1, q2 = [Fraction(v) for v in Q_y[s1 * a2:(s1 + 1) * a2]], [Fraction(v) for v in Q_y[s2 * a2:(s2 + 1) * a2]]
    x1, x2 = [mu1 - v for v in q1], [mu2 + r * v for v in q2]
    p1, p2 = sum(Fraction(v) for v in phat[s1]), sum(Fraction(v) for v in phat[s2])
    if p1 == 0 or p2 == 0:
        raise ValueError("a secret of the pair has mass 0 under P^")
    K = B if beta == 0 else ["+", ["exp", beta * B], p1 + p2 - 1]
    terms: list = [mu1 + mu2, ["*", t, K]]
    for x, p, s in ((x1, p1, s1), (x2, p2, s2)):
        M = _power_mean_expr(x, [Fraction(v) / p for v in phat[s]], beta)
        terms.append(_sup_h_expr(M, t * p, beta))
    side = [*x1, *x2, t if beta == 0 else t * beta]
    return ["+", *terms], side


def pair_upper_certificates(name: str, cases) -> list[dict]:
    """Per case (Q_y, a2, s1, s2, phat, alpha, B, entry) the arb ``rigorous-value`` certificate that the
    weak-duality bound (:func:`pair_bound_expr`) is <= 0 (so sup_F P(y|s1)/P(y|s2) <= entry["r"]), and one exact
    certificate of all cases' side conditions (each >= 0); none for no case."""
    from rldp_verify.certificates.instances_rldp import all_nonneg_certificate

    if not cases:
        return []
    docs, side = [], []
    for Q_y, a2, s1, s2, phat, alpha, B, entry in cases:
        bound, cond = pair_bound_expr(Q_y, a2, s1, s2, phat, alpha, B, entry)
        side += cond
        docs.append(value_certificate(f"{name}: sup over F of P(y|{s1})/P(y|{s2}) <= hi = {float(entry['r']):.15g}... "
                                      f"(the entry's exact r; alpha = "
                                      f"{alpha}, B = {B}): the weak-duality bound of P(y|s1) - hi P(y|s2) at "
                                      "(t, mu1, mu2) is <= 0", bound, upper=0))
    docs.append(all_nonneg_certificate(f"{name}: the pair entries' side conditions x1 = mu1 - q1, x2 = mu2 + hi q2, "
                                       "t beta (t at alpha = 1)", side, cap=len(side)))
    return docs


def phi_second_derivative_expr(rho: Fraction, alpha: Fraction, var: str = "xi") -> list:
    """phi''(xi) for phi(xi) = D_alpha(Bern(rho) || Bern(rho xi)) (eq. (26), B_s drops out), xi the variable
    ``$var``: rho^2 f''(t) at t = rho xi, f(t) = D_alpha(Bern(rho)||Bern(t)).

    f = log(S)/(alpha - 1), S = A t^(1-alpha) + C (1-t)^(1-alpha), A = rho^alpha, C = (1-rho)^alpha.  With
    a = A t^-alpha, c = C (1-t)^-alpha: S = a t + c (1-t), S' = (1-alpha)(a - c), S'' = alpha (alpha-1)
    (a/t + c/(1-t)), so f'' = (S'' S - S'^2) / ((alpha-1) S^2) = (alpha (a/t + c/(1-t)) S - (alpha-1) (a-c)^2) / S^2
    = ((a - c)^2 + alpha a c / (t (1-t))) / S^2 (the last step: :func:`phi_numerator_identity`), positive for every
    alpha > 0 and t in (0, 1).  alpha = 1 (KL): f'' = rho/t^2 + (1-rho)/(1-t)^2."""
    rho, alpha = Fraction(rho), Fraction(alpha)
    t = ["*", rho, f"${var}"]
    if alpha == 1:
        f2 = ["+", ["/", rho, ["pow", "$t", 2]], ["/", 1 - rho, ["pow", ["-", 1, "$t"], 2]]]
        return ["let", [["t", t]], ["*", rho * rho, f2]]
    binds = [["t", t], ["a", ["*", ["pow", rho, alpha], ["pow", "$t", -alpha]]],
             ["c", ["*", ["pow", 1 - rho, alpha], ["pow", ["-", 1, "$t"], -alpha]]],
             ["S", ["+", ["*", "$a", "$t"], ["*", "$c", ["-", 1, "$t"]]]]]
    num = ["+", ["pow", ["-", "$a", "$c"], 2], ["/", ["*", alpha, "$a", "$c"], ["*", "$t", ["-", 1, "$t"]]]]
    return ["let", binds, ["*", rho * rho, ["/", num, ["pow", "$S", 2]]]]


def phi_numerator_identity(name: str) -> dict:
    """The ``symbolic-identity`` certificate of the algebra in :func:`phi_second_derivative_expr`:
    alpha (a/t + c/(1-t)) (a t + c (1-t)) - (alpha-1) (a-c)^2 = (a - c)^2 + alpha a c / (t (1-t)), as rational
    functions of a, c, t, alpha (uses (1-t) + t = 1)."""
    import sympy

    from rldp_verify.certificates.identity import identity_certificate

    a, c, t, al = sympy.symbols("a c t alpha")
    lhs = al * (a / t + c / (1 - t)) * (a * t + c * (1 - t)) - (al - 1) * (a - c) ** 2
    rhs = (a - c) ** 2 + al * a * c / (t * (1 - t))
    doc = identity_certificate(f"{name}: the quotient rule's numerator of f'' = ((a - c)^2 + alpha a c/(t(1-t))) "
                               "S^2 f''", lhs, rhs)
    return doc if isinstance(doc, dict) else doc[0]


def positive_boxes(e, var: str, a: Fraction, b: Fraction, *, max_boxes: int = 4096) -> list[tuple]:
    """Boxes covering [a, b] on each of which the checker's arb evaluation of ``e`` (``$var`` the box) is
    certainly > 0, by bisection from [a, b]; ValueError beyond ``max_boxes`` (the proposal; the checker re-decides)."""
    import flint

    from rldp_verify_check import CertificateError
    from rldp_verify_check.value import evaluate, num

    e = expr(e)

    def positive(lo, hi) -> bool:
        with flint.ctx.workprec(128):
            try:
                return bool(evaluate(e, {"$" + var: num(lo).union(num(hi))}) > 0)
            except CertificateError:
                return False

    todo, out = [(Fraction(a), Fraction(b))], []
    while todo:
        lo, hi = todo.pop()
        if positive(lo, hi):
            out.append((lo, hi))
        elif len(out) + len(todo) >= max_boxes or hi - lo < Fraction(1, 10**60):
            raise ValueError(f"no cover of [{a}, {b}] by at most {max_boxes} boxes on which the value is > 0")
        else:
            mid = (lo + hi) / 2
            todo += [(mid, hi), (lo, mid)]
    return sorted(out)


def phi_convexity_certificates(name: str, cases, t_lo: Fraction, t_hi: Fraction) -> list[dict]:
    """Per (alpha, rho) of ``cases`` the ``forall`` certificate that phi''(xi) > 0 for every xi in
    [t_lo/rho, t_hi/rho] (:func:`phi_second_derivative_expr`, boxes from :func:`positive_boxes`), and the
    identity behind its closed form (:func:`phi_numerator_identity`)."""
    docs = []
    for alpha, rho in cases:
        e = phi_second_derivative_expr(rho, alpha)
        lo, hi = Fraction(t_lo) / rho, Fraction(t_hi) / rho
        docs.append(interval_certificate(f"{name}: phi''(xi) > 0 for every xi in [{lo}, {hi}] (rho xi in [{t_lo}, "
                                         f"{t_hi}]), alpha = {alpha}, rho = {rho}", e, "xi", lo, hi,
                                         positive_boxes(e, "xi", lo, hi), lower=0, strict=True))
    docs.append(phi_numerator_identity(name))
    return docs


# --- Theorem 8 of the f_alpha paper: min over p in [0, 1-t) of psi_alpha(p, t) >= g_alpha(t), integer alpha ---

def binary_f_alpha_expr(p, t, alpha: int) -> list:
    """psi_alpha(p, t) = D_{f_alpha}(Bern(p) || Bern(p + t)) = sum_x Q(x) ((P(x)/Q(x))^alpha - 1) (eq. (3)), q = p + t;
    ``p`` an expression (e.g. the box variable "$p")."""
    q = ["+", p, t]
    return ["+", ["*", q, ["-", ["pow", ["/", p, q], alpha], 1]],
            ["*", ["-", 1, q], ["-", ["pow", ["/", ["-", 1, p], ["-", 1, q]], alpha], 1]]]


def dpsi_expr(p, t, alpha: int) -> list:
    """d/dp psi_alpha(p, t) (eq. (66)): with q = p + t, d/dp [p^a q^(1-a)] = p^(a-1) q^-a (a q - (a-1) p) =
    (a t + p) A and d/dp [(1-p)^a (1-q)^(1-a)] = (1-p)^(a-1) (1-q)^-a ((a-1)(1-p) - a (1-q)) = (a t + p - 1) B,
    A = p^(a-1)/q^a, B = (1-p)^(a-1)/(1-q)^a (the -q - (1-q) of psi's two terms differentiate to 0)."""
    A = ["/", ["pow", p, alpha - 1], ["pow", ["+", p, t], alpha]]
    B = ["/", ["pow", ["-", 1, p], alpha - 1], ["pow", ["-", ["-", 1, p], t], alpha]]
    return ["+", ["*", ["+", ["*", alpha, t], p], A], ["*", ["-", ["+", ["*", alpha, t], p], 1], B]]


def g_alpha_value(t: Fraction, alpha: int) -> Fraction:
    """g_alpha(t) of eq. (39) for integer alpha >= 2 (exact): (4t^2 + 1)^(alpha-1) - 1 below 1/alpha, else
    (1-t)^(1-alpha) - 1."""
    return (4 * t * t + 1) ** (alpha - 1) - 1 if t < Fraction(1, alpha) else (1 - t) ** (1 - alpha) - 1


def _tail_cut(t: Fraction, alpha: int, g: Fraction) -> Fraction:
    """A dyadic p_c < 1 - t with t^alpha (1 - p_c - t)^(1-alpha) - 1 >= g + 1 (so the tail bound holds with room)."""
    m = 8
    while True:
        pc = Fraction(int((1 - t) * 2**m) - 1, 2**m)
        e = 1 - t - pc
        if pc >= 0 and t**alpha * e ** (1 - alpha) - 1 >= g + 1:
            return pc
        m += 4


def pinsker_certificates(name: str, alpha: int, ts, *, max_boxes: int = 400) -> tuple[list[dict], list, list]:
    """(certificates, the t certified, the t left out with why) of min over p in [0, 1-t) of psi_alpha(p, t) >=
    g_alpha(t) at integer ``alpha`` >= 2 and each rational t in (0, 1) of ``ts``:

    - the tail p in [p_c, 1-t): psi >= (1-p)^a (1-p-t)^(1-a) - 1 (the first term of psi is >= 0) >=
      t^a (1-p_c-t)^(1-a) - 1 (1 - p > t, and (1-p-t)^(1-a) grows as p grows), and that is >= g(t) (exact);
    - t < 1/alpha, alpha >= 3 (the bound is strict there): psi(p, t) - g(t) > 0 for every p in [0, p_c] (arb, boxes);
    - t > 1/alpha (tight: psi(0, t) = g(t)): psi(0, t) = g(t) exactly and eq. (66) > 0 on [0, p_c] (arb, boxes), so
      psi increases from psi(0, t) there;
    - alpha = 2, t < 1/2 (tight inside): one ``symbolic-identity`` for every t and p, psi_2(p, t) - 4 t^2 =
      t^2 (1 - 2q)^2 / (q (1 - q)) with q = p + t in (0, 1), a square over a positive number.
    - where that cover needs more than ``max_boxes`` boxes (small t: psi and g are both O(t^2), and eq. (3) as
      written loses their difference in arb's boxes), t < 1/alpha <= 1/3, alpha <= :data:`SPLIT_MAX_ALPHA`: the
      cancellation-free form psi = q R1(t/q) + (1-q) R2(t/(1-q)) (:func:`_split_psi`, :func:`_split_identities`).
    - t = 1/alpha (tight, and eq. (66) vanishes at p = 0, so no box of eq. (66) around 0 is decided): eq. (67) > 0 on
      [0, p_c] with eq. (66) = 0 and psi(0, t) = g(t) at p = 0 exactly (:func:`_tangent_certificates`).
    Left out: t whose covers need more than ``max_boxes`` boxes."""
    from rldp_verify.certificates.instances_rldp import all_nonneg_certificate

    docs: list[dict] = []
    done, left = [], []
    tails = []
    identities: set[int] = set()
    for t in ts:
        t = Fraction(t)
        g = g_alpha_value(t, alpha)
        if alpha == 2 and t < Fraction(1, 2):
            done.append(t)
            continue
        pc = _tail_cut(t, alpha, g)
        if t * alpha == 1:
            at = _tangent_certificates(name, t, alpha, g, pc, max_boxes)
            if at is None:
                left.append((t, f"t = 1/alpha: eq. (67) needs more than {max_boxes} boxes"))
                continue
            docs += at
            tails.append(["-", ["-", ["*", ["pow", t, alpha], ["pow", 1 - t - pc, 1 - alpha]], 1], g])
            done.append(t)
            continue
        e = dpsi_expr("$p", t, alpha) if t * alpha > 1 else ["-", binary_f_alpha_expr("$p", t, alpha), g]
        try:
            boxes = positive_boxes(e, "p", Fraction(0), pc, max_boxes=max_boxes)
        except ValueError:
            split = _split_cover(name, t, alpha, g, pc, max_boxes) if t * alpha < 1 and alpha <= SPLIT_MAX_ALPHA \
                else None
            if split is None:
                left.append((t, f"more than {max_boxes} boxes"))
                continue
            docs += split
            identities.add(alpha)
            tails.append(["-", ["-", ["*", ["pow", t, alpha], ["pow", 1 - t - pc, 1 - alpha]], 1], g])
            done.append(t)
            continue
        what = "eq. (66) > 0" if t * alpha > 1 else "psi(p, t) - g(t) > 0"
        docs.append(interval_certificate(f"{name}: {what} for every p in [0, {pc}], alpha = {alpha}, t = {t}", e, "p",
                                         0, pc, boxes, lower=0, strict=True))
        if t * alpha > 1:
            docs.append(value_certificate(f"{name}: psi(0, t) - g(t) = 0, alpha = {alpha}, t = {t}",
                                          ["-", binary_f_alpha_expr(0, t, alpha), g], lower=0, upper=0, exact=True))
        tails.append(["-", ["-", ["*", ["pow", t, alpha], ["pow", 1 - t - pc, 1 - alpha]], 1], g])
        done.append(t)
    if tails:
        docs.append(all_nonneg_certificate(f"{name}: the tails p >= p_c, t^alpha (1 - p_c - t)^(1-alpha) - 1 - g(t), "
                                           f"alpha = {alpha}", tails, cap=len(tails)))
    if alpha == 2 and any(t < Fraction(1, 2) for t in done):
        docs.append(_chi2_identity(name))
    if identities:
        docs += _split_identities(name, alpha)
    return docs, done, left


def d2psi_expr(p, t, alpha: int) -> list:
    """d^2/dp^2 psi_alpha(p, t) (eq. (67)): (a-1) a t^2 (p^(a-2)/(p+t)^(a+1) + (1-p)^(a-2)/(1-p-t)^(a+1)), the
    derivative of :func:`dpsi_expr` (with q = p + t: d/dp [(a t + p) p^(a-1) q^-a] = p^(a-2) q^(-a-1) (q p + (a-1)
    (a t + p) q - a (a t + p) p) = (a-1) a t^2 p^(a-2) q^(-a-1), and the same for the 1 - p terms); the
    ``falpha.appA.derivatives-and-jensen`` claim compares it with sympy's derivative."""
    first = ["/", ["pow", p, alpha - 2], ["pow", ["+", p, t], alpha + 1]]
    second = ["/", ["pow", ["-", 1, p], alpha - 2], ["pow", ["-", ["-", 1, p], t], alpha + 1]]
    return ["*", (alpha - 1) * alpha * t * t, ["+", first, second]]


def _tangent_certificates(name: str, t: Fraction, k: int, g: Fraction, pc: Fraction,
                          max_boxes: int) -> list[dict] | None:
    """t = 1/alpha (the bound is tight at p = 0 and eq. (66) vanishes there): eq. (67) > 0 on [0, pc] (boxes), so
    eq. (66) increases from its value 0 at p = 0 (exact) and psi from psi(0, t) = g(t) (exact); None when the cover
    needs more than ``max_boxes`` boxes."""
    e = d2psi_expr("$p", t, k)
    try:
        boxes = positive_boxes(e, "p", Fraction(0), pc, max_boxes=max_boxes)
    except ValueError:
        return None
    return [interval_certificate(f"{name}: eq. (67) > 0 for every p in [0, {pc}], alpha = {k}, t = 1/alpha", e, "p",
                                 0, pc, boxes, lower=0, strict=True),
            value_certificate(f"{name}: eq. (66) at p = 0 is 0 and psi(0, t) - g(t) = 0, alpha = {k}, t = 1/alpha",
                              ["max", abs_expr(dpsi_expr(0, t, k)), abs_expr(["-", binary_f_alpha_expr(0, t, k), g])],
                              lower=0, upper=0, exact=True)]


#: the split form's covers are tried up to this order (the orders of the claims go to 32)
SPLIT_MAX_ALPHA = 64


def _r1_direct(s, k: int) -> list:
    """R1(s) = (1-s)^k - 1 + k s (>= 0: the remainder of (1-s)^k after its linear part)."""
    return ["+", ["-", ["pow", ["-", 1, s], k], 1], ["*", k, s]]


def _r_series(x, k: int, sign: int) -> list:
    """sum_{j=2}^k C(k, j) (sign x)^j: R1(x) (sign -1) or R2(x) = (1+x)^k - 1 - k x (sign +1) by the binomial
    theorem, without the cancellation of the direct forms at small x."""
    import math

    return ["+", *(["*", math.comb(k, j) * sign**j, ["pow", x, j]] for j in range(2, k + 1))]


def _split_psi(p, t, k: int, near: bool) -> list:
    """psi_k(p, t) = q R1(t/q) + (1-q) R2(t/(1-q)), q = p + t (eq. (3): q (1 - t/q)^k + (1-q) (1 + t/(1-q))^k - 1,
    whose linear terms -k t + k t cancel), R1 in its direct form (``near``: p <= (k-1) t, s = t/q >= 1/k, where
    R1(s) >= R1(1/k) ~ 1/e) or as its series (s < 1/k: C(k, j) s^j < 1/j!, no cancellation), R2 as its series."""
    q = ["+", p, t]
    s, u = ["/", t, q], ["/", t, ["-", 1, q]]
    r1 = _r1_direct(s, k) if near else _r_series(s, k, -1)
    return ["+", ["*", q, r1], ["*", ["-", 1, q], _r_series(u, k, 1)]]


def _split_cover(name: str, t: Fraction, k: int, g: Fraction, pc: Fraction, max_boxes: int) -> list[dict] | None:
    """psi_k(p, t) - g(t) > 0 for every p in [0, pc] from the cancellation-free form of psi (:func:`_split_psi`):
    R1 direct on [0, (k-1) t], as a series on [(k-1) t, pc] (small t, where eq. (3) as written loses psi ~ t^2 in arb's
    boxes); None when either cover needs more than ``max_boxes`` boxes."""
    docs = []
    mid = min((k - 1) * t, pc)
    for lo, hi, near in ((Fraction(0), mid, True), (mid, pc, False)):
        e = ["-", _split_psi("$p", t, k, near), g]
        try:
            boxes = positive_boxes(e, "p", lo, hi, max_boxes=max_boxes)
        except ValueError:
            return None
        form = "R1 direct" if near else "R1 as its series"
        docs.append(interval_certificate(f"{name}: q R1(t/q) + (1-q) R2(t/(1-q)) - g(t) > 0 ({form}) for every p in "
                                         f"[{lo}, {hi}], alpha = {k}, t = {t}", e, "p", lo, hi, boxes, lower=0,
                                         strict=True))
    return docs


def _split_identities(name: str, k: int) -> list[dict]:
    """The ``symbolic-identity`` certificates of the binomial expansions in :func:`_split_psi` at this k:
    (1-s)^k - 1 + k s = sum_{j>=2} C(k, j) (-s)^j and (1+u)^k - 1 - k u = sum_{j>=2} C(k, j) u^j (polynomials in
    one variable).  That eq. (3)'s psi equals q R1(t/q) + (1-q) R2(t/(1-q)) is the one line of that docstring
    (p/q = 1 - t/q, (1-p)/(1-q) = 1 + t/(1-q), and q k (t/q) = (1-q) k (t/(1-q)) = k t), not certified."""
    import sympy

    from rldp_verify.certificates.identity import identity_certificate

    s, u = sympy.symbols("s u")
    out = []
    for label, lhs, x, sign in (("R1", (1 - s) ** k - 1 + k * s, s, -1), ("R2", (1 + u) ** k - 1 - k * u, u, 1)):
        rhs = sum(sympy.binomial(k, j) * (sign * x) ** j for j in range(2, k + 1))
        doc = identity_certificate(f"{name}: alpha = {k}, {label}'s binomial expansion", lhs, rhs)
        out += [doc] if isinstance(doc, dict) else doc
    return out


def _chi2_identity(name: str) -> dict:
    """psi_2(p, t) - 4 t^2 = t^2 (1 - 2q)^2 / (q (1 - q)), q = p + t (eq. (3) at alpha = 2 is chi^2)."""
    import sympy

    from rldp_verify.certificates.identity import identity_certificate

    p, t = sympy.symbols("p t")
    q = p + t
    lhs = q * ((p / q) ** 2 - 1) + (1 - q) * (((1 - p) / (1 - q)) ** 2 - 1) - 4 * t**2
    rhs = t**2 * (1 - 2 * q) ** 2 / (q * (1 - q))
    doc = identity_certificate(f"{name}: alpha = 2, psi_2(p, t) - g_2(t) = t^2 (1 - 2q)^2 / (q (1 - q)), q = p + t "
                               "(>= 0 for every t < 1/2 and p in [0, 1-t))", lhs, rhs)
    return doc if isinstance(doc, dict) else doc[0]


# --- equalities certified "within 1e-30" whose two sides are rational: exactly instead ---

def _abs_arg(e):
    """e when ``e`` is abs_expr(e) = ["max", e, ["-", e]], else None."""
    if isinstance(e, list) and len(e) == 3 and e[0] == "max" and e[2] == ["-", e[1]]:
        return e[1]
    return None


def exact_ties(docs: list[dict]) -> tuple[list[dict], int]:
    """(the documents with, in each arb "within tol" certificate (``max_i |e_i| <= tol``), the instances whose e_i
    evaluates in exact rationals (+ - * /, integer powers: both sides of the equality rational) to exactly 0 moved
    to an exact certificate ``max |e_i| = 0`` (lower = upper = 0), the number moved).  An instance that is rational
    but not 0 stays in its "within" certificate (the equality is then false exactly, true within tol only)."""
    from rldp_verify.certificates.value import expr as json_expr
    from rldp_verify_check import CertificateError
    from rldp_verify_check.value import evaluate

    out, moved = [], 0
    for d in docs:
        st = d.get("statement", {})
        e = st.get("expr")
        binds = None
        if isinstance(e, list) and e and e[0] == "let":
            binds, e = e[1], e[2]
        args = [_abs_arg(a) for a in e[1:]] if isinstance(e, list) and e and e[0] == "max" else []
        if d.get("kind") != "rigorous-value" or st.get("exact") or st.get("forall") or not args or None in args:
            out.append(d)
            continue
        zero: list = []
        rest: list = []
        for a in args:
            try:
                v = evaluate(json_expr(["let", binds, a] if binds else a), None, exact=True)
            except (CertificateError, ZeroDivisionError, ValueError, TypeError):
                v = None
            (zero if v is not None and v == 0 else rest).append(a)
        if not zero:
            out.append(d)
            continue
        moved += len(zero)
        exact_max, rest_max = (["max", *(["max", a, ["-", a]] for a in xs)] for xs in (zero, rest))
        out.append(value_certificate(f"{d['name']}: the {len(zero)} with both sides rational, exactly "
                                     f"(each = 0)", ["let", binds, exact_max] if binds else exact_max,
                                     lower=0, upper=0, exact=True))
        if rest:
            out.append({**d, "name": f"{d['name']}: the other {len(rest)}",
                        "statement": {**st, "expr": ["let", binds, rest_max] if binds else rest_max}})
    return out, moved


def exact_ties_evidence(covers: str, builder, *args) -> dict:
    """A claim's certificate evidence ``{"certificate_covers": covers, **built(builder, *args)}`` with
    :func:`exact_ties` applied to the documents; when some equalities moved, ``covers`` says how many are now
    certified exactly (both sides rational) instead of within a tolerance."""
    return ties_evidence(covers, exact_ties, "; of the equalities listed, the {moved} whose two sides are rational "
                         "(their difference evaluates in exact rationals) are certified exactly (= 0) instead of "
                         "within the tolerance", builder, *args)


def ties_evidence(covers: str, ties, note: str, builder, *args) -> dict:
    """``{"certificate_covers": covers, **built(builder, *args)}`` with ``ties`` (documents -> (documents, number
    moved)) applied to the documents; when some equalities moved, ``note`` (with ``{moved}``) is added to ``covers``."""
    from rldp_verify.certificates.claims import KEY, built

    ev = built(builder, *args)
    if KEY not in ev:
        return {"certificate_covers": covers, **ev}
    docs, moved = ties(ev[KEY])
    if moved:
        covers += note.format(moved=moved)
    return {"certificate_covers": covers, KEY: docs}


def pair_audit_certificate(name: str, Q_y, a2: int, s1: int, s2: int, phat, alpha, B, lo, hi, entry: dict,
                           witness) -> dict:
    """The bracket [lo, hi] of sup_{P in F} P(y|s1)/P(y|s2) (F the Rényi ball) as an ``audit`` certificate, whose
    bounds the checker derives itself (not an expression the builder wrote): the audited channel is one row, Q' =
    (c q1 on the cells of s1, q2 on those of s2, kappa on the others), c, kappa > 0 rational (``"column_sums":
    "inexact"``: the checker's bounds read rows only), so P'(s1)/P'(s2) = c P(y|s1)/P(y|s2) for every P.  The pair
    (s1, s2) carries the entry scaled by c (r = c hi, t, mu1, mu2 times c: the weak-duality bound scales by c); every
    other pair Proposition 3's entry at R = c hi (t = 0), valid as c^2 >= max q2 / (hi min q1) and kappa lies between
    the other blocks' max / R and R min; with e^eps = R, PASS and ratio_lower = c lo at the witness, the checker's
    U <= R gives c sup P(y|s1)/P(y|s2) <= sup rho' <= R = c hi, i.e. sup <= hi.  (Its L >= c lo is the max over
    all pairs of the witness's ratios: the lower end of this pair is the exact ratio certificate of the claim.)"""
    import math

    from rldp_verify.certificates import envelope, qs

    a1 = len(phat)
    q1 = [Fraction(v) for v in Q_y[s1 * a2:(s1 + 1) * a2]]
    q2 = [Fraction(v) for v in Q_y[s2 * a2:(s2 + 1) * a2]]
    hi, lo = Fraction(hi), Fraction(lo)
    need = max(q2) / (hi * min(q1))
    c = Fraction(max(1, math.isqrt(math.ceil(need)) + 1))
    R = c * hi
    blocks = {s1: [c * v for v in q1], s2: q2}
    kappa = max(max(c * max(q1), max(q2)) / R, Fraction(1, 10**6))
    row = [v for s in range(a1) for v in blocks.get(s, [kappa] * a2)]
    pairs = []
    for s in range(a1):
        for t in range(a1):
            if s == t:
                continue
            b1, b2 = row[s * a2:(s + 1) * a2], row[t * a2:(t + 1) * a2]
            if (s, t) == (s1, s2):
                e = {"r": R, **{k: c * Fraction(entry[k]) for k in ("t", "mu1", "mu2")}}
            else:
                if max(b1) > R * min(b2):
                    raise ValueError(f"Proposition 3 does not bound the pair ({s}, {t}) of the scaled row at R")
                e = {"r": R, "t": Fraction(0), "mu1": max(b1), "mu2": -R * min(b2)}
            pairs.append({"y": 0, "s": s, "s_prime": t, **{k: qs(v) for k, v in e.items()}})
    table = [[qs(v) for v in r] for r in phat]
    st = {"Q": [[qs(v) for v in row]], "sizes": [a1, a2], "column_sums": "inexact",
          "set": {"type": "renyi-ball", "phat": table, "alpha": qs(alpha), "radius": qs(B)},
          "eps": {"exp_eps": qs(R)}, "verdict": "PASS", "ratio_upper": qs(R), "ratio_lower": qs(c * lo)}
    data = {"witness": [[qs(v) for v in r] for r in witness], "pairs": pairs}
    return envelope("audit", f"{name}: sup P(y|{s1})/P(y|{s2}) <= hi, as the audit of one row scaled by c = {c} "
                             "(U <= c hi)", st, data)
