"""``audit``: an audit verdict for eps-LDP, (eps, {P})-, (eps, P_X)- or (eps, F)-RLDP with F a Rényi ball.

Statement: ``Q`` (rows y, columns x = s |U| + u; every column a distribution, or with ``"column_sums": "inexact"``
any non-negative Q: float entries read exactly, whose columns sum to 1 only within rounding; no step below uses a
column sum, P(y|s) = sum_u Q[y|s,u] P(u|s) and each bound reads rows of Q only, so the verdict holds for Q as given,
and the message states max |column sum - 1|), ``sizes`` [|S|, |U|],
``set`` (``{"type": "ldp"}``, ``{"type": "simplex"}``, ``{"type": "distribution", "P": table}`` or
``{"type": "renyi-ball", "phat": table, "alpha": a, "radius": B}``), ``eps`` (``{"exp_eps": r}``: e^eps = r,
or ``{"eps": e}``), and the printed ``verdict`` (PASS / FAIL / INCONCLUSIVE), ``ratio_upper`` (a number or
"inf") and ``ratio_lower`` (a number or null).  Data: ``witness`` (a table P, or null) and, for a Rényi
ball, ``pairs``: for every y and s != s' an entry ``{"y", "s", "s_prime", "r", "t", "mu1", "mu2"}`` (with
``"simplex_rest": true`` some: the others have the simplex bound, below).

Definitions.  Definition 3's ratio for a distribution P on S x U: P(Y=y|S=s) = sum_u Q[y|s,u] P(s,u) / P_s,
rho(P) = max over y, s != s' (P_s, P_s' > 0) of P(y|s)/P(y|s') (0/0 = 1, x/0 = inf).  The Rényi
divergence D_a(P^||P) = 1/(a-1) log sum_x P^_x^a P_x^(1-a) (KL at a = 1); F = {P : D_a(P^||P) <= B}.
The checker computes an upper bound U on sup_{P in F} rho(P) and the witness's rho = L, then requires
printed ratio_upper >= U, printed ratio_lower <= L, PASS: U <= e^eps, FAIL: L > e^eps (certainly).

- eps-LDP: U = L = max_y max_{x,x'} Q[y|x]/Q[y|x'] (exact).  A unary encoding on d >= 2 inputs (statement
  ``unary`` {d, p, q} instead of Q: Q[y|x] = prod_j B(y_j|[j = x]), B(1|1) = p, B(1|0) = q, so H = B(.|1),
  C = B(.|0)): for x != x' the bits j not in {x, x'} have the law C under both and cancel (y_j with C(y_j) > 0
  exists), so U = L = max_{b, e in {0,1}} H(b) C(e) / (C(b) H(e)) (exact, without the 2^d outputs).  Local
  hashing (``seeded-grr`` {g, a, b}: a public seed s, released, then GRR on g >= 2 buckets of h_s(x): a if
  y = h_s(x), else b, a + (g - 1) b = 1): the seed's weight cancels and each ratio is a/b, b/a or 1, so
  U = max(a/b, b/a) for any hash.  L: the output (s, h_s(x)) has ratio a/b and (s, h_s(x')) b/a when the buckets
  h_s(x) != h_s(x'), so ``hash_witness`` {seed, inputs [x, x'], buckets [h, h'], hash} with h != h' gives L = U;
  the buckets are data that the checker cannot evaluate (re-checked outside it with the library's ``hash``).
  ``two-level`` {a, b} (Hadamard response: every entry of Q is a or b): each ratio is a/b, b/a or 1, so
  U = max(a/b, b/a); no L (that two inputs' supports differ both ways is not checked).
- Structured channels on X = S x U (x = s |U| + u) under {P} (unary, seeded-grr: or a ball), c_s(u) = P(u|s):
  ``seeded-grr``: at y = (seed h, bucket v) each Q[y|s,u] is w_h a or w_h b, so P(y|s) = sum_u Q[y|s,u] c_s(u) is in
  w_h [min(a, b), max(a, b)]: U = max(a/b, b/a) for every P, any F (L: ``p_witness``).  ``unary`` (0 < q < 1): Q[y|x] =
  Z(y) h(y_x), h = H/C, so P(y|s) = Z(y) sum_u c_s(u) h(y_(s,u)); the bits of s and s' are disjoint, so the ratio
  is h_max/h_min = the eps-LDP ratio for every P with two secrets of positive mass (1 otherwise): the ball's U,
  attained by a witness in F with two such secrets.  ``subsets`` {m, p} (GRR: m = 1, p = a): Q[Y|x] = A if x in
  Y else B over the m-subsets Y, A = p/C(k-1, m-1), B = (1-p)/C(k-1, m), k = |X|; so P(Y|s) = f(c_s(Y)),
  f(t) = B + (A - B) t affine, and c_s(Y) lies between the sums of the max(0, m - k + |U|) least and the
  min(m, |U|) largest c_s(u): U = max over s != s' of max f / min f over these ends; L from a witness output
  {s, s_prime, Y}: f(c_s(Y)) / f(c_s'(Y)).  Secrets of mass 0 are skipped; fewer than two: U = L = 1.
  On a Rényi ball (``subsets`` only), one pair entry per (s, s') (keys s, s_prime; no y) on lumped blocks:
  for every output Y, (y = Y, s, s') is the pair below with q1 = f(1_{G}) on the cells of s, G = {u: (s, u) in
  Y}, j = |G| <= take = min(m, |U|), and q2 likewise with j' >= rest = max(0, m - k + |U|) cells of s' (the
  other m - j - j' cells of Y lie in the k - 2|U| cells of other secrets).  For A >= B, x1 = mu1 - q1 takes
  mu1 - A on G and mu1 - B off it, so M_1 = (W a^beta + (1 - W) b^beta)^(1/beta) (a <= b; W = P^(G|s)) depends
  on Y through W only and is non-increasing in W (beta > 0: the inner sum falls, ^(1/beta) rises; beta < 0:
  it rises, ^(1/beta) falls; a^W b^(1-W) at beta = 0); x2 = mu2 + r q2 is smallest off G', so M_2 is
  non-increasing in P^(not G'|s').  Every term of the bound (-M z and sup_z (-M z - kappa psi(z)), z >= 0) is
  non-increasing in M, and so is -min x (p = 0: the lumped block holds the same two values).  Hence the bound
  for Y is at most the bound for G = the take heaviest cells of s and G' = the rest lightest of s' (W largest,
  P^(G'|s') least), and x_i >= 0 there gives x_i >= 0 for Y (the lumped blocks hold max q1 and min q2): one
  entry proves P(Y|s) <= r P(Y|s') on F for all Y.  For A < B the roles swap: G = the rest lightest of s,
  G' = the take heaviest of s'.  The checker evaluates each block lumped to its two values (cells [in G, off
  G], weights [P^(G|s), rest]: the same power mean).  L: the witness (certainly in F) at the output {s, s', Y}.
- {P}: U = L = rho(P) (exact).  P_X: U = max_{y,s!=s'} max_u Q[y|s,u] / min_u Q[y|s',u] (P(y|s) is an
  average of the Q[y|s,u]); L from the witness.
- Rényi ball, one pair (y, s1, s2), q_i = Q[y|s_i,.], claimed bound r with rational (t, mu1, mu2).  Let
  p_i = P^_{s_i}, w_i = P^_{U|s_i}, R_i = P_{U|s_i}, d_i = D_a(w_i||R_i), z_i = e^{-d_i} in [0, 1],
  beta = 1 - 1/a, x1 = mu1 - q1 >= 0, x2 = mu2 + r q2 >= 0 (checked exactly).  Then
  <q1,R1> - r <q2,R2> = mu1 + mu2 - <x1,R1> - <x2,R2>, and
  (H) <x, R> >= z M, M = (sum_{w_u>0} w_u x_u^beta)^(1/beta) (geometric mean at beta = 0): Hölder with
      exponents a, a/(a-1) on w x^beta = (w^a R^(1-a))^(1/a) (R x)^beta for a > 1; with 1/a, 1/(1-a) on
      w^a R^(1-a) = (w x^beta)^a (R x)^(1-a) for a < 1; Jensen for a = 1.
  (C) sum_x P^^a P^(1-a) = sum_s P^_s^a P_s^(1-a) e^{(a-1)d_s}; Hölder over s gives, for P in F,
      p1 z1^-beta + p2 z2^-beta <= K (beta > 0), >= K (beta < 0), K = e^{beta B} - 1 + p1 + p2; and at
      a = 1 the chain rule gives p1 log(1/z1) + p2 log(1/z2) <= B.
  Weak duality with t (t beta >= 0; t >= 0 at a = 1): for P in F,
      <q1,R1> - r <q2,R2> <= mu1 + mu2 + t K + sum_i sup_{z in [0,1]} (-M_i z - t p_i z^-beta)
  (t B and +t p_i log z at a = 1; -min_u x_i(u) for a block with p_i = 0, which (C) does not constrain).
  The sup is h(1) when the maximiser of the concave h lies beyond 1, else h at its stationary point
  (an upper bound either way), or max(h(0), h(1)) when h is convex (a <= 1/2).  Or, with ``"mode": "split"``
  (rational cuts 0 = t_0 < ... < t_n, t_n+1 = Phi = (e^{beta B} - 1)/beta (B at a = 1), mu1, mu2 per part;
  "product" = cuts [0]): (C) is c1 + c2 <= Phi, c_i = p_i (z_i^-beta - 1)/beta >= 0 (p_i log(1/z_i) at a = 1);
  on part k, c1 <= t_k+1 and c2 <= Phi - t_k, and c_i <= T gives z_i >= (1 + beta T/p_i)^(-1/beta) (0 if the
  base is <= 0; e^{-T/p_i} at a = 1): the part's bound is mu1 + mu2 - M1 z1 - M2 z2 at these least z, the
  bound the max over the parts (tight for a <= 1/2 as the parts shrink).  The bound evaluated
  in arb and certainly <= 0 proves P(y|s1) <= r P(y|s2) on F.  U = max r over all pairs; an unlisted pair (with
  ``simplex_rest``) has r = max q1 / min q2 (P(y|s_i) is an average of q_i: Proposition 3, as P_X and the simplex).
  a/b (0/0 = 1, x/0 = inf) is non-decreasing in a and non-increasing in b: such maxima over pairs take for each
  numerator the least allowed denominator only (``_max_ratio``).
- A product (``product`` [part, ...], each part a structured statement {form, sizes} of any form above, eps-LDP):
  Q[y|x] = prod_i sum_{r in R_i(y)} pi_ir(y) Q_i[z_ir(y)|u_ir(x)], independent parts, pi >= 0, z and R_i not
  depending on x, Q_i the part's channel: secret mixtures (TreeHist's prefixes), released ones (a public row j in y:
  one r) and marginals of a part.  sum_r pi_r A_r / sum_r pi_r B_r <= max_r A_r / B_r, so U = prod_i U_i.  With
  ``coordinates`` (x = (x_1, ..., x_n), Q[y|x] = prod_i Q_i[y_i|x_i]: SPL) L = prod_i L_i, x, x', y taken per part
  at its L_i.  With ``mixture`` (SMP) instead Q[(j, y)|x] = pi_j Q_j[y|u_j(x)], j released: U = max_j U_j (with
  ``coordinates``, x and x' differing in x_j only, L = max_j L_j).  Else L: the ``product_witness`` {hash, parts:
  [{seed, inputs [[u_r(x)], [u_r(x')]], buckets (same shape), y}]}, uniform pi (one entry per r), the exact ratio
  prod_i sum_r Q_i(y_i|u_r(x)) / sum_r Q_i(y_i|u_r(x')): ``seeded-grr`` (Q_i = a on the bucket y_i, else b), GRR
  (``subsets`` m = 1, each input its own bucket) or ``unary`` (y the bits {i: y_i} at every u_r; the other bits have
  the law C under all and cancel); the buckets and inputs are data (an index mapped to one bucket, checked),
  re-checked outside the checker with ``hash``.
- Lattice noise (``lattice-laplace`` {lower, upper, k, scale, size}, eps-LDP; data i_lower, i_upper): each of the
  ``size`` coordinates x in [lower, upper] is rounded to i(x) = floor(x 2^-k + 1/2), and Y = i + Z with Z discrete
  Laplace of scale sigma = scale 2^-k, Pr[Z = z] = c t^|z|, t = e^(-1/sigma), independently per coordinate.  The ratio
  at y is prod_j t^(|y_j - i_j| - |y_j - i'_j|) <= t^(-||i - i'||_1) (triangle inequality), with equality at every y
  below both; i is monotone in x, so ||i - i'||_1 <= size (i(upper) - i(lower)), attained at upper vs lower:
  U = L = e^eps_c, eps_c = size (i_upper - i_lower) 2^k / scale (rational; the float output is post-processing,
  and every float below lower has lattice preimages below i(lower) only).  The checker recomputes the indices
  from the bounds, then PASS: eps_c <= eps (exactly, or e^eps_c <= e^eps in arb), FAIL: the reverse, certainly.
"""

from __future__ import annotations

import math
from fractions import Fraction

from rldp_verify_check import CertificateError, q, qvec
from rldp_verify_check.value import _max, decide, inside, num

INF = math.inf


def _num_or_inf(x):
    return INF if x == "inf" else q(x)


def _ratio(a: Fraction, b: Fraction):
    return (Fraction(1) if a == 0 else INF) if b == 0 else a / b


def _table(t, a1: int, a2: int, what: str) -> list[list[Fraction]]:
    P = [qvec(row) for row in t]
    if len(P) != a1 or any(len(r) != a2 for r in P):
        raise CertificateError(f"{what} is not {a1} x {a2}")
    if any(v < 0 for r in P for v in r) or sum(sum(r) for r in P) != 1:
        raise CertificateError(f"{what} is not a probability distribution")
    return P


def rho_of(Q, P, a1: int, a2: int):
    """rho(P) = max_{y, s != s'} P(y|s)/P(y|s') over s, s' of positive mass (Definition 3); 1 if there is no such
    pair (the condition is then vacuous; and max(a/b, b/a) >= 1 makes 1 a lower bound of any defined rho)."""
    mass = [sum(P[s]) for s in range(a1)]
    return max([Fraction(1)] + [_max_ratio(c, c) for row in Q for c in [[sum(
        row[s * a2 + u] * P[s][u] for u in range(a2)) / mass[s] for s in range(a1) if mass[s]]]])


def _max_ratio(num, den, skip=frozenset()):
    """max(1, max of num[i]/den[j] over i != j, (i, j) not in ``skip``): per i, the least den[j] allowed (docstring)."""
    order = sorted(range(len(den)), key=den.__getitem__)
    js = [(i, next((j for j in order if j != i and (i, j) not in skip), None)) for i in range(len(num))]
    return max([Fraction(1)] + [_ratio(num[i], den[j]) for i, j in js if j is not None])


def in_ball(P, phat, a: Fraction, B: Fraction) -> bool:
    """D_a(P^||P) <= B, decided in exact rationals and arb (undecided counts as outside)."""
    cells = [(h, p) for rh, rp in zip(phat, P, strict=True) for h, p in zip(rh, rp, strict=True) if h > 0]
    if any(p == 0 for _, p in cells) and a >= 1:
        return False                                   # an infinite term
    cells = [(h, p) for h, p in cells if p > 0]
    if a == 1:
        return decide(lambda: inside(sum((num(h) * (num(h) / num(p)).log() for h, p in cells), num(Fraction(0))),
                                     None, B))
    exact = a.denominator == 1 and a <= 16             # small integer order: the power sum is an exact rational
    S = sum((h ** int(a) / p ** (int(a) - 1) for h, p in cells), Fraction(0)) if exact else Fraction(0)

    def claim():                                       # sum P^^a P^(1-a) <= e^((a-1)B) (a > 1), >= (a < 1)
        e = (num(a - 1) * num(B)).exp()
        return inside(num(S) if exact else sum(((num(a) * num(h).log() + num(1 - a) * num(p).log()).exp()
                                                for h, p in cells), num(Fraction(0))),
                      *((None, e) if a > 1 else (e, None)), conv=lambda x: x)
    return decide(claim)


def _power_mean(x, w, beta: Fraction):
    """M_beta(x; w) over w > 0 as an arb ball; exactly 0 when it is 0 (returned as None)."""
    items = [(xi, wi) for xi, wi in zip(x, w, strict=True) if wi > 0]
    if all(xi == 0 for xi, _ in items) or (beta <= 0 and any(xi == 0 for xi, _ in items)):
        return None
    items = [(xi, wi) for xi, wi in items if xi > 0]
    if beta == 0:
        return sum((num(wi) * num(xi).log() for xi, wi in items), num(Fraction(0))).exp()
    s = sum((num(wi) * (num(beta) * num(xi).log()).exp() for xi, wi in items), num(Fraction(0)))
    return (s.log() / num(beta)).exp()


def _sup_h(M, kappa: Fraction, beta: Fraction):
    """An arb upper bound of sup_{z in [0,1]} -M z - kappa psi(z), psi = z^-beta (-log z at beta = 0); M None = 0."""
    if kappa == 0:
        return num(Fraction(0))
    psi1 = Fraction(0) if beta == 0 else Fraction(1)
    if M is None:                                      # h = -kappa psi(z): increasing (kappa beta >= 0)
        return num(-kappa * psi1)
    k = num(kappa)
    if beta <= -1:                                     # convex on [0, 1]: an end point
        return num(Fraction(0)).max(-M - k)
    kb = k if beta == 0 else k * num(beta)
    if kb >= M:                                        # the stationary point is >= 1: h(1)
        return -M - k * num(psi1)
    if beta == 0:
        return -k + k * (k / M).log()
    z = ((kb / M).log() / num(1 + beta)).exp()
    return -M * z * num(1 + 1 / beta)


def pair_bound(Q_y, a2, s1, s2, phat, a: Fraction, B: Fraction, pc: dict):
    """An arb ball containing the bound of <q1,R1> - r <q2,R2> over F proved by the pair entry ``pc`` (module
    docstring): weak duality with t, or ``"mode": "split"`` / ``"product"`` (the max over the budget parts)."""
    if pc.get("mode") in ("split", "product"):
        if pc["mode"] == "product":
            pc = {**pc, "cuts": [0], "mu1": [pc["mu1"]], "mu2": [pc["mu2"]]}
        cuts = qvec(pc["cuts"])
        if cuts[0] != 0 or cuts != sorted(set(cuts)) or not len(cuts) == len(pc["mu1"]) == len(pc["mu2"]):
            raise CertificateError("the budget cuts must be 0 = t_0 < t_1 < ... with one (mu1, mu2) per part")
        return _max([_bound(Q_y, a2, s1, s2, phat, a, B, {**pc, "mu1": m1, "mu2": m2}, (lo, hi)) for lo, hi, m1, m2
                     in zip(cuts, cuts[1:] + [None], pc["mu1"], pc["mu2"], strict=True)], None)
    return _bound(Q_y, a2, s1, s2, phat, a, B, pc, None)


def _proves(*args) -> bool:
    """Is the bound of ``pair_bound(*args)`` certainly <= 0 (which proves P(y|s1) <= r P(y|s2) on F)?"""
    return decide(lambda: inside(pair_bound(*args), None, Fraction(0)))


def _bound(Q_y, a2, s1, s2, phat, a: Fraction, B: Fraction, pc: dict, part):
    """The bound of one entry: weak duality with t (``part`` None), or the budget part (t_k, t_k+1 or None)."""
    beta = 1 - 1 / a
    r, mu1, mu2 = q(pc["r"]), q(pc["mu1"]), q(pc["mu2"])
    t = Fraction(0) if part else q(pc["t"])
    if t * beta < 0 or t < 0 and beta == 0:
        raise CertificateError("the multiplier t has the wrong sign for this alpha")
    q1, q2 = Q_y[s1 * a2:(s1 + 1) * a2], Q_y[s2 * a2:(s2 + 1) * a2]
    x1, x2 = [mu1 - v for v in q1], [mu2 + r * v for v in q2]
    if min(x1) < 0 or min(x2) < 0:
        raise CertificateError("mu1 < max q1 or mu2 < -r min q2")
    p1, p2 = sum(phat[s1]), sum(phat[s2])
    Phi = num(B) if beta == 0 else ((num(beta) * num(B)).exp() - 1) / num(beta)
    K = Phi if beta == 0 else num(beta) * Phi + num(p1 + p2)
    total = num(mu1 + mu2) + num(t) * K
    for x, p, s, T in ((x1, p1, s1, part and (Phi if part[1] is None else num(part[1]))),
                       (x2, p2, s2, part and Phi - num(part[0]))):
        if p == 0:
            total -= num(min(x))
            continue
        M = _power_mean(x, [v / p for v in phat[s]], beta)
        if not part:
            total += _sup_h(M, t * p, beta)
        elif M is not None:                            # z >= z(T) (module docstring)
            base = 1 + num(beta) * T / num(p)
            if beta == 0:
                total -= M * (-T / num(p)).exp()
            elif base > 0:
                total -= M * (base.log() * num(-1 / beta)).exp()
            elif not base <= 0:
                raise CertificateError("the least z of a block is undecided")
    return total


def check(st: dict, data: dict) -> str:
    """Check an ``audit`` certificate; returns what was proved or raises CertificateError."""
    if "lattice-laplace" in st:
        return _lattice(st, data)
    if {"laplace-histogram", "rsfd", "ordered-subsets"} & set(st):
        from rldp_verify_check.forms_mfl import check_mfl; return check_mfl(st, data)  # noqa: E702, I001
    if {"bloom", "signed-sketch", "laplace-reports"} & set(st) or "seed_table" in data:
        from rldp_verify_check.forms_hash import check_hash; return check_hash(st, data)  # noqa: E702, I001
    if "threshold-release" in st or "hadamard_witness" in data or "Q" not in st and st["set"] == {"type": "simplex"}:
        from rldp_verify_check.forms_threshold import check_threshold; return check_threshold(st, data)  # noqa: E702, I001
    if {"lattice-gaussian", "noisy-max"} & set(st) or "p_witness" in data:
        from rldp_verify_check.forms_more import check_more; return check_more(st, data)  # noqa: E702, I001
    a1, a2 = (int(v) for v in st["sizes"])
    F, wit = st["set"], data.get("witness")
    Q, note = _channel(st, a1, a2) if "Q" in st else (None, "")
    U, L = _ratio_range(Q, a1, a2, F, wit, data) if "Q" in st else \
        _product(st, F, data.get("product_witness")) if "product" in st else _structured(st, F, data)
    msg, w = _conclude(st, U, L), data.get("hash_witness") or data.get("product_witness")
    at = "" if not w else f"buckets {w['buckets']} of {w['inputs']} at seed {w['seed']}" if "seed" in w else \
        f"the parts' inputs and buckets (seeds {[p['seed'] for p in w['parts']]})"
    return msg + f" ({F['type']}{'' if wit is None else ', witness re-checked'})" + (
        f"; data to re-check with {w['hash']}: {at}" if w else "") + note


def _lattice(st: dict, data: dict) -> str:
    """A ``lattice-laplace`` statement (module docstring): eps_c from the recomputed lattice indices."""
    n, s, two_k, *i = _lattice_indices(st, "lattice-laplace")
    if i != [q(data["i_lower"]), q(data["i_upper"])]:
        raise CertificateError(f"the lattice indices i_lower, i_upper are not floor(x 2^-k + 1/2) of the bounds "
                               f"(k = {st['lattice-laplace']['k']})")
    return _eps_c(st, n * (i[1] - i[0]) * two_k / s, "lattice Laplace, eps_c") + " (indices re-computed)"


def _lattice_indices(st: dict, form: str):
    """(size, scale, 2^k, i(lower), i(upper)) of a lattice form, i(x) = floor(x 2^-k + 1/2), parameters checked."""
    m = st[form]
    n, s, two_k = int(m["size"]), q(m["scale"]), Fraction(2) ** int(m["k"])
    i = [math.floor(q(m[x]) / two_k + Fraction(1, 2)) for x in ("lower", "upper")]
    if s <= 0 or n < 1 or i[1] < i[0] or st["set"]["type"] != "ldp":
        raise CertificateError(f"{form} needs scale > 0, size >= 1, lower <= upper and the set ldp")
    return n, s, two_k, *i


def _eps_c(st: dict, e: Fraction, what: str) -> str:
    """U = L = e^e (lattice noise, the Laplace forms): the printed bracket encloses e^e, and the verdict is e vs eps,
    certainly; the message names ``what``."""
    up, lo, v = _exp_cmp(_num_or_inf(st["ratio_upper"]), e), st.get("ratio_lower"), st["verdict"]
    if up not in (1, 0) or lo is not None and _exp_cmp(q(lo), e) not in (-1, 0):
        raise CertificateError(f"the printed ratio [{lo}, {st['ratio_upper']}] does not enclose e^{e}")
    above = _above(e, st["eps"])
    if not (v == "INCONCLUSIVE" or v == "FAIL" and above == 1 or v == "PASS" and above in (-1, 0)):
        raise CertificateError(f"{v} but eps_c = {e} is not certainly {'at most' if v == 'PASS' else 'above'} eps")
    return f"{v}: {what} = {e}"


def _above(e: Fraction, t: dict):
    """The sign of e - eps (``t`` {"eps": eps} or {"exp_eps": r}, r = e^eps), certainly; None if undecided."""
    return (e > q(t["eps"])) - (e < q(t["eps"])) if "eps" in t else \
        None if (r := _exp_cmp(q(t["exp_eps"]), e)) is None else -r


def _vs_eps(x, t: dict):
    """The sign of x - e^eps (x rational or inf; ``t`` as in :func:`_above`), certainly; None if undecided."""
    return _exp_cmp(x, q(t["eps"])) if "eps" in t else 1 if x == INF else (x > q(t["exp_eps"])) - (x < q(t["exp_eps"]))


def _exp_cmp(x, e: Fraction):
    """The sign of x - e^e (x rational or inf), certainly; None if undecided (e^e is irrational for e != 0)."""
    if x == INF or e == 0:
        return 1 if x == INF else (x > 1) - (x < 1)
    r = decide(lambda: (lambda w: 1 if w > 0 else -1 if w < 0 else None)(num(x) - num(e).exp()))
    return r if r in (1, -1) else None


def _structured(st: dict, F: dict, data: dict):
    """(U, L) of the unary encoding {d, p, q}, local hashing {g, a, b} or subsets {m, p} (module docstring)."""
    a1, a2 = (int(v) for v in st["sizes"])
    kind, d, A, B, top = _structured_channel(st, F, a1 * a2)
    P = None if F["type"] == "ldp" else _ball_witness(F, data.get("witness"), a1, a2)   # P (or the witness) checked
    if F["type"] == "ldp" or kind == "g":
        if kind == "g" and F["type"] == "ldp" and "hash_witness" in data:
            return top, _hash_witness(data["hash_witness"], d, a1 * a2, top)
        return top, None if kind in "gt" else top
    if kind == "d":                                    # every P with two secrets of mass > 0 has the ratio top
        L = None if P is None else top if sum(1 for r in P if sum(r)) >= 2 else Fraction(1)
        return (L if F["type"] == "distribution" else top if a1 >= 2 else Fraction(1)), L
    if F["type"] != "distribution":                  # simplex: max(A/B, B/A) (:mod:`.forms_threshold`)
        return _subsets_ball(F, d, A, B, a1, a2, data.get("pairs", [])) if F["type"] == "renyi-ball" else \
            top if a1 >= 2 else Fraction(1), None if P is None else _subsets_range(P, d, A, B, a1, a2, data)[1]
    return _subsets_range(P or [], d, A, B, a1, a2, data)                # P: the set {P}


def _product(st: dict, F: dict, wit):
    """(U, L) of a ``product`` (module docstring): U the product (``mixture``: max) of the parts' U, L as the parts'
    (``coordinates``) or at the witness's buckets."""
    parts = st["product"]
    if F["type"] != "ldp" or not parts:
        raise CertificateError("a product form needs parts and the set ldp")
    UL, comb = [_structured(p, F, {}) for p in parts], max if st.get("mixture") else math.prod
    Ls: list = [e[1] for e in UL] if st.get("coordinates") else [None]
    U, L = comb([e[0] for e in UL]), None if None in Ls else comb(Ls)
    if wit is None or L is not None or st.get("mixture"):
        return U, L
    f = [_witness_sums(p, F, w) for p, w in zip(parts, wit["parts"], strict=True)]
    return U, _ratio(math.prod(e[0] for e in f), math.prod(e[1] for e in f))


def _witness_sums(p: dict, F: dict, w: dict):
    """(sum_r Q_p(y|u_r(x)), the same at x') of a ``seeded-grr``, GRR or ``unary`` part at its product witness."""
    kind, g, a, b, _ = _structured_channel(p, F, k := math.prod(int(v) for v in p["sizes"]))
    ix, ixp = w["inputs"]
    if len(ix) != len(ixp) or not ix:
        raise CertificateError("the product witness needs one index per mixture component for x and x'")
    if kind == "t" or kind == "m" and g != 1:
        raise CertificateError("a product witness needs seeded-grr, GRR (subsets m = 1) or unary parts")
    if kind == "d":
        return _unary_sums(w, a, b, g)
    g, y = k if kind == "m" else g, int(w["y"])
    h: dict = {}                                       # GRR: each input is its own bucket
    for i, v in zip(sum(w["inputs"], []), sum(w["inputs" if kind == "m" else "buckets"], []), strict=True):
        if h.setdefault(int(i), int(v)) != int(v) or not 0 <= int(v) < g:
            raise CertificateError(f"the product witness maps index {i} to two buckets or outside [0, {g})")
    return tuple(sum((a if h[int(i)] == y else b for i in side), Fraction(0)) for side in (ix, ixp))


def _unary_sums(w: dict, p: Fraction, c: Fraction, d: int):
    """A unary part's sums at the listed bits y {i: y_i} holding every input u_r (the others cancel at C > 0)."""
    y = {int(i): int(v) for i, v in w["y"].items()}
    if not {int(u) for s in w["inputs"] for u in s} <= set(y) <= set(range(d)) or not set(y.values()) <= {0, 1}:
        raise CertificateError(f"a unary part's witness must list bits (0 or 1) in [0, {d}) at every input u_r")
    return tuple(sum((math.prod(((p if i == int(u) else c) if v else 1 - (p if i == int(u) else c)
                                 for i, v in y.items()), start=Fraction(1)) for u in side), Fraction(0))
                 for side in w["inputs"])


def _hash_witness(w: dict, g: int, k: int, top):
    """Local hashing's eps-LDP lower end: inputs x != x' whose buckets at a seed differ (data, module docstring)."""
    (x, xp), (h, hp) = [int(v) for v in w["inputs"]], [int(v) for v in w["buckets"]]
    if x == xp or h == hp or not (min(x, xp) >= 0 and max(x, xp) < k and min(h, hp) >= 0 and max(h, hp) < g):
        raise CertificateError(f"the hash witness needs inputs x != x' in [0, {k}) with different buckets in [0, {g})")
    return top


def _subsets_ball(F: dict, m: int, A, B, a1: int, a2: int, pairs) -> Fraction:
    """U of subsets {m} on a Rényi ball: max r over one checked entry per (s, s') on the lumped blocks."""
    phat, a, rad = _ball(F, a1, a2)
    take, rest = min(m, a2), max(0, m - a1 * a2 + a2)
    (n1, h1), (n2, h2) = ((take, True), (rest, False))[::1 if A >= B else -1]

    def lump(s, n, heavy):                             # (weights [P^(G), the rest], values [q on G, off G])
        W = sum(sorted(phat[s], reverse=heavy)[:n])
        return [W, sum(phat[s]) - W], [A if n else B, B if n < a2 else A]
    need, U = {(s, t) for s in range(a1) for t in range(a1) if s != t}, Fraction(1)
    L1, L2 = [lump(s, n1, h1) for s in range(a1)], [lump(s, n2, h2) for s in range(a1)]
    for pc in pairs:
        key = (int(pc["s"]), int(pc["s_prime"]))
        if key not in need:
            raise CertificateError(f"pair {key} is not a pair of this audit (or is listed twice)")
        need.discard(key)
        if (r := _num_or_inf(pc["r"])) != INF:
            (w1, v1), (w2, v2) = L1[key[0]], L2[key[1]]
            if not _proves(v1 + v2, 2, 0, 1, [w1, w2], a, rad, pc):
                raise CertificateError(f"pair (s, s') = {key}: the dual bound on the lumped blocks does not prove "
                                       f"ratio <= {r}")
        U = max(U, r)
    if need:
        raise CertificateError(f"{len(need)} pairs (s, s') have no certificate, e.g. {min(need)}")
    return U


def _subsets_range(P, d: int, A, B, a1: int, a2: int, data: dict):
    """(U, L) of subsets {m = d} under {P}: the ends of c_s(Y) per secret, and the witness output Y."""
    cond = {s: [v / m for v in r] for s, r in enumerate(P) if (m := sum(r))}
    f = lambda t: B + (A - B) * t  # noqa: E731
    ends = {s: (f(sum(sorted(r)[:max(0, d - a1 * a2 + a2)])), f(sum(sorted(r)[a2 - min(d, a2):]))) for s, r in
            cond.items()}
    U = _max_ratio([max(e) for e in ends.values()], [min(e) for e in ends.values()])
    if len(cond) < 2 or "output" not in data:
        return U, U if len(cond) < 2 else None
    s, t, Y = int(data["output"]["s"]), int(data["output"]["s_prime"]), [int(x) for x in data["output"]["Y"]]
    if s == t or s not in cond or t not in cond or len(set(Y)) != d or not all(0 <= x < a1 * a2 for x in Y):
        raise CertificateError("the witness output needs secrets s != s' of positive mass and m distinct inputs")
    return U, _ratio(*(f(sum(cond[v][x % a2] for x in Y if x // a2 == v)) for v in (s, t)))


def _structured_channel(st: dict, F: dict, k: int):
    """(kind d / g / t / m, d, A, B, the eps-LDP ratio) of a structured statement on k inputs, parameters checked."""
    u, ldp = st.get("unary") or st.get("subsets") or st.get("two-level") or st["seeded-grr"], F["type"] == "ldp"
    kind = "d" if "d" in u else "g" if "g" in u else "t" if "two-level" in st else "m"
    d, p, c = int(u.get(kind, 2)), q(u.get("p", u.get("a"))), q(u.get("q", u.get("b", 0)))
    ok = {"d": d == k >= 2 and (ldp or 0 < c < 1), "g": d >= 2 and p + (d - 1) * c == 1 and F["type"] != "simplex",
          "m": 1 <= d < k, "t": ldp}[kind]
    if not ok or not (0 <= p <= 1 and 0 <= c <= 1) or F["type"] not in ("ldp", "distribution", "renyi-ball", "simplex"):
        raise CertificateError("a structured channel needs d = |X| >= 2 (0 < q < 1 beyond eps-LDP), g >= 2, "
                               "1 <= m < |X|, probabilities (a + (g-1) b = 1), the set ldp, distribution (or a ball)")
    A, B = (p / math.comb(k - 1, d - 1), (1 - p) / math.comb(k - 1, d)) if kind == "m" else (p, c)
    H, C = (1 - p, p), (1 - c, c)
    if kind == "d":
        return kind, d, A, B, max(_ratio(H[b] * C[e], C[b] * H[e]) for b in (0, 1) for e in (0, 1))
    return kind, d, A, B, max(_ratio(A, B), _ratio(B, A))


def _channel(st: dict, a1: int, a2: int):
    """(Q, a note for the message): a1 a2 non-negative entries per row, every column a distribution (with
    ``"column_sums": "inexact"``: summing to 1 within the stated deviation)."""
    Q = [qvec(row) for row in st["Q"]]
    if any(len(row) != a1 * a2 for row in Q) or any(v < 0 for row in Q for v in row):
        raise CertificateError("Q has the wrong shape or a negative entry")
    dev = max(abs(sum((r[x] for r in Q), Fraction(0)) - 1) for x in range(a1 * a2))
    if dev and st.get("column_sums") != "inexact" or st.get("column_sums", "inexact") != "inexact":
        raise CertificateError("a column of Q is not a distribution (nor declared \"column_sums\": \"inexact\")")
    return Q, f"; Q as given, its columns sum to 1 within {_s(dev)}" if dev else ""


def _ratio_range(Q, a1: int, a2: int, F: dict, wit, data: dict):
    """(U, L): the certified upper bound of the ratio over the set F, and the witness's ratio (None: no witness)."""
    if F["type"] == "ldp":
        return (U := max(_ratio(max(row), min(row)) for row in Q)), U
    if F["type"] not in ("distribution", "simplex", "renyi-ball"):
        raise CertificateError(f"unknown uncertainty set {F['type']!r}")
    if F["type"] != "distribution" and a1 < 2:
        return Fraction(1), Fraction(1)                # no pair s != s': the ratio is taken as 1
    L = None if (P := _ball_witness(F, wit, a1, a2)) is None else rho_of(Q, P, a1, a2)
    if F["type"] == "distribution":                  # U = L = rho(P); the ball's U from its pair certificates
        return L, L
    return (_simplex(Q, a1, a2, {}) if F["type"] == "simplex" else _ball_upper(
        Q, a1, a2, _ball(F, a1, a2), data.get("pairs", []), data.get("simplex_rest") is True)), L


def _ball(F: dict, a1: int, a2: int):
    """(phat, alpha, radius) of a Rényi ball, alpha > 0 and radius >= 0 checked."""
    phat, a, B = _table(F["phat"], a1, a2, "phat"), q(F["alpha"]), q(F["radius"])
    if a <= 0 or B < 0:
        raise CertificateError("alpha must be > 0 and the radius >= 0")
    return phat, a, B


def _ball_witness(F: dict, wit, a1: int, a2: int):
    """The table P of {P}, or the witness (None if there is none): any distribution on the simplex, one certainly
    in a Rényi ball."""
    if F["type"] == "distribution":
        return _table(F["P"], a1, a2, "P")
    ball, P = F["type"] == "renyi-ball" and _ball(F, a1, a2), None if wit is None else _table(wit, a1, a2, "witness")
    if ball and P is not None and not in_ball(P, *ball):
        raise CertificateError("the witness is not certainly in F (D_alpha(P^||P) <= B fails)")
    return P


def _conclude(st: dict, U, L) -> str:
    """The printed ratio_upper is >= U and a printed ratio_lower <= the witness's ratio L (None: no witness); PASS:
    U <= e^eps, FAIL: L > e^eps (certainly), INCONCLUSIVE: nothing.  Returns "VERDICT: ratio in [L, U]"."""
    verdict, e = st["verdict"], st["eps"]
    if _num_or_inf(st["ratio_upper"]) < U:
        raise CertificateError(f"the printed upper bound {st['ratio_upper']} is below the certified bound {_s(U)}")
    if st.get("ratio_lower") is not None and (L is None or _num_or_inf(st["ratio_lower"]) > L):
        raise CertificateError(f"the printed lower end {st['ratio_lower']} is not attained by a witness "
                               f"(witness ratio {_s(L)})")
    if verdict == "PASS" and _vs_eps(U, e) not in (-1, 0):
        raise CertificateError(f"PASS but the certified upper bound {_s(U)} is not <= e^eps")
    if verdict == "FAIL" and (L is None or _vs_eps(L, e) != 1):
        raise CertificateError(f"FAIL but the witness ratio {_s(L)} is not > e^eps")
    if verdict not in ("PASS", "FAIL", "INCONCLUSIVE"):
        raise CertificateError(f"unknown verdict {verdict!r}")
    return f"{verdict}: ratio in [{_s(L)}, {_s(U)}]"


def _s(x) -> str:
    """x to 12 digits; outside float's range (a ratio of 10^600) from its arb ball, never through float."""
    if x is None or x == INF or x == 0 or 1e-300 < abs(x) < 1e300:
        return "None" if x is None else "inf" if x == INF else f"{float(x):.12g}"
    return num(x).str(12, radius=False)


def _simplex(Q, a1: int, a2: int, skip: dict):
    """max over (y, s != s') but the pairs skip[y] of max q1 / min q2 (exact; 1 at least)."""
    return max(_max_ratio([max(b) for b in bl], [min(b) for b in bl], skip.get(y, ())) for y, bl in
               enumerate([[row[s * a2:(s + 1) * a2] for s in range(a1)] for row in Q]))


def _ball_upper(Q, a1, a2, ball, pairs, rest: bool):
    """max r over the checked pair entries; each (y, s != s') is listed or (``rest``) has the simplex bound."""
    listed: dict = {}
    for pc in pairs:
        key = (y, s, t) = (int(pc["y"]), int(pc["s"]), int(pc["s_prime"]))
        if s == t or max(s, t) >= a1 or min(y, s, t) < 0 or y >= len(Q) or (s, t) in listed.setdefault(y, set()):
            raise CertificateError(f"pair {key} is not a pair of this audit (or is listed twice)")
        listed[y].add((s, t))
        if (r := _num_or_inf(pc["r"])) != INF and not _proves(Q[y], a2, s, t, *ball, pc):
            raise CertificateError(f"pair (y, s, s') = {key}: the dual bound does not prove ratio <= {r}")
    if (n := len(Q) * a1 * (a1 - 1) - len(pairs)) and not rest:
        raise CertificateError(f"{n} pairs (y, s, s') have no certificate")
    return max([_num_or_inf(pc["r"]) for pc in pairs] + ([_simplex(Q, a1, a2, listed)] if n else [Fraction(0)]))
