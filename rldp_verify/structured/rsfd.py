"""(eps, P)-RLDP of random sampling plus fake data (RS+FD, multi-freq-ldpy's ``RSpFD_GRR_Client`` and
``RSpFD_UE_zero_Client``) for one exact P, without enumerating outputs (issue 26 item 2).

The S x U mapping of the multi-attribute domain. The input is a tuple t = (t_0, ..., t_{D-1}), t_j in
{0, ..., k_j - 1}, indexed lexicographically (t_0 most significant), as the structure's dense channel and the
library's domain are. With ``sizes`` = (|S|, |U|), S is the first r attributes and U the others, where r is the
one prefix with k_0 ... k_{r-1} = |S| (then |U| = k_r ... k_{D-1}): x = (s, u) is tuple s |U| + u, s the
lexicographic index of (t_0, ..., t_{r-1}) and u of (t_r, ..., t_{D-1}). Another split is refused.

The reduction. RS+FD draws a secret attribute j uniformly, reports it through L_j and every other attribute i
as a fake report of law F_i, so Q(y | t) = prod_i F_i(y_i) (1/D) sum_j L_j(y_j | t_j) / F_j(y_j)
(:mod:`rldp_verify.structured.composite`, ``FakeData``). The factor prod_i F_i(y_i) / D cancels in the ratio,
and averaging over P(u | s) acts attribute by attribute:
P(y | s) / P(y | s') = sum_j E[L_j / F_j | s] / sum_j E[L_j / F_j | s'], with E[. | s] over the marginal
pi_j(. | s) of attribute j under P(. | s) (a point mass at s's own value for j < r):

- uniform fake values (GRR, F_j = 1/k_j): E[L_j / F_j | s] = k_j (b_j + (a_j - b_j) pi_j(y_j | s)), one term per
  attribute whose options are the k_j values of y_j;
- zero-vector fake data (UE, F_j = Z_j the all-cold law): L_j / Z_j = h_j(y_j[t_j]) with h(b) = Pr[b|hot] /
  Pr[b|cold], so E[. | s] = sum_v pi_j(v | s) h_j(y_j[v]), one term per bit v whose options are its two values.

The output chooses every term independently, so for each ordered pair of secrets s != s' with positive mass the
supremum over y is a maximum ratio of sums, found exactly by Dinkelbach's iteration
(:func:`rldp_verify.structured.channels.max_ratio_of_sums`); rho is the largest over the pairs (1 with fewer than
two secrets of positive mass). Exact: rationals throughout. RS+FD with random fake data (UE-r) is refused: its
fake law depends on the number of ones of the whole report, so under P the attribute's term is not a sum over
its values with fixed options.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import (
    INF,
    FakeDataMixture,
    FakeDataUnary,
    Symmetric,
    UnaryProduct,
    max_ratio_of_sums,
)

__all__ = ["RSFD", "rsfd_p_audit", "attribute_split"]

def _rsfd_types() -> tuple:
    from rldp_verify.structured.composite import FakeData

    return (FakeDataMixture, FakeData)


RSFD = _rsfd_types()
MAX_WORK = 4_000_000      # ordered pairs of secrets x terms of one (eps, P) audit


def _parts(st) -> list:
    """[(component, fake law)] of an RS+FD structure."""
    from rldp_verify.structured.composite import FakeData

    if isinstance(st, FakeDataUnary):
        return [(c, "zero") for c in st.components]
    if isinstance(st, FakeDataMixture):
        return [(c, "uniform") for c in st.components]
    if isinstance(st, FakeData):
        if any(f == "random" for _, f in st.parts):
            raise InputError("(eps, P)-RLDP of RS+FD with random fake data (UE-r) is not implemented without "
                             "enumerating outputs: its fake law depends on the number of ones of the whole report, "
                             "so under P an attribute's term is not a sum over its values; use the dense channel")
        return list(st.parts)
    raise InputError(f"{type(st).__name__} is not an RS+FD structure")


def _size(c) -> int:
    return c.k if isinstance(c, Symmetric) else c.d


def attribute_split(ks: list, sizes) -> int:
    """r: S = the first r attributes (k_0 ... k_{r-1} = |S|, the rest multiplying to |U|); InputError otherwise."""
    a1, a2 = (int(v) for v in sizes)
    for r in range(len(ks) + 1):
        if math.prod(ks[:r]) == a1 and math.prod(ks[r:]) == a2:
            return r
    raise InputError(f"RS+FD on attributes of sizes {ks}: |S| x |U| = {a1} x {a2} is not a split into the first "
                     "attributes (S) and the others (U)")


def _marginals(cond_row, ks, r, s):
    """pi_j(. | s) for every attribute j: a point mass at s's own value for j < r, else the marginal of u."""
    digits_s, rem = [], s
    for k in reversed(ks[:r]):
        digits_s.append(rem % k)
        rem //= k
    digits_s.reverse()
    out = [[Fraction(int(v == d)) for v in range(k)] for d, k in zip(digits_s, ks[:r], strict=True)]
    rest = ks[r:]
    marg = [[Fraction(0)] * k for k in rest]
    for u, p in enumerate(cond_row):
        if p:
            rem = u
            for j in range(len(rest) - 1, -1, -1):
                marg[j][rem % rest[j]] += p
                rem //= rest[j]
    return out + marg


def _terms(parts, pis, pjs):
    """(options, weights) of the ratio of sums for the pair with marginals pis (numerator) and pjs."""
    options, weights = [], []
    for j, (c, fake) in enumerate(parts):
        if fake == "uniform":
            options.append([((c.b + (c.a - c.b) * pis[j][v], c.b + (c.a - c.b) * pjs[j][v]), f"attribute {j}: y = {v}")
                            for v in range(c.k)])
            weights.append(c.k)
            continue
        h = []
        for b in (0, 1):
            if c.bit.prob(b, 0) == 0:
                raise InputError("RS+FD with UE needs 0 < q < 1 (a cold bit that is never, or always, 1)")
            h.append(c.bit.prob(b, 1) / c.bit.prob(b, 0))
        for v in range(c.d):
            if pis[j][v] or pjs[j][v]:
                options.append([((pis[j][v] * h[b], pjs[j][v] * h[b]), f"attribute {j}: bit {v} = {b}")
                                for b in (0, 1)])
                weights.append(1)
    return options, weights


def rsfd_p_audit(st, P, sizes):
    """(rho, witness) of eq. (62) for RS+FD ``st`` and the exact |S| x |U| table P (see the module docstring);
    witness None when fewer than two secrets have positive mass."""
    from rldp_verify.structured.rldp import _conditionals

    parts = _parts(st)
    for c, fake in parts:
        if not isinstance(c, Symmetric if fake == "uniform" else UnaryProduct):
            raise InputError(f"RS+FD fake data {fake!r} with a {type(c).__name__} component is not modelled")
    ks = [_size(c) for c, _ in parts]
    r = attribute_split(ks, sizes)
    cond = _conditionals(P, sizes)
    secrets = [s for s, row in enumerate(P) if sum(Fraction(v) for v in row) > 0]
    if len(cond) < 2:
        return Fraction(1), None
    work = len(cond) ** 2 * sum(ks)
    if work > MAX_WORK:
        raise InputError(f"RS+FD (eps, P)-RLDP: {len(cond)}^2 pairs of secrets x {sum(ks)} values is more than "
                         f"{MAX_WORK} terms")
    pis = [_marginals(row, ks, r, s) for row, s in zip(cond, secrets, strict=True)]
    best, wit = None, None
    for i, s in enumerate(secrets):
        for j, t in enumerate(secrets):
            if i == j:
                continue
            options, weights = _terms(parts, pis[i], pis[j])
            val, choice = max_ratio_of_sums(options, weights)
            if best is None or _key(val) > _key(best):
                best = val
                wit = {"s": s, "s_prime": t, "y": "; ".join(o[1] for o in choice
                                                           if o[0][0] != 0 or o[0][1] != 0)[:2000]}
    return best, wit


def _key(v):
    return float("inf") if v == INF else v
