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
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any

from rldp_verify.core.errors import InputError
from rldp_verify.structured.channels import INF, PublicMixture, _dense_cap, _max, ratio

__all__ = ["PrefixMixture"]

PAIRS = 64            # candidate partners x' of x = 0 in the lower-end search
FRAG_SEEDS = 4096     # fragment seeds searched per pair


def _rho(pm: PublicMixture):
    return _max(ratio(pm.a, pm.b), ratio(pm.b, pm.a))


@dataclass
class PrefixMixture:
    """Q[(y_f, y_w) | x] = P_W(y_w | word(x)) * mean_r P_F(y_f | prefixes(x)[r]) (see the module docstring).

    ``word``, ``frag``: the inner local-hashing mixtures (their ``hash_fn(index, seed)``, ``separating``);
    ``word_index(x)``, ``prefixes(x)``: the inner indices of input x (the tuple has R entries)."""

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

    def ratio_bounds(self, dps):
        """(lower, upper) rationals enclosing rho: the exact ratio at the searched witness, rho_W rho_F."""
        lo, wit = self._search()
        return lo, self.upper(), wit

    def ratio(self):
        """rho when the interval is closed; refused otherwise (use :meth:`ratio_bounds`)."""
        lo, hi, _ = self.ratio_bounds(0)
        if lo != hi:
            raise InputError(f"TreeHist: the eps-LDP ratio is only enclosed in [{float(lo)}, {float(hi)}]")
        return hi

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
