"""Structured exact channels: their eps-LDP worst ratio in closed form, without enumerating outputs.

Every structure holds exact rational probabilities (the sampler's event probabilities, see
:mod:`rldp_verify.structured.samplers`) and gives

    rho = sup_{x != x', y} Q[y|x] / Q[y|x']          (eps-LDP, Definition 2; 0/0 = 1, a/0 = inf)

exactly (:meth:`ratio`) with a witness (x, x', y) (:meth:`witness`), and, for small domains, the dense
matrix (:meth:`dense`) that serves as the test oracle. The structures:

- :class:`UnaryProduct` -- d independent bits; the input's own bit goes through the bit channel
  (Pr[1|hot] = p), every other bit through (Pr[1|cold] = q). For x != x' only bits x and x' differ in law,
  the others cancel, so rho = max_b P(b|hot)/P(b|cold) * max_b P(b|cold)/P(b|hot) for any d >= 2.
- :class:`Symmetric` -- k-ary randomized response (GRR): Pr[y = x] = a, Pr[y = z] = b (z != x);
  rho = max(a/b, b/a) (1 more candidate, b/b, when k >= 3).
- :class:`PublicMixture` -- a public component c (hash seed, sampled attribute) is drawn independently of x and
  released with the report: Q[(c, y)|x] = w(c) Q_c[y|x]; w(c) cancels, so rho = max_c rho(Q_c). For local
  hashing Q_s is GRR on g buckets applied to h_s(x): rho(Q_s) = max(a/b, b/a) if h_s(x) != h_s(x') for some
  pair, else 1; the witness names a seed that separates two inputs under the library's hash.
- :class:`SubsetSelection` -- a uniformly random m-subset containing x with probability P, else one avoiding x:
  Pr[S|x] = P / C(k-1, m-1) if x in S, (1-P) / C(k-1, m) else; rho = max(r, 1/r), r = P (k-m) / ((1-P) m).
  With ``ordered=True`` (the array multi-freq-ldpy returns: x first when included, the rest in random order)
  an output (x, x', ...) has probability 0 under x' when m >= 2: rho = inf.
- :class:`LaplaceHistogram` -- the ideal continuous mechanism e_x + Lap(b)^d: rho = e^{2/b} (two coordinates
  differ by 1). Not rational: the ratio is an outward-rounded enclosure.

- :class:`AttributeMixture` -- sampling (SMP): an attribute j drawn uniformly, independently of the input tuple,
  is released with the report of attribute j's channel Q_j: Q[(j, y)|t] = Q_j[y|t_j] / D, so for tuples that
  differ in every attribute rho = max_j rho(Q_j) (and no pair of tuples does better).

- :class:`FakeDataMixture` -- random sampling plus fake data (RS+FD with GRR): attribute j, drawn uniformly and
  kept secret, is reported through GRR_j, every other attribute as a uniform fake value. Q[y|t] =
  prod_i (1/k_i) * (1/D) sum_j k_j G_j(y_j|t_j), so the ratio is sum_j k_j a_j / sum_j k_j b_j with, per j, (a_j, b_j)
  one of (p, q), (q, p), (q, q) (t_j != t'_j) or (p, p), (q, q) (t_j = t'_j); its maximum over these choices is
  found exactly by Dinkelbach's iteration (lambda <- the ratio of the choice maximising sum_j k_j (a_j - lambda b_j);
  it stops at the optimum, F(lambda) = max sum k (a - lambda b) being convex and decreasing with its root there).

- :class:`FakeDataUnary` -- RS+FD with unary encoding and zero-vector fake data (UE-z): Q[y|t] = prod_i Z_i(y_i)
  (1/D) sum_j h_j(y_j[t_j]), Z_i the all-cold law of attribute i and h_j(b) = Pr[b|hot] / Pr[b|cold]; the ratio is
  sum_j h_j(b_j) / sum_j h_j(b'_j) with b_j = b'_j when t_j = t'_j and free bits otherwise, maximised exactly by
  the same Dinkelbach iteration (weights 1).

Composition (a longitudinal protocol's memoised first round followed by a second round) of two bit
channels is a bit channel, of two symmetric channels a symmetric channel (:func:`compose`).
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rldp_verify.core.errors import InputError

INF = math.inf
MAX_DENSE = 4096

__all__ = ["BitChannel", "UnaryProduct", "Symmetric", "PublicMixture", "SubsetSelection", "LaplaceHistogram",
           "AttributeMixture", "FakeDataMixture", "FakeDataUnary", "compose", "ratio", "INF"]


def ratio(a: Fraction, b: Fraction):
    """a / b with the conventions 0/0 = 1 (never a worst case: returned as None), a/0 = inf."""
    if b == 0:
        return None if a == 0 else INF
    return Fraction(a) / b


def max_ratio_of_sums(options: list[list], weights: list | None = None, *, limit: int = 1000):
    """Dinkelbach's iteration for max over one option per part of (sum_j w_j num_j) / (sum_j w_j den_j), each
    option ``((num, den), label)`` with exact num, den >= 0 (w_j > 0, default 1). Returns (the maximum -- INF
    when a denominator-0 choice has a positive numerator, 1 when every choice is 0/0 --, the maximising choice).
    Exact: each step strictly raises lambda among finitely many choices, so it stops."""
    w = weights if weights is not None else [1] * len(options)
    lam = Fraction(1)

    def best(o: list, wj: Any) -> Any:
        return max(o, key=lambda e: wj * (e[0][0] - lam * e[0][1]))

    for _ in range(limit):
        choice = [best(o, wj) for o, wj in zip(options, w, strict=True)]
        num = sum(wj * e[0][0] for e, wj in zip(choice, w, strict=True))
        den = sum(wj * e[0][1] for e, wj in zip(choice, w, strict=True))
        new = ratio(num, den)
        if new is None or new == INF:
            return new if new is not None else Fraction(1), choice
        if new <= lam:          # F(lam) = 0: lam is attained (by this choice) and maximal
            return lam, choice
        lam = new
    raise InputError("Dinkelbach's iteration did not stop")  # pragma: no cover - finitely many choices


def _max(*vals):
    vals = [v for v in vals if v is not None]
    return max(vals) if vals else Fraction(1)


def _check_prob(v, name):
    if not isinstance(v, (Fraction, int)) or not 0 <= v <= 1:
        raise InputError(f"{name} = {v!r} must be an exact probability (Fraction in [0, 1])")
    return Fraction(v)


@dataclass(frozen=True)
class BitChannel:
    """A binary channel: Pr[output bit 1 | input bit 1] = p, Pr[output bit 1 | input bit 0] = q."""

    p: Fraction
    q: Fraction

    def __post_init__(self):
        _check_prob(self.p, "p")
        _check_prob(self.q, "q")

    def prob(self, out: int, inp: int) -> Fraction:
        """Pr[out | inp] for bits out, inp."""
        one = self.p if inp else self.q
        return one if out else 1 - one

    def then(self, second: BitChannel) -> BitChannel:
        """This channel followed by ``second`` (composition of Markov kernels on {0, 1})."""
        return BitChannel(self.p * second.p + (1 - self.p) * second.q, self.q * second.p + (1 - self.q) * second.q)


@dataclass
class UnaryProduct:
    """Unary encoding on d values: output {0,1}^d, bit x through ``bit`` with input 1, the others with input 0."""

    d: int
    bit: BitChannel
    params: dict = field(default_factory=dict)     # the float parameters the probabilities come from

    kind = "product of d per-bit channels (unary encoding)"

    def _best(self):
        # the bit at x (hot under x, cold under x') and the bit at x' (cold under x, hot under x')
        b_x = max((0, 1), key=lambda b: _key(ratio(self.bit.prob(b, 1), self.bit.prob(b, 0))))
        b_xp = max((0, 1), key=lambda b: _key(ratio(self.bit.prob(b, 0), self.bit.prob(b, 1))))
        r1 = ratio(self.bit.prob(b_x, 1), self.bit.prob(b_x, 0))
        r2 = ratio(self.bit.prob(b_xp, 0), self.bit.prob(b_xp, 1))
        return b_x, b_xp, r1, r2

    def ratio(self):
        """rho exactly (Fraction or inf)."""
        _, _, r1, r2 = self._best()
        if r1 is None or r2 is None:
            return Fraction(1) if (r1 is None and r2 is None) else (r1 if r2 is None else r2)
        return INF if INF in (r1, r2) else r1 * r2

    def witness(self) -> dict:
        """x = 0, x' = 1 and an output y (as the set of its 1-bits and the value of the other bits)."""
        b_x, b_xp, _, _ = self._best()
        rest = 0 if self.bit.prob(0, 0) > 0 else 1
        return {"x": 0, "x_prime": 1, "y": f"bit 0 = {b_x}, bit 1 = {b_xp}, the other {self.d - 2} bits = {rest}",
                "y_bits": [b_x, b_xp] + [rest] * (self.d - 2)}

    def dense(self):
        """(rows, outputs): the 2^d x d matrix (d <= 12)."""
        if 2**self.d > MAX_DENSE:
            raise InputError(f"unary encoding with d = {self.d} has 2^{self.d} outputs; dense needs d <= 12")
        outs = list(itertools.product((0, 1), repeat=self.d))
        rows = [[math.prod(self.bit.prob(b, int(j == x)) for j, b in enumerate(y)) for x in range(self.d)]
                for y in outs]
        return rows, ["".join(map(str, y)) for y in outs]


MAX_DENSE_ENTRIES = 2**22


def _dense_cap(n, what):
    if n > MAX_DENSE_ENTRIES:
        raise InputError(f"{what}: the dense channel would have {n} entries (at most {MAX_DENSE_ENTRIES}); audit "
                         "eps-LDP with the structure instead (--ldp)")


def _key(r):
    return -1 if r is None else (math.inf if r == INF else r)


@dataclass
class Symmetric:
    """k-ary randomized response: Pr[y = x] = a, Pr[y = z] = b for z != x (a + (k-1) b = 1)."""

    k: int
    a: Fraction
    b: Fraction
    params: dict = field(default_factory=dict)
    labels: tuple = ()            # output labels for dense() (default 0..k-1)

    kind = "k-ary randomized response (symmetric)"

    def __post_init__(self):
        if self.a + (self.k - 1) * self.b != 1:
            raise InputError(f"not a channel: a + (k-1) b = {self.a + (self.k - 1) * self.b} != 1")

    def ratio(self):
        """rho exactly: max(a/b, b/a)."""
        return _max(ratio(self.a, self.b), ratio(self.b, self.a))

    def witness(self) -> dict:
        """x = 0, x' = 1, y = 0 (a >= b) or y = 1."""
        return {"x": 0, "x_prime": 1, "y": 0 if _key(ratio(self.a, self.b)) >= _key(ratio(self.b, self.a)) else 1}

    def then(self, second: Symmetric) -> Symmetric:
        """This channel followed by ``second`` on the same k values."""
        k = self.k
        a = self.a * second.a + (1 - self.a) * second.b
        b = self.a * second.b + self.b * second.a + (k - 2) * self.b * second.b
        return Symmetric(k, a, b)

    def dense(self):
        """(rows, outputs): the k x k matrix (k <= 2048)."""
        _dense_cap(self.k * self.k, f"GRR on k = {self.k} values")
        return [[self.a if y == x else self.b for x in range(self.k)] for y in range(self.k)], \
            [str(v) for v in (self.labels or range(self.k))]


@dataclass
class PublicMixture:
    """Local hashing: a public seed s (released) then GRR with (a, b) on g buckets of h_s(x).

    ``separating(x, x')`` returns a seed s with h_s(x) != h_s(x') under the library's hash, or None.
    """

    d: int
    g: int
    a: Fraction
    b: Fraction
    separating: Callable[[int, int], Any]
    seeds: Any = None             # for dense(): a short list of seeds (the mixture restricted to them)
    hash_fn: Any = None           # hash_fn(x, seed) -> bucket, for dense()
    params: dict = field(default_factory=dict)
    complete: bool = False        # ``seeds`` is the whole public range, drawn uniformly: dense() is the channel

    kind = "mixture over a public seed of GRR on g hash buckets (local hashing)"

    def _sep(self):
        s = self.separating(0, 1)
        return s

    def ratio(self):
        """max(a/b, b/a) when some seed separates inputs 0 and 1 (checked), else refuses."""
        if self._sep() is None:
            raise InputError("no seed in the searched range separates inputs 0 and 1 under the library's hash")
        return _max(ratio(self.a, self.b), ratio(self.b, self.a))

    def witness(self) -> dict:
        """A separating seed, x = 0, x' = 1, the reported bucket."""
        s = self._sep()
        hx, hxp = self.hash_fn(0, s), self.hash_fn(1, s)
        y = hx if _key(ratio(self.a, self.b)) >= _key(ratio(self.b, self.a)) else hxp
        return {"x": 0, "x_prime": 1, "y": f"(bucket {y}, seed {s})", "h_seed(x)": hx, "h_seed(x')": hxp}

    def dense(self):
        """The channel on (seed, bucket) with the seed uniform on ``seeds`` (a finite restriction)."""
        seeds = list(self.seeds)
        _dense_cap(len(seeds) * self.g * self.d, f"local hashing with d = {self.d}, g = {self.g}")
        w = Fraction(1, len(seeds))
        rows, outs = [], []
        for s in seeds:
            hs = [self.hash_fn(x, s) for x in range(self.d)]
            for y in range(self.g):
                rows.append([w * (self.a if hs[x] == y else self.b) for x in range(self.d)])
                outs.append(f"{y}@{s}")
        return rows, outs


@dataclass
class SubsetSelection:
    """k-subset selection with subsets of size m, Pr[x in S] = P (the sampler's event probability)."""

    k: int
    m: int
    P: Fraction
    ordered: bool = False
    params: dict = field(default_factory=dict)

    kind = "subset selection (symmetric in the subsets)"

    def __post_init__(self):
        if not 1 <= self.m <= self.k - 1:
            raise InputError(f"subset size m = {self.m} must be in [1, k - 1] with k = {self.k}")

    def _r(self):
        return ratio(self.P * (self.k - self.m), (1 - self.P) * self.m)

    def ratio(self):
        """max(r, 1/r); inf for the ordered output with m >= 2."""
        if self.ordered and self.m >= 2 and self.P > 0:
            return INF
        r = self._r()
        inv = None if r is None else (Fraction(0) if r == INF else (INF if r == 0 else 1 / r))
        return _max(r, inv)

    def witness(self) -> dict:
        """x = 0, x' = 1 and the subset."""
        if self.ordered and self.m >= 2 and self.P > 0:
            return {"x": 0, "x_prime": 1, "y": "(0, 1, ...) in this order: under x' = 1 the value 1 would be first"}
        r = self._r()
        if _key(r) >= 1:
            return {"x": 0, "x_prime": 1, "y": f"a subset containing 0 and not 1 (size {self.m})"}
        return {"x": 0, "x_prime": 1, "y": f"a subset containing 1 and not 0 (size {self.m})"}

    def _prob(self, S, x):
        if x in S:
            return self.P / math.comb(self.k - 1, self.m - 1)
        return (1 - self.P) / math.comb(self.k - 1, self.m)

    def dense(self):
        """(rows, outputs) over the subsets (or ordered tuples with ``ordered``)."""
        if self.ordered:
            if math.perm(self.k, self.m) > MAX_DENSE:           # counted before the tuples are listed
                raise InputError("too many ordered subsets for a dense channel")
            outs = list(itertools.permutations(range(self.k), self.m))
            if len(outs) > MAX_DENSE:
                raise InputError("too many ordered subsets for a dense channel")
            rows = []
            for t in outs:
                row = []
                for x in range(self.k):
                    if x in t and t[0] == x:
                        row.append(self.P / math.perm(self.k - 1, self.m - 1))
                    elif x in t:
                        row.append(Fraction(0))
                    else:
                        row.append((1 - self.P) / math.perm(self.k - 1, self.m))
                rows.append(row)
            return rows, [",".join(map(str, t)) for t in outs]
        outs = list(itertools.combinations(range(self.k), self.m))
        if len(outs) > MAX_DENSE:
            raise InputError("too many subsets for a dense channel")
        return [[self._prob(S, x) for x in range(self.k)] for S in outs], [",".join(map(str, S)) for S in outs]


@dataclass
class LaplaceHistogram:
    """Ideal histogram encoding: Y = e_x + (Laplace(0, b) noise)^d with the library's float scale b."""

    d: int
    scale: float
    params: dict = field(default_factory=dict)

    kind = "histogram encoding with ideal continuous Laplace noise (not the float sampler)"

    def eps(self) -> Fraction:
        """eps of the ideal mechanism: 2 / b exactly (b the binary rational of the float scale)."""
        return 2 / Fraction(self.scale)

    def witness(self) -> dict:
        """x = 0, x' = 1, y with y_0 >= 1 and y_1 <= 0."""
        return {"x": 0, "x_prime": 1, "y": "y_0 >= 1, y_1 <= 0 (density ratio e^(2/b))"}


def compose(first, second):
    """A memoised first round followed by a second round (longitudinal protocols), as one structure."""
    if isinstance(first, UnaryProduct) and isinstance(second, BitChannel):
        return UnaryProduct(first.d, first.bit.then(second), {**first.params})
    if isinstance(first, Symmetric) and isinstance(second, Symmetric):
        if first.k != second.k:
            raise InputError(f"cannot compose GRR on {first.k} values with GRR on {second.k} values")
        return first.then(second)
    raise InputError(f"no exact composition of {type(first).__name__} with {type(second).__name__}")


@dataclass
class AttributeMixture:
    """SMP: attribute j uniform on D attributes (public, released), then ``components[j]`` on attribute j."""

    components: list
    params: dict = field(default_factory=dict)

    kind = "mixture over the released sampled attribute (SMP) of per-attribute channels"

    def _ratios(self):
        return [c.ratio() if not isinstance(c, LaplaceHistogram) else None for c in self.components]

    def ratio(self):
        """max_j rho(Q_j)."""
        rs = self._ratios()
        if any(r is None for r in rs):
            raise InputError("an SMP component without an exact rational ratio")
        return max(rs, key=_key)

    def witness(self) -> dict:
        """The attribute with the worst ratio and its component's witness (tuples differing there)."""
        rs = self._ratios()
        j = max(range(len(rs)), key=lambda i: _key(rs[i]))
        w = self.components[j].witness()
        return {"x": f"t with t_{j} = {w['x']}", "x_prime": f"t' with t'_{j} = {w['x_prime']}",
                "y": f"(attribute {j}, {w['y']})"}

    def dense(self):
        """(rows, outputs) over all input tuples (small domains)."""
        dens = [c.dense() for c in self.components]
        sizes = [len(r[0]) for r, _ in dens]
        tuples = list(itertools.product(*[range(k) for k in sizes]))
        if len(tuples) * sum(len(o) for _, o in dens) > MAX_DENSE * 16:
            raise InputError("too many tuples for a dense SMP channel")
        w = Fraction(1, len(self.components))
        rows, outs = [], []
        for j, (r, o) in enumerate(dens):
            for yi, lab in enumerate(o):
                rows.append([w * r[yi][t[j]] for t in tuples])
                outs.append(f"{j}:{lab}")
        return rows, outs


@dataclass
class FakeDataMixture:
    """RS+FD with GRR: a secret uniformly sampled attribute through ``components[j]`` (Symmetric), the others
    reported as uniform fake values."""

    components: list
    params: dict = field(default_factory=dict)

    kind = "RS+FD: secret sampled attribute through GRR, uniform fake values elsewhere (ratio of sums, exact)"

    def _options(self, c):
        opts = [((c.a, c.b), "y_j = t_j != t'_j"), ((c.b, c.a), "y_j = t'_j != t_j"),
                ((c.a, c.a), "t_j = t'_j = y_j"), ((c.b, c.b), "t_j = t'_j != y_j")]
        if c.k >= 3:
            opts.append(((c.b, c.b), "y_j not in {t_j, t'_j}"))
        return opts

    def _weight(self, c):
        """The weight of attribute ``c``'s term in the ratio of sums (k_j: the fake values' 1/k_j cancel)."""
        return c.k

    def _solve(self):
        return max_ratio_of_sums([list(self._options(c)) for c in self.components],
                                 [self._weight(c) for c in self.components])

    def ratio(self):
        """max over tuple pairs and outputs of the ratio of sums (see the module docstring)."""
        r, _ = self._solve()
        return max(r, Fraction(1)) if r != INF else INF

    def witness(self) -> dict:
        """The per-attribute choices of the maximising tuples and output."""
        _, choice = self._solve()
        return {"x": "t", "x_prime": "t'", "y": "; ".join(f"attribute {j}: {o[1]}" for j, o in enumerate(choice))}

    def dense(self):
        """(rows, outputs) over all tuples (small domains)."""
        ks = [c.k for c in self.components]
        _dense_cap(math.prod(ks) ** 2, "RS+FD")                 # counted before the tuples are listed
        tuples = list(itertools.product(*[range(k) for k in ks]))
        D = len(ks)
        rows = []
        for y in tuples:
            row = []
            for t in tuples:
                tot = Fraction(0)
                for j, c in enumerate(self.components):
                    g = c.a if y[j] == t[j] else c.b
                    tot += g * math.prod(Fraction(1, ks[i]) for i in range(D) if i != j)
                row.append(tot / D)
            rows.append(row)
        return rows, [",".join(map(str, y)) for y in tuples]


@dataclass
class FakeDataUnary(FakeDataMixture):
    """RS+FD with unary encoding and zero-vector fake data (multi-freq-ldpy's ``RSpFD_UE_zero_Client``): a secret
    uniformly sampled attribute j goes through UE_j (``components[j]``, a :class:`UnaryProduct`), every other
    attribute is UE applied to the zero vector (every bit through the cold law)."""

    kind = ("RS+FD: secret sampled attribute through UE, zero-vector UE fake data elsewhere (ratio of sums, "
            "exact)")

    def _weight(self, c):
        return 1

    def _options(self, c):
        # h(b) = Pr[b | hot] / Pr[b | cold]: the attribute's term is h of the output bit at t_j (the other bits
        # of y_j, cold under both tuples, cancel with the fake-data factor); bits at t_j != t'_j are free
        h = {}
        for b in (0, 1):
            if c.bit.prob(b, 0) == 0:
                raise InputError("RS+FD with UE needs 0 < q < 1 (a cold bit that is never, or always, 1)")
            h[b] = c.bit.prob(b, 1) / c.bit.prob(b, 0)
        opts = [((h[b], h[b]), f"t_j = t'_j, y_j[t_j] = {b}") for b in (0, 1)]
        if c.d >= 2:
            opts += [((h[b1], h[b2]), f"y_j[t_j] = {b1}, y_j[t'_j] = {b2}") for b1 in (0, 1) for b2 in (0, 1)
                     if b1 != b2]
        return opts

    def dense(self):
        """(rows, outputs) over all tuples and all outputs (one bit vector per attribute; small domains)."""
        ks = [c.d for c in self.components]
        _dense_cap(math.prod(ks) * 2 ** sum(ks), "RS+FD with UE")   # counted before the tuples are listed
        tuples = list(itertools.product(*[range(k) for k in ks]))
        outs = list(itertools.product(*[list(itertools.product((0, 1), repeat=k)) for k in ks]))
        D = len(ks)

        def law(c, y, v):   # UE of value v (None: the zero vector) at the bit vector y
            return math.prod(c.bit.prob(b, int(i == v)) for i, b in enumerate(y))
        rows = []
        for y in outs:
            zero = [law(c, yj, None) for c, yj in zip(self.components, y, strict=True)]
            rows.append([sum(law(c, y[j], t[j]) * math.prod(zero[i] for i in range(D) if i != j)
                             for j, c in enumerate(self.components)) / D for t in tuples])
        return rows, [",".join("".join(map(str, yj)) for yj in y) for y in outs]
