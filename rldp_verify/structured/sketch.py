"""Sketch-based local randomisers: a released public index j picks a deterministic map of the input (a hash row
of the sketch), and a frequency oracle randomises the image. Exact eps-LDP ratios without enumerating outputs.

- :func:`hashed_mixture` -- sketch response (pure-ldp ``SketchResponseClient``) and prefix-based heavy hitters
  (``PEMClient``): Q[(j, y)|x] = w(j) Q_in[y | h_j(x)] with j drawn independently of x and released, so w(j)
  cancels and rho = max over j and x != x' with h_j(x) != h_j(x') of the inner ratio between the images. For an
  inner local-hashing mixture (seed s, GRR on g buckets) the result is again a :class:`PublicMixture` over the
  compound seed (j, s): bucket h_s(h_j(x)); for inner GRR or unary encoding every pair of distinct images has the
  inner ratio, so rho is the inner ratio as soon as some j separates two inputs (:class:`HashedInput`).
- :class:`SignedSketch` -- private count sketch (pure-ldp ``PCSClient``, Charikar-Chen-Farach-Colton sketch with
  the Duchi-Jordan-Wainwright / Bassily-Smith randomiser): row j released; the output is a +-1 vector of length w
  whose entry h_j(x) is s_j(x) c (c = +1 with probability ``hot``) and whose other entries are independent
  (+1 with probability ``cold``). For inputs with keys k = (h, s), k' = (h', s') under row j:
  h = h': rho = max_b L_s(b) / L_s'(b); h != h': rho = max_b L_s(b) / C(b) * max_b C(b) / L_s'(b) (L the hot law,
  C the cold law; the other entries cancel). rho is the largest of these over the key pairs that occur, found by
  scanning the inputs until the best candidate type is seen.
- :class:`ReleasedProduct` -- Apple's sequence-fragment puzzle (pure-ldp ``SFPClient``): a released position l, then
  two independent reports, a fragment oracle F on f_l(x) and a word oracle W on w(x); the eps-LDP ratio is
  max over l and x != x' of the product of the two parts' pair ratios (see the class).
- :class:`LaplaceReports` -- SFP or TreeHist over histogram encoding (pure-ldp ``HEClient``, ideal continuous
  Laplace noise): eps = 2/b_F + 2/b_W exactly, given a witness pair (see the class).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import (
    INF,
    LaplaceHistogram,
    PublicMixture,
    Symmetric,
    UnaryProduct,
    _dense_cap,
    _key,
    _max,
    ratio,
)
from rldp_verify.structured.composite import BloomProduct, TwoLevel

__all__ = ["HashedInput", "LaplaceReports", "ReleasedProduct", "SignedSketch", "SketchMixture", "hashed_mixture"]

PAIRS = 64            # candidate partners x' of x = 0 in the ReleasedProduct witness search


def hashed_mixture(d: int, indices: list, image: Callable[[Any, int], int], inner, *, dense_indices=None):
    """The structure of Q[(j, y)|x] = Q_in[y | image(j, x)] with j uniform on ``indices`` and released.

    ``inner`` is a :class:`PublicMixture` (flattened to one over (j, s)), a :class:`Symmetric` or a
    :class:`UnaryProduct` (:class:`HashedInput`); anything else is refused. ``dense_indices`` restricts the dense
    form (default: all of ``indices``)."""
    dense_idx = list(indices if dense_indices is None else dense_indices)
    if isinstance(inner, PublicMixture):
        pm = inner

        def separating(x, xp):
            for j in indices:
                u, up = image(j, x), image(j, xp)
                if u != up:
                    s = pm.separating(u, up)
                    if s is not None:
                        return (j, s)
            return None

        def bucket(x, js):
            return pm.hash_fn(image(js[0], x), js[1])
        seeds = [(j, s) for j in dense_idx for s in pm.seeds]
        return SketchMixture(d, pm.g, pm.a, pm.b, separating, seeds, bucket,
                             complete=pm.complete and len(dense_idx) == len(list(indices)))
    if isinstance(inner, (Symmetric, UnaryProduct)):
        return HashedInput(d, list(indices), image, inner, dense_idx)
    raise InputError(f"no exact sketch structure over an inner channel of type {type(inner).__name__} (supported: "
                     "local hashing, GRR, unary encoding)")


@dataclass
class SketchMixture(PublicMixture):
    """Local hashing of h_j(x) over the compound public seed (j, s): rho = max(a/b, b/a) once some (j, s) separates
    input 0 from some input x' (two inputs may share every hash row, so x' is searched, not fixed to 1)."""

    kind = "mixture over the released hash row j and seed s of GRR on g buckets of h_s(h_j(x)) (sketch + local hashing)"

    def _pair(self):
        for xp in range(1, self.d):
            s = self.separating(0, xp)
            if s is not None:
                return xp, s
        return None, None

    def _sep(self):
        return self._pair()[1]

    def witness(self) -> dict:
        """x = 0, the first x' that some (j, s) separates from it, the bucket reported."""
        xp, s = self._pair()
        hx, hxp = self.hash_fn(0, s), self.hash_fn(xp, s)
        y = hx if _key(ratio(self.a, self.b)) >= _key(ratio(self.b, self.a)) else hxp
        return {"x": 0, "x_prime": xp, "y": f"(bucket {y}, row and seed {s})", "h_seed(x)": hx, "h_seed(x')": hxp}


@dataclass
class HashedInput:
    """A released index j (uniform on ``indices``), then the input-symmetric channel ``inner`` (GRR or unary
    encoding: every pair of distinct inner inputs has its ratio) on image(j, x)."""

    d: int
    indices: list
    image: Callable[[Any, int], int]
    inner: Any
    dense_indices: list = field(default_factory=list)
    params: dict = field(default_factory=dict)

    kind = "mixture over a released hash index j of a frequency oracle applied to h_j(x) (sketch)"

    def _pair(self):
        """The first (j, x, x') with image(j, x) != image(j, x'), or None when every map is constant."""
        for j in self.indices:
            u0 = self.image(j, 0)
            for x in range(1, self.d):
                if self.image(j, x) != u0:
                    return j, 0, x
        return None

    def ratio(self):
        """The inner ratio when some index separates two inputs, else 1 (the output does not depend on x)."""
        return self.inner.ratio() if self._pair() is not None else Fraction(1)

    def witness(self) -> dict:
        """The separating index and inputs, and the inner witness on their images."""
        pair = self._pair()
        if pair is None:
            return {"x": 0, "x_prime": 1, "y": "any output (every h_j is constant)"}
        j, x, xp = pair
        return {"x": x, "x_prime": xp, "y": f"(index {j}, the inner output separating h_j(x) = {self.image(j, x)} "
                                            f"from h_j(x') = {self.image(j, xp)})"}

    def dense(self):
        """(rows, outputs) over (j, inner output) for j in ``dense_indices`` (uniform)."""
        rows_in, outs_in = self.inner.dense()
        idx = self.dense_indices or self.indices
        _dense_cap(len(idx) * len(outs_in) * self.d, f"sketch with d = {self.d}")
        w = Fraction(1, len(idx))
        rows, outs = [], []
        for j in idx:
            img = [self.image(j, x) for x in range(self.d)]
            for r, lab in zip(rows_in, outs_in, strict=True):
                rows.append([w * r[u] for u in img])
                outs.append(f"{lab}@{j}")
        return rows, outs


@dataclass
class SignedSketch:
    """Private count sketch: row j uniform on range(rows), released; key(j, x) = (h, s), h in range(w), s = +-1."""

    d: int
    w: int
    rows: int
    hot: Fraction               # Pr[the entry at h equals s]
    cold: Fraction              # Pr[an entry elsewhere is +1]
    key: Callable[[int, int], tuple]
    params: dict = field(default_factory=dict)

    kind = ("mixture over the released row j of a +-1 vector: entry h_j(x) carries the sign s_j(x) (kept with "
            "probability hot), the others are independent coins (private count sketch)")

    def _law(self, s):
        """Pr[+1], Pr[-1] at a position: the hot position with sign s (s = +-1), or a cold one (s = 0)."""
        one = self.cold if s == 0 else (self.hot if s == 1 else 1 - self.hot)
        return {1: one, -1: 1 - one}

    def _r(self, s, sp):
        """max_b L_s(b) / L_sp(b) (0/0 skipped)."""
        a, b = self._law(s), self._law(sp)
        return _max(ratio(a[1], b[1]), ratio(a[-1], b[-1]))

    def _value(self, typ):
        if typ[0] == "same":                      # (h, s) vs (h, -s)
            return self._r(typ[1], -typ[1])
        r1, r2 = self._r(typ[1], 0), self._r(0, typ[2])
        return INF if INF in (r1, r2) else r1 * r2

    def _types(self):
        """Candidate pair types, best first: ('same', s) and ('diff', s, s')."""
        types = [("same", 1), ("same", -1)] + [("diff", s, sp) for s in (1, -1) for sp in (1, -1)]
        return sorted(types, key=lambda t: _key(self._value(t)), reverse=True)

    def _scan(self):
        """The best type that occurs, with its witness (j, x, x'): inputs are scanned row by row, keeping the first
        input of each key, until the best remaining candidate occurs."""
        types = self._types()
        found: dict = {}
        for j in range(self.rows):
            first: dict = {}
            for x in range(self.d):
                h, s = self.key(j, x)
                if (h, s) in first:
                    continue
                first[(h, s)] = x
                if (h, -s) in first and ("same", -s) not in found:
                    found[("same", -s)] = (j, first[(h, -s)], x)
                for (h2, s2), x2 in first.items():
                    if h2 != h and ("diff", s2, s) not in found:
                        found[("diff", s2, s)] = (j, x2, x)
                    if h2 != h and ("diff", s, s2) not in found:
                        found[("diff", s, s2)] = (j, x, x2)
                best = next((t for t in types if t in found), None)
                if best is not None and _key(self._value(best)) == _key(self._value(types[0])):
                    return best, found[best]
        present = [t for t in types if t in found]
        return (present[0], found[present[0]]) if present else (None, None)

    def ratio(self):
        """rho exactly (1 when every input has the same key under every row)."""
        typ, _ = self._scan()
        return Fraction(1) if typ is None else self._value(typ)

    def witness(self) -> dict:
        """Row j, inputs x, x' and the entries that attain the ratio."""
        typ, where = self._scan()
        if typ is None:
            return {"x": 0, "x_prime": 1, "y": "any output (all inputs share their keys)"}
        j, x, xp = where
        (h, s), (hp, sp) = self.key(j, x), self.key(j, xp)
        return {"x": x, "x_prime": xp, "y": f"(row {j}; keys (h, s) = ({h}, {s}) and ({hp}, {sp}); the entries at "
                                            f"{sorted({h, hp})} chosen to maximise the ratio)"}

    def dense(self):
        """(rows, outputs) over (vector, j) (small w, l, d)."""
        _dense_cap(2**self.w * self.rows * self.d, f"private count sketch with w = {self.w}, l = {self.rows}")
        wt = Fraction(1, self.rows)
        rows, outs = [], []
        for j in range(self.rows):
            keys = [self.key(j, x) for x in range(self.d)]
            for vec in itertools.product((1, -1), repeat=self.w):
                row = []
                for h, s in keys:
                    p = wt
                    for i, v in enumerate(vec):
                        p *= self._law(s if i == h else 0)[v]
                    row.append(p)
                rows.append(row)
                outs.append(",".join(str(v) for v in vec) + f"@{j}")
        return rows, outs


def _part_max(st):
    """The eps-LDP ratio of a part over all pairs of its inputs, an upper end: max(a/b, b/a) for local hashing
    (whatever the seeds), the inner ratio of a hashed oracle, the ratio of GRR or unary encoding."""
    if isinstance(st, PublicMixture):
        return _max(ratio(st.a, st.b), ratio(st.b, st.a))
    if isinstance(st, HashedInput):
        return st.inner.ratio()
    if isinstance(st, (Symmetric, UnaryProduct, TwoLevel, BloomProduct)):
        return st.ratio()
    raise InputError(f"no exact pair ratio for a report of type {type(st).__name__} (supported: local hashing, "
                     "GRR, unary encoding, Hadamard response, sketch response)")


def _part_pair(st, u, up) -> tuple:
    """(max_y P(y|u) / P(y|u'), where): exact for GRR, unary encoding, Hadamard response (every pair of distinct
    inputs has the ratio: for :class:`TwoLevel` the supports of two inputs differ both ways)
    and a hashed oracle (every row j is tried); for local hashing the ratio at a separating seed found by the
    library's hash, else 1 (a lower end: a seed outside the searched range may still separate)."""
    if u == up:
        return Fraction(1), "equal inputs"
    if isinstance(st, PublicMixture):
        s = st.separating(u, up)
        return (_part_max(st), f"seed {s}") if s is not None else (Fraction(1), "no separating seed found")
    if isinstance(st, HashedInput):
        for j in st.indices:
            if st.image(j, u) != st.image(j, up):
                return st.inner.ratio(), f"row {j}"
        return Fraction(1), "every row maps both inputs alike"
    if isinstance(st, BloomProduct):
        return _bloom_pair(st, u, up)
    return _part_max(st), "distinct inputs"


def _bloom_pair(st, u, up) -> tuple:
    """The pair ratio of a Bloom-filter report (RAPPOR, CMS: a released cohort c, then independent positions, hot on
    S_c(u)): given c, positions in both sets or in neither have one law under u and u' and cancel; a position only in
    S = S_c(u) contributes at most r1 = max_y P(y|1) / P(y|0), one only in T = S_c(u') at most r2, each attained
    at its own value and the values range over a product set, so the ratio at c is r1^|S - T| r2^|T - S| exactly
    (inf when an infinite factor occurs); the cohort's law cancels: the maximum over c."""
    r1, r2 = st._r()

    def val(a: int, b: int):
        return INF if (r1 == INF and a) or (r2 == INF and b) else r1**a * r2**b
    top = None if st.hmax is None else val(st.hmax, st.hmax)      # no cohort can exceed it: stop there
    best: tuple = (Fraction(1), "every cohort gives both inputs one set")
    for c in range(st.cohorts):
        S, T = frozenset(st.sets(c, u)), frozenset(st.sets(c, up))
        v = val(len(S - T), len(T - S))
        if _key(v) > _key(best[0]):
            best = (v, f"cohort {c}")
        if top is not None and _key(best[0]) >= _key(top):
            break
    return best


def _times(r1, r2):
    return INF if INF in (r1, r2) else r1 * r2


class SearchedInterval:
    """The certified interval of a structure whose lower end is the exact ratio at a searched witness
    (``_search() -> (lower, witness)``) and whose upper end is a proved bound (``upper()``): SFP's released
    product, TreeHist's prefix structures. ``NAME`` names the protocol in the refusal of :meth:`ratio`."""

    NAME = "the structure"

    def _search(self) -> tuple[Any, Any]:
        raise NotImplementedError

    def upper(self) -> Any:
        """The proved upper end of the eps-LDP ratio (the subclass's docstring derives it)."""
        raise NotImplementedError

    def ratio_bounds(self, dps):
        """(lower, upper, witness): the exact ratio at the searched witness and the proved upper end."""
        lo, wit = self._search()
        return lo, self.upper(), wit

    def ratio(self):
        """rho when the interval is closed; refused otherwise (use :meth:`ratio_bounds`)."""
        lo, hi, _ = self.ratio_bounds(0)
        if lo != hi:
            raise InputError(f"{self.NAME}: the eps-LDP ratio is only enclosed in [{float(lo)}, {float(hi)}]")
        return hi


@dataclass
class ReleasedProduct(SearchedInterval):
    """Q[(y_f, y_w, l) | x] = pi_l F[y_f | f(l, x)] W[y_w | w(x)]: l drawn independently of x (pi_l > 0) and
    released, then two independent reports, F on the fragment input f(l, x) and W on the word input w(x).

    **Exact ratio.** pi_l is a factor of both Q[.|x] and Q[.|x'] and cancels. For fixed (l, x, x') the outputs
    (y_f, y_w) range over a product set and both factors are non-negative, so
    max_{y_f, y_w} Q[y|x] / Q[y|x'] = rho_F(f(l, x), f(l, x')) * rho_W(w(x), w(x')), with rho_P(u, u') =
    max_y P(y|u) / P(y|u') the pair ratio of a part (0/0 outputs skipped; c/0 = inf). Hence
    rho = max over l and x != x' of rho_F(f(l, x), f(l, x')) rho_W(w(x), w(x')).

    **Upper end.** Each pair ratio is at most its part's eps-LDP ratio over all pairs of its inputs (:func:`_part_max`),
    so rho <= rho_F rho_W. **Lower end.** The product of the pair ratios (:func:`_part_pair`, each exact or a lower
    end) at a searched (l, x, x'), x = 0; the interval closes (lo = hi, rho exact) as soon as one (l, x, x') has
    both pair ratios at their parts' maxima. ``frag_input(l, x)``, ``word_input(x)``: the parts' inputs."""

    NAME = "SFP"

    d: int
    positions: list
    frag: Any
    word: Any
    frag_input: Callable[[Any, int], Any]
    word_input: Callable[[int], Any]
    pairs: int = PAIRS
    params: dict = field(default_factory=dict)

    kind = ("mixture over a released position l of two independent reports: a fragment oracle on f_l(x) and a word "
            "oracle on w(x) (SFP)")

    def upper(self):
        """rho_F * rho_W (the class docstring's bound)."""
        return _times(_part_max(self.frag), _part_max(self.word))

    def _search(self):
        """(lower end, witness) over x = 0, x' among d - 1 and the first ``pairs`` inputs, every released l."""
        cache = self.__dict__.setdefault("_found", {})
        if "best" not in cache:
            hi = self.upper()
            best: tuple = (Fraction(1), None)
            partners = [self.d - 1] + [xp for xp in range(1, min(self.d, self.pairs + 1)) if xp != self.d - 1]
            for xp in partners:
                rw, where_w = _part_pair(self.word, self.word_input(0), self.word_input(xp))
                for pos in self.positions:
                    rf, where_f = _part_pair(self.frag, self.frag_input(pos, 0), self.frag_input(pos, xp))
                    val = _times(rf, rw)
                    if best[1] is None or _key(val) > _key(best[0]):
                        best = (val, {"x": 0, "x_prime": xp, "l": pos, "fragment": where_f, "word": where_w})
                    if _key(best[0]) >= _key(hi):
                        break
                if _key(best[0]) >= _key(hi):
                    break
            cache["best"] = best
        return cache["best"]

    def witness(self) -> dict:
        """x, x', the released l and where each part attains its pair ratio."""
        _, w = self._search()
        if w is None:
            return {"x": 0, "x_prime": 1, "y": "none found (lower end 1)"}
        return {"x": w["x"], "x_prime": w["x_prime"], "y": f"(l = {w['l']}; fragment report at {w['fragment']}; "
                                                            f"word report at {w['word']})"}

    def dense(self):
        """(rows, outputs) over (y_f, y_w, l) with l uniform (np.random.choice of the positions: legacy randint,
        exactly uniform), from the parts' own dense forms (their rows indexed by the parts' inputs)."""
        rows_f, outs_f = self.frag.dense()
        rows_w, outs_w = self.word.dense()
        _dense_cap(len(self.positions) * len(outs_f) * len(outs_w) * self.d, f"SFP with d = {self.d}")
        wt = Fraction(1, len(self.positions))
        wi = [self.word_input(x) for x in range(self.d)]
        rows, outs = [], []
        for pos in self.positions:
            fi = [self.frag_input(pos, x) for x in range(self.d)]
            for rf, lf in zip(rows_f, outs_f, strict=True):
                pf = [wt * rf[u] for u in fi]
                for rw, lw in zip(rows_w, outs_w, strict=True):
                    rows.append([pf[x] * rw[wi[x]] for x in range(self.d)])
                    outs.append(f"{lf},{lw}@l={pos}")
        return rows, outs


@dataclass
class LaplaceReports(LaplaceHistogram):
    """Two independent ideal histogram-encoding reports of a heavy hitter (pure-ldp ``HEClient`` inside SFP or
    TreeHist: e_u + Laplace(0, b)^D, continuous noise), a fragment report with scale b_F and a word report with
    scale b_W. ``pieces(x)``: for each released position p (SFP: the position l; TreeHist: one, the prefix draw being
    secret) the set U_p(x) of fragment indices the report mixes uniformly over (SFP: {f(l, x)}; TreeHist: the prefix
    indices of x); ``word_index(x)``: the word report's index.

    **Ratio.** Let g_b(t) = lambda_b(t - 1) / lambda_b(t) = exp((|t| - |t - 1|) / b), lambda_b the Laplace density:
    g_b lies in [e^{-1/b}, e^{1/b}], equal to e^{1/b} for t >= 1 and e^{-1/b} for t <= 0. The density of a report
    on index u at y is Lambda_b(y) g_b(y_u) (Lambda_b the density of the noise alone), so given p the output density
    is pi_p * Lambda_F(y_f) mean_{u in U_p(x)} g(y_{f,u}) * Lambda_W(y_w) g(y_{w, w(x)}) (the uniform weights of
    TreeHist's secret prefix draw over its R prefixes: a multiset, equal prefixes counted; pi_p released, cancels).
    *Upper end*: a ratio of two mixtures with the same weights is at most its largest component ratio, and each
    g(y_u) / g(y_u') <= e^{2/b}; so the density ratio is at most e^{2/b_F + 2/b_W} everywhere, and so is the ratio
    of the probabilities of any event. *Attained*: for x, x' and p with U_p(x), U_p(x') disjoint and w(x) != w(x'),
    the product set A = {y_f: y_{f,i} >= 1 on U_p(x), <= 0 on U_p(x')} x {y_w: y_{w,w(x)} >= 1, y_{w,w(x')} <= 0}
    at position p has positive probability and the density ratio on A is the constant e^{1/b_F} / e^{-1/b_F} times
    e^{1/b_W} / e^{-1/b_W}, so Pr[A | x] / Pr[A | x'] = e^{2/b_F + 2/b_W}. Hence eps = 2/b_F + 2/b_W exactly (a
    rational: the binary rationals of the float scales) once such a pair is found (searched from x = 0 against
    every x'); none found: refused (the exact eps is then not computed)."""

    frag_scale: float = 1.0
    word_scale: float = 1.0
    pieces: Callable[[int], list] = lambda x: []      # noqa: E731
    word_index: Callable[[int], Any] = lambda x: x    # noqa: E731
    who: str = "SFP"

    kind = ("two independent histogram-encoding reports (ideal continuous Laplace noise) of a heavy hitter: eps = "
            "2/b_fragment + 2/b_word exactly")

    def __post_init__(self):
        if self._pair() is None:
            raise InputError(f"{self.who} over histogram encoding: no inputs x = 0, x' with disjoint fragment indices "
                             "and distinct word indices; the exact eps (at most 2/b_fragment + 2/b_word) is not "
                             "computed")

    def _pair(self):
        """(x, x', p) of the class docstring, x = 0 (cached), or None."""
        cache = self.__dict__.setdefault("_found", {})
        if "pair" not in cache:
            cache["pair"] = None
            p0, w0 = self.pieces(0), self.word_index(0)
            for xp in range(1, self.d):
                if self.word_index(xp) == w0:
                    continue
                pp = self.pieces(xp)
                hit = next((p for p in range(len(p0)) if not set(p0[p]) & set(pp[p])), None)
                if hit is not None:
                    cache["pair"] = (0, xp, hit)
                    break
        return cache["pair"]

    def eps(self) -> Fraction:
        """2/b_F + 2/b_W exactly (the class docstring)."""
        return 2 / Fraction(self.frag_scale) + 2 / Fraction(self.word_scale)

    def witness(self) -> dict:
        """x, x', the position and the output event A of the class docstring."""
        x, xp, p = self._pair()
        ux, uxp = sorted(set(self.pieces(x)[p])), sorted(set(self.pieces(xp)[p]))
        at = f"position {p}; " if len(self.pieces(x)) > 1 else ""
        wx, wxp = self.word_index(x), self.word_index(xp)
        return {"x": x, "x_prime": xp, "y": f"({at}fragment y_i >= 1 on {ux}, <= 0 on {uxp}; word y_{wx} >= 1, "
                                            f"y_{wxp} <= 0)"}
