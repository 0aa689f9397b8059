"""f_alpha-divergence, hockey-stick (E_gamma) divergence, Pinsker-type bounds and channel contraction.

Source: [grosse-2025] (Grosse, Saeidian, Oechtering & Skoglund), Sec. II-VI and App. A.

    f_alpha(x) = 1 - x^alpha (alpha < 1),  x log x (alpha = 1),  x^alpha - 1 (alpha > 1)   eq. (3)
    D_alpha(P||Q) = 1/(alpha-1) log(D_{f_alpha}(P||Q) + 1)        (alpha > 1)              eq. (4)
    E_gamma(P||Q) = 1/2 sum_x |P(x) - gamma Q(x)| - 1/2 |1 - gamma|                         eq. (5)
    R_alpha(u, v) = (u^alpha - 1)/(u - 1) - (1 - v^alpha)/(1 - v)                          eq. (23)
    g_alpha(t)    : the piecewise Pinsker-type lower bound                                 eq. (39)
    g_alpha^-1(s) : the piecewise "inverse bound"                                           eq. (41)
    psi_alpha(p,t) = p^a/(p+t)^(a-1) + (1-p)^a/(1-p-t)^(a-1) - 1                            eq. (65)

Which way results may err:

- Every function returns an exact ``Fraction`` when its inputs are exact and the formula is rational
  (integer alpha, no logs or roots); such results are exact.
- Otherwise results are mpmath numbers at the working precision (``dps``; error ~10^-dps either way),
  except the ``*_arb`` functions, which return rigorous arb balls, and
  :func:`binary_min_lower`, which returns a certified *lower* bound (a Fraction) on min_p psi_alpha.
- Nothing here certifies privacy on its own; :func:`amplification_bound` is an *upper* bound on a
  Renyi-LDP level and is returned as an arb ball whose upper end is the safe value.

Conventions at zeros (as in :mod:`rldp_verify.core.divergence`): 0/0 ratios are skipped, x/0 = +inf.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from fractions import Fraction
from itertools import combinations, pairwise, permutations

import flint
import mpmath

from rldp_verify.core.divergence import kl_divergence, renyi_power_sum, validate_alpha, validate_distribution
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, to_mpf, working_precision
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.topics.fdiv_binary import (
    _alpha_gt1,
    _is_int,
    _mp,
    binary_min,
    binary_min_bracket,
    binary_min_lower,
    d2psi_dp2,
    dpsi_dp,
    psi_alpha,
)

INF = mpmath.inf

__all__ = [
    "f_alpha", "f_alpha_divergence", "renyi_from_f_alpha", "f_alpha_from_renyi",
    "total_variation", "hockey_stick", "hockey_stick_breakpoints", "f_alpha_via_hockey_stick",
    "likelihood_ratio_extremes", "gamma_extremes", "R_alpha", "reverse_pinsker_bound",
    "psi_alpha", "dpsi_dp", "d2psi_dp2", "g_alpha", "g_alpha_inverse", "g_alpha_generalized_inverse",
    "binary_min", "binary_min_bracket", "binary_min_lower", "push", "channel_outputs", "eta_tv", "renyi_ratio",
    "rldp_level", "f_alpha_level", "amplification_bound", "validate_channel",
]


# --------------------------------------------------------------------------- helpers

def _all_exact(*seqs) -> bool:
    return all(isinstance(v, Fraction) for s in seqs for v in s)


def _pair(p, q):
    p = validate_distribution(p, "P")
    q = validate_distribution(q, "Q")
    if len(p) != len(q):
        raise InputError(f"P has {len(p)} entries but Q has {len(q)}")
    return p, q


def validate_channel(W: Sequence[Sequence], name: str = "channel") -> list[list]:
    """Row-stochastic matrix W[x][y] = P_{Y|X=x}(y); every row a distribution of equal length."""
    rows = [validate_distribution(r, f"{name} row {i}") for i, r in enumerate(W)]
    if not rows:
        raise InputError(f"{name} has no rows")
    n = len(rows[0])
    for i, r in enumerate(rows):
        if len(r) != n:
            raise InputError(f"{name} row {i} has {len(r)} entries, row 0 has {n}")
    return rows


# --------------------------------------------------------------------------- eq. (3), (4)

def f_alpha(x, alpha):
    """The generator f_alpha of eq. (3) (exact for exact x and integer alpha > 1)."""
    a = validate_alpha(alpha)
    if a > 1 and _is_int(a) and isinstance(x, Fraction):
        return x ** int(a) - 1
    x, am = to_mpf(x), to_mpf(a)
    if a < 1:
        return 1 - x**am
    if a == 1:
        return x * mpmath.log(x) if x > 0 else mpmath.mpf(0)
    return x**am - 1


def f_alpha_divergence(p, q, alpha, *, dps: int | None = None):
    """D_{f_alpha}(P||Q) = E_Q[f_alpha(dP/dQ)] (eq. (2)-(3)) on a finite alphabet.

    alpha > 1: sum P^a Q^(1-a) - 1 (+inf when P(x) > 0 = Q(x)); alpha < 1: 1 - sum P^a Q^(1-a)
    (terms with Q(x) = 0 contribute f'(inf) P(x) = 0 ... i.e. the perspective limit, here 0 for the
    power term); alpha = 1: KL. Exact Fraction for exact P, Q and integer alpha > 1.
    """
    p, q = _pair(p, q)
    a = validate_alpha(alpha)
    if a == 1:
        return kl_divergence(p, q, dps=dps)
    if a > 1 and _is_int(a) and _all_exact(p, q):
        s = renyi_power_sum(p, q, a)          # exact Fraction (the one power sum, core.divergence)
        return INF if s == INF else s - 1
    with working_precision(dps):
        s = renyi_power_sum(p, q, a)
        if s == INF:
            return INF
        return +(s - 1) if a > 1 else +(1 - s)


def renyi_from_f_alpha(d_f, alpha, *, dps: int | None = None):
    """D_alpha from D_{f_alpha}: log(d_f + 1)/(alpha-1) for alpha > 1 (eq. (4)), and
    log(1 - d_f)/(alpha-1) for alpha < 1 (eq. (4) as printed does NOT hold for alpha < 1)."""
    a = validate_alpha(alpha)
    if a == 1:
        raise InputError("alpha = 1: D_{f_1} is already the KL divergence")
    with working_precision(dps):
        d = to_mpf(d_f) if not isinstance(d_f, mpmath.mpf) else d_f
        if d == INF:
            return INF
        arg = d + 1 if a > 1 else 1 - d
        if arg <= 0:
            return INF
        return mpmath.log(arg) / (to_mpf(a) - 1)


def f_alpha_from_renyi(d, alpha, *, dps: int | None = None):
    """The inverse of eq. (4) for alpha > 1: D_{f_alpha} = exp((alpha-1) D_alpha) - 1."""
    a = _alpha_gt1(alpha)
    with working_precision(dps):
        return mpmath.expm1((to_mpf(a) - 1) * to_mpf(d))


# --------------------------------------------------------------------------- eq. (5), (6)

def total_variation(p, q):
    """TV(P||Q) = 1/2 sum |P - Q| (exact for exact inputs)."""
    p, q = _pair(p, q)
    s = sum(abs(x - y) for x, y in zip(p, q, strict=True))
    return s / 2 if isinstance(s, Fraction) else s / 2


def hockey_stick(p, q, gamma):
    """E_gamma(P||Q) = sum_x (P(x) - gamma Q(x))^+ - (1 - gamma)^+  (equal to eq. (5)); gamma >= 0.

    Exact for exact inputs."""
    p, q = _pair(p, q)
    if gamma < 0:
        raise InputError(f"gamma must be >= 0, got gamma={gamma}")
    s = sum(max(x - gamma * y, 0) for x, y in zip(p, q, strict=True))
    return s - max(1 - gamma, 0)


def hockey_stick_breakpoints(p, q) -> list:
    """Sorted points where gamma -> E_gamma(P||Q) changes slope: the finite ratios P/Q and 1."""
    p, q = _pair(p, q)
    pts = {x / y for x, y in zip(p, q, strict=True) if y != 0}
    pts.add(Fraction(1) if _all_exact(p, q) else 1.0)
    return sorted(pts)


def f_alpha_via_hockey_stick(p, q, alpha):
    """int_0^inf E_gamma(P||Q) f_alpha''(gamma) d gamma  (eq. (6)), exactly, for integer alpha >= 2.

    E_gamma is linear, c0 + c1*gamma, between consecutive breakpoints and 0 beyond the largest; each
    piece integrates with the antiderivatives f' and gamma f' - f. Requires P << Q (else +inf).
    """
    p, q = _pair(p, q)
    a = _alpha_gt1(alpha)
    if not (_is_int(a) and _all_exact(p, q)):
        raise InputError("f_alpha_via_hockey_stick needs exact P, Q and an integer alpha >= 2")
    if any(x > 0 and y == 0 for x, y in zip(p, q, strict=True)):
        return INF
    k = int(a)

    def fp(g):  # f'(g)
        return k * g ** (k - 1)

    def F2(g):  # g f'(g) - f(g)
        return (k - 1) * g**k + 1

    pts = [Fraction(0)] + [b for b in hockey_stick_breakpoints(p, q) if b > 0]
    total = Fraction(0)
    for lo, hi in pairwise(pts):
        e_lo, e_hi = hockey_stick(p, q, lo), hockey_stick(p, q, hi)
        c1 = (e_hi - e_lo) / (hi - lo)
        c0 = e_lo - c1 * lo
        total += c0 * (fp(hi) - fp(lo)) + c1 * (F2(hi) - F2(lo))
    return total


# --------------------------------------------------------------------------- Theorem 6

def _ratio(x, y):
    if y == 0:
        return None if x == 0 else math.inf
    return x / y


def likelihood_ratio_extremes(p, q):
    """(min_x P/Q, max_x P/Q) over x with P(x) + Q(x) > 0 (eq. (28)-(29)); max may be math.inf."""
    p, q = _pair(p, q)
    rs = [r for r in (_ratio(x, y) for x, y in zip(p, q, strict=True)) if r is not None]
    return min(rs), max(rs)


def gamma_extremes(dists: Sequence[Sequence]):
    """(Gamma_min, Gamma_max) of eq. (20)-(21) over a finite set of distributions (all ordered
    pairs, including P = Q, so Gamma_min <= 1 <= Gamma_max). Exact for exact inputs."""
    ds = [validate_distribution(d, f"distribution {i}") for i, d in enumerate(dists)]
    if not ds:
        raise InputError("the set of distributions is empty")
    lo, hi = Fraction(1), Fraction(1)
    for a, b in permutations(ds, 2):
        m, M = likelihood_ratio_extremes(a, b)
        lo, hi = min(lo, m), max(hi, M)
    return lo, hi


def R_alpha(u, v, alpha, *, dps: int | None = None):
    """R_alpha(u, v) of eq. (23), u in [1, inf], v in [0, 1]; the removable singularities u = 1,
    v = 1 take their limit alpha. Exact for exact u, v and integer alpha; +inf when u = inf."""
    a = _alpha_gt1(alpha)
    if u == math.inf:
        return INF
    if u < 1 or v < 0 or v > 1:
        raise InputError(f"R_alpha needs u >= 1 and 0 <= v <= 1, got u={u}, v={v}")
    if _is_int(a) and isinstance(u, Fraction) and isinstance(v, Fraction):
        k = int(a)
        first = Fraction(k) if u == 1 else (u**k - 1) / (u - 1)
        second = Fraction(k) if v == 1 else (1 - v**k) / (1 - v)
        return first - second
    with working_precision(dps):
        am, um, vm = to_mpf(a), to_mpf(u), to_mpf(v)
        first = am if um == 1 else (um**am - 1) / (um - 1)
        second = am if vm == 1 else (1 - vm**am) / (1 - vm)
        return first - second


def reverse_pinsker_bound(p, q, alpha, *, gamma_min=None, gamma_max=None, dps: int | None = None):
    """TV(P||Q) R_alpha(Gamma_max, Gamma_min) (Theorem 6, eq. (22)); by default the Gammas of the
    set {P, Q}. Exact for exact inputs and integer alpha."""
    if gamma_min is None or gamma_max is None:
        gmin, gmax = gamma_extremes([p, q])
        gamma_min = gmin if gamma_min is None else gamma_min
        gamma_max = gmax if gamma_max is None else gamma_max
    r = R_alpha(gamma_max, gamma_min, alpha, dps=dps)
    tv = total_variation(p, q)
    if r == INF:
        return math.inf if tv > 0 else 0
    return tv * r


# --------------------------------------------------------------------------- Theorem 8, App. A
# (psi_alpha and its minimum over p, eq. (63)-(67): rldp_verify.topics.fdiv_binary)

def g_alpha(t, alpha, *, dps: int | None = None):
    """The Pinsker-type bound g_alpha(t) of eq. (39), 0 <= t < 1. Exact for exact t and integer
    alpha (then alpha >= 2 and no exponential appears)."""
    a = _alpha_gt1(alpha)
    if not 0 <= t < 1:
        raise InputError(f"g_alpha needs 0 <= t < 1, got t={t}")
    if _is_int(a) and isinstance(t, Fraction):
        k = int(a)
        if t < Fraction(1, k):
            return (4 * t * t + 1) ** (k - 1) - 1
        return 1 / (1 - t) ** (k - 1) - 1
    with working_precision(dps):
        am, tm = _mp(a), _mp(t)
        if tm < 1 / am:
            if am < 2:
                return mpmath.expm1(2 * (am - 1) * tm**2)
            return (4 * tm**2 + 1) ** (am - 1) - 1
        return (1 - tm) ** (1 - am) - 1


def _g_alpha_inverse(s, alpha, dps, printed: bool, fname: str):
    """Invert g_alpha of eq. (39) branch by branch (mpf): below the breakpoint h the first branch's inverse
    (sqrt(log(1+s) / (2(alpha-1))) for alpha < 2, sqrt((s+1)^{1/(alpha-1)} - 1)/2 for alpha >= 2), above it
    max(1 - (s+1)^{1/(1-alpha)}, 1/alpha); s = inf gives 1. For alpha >= 2, h = (1 + 4 alpha^-2)^(alpha-1) - 1;
    for alpha < 2, h is eq. (41)'s printed 2 - 2/alpha (``printed``) or the value g_alpha(1/alpha^-) of the jump,
    expm1(2 (alpha-1)/alpha^2). The one implementation behind :func:`g_alpha_inverse` and
    :func:`g_alpha_generalized_inverse`."""
    a = _alpha_gt1(alpha)
    if s < 0:
        raise InputError(f"{fname} needs s >= 0, got s={s}")
    with working_precision(dps):
        am, sm = _mp(a), _mp(s)
        if sm == INF:
            return mpmath.mpf(1)
        if am >= 2:
            h = (1 + 4 / am**2) ** (am - 1) - 1
        else:
            h = 2 - 2 / am if printed else mpmath.expm1(2 * (am - 1) / am**2)
        if sm < h:
            if am < 2:
                return mpmath.sqrt(mpmath.log1p(sm) / (2 * (am - 1)))
            return mpmath.sqrt((sm + 1) ** (1 / (am - 1)) - 1) / 2
        return max(1 - (sm + 1) ** (1 / (1 - am)), 1 / am)


def g_alpha_inverse(s, alpha, *, dps: int | None = None):
    """g_alpha^{-1}(s) exactly as printed in eq. (41) (mpf), with h1 = 2 - 2/alpha and
    h2 = (1 + 4 alpha^-2)^(alpha-1) - 1. See :func:`g_alpha_generalized_inverse` for sup{t: g <= s}.
    Errs by rounding only (either way)."""
    return _g_alpha_inverse(s, alpha, dps, True, "g_alpha_inverse")


def g_alpha_generalized_inverse(s, alpha, *, dps: int | None = None):
    """sup{t in [0, 1): g_alpha(t) <= s} for the g_alpha of eq. (39) (mpf): the tightest upper bound
    on TV that Theorem 8 yields from D_{f_alpha} <= s. Uses the jump point g_alpha(1/alpha^-).
    Errs by rounding only (either way)."""
    return _g_alpha_inverse(s, alpha, dps, False, "g_alpha_generalized_inverse")


# --------------------------------------------------------------------------- channels, Sec. II-B, V, VI

def push(W, p):
    """P_Y = P_{Y|X} o P_X: P_Y(y) = sum_x W[x][y] P_X(x). Exact for exact inputs."""
    W = validate_channel(W)
    p = validate_distribution(p, "P_X")
    if len(p) != len(W):
        raise InputError(f"P_X has {len(p)} entries but the channel has {len(W)} rows")
    return [sum(W[x][y] * p[x] for x in range(len(W))) for y in range(len(W[0]))]


def channel_outputs(W, dists):
    """The output distributions {P_{Y|X} o P : P in dists}."""
    return [push(W, d) for d in dists]


def eta_tv(W, dists=None):
    """TV contraction coefficient. dists=None: the Dobrushin coefficient max_{x,x'} TV(W_x, W_x')
    (= eta_TV(W, whole simplex)); otherwise max over pairs of ``dists`` of TV(out)/TV(in)."""
    W = validate_channel(W)
    if dists is None:
        return max((total_variation(a, b) for a, b in combinations(W, 2)), default=Fraction(0))
    best = Fraction(0)
    for a, b in combinations(list(dists), 2):
        tin = total_variation(a, b)
        if tin != 0:
            best = max(best, total_variation(push(W, a), push(W, b)) / tin)
    return best


def renyi_ratio(W, p, q, alpha, *, dps: int | None = None):
    """D_alpha(W o P || W o Q) / D_alpha(P || Q) (the quantity maximised in eq. (9)), mpf."""
    from rldp_verify.core.divergence import renyi_divergence

    with working_precision(dps):
        din = renyi_divergence(p, q, alpha, dps=dps)
        dout = renyi_divergence(push(W, p), push(W, q), alpha, dps=dps)
        if din == 0:
            raise InputError("D_alpha(P||Q) = 0: the ratio is undefined")
        if din == INF:
            raise InputError("D_alpha(P||Q) = inf: the ratio is undefined")
        return dout / din


def rldp_level(M, alpha, *, dps: int | None = None):
    """max_{w != w'} D_alpha(M_w || M_w') (eq. (47)-(48)), mpf (inf when some pair is not a.c.)."""
    from rldp_verify.core.divergence import renyi_divergence

    M = _distinct_rows(validate_channel(M, "mechanism"))
    if len(M) < 2:
        return mpmath.mpf(0)
    with working_precision(dps):
        return max(renyi_divergence(a, b, alpha, dps=dps) for a, b in permutations(M, 2))


def _distinct_rows(M):
    """Identical rows contribute divergence 0; dropping duplicates does not change a max over pairs."""
    out = []
    for r in M:
        if r not in out:
            out.append(r)
    return out


def f_alpha_level(M, alpha, *, dps: int | None = None):
    """eps_f = max_{w != w'} D_{f_alpha}(M_w || M_w') (Sec. VI, below eq. (53))."""
    M = _distinct_rows(validate_channel(M, "mechanism"))
    if len(M) < 2:
        return Fraction(0)
    vals = [f_alpha_divergence(a, b, alpha, dps=dps) for a, b in permutations(M, 2)]
    if any(v == INF for v in vals):
        return INF
    return max(vals)


def _arb(x):
    """x (a Fraction, int or mpf) as the exact point ball of the number it denotes: an mpf is the binary
    rational man * 2^exp, so no decimal rounding enters the certified bound."""
    if isinstance(x, (Fraction, int)):
        return arb_exact(Fraction(x))
    if not mpmath.isfinite(x):
        return flint.arb(mpmath.nstr(x, 60))
    man, exp = mpmath.mpf(x).man_exp
    return arb_exact(Fraction(man) * Fraction(2) ** exp)


def amplification_bound(M, W, alpha, *, eta=None, dps: int = DEFAULT_DPS, inverse: str = "printed"):
    """phi(eps_f, alpha) of eq. (53)-(55) for the cascade W o M, with Gamma_max/min(Y) of
    eq. (56)-(57), eta = eta_TV(W) (Dobrushin) unless given, and g_alpha^{-1} as printed in eq. (41)
    (``inverse="printed"``) or the generalized inverse (``inverse="generalized"``).

    Returns a dict of the ingredients and ``phi`` as an arb ball; the ball's upper end is the safe
    (never too small) value of the bound. Exact alpha (int/Fraction) is required.
    """
    from rldp_verify.core.numbers import exact

    a = exact(_alpha_gt1(alpha))
    M = validate_channel(M, "mechanism")
    W = validate_channel(W, "channel")
    if len(M[0]) != len(W):
        raise InputError(f"mechanism outputs {len(M[0])} symbols but the channel has {len(W)} rows")
    outs = _distinct_rows(channel_outputs(W, M))
    gmin, gmax = gamma_extremes(outs)
    eta = eta_tv(W) if eta is None else eta
    eps_f = f_alpha_level(M, a, dps=dps + 20)
    R = R_alpha(gmax, gmin, a, dps=dps + 20)
    inv = g_alpha_inverse if inverse == "printed" else g_alpha_generalized_inverse
    with working_precision(dps + 20):
        ginv = inv(eps_f, a, dps=dps + 20)
    with arb_precision(dps + 20):
        # the mpf values carry ~10^-(dps+20) error: widen by that before the log
        slack = flint.arb(0, flint.arb(10) ** (-(dps + 10)))
        Ra = _arb(R) + (0 if isinstance(R, Fraction) else slack)
        ga = _arb(ginv) + slack
        inner = _arb(eta) * Ra * ga + 1
        phi = inner.log() / (arb_exact(a) - 1)
    return {"gamma_min": gmin, "gamma_max": gmax, "eta_tv": eta, "eps_f": eps_f, "R_alpha": R,
            "g_inv": ginv, "phi": phi}
