"""Structures built from the channels of :mod:`rldp_verify.structured.channels` over several attributes or a
released sample of positions, with their eps-LDP worst ratio exact and without enumerating outputs.

- :class:`AttributeProduct` -- splitting the budget (SPL): every attribute j of the tuple t goes through its own
  channel Q_j, independently, and all reports are released: Q[y|t] = prod_j Q_j[y_j|t_j]. The supremum over
  t != t' and y factorises, each factor being at least 1 (t_j = t'_j gives 1), so rho = prod_j rho(Q_j), attained
  by tuples that differ in every attribute (each k_j >= 2).

- :class:`FakeData` -- random sampling plus fake data (RS+FD) with a fake-data law per attribute: attribute j,
  drawn uniformly and kept secret, is reported through L_j, every other attribute i as a fake report of law F_i:
  Q[y|t] = prod_i F_i(y_i) * (1/D) sum_j L_j(y_j|t_j) / F_j(y_j), so rho is the maximum of a ratio of sums
  sum_j u_j / sum_j v_j, (u_j, v_j) = (L_j(y_j|t_j), L_j(y_j|t'_j)) / F_j(y_j) over the attribute's outputs and
  value pairs. Per attribute:

  * ``"uniform"`` fake values (RS+FD[GRR], L_j = GRR with (a, b)): F_j = 1/k_j, (u, v) one of k_j (a, b), (b, a),
    (a, a), (b, b);
  * ``"zero"`` (RS+FD[UE-z]: UE of the zero vector): F_j = Z_j, the all-cold law, and L_j / Z_j = h_j(y_j[t_j]),
    h(b) = Pr[b | hot] / Pr[b | cold];
  * ``"random"`` (RS+FD[UE-r]: UE of a uniformly random value): F_j(y) = Z_j(y) (n h_1 + (k_j - n) h_0) / k_j with
    n the number of ones of y, so (u, v) = w(n) (h(b), h(b')) with w(n) = k_j / (n h_1 + (k_j - n) h_0) and
    b, b' the bits of y at t_j, t'_j; n ranges over [b + b', k_j - 2 + b + b'] (t_j != t'_j) or [b, k_j - 1 + b]
    (t_j = t'_j, b = b'). For a fixed lambda the term w(n) (h(b) - lambda h(b')) is monotone in n, so the two
    ends of the range are the only candidates.

  The maximum is found exactly by Dinkelbach's iteration (lambda <- the ratio of the choice maximising
  sum_j (u_j - lambda v_j); F(lambda) = max sum_j (u_j - lambda v_j) is convex and decreasing with its root at the
  optimum, reached after finitely many steps since the candidates are finite).

- :class:`SampledBits` -- dBitFlipPM (Ding, Kulkarni, Yekhanin, NeurIPS 2017): the input x falls in bucket
  B(x) of b buckets; m of the b bit positions are drawn uniformly without replacement (public: released as the
  positions that are not -1) and bit j reports [B(x) == j] through a bit channel. Given the positions J the
  channel is a product of bits; the two inputs' bits cancel unless j in {B(x), B(x')}, so with B(x) != B(x')
  rho = r1 r2 when m >= 2 (J holds both buckets) and max(r1, r2) when m = 1, r1 = max_y P(y|hot) / P(y|cold),
  r2 = max_y P(y|cold) / P(y|hot); rho = 1 when every input falls in the same bucket.

- :class:`BloomProduct` -- RAPPOR's permanent response and Apple's count-mean sketch: a public cohort c (RAPPOR's
  cohort, CMS's hash index j), drawn uniformly and released, fixes a set B_c(x) of the m positions (the Bloom filter
  bits of x; CMS: the one position h_j(x)); every position goes through a bit channel, hot on B_c(x), cold elsewhere.
  Positions outside B_c(x) xor B_c(x') cancel, so rho = max_c max_{x != x'} r1^|B_c(x) minus B_c(x')| r2^|B_c(x')
  minus B_c(x)| with r1, r2 as for :class:`SampledBits` (each >= 1). The maximum over pairs is found exactly by a
  branch and bound over the distinct sets of each cohort (largest first; a pair's bound is r1^|S| r2^|T|), which
  stops at the first disjoint pair of maximal sizes in practice (and, given ``hmax``, the number of hash functions,
  skips the remaining cohorts once r1^hmax r2^hmax is attained); over ``MAX_PAIRS`` pairs it refuses.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import (
    INF,
    MAX_DENSE_ENTRIES,
    BitChannel,
    LaplaceHistogram,
    Symmetric,
    UnaryProduct,
    _key,
    max_ratio_of_sums,
    ratio,
)

__all__ = ["AttributeProduct", "FakeData", "SampledBits", "BloomProduct", "DiscreteLaplaceShift", "TwoLevel",
           "WeightedBits", "FAKES"]

MAX_PAIRS = 5_000_000

FAKES = ("uniform", "zero", "random")


def _cap(n, what):
    if n > MAX_DENSE_ENTRIES:
        raise InputError(f"{what}: the dense channel would have {n} entries (at most {MAX_DENSE_ENTRIES}); audit "
                         "eps-LDP with the structure instead (--ldp)")


def _size(c) -> int:
    """The input domain size of a component channel."""
    for attr in ("k", "d"):
        v = getattr(c, attr, None)
        if isinstance(v, int):
            return v
    raise InputError(f"no domain size for a component of type {type(c).__name__}")


@dataclass
class AttributeProduct:
    """SPL: attribute j through ``components[j]``, independently, all reports released."""

    components: list
    params: dict = field(default_factory=dict)

    kind = "product over the attributes of independent per-attribute channels (budget splitting)"

    def ratio(self):
        """prod_j rho(Q_j) (inf when a factor is)."""
        out = Fraction(1)
        for c in self.components:
            if isinstance(c, LaplaceHistogram):
                raise InputError("an SPL component without an exact rational ratio")
            r = c.ratio()
            if r == INF:
                return INF
            out *= r
        return out

    def witness(self) -> dict:
        """Tuples that differ in every attribute, each at its component's witness."""
        ws = [c.witness() for c in self.components]
        return {"x": "(" + ", ".join(str(w["x"]) for w in ws) + ")",
                "x_prime": "(" + ", ".join(str(w["x_prime"]) for w in ws) + ")",
                "y": "(" + "; ".join(str(w["y"]) for w in ws) + ")"}

    def dense(self):
        """(rows, outputs): the Kronecker product of the components' dense channels (small domains)."""
        dens = [c.dense() for c in self.components]
        n_in = math.prod(len(r[0]) for r, _ in dens)
        n_out = math.prod(len(o) for _, o in dens)
        _cap(n_in * n_out, "SPL")
        tuples = list(itertools.product(*[range(len(r[0])) for r, _ in dens]))
        rows, outs = [], []
        for ys in itertools.product(*[range(len(o)) for _, o in dens]):
            rows.append([math.prod(dens[j][0][ys[j]][t[j]] for j in range(len(dens))) for t in tuples])
            outs.append(",".join(dens[j][1][ys[j]] for j in range(len(dens))))
        return rows, outs


def _h(c: UnaryProduct, fake: str) -> dict:
    """h(b) = Pr[b | hot] / Pr[b | cold] of a unary encoding's bit channel (needs 0 < q < 1; 0 < p < 1 too for
    random fake data, whose law would otherwise put mass 0 on some all-cold outputs)."""
    if not 0 < c.bit.q < 1 or (fake == "random" and not 0 < c.bit.p < 1):
        raise InputError(f"RS+FD with UE and {fake} fake data needs 0 < q < 1"
                         + (" and 0 < p < 1" if fake == "random" else ""))
    return {b: c.bit.prob(b, 1) / c.bit.prob(b, 0) for b in (0, 1)}


def _options(c, fake: str) -> list:
    """The candidate (u, v) pairs of one attribute, with a description (see the module docstring)."""
    if fake == "uniform":
        k = c.k
        opts = [((k * c.a, k * c.b), "y_j = t_j != t'_j"), ((k * c.b, k * c.a), "y_j = t'_j != t_j"),
                ((k * c.a, k * c.a), "t_j = t'_j = y_j"), ((k * c.b, k * c.b), "t_j = t'_j != y_j")]
        return opts
    h = _h(c, fake)
    if fake == "zero":
        return [((h[b1], h[b2]), f"y_j[t_j] = {b1}, y_j[t'_j] = {b2}") for b1 in (0, 1) for b2 in (0, 1)]
    k, opts = c.d, []
    for b1, b2 in itertools.product((0, 1), repeat=2):
        ranges = [(b1 + b2, k - 2 + b1 + b2, "t_j != t'_j")] + ([(b1, k - 1 + b1, "t_j = t'_j")] if b1 == b2 else [])
        for lo, hi, how in ranges:
            for n in (lo, hi):
                w = Fraction(k) / (n * h[1] + (k - n) * h[0])
                opts.append(((w * h[b1], w * h[b2]), f"{how}, y_j[t_j] = {b1}, y_j[t'_j] = {b2}, {n} ones"))
    return opts


@dataclass
class FakeData:
    """RS+FD: a secret uniformly sampled attribute j through ``parts[j][0]``, fake reports of law ``parts[j][1]``
    ("uniform" with a :class:`Symmetric` component, "zero" or "random" with a :class:`UnaryProduct`) elsewhere."""

    parts: list
    params: dict = field(default_factory=dict)

    kind = "RS+FD: secret sampled attribute, per-attribute fake data (ratio of sums, exact)"

    def __post_init__(self):
        for c, fake in self.parts:
            want = Symmetric if fake == "uniform" else UnaryProduct
            if fake not in FAKES or not isinstance(c, want):
                raise InputError(f"fake data {fake!r} with a {type(c).__name__} component is not modelled")

    def _solve(self):
        return max_ratio_of_sums([_options(c, fake) for c, fake in self.parts], limit=10_000)

    def ratio(self):
        """max over tuple pairs and outputs of the ratio of sums (see the module docstring)."""
        r, _ = self._solve()
        return max(r, Fraction(1)) if r != INF else INF

    def witness(self) -> dict:
        """The per-attribute choices of the maximising tuples and output."""
        _, choice = self._solve()
        return {"x": "t", "x_prime": "t'", "y": "; ".join(f"attribute {j}: {o[1]}" for j, o in enumerate(choice))}

    def dense(self):
        """(rows, outputs) over all tuples and outputs, from the components' dense channels (small domains)."""
        dens = [c.dense() for c, _ in self.parts]
        ks = [len(r[0]) for r, _ in dens]
        n_out = math.prod(len(o) for _, o in dens)
        _cap(n_out * math.prod(ks), "RS+FD")
        fakes = []
        for (c, fake), (rows, labels) in zip(self.parts, dens, strict=True):
            if fake == "uniform":
                fakes.append([Fraction(1, c.k)] * len(rows))
            elif fake == "zero":
                fakes.append([math.prod(c.bit.prob(int(ch), 0) for ch in lab) for lab in labels])
            else:
                fakes.append([sum(r) / len(r) for r in rows])
        D = len(self.parts)
        tuples = list(itertools.product(*[range(k) for k in ks]))
        rows_out, outs = [], []
        for ys in itertools.product(*[range(len(o)) for _, o in dens]):
            fk = [fakes[i][ys[i]] for i in range(D)]
            rows_out.append([sum(dens[j][0][ys[j]][t[j]] * math.prod(fk[i] for i in range(D) if i != j)
                                 for j in range(D)) / D for t in tuples])
            outs.append(",".join(dens[j][1][ys[j]] for j in range(D)))
        return rows_out, outs


@dataclass
class SampledBits:
    """dBitFlipPM: k inputs in b buckets (``bucket(x)``, nondecreasing in x), m of the b positions sampled
    uniformly without replacement and released, bit j through ``bit`` with input [bucket(x) == j]."""

    k: int
    b: int
    m: int
    bit: BitChannel
    bucket: Callable[[int], int]
    params: dict = field(default_factory=dict)

    kind = "sampled bit positions (public) of a unary encoding of the bucket (dBitFlipPM)"

    def __post_init__(self):
        if not 1 <= self.m <= self.b:
            raise InputError(f"d_bits = {self.m} must be in [1, b = {self.b}]")

    def _split(self) -> bool:
        """Two inputs in different buckets exist (the bucketing is nondecreasing: compare the ends)."""
        return self.bucket(0) != self.bucket(self.k - 1)

    def _r(self):
        r1 = max((ratio(self.bit.prob(y, 1), self.bit.prob(y, 0)) for y in (0, 1)), key=_key)
        r2 = max((ratio(self.bit.prob(y, 0), self.bit.prob(y, 1)) for y in (0, 1)), key=_key)
        return r1, r2

    def ratio(self):
        """r1 r2 (m >= 2), max(r1, r2) (m = 1), 1 when all inputs share a bucket."""
        if not self._split():
            return Fraction(1)
        r1, r2 = (Fraction(1) if r is None else r for r in self._r())
        if self.m == 1:
            return max(r1, r2, key=_key)
        return INF if INF in (r1, r2) else r1 * r2

    def witness(self) -> dict:
        """x = 0, x' = k - 1 and the sampled positions."""
        bx, bxp = self.bucket(0), self.bucket(self.k - 1)
        where = f"positions holding {bx} and {bxp}" if self.m >= 2 else f"the position {bx} or {bxp} alone"
        return {"x": 0, "x_prime": self.k - 1, "y": f"sampled {where}, bits at their worst values"}

    def dense(self):
        """(rows, outputs): outputs are vectors in {-1, 0, 1}^b (-1: not sampled), labels "v0,v1,..."."""
        n_out = math.comb(self.b, self.m) * 2**self.m                # counted before the subsets are listed
        _cap(n_out * self.k, f"dBitFlipPM with b = {self.b}, d_bits = {self.m}")
        subsets = list(itertools.combinations(range(self.b), self.m))
        w = Fraction(1, len(subsets))
        bk = [self.bucket(x) for x in range(self.k)]
        rows, outs = [], []
        for J in subsets:
            for bits in itertools.product((0, 1), repeat=self.m):
                rows.append([w * math.prod(self.bit.prob(y, int(bk[x] == j)) for j, y in zip(J, bits, strict=True))
                             for x in range(self.k)])
                vec = [-1] * self.b
                for j, y in zip(J, bits, strict=True):
                    vec[j] = y
                outs.append(",".join(map(str, vec)))
        return rows, outs


def _pow(r, n: int):
    """r^n for r a Fraction or inf (n >= 0; inf^0 = 1)."""
    if n == 0:
        return Fraction(1)
    return INF if r == INF else r**n


@dataclass
class BloomProduct:
    """A public uniform cohort c in range(cohorts), then m positions: hot on ``sets(c, x)``, cold elsewhere."""

    d: int
    m: int
    cohorts: int
    bit: BitChannel
    sets: Callable[[int, int], frozenset]
    labels: tuple = ("0", "1")            # the output symbols of a position with bit 0 and 1 (for dense())
    hmax: int | None = None               # an upper bound on |sets(c, x)| (the hash functions per cohort)
    params: dict = field(default_factory=dict)

    kind = "mixture over a public cohort of a product of per-position channels on the input's set (Bloom filter)"

    def _r(self):
        r1 = max((ratio(self.bit.prob(y, 1), self.bit.prob(y, 0)) for y in (0, 1)), key=_key)
        r2 = max((ratio(self.bit.prob(y, 0), self.bit.prob(y, 1)) for y in (0, 1)), key=_key)
        return tuple(Fraction(1) if r is None else r for r in (r1, r2))

    def _solve(self):
        r1, r2 = self._r()

        def val(a: int, b: int):
            return INF if (r1 == INF and a) or (r2 == INF and b) else _pow(r1, a) * _pow(r2, b)
        best, arg, pairs = Fraction(1), None, 0
        top = None if self.hmax is None else val(self.hmax, self.hmax)    # no pair can exceed it
        for c in range(self.cohorts):
            if top is not None and _key(best) >= _key(top):
                break
            groups: dict = {}
            for x in range(self.d):
                groups.setdefault(frozenset(self.sets(c, x)), x)
            distinct = sorted(groups, key=len, reverse=True)
            if len(distinct) < 2:
                continue
            for S in distinct:
                if _key(val(len(S), len(distinct[0]))) <= _key(best):
                    break                       # no later S (smaller) can beat best
                for T in distinct:
                    if _key(val(len(S), len(T))) <= _key(best):
                        break                   # no later T (smaller) either
                    if T is S:
                        continue
                    pairs += 1
                    if pairs > MAX_PAIRS:
                        raise InputError(f"Bloom filter channel with d = {self.d}: over {MAX_PAIRS} pairs of sets "
                                         "searched; no exact maximum")
                    v = val(len(S - T), len(T - S))
                    if _key(v) > _key(best):
                        best, arg = v, (c, groups[S], groups[T], sorted(S - T), sorted(T - S))
        return best, arg

    def ratio(self):
        """max over cohorts and ordered pairs of r1^|S minus T| r2^|T minus S| (see the module docstring)."""
        return self._solve()[0]

    def witness(self) -> dict:
        """The cohort, the two inputs and the positions where they differ."""
        _, arg = self._solve()
        if arg is None:
            return {"x": 0, "x_prime": 1, "y": "any (every pair of inputs has the same set in every cohort)"}
        c, x, xp, only_x, only_xp = arg
        return {"x": x, "x_prime": xp, "y": f"(cohort {c}; positions {only_x} only of x at their worst value "
                f"under x, positions {only_xp} only of x' at theirs)"}

    def dense(self):
        """(rows, outputs) over (cohort, position values) (small m and d)."""
        _cap(self.cohorts * 2**self.m * self.d, f"Bloom filter channel with m = {self.m}")
        w = Fraction(1, self.cohorts)
        rows, outs = [], []
        for c in range(self.cohorts):
            sets = [frozenset(self.sets(c, x)) for x in range(self.d)]
            for bits in itertools.product((0, 1), repeat=self.m):
                rows.append([w * math.prod(self.bit.prob(y, int(i in sets[x])) for i, y in enumerate(bits))
                             for x in range(self.d)])
                outs.append(",".join(self.labels[y] for y in bits) + f"@{c}")
        return rows, outs


@dataclass
class DiscreteLaplaceShift(LaplaceHistogram):
    """An integer x in [lo, lo + d - 1] plus discrete Laplace noise: Pr[Y = y | x] = (1 - t) / (1 + t) t^|y - x|,
    t = e^(-1/b). The ratio t^(|y - x| - |y - x'|) is at most e^(|x - x'| / b), attained for y <= min(x, x'); so
    eps = (d - 1) / b exactly (b the binary rational of the float scale). A subclass of :class:`LaplaceHistogram`:
    the audit decides it exactly through :meth:`eps`."""

    lo: int = 0

    kind = "integer plus discrete Laplace noise (exact sampler), eps = (upper - lower) / scale exactly"

    def eps(self) -> Fraction:
        """(d - 1) / b exactly."""
        return Fraction(self.d - 1) / Fraction(self.scale)

    def witness(self) -> dict:
        """x = upper, x' = lower, y <= lower."""
        return {"x": self.lo, "x_prime": self.lo + self.d - 1, "y": f"any y <= {self.lo}"}


@dataclass
class TwoLevel:
    """Hadamard response (Acharya, Sun, Zhang, AISTATS 2019, as pure-ldp codes it): K outputs, Q[y|x] = hi on a
    support A(x) and lo elsewhere, where the supports of two inputs differ both ways (A(x) minus A(x') and A(x')
    minus A(x) are non-empty: distinct Hadamard rows, or supports in different blocks), so rho = max(hi/lo, lo/hi)
    for d >= 2. ``support(x)`` (a set of outputs) serves dense() only."""

    d: int
    K: int
    hi: Fraction
    lo: Fraction
    support: Callable[[int], set]
    params: dict = field(default_factory=dict)

    kind = "two-level channel on Hadamard supports (Hadamard response)"

    def ratio(self):
        """max(hi/lo, lo/hi)."""
        return max((v for v in (ratio(self.hi, self.lo), ratio(self.lo, self.hi)) if v is not None), key=_key,
                   default=Fraction(1))

    def witness(self) -> dict:
        """x = 0, x' = 1, y in the support of the input with the larger level only."""
        first = _key(ratio(self.hi, self.lo)) >= _key(ratio(self.lo, self.hi))
        return {"x": 0, "x_prime": 1, "y": f"an output in A({0 if first else 1}) and not in A({1 if first else 0})"}

    def dense(self):
        """(rows, outputs) over the K outputs (small d)."""
        _cap(self.K * self.d, f"Hadamard response with d = {self.d}")
        sup = [set(self.support(x)) for x in range(self.d)]
        return [[self.hi if y in sup[x] else self.lo for x in range(self.d)] for y in range(self.K)], \
            [str(y) for y in range(self.K)]


@dataclass
class WeightedBits:
    """Randomized response on bit vectors (OpenDP's ``make_randomized_response_bitvec``): the inputs are the n-bit
    vectors of weight at most w, every bit goes through ``bit`` independently. For inputs x, x' the bits where they
    agree cancel; a bits with x_i = 1, x'_i = 0 and b bits the other way give at most r1^a r2^b (r1, r2 as for
    :class:`SampledBits`), with a, b <= w and a + b <= n, all attained: rho = max_a r1^a r2^min(w, n - a)."""

    n: int
    w: int
    bit: BitChannel
    params: dict = field(default_factory=dict)

    kind = "product of n per-bit channels over the bit vectors of weight <= w"

    def _r(self):
        r1 = max((ratio(self.bit.prob(y, 1), self.bit.prob(y, 0)) for y in (0, 1)), key=_key)
        r2 = max((ratio(self.bit.prob(y, 0), self.bit.prob(y, 1)) for y in (0, 1)), key=_key)
        return tuple(Fraction(1) if r is None else r for r in (r1, r2))

    def _best(self):
        r1, r2 = self._r()

        def val(a: int, b: int):
            return INF if (r1 == INF and a) or (r2 == INF and b) else _pow(r1, a) * _pow(r2, b)
        cands = [(a, min(self.w, self.n - a)) for a in range(min(self.w, self.n) + 1)]
        return max(((val(a, b), a, b) for a, b in cands), key=lambda t: _key(t[0]))

    def ratio(self):
        """max over a of r1^a r2^min(w, n - a)."""
        return self._best()[0]

    def witness(self) -> dict:
        """x with ones on the first a bits, x' on the next b."""
        _, a, b = self._best()
        return {"x": "1" * a + "0" * (self.n - a), "x_prime": "0" * a + "1" * b + "0" * (self.n - a - b),
                "y": "each differing bit at its worst value"}

    def dense(self):
        """(rows, outputs) over the vectors of weight <= w (n <= 10)."""
        if self.n > 10:
            raise InputError(f"bit vectors of n = {self.n} bits: the dense channel needs n <= 10")
        ins = [v for v in itertools.product((0, 1), repeat=self.n) if sum(v) <= self.w]
        outs = list(itertools.product((0, 1), repeat=self.n))
        rows = [[math.prod(self.bit.prob(y[i], x[i]) for i in range(self.n)) for x in ins] for y in outs]
        return rows, ["".join(map(str, y)) for y in outs]
