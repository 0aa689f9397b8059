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
two secrets of positive mass). Exact: rationals throughout.

- random fake data (UE-r, F_j(y) = Z_j(y) (n h_1 + (k_j - n) h_0) / k_j with n the number of ones of y_j, the law of
  UE of a uniformly random value): L_j / F_j = w_j(n) h_j(y_j[t_j]) with w_j(n) = k_j / (n h_1 + (k_j - n) h_0), so
  E[. | s] = w_j(n) (h_0 + (h_1 - h_0) pi_j(Y | s)) with Y the set of values whose bit is 1 (|Y| = n): the bits of
  the attribute are coupled through n, so its options are the 2^(k_j) sets Y, not a sum over its values. They are
  not enumerated: for Dinkelbach's lambda, the attribute's best term max_Y w_j(|Y|) (h_0 (1 - lambda) + sum_{v in Y}
  g(v)), g(v) = (h_1 - h_0) (pi_j(v | s) - lambda pi_j(v | s')), is, for each n, attained by the n values of largest
  g (w_j(n) > 0), so the exact maximiser is found among k_j + 1 prefixes of g sorted
  (:func:`_random_oracle`); the iteration (:func:`_dinkelbach`) is the same as for finite options. Needs
  0 < p, q < 1 (every output has positive probability, so every denominator is positive).
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
    ratio,
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


def _terms(parts, pis, pjs, first: int = 0):
    """(options, weights) of the ratio of sums for the pair with marginals pis (numerator) and pjs (``first``: the
    index of parts[0] among the attributes, for the labels)."""
    options, weights = [], []
    for j, (c, fake) in enumerate(parts, first):
        pi, pj = pis[j - first], pjs[j - first]
        if fake == "uniform":
            options.append([((c.b + (c.a - c.b) * pi[v], c.b + (c.a - c.b) * pj[v]), f"attribute {j}: y = {v}")
                            for v in range(c.k)])
            weights.append(c.k)
            continue
        h = []
        for b in (0, 1):
            if c.bit.prob(b, 0) == 0:
                raise InputError("RS+FD with UE needs 0 < q < 1 (a cold bit that is never, or always, 1)")
            h.append(c.bit.prob(b, 1) / c.bit.prob(b, 0))
        for v in range(c.d):
            if pi[v] or pj[v]:
                options.append([((pi[v] * h[b], pj[v] * h[b]), f"attribute {j}: bit {v} = {b}")
                                for b in (0, 1)])
                weights.append(1)
    return options, weights


def _h(c, fake) -> tuple:
    """(h_0, h_1), h(b) = Pr[b | hot] / Pr[b | cold] of a unary encoding's bit (0 < q < 1; 0 < p < 1 too for UE-r)."""
    if not 0 < c.bit.q < 1 or (fake == "random" and not 0 < c.bit.p < 1):
        raise InputError(f"RS+FD with UE and {fake} fake data needs 0 < q < 1"
                         + (" and 0 < p < 1 (every output possible)" if fake == "random" else ""))
    return c.bit.prob(0, 1) / c.bit.prob(0, 0), c.bit.prob(1, 1) / c.bit.prob(1, 0)


def _random_oracle(c, pi, pj, j):
    """UE-r attribute j: lambda -> the exact maximiser over the sets Y (bits 1) of w(|Y|) (h_0 + (h_1 - h_0) pi(Y|s))
    - lambda w(|Y|) (h_0 + (h_1 - h_0) pi(Y|s')), as ((num, den), label) (see the module docstring)."""
    h0, h1 = _h(c, "random")
    k, dh = c.d, h1 - h0
    w = [Fraction(k) / (n * h1 + (k - n) * h0) for n in range(k + 1)]

    def best(lam):
        order = sorted(range(k), key=lambda v: -dh * (pi[v] - lam * pj[v]))
        a = b = Fraction(0)
        top, arg = w[0] * h0 * (1 - lam), (0, a, b)
        for n, v in enumerate(order, 1):
            a, b = a + pi[v], b + pj[v]
            val = w[n] * (h0 * (1 - lam) + dh * (a - lam * b))
            if val > top:
                top, arg = val, (n, a, b)
        n, a, b = arg
        ones = sorted(order[:n])
        return ((w[n] * (h0 + dh * a), w[n] * (h0 + dh * b)),
                f"attribute {j}: {n} ones, at values {ones[:20]}{' ...' if n > 20 else ''}")
    return best


def _static_oracle(opts, wt):
    def best(lam):
        e = max(opts, key=lambda e: wt * (e[0][0] - lam * e[0][1]))
        return (wt * e[0][0], wt * e[0][1]), e[1]
    return best


def _dinkelbach(oracles, limit: int = 1000):
    """Dinkelbach's iteration with each part's exact maximiser given as an oracle lambda -> ((num, den), label):
    as :func:`~rldp_verify.structured.channels.max_ratio_of_sums` (which enumerates each part's options)."""
    lam = Fraction(1)
    for _ in range(limit):
        choice = [f(lam) for f in oracles]
        new = ratio(sum(e[0][0] for e in choice), sum(e[0][1] for e in choice))
        if new is None or new == INF:
            return new if new is not None else Fraction(1), choice
        if new <= lam:
            return lam, choice
        lam = new
    raise InputError("Dinkelbach's iteration did not stop")  # pragma: no cover - finitely many choices


def _pair(parts, pis, pjs):
    """(max over y of the ratio of sums, the choice) for one ordered pair of secrets."""
    if all(fake != "random" for _, fake in parts):
        return max_ratio_of_sums(*_terms(parts, pis, pjs))
    oracles = []
    for j, (c, fake) in enumerate(parts):
        if fake == "random":
            oracles.append(_random_oracle(c, pis[j], pjs[j], j))
        else:
            opts, wts = _terms([(c, fake)], pis[j:j + 1], pjs[j:j + 1], j)
            oracles += [_static_oracle(o, wt) for o, wt in zip(opts, wts, strict=True)]
    return _dinkelbach(oracles)


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
            val, choice = _pair(parts, pis[i], pis[j])
            if best is None or _key(val) > _key(best):
                best = val
                wit = {"s": s, "s_prime": t, "y": "; ".join(o[1] for o in choice
                                                           if o[0][0] != 0 or o[0][1] != 0)[:2000]}
    return best, wit


def _key(v):
    return float("inf") if v == INF else v
