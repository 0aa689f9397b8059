"""Exact checks of the privacy guarantee of a given matrix Q[y|x].

Paper: [lopuhaa-2024].

- :func:`check_ldp` — eps-LDP, Definition 2: Q[y|x] <= e^eps Q[y|x'] for all x, x', y.
- :func:`check_prop3` — (eps, P_X)-RLDP, by Proposition 3 (Sec. 6, eq. (51)):
  Q[y|s,u] <= e^eps Q[y|s',u'] for all y and all (s,u), (s',u') with s != s'.
- :func:`check_single_distribution` — (eps, {P})-RLDP, Definition 1 with F = {P}:
  sum_u Q[y|s,u] P_{u|s} <= e^eps sum_u Q[y|s',u] P_{u|s'} for s != s' with P_s, P_s' > 0 (for s = s'
  the condition is trivial; a sensitive value of probability 0 has no conditional and imposes nothing).
- :func:`check_gamma` — Theorem 2's hypothesis Q_y in Gamma_eps (Definition 3, eq. (3)), evaluated in
  the closed form max_{R1 in D_s1} R1^T Q_{y|s1} - e^eps min_{R2 in D_s2} R2^T Q_{y|s2} <= 0 with
  D_s = {R in P_U : R_u >= L_{u|s}}; the maximum over D_s of R^T a is
  sum_u L_u a_u + (1 - sum_u L_u) max_u a_u (and likewise for the minimum). This equals the maximum of
  the left-hand side of (3) over u1, u2 (App. A.4, (A80)-(A82)), so it is an independent route to
  the same inequalities. ``include_same_s=False`` drops the pairs s1 = s2 (the relaxed cone).

``eps`` is anything :func:`~rldp_verify.rldp.mechanisms.rounding.privacy_level` accepts: a number is eps
itself (NOT e^eps), ``"log(r)"`` or :func:`~rldp_verify.rldp.mechanisms.rounding.exact_level` (r) give
e^eps = r exactly.

Every check is exact (Fractions; a float matrix is read as the rationals its floats denote). When
e^eps is irrational, it is bracketed by rationals lo <= e^eps <= hi: the check returns True when the
matrix passes with lo, False when it fails with hi, and None (undecided) otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import extended_ratio, fraction_str
from rldp_verify.core.validate import is_stochastic, require_sum_one
from rldp_verify.rldp.mechanisms.rounding import PrivacyLevel, exp_eps_bracket, privacy_level

INF = math.inf


@dataclass(frozen=True)
class CheckResult:
    """``holds``: True / False / None (undecided). ``worst``: the constraint with the largest
    lhs - e^eps * rhs (a counterexample when ``holds`` is False)."""

    holds: bool | None
    what: str
    checked: int
    worst: dict | None = None

    def __bool__(self) -> bool:
        return self.holds is True

    def to_json(self) -> dict:
        """The check as JSON: holds (True / False / None = undecided), what, checked, worst case."""
        return {"holds": self.holds, "what": self.what, "checked": self.checked, "worst": self.worst}


def _matrix(mech_or_matrix):
    m = getattr(mech_or_matrix, "matrix", mech_or_matrix)
    out = []
    for r in m:
        row = []
        for v in r:
            if isinstance(v, bool):
                raise InputError(f"matrix entry {v!r} is not a number")
            if isinstance(v, (int, Fraction)):
                row.append(Fraction(v))
            elif isinstance(v, float):
                row.append(Fraction(v))  # exact value of the binary float
            else:
                raise InputError(f"matrix entry {v!r} is not a number")
        out.append(row)
    if not out:
        raise InputError("matrix has no rows")
    return out


def _sizes(mech_or_matrix, a1, a2):
    if hasattr(mech_or_matrix, "sensitive"):
        return len(mech_or_matrix.sensitive), len(mech_or_matrix.public)
    if a1 is None or a2 is None:
        raise InputError("give the sizes a1 = |S| and a2 = |U| for a bare matrix")
    return a1, a2


def _decide(items: Iterable[tuple[Fraction, Fraction, dict]], level: PrivacyLevel, what: str) -> CheckResult:
    """items: (lhs, rhs, witness) meaning lhs <= e^eps * rhs is required (rhs >= 0)."""
    lo, hi = exp_eps_bracket(level)
    holds: bool | None = True
    worst, worst_gap, n = None, None, 0
    for lhs, rhs, wit in items:
        n += 1
        gap = lhs - lo * rhs
        if worst_gap is None or gap > worst_gap:
            worst_gap, worst = gap, {**wit, "lhs": fraction_str(lhs), "rhs": fraction_str(rhs),
                                     "excess": fraction_str(gap)}
        if lhs > hi * rhs:
            holds = False
        elif lhs > lo * rhs and holds is True:
            holds = None
    return CheckResult(holds, what, n, worst)


def check_ldp(mech, eps) -> CheckResult:
    """eps-LDP (Definition 2): max_x Q[y|x] <= e^eps min_x Q[y|x] for every y."""
    level = privacy_level(eps)
    Q = _matrix(mech)

    def items():
        for y, r in enumerate(Q):
            i, j = max(range(len(r)), key=r.__getitem__), min(range(len(r)), key=r.__getitem__)
            yield r[i], r[j], {"y": y, "x": i, "x'": j}

    return _decide(items(), level, "eps-LDP (Definition 2)")


def check_prop3(mech, eps, a1: int | None = None, a2: int | None = None) -> CheckResult:
    """(eps, P_X)-RLDP through Proposition 3: max_u Q[y|s,u] <= e^eps min_u' Q[y|s',u'] for s != s'."""
    level = privacy_level(eps)
    Q = _matrix(mech)
    a1, a2 = _sizes(mech, a1, a2)
    _check_width(Q, a1, a2)

    def items():
        for y, r in enumerate(Q):
            blocks = [r[s * a2:(s + 1) * a2] for s in range(a1)]
            for s in range(a1):
                for t in range(a1):
                    if s == t:
                        continue
                    u = max(range(a2), key=blocks[s].__getitem__)
                    v = min(range(a2), key=blocks[t].__getitem__)
                    yield blocks[s][u], blocks[t][v], {"y": y, "s": s, "u": u, "s'": t, "u'": v}

    return _decide(items(), level, "(eps, P_X)-RLDP via Proposition 3")


def _check_width(Q, a1, a2):
    if any(len(r) != a1 * a2 for r in Q):
        raise InputError(f"matrix rows must have |S||U| = {a1 * a2} entries")


def check_single_distribution(mech, p, eps, a1: int | None = None, a2: int | None = None) -> CheckResult:
    """(eps, {P})-RLDP (Definition 1 with F = {P}); ``p`` a |S| x |U| table or a flat vector (exact)."""
    level = privacy_level(eps)
    Q = _matrix(mech)
    a1, a2 = _sizes(mech, a1, a2)
    _check_width(Q, a1, a2)
    flat = _exact_flat(p, a1 * a2)
    P = [flat[s * a2:(s + 1) * a2] for s in range(a1)]
    marg = [sum(r) for r in P]

    def items():
        for y, r in enumerate(Q):
            cond = output_conditionals(r, P, a1, a2, marg)
            for s in range(a1):
                for t in range(a1):
                    if s != t and cond[s] is not None and cond[t] is not None:
                        yield cond[s], cond[t], {"y": y, "s": s, "s'": t}

    return _decide(items(), level, "(eps, {P})-RLDP (Definition 1, single distribution)")


def _exact_flat(p, n):
    rows = list(p)
    flat = [v for r in rows for v in r] if rows and isinstance(rows[0], (list, tuple)) else rows
    if len(flat) != n:
        raise InputError(f"the distribution has {len(flat)} entries, expected |X| = {n}")
    out = []
    for i, v in enumerate(flat):
        if isinstance(v, bool) or not isinstance(v, (int, Fraction, float)):
            raise InputError(f"P[{i}] = {v!r} is not a number")
        q = Fraction(v)
        if q < 0:
            raise InputError(f"P[{i}] = {v!r} is negative")
        out.append(q)
    if sum(out) != 1:
        require_sum_one(sum(out), "the distribution", repr(float(sum(out))))
    return out


def _extreme_over_D(a, L, largest: bool) -> Fraction:
    """max (or min) of R^T a over D = {R in P_U : R_u >= L_u} (sum L <= 1)."""
    m = max(a) if largest else min(a)
    return sum(lo * x for lo, x in zip(L, a, strict=True)) + (1 - sum(L)) * m


def check_gamma(mech, lower, eps, *, include_same_s: bool = True, a1: int | None = None,
                a2: int | None = None, active=None) -> CheckResult:
    """Every row Q_y in Gamma_eps (Definition 3) for the lower-bound table ``lower`` (|S| x |U|,
    exact). ``active``: the sensitive values whose constraints apply (default: all)."""
    level = privacy_level(eps)
    Q = _matrix(mech)
    a1, a2 = _sizes(mech, a1, a2)
    _check_width(Q, a1, a2)
    L = [[Fraction(v) for v in r] for r in lower]
    if len(L) != a1 or any(len(r) != a2 for r in L):
        raise InputError(f"lower bounds must form a {a1} x {a2} table")
    act = set(range(a1)) if active is None else set(active)

    def items():
        for y, r in enumerate(Q):
            blocks = [r[s * a2:(s + 1) * a2] for s in range(a1)]
            for s1 in act:
                for s2 in act:
                    if s1 == s2 and not include_same_s:
                        continue
                    yield (_extreme_over_D(blocks[s1], L[s1], True), _extreme_over_D(blocks[s2], L[s2], False),
                           {"y": y, "s1": s1, "s2": s2})

    name = "Gamma_eps membership (Definition 3" + ("" if include_same_s else ", pairs s1 != s2 only") + ")"
    return _decide(items(), level, name)


def check_column_stochastic(mech) -> bool:
    """Every column of Q sums to exactly 1 and every entry is >= 0 (exact)."""
    return is_stochastic(_matrix(mech), columns=True)


# ---------------------------------------------------------------------------------------------
# Eq. (62): the realised eps* (Sec. 8.3), its exact, mpmath and arb routes
# ---------------------------------------------------------------------------------------------


def output_conditionals(row, P, a1: int, a2: int, marg=None) -> list:
    """P(Y=y|S=s) = sum_u Q[y|s,u] P_{s,u} / P_s for one output row (exact); None for s with P_s = 0.
    ``marg``: the marginals P_s, when the caller has them."""
    if marg is None:
        marg = [sum(P[s]) for s in range(a1)]
    return [None if marg[s] == 0 else sum(row[s * a2 + u] * P[s][u] for u in range(a2)) / marg[s]
            for s in range(a1)]


def output_conditionals_arb(row, P, a1: int, a2: int) -> list:
    """P(Y=y|S=s) = sum_u Q[y|s,u] P_{u|s} for one row of arb balls (P exact), at the current arb precision;
    s with P_s = 0 are left out. Rigorous."""
    import flint

    from rldp_verify.core.rigorous import arb_exact

    out = []
    for s in range(a1):
        ms = sum(P[s])
        if ms != 0:
            out.append(sum((row[s * a2 + u] * arb_exact(P[s][u] / ms) for u in range(a2)), flint.arb(0)))
    return out


def realized_ratio(Q, P, a1: int, a2: int):
    """e^{eps*} of eq. (62): max over y, s != s' of P(Y=y|S=s) / P(Y=y|S=s') for one exact P (0/0 = 1,
    x/0 = inf), with the maximising {"y", "s", "s_prime"} (None when fewer than two s have P_s > 0: ratio 1).
    Exact; the one implementation of eq. (62) (the audit's ``audit_single`` and :func:`realized_eps` use it)."""
    marg = [sum(P[s]) for s in range(a1)]
    best = None
    arg: tuple[int, int, int] | None = None
    for y, row in enumerate(Q):
        cond = output_conditionals(row, P, a1, a2, marg)
        # for each s the best s' is the smallest conditional (first index, s' != s): _ratio(a, b) does not
        # increase in b. O(|S|) per y instead of O(|S|^2) (240 secrets x 24 outputs: 1.4 M ratios, 26 s);
        # the same (first) maximiser as the double loop over (s, s')
        low = sorted((c, t) for t, c in enumerate(cond) if c is not None)[:2]
        for s in range(a1):
            if cond[s] is None:
                continue
            t = next((t for _, t in low if t != s), None)
            if t is None:
                continue
            r = extended_ratio(cond[s], cond[t])
            if best is None or r > best:
                best, arg = r, (y, s, t)
    if best is None or arg is None:
        return Fraction(1), None
    y, s, t = arg
    return best, {"y": y, "s": s, "s_prime": t, "u": None, "u_prime": None}


def realized_log_ratios_arb(Q, P, a1: int, a2: int) -> list:
    """Enclosures of log(P(Y=y|S=s) / P(Y=y|S=s')) for every y and s != s' with P_s, P_s' > 0 (Q arb balls, P
    exact): eq. (62)'s eps* is their maximum (0 when the list is empty). Rigorous."""
    out = []
    for row in Q:
        cond = output_conditionals_arb(row, P, a1, a2)
        for i, c1 in enumerate(cond):
            for j, c2 in enumerate(cond):
                if i != j:
                    out.append((c1 / c2).log())
    return out


def realized_eps(mech, p, a1: int | None = None, a2: int | None = None, *, dps: int | None = None):
    """The realised privacy parameter of Sec. 8.3 (eq. (62)):
    eps* = max_{y, s1, s2} log( P(Y=y|S=s1) / P(Y=y|S=s2) ) under X ~ P (mpmath; +inf when a conditional
    output probability is 0 while another is positive; s with P_s = 0 are skipped)."""
    import mpmath

    from rldp_verify.core.numbers import to_mpf, working_precision

    Q = _matrix(mech)
    a1, a2 = _sizes(mech, a1, a2)
    _check_width(Q, a1, a2)
    flat = _exact_flat(p, a1 * a2)
    best, _ = realized_ratio(Q, [flat[s * a2:(s + 1) * a2] for s in range(a1)], a1, a2)
    if best == INF:
        return mpmath.inf
    with working_precision(dps):
        return mpmath.log(to_mpf(best))
