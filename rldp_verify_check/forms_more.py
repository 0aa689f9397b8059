"""eps-LDP audit forms of OpenDP's Gaussian noise and noisy max / top k (statement ``set`` ldp).

- ``lattice-gaussian`` {lower, upper, k, scale, size}: as ``lattice-laplace`` (:mod:`.audit`) with discrete Gaussian
  noise Pr[Z = z] = c e^(-z^2 / (2 sigma^2)) on Z, sigma = scale 2^-k, c the same for every input.  At x = (upper,
  ...), x' = (lower, ...) (indices i, i') and y = (y, ..., y) the log ratio is c(y) = size ((y - i')^2 - (y - i)^2) /
  (2 sigma^2) = size (i - i') (2y - i - i') / (2 sigma^2), unbounded in y when i > i': rho = inf, the printed upper
  end must be "inf" (any lower end is <= rho), no PASS; a FAIL at the data's integer ``y``: c(y_lo) > eps,
  certainly, y_lo = y - ceil(|y| 2^-52) - 1: the float64 output nearest y 2^k also holds the indices within half an ulp
  (<= 2^-52 |y| indices) of y, and its ratio, a ratio of sums of terms each of ratio e^c(index) (c increasing), is
  at least e^c(y_lo).
  i = i' (both bounds on one lattice point): one output law, U = L = 1.
- ``noisy-max`` {scores [[s_x,j]], scale b, noise, negate, k}: the ordered k indices (k = 1: the argmax) of v + noise,
  v = s_x (-s_x with negate), as k rounds on the indices left.  ``gumbel`` (one draw sorted: Plackett-Luce): round law
  w_i / sum_(j left) w_j, w = e^(v/b).  ``exponential`` (OpenDP peels rounds of fresh noise b E_j, E_j ~ Exp(1)): with
  v* = max v, p_j = e^((v_j - v*)/b), t = e^(-(z - v*)/b), the argmax is i with probability int f_i(z) prod_(j != i)
  F_j(z) dz = p_i int_0^1 prod_(j != i) (1 - p_j t) dt (F_j = 0 below v_j <= v*; f_i dz = p_i dt).  All outputs
  have positive probability; rho = max_(o, x, x') P(o|x)/P(o|x') lies in [max_x lo / min_x hi, max_x hi / min_x lo]
  per o (arb ends).  PASS: every o's upper <= e^eps; FAIL: some o's lower > e^eps; the printed ends likewise.
- ``seeded-grr`` {g, a, b} under {P} (or a ball: P its ``witness``, certainly in it) with ``p_witness`` {seed, y, s,
  s_prime, buckets [[h(s |U| + u)]_u, [the same for s']], hash}: at the output (seed, y), P(y|s) = w (b + (a - b) m_s),
  m_s = sum_u P(u|s) [h(s |U| + u) = y], the seed's weight w cancels: L = f(m_s) / f(m_s') exactly; U = max(a/b,
  b/a) (:mod:`.audit`); the buckets are data, re-checked outside the checker with ``hash`` (as ``hash_witness``).
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify_check import CertificateError, q, qvec
from rldp_verify_check import audit as A
from rldp_verify_check.value import decide, num


def check_more(st: dict, data: dict) -> str:
    """Check an ``audit`` statement in one of the forms above; returns what was proved."""
    if "p_witness" in data:
        return _hash_p(st, data["p_witness"], data.get("witness"))
    if st["set"]["type"] != "ldp":
        raise CertificateError("lattice-gaussian and noisy-max are eps-LDP forms (set ldp)")
    return _gaussian(st, data) if "lattice-gaussian" in st else _noisy(st)


def _gaussian(st: dict, data: dict) -> str:
    (n, s, two_k, i_lo, i_hi), v, t = A._lattice_indices(st, "lattice-gaussian"), st["verdict"], st["eps"]
    if i_hi == i_lo:                                   # one output law
        return f"{A._conclude(st, 1, 1)}: lattice Gaussian, both bounds on lattice point {i_lo}"
    y = int(data["y"])
    y_lo = y + (-abs(y) // 2**52) - 1                  # the least index of y's float (module docstring)
    c = n * (i_hi - i_lo) * (2 * y_lo - i_hi - i_lo) / (2 * (s / two_k) ** 2)
    above = A._above(c, t)
    if A._num_or_inf(st["ratio_upper"]) != A.INF or v == "PASS" or v == "FAIL" and above != 1:
        raise CertificateError(f"{v} with upper end {st['ratio_upper']}: the ratio is unbounded (slope i - i' = "
                               f"{i_hi - i_lo}) and e^c(y) > e^eps is {'certain' if above == 1 else 'not certain'}")
    at = y if abs(y) < 10**20 else f"an integer of {len(str(abs(y)))} digits"
    return f"{v}: lattice Gaussian, ratio unbounded; at y = {at}, log ratio at y_lo {float(c):.6g}"


def _law(v: list, b: Fraction, noise: str) -> list:
    """The arb probabilities of the argmax of v + noise of scale b (module docstring)."""
    if noise == "gumbel":
        w = [(num(x) / num(b)).exp() for x in v]
        return [x / sum(w[1:], w[0]) for x in w]
    p, out = [(num(x - max(v)) / num(b)).exp() for x in v], []
    for i in range(len(v)):
        poly = [num(Fraction(1))]                      # prod_(j != i) (1 - p_j t), lowest degree first
        for pj in p[:i] + p[i + 1:]:
            poly = [a - pj * c for a, c in zip([*poly, num(Fraction(0))], [num(Fraction(0)), *poly], strict=True)]
        out.append(p[i] * sum((c / (d + 1) for d, c in enumerate(poly)), num(Fraction(0))))
    return out


def _probs(V: list, b: Fraction, noise: str, k: int) -> list:
    """P[x][o]: the arb probability of the ordered output o under the scores V[x], round by round (indices left)."""
    n, laws, outs = len(V[0]), {}, [()]
    for _ in range(k):
        outs = [(*o, j) for o in outs for j in range(n) if j not in o]  # type: ignore[misc]
    left = lambda o: tuple(j for j in range(n) if j not in o)  # noqa: E731

    def law(x, rest):                                  # the round law on the indices ``rest``, once per (x, rest)
        if (x, rest) not in laws:
            laws[(x, rest)] = _law([V[x][j] for j in rest], b, noise)
        return laws[(x, rest)]
    return [[math.prod((law(x, left(o[:m]))[left(o[:m]).index(o[m])] for m in range(k)), start=num(Fraction(1)))
             for o in outs] for x in range(len(V))]


def _noisy(st: dict) -> str:
    f, e, v = st["noisy-max"], st["eps"], st["verdict"]
    S, b, k, noise = [qvec(r) for r in f["scores"]], q(f["scale"]), int(f["k"]), f["noise"]
    n = len(S[0]) if S else 0
    if len(S) < 2 or any(len(r) != n for r in S) or b <= 0 or not 1 <= k <= n or noise not in ("gumbel", "exponential"):
        raise CertificateError("noisy max needs >= 2 score vectors of one length n, scale > 0, 1 <= k <= n and noise "
                               "gumbel or exponential")
    V = [[-x for x in r] if f.get("negate") else r for r in S]
    up, lo = A._num_or_inf(st["ratio_upper"]), st.get("ratio_lower")

    def claim():
        E, P = num(q(e["exp_eps"])) if "exp_eps" in e else num(q(e["eps"])).exp(), _probs(V, b, noise, k)
        if any(not p > 0 for r in P for p in r):
            return None
        hi = [max(r[o].upper() for r in P) / min(r[o].lower() for r in P) for o in range(len(P[0]))]
        at = [max(r[o].lower() for r in P) / min(r[o].upper() for r in P) for o in range(len(P[0]))]
        yes = [up == A.INF or all(h <= num(up) for h in hi), lo is None or any(a >= num(q(lo)) for a in at),
               {"PASS": all(h <= E for h in hi), "FAIL": any(a > E for a in at), "INCONCLUSIVE": True}[v]]
        no = [up != A.INF and any(a > num(up) for a in at), lo is not None and all(h < num(q(lo)) for h in hi),
              {"PASS": any(a > E for a in at), "FAIL": all(h <= E for h in hi)}.get(v, False)]
        return True if all(yes) else False if any(no) else None
    what = f"noisy {'max' if k == 1 else f'top {k}'}"
    if not decide(claim):
        raise CertificateError(f"{v} with ratio in [{lo}, {st['ratio_upper']}] is not certain for {what}")
    return f"{v}: {what} ({noise}), ratio in [{lo}, {st['ratio_upper']}]"


def _hash_p(st: dict, w: dict, wit) -> str:
    """(eps, P) (or a ball, at the witness P certainly in it) of local hashing with a ``p_witness`` (docstring)."""
    (a1, a2), F = (int(v) for v in st["sizes"]), st["set"]
    kind, g, a, b, top = A._structured_channel(st, F, a1 * a2)
    P, (s, t) = A._ball_witness(F, wit, a1, a2) if F["type"] != "ldp" else None, (int(w["s"]), int(w["s_prime"]))
    B, y = [[int(v) for v in r] for r in w["buckets"]], int(w["y"])
    if kind != "g" or P is None or s == t or not (sum(P[s]) and sum(P[t])) or \
            [len(r) for r in B] != [a2, a2] or not all(0 <= v < g for v in [y, *B[0], *B[1]]):
        raise CertificateError(f"the p_witness needs seeded-grr under {{P}} (or a ball's witness), secrets s != s' of "
                               f"positive mass and |U| = {a2} buckets in [0, {g}) each")
    m = [sum(c for c, h in zip(P[x], B[i], strict=True) if h == y) / sum(P[x]) for i, x in enumerate((s, t))]
    f = [b + (a - b) * v for v in m]
    return A._conclude(st, top, A._ratio(*f)) + f" ({'{P}' if wit is None else 'ball witness'}, seed {w['seed']}, " \
        f"bucket {y}); data to re-check with {w['hash']}: buckets {B} of secrets {s}, {t}"
