"""Gamma_eps as the cone over a product of small per-block polytopes, every block vertex in closed form.

Paper: [lopuhaa-2024], Sec. 5, Definition 3 / eq. (3), Theorem 3 (Gamma-hat), and Sec. 8
(NR = Theorem 3 with F = {P-hat}).

PolyOpt (Definition 3 with the pairs s1 = s2).  With Lambda_s = sum_u L_{u|s} < 1, c_s = 1 - Lambda_s and
h_{s,u}(v) = c_s v_{s,u} + L_s . v_s (see :mod:`rldp_verify.rldp.gamma`), Gamma_eps = {v : max h <= e^eps min h,
v >= 0}.  Scaling a nonzero v of the cone so that min h = 1 puts every block h_s in

    P_s = { h in [1, e]^U : h_u >= L_s . h for all u }        (e = e^eps),

and conversely every point of prod_s P_s has max h <= e <= e min h.  So Gamma_eps = cone(prod_s W_s)
with W_s the image of P_s in v-coordinates, v_{s,u} = (h_u - L_s . h) / c_s.  The vertices of P_s are
(exactly these; proof: a vertex has |U| tight independent constraints among h_u = 1, h_u = e,
h_u = L_s . h; if some h_u = L_s . h then h_u = min h =: m, and m < 1 is impossible, m = 1 makes the
point one of type (i)):

  (i)  h = 1 + (e - 1) 1_B, B subset of U, feasible iff B = U or L_s . h <= 1, i.e.
       c_s >= (e - 1) L_s(B).  In v-coordinates  w = beta on U \\ B and beta + gamma on B with
       beta = 1 - (e - 1) L_s(B) / c_s >= 0, gamma = (e - 1) / c_s  (B = U: w = e 1);
  (ii) h = m on a set A (nonempty, not U), e on U \\ A, with m = L_s . h = e L_s(U\\A) / (1 - L_s(A)); a
       vertex iff 1 < m (m < e always as c_s > 0).  In v-coordinates  w = e / (1 - L_s(A)) on U \\ A, 0 on A.

(The tight rows {e_u - L_s : u in A} u {e_w : w not in A} are independent because 1 - L_s(A) > 0.)
Every block vertex thus takes at most two values: alpha1 on a set S1 and alpha2 on U \\ S1.  The
closed form is checked against cddlib on random blocks in the tests.

NR (F = {P-hat}; L_{u|s} = P-hat_{u|s}): the cone is {v >= 0 : max_s r_s <= e min_s r_s} with
r_s = P-hat_{U|s} . v_s over the active s (P-hat_s > 0); coordinates with P-hat_x = 0 enter neither the
constraints nor the utility ("free").  Scaling min r = 1: W_s = {v_s >= 0 : P-hat_{U|s} . v_s in [1, e]}
on the positive coordinates, with vertices r e_u / P-hat_{u|s}, r in {1, e}.

Everything that decides which points are vertices is exact (integers); the float values carry a
proven error bound (:func:`block_data`).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import lcm

import numpy as np

from rldp_verify.core import progress
from rldp_verify.core.errors import InputError

# IEEE binary64 unit roundoff; the trusted accuracy of numpy's log in ulp (as in mechanisms.polyopt)
U64 = 2.0 ** -53
LOG_ULPS = 1024


@dataclass
class Block:
    """The vertices of one block polytope W_s.  Vertex j takes the value ``a1[j]`` on the coordinates
    of ``masks[j]``, ``a3[j]`` on the single coordinate ``kidx[j]`` (-1: none) and ``a2[j]`` on the
    rest (bit k <-> ``coords[k]``).  Floats are the correctly rounded exact values; ``_exact(j)``
    gives (alpha1, alpha2, alpha3) as Fractions."""

    s: int
    coords: tuple[int, ...]           # global coordinates x of this block (S-major), in bit order
    masks: np.ndarray                 # int64
    kidx: np.ndarray                  # int64, -1 when there is no third level
    a1: np.ndarray
    a2: np.ndarray
    a3: np.ndarray
    _exact: Callable[[int], tuple[Fraction, Fraction, Fraction]]

    def __len__(self) -> int:
        return len(self.masks)

    def dense(self, rows=None) -> np.ndarray:
        """The vertices ``rows`` (default: all) as a dense (vertices x coordinates) float array: the float
        counterpart of :meth:`exact_point`, the one place that spells out the rule above in floats."""
        idx = np.arange(len(self.masks)) if rows is None else np.asarray(rows, dtype=np.int64)
        nb = len(self.coords)
        bits = ((self.masks[idx][:, None] >> np.arange(nb)[None, :]) & 1).astype(bool)
        W = np.where(bits, self.a1[idx][:, None], self.a2[idx][:, None])
        k = self.kidx[idx]
        has = np.nonzero(k >= 0)[0]
        W[has, k[has]] = self.a3[idx][has]
        return W

    def exact_point(self, j: int) -> tuple[Fraction, ...]:
        """The unnormalised vertex w_j over ``coords`` (exact)."""
        x1, x2, x3 = self._exact(int(j))
        m, k = int(self.masks[j]), int(self.kidx[j])
        return tuple(x3 if i == k else (x1 if (m >> i) & 1 else x2) for i in range(len(self.coords)))


def _ints(values) -> tuple[list[int], int]:
    """Rationals as integers over a common denominator."""
    fr = [Fraction(v) for v in values]
    d = lcm(*[f.denominator for f in fr]) if fr else 1
    return [int(f * d) for f in fr], d


#: items of a block's per-vertex Python loops between two deadline checks (progress.update): a few
#: milliseconds of work, so that a time limit stops a 2^20-vertex block within well under a second
_TICK = 1 << 14


def _ticked(items: Sequence) -> Iterator:
    """The elements of ``items``, with a deadline check (:func:`progress.update`) every :data:`_TICK` of them."""
    for i in range(0, len(items), _TICK):
        progress.update()
        yield from items[i:i + _TICK]


def _subset_sums(vals: list[int], nbits: int) -> list[int]:
    """sum_{k in mask} vals[k] for all masks 0 .. 2^nbits - 1 (exact Python ints)."""
    out = [0]
    for k in range(nbits):
        v = vals[k]
        out = out + [x + v for x in _ticked(out)]
    return out


def _ratios(num: list[int], den: list[int]) -> np.ndarray:
    """Correctly rounded float64 of exact integer ratios (Python int / int rounds correctly)."""
    return np.array([n / d for n, d in zip(_ticked(num), den, strict=True)], dtype=float)


MAX_BLOCK_BITS = 20
# float screening margin for the exact vertex conditions (values are O(e); float error ~1e-15 e)
_SCREEN = 1e-9


def _exact_sign_filter(approx: np.ndarray, exact_pos) -> np.ndarray:
    """Indices i with the exact quantity > 0: float screen ``approx`` (error << _SCREEN), exact
    re-check ``exact_pos(i)`` only for |approx| <= _SCREEN."""
    sure = np.nonzero(approx > _SCREEN)[0]
    border = np.nonzero(np.abs(approx) <= _SCREEN)[0]
    extra = [i for i in border.tolist() if exact_pos(i)]
    return np.sort(np.concatenate([sure, np.array(extra, dtype=np.int64)]))


def polyopt_blocks(lower: Sequence[Sequence], exp_eps) -> list[Block]:
    """The blocks of PolyOpt's cone (Definition 3 with s1 = s2 pairs) for the exact table ``lower``
    (|S| x |U|) and e^eps = ``exp_eps`` (a rational >= 1).  InputError when the cone is degenerate:
    sum_u L_{u|s} >= 1 for some s (D_s is a point or empty, the block map h is singular)."""
    e = Fraction(exp_eps)
    if e < 1:
        raise InputError(f"e^eps = {e} < 1: eps is negative, Gamma-hat is empty")
    L = [[Fraction(x) for x in r] for r in lower]
    a2 = len(L[0])
    if a2 > MAX_BLOCK_BITS:
        raise InputError(f"|U| = {a2} is too large for the block enumeration (at most {MAX_BLOCK_BITS})")
    blocks = []
    progress.step(f"PolyOpt's cone: the vertices of each block (2^{a2} subsets of U per value of S)", len(L),
                  "blocks")
    for s, row in enumerate(L):
        progress.update(s)
        blocks.append(_polyopt_block(s, row, e, a2))
    progress.update(len(L))
    return blocks


def _polyopt_block(s: int, row: list[Fraction], e: Fraction, a2: int) -> Block:
    """The block W_s of PolyOpt's cone for the lower bounds ``row`` = L_{.|s}: its vertices of types (i)-(iii)."""
    if any(x < 0 for x in row):
        raise InputError(f"lower bounds of row {s} have a negative entry")
    lam = sum(row)
    if lam >= 1:
        raise InputError(f"infeasible cone: sum_u L_(u|s) = {float(lam):.12g} >= 1 for s = {s} "
                         "(D_s is a single point or empty; the PolyOpt cone needs sum_u L_(u|s) < 1)")
    full = (1 << a2) - 1
    E, De = e.numerator, e.denominator
    ef = E / De
    li, D = _ints(row)
    cN = D - sum(li)                                  # c_s = cN / D
    ls = _subset_sums(li, a2)                         # D * L_s(mask), exact
    lf = np.array([x / D for x in _ticked(ls)], dtype=float)   # L_s(mask), correctly rounded
    cf = cN / D
    masks = np.arange(1 << a2, dtype=np.int64)
    # type (i): B = mask, feasible iff B = U or c >= (e - 1) L(B)
    f1 = _exact_sign_filter(cf - (ef - 1) * lf,
                            lambda i: De * cN - (E - De) * ls[i] >= 0 or i == full)
    if not (len(f1) and f1[-1] == full):                # f1 is sorted and full is the largest mask
        f1 = np.sort(np.append(f1, full))
    m1 = masks[f1]
    den = De * cN
    nb_ = [den - (E - De) * ls[m] for m in _ticked(m1.tolist())]
    b_hi = _ratios([n + (E - De) * D for n in _ticked(nb_)], [den] * len(nb_))
    b_lo = _ratios(nb_, [den] * len(nb_))
    b_lo[m1 == full] = 0.0
    # type (ii): S1 = U \ A (nonempty, != U); vertex iff E (sum l - l(A)) > De (D - l(A))
    cand = masks[(masks != full) & (masks != 0)]
    lA = lf[full ^ cand]
    f2 = _exact_sign_filter(ef * (lf[full] - lA) - (1 - lA),
                            lambda i: E * (ls[full] - ls[full ^ int(cand[i])]) > De * (D - ls[full ^ int(cand[i])]))
    m2 = cand[f2]
    c_hi = _ratios([E * D] * len(m2), [De * (D - ls[full ^ m]) for m in _ticked(m2.tolist())])
    # type (iii): h = 1 on O (nonempty), e on E, h_k in (1, e) with L . h = 1 (needs L_k > 0)
    m3l, k3l = [], []
    for k in range(a2):
        progress.update()  # the deadline, if any, is checked within a block too (2^|U| work per k)
        if li[k] == 0:
            continue
        sel_masks = _type3_masks(k, masks, full, li, D, ls, lf, E, De)
        m3l.append(sel_masks)
        k3l.append(np.full(len(sel_masks), k, dtype=np.int64))
    m3 = np.concatenate(m3l) if m3l else np.zeros(0, dtype=np.int64)
    k3 = np.concatenate(k3l) if k3l else np.zeros(0, dtype=np.int64)
    # w on E: (e - 1) / c; at k: (h_k - 1) / c = D (De (D - l(O)) - E l(E) - De l_k) / (De l_k cN)
    e_hi = (E - De) * D
    d3 = [De * li[k] * cN for k in _ticked(k3.tolist())]
    n3 = [D * (De * (D - ls[full ^ m ^ (1 << k)]) - E * ls[m] - De * li[k])
          for m, k in zip(_ticked(m3.tolist()), k3.tolist(), strict=True)]
    w3 = _ratios(n3, d3)
    wE = e_hi / den
    n1, n2 = len(m1), len(m2)

    def exact(j):
        if j < n1:
            m = int(m1[j])
            if m == full:
                return Fraction(E, De), Fraction(0), Fraction(0)
            beta = Fraction(De * cN - (E - De) * ls[m], De * cN)
            return beta + Fraction((E - De) * D, De * cN), beta, Fraction(0)
        if j < n1 + n2:
            m = int(m2[j - n1])
            return Fraction(E * D, De * (D - ls[full ^ m])), Fraction(0), Fraction(0)
        i = j - n1 - n2
        m, k = int(m3[i]), int(k3[i])
        hk = Fraction(D * (De * (D - ls[full ^ m ^ (1 << k)]) - E * ls[m] - De * li[k]), De * li[k] * cN)
        return Fraction((E - De) * D, De * cN), Fraction(0), hk

    n = n1 + n2 + len(m3)
    block = Block(
        s, tuple(range(s * a2, (s + 1) * a2)), np.concatenate([m1, m2, m3]),
        np.concatenate([np.full(n1 + n2, -1, dtype=np.int64), k3]),
        np.concatenate([b_hi, c_hi, np.full(len(m3), wE)]),
        np.concatenate([b_lo, np.zeros(n2), np.zeros(len(m3))]),
        np.concatenate([np.zeros(n1 + n2), w3]), exact)
    assert len(block) == n
    return block


def _type3_masks(k: int, masks, full: int, li, D: int, ls, lf, E: int, De: int) -> np.ndarray:
    """The masks E of the type (iii) vertices with the fractional coordinate k: h = 1 on O = U minus E and k
    (nonempty), e on E, and h_k in (1, e) (both ends decided exactly where the floats are unclear)."""
    ef = E / De
    bk = 1 << k
    Em = masks[(masks & bk) == 0]
    Om = full ^ Em ^ bk
    Em, Om = Em[Om != 0], Om[Om != 0]
    base = 1 - lf[Om] - ef * lf[Em]                # = L_k h_k
    lk = li[k] / D
    g1 = _exact_sign_filter(base - lk, lambda i: De * (D - ls[int(Om[i])]) - E * ls[int(Em[i])] > De * li[k])
    keep = np.zeros(len(Em), dtype=bool)
    keep[g1] = True
    g2 = _exact_sign_filter(ef * lk - base,
                            lambda i: E * li[k] > De * (D - ls[int(Om[i])]) - E * ls[int(Em[i])])
    keep2 = np.zeros(len(Em), dtype=bool)
    keep2[g2] = True
    sel = np.nonzero(keep & keep2)[0]
    return Em[sel]


def nr_blocks(counts: Sequence[Sequence[int]] | Sequence[Sequence[Fraction]],
              exp_eps) -> tuple[list[Block], tuple[int, ...]]:
    """The blocks of NR's cone for the P-hat table ``counts`` (counts or probabilities, exact) and
    e^eps; returns (blocks, free coordinates) — the free ones have P-hat_x = 0."""
    e = Fraction(exp_eps)
    if e < 1:
        raise InputError(f"e^eps = {e} < 1: eps is negative, Gamma-hat is empty")
    rows = [[Fraction(x) for x in r] for r in counts]
    a2 = len(rows[0])
    blocks: list[Block] = []
    free: list[int] = []
    progress.step(f"NR's cone: the vertices of each block (2^{a2} subsets of U per value of S)", len(rows), "blocks")
    for s, r in enumerate(rows):
        progress.update(s)
        if any(x < 0 for x in r):
            raise InputError(f"P-hat row {s} has a negative entry")
        K = sum(r)
        pos = [u for u in range(a2) if r[u] > 0]
        free.extend(s * a2 + u for u in range(a2) if r[u] == 0)
        if K == 0:
            continue
        coords = tuple(s * a2 + u for u in pos)
        masks, a1, ex = [], [], []
        for k, u in enumerate(pos):
            for rr in (Fraction(1), e):
                val = rr * K / r[u]               # r / P-hat_{u|s}
                masks.append(1 << k)
                a1.append(val.numerator / val.denominator)
                ex.append(val)

        def exact(j, ex=ex):
            return ex[j], Fraction(0), Fraction(0)

        nv = len(masks)
        blocks.append(Block(s, coords, np.array(masks, dtype=np.int64), np.full(nv, -1, dtype=np.int64),
                            np.array(a1, dtype=float), np.zeros(nv), np.zeros(nv), exact))
    if not blocks:
        raise InputError("P-hat has no positive entry: NR is undefined")
    return blocks, tuple(sorted(free))


@dataclass
class BlockData:
    """Float data of a block for pricing, with proven absolute error bounds (``*_err``):
    T = sum_x w_x P_x, N = sum_x w_x, A = sum_x P_x w_x log w_x, all per vertex; ``order`` sorts by T."""

    block: Block
    T: np.ndarray
    T_err: np.ndarray
    N: np.ndarray
    A: np.ndarray
    A_err: np.ndarray
    order: np.ndarray
    nbits: int


def block_data(block: Block, p: Sequence[Fraction]) -> BlockData:
    """Per-vertex T, N, A of ``block`` for the flat distribution ``p`` (exact rationals).

    Error model (u = 2^-53): the alphas and the subset sums P(S) (exact integer ratios) are correctly
    rounded (relative error <= u); T is a sum of three nonnegative products of two rounded factors,
    within 6u relative, and the bound below uses 8u.  A = sum_i alpha_i log(alpha_i) P(S_i): log is
    trusted to LOG_ULPS ulp (as in mechanisms.polyopt) and its argument carries relative error u
    (absolute error <= 1.01 u in the log), so each term is within (2 LOG_ULPS + 8) u alpha_i P(S_i)
    (1 + |log alpha_i|); the bound below doubles that."""
    nb = len(block.coords)
    pi, D = _ints([p[x] for x in block.coords])
    ps = _subset_sums(pi, nb)
    full = (1 << nb) - 1
    m = block.masks.tolist()
    k = block.kidx.tolist()
    P1 = _ratios([ps[x] for x in _ticked(m)], [D] * len(m))
    P3 = _ratios([pi[kk] if kk >= 0 else 0 for kk in _ticked(k)], [D] * len(m))
    P2 = _ratios([ps[full ^ x ^ ((1 << kk) if kk >= 0 else 0)] for x, kk in zip(_ticked(m), k, strict=True)],
                 [D] * len(m))
    pop1 = np.array([bin(x).count("1") for x in _ticked(m)], dtype=float)
    has3 = (block.kidx >= 0).astype(float)
    a1, a2, a3 = block.a1, block.a2, block.a3
    T = a1 * P1 + a2 * P2 + a3 * P3
    N = a1 * pop1 + a2 * (nb - pop1 - has3) + a3 * has3
    A = np.zeros(len(m))
    A_err = np.zeros(len(m))
    kk = 2.0 * (2 * LOG_ULPS + 8) * U64
    for a, P in ((a1, P1), (a2, P2), (a3, P3)):
        pos = (a > 0) & (P > 0)
        lg = np.log(np.where(pos, a, 1.0))
        A += np.where(pos, a * lg * P, 0.0)
        A_err += np.where(pos, kk * a * P * (1.0 + np.abs(lg)), 0.0)
    T_err = 8.0 * U64 * T + 1e-300
    A_err += 1e-300
    order = np.argsort(T, kind="stable")
    return BlockData(block, T, T_err, N, A, A_err, order, nb)
