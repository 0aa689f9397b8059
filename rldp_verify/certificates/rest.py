"""Certificates of the last limits (issue 23, helper ``rest``): a limit whose value is an exact equality of logarithms,
proved by a ``series`` constant term that arb computes as an exact 0.

- :func:`appb_limit_certificates` -- f-alpha App. B (74)-(79): lim_{gamma -> 0} D_alpha(P_Y^gamma || Q_Y^gamma) /
  D_alpha(P_X^gamma || Q_X^gamma) = 1 at an integer order alpha >= 2.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.identity import Tree, tree_identity_certificate
from rldp_verify.certificates.taylor import X, coefficient_sign_certificate, log, series_certificate


def appb_power_sums(g, W, i: int, j: int, N: int, a: int, *, cancelled: bool = True) -> tuple:
    """(S_in, S_out) of f-alpha App. B at gamma = ``g`` (a series ``Formula``, a :class:`Tree` or a number), integer
    order ``a`` >= 2: S_in = sum_x P^gamma(x)^a Q^gamma(x)^(1 - a) with P^gamma (74) = (1 - gamma) at x = i,
    gamma/(N - 1) elsewhere, Q^gamma (75) = (1 - gamma)/2 at i and j, gamma/(N - 2) elsewhere; S_out the same sum over
    the outputs y of P_Y = P^gamma W, Q_Y = Q^gamma W.  D_alpha = log(S)/(alpha - 1).  With ``cancelled`` an input
    x outside {i, j} contributes Q(x) (P(x)/Q(x))^a = gamma/(N - 2) ((N - 2)/(N - 1))^a (gamma cancelled: the form
    written as printed has 0^a / 0^(a - 1) at gamma = 0; :func:`appb_limit_certificates` proves the two equal)."""
    if isinstance(a, bool) or not isinstance(a, int) or a < 2:
        raise ValueError(f"the order must be an integer >= 2, not {a!r}")
    W = [[Fraction(w) for w in row] for row in W]
    P = [(1 - g) if x == i else g / (N - 1) for x in range(N)]
    Q = [(1 - g) / 2 if x in (i, j) else g / (N - 2) for x in range(N)]
    s_in = sum((Q[x] * Fraction(N - 2, N - 1) ** a if cancelled and x not in (i, j) else P[x] ** a * Q[x] ** (1 - a))
               for x in range(N))
    PY = [sum(P[x] * W[x][y] for x in range(N)) for y in range(len(W[0]))]
    QY = [sum(Q[x] * W[x][y] for x in range(N)) for y in range(len(W[0]))]
    s_out = sum(PY[y] ** a * QY[y] ** (1 - a) for y in range(len(W[0])))
    return s_in, s_out


def appb_limit_certificates(W, i: int, j: int, N: int, a: int) -> list[dict]:
    """f-alpha App. B: lim_{gamma -> 0} D_alpha(P_Y^gamma||Q_Y^gamma) / D_alpha(P_X^gamma||Q_X^gamma) = 1 at the
    integer order ``a`` (:func:`appb_power_sums`).  The ratio is log S_out / log S_in = 1 + h / log S_in with
    h = log(S_out / S_in).  Certificates: a ``symbolic-identity`` S_in as printed = S_in with gamma cancelled (rational
    in gamma); the ``series`` of h in gamma at 0 with c_0 = 0 (S_out and S_in are analytic at 0 with constant terms
    S_out(0) = S_in(0) = ((1 - 0)/2)^(1 - a) > 0; arb computes h(0) = log 1 as an exact 0 when these are dyadic, else
    the checker rejects) and of log S_in with c_0 > 0.  Then h -> 0 and log S_in -> c > 0, so the ratio -> 1.
    Nothing is decided here: a part that does not hold is written and the checker rejects it (log S_in's sign is the
    one the checker finds, ValueError when it finds none)."""
    name = f"f-alpha App. B, W = {[[str(w) for w in r] for r in W]}, i = {i}, j = {j}, N = {N}, alpha = {a}"
    g = Tree.var("gamma")
    printed, cancelled = appb_power_sums(g, W, i, j, N, a, cancelled=False)[0], appb_power_sums(g, W, i, j, N, a)[0]
    s_in, s_out = appb_power_sums(X, W, i, j, N, a)
    docs = [tree_identity_certificate(f"{name}: S_in as printed (74)-(75) = S_in with gamma cancelled", printed,
                                      cancelled, words="gamma > 0"),
            series_certificate(f"{name}, in gamma: log(S_out / S_in) has c_0 = 0", log(s_out / s_in), [(0, 0, 0)]),
            coefficient_sign_certificate(f"{name}, in gamma: log S_in (alpha - 1 times D_alpha of the inputs)",
                                         log(s_in), 0)]
    return docs



def cor15_binary_mi(t, z, L1, L2, L3):
    """The binary mechanism's I(X;Y) as the claim kairouz.cor15.mi-small-eps writes it, t = e^eps, z = P(T), with
    L1 = log t, L2 = log(1 + (t - 1) z), L3 = log(1 + (t - 1)(1 - z)); any arithmetic type."""
    return (1 / (t + 1)) * (z * t * (L1 - L2) - (1 - z) * L2) + (1 / (t + 1)) * ((1 - z) * t * (L1 - L3) - z * L3)


def cor15_binary_mi_certificates(printed=cor15_binary_mi) -> list[dict]:
    """Kairouz et al. Corollary 15 (the display after (31)): the binary mechanism's I(X;Y) = (1/2) P(T)P(T^c) eps^2
    + O(eps^3), for every z = P(T) in (0, 1), in a = e^eps - 1 = eps + O(eps^2) (so O(a^3) = O(eps^3) and a^2 =
    eps^2 + O(eps^3)).  With t = 1 + a, I as printed (``printed``: :func:`cor15_binary_mi`) is sum_k A_k(a, z) L_k
    with the log atoms L_1 = log(1 + a), L_2 = log(1 + a z), L_3 = log(1 + a (1 - z)) (b_k = 1, z, 1 - z) and A_k
    rational.  With m(u) = log(1 + u) - u + u^2/2:

        I = a^2 z (1 - z)/2 + a^3 R(a, z) + sum_k A_k(a, z) m(b_k a),

    R = (sum_k A_k (b_k a - (b_k a)^2/2) - a^2 z (1 - z)/2) / a^3 cancelled (a ``symbolic-identity`` with the three
    atoms, each log written as a node log(1 + b_k a) that the checker proves equal to its atom, for every a and z),
    and m has c_0 = c_1 = c_2 = 0 at u = 0 (a ``series``: arb's log(1 + u) coefficients
    0, 1, -1/2 are exact), so m(u) = u^3 M(u) with M analytic.  R and the A_k are polynomials in z over powers of
    t + 1 = 2 + a (ValueError otherwise), analytic at a = 0: I - a^2 z (1 - z)/2 = a^3 (R + sum_k A_k b_k^3
    M(b_k a)) = O(a^3)."""
    import sympy

    from rldp_verify.certificates.identity import to_tree
    from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate

    a, z = sympy.symbols("a z")
    b = [sympy.Integer(1), z, 1 - z]
    L = sympy.symbols("L1 L2 L3")
    t = 1 + a
    mi = printed(t, z, *L)
    A = [sympy.cancel(sympy.expand(mi).coeff(Lk)) for Lk in L]
    lead = a ** 2 * z * (1 - z) / 2
    R = sympy.cancel((sum(Ak * (bk * a - (bk * a) ** 2 / 2) for Ak, bk in zip(A, b, strict=True)) - lead) / a ** 3)
    for name, e in (("R", R), *((f"A_{k + 1}", Ak) for k, Ak in enumerate(A))):
        den = sympy.Poly(sympy.denom(e), a, z)
        if den.degree(z) > 0 or den.as_expr().subs(a, 0) == 0:
            raise ValueError(f"{name}'s denominator {den.as_expr()} vanishes at a = 0 or depends on z")
    at = Atoms()
    av, zv = Tree.var("a"), Tree.var("z")
    bv = [1, zv, 1 - zv]
    for k, bk in enumerate(bv):    # each log written as a node log(1 + b_k a) that the checker proves equal to L_k
        at.log(f"L{k + 1}", 1 + bk * av)
    Lv = [at.log_of(1 + bk * av, {f"L{k + 1}": 1}) for k, bk in enumerate(bv)]
    tv = 1 + av
    lhs = printed(tv, zv, *Lv)
    rhs = av * av * zv * (1 - zv) / 2 + av * av * av * Tree(to_tree(R)) + sum(
        (Tree(to_tree(Ak)) * (Lk - (bk * av - (bk * av) * (bk * av) / 2))
         for Ak, Lk, bk in zip(A, Lv, bv, strict=True)), Tree(0))
    name = "Kairouz Cor. 15, the binary mechanism's I(X;Y) in a = e^eps - 1, z = P(T)"
    return [log_identity_certificate(f"{name}: I = a^2 z(1-z)/2 + a^3 R(a, z) + sum_k A_k m(b_k a)", lhs, rhs, at,
                                     words="the claim's printed I with log(1 + a), log(1 + a z), log(1 + a (1 - z)) as "
                                           "atoms; m(u) = log(1 + u) - u + u^2/2"),
            series_certificate("m(u) = log(1 + u) - u + u^2/2 at u = 0: c_0 = c_1 = c_2 = 0",
                               log(1 + X) - X + X * X / 2, [(0, 0, 0), (1, 0, 0), (2, 0, 0)])]


def _inverse_transpose(B: list) -> list:
    """M = (B^T)^-1 for the k columns ``B`` (exact: :func:`rldp_verify.core.linalg.exact_inverse`); ValueError when
    singular."""
    from rldp_verify.core.linalg import exact_inverse

    k = len(B)
    try:
        return exact_inverse([[Fraction(B[r][c]) for c in range(k)] for r in range(k)])   # (B^T)[r][c] = B[r][c]
    except ZeroDivisionError:
        raise ValueError("the basis columns are linearly dependent") from None


def binary_optimality_certificates(P, T, t, basis) -> list[dict]:
    """Kairouz et al. Theorem 12 at one rational t = e^eps: the binary mechanism on T (theta = 1/(1 + t) on the
    patterns S_T and S_T^c) is optimal for LP (11) with the MI utility mu(c) = sum_i P_i c_i log(c_i / P.c).  With
    the k basic patterns ``basis`` (0-based column indices of :func:`pattern_matrix`, containing T's and T^c's) and
    M = (S_B^T)^-1 exact, the dual alpha = M mu_B:

    - ``symbolic-identity`` (atoms: the logs log(c_i / P.c) of the basic columns): S_j^T alpha = mu_j for each basic
      j, and 1^T alpha = (mu(S_T) + mu(S_T^c)) / (1 + t), the binary mechanism's utility;
    - ``rigorous-value``: every non-basic reduced cost S_j^T alpha - mu(S_j) > 0 (arb, alpha bound once by "let").

    Then alpha is dual feasible and 1^T alpha = BIN: by weak duality OPT <= BIN <= OPT (the binary theta is feasible:
    S_T + S_T^c = (1 + t) 1).  ValueError for a basis that is not k distinct patterns with S_T and S_T^c; nothing else
    is decided here (a basis that does not certify it, e.g. with a negative reduced cost, is written and the checker
    rejects it)."""
    from rldp_verify.certificates.identity_logs import Atoms, log_identity_certificate
    from rldp_verify.certificates.staircase import mu_expr
    from rldp_verify.certificates.value import value_certificate
    from rldp_verify.topics.extremal.staircase import pattern_index, pattern_matrix

    P, t, k = [Fraction(p) for p in P], Fraction(t), len(P)
    cols, basis = pattern_matrix(k, t), [int(j) for j in basis]
    jT, jTc = pattern_index(frozenset(T), k), pattern_index(frozenset(range(k)) - frozenset(T), k)
    if len(set(basis)) != k or not {jT, jTc} <= set(basis):
        raise ValueError(f"the basis {basis} must be {k} distinct patterns including T's ({jT}) and T^c's ({jTc})")
    M = _inverse_transpose([cols[j] for j in basis])
    at = Atoms()

    def mu_tree(r):            # mu of basic column r with its logs as atoms
        c = cols[basis[r]]
        Pc = sum(p * ci for p, ci in zip(P, c, strict=True))
        return sum((P[i] * c[i] * at.log(f"l{r}_{i}", c[i] / Pc) for i in range(k) if P[i] * c[i] != 0), Tree(0))

    mus = [mu_tree(r) for r in range(k)]
    alpha = [sum((M[i][r] * mus[r] for r in range(k) if M[i][r] != 0), Tree(0)) for i in range(k)]
    name = f"Kairouz LP (11), MI utility, P = {[str(p) for p in P]}, t = {t}, binary on T = {sorted(T)}"
    sides = {f"S_{j}^T alpha = mu(S_{j}) (basic)": (sum((c * a for c, a in zip(cols[j], alpha, strict=True)), Tree(0)),
                                                    mus[r]) for r, j in enumerate(basis)}
    sides["1^T alpha = (mu(S_T) + mu(S_T^c)) / (1 + t)"] = (sum(alpha, Tree(0)),
                                                           (mus[basis.index(jT)] + mus[basis.index(jTc)]) / (1 + t))
    docs = [log_identity_certificate(f"{name}: {label}", lhs, rhs, at, words=f"alpha = M mu_B, M = (S_B^T)^-1 = "
                                     f"{[[str(v) for v in row] for row in M]}, B = {basis}")
            for label, (lhs, rhs) in sides.items()]
    lets = [[f"m{r}", mu_expr(cols[j], P)] for r, j in enumerate(basis)]
    lets += [[f"a{i}", ["+", 0, *[["*", M[i][r].__str__(), f"$m{r}"] for r in range(k) if M[i][r] != 0]]]
             for i in range(k)]
    costs = [["-", ["+", *[["*", str(c), f"$a{i}"] for i, c in enumerate(cols[j])]], mu_expr(cols[j], P)]
             for j in range(len(cols)) if j not in basis]
    docs.append(value_certificate(f"{name}: every non-basic reduced cost S_j^T alpha - mu(S_j) is > 0 (basis {basis})",
                                  ["let", lets, ["min", *costs]], lower=0, strict=True))
    return docs


def binary_basis(P, T, t) -> list[int]:
    """A basis of LP (11) (MI utility) that makes the binary mechanism on T optimal at t, as the engine finds it
    (:func:`~rldp_verify.topics.extremal.staircase.solve_staircase_lp`'s basis when its support is {T, T^c}, else
    the degenerate basis search of :func:`~rldp_verify.topics.extremal.thresholds.binary_status`); not trusted:
    :func:`binary_optimality_certificates` checks it.  ValueError when there is none."""
    from rldp_verify.topics.extremal.staircase import pattern_index, pattern_matrix, solve_staircase_lp
    from rldp_verify.topics.extremal.thresholds import _binary_optimal_basis
    from rldp_verify.topics.extremal.utilities import mu_mi

    k, mu = len(P), mu_mi(P)
    jT, jTc = pattern_index(frozenset(T), k), pattern_index(frozenset(range(k)) - frozenset(T), k)
    sol = solve_staircase_lp(k, t, mu)
    if sol.gap == 0 and {j for j, th in enumerate(sol.theta) if th != 0} <= {jT, jTc} and {jT, jTc} <= set(sol.basis):
        return list(sol.basis)
    cols = pattern_matrix(k, t)
    found = _binary_optimal_basis(cols, [mu(c) for c in cols], sol.alpha, jT, jTc, k)
    if found is None:
        raise ValueError(f"no basis certifying the binary mechanism on {sorted(T)} at t = {t}")
    return list(found)


def robust_counterpart_certificates(x, a0, gamma, tau, lo, hi) -> list[dict]:
    """ISIT Theorem 1 (eq. (14)) on one instance of the claim isit.thm1.robust-counterpart, exactly: A the box
    [lo, hi], f(a) = x.a - gamma |a - a0|^2 - tau (concave), f_*(v) = (v - x).a0 - |v - x|^2/(4 gamma) + tau,
    delta*(v|A) = sum_i max(v_i lo_i, v_i hi_i) (the claim's closed forms; all data exact rationals -- a float
    instance as the binary rationals it is).  With a* = clip(a0 + x/(2 gamma), lo, hi) and v* = x - 2 gamma (a* - a0),
    ``rigorous-value`` certificates in exact rationals: a* in A; delta*(v*|A) - f_*(v*) - f(a*) = 0; and the sign of
    f(a*).  By weak duality (sup_A f <= delta*(v|A) - f_*(v) for every v, Fenchel-Young: stated, not checked) f(a*) <=
    sup_A f <= min_v (...) <= f(a*): all three are equal, so (11) (sup_A f <= 0) holds exactly when v* (hence some v)
    satisfies (14), and the sign certificate says which (the side the checker finds).  Nothing else is decided here:
    a wrong v* or a* is written and the checker rejects it."""
    from rldp_verify.certificates import recheck
    from rldp_verify.certificates.series import Formula
    from rldp_verify.certificates.value import value_certificate

    x, a0, lo, hi = ([Fraction(v) for v in vs] for vs in (x, a0, lo, hi))
    gamma, tau, m = Fraction(gamma), Fraction(tau), len(x)
    if gamma <= 0 or any(lo[i] > hi[i] for i in range(m)):
        raise ValueError(f"gamma = {gamma} must be > 0 and lo <= hi")
    a = [min(max(a0[i] + x[i] / (2 * gamma), lo[i]), hi[i]) for i in range(m)]
    v = _dual_point(x, a0, gamma, a)
    A, V = [Formula.number(c) for c in a], [Formula.number(c) for c in v]

    def f(p):
        return sum((x[i] * p[i] - gamma * (p[i] - a0[i]) * (p[i] - a0[i]) for i in range(m)), Formula.number(0)) - tau

    def f_conj(w):
        return sum(((w[i] - x[i]) * a0[i] - (w[i] - x[i]) * (w[i] - x[i]) / (4 * gamma) for i in range(m)),
                   Formula.number(0)) + tau

    def support(w):
        return sum((Formula(["max", (w[i] * lo[i]).node, (w[i] * hi[i]).node]) for i in range(m)), Formula.number(0))

    name = f"ISIT Thm. 1, box A = [{[str(c) for c in lo]}, {[str(c) for c in hi]}], f = x.a - {gamma} |a - a0|^2 - tau"
    inside = Formula(["min", *[(A[i] - lo[i]).node for i in range(m)], *[(hi[i] - A[i]).node for i in range(m)]])
    fa = f(A)
    docs = [value_certificate(f"{name}: a* = {[str(c) for c in a]} is in A", inside.node, lower=0, exact=True),
            value_certificate(f"{name}: delta*(v*|A) - f_*(v*) = f(a*) at v* = x - 2 gamma (a* - a0)",
                              (support(V) - f_conj(V) - fa).node, lower=0, upper=0, exact=True)]
    value = fa.node

    below = value_certificate(f"{name}: sup_A f = f(a*) <= 0: (11) holds and v* satisfies (14)", value, upper=0,
                              exact=True)
    docs.append(below if recheck(below).ok else value_certificate(
        f"{name}: sup_A f = f(a*) > 0: (11) fails and no v satisfies (14)", value, lower=0, strict=True, exact=True))
    return docs


def _dual_point(x, a0, gamma, a) -> list:
    """v* = x - 2 gamma (a* - a0), the gradient of f at a* (so that v* is in A's normal cone at a*)."""
    return [x[i] - 2 * gamma * (a[i] - a0[i]) for i in range(len(x))]


def _factor(r: Fraction) -> dict[int, int]:
    """{prime: exponent} of a positive rational (python-flint's fmpz factorisation; ValueError beyond 2^128 in a
    numerator or denominator)."""
    import flint

    if r <= 0:
        raise ValueError(f"log of a non-positive number {r}")
    out: dict[int, int] = {}
    for n, sign in ((r.numerator, 1), (r.denominator, -1)):
        if n > 2 ** 128:
            raise ValueError(f"{n} too large to factor here")
        for p, k in (flint.fmpz(n).factor() if n > 1 else []):
            out[int(p)] = out.get(int(p), 0) + sign * int(k)
    return {p: k for p, k in out.items() if k}


class _NotLogRational(ValueError):
    """The expression leaves the rational functions of logarithms of positive rationals."""


def _to_log_tree(e, env: dict, atoms):
    """The value-language tree ``e`` (numbers, + * - /, integer pow, let, exp of a rational, log and xlogx of a
    rational function of those exps) as an identity tree: each exp(q) an exp atom, each log(x) a node ["log", x, ns]
    (:func:`_log_node`).  :class:`_NotLogRational` for anything else (sqrt, a non-integer power, min, max, ...)."""
    if isinstance(e, str) and e.startswith("$"):
        if e[1:] not in env:
            raise _NotLogRational(f"free name {e}")
        return env[e[1:]]
    if not isinstance(e, list):
        return e
    op, args = e[0], e[1:]
    if op == "let":
        inner = dict(env)
        for name, sub in args[0]:
            inner[name] = _to_log_tree(sub, inner, atoms)
        return _to_log_tree(args[1], inner, atoms)
    if op == "pow" and not isinstance(args[1], list) and Fraction(args[1]).denominator == 1:
        return ["pow", _to_log_tree(args[0], env, atoms), int(Fraction(args[1]))]
    if op in ("+", "*", "-", "/"):
        return [op, *(_to_log_tree(a, env, atoms) for a in args)]
    if op == "exp" and len(args) == 1:
        return _exp_atom(_to_log_tree(args[0], env, atoms), atoms)
    if op == "xlogx" and len(args) == 1:      # x log x for x > 0, 0 for x <= 0: decided on x's value
        x = _to_log_tree(args[0], env, atoms)
        return ["*", x, _log_node(x, atoms)] if _value(x, atoms) > 0 else 0
    if op == "log" and len(args) == 1:
        return _log_node(_to_log_tree(args[0], env, atoms), atoms)
    raise _NotLogRational(f"operation {op!r}")


def _value(x, atoms):
    """x's value: exact (fmpq) without exp atoms, else an arb ball (the atoms at their values); _NotLogRational when
    its sign is not decided."""
    from rldp_verify_check.value import evaluate

    exps = {f"${n}": evaluate(["exp", d[1]]) for n, d in atoms.atoms.items() if d[0] == "exp"}
    v = evaluate(x, exps) if exps and _names(x) else evaluate(x, exact=True)
    if not (v > 0 or v < 0 or v == 0):
        raise _NotLogRational("a sign arb does not decide")
    return v


def _names(t) -> set:
    if isinstance(t, str) and t.startswith("$"):
        return {t[1:]}
    return set().union(*(_names(a) for a in t[1:])) if isinstance(t, list) and t else set()


def _exp_atom(y, atoms) -> str:
    """The exp atom exp(q) of the rational constant y (one atom per q)."""
    if _has_log(y) or _names(y):
        raise _NotLogRational("exp of a non-constant")
    v = _value(y, atoms)
    q = Fraction(int(v.p), int(v.q))
    for n, d in atoms.atoms.items():
        if d[0] == "exp" and Fraction(d[1]) == q:
            return f"${n}"
    name = f"E{sum(d[0] == 'exp' for d in atoms.atoms.values())}"
    atoms.exp(name, q)
    return f"${name}"


def _log_node(x, atoms) -> list:
    """["log", x, ns]: x (a rational function of the exp atoms, > 0) as a product of powers of atoms' bases -- the
    primes of its rational content (log atoms L_p = log p), exp atoms E (log E = its exponent) and the irreducible
    factors f of its numerator and denominator, each a log atom with base f (or -f: positive at the atoms' values)."""
    import sympy

    from rldp_verify.certificates.identity import to_tree

    if _has_log(x):
        raise _NotLogRational("a log of a logarithm")
    if not _value(x, atoms) > 0:
        raise _NotLogRational("log of a number not certainly > 0")
    syms = {n: sympy.Symbol(n) for n in sorted(_names(x))}
    num, den = sympy.fraction(sympy.together(_sympy(x, syms)))
    ns: dict = {}
    content = Fraction(1)
    for part, sign in ((num, 1), (den, -1)):
        c, facs = sympy.factor_list(sympy.expand(part), *syms.values()) if syms else (part, [])
        content *= Fraction(int(sympy.Rational(c).p), int(sympy.Rational(c).q)) ** sign
        for f, m in facs:
            if f in syms.values():
                name = str(f)
            else:
                if not _value(to_tree(f), atoms) > 0:
                    f, content = -f, content * (-1) ** m
                name = _base_atom(to_tree(f), atoms)
            ns[name] = ns.get(name, 0) + sign * int(m)
    for p, k in _factor(content).items():
        if f"L{p}" not in atoms.atoms:
            atoms.log(f"L{p}", p)
        ns[f"L{p}"] = ns.get(f"L{p}", 0) + k
    return ["log", x, {a: k for a, k in ns.items() if k}]


def _base_atom(base, atoms) -> str:
    """The log atom whose base is ``base`` (declared once)."""
    for n, d in atoms.atoms.items():
        if d[0] == "log" and d[1] == base:
            return n
    name = f"B{sum(n.startswith('B') for n in atoms.atoms)}"
    atoms.atoms[name] = ["log", base]
    return name


def _sympy(t, syms: dict):
    """An identity tree (numbers, $names, + * - /, integer pow) as a sympy expression."""
    import sympy

    if isinstance(t, str) and t.startswith("$"):
        return syms[t[1:]]
    if not isinstance(t, list):
        f = Fraction(t)
        return sympy.Rational(f.numerator, f.denominator)
    op, a = t[0], [_sympy(x, syms) for x in t[1:]]
    if op == "+":
        return sympy.Add(*a)
    if op == "*":
        return sympy.Mul(*a)
    if op == "-":
        return -a[0] if len(a) == 1 else a[0] - a[1]
    if op == "/":
        return a[0] / a[1]
    if op == "pow":
        return a[0] ** int(Fraction(t[2]))
    raise _NotLogRational(f"operation {op!r}")


def _has_log(t) -> bool:
    return isinstance(t, list) and bool(t) and (t[0] == "log" or any(_has_log(a) for a in t[1:]))


def log_tie_certificate(name: str, e, *, max_atoms: int = 16) -> dict:
    """The ``symbolic-identity`` that ``e`` (a value-language tree whose two sides of an equality differ by e) is
    exactly 0, when e is a rational function of logarithms of positive rationals: each log(r) written as sum_p n_p
    log p over r's primes (log atoms log p; the checker proves r = prod p^n_p), and e == 0 proved with the atoms as
    independent variables (so for their values too).  ValueError when e is not of this form or the identity is not
    one (then it is false, or true only through relations between the log p that the checker does not use), or when
    it has more than ``max_atoms`` primes (the checker's grid grows with them)."""
    from rldp_verify.certificates.identity_logs import Atoms

    atoms = Atoms()
    tree = _to_log_tree(e, {}, atoms)
    if not atoms.atoms or len(atoms.atoms) > max_atoms:
        raise _NotLogRational(f"{len(atoms.atoms)} log atoms (0: a rational equality, exact_ties's case; more than "
                              f"{max_atoms}: a grid too slow to check here)")
    return _checked_log_identity(name, tree, atoms, "each log(r) as sum_p n_p log p over the primes of r")


def _checked_log_identity(name: str, lhs, atoms, words: str) -> dict:
    """The ``symbolic-identity`` lhs == 0 with ``atoms``, as :func:`~rldp_verify.certificates.identity_logs.
    log_identity_certificate` writes it, checked once by the checker here; ValueError when it rejects it."""
    from rldp_verify.certificates import envelope
    from rldp_verify.certificates.identity import _grid
    from rldp_verify.certificates.identity_logs import grid_degrees
    from rldp_verify_check import CertificateError
    from rldp_verify_check.identity import check

    st = {"lhs": lhs, "rhs": 0, "atoms": atoms.atoms, "variables": []}
    names, degree = grid_degrees(st)
    st["substitution"] = words
    data = {"points": _grid(names, degree, 0)}
    try:
        check(st, data)
    except CertificateError as exc:
        raise ValueError(f"{name}: {exc}") from None
    return envelope("symbolic-identity", name, st, data)


def log_ties(docs: list[dict]) -> tuple[list[dict], int]:
    """(the documents with, in each arb "within tol" certificate (``max_i |e_i| <= tol``, as written by
    :func:`~rldp_verify.certificates.instances_other.near_zero`), each instance e_i that :func:`log_tie_certificate`
    proves exactly 0 moved to its own ``symbolic-identity``, the number moved).  The other instances stay "within"."""
    from rldp_verify.certificates.partial import _abs_arg

    out, moved = [], 0
    for d in docs:
        st = d.get("statement", {})
        e = st.get("expr")
        binds = []
        if isinstance(e, list) and e and e[0] == "let":
            binds, e = e[1], e[2]
        args = [_abs_arg(a) for a in e[1:]] if isinstance(e, list) and e and e[0] == "max" else []
        if (d.get("kind") != "rigorous-value" or st.get("exact") or st.get("forall") or not args or None in args
                or st.get("lower") is None or st.get("upper") is None or Fraction(st["lower"]) != -Fraction(st["upper"])
                or Fraction(st["upper"]) > Fraction(1, 10 ** 20)):
            out.append(d)
            continue
        proved, rest = [], []
        for i, a in enumerate(args):
            try:
                proved.append(log_tie_certificate(f"{d['name']}: instance {i} exactly (= 0)",
                                                  ["let", binds, a] if binds else a))
            except (ValueError, ArithmeticError, TypeError):
                rest.append(a)
        moved += len(proved)
        out.extend(proved)
        if rest:
            rest_max = ["max", *(["max", a, ["-", a]] for a in rest)]
            out.append({**d, "name": f"{d['name']}: the other {len(rest)}" if proved else d["name"],
                        "statement": {**st, "expr": ["let", binds, rest_max] if binds else rest_max}})
    return out, moved


def log_ties_evidence(covers: str, builder, *args) -> dict:
    """A claim's certificate evidence ``{"certificate_covers": covers, **built(builder, *args)}`` with :func:`log_ties`
    applied to the documents; when some equalities moved, ``covers`` says how many are now certified exactly."""
    from rldp_verify.certificates.partial import ties_evidence

    return ties_evidence(covers, log_ties, "; of the equalities listed, the {moved} that are rational functions of "
                         "logarithms of rationals (at most 16 primes) are certified exactly instead (symbolic "
                         "identities with the atoms log p, each log(r) = sum_p n_p log p)", builder, *args)
