"""eps-LDP audit forms of pure-ldp's RAPPOR, private count sketch and heavy hitters over histogram encoding (set ldp).

- ``bloom`` {m, h, p, q} (RAPPOR): a released cohort c (its law cancels), then m positions, each through the bit
  channel B(1|1) = p, B(1|0) = q on the filter bit [i in S_c(x)], |S_c(x)| <= h (h hash functions, any hash).  With
  H = B(.|1), C = B(.|0): positions in both S = S_c(x), T = S_c(x') or in neither have one law under x and x' and
  cancel; each of the |S - T| <= h others contributes H(y_i)/C(y_i) <= r1 = max_b H(b)/C(b), each of the |T - S| <= h
  C(y_i)/H(y_i) <= r2 = max_b C(b)/H(b) (c/0 = inf): U = r1^h r2^h.  The y_i range over a product set, so at the
  witness {cohort, inputs [x, x'], sets [S, T]} (data: the library's hash) the ratio is L = r1^|S-T| r2^|T-S| exactly.
- ``signed-sketch`` {w, hot, cold} (private count sketch): a released row j (cancels), then w entries +-1, all
  independent: the one at h_j(x) is s_j(x) with probability hot (else -s_j(x)), every other +1 with probability
  cold.  With E_s the law of the entry of sign s = +-1, E_0 a cold entry's, r(a, b) = max_v E_a(v)/E_b(v): keys
  (h, s), (h', s') of x, x' give (as above) r(s, s') when h = h' and r(s, 0) r(0, s') when h != h' (the two entries
  differ, the others cancel): U = the max over s, s' of both; L at the witness {row, inputs, keys [[h, s], [h', s']]}.
- ``laplace-reports`` {b: [b_1, ..., b_n]} (TreeHist / SFP over histogram encoding): n independent reports
  e_u + Laplace(0, b_i)^D, the fragment's a secret uniform mixture over prefixes (TreeHist) or at a released position
  (SFP).  Each report's density ratio is at most e^(2/b_i) (``laplace-histogram``), a ratio of two mixtures with the
  same weights is at most the largest component ratio and released draws cancel: U = e^eps_c, eps_c = sum_i 2/b_i.
  Upper end only (ratio_lower null, no FAIL): PASS when eps_c <= eps, certainly.
- ``seeded-grr`` {g, a, b} under {P} with ``seed_table`` {seeds, buckets [[h(x)]_x per seed], hash}, the seeds the
  whole public range (data, as the buckets: re-checked with ``hash``): at y = (h, v), P(y|s) = w_h f(m_s), f(m) =
  b + (a - b) m, m_s = P(h(s |U| + u) = v | s); w_h > 0 cancels, so rho(P) = max over the listed h, v and s != s' of
  positive mass of f(m_s) / f(m_s') = U = L exactly (the dense channel's rho, from seeds x |X| buckets).
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify_check import CertificateError, q
from rldp_verify_check.audit import INF, _conclude, _eps_c, _max_ratio, _ratio, _structured_channel, _table


def _pow(r, n: int):
    return Fraction(1) if n == 0 else INF if r == INF else r ** n


def _bloom(b: dict, w, d: int):
    m, h, p, c = int(b["m"]), int(b["h"]), q(b["p"]), q(b["q"])
    if m < 2 or h < 1 or not (0 <= p <= 1 and 0 <= c <= 1):
        raise CertificateError("a Bloom filter needs m >= 2 positions, h >= 1 hash functions and probabilities p, q")
    H, C = (1 - p, p), (1 - c, c)
    r1, r2 = max(_ratio(H[v], C[v]) for v in (0, 1)), max(_ratio(C[v], H[v]) for v in (0, 1))
    if w is None:
        return _pow(r1, h) * _pow(r2, h), None
    S, T = ({int(i) for i in s} for s in w["sets"])
    if max(len(S), len(T)) > h or not set(range(m)) >= S | T:
        raise CertificateError(f"the witness sets must hold at most h = {h} positions in [0, {m})")
    return _pow(r1, h) * _pow(r2, h), _pow(r1, len(S - T)) * _pow(r2, len(T - S))


def _signed(s: dict, w, d: int):
    n, hot, cold = int(s["w"]), q(s["hot"]), q(s["cold"])
    if n < 2 or not (0 <= hot <= 1 and 0 <= cold <= 1):
        raise CertificateError("a signed sketch needs w >= 2 entries and probabilities hot, cold")
    E = {1: (hot, 1 - hot), -1: (1 - hot, hot), 0: (cold, 1 - cold)}        # (Pr[+1], Pr[-1])
    r = lambda a, b: max(_ratio(E[a][v], E[b][v]) for v in (0, 1))  # noqa: E731
    val = lambda k, kp: r(k[1], kp[1]) if k[0] == kp[0] else r(k[1], 0) * r(0, kp[1])  # noqa: E731
    U = max(val((0, a), (h, b)) for a in (1, -1) for b in (1, -1) for h in (0, 1))
    if w is None:
        return U, None
    keys = [(int(h), int(v)) for h, v in w["keys"]]
    if not all(0 <= h < n and v in (1, -1) for h, v in keys):
        raise CertificateError(f"the witness keys must be (h, s) with h in [0, {n}) and s = +-1")
    return U, val(*keys)


def check_hash(st: dict, data: dict) -> str:
    """Check an ``audit`` statement in one of the forms above; returns what was proved."""
    d = int(st["sizes"][0]) * int(st["sizes"][1])
    if "seed_table" in data:
        return _seed_table(st, data["seed_table"], int(st["sizes"][1]), d)
    if st["set"]["type"] != "ldp" or d < 2:
        raise CertificateError("bloom, signed-sketch and laplace-reports are eps-LDP forms (set ldp, d >= 2)")
    if "laplace-reports" in st:
        bs = [q(v) for v in st["laplace-reports"]["b"]]
        if not bs or min(bs) <= 0 or st.get("ratio_lower") is not None or st["verdict"] == "FAIL":
            raise CertificateError("laplace-reports needs scales b_i > 0 and certifies an upper end only (no lower "
                                   "end, no FAIL)")
        return _eps_c(st, sum((2 / b for b in bs), Fraction(0)), "Laplace reports, eps_c = sum 2/b_i")
    w = data.get("bloom_witness" if "bloom" in st else "sketch_witness")
    if w is not None and (len(x := [int(v) for v in w["inputs"]]) != 2 or x[0] == x[1] or
                          not 0 <= min(x) <= max(x) < d):
        raise CertificateError(f"the witness needs inputs x != x' in [0, {d})")
    U, L = _bloom(st["bloom"], w, d) if "bloom" in st else _signed(st["signed-sketch"], w, d)
    return _conclude(st, U, L) + f" ({'bloom' if 'bloom' in st else 'signed sketch'}" + (
        f"; data to re-check with the library's hash: {w}" if w else "") + ")"


def _seed_table(st: dict, w: dict, a2: int, d: int) -> str:
    """(eps, P) of local hashing over its whole seed range (``seed_table``, module docstring): U = L = rho(P)."""
    kind, g, a, b, _ = _structured_channel(st, F := st["set"], d)
    T = [[int(v) for v in r] for r in w["buckets"]]
    if kind != "g" or F["type"] != "distribution" or not T or len(T) != len(w["seeds"]) or \
            any(len(r) != d or not all(0 <= v < g for v in r) for r in T):
        raise CertificateError(f"a seed table needs seeded-grr under {{P}} and per seed {d} buckets in [0, {g})")
    P = _table(F["P"], d // a2, a2, "P")
    pos, U = [s for s in range(d // a2) if sum(P[s])], Fraction(1)
    for r in T:                                        # m[v][i] = P(bucket v | secret pos[i]) at this seed
        m = [[Fraction(0)] * len(pos) for _ in range(g)]
        for i, s in enumerate(pos):
            for u in range(a2):
                m[r[s * a2 + u]][i] += P[s][u] / sum(P[s])
        U = max([U] + [_max_ratio(f, f) for f in ([b + (a - b) * c for c in mv] for mv in m)])
    return _conclude(st, U, U) + f" (seed table of {len(T)} seeds; data to re-check with {w['hash']})"
