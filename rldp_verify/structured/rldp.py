"""(eps, P)-RLDP of a structured channel for one exact distribution P on S x U, without enumerating outputs
(issue 26 item 1; eq. (62) of the RLDP paper as :func:`rldp_verify.rldp.mechanisms.guarantees.realized_ratio`
computes it on a dense matrix).

The input domain X = S x U is indexed S-major (x = s |U| + u), as in :meth:`Mechanism.from_matrix`, and
P(Y = y | S = s) = sum_u P(u | s) Q(y | (s, u)) over the secrets s with P_s > 0; the ratio is the maximum over y and
s != s' of P(y|s) / P(y|s') (0/0 = 1, x/0 = inf), and 1 when fewer than two secrets have positive mass.

- :class:`~rldp_verify.structured.channels.Symmetric` (GRR with (a, b) on k = |S||U| values): for y = (s0, u0),
  P(y|s) = b + (a - b) P(u0|s0) when s = s0 and b otherwise, so the ratios are R(c) = (b + (a - b) c) / b and 1/R(c)
  with c = P(u0|s0); R is monotone in c, so rho = max(R(c*), 1/R(c*)) with c* = max_{s, u} P(u|s).
- RS+FD (``FakeDataMixture``, ``FakeDataUnary``, ``FakeData`` with uniform or zero fake data): S = the first
  attributes, U = the others, a ratio of sums per pair of secrets (:mod:`rldp_verify.structured.rsfd`).
- :class:`~rldp_verify.structured.channels.UnaryProduct` (one bit per x): P(y|s) = Z(y) sum_u P(u|s) h(y_(s,u)) with
  Z the all-cold law and h(b) = Pr[b|hot] / Pr[b|cold]; the bits of s and s' are disjoint, so the ratio is at most
  h_max / h_min and attains it (every bit of s at argmax h, of s' at argmin h): rho = h_max / h_min, the eps-LDP
  ratio, for any P giving two secrets positive mass.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import INF, PublicMixture, SubsetSelection, Symmetric, UnaryProduct, ratio
from rldp_verify.structured.rsfd import RSFD, rsfd_p_audit

__all__ = ["p_ratio", "p_audit", "p_interval", "SUPPORTED"]

SUPPORTED = (Symmetric, UnaryProduct, SubsetSelection, PublicMixture, *RSFD)
MAX_HASHES = 2_000_000   # hash evaluations (seeds x inputs) of one local-hashing (eps, P) audit


def _conditionals(P, sizes) -> list:
    """The rows P(u | s) of the secrets with P_s > 0 (exact)."""
    try:
        a1, a2 = (int(v) for v in sizes)
    except (TypeError, ValueError):
        raise InputError(f"sizes = {sizes!r} must be (|S|, |U|)") from None
    rows = [list(r) for r in P]
    if len(rows) != a1 or any(len(r) != a2 for r in rows):
        raise InputError(f"P must be an |S| x |U| = {a1} x {a2} table")
    out = []
    for r in rows:
        if any(not isinstance(v, (int, Fraction)) or v < 0 for v in r):
            raise InputError(f"P has an entry that is not an exact probability >= 0 in the row {r}")
        m = sum(r)
        if m > 0:
            out.append([Fraction(v) / m for v in r])
    if sum(sum(Fraction(v) for v in r) for r in rows) != 1:
        raise InputError("P must sum to 1 exactly")
    return out


def _one(v):
    return Fraction(1) if v is None else v


def _key(v):
    return float("inf") if v == INF else v


def p_ratio(structure, P, sizes):
    """e^{eps*} of eq. (62) for ``structure`` on X = S x U (``sizes`` = (|S|, |U|)) and the exact distribution P
    (an |S| x |U| table of ints / Fractions summing to 1). Exact: a Fraction or inf."""
    return p_audit(structure, P, sizes)[0]


def p_interval(structure, P, sizes):
    """(lower, upper, witness): a certified enclosure of e^{eps*} of eq. (62); lower == upper (exact) for every
    structure but local hashing over a seed range, whose (eps, P) ratio depends on the library's hash at every
    seed (:func:`_hashing`)."""
    if isinstance(structure, PublicMixture):
        _conditionals(P, sizes)                     # the checks of the table
        k = int(sizes[0]) * int(sizes[1])
        if structure.d != k:
            raise InputError(f"PublicMixture on {structure.d} values is not a channel on the {sizes[0]} x {sizes[1]} = "
                             f"{k} inputs of P (|S| x |U|)")
        return _hashing(structure, P, int(sizes[1]))
    rho, wit = p_audit(structure, P, sizes)
    return rho, rho, wit


def _hashing(st, P, a2):
    """Local hashing: output (seed h, bucket v), P(y | s) = w_h (b + (a - b) m_s^h(v)) with m_s^h(v) the
    conditional mass of the cells of s hashed to v; w_h cancels in the ratio, so each seed's ratio is
    max_v max f_s / min f_s' (f = b + (a - b) m, over distinct secrets with P_s > 0). The seeds of
    ``st.seeds`` have positive probability: their maximum is a lower end (the exact ratio when ``st.complete``,
    the seeds being the whole public range); the upper end is max(a/b, b/a), the ratio when one bucket takes
    every cell of s and none of s' (then eps-LDP's ratio)."""
    totals = [sum(Fraction(t) for t in r) for r in P]
    rows = [(s, [Fraction(v) / totals[s] for v in r]) for s, r in enumerate(P) if totals[s] > 0]
    seeds = list(st.seeds)
    if len(seeds) * len(P) * a2 > MAX_HASHES:
        raise InputError(f"local hashing (eps, P)-RLDP: {len(seeds)} seeds x {len(P) * a2} inputs is more than "
                         f"{MAX_HASHES} hash evaluations")
    top = _max(ratio(st.a, st.b), ratio(st.b, st.a))
    if len(rows) < 2:
        return Fraction(1), Fraction(1), None
    best, wit = Fraction(1), None
    den = math.lcm(*(c.denominator for _, cond in rows for c in cond))
    cells = [(s, [(u, int(c * den)) for u, c in enumerate(cond) if c]) for s, cond in rows]   # c = n / den
    for h in seeds:
        mass: dict = {}
        for s, nz in cells:
            for u, num in nz:
                m = mass.setdefault(st.hash_fn(s * a2 + u, h), {})
                m[s] = m.get(s, 0) + num
        for v, ms in mass.items():
            f = sorted((st.b + (st.a - st.b) * Fraction(ms.get(s, 0), den), s) for s, _ in rows)
            r = _one(ratio(f[-1][0], f[0][0]))
            if _key(r) > _key(best):
                best, wit = r, {"s": f[-1][1], "s_prime": f[0][1], "y": f"(bucket {v}, seed {h})"}
    if wit is None:
        wit = {"s": rows[0][0], "s_prime": rows[1][0], "y": "every output of the searched seeds: ratio 1"}
    return best, (best if st.complete else top), wit


def _max(*vals):
    vals = [v for v in vals if v is not None]
    return max(vals, key=_key) if vals else Fraction(1)


def p_audit(structure, P, sizes):
    """(rho, witness) with rho = :func:`p_ratio` and witness a dict (s, s_prime, y: descriptions of the pair of
    secrets and of an output attaining rho; None when fewer than two secrets have positive mass)."""
    if isinstance(structure, RSFD):
        return rsfd_p_audit(structure, P, sizes)
    cond = _conditionals(P, sizes)
    a1, a2 = int(sizes[0]), int(sizes[1])
    k = a1 * a2
    n = {"Symmetric": "k", "UnaryProduct": "d", "SubsetSelection": "k", "PublicMixture": "d"}.get(
        type(structure).__name__)
    if n is None:
        raise InputError(f"(eps, P)-RLDP without enumerating outputs is implemented for GRR, unary encodings and "
                         f"subset selection, not for {type(structure).__name__} ({structure.kind}); use the dense "
                         f"channel (channel(obj, sizes=...)) at small sizes")
    if getattr(structure, n) != k:
        raise InputError(f"{type(structure).__name__} on {getattr(structure, n)} values is not a channel on the "
                         f"{a1} x {a2} = {k} inputs of P (|S| x |U|)")
    secrets = [s for s, r in enumerate(P) if sum(Fraction(v) for v in r) > 0]
    if len(cond) < 2:
        return Fraction(1), None
    if isinstance(structure, Symmetric):
        return _grr(structure, cond, secrets, a2)
    if isinstance(structure, UnaryProduct):
        return _ue(structure, secrets)
    if isinstance(structure, PublicMixture):
        raise InputError("local hashing has a certified interval, not one exact ratio: use p_interval")
    return _subsets(structure, cond, secrets, a1, a2)


def _grr(structure, cond, secrets, a2):
    c, i, u = max((max(r), i, r.index(max(r))) for i, r in enumerate(cond))
    a, b = structure.a, structure.b
    R = ratio(b + (a - b) * c, b)
    inv = None if R is None else (INF if R == 0 else (Fraction(0) if R == INF else 1 / R))
    s0, other = secrets[i], secrets[1] if i == 0 else secrets[0]
    rho = max(_one(R), _one(inv), key=_key)
    up = _key(_one(R)) >= _key(_one(inv))
    return rho, {"s": s0 if up else other, "s_prime": other if up else s0,
                 "y": f"x = (s, u) = ({s0}, {u}) reported (index {s0 * a2 + u}), P(u|s) = {c}"}


def _ue(structure, secrets):
    bit = structure.bit
    if bit.prob(0, 0) == 0 or bit.prob(1, 0) == 0:
        raise InputError("(eps, P)-RLDP of a unary encoding needs 0 < q < 1 here (a cold bit that is never, or "
                         "always, 1)")
    h = [bit.prob(v, 1) / bit.prob(v, 0) for v in (0, 1)]
    hi, lo = max((0, 1), key=lambda v: h[v]), min((0, 1), key=lambda v: h[v])
    return _one(ratio(max(h), min(h))), {"s": secrets[0], "s_prime": secrets[1],
                                         "y": f"the bits of s = {hi}, the bits of s' = {lo}, the others any"}


def _subsets(st, cond, secrets, a1, a2):
    """Subset selection: Q(Y | x) = A (x in Y) or B, so P(Y | s) = B + (A - B) m_s(Y) with m_s(Y) the
    conditional mass of row s inside Y. For A >= B the ratio of (s, s') grows with m_s(Y) and falls with
    m_s'(Y); both extremes are reached at once by one Y of size m: the min(m, |U|) heaviest cells of row s, then
    the (|S| - 2) |U| cells of the other rows, then the lightest cells of row s'. For A < B the roles swap."""
    if st.ordered and st.m >= 2:
        raise InputError("(eps, P)-RLDP of ordered subset selection (m >= 2) is not implemented without "
                         "enumerating outputs; use the dense channel at small sizes")
    A = st._prob({0}, 0)
    B = st._prob(set(), 0)
    take = min(st.m, a2)
    rest = max(0, st.m - take - (a1 - 2) * a2)
    X = [sum(sorted(r, reverse=True)[:take]) for r in cond]      # the largest mass of row t in a subset
    Z = [sum(sorted(r)[:rest]) for r in cond]                    # the smallest mass of row t forced into it
    n = range(len(cond))
    # the ratio of (s, s') is separable and monotone: f(X_s, Z_s') for A >= B (up in X_s, down in Z_s'),
    # f(Z_s, X_s') for A < B (down in Z_s, up in X_s'); over s != s' the best pair is among the two best rows
    # of each side
    if A >= B:
        first, second = sorted(n, key=lambda t: -X[t])[:2], sorted(n, key=lambda t: Z[t])[:2]
    else:
        first, second = sorted(n, key=lambda t: Z[t])[:2], sorted(n, key=lambda t: -X[t])[:2]
    best = None
    for i in first:
        for j in second:
            if i == j:
                continue
            mi, mj = (X[i], Z[j]) if A >= B else (Z[i], X[j])
            r = _one(ratio(B + (A - B) * mi, B + (A - B) * mj))
            if best is None or _key(r) > _key(best[0]):
                best = (r, i, j, take, rest)
    r, i, j, take, rest = best
    hs, ls = (secrets[i], secrets[j]) if A >= B else (secrets[j], secrets[i])
    return r, {"s": secrets[i], "s_prime": secrets[j],
               "y": f"a subset of size {st.m}: the {take} likeliest cells of secret {hs}, then cells of the other "
                    f"secrets, then the {rest} least likely of secret {ls}"}
