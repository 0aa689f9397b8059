"""Certificates for the sampled instances of exact property tests (issue 23): each sampled instance's exact
statement written in the checker's expression language (:mod:`rldp_verify_check.value`) from the instance's raw
data (channel entries, distributions, q), so that the checker re-derives it in exact rationals (``"exact": true``)
or in arb.  They certify the sampled instances only, never the universal statement (a sample is not a proof): the
claims say so in ``certificate_covers``, and cap the number of certified instances (:data:`CAP`).

Shapes (all ``rigorous-value``):

- :func:`all_zero` -- a list of expressions that are all exactly 0 (an equality of rationals, ``max |t| = 0``);
- :func:`all_nonneg` -- a list of expressions that are all >= 0 (> 0 with ``strict``), exactly or in arb
  (``min t >= 0``);
- :func:`ldp_terms` -- the terms r C[x'][y] - C[x][y] (every output y, every ordered pair x != x') whose
  non-negativity says that the channel C (rows: inputs) satisfies C[x][y] <= r C[x'][y], i.e. is log(r)-LDP
  (Definition of eps-LDP with e^eps = r, from the entries);
- :func:`mu_expr` / :func:`utility_expr` -- Kairouz, Oh & Viswanath's column functionals mu(c) (Sec. 3.1, 4.1:
  total variation, chi^2, hockey-stick E_gamma, KL, mutual information) and U(Q) = sum_y mu(Q_y) (eq. (8)) of
  columns given as expressions, the dot products P.c written out;
- :func:`near_zero` -- a list of expressions (differences of two sides of an equality of irrational values, which
  arb cannot decide) that are all within :data:`TIE` = 10^-30 of 0 (``max |t| <= 10^-30`` in arb): a true,
  re-checkable fact about each instance, weaker than the equality;
- :func:`entropy_expr` -- the Shannon entropy -sum p_i log p_i (nats) of exact masses (zero masses left out, as
  0 log 0 = 0), the masses given as expressions where they are sums of the data;
- :func:`matmul` -- the entries of a product of two matrices as expressions of their entries (the checker
  multiplies and adds them itself), so that a composed channel is re-derived, not taken from the engine.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rldp_verify.certificates.value import abs_expr, value_certificate

CAP = 20
TIE = Fraction(1, 10**30)


def matmul(A, B) -> list[list]:
    """(A B)[i][j] = sum_k A[i][k] B[k][j] as expressions (entries of A, B: exact numbers or expressions)."""
    n = len(B)
    if any(len(row) != n for row in A):
        raise ValueError(f"matmul: A has rows of lengths {sorted({len(r) for r in A})}, B has {n} rows")
    return [[["+", *[["*", row[k], B[k][j]] for k in range(n)]] for j in range(len(B[0]))] for row in A]


def dot(P, c) -> list:
    """P.c = sum_i P_i c_i as an expression (``c``: exact numbers or expressions)."""
    return ["+", 0, *[["*", fr(p), x] for p, x in zip(P, c, strict=True) if p != 0]]


def mu_expr(name: str, c, *, P0=None, P1=None, P=None, gamma=None, vals=None) -> list:
    """mu(c) for a column ``c`` (expressions), a = P0.c, b = P1.c: "tv" |a - b|/2, "chi2" (a - b)^2/b, "hockey"
    (a - gamma b)_+, "kl" a log(a/b) (as xlogx(a) - a log b), "mi" sum_i P_i c_i log(c_i / P.c) (as
    sum_i P_i (xlogx(c_i) - c_i log P.c)).  tv, chi2 and hockey evaluate exactly; kl and mi need arb.
    ``vals``: the column's exact values; "mi" then leaves out the entries that are 0 (they contribute 0, and arb's
    xlogx at an exact 0 is the wide [-1/e, 0]): state them with :func:`zero_entries`."""
    if name == "mi":
        pc, vals = dot(P, c), vals if vals is not None else [None] * len(c)
        return ["+", 0, *[["*", fr(p), ["-", ["xlogx", x], ["*", x, ["log", pc]]]]
                          for p, x, v in zip(P, c, vals, strict=True) if p != 0 and v != 0]]
    a, b = dot(P0, c), dot(P1, c)
    rules: dict[str, Callable[[], list]] = {
        "tv": lambda: ["/", abs_expr(["-", a, b]), 2], "chi2": lambda: ["/", ["pow", ["-", a, b], 2], b],
        "hockey": lambda: ["max", ["-", a, ["*", fr(gamma if gamma is not None else 1), b]], 0],
        "kl": lambda: ["-", ["xlogx", a], ["*", a, ["log", b]]]}
    if name not in rules:
        raise ValueError(f"unknown column functional {name!r} (one of tv, chi2, hockey, kl, mi)")
    return rules[name]()


def zero_entries(cols, vals) -> list:
    """-x >= 0 for each entry x of ``cols`` (expressions of non-negative quantities) whose exact value in ``vals``
    is 0: with x >= 0 by construction, the checker so verifies each entry that :func:`mu_expr` left out."""
    return [["-", x] for c, vc in zip(cols, vals, strict=True) for x, v in zip(c, vc, strict=True) if v == 0]


def utility_expr(name: str, cols, vals=None, **dists) -> list:
    """U = sum over the columns ``cols`` (expressions) of mu(column) (eq. (8); pass the non-zero columns only;
    ``vals``: their exact values, see :func:`mu_expr`)."""
    vals = vals if vals is not None else [None] * len(cols)
    return ["+", 0, *[mu_expr(name, c, vals=v, **dists) for c, v in zip(cols, vals, strict=True)]]


def ldp_terms(C, r) -> list:
    """r C[x'][y] - C[x][y] for every output y and ordered pair x != x' (``r`` = e^eps, exact or an expression):
    all >= 0 exactly when the channel C (rows x, columns y) is log(r)-LDP."""
    return [["-", ["*", r, C[x2][y]], C[x1][y]] for y in range(len(C[0]))
            for x1 in range(len(C)) for x2 in range(len(C)) if x1 != x2]


def bind(name: str, rows) -> tuple[list, list[list[str]]]:
    """``let`` bindings ``name_i_j`` for a matrix of expressions and the matrix of the bound names: a shared
    sub-expression (a composed channel's entry) is written and evaluated once."""
    binds = [[f"{name}_{i}_{j}", e] for i, row in enumerate(rows) for j, e in enumerate(row)]
    names = [[f"${name}_{i}_{j}" for j in range(len(row))] for i, row in enumerate(rows)]
    return binds, names


def all_zero(name: str, terms, *, binds=()) -> dict:
    """``rigorous-value`` exact: max |t| over ``terms`` = 0, so every term is exactly 0 (``binds``: a ``let``)."""
    if not terms:
        raise ValueError(f"all_zero {name!r}: no terms")
    e = ["max", *[abs_expr(t) for t in terms]]
    return value_certificate(name, ["let", list(binds), e] if binds else e, lower=0, upper=0, exact=True)


def all_nonneg(name: str, terms, *, binds=(), strict: bool = False, exact: bool = True, prec: int = 128) -> dict:
    """``rigorous-value``: min t over ``terms`` >= 0 (> 0 with ``strict``), exactly (default) or in arb."""
    if not terms:
        raise ValueError(f"all_nonneg {name!r}: no terms")
    e = ["min", *terms]
    return value_certificate(name, ["let", list(binds), e] if binds else e, lower=0, strict=strict, exact=exact,
                             prec=prec)


def near_zero(name: str, terms, *, binds=(), tol=TIE, prec: int = 128) -> dict:
    """``rigorous-value`` in arb: max |t| over ``terms`` <= ``tol`` (10^-30): each difference of the two sides of an
    equality of irrational values lies within ``tol`` of 0 (arb cannot prove it is 0)."""
    if not terms:
        raise ValueError(f"near_zero {name!r}: no terms")
    e = ["max", *[abs_expr(t) for t in terms]]
    return value_certificate(name, ["let", list(binds), e] if binds else e, lower=-fr(tol), upper=fr(tol), prec=prec)


def entropy_expr(vals, exprs=None) -> list:
    """H = -sum_i p_i log p_i (nats) over the masses with exact value ``vals[i] != 0`` (0 log 0 = 0), the mass
    written as ``exprs[i]`` (default: the exact value itself)."""
    exprs = list(vals) if exprs is None else list(exprs)
    return ["-", 0, ["+", 0, *[["*", e, ["log", e]] for v, e in zip(vals, exprs, strict=True) if fr(v) != 0]]]


def agreement(name: str, points) -> list[dict]:
    """Two conditions A and B agree at every point: ``points`` = [(holds, A_terms, B_terms, binds)], a condition
    holding when all its terms are >= 0.  At most two exact certificates: at the points where both hold, every term
    of A and B is >= 0 (:func:`all_nonneg`); at the points where neither holds, ``max over points of max(min A,
    min B) < 0``, i.e. each condition has a negative term at each such point.  (A point's ``binds``: its ``let``.)"""
    docs, yes, no = [], [p for p in points if p[0]], [p for p in points if not p[0]]
    if yes:
        docs.append(all_nonneg(f"{name}: both conditions hold at {len(yes)} points",
                               [["let", list(b), ["min", *a, *c]] for _, a, c, b in yes]))
    if no:
        e = ["max", *[["let", list(b), ["max", ["min", *a], ["min", *c]]] for _, a, c, b in no]]
        docs.append(value_certificate(f"{name}: both conditions fail at {len(no)} points", e, upper=0, strict=True,
                                      exact=True))
    return docs


def covers(n_cert: int, n_total: int, what: str, *, chosen: bool = False) -> str:
    """The ``certificate_covers`` sentence of a capped sample (``chosen``: not the first n_cert instances but a
    selection that ``what`` describes)."""
    first = f"all {n_total}" if n_cert >= n_total else f"{n_cert} of the {n_total}" if chosen else \
        f"the first {n_cert} of the {n_total}"
    return (f"{first} sampled instances' {what}, each re-derived by the checker from the instance's data; not the "
            "statement for every instance (a sample is not a proof)")


def fr(x) -> Fraction:
    """An exact number (refuses floats: a certificate holds exact data only)."""
    if isinstance(x, float):
        raise TypeError(f"a float {x!r} where an exact number is needed")
    return Fraction(x)
