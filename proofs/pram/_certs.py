"""Certificate builders for the PRAM claims (issue 23): the DP polytope of family (8) in the checker's form
(A q <= b), its vertex-enumeration and LP certificates, and f(q) = I(X, Z) as an expression of the checker's
language (:mod:`rldp_verify_check.value`), which the checker evaluates itself in arb."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates.lp import solve_with_certificate
from rldp_verify.certificates.value import mutual_information_expr, value_certificate
from rldp_verify.certificates.vertices import vertex_certificate
from rldp_verify.topics import pram


def polytope(rows) -> tuple[list[list[Fraction]], list[Fraction]]:
    """pycddlib's rows [b, a] (b + a.q >= 0) as (A, b) with A q <= b (A = -a)."""
    return [[-x for x in r[1:]] for r in rows], [r[0] for r in rows]


def dp_polytope(S: int, t: Fraction, *, box: bool = True):
    """The alpha-DP polytope of family (8) at e^alpha = t (:func:`rldp_verify.topics.pram.dp_rows`) as (A, b)."""
    return polytope(pram.dp_rows(S, t, box=box))


def vertex_cert(name: str, rows, V) -> dict:
    """The vertex-enumeration certificate that ``V`` is the vertex set of {b + a.q >= 0 : rows}."""
    A, b = polytope(rows)
    return vertex_certificate(name, A, b, (), (), V)


def f_expr(p, q) -> list:
    """f(q) = I(X, Z) (nats) for the PRAM matrix (8) M(q) and the law p of X, as a checker expression (from the
    exact entries of M(q); the checker evaluates the sum of p_x M[x][z] log(M[x][z] / m_z) itself)."""
    M = pram.pram_matrix([Fraction(x) for x in q])
    S = len(M)
    return mutual_information_expr([[M[x][z] for x in range(S)] for z in range(S)], p)


def diagonal_interval_certs(S: int, t: Fraction, lo: Fraction, hi: Fraction) -> list[dict]:
    """Two ``lp-optimum`` certificates: over the DP polytope intersected with the diagonal q_1 = ... = q_S,
    max q_1 = hi and min q_1 = lo (so the diagonal DP set is exactly [lo, hi], the polytope being convex).
    Raises when the LP optima differ from (lo, hi)."""
    A, b = dp_polytope(S, t)
    E = [[1 if j == 0 else -1 if j == k else 0 for j in range(S)] for k in range(1, S)]
    f = [0] * (S - 1)
    c = [1] + [0] * (S - 1)
    out = []
    for sense, want in (("max", hi), ("min", lo)):
        res, cert = solve_with_certificate(f"{sense} q_1 on the diagonal of the DP polytope, S = {S}, e^alpha = {t}",
                                           c, A, b, E, f, sense=sense)
        got = res.value if sense == "max" else -res.value
        if got != want:
            raise ValueError(f"the diagonal {sense} is {got}, not {want}")
        out.append(cert)
    return out


def gap_cert(name: str, better, worse: list, *, lower=0) -> dict:
    """The ``rigorous-value`` certificate of ``better - max(worse) > lower`` (expressions)."""
    return value_certificate(name, ["-", better, ["max", *worse]], lower=lower, strict=True)


TIE = Fraction(1, 10**30)


def tie_cert(name: str, a, b) -> dict:
    """The ``rigorous-value`` certificate of |a - b| <= 10^-30 (expressions): arb cannot prove an equality of
    two logarithmic sums; the exact reason for the tie is stated by the claim."""
    return value_certificate(name, ["-", a, b], lower=-TIE, upper=TIE)


def ends_certs(p, lo_q, hi_q, inner) -> list[dict]:
    """For the law ``p`` and the two ends ``lo_q``, ``hi_q`` of a segment of q's with interior points ``inner``:
    f(lo) and f(hi) agree to 10^-30, and both exceed f at every interior point (rigorous-value, arb)."""
    a, b = f_expr(p, hi_q), f_expr(p, lo_q)
    ps = [str(x) for x in p]
    return [tie_cert(f"f(upper end) = f(lower end), p = {ps}", a, b),
            gap_cert(f"min(f(ends)) > max f at {len(inner)} interior points, p = {ps}", ["min", a, b],
                     [f_expr(p, x) for x in inner])]


def directional_derivative_expr(p, v, w) -> list:
    """The derivative of f at ``v`` (0 < v_k < 1) in the direction w - v, as a checker expression:
    sum_k (w_k - v_k) df/dq_k with df/dq_k = p_k (log((S-1) v_k/(1 - v_k)) + (1/(S-1)) sum_z log m_z
    - S/(S-1) log m_k) (d(m log m) = (log m + 1) dm, and sum_z dm_z/dq_k = 0), where the checker computes
    m_z = sum_x p_x M[x][z] from the exact entries of M(v)."""
    v = [Fraction(x) for x in v]
    S = len(v)
    M = pram.pram_matrix(v)
    binds = [[f"m{z}", ["+", 0, *[["*", p[x], M[x][z]] for x in range(S)]]] for z in range(S)]
    slog = ["+", *[["log", f"$m{z}"] for z in range(S)]]
    terms = []
    for k in range(S):
        dk = Fraction(w[k]) - v[k]
        if dk == 0 or p[k] == 0:
            continue
        g = ["*", p[k], ["+", ["log", ["/", ["*", S - 1, v[k]], ["-", 1, v[k]]]], ["/", slog, S - 1],
                         ["-", ["*", Fraction(S, S - 1), ["log", f"$m{k}"]]]]]
        terms.append(["*", dk, g])
    return ["let", binds, ["+", 0, *terms]]


def rows_lp_cert(name: str, rows, objective, want) -> dict:
    """The ``lp-optimum`` certificate of max c.x over {b + a.x >= 0 : rows} (``objective`` = [0, c], the form of
    :func:`rldp_verify.topics.pram.lp_max`), solved again by the certified exact LP; raises unless the optimum
    equals ``want`` (the value the claim used)."""
    if Fraction(objective[0]) != 0:
        raise ValueError(f"objective constant {objective[0]} is not 0")
    A, b = polytope(rows)
    res, cert = solve_with_certificate(name, list(objective[1:]), A, b)
    if res.value != want:
        raise ValueError(f"the certified optimum {res.value} differs from {want}")
    return cert



_NAMES = {pram.V_ALPHA: "va", pram.V_MALPHA: "vma", pram.V_MIN: "vmin", pram.V_MAX: "vmax"}


def label_bindings(S: int) -> list:
    """``let`` bindings in ``$t`` = e^alpha: the four values of Proposition 3.2 (``$va``, ``$vma``, ``$vmin``,
    ``$vmax``), per value v its off-diagonal ``$o_*`` = (1 - v)/(S - 1), ``$d_*`` = v - (1 - v)/(S - 1) and
    ``$h_*`` = v log v + (1 - v) log((1 - v)/(S - 1)) (minus the entropy of that row of (8))."""
    t = "$t"
    vals = {"va": ["/", t, ["+", t, S - 1]], "vma": ["/", 1, ["+", 1, ["*", S - 1, t]]],
            "vmin": ["/", 1, ["*", t, ["+", t, S - 1]]], "vmax": ["/", ["*", t, t], ["+", 1, ["*", S - 1, t]]]}
    out = [[n, e] for n, e in vals.items()]
    for n in vals:
        out += [[f"o_{n}", ["/", ["-", 1, f"${n}"], S - 1]], [f"d_{n}", ["-", f"${n}", f"$o_{n}"]],
                [f"h_{n}", ["+", ["*", f"${n}", ["log", f"${n}"]], ["*", ["-", 1, f"${n}"], ["log", f"$o_{n}"]]]]]
    return out


def f_labels_expr(p, labels) -> list:
    """f(q) = I(X, Z) = H(Z) - H(Z|X) (nats) for the PRAM matrix (8) at the vertex with these labels, in the names
    of :func:`label_bindings`: m_z = C + p_z d_{q_z} with C = sum_x p_x o_{q_x}; H(Z|X) = -sum_x p_x h_{q_x}."""
    S = len(p)
    n = [_NAMES[lab] for lab in labels]
    C = ["+", 0, *[["*", Fraction(p[x]), f"$o_{n[x]}"] for x in range(S) if p[x] != 0]]
    hz = []
    for z in range(S):
        m = ["+", "$C", ["*", Fraction(p[z]), f"$d_{n[z]}"]]
        hz.append(["*", m, ["log", m]])
    hzx = ["+", 0, *[["*", Fraction(p[x]), f"$h_{n[x]}"] for x in range(S) if p[x] != 0]]
    return ["let", [["C", C]], ["-", hzx, ["+", 0, *hz]]]


def table_row_certificate(name: str, p, alpha, best, printed: list) -> dict:
    """The ``rigorous-value`` certificate f(best) - max f(printed) > 0 at e^alpha = exp(alpha) (alpha exact): the
    vertex ``best`` (labels) beats every vertex in ``printed`` (the listed vertices with the printed counts)."""
    body = ["-", f_labels_expr(p, best), ["max", *[f_labels_expr(p, lab) for lab in printed]]]
    return value_certificate(name, ["let", [["t", ["exp", Fraction(alpha)]], *label_bindings(len(p))], body],
                             lower=0, strict=True)
