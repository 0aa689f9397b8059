"""Audit forms of multi-freq-ldpy's HE, RS+FD and ordered SS clients (``set`` ldp; RS+FD also {P}; ``sizes``).

- ``laplace-histogram`` {d >= 2, b}: Y = e_x + Z, Z_i i.i.d. Laplace(0, b), density f(y|x) = prod_i e^(-|y_i - [i =
  x]|/b) / 2b; eps-LDP for densities is f(y|x) <= e^eps f(y|x') for almost every y (equivalently for every event).
  For x != x' the other coordinates cancel: f(y|x)/f(y|x') = e^(((|y_x| - |y_x - 1|) + (|y_x' - 1| - |y_x'|))/b) <=
  e^(2/b) (each bracket <= 1), with equality on {y_x >= 1, y_x' <= 0}, of positive measure: U = L = e^eps_c,
  eps_c = 2/b.  PASS: eps_c <= eps (exactly, or in arb against e^eps = r); FAIL: the reverse, certainly.
  Under F ({P}, a Rényi ball, P_X; ``sizes`` [|S|, |U|], d = |S||U|, x = s |U| + u): for s != s' of positive mass
  (Definition 3) P(y|s)/P(y|s') = sum_u P(u|s) l(y_(s,u)) / sum_u P(u|s') l(y_(s',u)), l(t) = e^((|t| - |t - 1|)/b)
  in [e^(-1/b), e^(1/b)] (f_0(y) = prod_i e^(-|y_i|/b)/2b cancels): <= e^(2/b), with equality where y_i >= 1 on the
  cells of s and y_i <= 0 on those of s' (disjoint coordinates: positive measure, any weights).  So U = e^(2/b) for
  every P in any F (|S| >= 2; {P}: 1 unless P gives two secrets positive mass), L = U at a P in F (P itself, the
  ``witness`` re-checked in the ball, or any distribution on P_X) giving two secrets positive mass, else no L.
- ``rsfd`` {parts: [{fake, k, p, q}]} (RS+FD): attribute j uniform on the D parts and secret, reported by L_j, every
  other attribute i by fake data F_i: Q(y|t) = prod_i F_i(y_i) (1/D) sum_j L_j(y_j|t_j)/F_j(y_j); the factor before
  the sum (> 0) cancels: the ratio is sum_j u_j / sum_j v_j, (u_j, v_j) = w_j(n) (G_j(b1), G_j(b2)), b1, b2 = "t_j,
  t'_j hot at y_j": ``uniform`` (GRR: Pr[y = t] = p, other values q; F = 1/k): G(b) = k (p if b else q); ``zero``
  (UE of the zero vector: F = Z, the all-cold law, 0 < q < 1): L/F = h(y_j[t_j]), G = h = Pr[b|hot]/Pr[b|cold];
  ``random`` (UE of a uniform value, 0 < p, q < 1): F(y) = Z(y) (n h(1) + (k - n) h(0)) / k, n = the ones of y_j, so
  G = h, w(n) = k / (n h(1) + (k - n) h(0)) (w = 1 otherwise), n in [b1 + b2, k - 2 + b1 + b2] (t_j != t'_j) or
  [b, k - 1 + b] (t_j = t'_j, b1 = b2 = b).  Parts choose independently (k >= 2): for R = data ``r``,
  sum_j max (u_j - R v_j) <= 0 proves ratio <= R at every y, t, t' (U = R); w(n) (G(b1) - R G(b2)) is monotone in n
  (1/w is affine), so each range's ends suffice.  L: the ``choice`` [[b1, b2(, n)], ...] (n in its range),
  sum u / sum v (1 unless some b1 != b2, i.e. t != t').
- ``ordered-subsets`` {k, m, p} (SS_Client's array, 2 <= m <= k - 1): with probability p, x then m - 1 other values
  in a uniform order, else m values other than x: Q(Y|x) = p / perm(k-1, m-1) if Y_1 = x, 0 if x is later in Y,
  (1-p) / perm(k-1, m) if x is not in Y; so the ratio depends on the statuses (first, later, absent) of x and x'
  only, and a pair of them is realised by some Y iff not both first, at most m - 1 later, and the m - placed other
  positions fit the k - 2 other values: U = L = the max over realised pairs.
- ``rsfd`` under {P} (set ``distribution``, ``sizes`` [|S|, |U|], data ``r``; k_0 ... k_{D-1} = |S| |U|, x = s |U| +
  u the lexicographic index of the tuple t, t_0 most significant): P(y|s) = sum_u P(u|s) Q(y|t(s, u)) = prod_i
  F_i(y_i) (1/D) sum_j sum_v pi_j(v|s) (L_j/F_j)(y_j|v), pi_j(.|s) the marginal of t_j under P(.|s).  With Y the
  values whose bit is 1 (UE) or Y = {y_j} (GRR), sum_v pi_j(v|s) (L_j/F_j)(y_j|v) = w(|Y|) (G(0) + (G(1) - G(0))
  pi_j(Y|s)) (sum_v pi_j(v|s) = 1; w = 1 but for ``random``; |Y| = 1 for ``uniform``, any size for UE).  For each
  pair s != s' of positive mass, Dinkelbach as above: sum_j max_Y (a_j - R b_j) <= 0 proves the ratio <= R at every
  y; for each size n the best Y is the n values of largest (G(1) - G(0)) (pi_j(v|s) - R pi_j(v|s')) (w(n) > 0), so
  the prefixes of that order suffice.  U = R (1 with fewer than two such secrets); L = the max over the pairs of
  sum a / sum b at these maximisers (an output y; the factor before the sum is > 0 and cancels).
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify_check import CertificateError, q
from rldp_verify_check.audit import INF, _ball_witness, _conclude, _eps_c, _num_or_inf, _ratio, _s, _table


def check_mfl(st: dict, data: dict) -> str:
    """Check an ``audit`` statement in one of the forms above; returns what was proved."""
    if "rsfd" in st and st["set"]["type"] == "distribution":
        return _conclude(st, *_rsfd_p(st, data["r"])) + " (rsfd, {P})"
    if "laplace-histogram" in st:
        d, b, F = int(st["laplace-histogram"]["d"]), q(st["laplace-histogram"]["b"]), st["set"]
        if d < 2 or b <= 0:
            raise CertificateError(f"the Laplace histogram needs d >= 2 and b > 0 (d = {d}, b = {b})")
        if F["type"] == "ldp":
            return _eps_c(st, 2 / b, "Laplace histogram, eps_c = 2/b")
        a1, a2, w = int(st["sizes"][0]), int(st["sizes"][1]), data.get("witness")
        if a1 * a2 != d or F["type"] not in ("distribution", "renyi-ball", "simplex"):
            raise CertificateError(f"the Laplace histogram under F needs d = |S||U| (d = {d}, sizes {st['sizes']})")
        P = _ball_witness(F, w, a1, a2)               # {P}, or the witness (certainly in a ball)
        two, up = P is not None and sum(1 for r in P if sum(r)) >= 2, a1 >= 2 and F["type"] != "distribution"
        if up and not two and (st["verdict"] == "FAIL" or st.get("ratio_lower") is not None):
            raise CertificateError("a lower end or FAIL needs a witness P in F giving two secrets positive mass")
        return _eps_c(st, 2 / b if two or up else Fraction(0), f"Laplace histogram under {F['type']}, eps_c")
    if st["set"]["type"] != "ldp":
        raise CertificateError("laplace-histogram, rsfd and ordered-subsets are eps-LDP forms (set ldp)")
    U, L = _rsfd(st["rsfd"]["parts"], data["r"], data["choice"]) if "rsfd" in st else _ordered(st["ordered-subsets"])
    return _conclude(st, U, L) + f" ({'rsfd' if 'rsfd' in st else 'ordered subsets'})"


def _rsfd(parts: list, r, choice: list):
    """(U, L) of RS+FD: the bound R = r checked by sum_j max (u_j - R v_j) <= 0, L at the ``choice``."""
    R, terms, uv = _num_or_inf(r), [], []
    for part, ch in zip(parts, choice, strict=True):
        fake, k, G = _part(part)
        ends = {(b1, b2): ([b1, k - 1 + b1] if b1 == b2 else [1, k - 1]) if fake == "random" else [0]
                for b1 in (0, 1) for b2 in (0, 1)}
        if R != INF:
            terms.append(max(_w(G, k, n, fake) * (G[b1] - R * G[b2]) for (b1, b2), ns in ends.items() for n in ns))
        b1, b2, n = (int(v) for v in (ch + [0])[:3])
        if (b1, b2) not in ends or not min(ends[(b1, b2)]) <= n <= max(ends[(b1, b2)]):
            raise CertificateError(f"the RS+FD choice {ch} is not an output of part {part}")
        uv.append((_w(G, k, n, fake) * G[b1], _w(G, k, n, fake) * G[b2]))
    if R != INF and sum(terms) > 0:
        raise CertificateError(f"sum_j max (u_j - R v_j) = {_s(sum(terms))} > 0: the ratio is not <= R = {_s(R)}")
    return R, _ratio(sum((u for u, _ in uv), Fraction(0)), sum((v for _, v in uv), Fraction(0)))


def _part(part: dict):
    """(fake, k, G) of an RS+FD part, its parameters checked."""
    fake, k, p, c = part["fake"], int(part["k"]), q(part["p"]), q(part["q"])
    if k < 2 or not (0 <= p <= 1 and 0 <= c <= 1) or {"uniform": p + (k - 1) * c != 1, "zero": not 0 < c < 1,
                                                      "random": not 0 < c < 1 or not 0 < p < 1}[fake]:
        raise CertificateError(f"RS+FD part {part} is not a GRR / UE with k >= 2 and 0 < q < 1 (random: 0 < p < 1)")
    return fake, k, [k * c, k * p] if fake == "uniform" else [(1 - p) / (1 - c), p / c]


def _rsfd_p(st: dict, r):
    """(U, L) of RS+FD under {P} (module docstring): per pair of secrets sum_j max_Y (a_j - R b_j) <= 0."""
    parts, (a1, a2), R = [_part(p) for p in st["rsfd"]["parts"]], (int(v) for v in st["sizes"]), _num_or_inf(r)
    ks, P, pi = [k for _, k, _ in parts], _table(st["set"]["P"], a1, a2, "P"), {}
    if math.prod(ks) != a1 * a2 or R == INF:
        raise CertificateError(f"RS+FD under {{P}} needs k_0 ... k_D-1 = |S| |U| = {a1 * a2} (k = {ks}) and a finite r")
    for s, row, m in ((s, row, sum(row)) for s, row in enumerate(P) if sum(row)):
        pi[s] = [[Fraction(0)] * k for k in ks]
        for x, c in ((s * a2 + u, c) for u, c in enumerate(row) if c):
            for j in reversed(range(len(ks))):
                x, v = divmod(x, ks[j])
                pi[s][j][v] += c / m
    L = Fraction(1)
    for s, t in ((s, t) for s in pi for t in pi if s != t):
        ab = [max(_prefixes(f, pi[s][j], pi[t][j], R), key=lambda e: e[0] - R * e[1]) for j, f in enumerate(parts)]
        if sum(a - R * b for a, b in ab) > 0:
            raise CertificateError(f"secrets {s}, {t}: sum_j max (a_j - R b_j) > 0, the ratio is not <= R = {_s(R)}")
        L = max(L, _ratio(sum(a for a, _ in ab), sum(b for _, b in ab)))
    return (R if len(pi) >= 2 else Fraction(1)), L


def _prefixes(part, ps: list, pt: list, R) -> list:
    """(a, b) = w(n) (G(0) + (G(1) - G(0)) pi(Y)) under s and s' for Y the first n values of the order, n allowed."""
    (fake, k, G), dG = part, part[2][1] - part[2][0]
    order = sorted(range(k), key=lambda v: -dG * (ps[v] - R * pt[v]))
    out, a, b = [], Fraction(0), Fraction(0)
    for n in range(k + 1):
        if n > 0:
            a, b = a + ps[order[n - 1]], b + pt[order[n - 1]]
        if fake != "uniform" or n == 1:
            out.append((_w(G, k, n, fake) * (G[0] + dG * a), _w(G, k, n, fake) * (G[0] + dG * b)))
    return out


def _w(G: list, k: int, n: int, fake: str) -> Fraction:
    """w(n) = k / (n h(1) + (k - n) h(0)) for random fake data, else 1."""
    return Fraction(k) / (n * G[1] + (k - n) * G[0]) if fake == "random" else Fraction(1)


def _ordered(f: dict):
    """(U, L) = the max of Q(Y|x)/Q(Y|x') over the realised pairs of statuses (first, later, absent)."""
    k, m, p = int(f["k"]), int(f["m"]), q(f["p"])
    if not 2 <= m <= k - 1 or not 0 <= p <= 1:
        raise CertificateError(f"ordered subsets need 2 <= m <= k - 1 and 0 <= p <= 1 (k = {k}, m = {m}, p = {p})")
    val = {"first": p / math.perm(k - 1, m - 1), "later": Fraction(0), "absent": (1 - p) / math.perm(k - 1, m)}
    ok = lambda a, b: (a, b) != ("first", "first") and [a, b].count("later") <= m - 1 \
        and m - 2 + [a, b].count("absent") <= k - 2  # noqa: E731
    U = max(_ratio(val[a], val[b]) for a in val for b in val if ok(a, b))
    return U, U
