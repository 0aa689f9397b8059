"""Certificates for the exact facts inside partly-certified claims (issue 23), written with the existing kinds only.

- :func:`ldp_audit_certificate` -- the ``audit`` eps-LDP certificate of a dense rational channel ``Q[y][x]`` at
  e^eps = r: the checker recomputes every column's sum (each must be 1) and the LDP level
  U = L = max_y max_{x, x'} Q[y][x] / Q[y][x'] from the entries, and accepts PASS only if U <= r (FAIL only if
  L > r).  The printed ends are the level this module computes; the checker tests them against its own.
- :func:`entries_equal_certificate` -- the exact ``rigorous-value`` certificate that each entry of a table equals
  a formula for it written in the checker's language (``max |got - formula| = 0`` in fmpq): an equality of two
  rational tables, the formula's side re-derived by the checker from the formula's raw parameters.
- :func:`ratio_set_identities` -- ``symbolic-identity`` certificates that every likelihood ratio of a channel whose
  entries are rational functions of t lies in {1, t, 1/t}: for each output y and inputs x < x',
  (a - b)(a - t b)(t a - b) = 0 identically in t, with a = Q[y][x], b = Q[y][x'] (a product of reals is 0 iff a
  factor is, so a / b is 1, t or 1/t wherever b != 0).
- :func:`all_zero` / :func:`all_nonneg` -- exact ``rigorous-value`` certificates that many terms are 0 (their
  squares sum to 0) or >= 0 (their min), grouped under ``let`` bindings; :func:`leaf` writes numbers for them;
  :func:`in_sets_terms`, :func:`convex_pair_terms`, :func:`block_ratio_terms` -- terms of set membership, of a
  two-point combination and of the cone {c >= 0 : c_{s,u} <= t c_{s',u'}, s != s'}.
- :func:`transpose` -- rows x to rows y.

Nothing here decides a verdict: a wrong table or a channel above e^eps still gets its certificate, which the
checker rejects.
"""

from __future__ import annotations

import math
from fractions import Fraction
from functools import lru_cache

from rldp_verify.certificates import envelope, qs
from rldp_verify.certificates.value import abs_expr


def transpose(M) -> list[list]:
    """The transpose of a rectangular matrix (``Q[x][y]`` -> ``Q[y][x]``)."""
    return [list(col) for col in zip(*M, strict=True)]


def ldp_level(Q) -> Fraction | float:
    """max_y max_{x, x'} Q[y][x] / Q[y][x'] (0/0 = 1, a/0 = inf): the exact LDP level e^eps of ``Q[y][x]``."""
    out: Fraction | float = Fraction(1)
    for row in Q:
        hi, lo = max(row), min(row)
        r = (Fraction(1) if hi == 0 else math.inf) if lo == 0 else Fraction(hi) / Fraction(lo)
        out = max(out, r)
    return out


def ldp_audit_certificate(name: str, Q, r, *, sizes=None, level=None) -> dict:
    """The ``audit`` certificate (set ``ldp``) of the channel ``Q[y][x]`` (exact entries, rows outputs) at
    e^eps = ``r`` (exact): verdict PASS when its exact level is <= r, else FAIL.  Both printed ends are ``level``
    when given (the level a claim states, e.g. r itself: the checker then proves the level is exactly that), else
    the level computed here.  ``sizes``: [|S|, |U|], |S| |U| the number of inputs (default [1, inputs])."""
    if any(isinstance(v, float) for row in Q for v in row) or isinstance(r, float):
        raise TypeError("an audit certificate needs exact entries and an exact e^eps")
    Q = [[Fraction(v) for v in row] for row in Q]
    computed, r = ldp_level(Q), Fraction(r)
    level = computed if level is None else Fraction(level)
    st = {"Q": [[qs(v) for v in row] for row in Q], "sizes": list(sizes or [1, len(Q[0])]), "set": {"type": "ldp"},
          "eps": {"exp_eps": qs(r)}, "verdict": "PASS" if computed <= r else "FAIL", "ratio_upper": qs(level),
          "ratio_lower": qs(level)}
    return envelope("audit", name, st, {"witness": None})


def entries_equal_certificate(name: str, pairs) -> dict:
    """The exact ``rigorous-value`` certificate that each entry equals its formula: ``pairs`` = [(entry, formula)],
    the entry an exact number, the formula an expression of the checker's exact language written from the
    formula's parameters; max over the pairs of |entry - formula| = 0, evaluated in fmpq."""
    terms = [abs_expr(["-", v, f]) for v, f in pairs]
    if not terms:
        raise ValueError(f"entries_equal_certificate {name!r}: no entries")
    return _exact_value(f"{name} ({len(terms)} entries, each equal to its formula)", ["max", *terms], 0, 0, False)


def ratio_set_identities(name: str, Q, t) -> list[dict]:
    """``symbolic-identity`` certificates (one per output y and inputs x < x') that every ratio Q[y][x] / Q[y][x']
    lies in {1, t, 1/t}: (a - b)(a - t b)(t a - b) = 0 identically in t, a = Q[y][x], b = Q[y][x'] (``Q[y][x]``:
    :class:`~rldp_verify.certificates.identity.Tree` entries in the variable ``t``, also a Tree).  A product of
    reals is 0 only if a factor is, so at every t the ratio a / b is 1, t or 1/t (where b != 0)."""
    from rldp_verify.certificates.identity import tree_identity_certificate

    return [tree_identity_certificate(f"{name}: output {y}, inputs {x}, {x + 1 + i}: (a - b)(a - t b)(t a - b) = 0",
                                      (a - b) * (a - t * b) * (t * a - b), 0, words="t = e^eps")
            for y, row in enumerate(Q) for x, a in enumerate(row) for i, b in enumerate(row[x + 1:])]


@lru_cache(maxsize=4096)
def _qs_cached(x: Fraction) -> int | str:
    return qs(x)


def leaf(x):
    """An expression node ready for JSON: lists and strings ("$name", "p/q") as they are, exact numbers as
    :func:`~rldp_verify.certificates.qs` writes them (cached: the builders below write many equal numbers);
    floats are refused."""
    t = type(x)
    if t is Fraction:
        return _qs_cached(x)
    if t is int or t is str or t is list:
        return x
    if isinstance(x, (float, bool)):
        raise TypeError(f"a {type(x).__name__} {x!r} in a certificate expression: pass an exact number")
    return _qs_cached(Fraction(x))


def in_sets_terms(w, allowed) -> list:
    """prod_{a in allowed[i]} (w_i - a) for each coordinate i (``allowed[i]``: exact numbers or expressions): all 0
    iff each w_i lies in its finite set."""
    out = []
    for x, vals in zip(w, allowed, strict=True):
        x = leaf(x)
        f = ["-", x, leaf(vals[0])]
        for a in vals[1:]:
            f = ["*", f, ["-", x, leaf(a)]]
        out.append(f)
    return out


def convex_pair_terms(v, vp, vm, lam, mu) -> list:
    """v_i - (lam vp_i + mu vm_i) for each coordinate (``lam``, ``mu``: expressions): all 0 iff v = lam vp + mu vm."""
    lam, mu = leaf(lam), leaf(mu)
    return [["-", leaf(x), ["+", ["*", lam, leaf(p)], ["*", mu, leaf(m)]]] for x, p, m in zip(v, vp, vm, strict=True)]


def block_ratio_terms(v, a1: int, a2: int, t) -> list:
    """The terms whose non-negativity says v lies in the cone {c >= 0 : c_{s,u} <= t c_{s',u'} for s != s'}
    (``v`` over the flat X = S x U, x = s |U| + u): min_x v_x, and t min_u v_{s',u} - max_u v_{s,u} per s != s'
    (the pairwise inequalities hold for all u, u' iff they hold for the block's max and the other block's min)."""
    v, t = [leaf(x) for x in v], leaf(t)
    blocks = [v[s * a2:(s + 1) * a2] for s in range(a1)]
    return [["min", *v]] + [["-", ["*", t, ["min", *blocks[s2]]], ["max", *blocks[s1]]]
                            for s1 in range(a1) for s2 in range(a1) if s1 != s2]


def all_zero(name: str, groups) -> dict:
    """The exact ``rigorous-value`` certificate that every term is 0: ``groups`` = [(binds, terms)], each group's
    terms under its ``let`` bindings ``binds`` ([[name, expr], ...], e.g. the case's e^eps as "$t"); the value is
    the sum over all terms of term^2 (fmpq), = 0 iff every term is 0 (each term written once).  No cap."""
    parts = [_let(binds, ["+", 0, *(["pow", e, 2] for e in terms)]) for binds, terms in groups if terms]
    n = sum(len(terms) for _, terms in groups)
    if not parts:
        raise ValueError(f"all_zero {name!r}: no terms")
    return _exact_value(f"{name} ({n} terms, each = 0: their squares sum to 0)", ["+", 0, *parts], 0, 0, False)


def all_nonneg(name: str, groups, *, strict: bool = False) -> dict:
    """The exact ``rigorous-value`` certificate that every term is >= 0 (> 0 with ``strict``): the min over the
    groups [(binds, terms)] of each group's min under its ``let`` bindings (fmpq).  No cap."""
    parts = [_let(binds, ["min", *terms]) for binds, terms in groups if terms]
    n = sum(len(terms) for _, terms in groups)
    if not parts:
        raise ValueError(f"all_nonneg {name!r}: no terms")
    return _exact_value(f"{name} ({n} terms, each {'>' if strict else '>='} 0)", ["min", *parts], 0, None, strict)


def _let(binds, body) -> list:
    return ["let", [[n, leaf(e)] for n, e in binds], body] if binds else body


def _tree(e):
    """The expression ``e`` with every number written as JSON (:func:`leaf`; a faster walk than
    :func:`~rldp_verify.certificates.value.expr`, whose per-node conversions would dominate the claims' time)."""
    t = type(e)
    if t is list or t is tuple:
        return [_tree(a) for a in e]
    if t is str or t is int:
        return e
    return leaf(e)


def _exact_value(name: str, e: list, lower, upper, strict: bool) -> dict:
    """:func:`~rldp_verify.certificates.value.value_certificate` (exact mode) of the tree ``e`` (:func:`_tree`)."""
    st = {"expr": _tree(e), "lower": None if lower is None else qs(lower),
          "upper": None if upper is None else qs(upper), "strict": strict, "prec": 128, "exact": True}
    return envelope("rigorous-value", name, st, {})


def mu_vertex_expr(v, p) -> list:
    """mu(v) = sum_x p_x v_x log(v_x / (p . v)) (RLDP paper, Sec. 5, eq. (44): a row's contribution to I_p(X;Y)) as
    an arb expression; the terms with p_x v_x = 0 are left out (they are 0), and mu(v) = 0 when p . v = 0."""
    pv = sum((Fraction(a) * Fraction(b) for a, b in zip(p, v, strict=True)), Fraction(0))
    if pv == 0:
        return ["+", 0]
    dot = ["+", *(["*", leaf(a), leaf(b)] for a, b in zip(p, v, strict=True) if a * b != 0)]
    return ["let", [["pv", dot]], ["+", 0, *(["*", ["*", leaf(a), leaf(b)], ["log", ["/", leaf(b), "$pv"]]]
                                            for a, b in zip(p, v, strict=True) if a * b != 0)]]


def eq46_bracket_certificates(name: str, sol, *, prec: int = 128) -> list[dict]:
    """The ``rigorous-value`` certificates of the bracket [lower, upper] of LP (46) (RLDP paper, Sec. 5, Theorem 3)
    that :func:`rldp_verify.rldp.mechanisms.polyopt.solve_eq46` returned (``sol``: its vertices V, rows, dual y,
    p, lower, upper), in arb:

    - lower: I_p(X;Y) of the returned rows (Q_v = theta_v v) is >= lower;
    - upper: for every vertex v of V, upper - 1.y - |X| (mu(v) - v.y) >= 0.  Every feasible theta of (46) has
      sum_v theta_v = |X| (each v sums to 1 on Gamma-hat), so sum_v theta_v mu(v) = 1.y + sum_v theta_v (mu(v) -
      v.y) <= 1.y + |X| max_v (mu(v) - v.y) <= upper: weak duality with the multipliers y.  (That V is all of
      Gamma-hat's vertices is a separate ``vertex-enumeration`` certificate; that every cone mechanism's utility
      is at most LP (46)'s optimum is Theorem 3's convexity and homogeneity argument, not certified.)"""
    from rldp_verify.certificates.value import mutual_information_expr, value_certificate

    p, y, a = list(sol.p), [Fraction(v) for v in sol.dual], len(sol.p)
    lo = value_certificate(f"{name}: I_p(X;Y) of LP (46)'s rows >= the bracket's lower end",
                           mutual_information_expr([list(r) for r in sol.rows], p), lower=sol.lower, prec=prec)
    def vy(v):
        return leaf(sum((Fraction(x) * yi for x, yi in zip(v, y, strict=True)), Fraction(0)))
    terms = [["-", ["-", "$u", ["*", a, ["-", mu_vertex_expr(v, p), vy(v)]]], "$s"] for v in sol.vertices]
    up = value_certificate(f"{name}: upper - 1.y - |X| (mu(v) - v.y) >= 0 at all {len(terms)} vertices of Gamma-hat "
                           "(the bracket's upper end, weak duality)",
                           ["let", [["u", leaf(Fraction(sol.upper))], ["s", leaf(sum(y, Fraction(0)))]],
                            ["min", *terms]], lower=0, prec=prec)
    return [lo, up]


def infeasibility_certificate(name: str, E, f) -> dict:
    """The ``lp-optimum`` certificate that {x >= 0 : E x = f} is empty: the phase-one LP min 1.(s+ + s-) s.t.
    E x + s+ - s- = f, x, s+, s- >= 0 (always feasible) has an optimum > 0 (its exact primal and dual; the checker
    proves the optimum, and a positive optimum means no x meets every equality).  Raises ValueError when the
    system is feasible (there is no such certificate)."""
    from rldp_verify.certificates.lp import solve_with_certificate

    E = [[Fraction(v) for v in row] for row in E]
    k, n = len(E), len(E[0])
    Ex = [row + [Fraction(int(i == j)) for j in range(k)] + [Fraction(-int(i == j)) for j in range(k)]
          for i, row in enumerate(E)]
    c = [Fraction(0)] * n + [Fraction(1)] * (2 * k)
    res, doc = solve_with_certificate(f"{name} (phase one: min 1.(s+ + s-) > 0, so no x >= 0 with E x = f)", c,
                                      (), (), Ex, [Fraction(v) for v in f], lower=[0] * (n + 2 * k), sense="min")
    if not -res.value > 0:
        raise ValueError(f"{name}: the system is feasible (phase-one optimum {-res.value})")
    return doc


def gamma_hat_vertex_certificate(name: str, lower_table, exp_eps, vertices, *, include_same_s: bool = True) -> dict:
    """The ``vertex-enumeration`` certificate that ``vertices`` (e.g. an LP (46) solution's) are all the vertices of
    Gamma-hat = Gamma_eps ∩ {sum_x v_x = 1} (RLDP paper, Sec. 5; Definition 3's rows from
    :func:`rldp_verify.rldp.gamma.gamma_inequalities`, without the pairs s1 = s2 when not ``include_same_s``: the
    relaxed cone): the checker proves the list complete, so a bracket's weak-duality bound over it covers
    Gamma-hat."""
    from rldp_verify.certificates.vertices import vertex_certificate
    from rldp_verify.rldp.gamma import gamma_inequalities

    A, b = gamma_inequalities(lower_table, exp_eps, include_same_s=include_same_s)
    n = len(A[0])
    return vertex_certificate(name, A, b, [[1] * n], [1], [list(v) for v in vertices])
