"""Certificates of Taylor coefficients (issue 23): the ``series`` kind (:mod:`rldp_verify_check.series`).

A printed expansion "f = g + O((x - x0)^k)" of a function that is not rational in x (logs, exp) is refuted by one
Taylor coefficient c_j (j < k) of f - g that is certainly non-zero; the limit at x0 of an f analytic at x0 is its c_0;
a function with a pole of order m is certified through the analytic (x - x0)^m f.  The builders write f and g from the
paper's formulas (Python functions called with :class:`~rldp_verify.certificates.series.Formula` arguments: the tree
is the formula, unevaluated) and the paper's printed coefficients, never the engine's values; the sign a certificate
states is the one the checker itself finds (:func:`coefficient_sign_certificate` tries both sides), so a wrong side or
a zero coefficient yields no certificate, never a false one.

- :func:`series_certificate` -- the document: enclosures of c_j of an expression in ``$x`` at x0;
- :func:`coefficient_sign_certificate`, :func:`expansion_refutation` -- c_j certainly > 0 or < 0;
- the paper's expansions: :func:`eq86_certificate` (Kairouz et al. (86)), :func:`cor9_certificate` (the display
  after Corollary 9), :func:`eq101_certificate` ((101)), :func:`eq71_certificate` (ISIT App. C (71)),
  :func:`rr_tie_certificates` (Theorem 8 under a likelihood-ratio tie), :func:`eq87_certificates` ((87)-(88)).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from rldp_verify.certificates import envelope, qs
from rldp_verify.certificates.series import Formula
from rldp_verify.certificates.value import expr

X = Formula("$x")


def log(a) -> Formula:
    """log(a) (the checker requires a's constant term certainly > 0)."""
    return Formula(["log", Formula.of(a)])


def exp(a) -> Formula:
    """e^a."""
    return Formula(["exp", Formula.of(a)])


def _tree(f):
    return expr(Formula.of(f) if isinstance(f, Formula) else f)


def series_certificate(name: str, f, coefficients, *, at=0, strict: bool = False, prec: int = 128) -> dict:
    """The ``series`` certificate of lower <= c_j <= upper (``<`` with ``strict``) for each ``(j, lower, upper)``
    (an end may be None), c_j the Taylor coefficients of ``f`` (a Formula or a tree in ``$x``) at ``at``."""
    rows = [[j, None if lo is None else qs(lo), None if hi is None else qs(hi)] for j, lo, hi in coefficients]
    return envelope("series", name, {"expr": _tree(f), "at": qs(Fraction(at)), "coefficients": rows,
                                     "strict": strict, "prec": prec}, {})


def coefficient_sign_certificate(name: str, f, j: int, *, at=0, prec: int = 128) -> dict:
    """The ``series`` certificate that c_j of ``f`` at ``at`` is certainly non-zero, on the side the checker finds
    (it decides both sides itself); a zero, undecided or not-analytic coefficient raises ValueError."""
    from rldp_verify.certificates import recheck

    tried = []
    for lo, hi, rel in ((0, None, "> 0"), (None, 0, "< 0")):
        doc = series_certificate(f"{name}: c_{j} {rel}", f, [(j, lo, hi)], at=at, strict=True, prec=prec)
        got = recheck(doc)
        if got.ok:
            return doc
        tried.append(got.message)
    raise ValueError(f"{name}: c_{j} is not certainly non-zero ({'; '.join(tried)})")


def expansion_refutation(name: str, f, g, j: int, *, at=0) -> dict:
    """A refutation of "f = g + O((x - at)^k)" for any k > j: c_j of f - g certainly non-zero."""
    return coefficient_sign_certificate(name, ["-", Formula.of(f), Formula.of(g)], j, at=at)


def eq86_certificate(p, q) -> dict:
    """Kairouz et al. (86) at P0(T_j) = p, P1(T_j) = q, in s = e^-eps (``$x``): s mu_j with mu_j of (83),
    mu_j = (p(t - 1) + 1) log((p(t - 1) + 1) / (q(t - 1) + 1)), t = e^eps = 1/s, so s mu_j = (p + s(1 - p))
    log((p + s(1 - p)) / (q + s(1 - q))); (86) printed times s: p log(p/q) + s (1 - p) log(p/q) + O(s^2).  Their
    s^1 coefficients differ (by 1 - p/q): c_1 of the difference is certainly non-zero."""
    s, p, q = X, Fraction(p), Fraction(q)
    a, b = p + s * (1 - p), q + s * (1 - q)
    printed = p * log(p / q) + s * (1 - p) * log(p / q)
    return expansion_refutation(f"Kairouz (86) times s = e^-eps, P0(T_j) = {p}, P1(T_j) = {q}", a * log(a / b),
                                printed, 1)


def cor9_certificate(p, q) -> dict:
    """The display after Kairouz et al.'s Corollary 9 (middle line) at P0(T) = p, P1(T) = q, in eps (``$x``): the
    binary mechanism's M_i(T) = (e^eps P_i(T) + 1 - P_i(T)) / (e^eps + 1), M_i(T^c) = 1 - M_i(T), and D_kl(M0||M1) =
    sum_y M0(y) log(M0(y) / M1(y)) against (e^eps - 1)^2 / (e^eps + 1) (P0(T) - P1(T)): c_2 of the difference is
    certainly non-zero, so the difference is not O(eps^3)."""
    t, p, q = exp(X), Fraction(p), Fraction(q)
    m0, m1 = (t * p + 1 - p) / (t + 1), (t * q + 1 - q) / (t + 1)
    kl = m0 * log(m0 / m1) + (1 - m0) * log((1 - m0) / (1 - m1))
    printed = (t - 1) * (t - 1) / (t + 1) * (p - q)
    return expansion_refutation(f"Kairouz Cor. 9 display, P0(T) = {p}, P1(T) = {q}: KL vs the middle line", kl,
                                printed, 2)


def eq101_certificate() -> dict:
    """Kairouz et al. (101), first expansion as printed: e^eps = 1 + eps + (1/2) eps + O(eps^3); c_1 of
    e^eps - (1 + eps + eps/2) (it is 1 - 3/2) is certainly non-zero."""
    return expansion_refutation("Kairouz (101): e^eps - (1 + eps + eps/2) in eps", exp(X), 1 + X + X / 2, 1)


def _rr_reduced_cost(m: dict, s, k: int, T, with_mu: bool = True) -> Any:
    """h_T(s) = s g_T(1/s), g_T = S_T^T alpha* - mu(S_T) the reduced cost of pattern T in the proof of Kairouz et al.'s
    Theorem 8 (Sec. 8.4), from m_A = s mu(S_A) (keys: the inputs i and "T"): alpha* of (82) at t = 1/s with numerator
    and denominator times s^2 is a_i = ((1 + (k - 2) s) m_i - s sum_{l != i} m_l) / ((1 - s)(1 + (k - 1) s)), and
    s g_T = sum_{i in T} a_i + s sum_{i not in T} a_i - m_T (without ``with_mu``: s S_T^T alpha*, no - m_T).  Linear
    in the m_A; any arithmetic type."""
    a = [((1 + (k - 2) * s) * m[i] - s * sum(m[j] for j in range(k) if j != i)) / ((1 - s) * (1 + (k - 1) * s))
         for i in range(k)]
    return sum(a[i] for i in T) + s * sum(a[i] for i in range(k) if i not in T) - (m["T"] if with_mu else 0)


def rr_leading_certificates(P0, P1, T, claimed: dict, *, with_mu: bool = True, what: str = "h_T(s) = s g_T(1/s)"
                            ) -> tuple[list[dict], Formula]:
    """(certificates, the series f) that the e^eps coefficient of Kairouz et al.'s g_T (or of S_T^T alpha* without
    ``with_mu``) is sum_A claimed[A] log(p_A/q_A) (A an input i or "T"): f = h_T(s) - that sum has c_0 = 0 exactly.
    With mu(S_A) = (p_A (t - 1) + 1) log((p_A (t - 1) + 1) / (q_A (t - 1) + 1)) (83), p_A = P0(A), q_A = P1(A),
    s = 1/t = e^-eps, m_A = s mu(S_A) = (p_A + s(1 - p_A)) (log(p_A/q_A) + l_A(s)) with l_A(s) = log(1 + s(1 - p_A)/p_A)
    - log(1 + s(1 - q_A)/q_A) (a log rule; l_A(0) = log 1 = 0 exactly).  h_T is linear in the m_A, so f = sum over the
    distinct ratios rho = p_A/q_A of log(rho) (h_rho(s) - sum_{A: p_A/q_A = rho} claimed[A]) + h_T(m^l), with h_rho =
    h_T(m_A = [p_A/q_A = rho] (p_A + s(1 - p_A))) rational.  Certificates: per rho a ``symbolic-identity``
    h_rho(s) - sum claimed = s R_rho(s), and the ``series`` of sum_rho log(rho) s R_rho(s) + h_T(m^l) at s = 0 with
    c_0 = 0 (exactly: every term's constant term is an exact 0 in arb), so f is O(s) and g_T(e^eps) = claimed e^eps +
    O(1).  ValueError when some rho part does not vanish at s = 0 (the claimed coefficient is not the series')."""
    import sympy

    from rldp_verify.certificates.identity import to_tree, tree_identity_certificate

    k, T = len(P0), list(T)
    sets: dict[int | str, list] = {**{i: [i] for i in range(k)}, "T": T}
    p = {A: sum(Fraction(P0[i]) for i in S) for A, S in sets.items()}
    q = {A: sum(Fraction(P1[i]) for i in S) for A, S in sets.items()}
    name = f"Kairouz Thm. 8, P0 = {[str(x) for x in P0]}, P1 = {[str(x) for x in P1]}, pattern {T}: {what}"
    x, docs, parts = sympy.Symbol("x"), [], []
    for rho in sorted({p[A] / q[A] for A in sets}):
        def part(s, rho=rho):
            m = {A: (p[A] + s * (1 - p[A])) if p[A] / q[A] == rho else 0 for A in sets}
            return _rr_reduced_cost(m, s, k, T, with_mu) - sum(Fraction(c) for A, c in claimed.items()
                                                                 if p[A] / q[A] == rho)
        R = sympy.cancel(part(x) / x)
        if sympy.denom(R).subs(x, 0) == 0:
            raise ValueError(f"{name}: the log({rho}) part does not vanish at s = 0")
        docs.append(tree_identity_certificate(f"{name}: its log({rho}) part is s R(s)", expr(Formula.of(part(X))),
                                              ["*", "$x", to_tree(R)], words="s = e^-eps as $x"))
        parts.append(log(rho) * Formula(["*", "$x", to_tree(R)]))
    ml = {A: (p[A] + X * (1 - p[A])) * (log(1 + X * (1 - p[A]) / p[A]) - log(1 + X * (1 - q[A]) / q[A])) for A in sets}
    f = sum(parts, _rr_reduced_cost(ml, X, k, T, with_mu))
    docs.append(series_certificate(f"{name}: c_0 = 0", f, [(0, 0, 0)]))
    return docs, f


def rr_tie_certificates(P0, P1, T) -> list[dict]:
    """'RR is optimal for every eps >= eps*' (Kairouz et al. Theorem 8) refuted by pattern T's reduced cost under a
    likelihood-ratio tie: :func:`rr_leading_certificates` with the e^eps coefficient 0 (h_T(0) = 0: the tie), and
    c_1 < 0 of h_T.  Then h_T(s) < 0 on some (0, s0] and g_T(e^eps) = h_T(e^-eps) e^eps < 0 for every
    eps > log(1/s0)."""
    docs, h = rr_leading_certificates(P0, P1, T, {})
    return [*docs, coefficient_sign_certificate(docs[-1]["name"].removesuffix(": c_0 = 0"), h, 1)]


def eq87_certificates(P0, P1, T) -> list[dict]:
    """Kairouz et al. (87)-(88): the e^eps coefficient of S_T^T alpha* is sum_{i in T} P0(x_i) log(P0(x_i)/P1(x_i)), and
    that of the reduced cost S_T^T alpha* - mu(S_T) is the same minus P0(T) log(P0(T)/P1(T))
    (:func:`rr_leading_certificates`, the claimed coefficients as printed)."""
    printed = {i: P0[i] for i in T}
    return [*rr_leading_certificates(P0, P1, T, printed, with_mu=False, what="s S_T^T alpha*(1/s) (87)")[0],
            *rr_leading_certificates(P0, P1, T, {**printed, "T": -sum(P0[i] for i in T)})[0]]


def eq71_certificates(lam, C) -> list[dict]:
    """ISIT App. C (71) as printed, f(c) = h*(t/c) + c C with h*(t/c) = -K (lambda / sqrt(c))^(2/3) (Lemma 8,
    K = 2^(-2/3) + 2^(1/3), lambda = sum_u P_hat_u sqrt(w_u - v_u)), is unbounded below as c -> 0+: with c = u^3
    (u > 0), (lambda / u^(3/2))^(2/3) = lambda^(2/3) / u, so u f(u^3) = -K lambda^(2/3) + C u^4, analytic at u = 0 with
    c_0 = -K lambda^(2/3) < 0 (the ``series`` certificate), hence f(u^3) -> -inf as u -> 0+."""
    K = Formula(["pow", 2, "-2/3"]) + Formula(["pow", 2, "1/3"])
    f = -K * Formula(["pow", qs(Fraction(lam)), "2/3"]) + Fraction(C) * X * X * X * X
    return [coefficient_sign_certificate(f"ISIT (71) as printed, lambda = {lam}, C = {C}: u (71)(c = u^3)", f, 0)]


def rr_level_limit_certificate(t, alpha) -> dict:
    """The Rényi-alpha LDP level of randomized response RR_N (rows t/(N - 1 + t) on the diagonal, 1/(N - 1 + t) off it)
    tends to 0 as N -> inf: two rows differ in two entries, so sum_y P(y)^alpha P'(y)^(1 - alpha) = (t^alpha +
    t^(1 - alpha) + N - 2) / (N - 1 + t) (the N - 2 equal terms collected), and in x = 1/N the level
    log(...)/(alpha - 1) is log((x (t^alpha + t^(1 - alpha) - 2) + 1) / (1 + x (t - 1))) / (alpha - 1), analytic at
    x = 0 with c_0 = log 1 / (alpha - 1) = 0 (exactly: arb's constant term is the exact 1)."""
    t, a = Fraction(t), Fraction(alpha)
    s = Formula(["pow", qs(t), qs(a)]) + Formula(["pow", qs(t), qs(1 - a)])
    level = log((X * (s - 2) + 1) / (1 + X * (t - 1))) / (a - 1)
    return series_certificate(f"RR_N's Rényi-{a} LDP level at e^eps = {t} in x = 1/N: the limit N -> inf is c_0 = 0",
                              level, [(0, 0, 0)])


def large_n_certificates(E, alpha: int = 3) -> list[dict]:
    """f-alpha Example 12 (large N): the bound log(1 + R_alpha(Gamma_max, 1/Gamma_max)) / (alpha - 1) with
    Gamma_max(Q^(N)) = (N + 2E - 2)/N tends to 0 as N -> inf.  R_alpha(u, v) = (u^alpha - 1)/(u - 1) -
    (1 - v^alpha)/(1 - v) (eq. (23)) at v = 1/u is 0/0 at u = 1: a ``symbolic-identity`` rewrites it as
    sum_{i < alpha} u^i - sum_{i < alpha} u^-i (integer alpha), and the ``series`` of the bound in x = 1/N
    (u = 1 + (2E - 2) x) has c_0 = 0 exactly."""
    from rldp_verify.certificates.identity import tree_identity_certificate

    u, E, a = Formula("$u"), Fraction(E), int(alpha)

    def poly(u):
        return sum((u ** i for i in range(1, a)), 1) - sum(((1 / u) ** i for i in range(1, a)), 1)
    quotient = (u ** a - 1) / (u - 1) - (1 - (1 / u) ** a) / (1 - 1 / u)
    g = 1 + (2 * E - 2) * X
    return [tree_identity_certificate(f"R_{a}(u, 1/u) of eq. (23) as polynomials in u, 1/u", expr(quotient.node),
                                      expr(poly(u).node)),
            series_certificate(f"log(1 + R_{a}(Gamma_max, 1/Gamma_max))/{a - 1}, Gamma_max = (N + {2 * E - 2})/N, in "
                               "x = 1/N: the limit N -> inf is c_0 = 0", log(1 + poly(g)) / (a - 1), [(0, 0, 0)])]
