"""TreeHist (pure-ldp ``TreeHistClient``): a word report times a secret mixture over prefixes, as a certified
interval for the eps-LDP ratio, without enumerating outputs.

The code (pure-ldp 1.1.2 / 1.2.0, ``TreeHistClient.privatise``) pads the string x to length L, draws
r = np.random.randint(0, R) (R = L / N, N the fragment length; secret, not released), and returns
(F(prefix_r(x)), W(x)): F and W are two copies of the frequency-oracle client (local hashing, each with eps / 2),
each drawing its own released seed and its own perturbation; prefix_r(x) is the first (r + 1) N characters of x,
padded. All draws are independent, so the law of an output y = (y_f, y_w) is

    Q[y | x] = P_W(y_w | w(x)) * sum_r pi_r P_F(y_f | u_r(x)),

with w(x), u_r(x) the inner indices of the word and of the r-th prefix and pi the law of r (uniform; see below).

**Upper end.** For x, x' and any y, Q[y|x] / Q[y|x'] is the product of P_W(y_w|w(x)) / P_W(y_w|w(x')) <= rho_W
(the word oracle's eps-LDP ratio over all pairs of its inputs, 1 for equal inputs) and of a ratio of two mixtures
with the SAME weights pi_r: sum_r pi_r A_r / sum_r pi_r B_r <= max_r A_r / B_r (if every A_r <= m B_r then
sum pi_r A_r <= m sum pi_r B_r), and each A_r / B_r = P_F(y_f|u_r(x)) / P_F(y_f|u_r(x')) <= rho_F. So rho <=
rho_W rho_F, whatever pi is (the bound does not use that r is uniform). For local hashing rho = max(a/b, b/a) of
the inner (a, b) (the released seed's weight cancels).

**Lower end.** The exact ratio at an explicit output for an explicit pair (x, x'): the word factor max(a/b, b/a)
at a seed separating w(x) from w(x') (found by the word oracle's search), times the best fragment factor
(c a + (R - c) b) / (c' a + (R - c') b) found over the searched fragment seeds s and buckets y, with c (c') the
number of prefixes of x (x') that h_s sends to y; uniform pi (np.random.randint(0, R) is exactly uniform: legacy
masked rejection). At c = R, c' = 0 the factor is a/b whatever pi is, and the interval closes (lo = hi).

**Other inner clients** (:class:`PrefixOracle`: GRR or unary encoding for the fragment, GRR, unary encoding or local
hashing for the word): the same product, with a tighter upper end for GRR (below).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import INF, PublicMixture, Symmetric, UnaryProduct, _dense_cap, _key, _max, ratio
from rldp_verify.structured.composite import BloomProduct, TwoLevel
from rldp_verify.structured.sketch import SearchedInterval, _part_max, _part_pair, _times

__all__ = ["PrefixMixture", "PrefixOracle", "PrefixTwoLevel", "RowPrefix"]

PAIRS = 64            # candidate partners x' of x = 0 in the lower-end search
FRAG_SEEDS = 4096     # fragment seeds searched per pair


def _rho(pm: PublicMixture):
    return _max(ratio(pm.a, pm.b), ratio(pm.b, pm.a))


@dataclass
class PrefixMixture(SearchedInterval):
    """Q[(y_f, y_w) | x] = P_W(y_w | word(x)) * mean_r P_F(y_f | prefixes(x)[r]) (see the module docstring).

    ``word``, ``frag``: the inner local-hashing mixtures (their ``hash_fn(index, seed)``, ``separating``);
    ``word_index(x)``, ``prefixes(x)``: the inner indices of input x (the tuple has R entries)."""

    NAME = "TreeHist"

    d: int
    word: PublicMixture
    frag: PublicMixture
    word_index: Callable[[int], int]
    prefixes: Callable[[int], tuple]
    frag_seeds: Any = range(FRAG_SEEDS)
    pairs: int = PAIRS
    params: dict = field(default_factory=dict)

    kind = ("word report (local hashing, released seed) times a secret uniform mixture over the R prefixes of a "
            "fragment report (local hashing, released seed) (TreeHist)")

    def upper(self):
        """rho_W * rho_F (the module docstring's argument)."""
        rw, rf = _rho(self.word), _rho(self.frag)
        return INF if INF in (rw, rf) else rw * rf

    def frag_factor(self, x: int, xp: int, s) -> tuple:
        """(the best exact fragment ratio at seed s over buckets and both directions, bucket, direction)."""
        a, b = self.frag.a, self.frag.b
        ux, uxp = self.prefixes(x), self.prefixes(xp)
        R = len(ux)
        bx = [self.frag.hash_fn(u, s) for u in ux]
        bxp = [self.frag.hash_fn(u, s) for u in uxp]
        best: tuple = (Fraction(1), None, 1)
        for y in set(bx) | set(bxp):
            c, cp = bx.count(y), bxp.count(y)
            num, den = c * a + (R - c) * b, cp * a + (R - cp) * b
            for r, sign in ((ratio(num, den), 1), (ratio(den, num), -1)):
                if r is not None and (r == INF or (best[0] != INF and r > best[0])):
                    best = (r, y, sign)
        return best

    def _search(self):
        """(lower end, witness) of the best searched (x, x', word seed, fragment seed, bucket)."""
        cache = self.__dict__.setdefault("_found", {})
        if "best" in cache:
            return cache["best"]
        hi, rf = self.upper(), _rho(self.frag)
        best: tuple = (Fraction(1), None)
        partners = [self.d - 1] + [xp for xp in range(1, min(self.d, self.pairs + 1)) if xp != self.d - 1]
        for xp in partners:
            wx, wxp = self.word_index(0), self.word_index(xp)
            sw = self.word.separating(wx, wxp) if wx != wxp else None
            wf = _rho(self.word) if sw is not None else Fraction(1)
            for s in self.frag_seeds:
                ff, y, sign = self.frag_factor(0, xp, s)
                val = INF if INF in (wf, ff) else wf * ff
                if best[1] is None or val == INF or (best[0] != INF and val > best[0]):
                    best = (val, {"x": 0, "x_prime": xp, "word_seed": sw, "frag_seed": s, "frag_bucket": y,
                                  "direction": sign})
                if ff == rf:
                    break
            if best[0] == hi:
                break
        cache["best"] = best
        return best

    def witness(self) -> dict:
        """x, x' and the output whose exact ratio is the lower end."""
        _, w = self._search()
        if w is None:
            return {"x": 0, "x_prime": 1, "y": "none found (lower end 1)"}
        x, xp = (w["x"], w["x_prime"]) if w["direction"] == 1 else (w["x_prime"], w["x"])
        yw = ("any word report" if w["word_seed"] is None else
              f"word bucket {self.word.hash_fn(self.word_index(x), w['word_seed'])} at seed {w['word_seed']}")
        return {"x": x, "x_prime": xp, "y": f"(fragment bucket {w['frag_bucket']} at seed {w['frag_seed']}; {yw})"}

    def dense(self, frag_seeds=None, word_seeds=None):
        """(rows, outputs) over (y_f, s_f, y_w, s_w), seeds uniform on the given lists (default: the inner
        mixtures' ``seeds``): the channel restricted to those seeds; its max ratio lies in the certified interval
        and reaches the lower end when the lists hold the witness's seeds."""
        fs, ws = list(frag_seeds or self.frag.seeds), list(word_seeds or self.word.seeds)
        gf, gw = self.frag.g, self.word.g
        _dense_cap(len(fs) * gf * len(ws) * gw * self.d, f"TreeHist with d = {self.d}")
        wt = Fraction(1, len(fs) * len(ws))
        pre = [self.prefixes(x) for x in range(self.d)]
        wi = [self.word_index(x) for x in range(self.d)]
        rows, outs = [], []
        for sf in fs:
            pf = [[Fraction(sum(self.frag.a if self.frag.hash_fn(u, sf) == yf else self.frag.b for u in us),
                            len(us)) for us in pre] for yf in range(gf)]
            for sw in ws:
                hw = [self.word.hash_fn(u, sw) for u in wi]
                for yf in range(gf):
                    for yw in range(gw):
                        rows.append([wt * pf[yf][x] * (self.word.a if hw[x] == yw else self.word.b)
                                     for x in range(self.d)])
                        outs.append(f"{yf}@{sf},{yw}@{sw}")
        return rows, outs


@dataclass
class PrefixOracle(SearchedInterval):
    """Q[(y_f, y_w) | x] = P_W(y_w | word(x)) * (1/R) sum_r P_F(y_f | u_r(x)), the fragment oracle F GRR
    (:class:`Symmetric`, (a, b)) or unary encoding (:class:`UnaryProduct`, bit (p, q)); the word oracle W GRR, unary
    encoding or local hashing (its pair ratio from :func:`rldp_verify.structured.sketch._part_pair`).

    As for :class:`PrefixMixture`, the outputs (y_f, y_w) range over a product set, so for x, x'
    max_y Q[y|x] / Q[y|x'] = rho_W(word(x), word(x')) * max_{y_f} M_x(y_f) / M_x'(y_f), M the fragment mixture.

    **GRR fragment.** M_x(y) = (c_x(y) a + (R - c_x(y)) b) / R with c_x(y) = #{r: u_r(x) = y}, so the fragment
    factor is v(c, c') = (c a + (R - c) b) / (c' a + (R - c') b) at c = c_x(y), c' = c_x'(y). For a >= b, v is
    nondecreasing in c and nonincreasing in c', so v <= v(m(x), 0) with m(x) = max_y c_x(y) (the largest number of
    equal prefix indices of x); for a < b, v <= v(0, m(x')). Upper end: rho_W * max_x v(m(x), 0) (or
    max_x v(0, m(x))): tighter than rho_W a/b, which needs R equal prefix indices. Lower end: the exact product at
    x* (largest m), y* (its most frequent prefix index) and x' the first input without y* among its prefixes and with
    another word index (then lo = hi).

    **Unary-encoding fragment.** A ratio of two mixtures with the same weights 1/R is at most its largest component
    ratio (:class:`PrefixMixture`), each at most rho_F = the unary encoding's ratio: upper end rho_W rho_F. Lower end:
    the exact ratio at x, x' (first pair whose prefix index sets are disjoint, with distinct word indices) and y_f
    set to 1 on x's prefix indices and 0 on x''s (the bits outside both sets have the same law under x and x' and
    cancel); with disjoint sets the fragment factor is rho_F and lo = hi."""

    NAME = "TreeHist"

    d: int
    word: Any
    frag: Any
    word_index: Callable[[int], int]
    prefixes: Callable[[int], tuple]
    pairs: int = PAIRS
    params: dict = field(default_factory=dict)
    memo: dict = field(default_factory=dict)

    kind = ("word report times a secret uniform mixture over the R prefixes of a fragment report (GRR or unary "
            "encoding) (TreeHist)")

    def __post_init__(self):
        if not isinstance(self.frag, (Symmetric, UnaryProduct)):
            raise InputError(f"TreeHist: no exact prefix mixture over a fragment oracle of type "
                             f"{type(self.frag).__name__} (supported: local hashing, GRR, unary encoding)")

    def _grr_v(self, c: int, cp: int, R: int):
        a, b = self.frag.a, self.frag.b
        return ratio(c * a + (R - c) * b, cp * a + (R - cp) * b)

    def _mode(self, x: int) -> tuple:
        """(m(x), the first prefix index of x attaining it)."""
        us = self.prefixes(x)
        best = max(us, key=us.count)
        return us.count(best), best

    def _top(self) -> tuple:
        """(max_x m(x), the first x attaining it), kept in ``memo`` (shared by the rebuilds of one adapter: the
        prefix indices do not depend on the float parameters)."""
        if "top" not in self.memo:
            best = (0, 0)
            for x in range(self.d):
                m = self._mode(x)[0]
                if m > best[0]:
                    best = (m, x)
            self.memo["top"] = best
        return self.memo["top"]

    def _grr_hi(self):
        """v(M, 0) for a >= b, else v(0, M), M = max_x m(x) (v is monotone in each count)."""
        M, R = self._top()[0], len(self.prefixes(0))
        return _max(Fraction(1), self._grr_v(M, 0, R) if self.frag.a >= self.frag.b else self._grr_v(0, M, R))

    def upper(self):
        """rho_W times the fragment's upper end (the class docstring)."""
        hi_f = self._grr_hi() if isinstance(self.frag, Symmetric) else _part_max(self.frag)
        return _times(_part_max(self.word), hi_f)

    def _ue_prob(self, y: dict, us: tuple) -> Fraction:
        """(1/R) sum_r prod_{i in y} P(y_i | [i = u_r]) over the bits listed in y (the others cancel)."""
        bit, total = self.frag.bit, Fraction(0)
        for u in us:
            term = Fraction(1)
            for i, v in y.items():
                term *= bit.prob(v, int(i == u))
            total += term
        return total / len(us)

    def _frag_at(self, x: int, xp: int):
        """(the exact fragment factor of (x, x') at the output chosen as in the class docstring, the output)."""
        ux, uxp = self.prefixes(x), self.prefixes(xp)
        if isinstance(self.frag, Symmetric):
            m, y = self._mode(x if self.frag.a >= self.frag.b else xp)
            R = len(ux)
            return self._grr_v(ux.count(y), uxp.count(y), R), f"fragment value {y}"
        hot = int(self.frag.bit.p >= self.frag.bit.q)
        y = {i: 1 - hot for i in uxp}
        y.update({i: hot for i in ux})
        where = f"fragment bits {dict(sorted(y.items()))} (others any)"
        return ratio(self._ue_prob(y, ux), self._ue_prob(y, uxp)), where

    def _partner(self, x: int) -> int:
        """The first x' != x with another word index whose prefix indices avoid x's (GRR: avoid x's mode)."""
        avoid = {self._mode(x)[1]} if isinstance(self.frag, Symmetric) else set(self.prefixes(x))
        fallback = None
        for xp in range(self.d):
            if xp == x:
                continue
            fallback = xp if fallback is None else fallback
            if self.word_index(xp) != self.word_index(x) and not avoid & set(self.prefixes(xp)):
                return xp
        return fallback if fallback is not None else x

    def _search(self):
        cache = self.__dict__.setdefault("_found", {})
        if "best" not in cache:
            hi = self.upper()
            if isinstance(self.frag, Symmetric):
                forward = self.frag.a >= self.frag.b
                xs = [self._top()[1]]
            else:
                forward, xs = True, list(range(min(self.d, self.pairs)))
            best: tuple = (Fraction(1), None)
            for x in xs:
                xp = self._partner(x)
                if xp == x:
                    continue
                px, pxp = (x, xp) if forward else (xp, x)
                rw, where_w = _part_pair(self.word, self.word_index(px), self.word_index(pxp))
                rf, where_f = self._frag_at(px, pxp)
                val = _times(rw, rf)
                if best[1] is None or _key(val) > _key(best[0]):
                    best = (val, {"x": px, "x_prime": pxp, "fragment": where_f, "word": where_w})
                if _key(best[0]) >= _key(hi):
                    break
            cache["best"] = best
        return cache["best"]

    def witness(self) -> dict:
        """x, x' and the output whose exact ratio is the lower end."""
        _, w = self._search()
        if w is None:
            return {"x": 0, "x_prime": 1, "y": "none found (lower end 1)"}
        return {"x": w["x"], "x_prime": w["x_prime"], "y": f"({w['fragment']}; word report at {w['word']})"}

    def dense(self):
        """(rows, outputs) over (y_f, y_w) from the oracles' dense forms (rows indexed by the inner indices)."""
        return _prefix_dense(self)


ROWS = 16             # released rows of each report searched for the lower end (the upper end covers every row)


@dataclass
class RowPrefix(SearchedInterval):
    """TreeHist over a count-mean sketch (pure-ldp ``CMSClient``): each report draws its own row j =
    random.randint(0, k - 1), released, independent of x and of the secret prefix draw r, and sends the one-hot
    vector of h_j(argument) on m positions, each entry flipped (a unary encoding of h_j(argument)). ``word``,
    ``frag``: the two CMS channels as :class:`BloomProduct` (cohort = row, one hot position); ``word_index(x)``,
    ``prefixes(x)``: their inputs (the word string's and the R prefix strings' numbers).

    **Ratio.** Q[(y_f, j_f, y_w, j_w) | x] = (1/k_f)(1/k_w) P_W(y_w | h_{j_w}(w(x))) (1/R) sum_r P_F(y_f |
    h_{j_f}(p_r(x))): the rows' weights cancel, and for fixed (j_f, j_w) this is :class:`PrefixOracle` with unary-
    encoding word and fragment on m positions, word index h_{j_w}(w(x)) and prefix indices h_{j_f}(p_r(x)). So rho is
    the maximum over (j_f, j_w) of those ratios. **Upper end**: each is at most rho_W rho_F (the unary encodings'
    ratios; :class:`PrefixOracle`), so rho <= rho_W rho_F. **Lower end**: the largest exact lower end of the
    PrefixOracles over the first ``rows`` rows of each report (an exact ratio of the whole channel at outputs with
    those rows); the interval closes when one reaches the upper end (two inputs with distinct hashed words and
    disjoint hashed prefix sets under some rows)."""

    NAME = "TreeHist"

    d: int
    word: BloomProduct
    frag: BloomProduct
    word_index: Callable[[int], int]
    prefixes: Callable[[int], tuple]
    rows: int = ROWS
    params: dict = field(default_factory=dict)

    kind = ("word report times a secret uniform mixture over the R prefixes of a fragment report, each a count-mean "
            "sketch row (released) with its one-hot vector flipped entry-wise (TreeHist over CMS)")

    def oracle(self, jf: int, jw: int) -> PrefixOracle:
        """The channel at released rows (j_f, j_w): unary encodings of the hashed word and prefixes."""
        def hot(st, j, u):
            return next(iter(st.sets(j, u)))
        return PrefixOracle(self.d, UnaryProduct(self.word.m, self.word.bit), UnaryProduct(self.frag.m, self.frag.bit),
                            lambda x: hot(self.word, jw, self.word_index(x)),
                            lambda x: tuple(hot(self.frag, jf, u) for u in self.prefixes(x)))

    def upper(self):
        """rho_W * rho_F of the two unary encodings (the class docstring)."""
        rw, rf = (UnaryProduct(st.m, st.bit).ratio() for st in (self.word, self.frag))
        return _times(rw, rf)

    def _search(self):
        cache = self.__dict__.setdefault("_found", {})
        if "best" not in cache:
            hi, best = self.upper(), (Fraction(1), None)
            for jf in range(min(self.frag.cohorts, self.rows)):
                for jw in range(min(self.word.cohorts, self.rows)):
                    lo, _, wit = self.oracle(jf, jw).ratio_bounds(0)
                    if best[1] is None or _key(lo) > _key(best[0]):
                        best = (lo, {**(wit or {}), "rows": (jf, jw)})
                    if _key(best[0]) >= _key(hi):
                        break
                if _key(best[0]) >= _key(hi):
                    break
            cache["best"] = best
        return cache["best"]

    def witness(self) -> dict:
        """x, x', the released rows and the outputs whose exact ratio is the lower end."""
        _, w = self._search()
        if not w or "x" not in w:
            return {"x": 0, "x_prime": 1, "y": "none found (lower end 1)"}
        jf, jw = w["rows"]
        return {"x": w["x"], "x_prime": w["x_prime"], "y": f"(rows j_f = {jf}, j_w = {jw}; {w['fragment']}; word "
                                                            f"report at {w['word']})"}

    def dense(self):
        """(rows, outputs) over (y_f, j_f, y_w, j_w), the rows uniform: the PrefixOracles' dense forms weighted
        1 / (k_f k_w) (small m, k, d)."""
        kf, kw = self.frag.cohorts, self.word.cohorts
        _dense_cap(kf * kw * 2 ** (self.frag.m + self.word.m) * self.d, f"TreeHist over CMS with d = {self.d}")
        w = Fraction(1, kf * kw)
        rows, outs = [], []
        for jf in range(kf):
            for jw in range(kw):
                r, o = self.oracle(jf, jw).dense()
                rows += [[w * v for v in row] for row in r]
                outs += [f"{lab}@{jf},{jw}" for lab in o]
        return rows, outs


@dataclass
class PrefixTwoLevel(SearchedInterval):
    """TreeHist over the Hadamard response (pure-ldp ``HadamardResponseClient``, high-privacy regime: a
    :class:`TwoLevel` channel, Q[y|u] = hi on the support A(u), lo elsewhere, K outputs) for the word and the fragment.

    **Ratio.** The outputs (y_f, y_w) range over a product set, so for x, x' the ratio is rho_W(w(x), w(x')) times
    max_{y_f} M_x(y_f) / M_x'(y_f), with M_x(y) = (c_x(y) hi + (R - c_x(y)) lo) / R and c_x(y) = #{r: y in A(u_r(x))}:
    the fragment factor is v(c, c') = (c hi + (R - c) lo) / (c' hi + (R - c') lo). rho_W(u, u') is 1 for u = u' and
    max(hi/lo, lo/hi) otherwise, in both directions (supports of distinct inputs differ both ways), so the pair's
    ratio is rho_W(w(x), w(x')) * max_y max(v(c_x(y), c_x'(y)), v(c_x'(y), c_x(y))), exact, found by scanning the K
    outputs. **Upper end**: a ratio of mixtures with the same weights is at most its largest component ratio, so
    rho <= rho_W rho_F with rho = max(hi/lo, lo/hi). **Lower end**: the exact pair ratio at x = 0 and searched x'
    (d - 1 first, then 1, 2, ...; at most ``pairs``); closed when some y lies in every A(u_r(x)) and in none of the
    A(u_r(x')) (or the reverse) with distinct words."""

    NAME = "TreeHist"

    d: int
    word: TwoLevel
    frag: TwoLevel
    word_index: Callable[[int], int]
    prefixes: Callable[[int], tuple]
    pairs: int = PAIRS
    params: dict = field(default_factory=dict)

    kind = ("word report times a secret uniform mixture over the R prefixes of a fragment report, both Hadamard "
            "response (two-level supports) (TreeHist)")

    def upper(self):
        """rho_W * rho_F (the class docstring)."""
        return _times(self.word.ratio(), self.frag.ratio())

    def _pair(self, x: int, xp: int) -> tuple:
        """(the exact ratio of (x, x'), the fragment output y attaining it)."""
        hi, lo = self.frag.hi, self.frag.lo
        ux, uxp = self.prefixes(x), self.prefixes(xp)
        R = len(ux)
        cx, cxp = [0] * self.frag.K, [0] * self.frag.K
        for us, cnt in ((ux, cx), (uxp, cxp)):
            for u in us:
                for y in self.frag.support(u):
                    cnt[y] += 1
        best: tuple = (Fraction(1), None)
        for y in range(self.frag.K):
            num, den = cx[y] * hi + (R - cx[y]) * lo, cxp[y] * hi + (R - cxp[y]) * lo
            v = _max(ratio(num, den), ratio(den, num))
            if _key(v) > _key(best[0]):
                best = (v, y)
        rw = self.word.ratio() if self.word_index(x) != self.word_index(xp) else Fraction(1)
        return _times(rw, best[0]), best[1]

    def _search(self):
        cache = self.__dict__.setdefault("_found", {})
        if "best" not in cache:
            hi, best = self.upper(), (Fraction(1), None)
            partners = [self.d - 1] + [xp for xp in range(1, min(self.d, self.pairs + 1)) if xp != self.d - 1]
            for xp in partners:
                v, y = self._pair(0, xp)
                if best[1] is None or _key(v) > _key(best[0]):
                    best = (v, {"x": 0, "x_prime": xp, "y": y})
                if _key(best[0]) >= _key(hi):
                    break
            cache["best"] = best
        return cache["best"]

    def witness(self) -> dict:
        """x, x' and the fragment output attaining the lower end (any word output in the support of one input
        and not of the other)."""
        _, w = self._search()
        if w is None:
            return {"x": 0, "x_prime": 1, "y": "none found (lower end 1)"}
        return {"x": w["x"], "x_prime": w["x_prime"], "y": f"(fragment output {w['y']}; a word output in one "
                                                            "input's support only)"}

    def dense(self):
        """(rows, outputs) over (y_f, y_w) from the two-level channels' dense forms (small d)."""
        return _prefix_dense(self)


def _prefix_dense(h) -> tuple[list, list]:
    """(rows, outputs) over (y_f, y_w) of a TreeHist structure ``h`` from its fragment and word parts' dense forms
    (rows indexed by the inner indices): the fragment row averaged over x's prefixes, times the word row."""
    rows_f, outs_f = h.frag.dense()
    rows_w, outs_w = h.word.dense()
    _dense_cap(len(outs_f) * len(outs_w) * h.d, f"TreeHist with d = {h.d}")
    pre = [h.prefixes(x) for x in range(h.d)]
    wi = [h.word_index(x) for x in range(h.d)]
    rows, outs = [], []
    for rf, lf in zip(rows_f, outs_f, strict=True):
        mf = [sum((rf[u] for u in us), Fraction(0)) / len(us) for us in pre]
        for rw, lw in zip(rows_w, outs_w, strict=True):
            rows.append([mf[x] * rw[wi[x]] for x in range(h.d)])
            outs.append(f"{lf},{lw}")
    return rows, outs
