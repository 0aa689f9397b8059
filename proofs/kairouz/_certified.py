"""Certificates (issue 23) for the claims of Kairouz, Oh & Viswanath: expressions of the checker's language
(:mod:`rldp_verify_check.value`) for the paper's quantities, and the weak-duality certificate of an upper
bound on the optimum of the staircase LP (11).

Expressions are built from exact rationals only; the checker evaluates them itself in arb.

- :func:`kl_expr`, :func:`g_expr` -- D_kl(P0||P1) and G(P0, P1) = sum_x (1 - P0(x)) log(P1(x)/P0(x)) (Sec. 3);
- :func:`rr_kl_expr` -- D_kl(M0||M1) of randomized response (21) at e^eps = exp(eps), eq. (92);
- :func:`mu_expr` -- mu(S_j) of a column for KL (f(x) = x log x), symmetrised KL ((x - 1) log x), mutual
  information (eq. (96)) and chi^2 / TV (exact);
- :func:`utility_expr` -- U(Q) = sum_y mu(Q_y) (eq. (8));
- :func:`staircase_bound_certificate` -- OPT of LP (11) <= a bound, by a rational dual alpha with
  S_j^T alpha >= mu(S_j) for every pattern column j (weak duality: OPT <= 1^T alpha);
- :func:`staircase_optimum_certificates` -- a feasible theta of LP (11) is optimal (exact utilities: an
  lp-optimum) or within a stated tolerance of the optimum (utilities with logarithms);
- :func:`feasibility_certificate` -- a point of {x >= 0 : A x <= b, E x = f} (an lp-optimum of max 0).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.value import value_certificate
from rldp_verify.topics.extremal.staircase import pattern_matrix

F = Fraction
ETA = Fraction(1, 10 ** 30)   # default slack added to a rational dual


def _dot(P, col) -> Fraction:
    return sum((F(p) * F(c) for p, c in zip(P, col, strict=True)), F(0))


def kl_expr(P0, P1) -> list:
    """D_kl(P0||P1) = sum_x P0(x) log(P0(x)/P1(x)) (cells with P0(x) = 0 contribute 0)."""
    return ["+", 0, *[["*", F(a), ["log", F(a) / F(b)]] for a, b in zip(P0, P1, strict=True) if a != 0]]


def g_expr(P0, P1) -> list:
    """G(P0, P1) = sum_x (1 - P0(x)) log(P1(x)/P0(x)) (Sec. 3, Corollary 10)."""
    return ["+", 0, *[["*", 1 - F(a), ["log", F(b) / F(a)]] for a, b in zip(P0, P1, strict=True)]]


def rr_kl_expr(P0, P1, eps) -> list:
    """D_kl(M0||M1) of randomized response at t = e^eps (eq. (92)):
    sum_x (P0(x)(t-1)+1) log((P0(x)(t-1)+1)/(P1(x)(t-1)+1)) / (t + k - 1)."""
    k = len(P0)
    terms = []
    for a, b in zip(P0, P1, strict=True):
        num = ["+", ["*", F(a), ["-", "$t", 1]], 1]
        den = ["+", ["*", F(b), ["-", "$t", 1]], 1]
        terms.append(["*", num, ["log", ["/", num, den]]])
    return ["let", [["t", ["exp", F(eps)]]], ["/", ["+", 0, *terms], ["+", "$t", k - 1]]]


def mu_expr(name: str, col, *, P0=None, P1=None, P=None, gamma=None):
    """mu(S_j) for the column ``col`` (exact numbers) as an expression (or an exact rational for chi2 / tv)."""
    col = [F(c) for c in col]
    if name == "mi":   # eq. (96): sum_i P_i c_i log(c_i / P.c), the engine's one builder
        from rldp_verify.certificates.staircase import mu_expr as mi_mu_expr

        return mi_mu_expr(col, [F(p) for p in P])
    a, b = _dot(P0, col), _dot(P1, col)
    if name == "kl":
        return 0 if a == 0 else ["*", a, ["log", a / b]]
    if name == "symkl":
        return ["*", a - b, ["log", a / b]]
    if name == "chi2":
        return (a - b) ** 2 / b
    if name == "tv":
        return abs(a - b) / 2
    if name == "hockey":   # E_gamma: (P0.c - gamma P1.c)_+
        return max(a - F(gamma) * b, F(0))
    raise ValueError(f"unknown utility {name!r}")


def utility_expr(name: str, Q, **dists) -> list:
    """U(Q) = sum_y mu(Q_y) (eq. (8)) for a mechanism given by rows Q[x][y]; zero columns contribute 0."""
    k = len(Q)
    cols = [[F(Q[i][y]) for i in range(k)] for y in range(len(Q[0]))]
    return ["+", 0, *[mu_expr(name, c, **dists) for c in cols if any(c)]]


def _rational_dual(alpha, eta: Fraction, digits: int = 40) -> list[Fraction]:
    """A rational alpha' >= alpha + eta/k entrywise (arb balls rounded up, then up to ``digits`` decimals):
    S_j >= 1 entrywise, so S_j^T alpha' >= S_j^T alpha + eta for every column (the reduced costs move up)."""
    import math

    import flint

    from rldp_verify.core.rigorous import as_arb, upper

    k, scale = len(alpha), 10 ** digits
    with flint.ctx.workprec(4 * digits):   # keep the balls' own precision (as_arb rounds to the context's)
        return [F(math.ceil((upper(as_arb(a)) + eta / k) * scale), scale) for a in alpha]


def staircase_bound_certificate(name: str, k: int, t, mu: str, bound, alpha, *, eta=ETA,
                                **dists) -> dict:
    """The ``rigorous-value`` certificate of OPT(LP (11)) <= ``bound`` (an expression) for the utility ``mu``
    ("kl", "symkl", "mi", ...) at t = e^eps: with the rational dual alpha' (from the engine's ``alpha``, see
    :func:`_rational_dual`), min( min_j [S_j^T alpha' - mu(S_j)], bound - 1^T alpha' ) >= 0, over all 2^k pattern
    columns S_j of S^(k) (eq. (10)). By weak duality OPT = max {mu^T theta : S theta = 1, theta >= 0} <=
    1^T alpha' <= bound. The checker evaluates every mu(S_j) and the bound itself."""
    t = F(t)
    a = _rational_dual(alpha, F(eta))
    rcs = [["-", sum((ai * c for ai, c in zip(a, col, strict=True)), F(0)), mu_expr(mu, col, **dists)]
           for col in pattern_matrix(k, t)]
    return value_certificate(name, ["min", *rcs, ["-", bound, sum(a, F(0))]], lower=0)



def feasibility_certificate(name: str, x, A=(), b=(), E=(), f=()) -> dict:
    """The ``lp-optimum`` certificate of max 0 over {x >= 0 : A x <= b, E x = f} at the exact point ``x`` (all
    multipliers 0): the checker verifies that x is feasible, i.e. that the system has a non-negative solution."""
    from rldp_verify.certificates import envelope, qs
    from rldp_verify.certificates.lp import _rows

    n = len(x)
    st = {"sense": "max", "c": [0] * n, "A": _rows(A), "b": [qs(v) for v in b], "E": _rows(E),
          "f": [qs(v) for v in f], "value": 0, "lower": [0] * n}
    return envelope("lp-optimum", name, st, {"x": [qs(v) for v in x], "y": [0] * (len(A) + len(E)), "d": [0] * n})


EXACT_UTILITIES = ("chi2", "tv", "hockey")


def precise_dual(k: int, t, mu: str, basis, *, bits: int = 320, **dists) -> list:
    """The dual alpha = (S_B^T)^-1 mu_B of the basis ``basis`` of LP (11) (S_B^T exact, inverted in fmpq), with
    the mu_B evaluated in arb at ``bits`` bits (far tighter balls than the engine's alpha, whose radius limits
    the tolerance of a weak-duality certificate)."""
    import flint

    from rldp_verify.certificates.value import expr
    from rldp_verify_check.value import evaluate

    cols = pattern_matrix(k, F(t))
    M = flint.fmpq_mat(k, k, [flint.fmpq(F(cols[j][i]).numerator, F(cols[j][i]).denominator)
                              for j in basis for i in range(k)])
    Minv = M.inv()
    with flint.ctx.workprec(bits):
        mu_B = [evaluate(expr(mu_expr(mu, cols[j], **dists))) for j in basis]
        out = []
        for i in range(k):
            s = flint.arb(0)
            for r in range(k):
                v = Minv[i, r]
                s += flint.arb(v.p) / flint.arb(v.q) * mu_B[r]
            out.append(s)
    return out


def staircase_optimum_certificates(name: str, k: int, t, mu: str, theta, sol, **dists) -> list[dict]:
    """That ``theta`` (exact, one entry per pattern column) is optimal for LP (11) max mu^T theta s.t.
    S^(k) theta = 1, theta >= 0, given ``sol`` (the engine's :class:`StaircaseSolution` of the same LP, for its dual).

    Exact utilities (chi2, tv, hockey): one ``lp-optimum`` with x = theta, the equality multipliers alpha and the
    bound multipliers S_j^T alpha - mu_j: the checker proves mu^T theta = OPT exactly. Utilities with logarithms:
    ``feasibility_certificate`` of theta and a ``rigorous-value`` min( min_j [S_j^T alpha' - mu_j],
    mu^T theta - 1^T alpha' + tol ) >= 0 with a rational dual alpha' (weak duality): OPT - tol <= mu^T theta, the
    tolerance tol = 10 (gap + 1e-30) stated in the name (an equality of irrational optima is not decidable in arb)."""
    t = F(t)
    cols = pattern_matrix(k, t)
    n = len(cols)
    theta = [F(v) for v in theta]
    E = [[F(cols[j][i]) for j in range(n)] for i in range(k)]
    if mu in EXACT_UTILITIES:
        from rldp_verify.certificates import envelope, qs
        from rldp_verify.certificates.lp import _rows

        mus = [F(mu_expr(mu, c, **dists)) for c in cols]
        alpha = [F(a) for a in sol.alpha]
        rc = [sum((a * c for a, c in zip(alpha, col, strict=True)), F(0)) - m for col, m in zip(cols, mus, strict=True)]
        A = [[F(-1) if j == i else F(0) for j in range(n)] for i in range(n)]
        st = {"sense": "max", "c": [qs(m) for m in mus], "A": _rows(A), "b": [0] * n, "E": _rows(E), "f": [1] * k,
              "value": qs(sum((m * x for m, x in zip(mus, theta, strict=True)), F(0)))}
        data = {"x": [qs(x) for x in theta], "y": [qs(v) for v in rc + alpha], "d": [0] * n}
        return [envelope("lp-optimum", f"{name}: theta optimal for LP (11), {mu}", st, data)]
    tol = 10 * (F(sol.gap) + ETA)
    a = _rational_dual(precise_dual(k, t, mu, sol.basis, **dists), F(sol.gap) + ETA)
    rcs = [["-", sum((ai * c for ai, c in zip(a, col, strict=True)), F(0)), mu_expr(mu, col, **dists)] for col in cols]
    value = ["+", 0, *[["*", x, mu_expr(mu, col, **dists)] for x, col in zip(theta, cols, strict=True) if x != 0]]
    return [feasibility_certificate(f"{name}: theta feasible for LP (11)", theta, E=E, f=[1] * k),
            value_certificate(f"{name}: mu^T theta >= OPT(LP (11)) - {tol} ({mu}, weak duality)",
                              ["min", *rcs, ["+", ["-", value, sum(a, F(0))], tol]], lower=0)]


def staircase_better_certificates(name: str, k: int, t, mu: str, better, theta, **dists) -> list[dict]:
    """That the mechanism ``theta`` (exact, one entry per pattern column) is not optimal for LP (11): a feasible
    ``better`` (checked as a point of S^(k) x = 1, x >= 0) with mu^T better - mu^T theta > 0 (the checker evaluates
    both utilities in arb)."""
    t = F(t)
    cols = pattern_matrix(k, t)
    E = [[F(cols[j][i]) for j in range(len(cols))] for i in range(k)]

    def value(th):
        return ["+", 0, *[["*", F(x), mu_expr(mu, col, **dists)] for x, col in zip(th, cols, strict=True) if x != 0]]
    return [feasibility_certificate(f"{name}: the better theta is feasible for LP (11)", better, E=E, f=[1] * k),
            value_certificate(f"{name}: mu^T theta' > mu^T theta ({mu})", ["-", value(better), value(theta)],
                              lower=0, strict=True)]


def rr_theta(k: int, t) -> list[Fraction]:
    """Randomized response (21) as theta of LP (11): 1/(t + k - 1) on each singleton pattern."""
    from rldp_verify.topics.extremal.staircase import pattern_index

    th = [F(0)] * 2 ** k
    for i in range(k):
        th[pattern_index(frozenset({i}), k)] = 1 / (F(t) + k - 1)
    return th


def binary_theta(k: int, t, T) -> list[Fraction]:
    """The binary mechanism on T (eqs. (18), (29)) as theta of LP (11): 1/(1 + t) on the patterns of T and T^c."""
    from rldp_verify.topics.extremal.staircase import pattern_index

    th = [F(0)] * 2 ** k
    for A in (frozenset(T), frozenset(range(k)) - frozenset(T)):
        th[pattern_index(A, k)] = 1 / (1 + F(t))
    return th
