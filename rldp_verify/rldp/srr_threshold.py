"""Lemma A8's cone C and Theorem 4's threshold eps_0(P) above which SRR is optimal.

Paper: [lopuhaa-2024], Sec. 6 (Proposition 3, Definition 4, Theorem 4) and
Appendix A.6 (Lemma A8, eqs. (A90)-(A93); proof of Theorem 4).  Coordinates x = (s, u) in
S-major order; ``t`` denotes e^eps (an exact rational > 1).

* C = { c >= 0 : c_{s,u} <= t c_{s',u'} for all s != s', u, u' }   (A90; Proposition 3: the rows
  of (eps, P_X)-RLDP mechanisms are exactly the vectors of C).
* V1 = { v : for one s, v_{s,u} in {1/t, t} for all u; v_{s',u} = 1 for s' != s }          (A91)
* V2 = { v in {1, t}^X : at least two blocks s contain an entry t }                         (A92)
  (the text is garbled: ``| { s : u s.t. v_{s,u} = e^eps } | 2``; we read ">= 2 blocks"; the
  proof's complement argument reads ">= 2 coordinates", also provided: ``reading="coordinates"``).
  Lemma A8: C = cone(V1 ∪ V2).  :func:`compare_lemma_a8` compares this with the exact extreme
  rays of C from cddlib's GMP double description.

Theorem 4: the optimal (eps, P_X)-RLDP mechanism maximises sum_v theta_v mu(v) over
{theta >= 0 : sum_v theta_v v = 1_X} with v ranging over a spanning set of C (proof of Thm 4,
same argument as Theorem 3).  SRR is the basis B = {v_y : y in X}, v_y = t at y, 1/t on the rest
of y's block, 1 elsewhere, with theta_y = 1/Z > 0 (a non-degenerate basic feasible solution).
Hence SRR is optimal iff every reduced cost r_v = mu(v) - v . alpha is <= 0, where
A_B^T alpha = (mu(v_y))_y.  :func:`srr_optimality` decides the sign of every r_v rigorously
(python-flint arb balls; A_B^{-1} exact): "optimal" only if every ball is <= 0, "not optimal" only
if some ball is > 0, otherwise "undecided".  It never errs; it may be undecided.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction

import flint

from rldp_verify.core.errors import InputError
from rldp_verify.core.information import mu_arb
from rldp_verify.core.linalg import exact_inverse
from rldp_verify.core.numbers import DEFAULT_DPS, SEARCH_DPS, exact
from rldp_verify.core.polytope import vertices as _cdd_vertices
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.core.validate import require_sum_one
from rldp_verify.rldp.gamma import gamma_inequalities


def _check_sizes(a1, a2, t):
    for name, v in (("a1", a1), ("a2", a2)):
        if isinstance(v, bool) or not isinstance(v, int) or v < 1:
            raise InputError(f"{name} must be a positive integer, got {v!r}")
    t = exact(t)
    if t <= 1:
        raise InputError(f"e^eps = {t} must be > 1")
    return t


def cone_c_inequalities(a1: int, a2: int, exp_eps):
    """Rows (A, b) of C (A90): -c_x <= 0 and c_{s,u} - t c_{s',u'} <= 0 for s != s'.

    C is PolyOpt's cone Gamma_eps of Definition 3 with L = 0 and without the pairs s = s', so the rows are
    :func:`rldp_verify.rldp.gamma.gamma_inequalities` (same rows, same order)."""
    t = _check_sizes(a1, a2, exp_eps)
    return gamma_inequalities([[Fraction(0)] * a2 for _ in range(a1)], t, include_same_s=False)


def in_cone_c(v: Sequence, a1: int, a2: int, exp_eps) -> bool:
    """Exact membership test v in C."""
    t = _check_sizes(a1, a2, exp_eps)
    v = [exact(x) for x in v]
    if any(x < 0 for x in v):
        return False
    for s in range(a1):
        M = max(v[s * a2:(s + 1) * a2])
        for s2 in range(a1):
            if s2 != s and t * min(v[s2 * a2:(s2 + 1) * a2]) < M:
                return False
    return True


def _normalise(v):
    tot = sum(v)
    return tuple(x / tot for x in v)


def cone_c_extreme_rays(a1: int, a2: int, exp_eps):
    """Extreme rays of C, each scaled to sum 1 (vertices of C ∩ {sum c = 1}; cddlib GMP)."""
    A, b = cone_c_inequalities(a1, a2, exp_eps)
    a = a1 * a2
    verts, rays = _cdd_vertices(A, b, [[Fraction(1)] * a], [Fraction(1)])
    if rays:
        raise InputError(f"C is not pointed for a1={a1}, a2={a2}")
    return sorted(set(verts))


def lemma_a8_generators(a1: int, a2: int, exp_eps, *, reading: str = "blocks"):
    """V1 ∪ V2 of Lemma A8 (A91)-(A93), unnormalised, as tuples of Fractions (deduplicated)."""
    t = _check_sizes(a1, a2, exp_eps)
    if reading not in ("blocks", "coordinates"):
        raise InputError(f"reading must be 'blocks' or 'coordinates', got {reading!r}")
    a = a1 * a2
    out = set()
    for s in range(a1):
        for pat in itertools.product((1 / t, t), repeat=a2):
            v = [Fraction(1)] * a
            v[s * a2:(s + 1) * a2] = pat
            out.add(tuple(v))
    for pat in itertools.product((Fraction(1), t), repeat=a):
        if reading == "blocks":
            k = sum(1 for s in range(a1) if t in pat[s * a2:(s + 1) * a2])
        else:
            k = sum(1 for x in pat if x == t)
        if k >= 2:
            out.add(tuple(pat))
    return sorted(out)


@dataclass(frozen=True)
class LemmaA8Comparison:
    """The exact comparison of the cone C of Lemma A8 with the cone spanned by V1 ∪ V2."""
    rays: int                      # extreme rays of C (exact double description)
    generators: int                # |V1 ∪ V2| up to scaling
    rays_not_generated: tuple      # extreme rays of C not a positive multiple of a generator
    generators_outside_c: tuple    # generators not in C
    redundant_generators: int      # generators in C that are not extreme rays

    @property
    def spans(self) -> bool:
        """True when the two cones are equal (every extreme ray generated, no generator outside C)."""
        return not self.rays_not_generated and not self.generators_outside_c


def compare_lemma_a8(a1: int, a2: int, exp_eps, *, reading: str = "blocks") -> LemmaA8Comparison:
    """Lemma A8 at one (a1, a2, e^eps): C = cone(V1 ∪ V2) holds iff every extreme ray of C is a
    positive multiple of a generator and every generator lies in C (exact)."""
    rays = set(cone_c_extreme_rays(a1, a2, exp_eps))
    gens = lemma_a8_generators(a1, a2, exp_eps, reading=reading)
    outside = tuple(g for g in gens if not in_cone_c(g, a1, a2, exp_eps))
    gnorm = {_normalise(g) for g in gens}
    missing = tuple(sorted(rays - gnorm))
    redundant = len({g for g in gnorm if g not in rays and in_cone_c(g, a1, a2, exp_eps)})
    return LemmaA8Comparison(len(rays), len(gnorm), missing, outside, redundant)


# ----------------------------------------------------------------------------- Theorem 4

def srr_vectors(a1: int, a2: int, exp_eps):
    """The SRR basis v_y (y in X, S-major): t at y, 1/t on the rest of y's block, 1 elsewhere.
    SRR^eps_y = v_y / Z with Z = t + (a2-1)/t + a - a2 (Definition 4)."""
    t = _check_sizes(a1, a2, exp_eps)
    a = a1 * a2
    out = []
    for s in range(a1):
        for u in range(a2):
            v = [Fraction(1)] * a
            for w in range(a2):
                v[s * a2 + w] = t if w == u else 1 / t
            out.append(tuple(v))
    return out


def _check_p(p, a):
    p = [exact(x) for x in p]
    if len(p) != a:
        raise InputError(f"P has {len(p)} entries, expected |X| = {a}")
    if any(x < 0 for x in p):
        raise InputError(f"P has a negative entry: {p}")
    require_sum_one(sum(p), "P")
    return p


class Optimality(StrEnum):
    """SRR's status at one e^eps (a ``str``: compares equal to "optimal", "not optimal", "undecided")."""

    OPTIMAL = "optimal"
    NOT_OPTIMAL = "not optimal"
    UNDECIDED = "undecided"


@dataclass(frozen=True)
class SRROptimality:
    """Whether SRR is optimal at e^eps (reduced-cost signs decided in arb): the verdict and the rigorous
    bound on the largest reduced cost."""
    verdict: Optimality
    exp_eps: Fraction
    max_reduced_cost_upper: Fraction   # >= max_v r_v (rigorous)
    max_reduced_cost_lower: Fraction   # <= max_v r_v (rigorous)
    witness: tuple | None          # a generator with r_v certainly > 0 (when "not optimal")
    srr_utility_lower: Fraction    # I_P(X; SRR) enclosure
    srr_utility_upper: Fraction
    generators: int


def srr_optimality(p: Sequence, a1: int, a2: int, exp_eps, *, dps: int = DEFAULT_DPS,
                   generators=None) -> SRROptimality:
    """Is SRR^eps the (eps, P_X)-RLDP mechanism maximising I_P(X;Y) at e^eps = ``exp_eps``?

    Exact LP (proof of Theorem 4) over ``generators`` (default: Lemma A8's V1 ∪ V2): SRR's basis is
    optimal iff all reduced costs are <= 0 (the basic solution theta = 1/Z is non-degenerate).
    Sound: "optimal"/"not optimal" are decided from rigorous balls; otherwise "undecided".
    """
    t = _check_sizes(a1, a2, exp_eps)
    a = a1 * a2
    p = _check_p(p, a)
    basis = srr_vectors(a1, a2, t)
    gens = lemma_a8_generators(a1, a2, t) if generators is None else [tuple(exact(x) for x in g) for g in generators]
    others = _non_basic(gens, basis)
    # alpha solves A_B^T alpha = mu_B, where the rows of A_B^T are the v_y
    inv_rows = exact_inverse(basis)     # rows of (A_B^T)^-1, exact
    with arb_precision(dps):
        mu_b = [mu_arb(v, p) for v in basis]
        alpha = [_row_times(inv_rows[i], mu_b) for i in range(a)]
        Z = t + Fraction(a2 - 1) / t + a - a2
        util = sum(mu_b, flint.arb(0)) / arb_exact(Z)
        best_hi, best_lo, witness, any_unknown = _reduced_costs(others, alpha, p)
        if witness is not None:
            verdict = Optimality.NOT_OPTIMAL
        elif not any_unknown:
            verdict = Optimality.OPTIMAL
        else:
            verdict = Optimality.UNDECIDED
        return SRROptimality(verdict, t, best_hi, best_lo, witness, arb_lower(util), arb_upper(util),
                             len(others) + len(basis))


def _non_basic(gens, basis) -> list[tuple]:
    """The generators that are not (up to scaling) a basis vector, each direction once, in order."""
    bset = {_normalise(v) for v in basis}
    others = []
    seen = set()
    for g in gens:
        ng = _normalise(g)
        if ng in bset or ng in seen:
            continue
        seen.add(ng)
        others.append(tuple(g))
    return others


def _row_times(row: list[Fraction], vec: list) -> flint.arb:
    """sum_j row_j vec_j in arb, skipping the exact zeros of ``row``."""
    acc = flint.arb(0)
    for rj, vj in zip(row, vec, strict=True):
        if rj != 0:
            acc += arb_exact(rj) * vj
    return acc


def _reduced_costs(others, alpha, p):
    """Rigorous bounds over the non-basic generators v of the reduced costs r_v = mu(v) - v.alpha:
    (max upper end, max lower end, the first v with r_v certainly > 0 or None, whether some r_v is not
    certainly <= 0). With no generator the two bounds are 0."""
    best_hi, best_lo, witness, any_unknown = None, None, None, False
    for v in others:
        r = mu_arb(v, p)
        for vx, ax in zip(v, alpha, strict=True):
            r -= arb_exact(vx) * ax
        hi, lo = arb_upper(r), arb_lower(r)
        if best_hi is None or hi > best_hi:
            best_hi = hi
        if best_lo is None or lo > best_lo:
            best_lo = lo
        if lo > 0 and witness is None:
            witness = v
        if not (hi <= 0):
            any_unknown = True
    if best_hi is None:
        best_hi = best_lo = Fraction(0)
    return best_hi, best_lo, witness, any_unknown


class NotOptimalAtGridEnd(InputError):
    """:func:`srr_threshold` found SRR not certainly optimal at its largest grid point: either eps_max is
    below eps_0(P) or SRR is never optimal. ``exp_eps`` is that grid point, ``verdict`` SRR's status there
    ("not optimal": a generator with a certainly positive reduced cost; "undecided")."""

    def __init__(self, exp_eps: Fraction, verdict: str):
        super().__init__(f"SRR is not certainly optimal at the largest grid point e^eps = {exp_eps}; raise eps_max")
        self.exp_eps, self.verdict = exp_eps, str(verdict)


@dataclass(frozen=True)
class ThresholdBracket:
    """A certified bracket around e^eps_0 of Theorem 4, with the grid on which SRR was proved optimal."""
    exp_eps_lower: Fraction | None   # SRR certainly NOT optimal at this e^eps (None: none found)
    exp_eps_upper: Fraction          # SRR certainly optimal here and at every grid point above
    eps_lower: Fraction | None       # <= log(exp_eps_lower) (rounded down)
    eps_upper: Fraction              # >= log(exp_eps_upper) (rounded up)
    grid: tuple                      # (e^eps, verdict) pairs checked above the bracket
    undecided: tuple                 # e^eps values where the sign could not be decided
    certified_up_to: Fraction | None = None   # SRR proved optimal for every e^eps in
                                              # [exp_eps_upper, certified_up_to] (interval arithmetic)


def srr_threshold(p: Sequence, a1: int, a2: int, *, eps_max: Fraction = Fraction(12),
                  grid_points: int = 48, tol: Fraction = Fraction(1, 10 ** 6),
                  dps: int = DEFAULT_DPS, certify: bool = True) -> ThresholdBracket:
    """A certified bracket around Theorem 4's eps_0(P) (the last switch of SRR-optimality).

    e^eps runs over a rational grid t_k ≈ exp(k eps_max / grid_points), k = 1..grid_points; the
    largest grid point where SRR is certainly not optimal and the next one (SRR certainly optimal,
    as at every grid point above) are bisected in t down to relative width ``tol``.
    Rigorous: SRR is certainly not optimal at ``exp_eps_lower`` (so eps_0 >= ``eps_lower``) and
    certainly optimal at ``exp_eps_upper`` and at every grid point above it.  With ``certify``,
    :func:`certify_srr_optimal_on` then proves optimality on the whole interval
    [exp_eps_upper, largest grid point] (``certified_up_to``; None if it could not).  Beyond the
    largest grid point nothing is checked (Theorem 4's own asymptotic argument).
    """
    a = a1 * a2
    p = _check_p(p, a)
    gens_cache = {}

    def verdict_at(t):
        if t not in gens_cache:
            gens_cache[t] = srr_optimality(p, a1, a2, t, dps=dps).verdict
        return gens_cache[t]

    grid = _exp_grid(eps_max, grid_points)
    verdicts = [(g, verdict_at(g)) for g in grid]
    undecided = tuple(g for g, v in verdicts if v == "undecided")
    last_bad = None
    for i, (_g, v) in enumerate(verdicts):
        if v != "optimal":
            last_bad = i
    if last_bad is None:
        lo_t, hi_t = None, grid[0]
    elif last_bad == len(grid) - 1:
        raise NotOptimalAtGridEnd(grid[-1], verdicts[-1][1])
    else:
        lo_t, hi_t = grid[last_bad], grid[last_bad + 1]
        if verdicts[last_bad][1] == "undecided":
            lo_t = None
        if lo_t is not None:
            lo_t, hi_t, undecided = _bisect(lo_t, hi_t, tol, verdict_at, undecided)
    with arb_precision(dps):
        eps_lo = arb_lower(arb_exact(lo_t).log()) if lo_t is not None else None
        eps_hi = arb_upper(arb_exact(hi_t).log())
    # densify the sampling between the bracket and the next grid point
    nxt = [g for g in grid if g > hi_t]
    dense = _dense(hi_t, nxt[0], verdict_at) if nxt else []
    above = tuple(sorted(dense + [(g, v) for g, v in verdicts if g >= hi_t]))
    certified_up_to = None
    if certify and not undecided:
        ok, _, _ = certify_srr_optimal_on(p, a1, a2, hi_t, grid[-1])
        certified_up_to = grid[-1] if ok else None
    return ThresholdBracket(lo_t, hi_t, eps_lo, eps_hi, above, undecided, certified_up_to)


def _exp_grid(eps_max, grid_points: int) -> list[Fraction]:
    """The rational grid t_k ~ exp(k eps_max / grid_points) > 1, k = 1..grid_points (rounded up, sorted)."""
    grid = []
    with arb_precision(30):
        for k in range(1, grid_points + 1):
            e = (arb_exact(Fraction(k) * exact(eps_max) / grid_points)).exp()
            grid.append(arb_upper(e).limit_denominator(10 ** 6) if arb_upper(e) > 1 else Fraction(1001, 1000))
    return sorted({g for g in grid if g > 1})


def _bisect(lo_t: Fraction, hi_t: Fraction, tol: Fraction, verdict_at, undecided: tuple):
    """Bisect [lo_t, hi_t] (SRR not optimal at lo_t, optimal at hi_t) down to relative width ``tol``; stops
    at the first undecided midpoint, which joins ``undecided``."""
    while (hi_t - lo_t) > tol * lo_t:
        mid = (lo_t + hi_t) / 2
        mid = mid.limit_denominator(max(10 ** 6, int(10 / (tol * lo_t)) ** 2))
        if not (lo_t < mid < hi_t):
            mid = (lo_t + hi_t) / 2
        v = verdict_at(mid)
        if v == "optimal":
            hi_t = mid
        elif v == "not optimal":
            lo_t = mid
        else:
            undecided = undecided + (mid,)
            break
    return lo_t, hi_t, undecided


def _dense(hi_t: Fraction, nxt: Fraction, verdict_at) -> list[tuple]:
    """SRR's status at 8 points between the bracket's upper end and the next grid point."""
    dense = []
    for k in range(1, 9):
        g = hi_t + (nxt - hi_t) * Fraction(k, 9)
        g = g.limit_denominator(10 ** 6) if hi_t < g.limit_denominator(10 ** 6) < nxt else g
        dense.append((g, verdict_at(g)))
    return dense


# ------------------------------------------------------------------- certification on intervals

def _exponent_patterns(a1: int, a2: int):
    """Lemma A8's generators and SRR's basis as exponent vectors k (v_x = t^{k_x}, k_x in {-1,0,1})."""
    a = a1 * a2
    gens = set()
    for s in range(a1):
        for pat in itertools.product((-1, 1), repeat=a2):
            k = [0] * a
            k[s * a2:(s + 1) * a2] = pat
            gens.add(tuple(k))
    for pat in itertools.product((0, 1), repeat=a):
        if sum(1 for s in range(a1) if 1 in pat[s * a2:(s + 1) * a2]) >= 2:
            gens.add(tuple(pat))
    basis = []
    for s in range(a1):
        for u in range(a2):
            k = [0] * a
            for w in range(a2):
                k[s * a2 + w] = 1 if w == u else -1
            basis.append(tuple(k))
    # k and k + c 1 describe proportional vectors (t^c v): drop multiples of basis vectors and
    # duplicates up to scaling (their reduced costs are identically 0 / equal)
    def canon(k):
        return tuple(e - k[0] for e in k)
    bcanon = {canon(k) for k in basis}
    seen, out = set(), []
    for kv in sorted(gens):
        c = canon(kv)
        if c in bcanon or c in seen:
            continue
        seen.add(c)
        out.append(kv)
    return out, basis


def _max_reduced_cost_upper(p, a1, a2, t_lo: Fraction, t_hi: Fraction, patterns) -> Fraction:
    """A rational >= r_v(t) for every generator v and every t in [t_lo, t_hi] (rounded up)."""
    gens, basis = patterns
    a = a1 * a2
    t = arb_exact(t_lo).union(arb_exact(t_hi))
    logt = t.log()
    powers = {-1: 1 / t, 0: flint.arb(1), 1: t}
    pa = [arb_exact(x) for x in p]

    def vec(k):
        return [powers[e] for e in k]

    def mu(k):
        v = vec(k)
        q = sum((vx * px for vx, px in zip(v, pa, strict=True)), flint.arb(0))
        logq = q.log()
        return sum((v[x] * pa[x] * (k[x] * logt - logq) for x in range(a) if p[x] != 0), flint.arb(0))

    AB = flint.arb_mat(a, a, [powers[e] for k in basis for e in k])      # rows v_y: A_B^T
    alpha = AB.solve(flint.arb_mat(a, 1, [mu(k) for k in basis]))
    al = [alpha[i, 0] for i in range(a)]
    best = None
    for k in gens:
        v = vec(k)
        r = arb_upper(mu(k) - sum((v[x] * al[x] for x in range(a)), flint.arb(0)))
        best = r if best is None or r > best else best
    assert best is not None  # Lemma A8's V1 alone has a1 2^a2 generators
    return best


def certify_srr_optimal_on(p: Sequence, a1: int, a2: int, t_lo, t_hi, *, dps: int = SEARCH_DPS,
                           max_intervals: int = 20000):
    """Certify that SRR^eps is optimal for EVERY e^eps in [t_lo, t_hi] (not only sampled points).

    Adaptive bisection (geometric midpoints) with arb balls over whole t-intervals: an interval is
    certified when the ball of every reduced cost lies below 0.  Returns (certified: bool,
    intervals used, first uncertified interval or None).  Sound: True only with a rigorous proof
    for the whole interval; may return False near a root or when ``max_intervals`` is exhausted.
    """
    a = a1 * a2
    p = _check_p(p, a)
    t_lo, t_hi = exact(t_lo), exact(t_hi)
    _check_sizes(a1, a2, t_lo)
    if t_hi < t_lo:
        raise InputError(f"empty interval [{t_lo}, {t_hi}]")
    patterns = _exponent_patterns(a1, a2)
    stack = [(t_lo, t_hi)]
    used = 0
    with arb_precision(dps):
        while stack:
            lo, hi = stack.pop()
            used += 1
            if used > max_intervals:
                return False, used, (lo, hi)
            try:
                ok = _max_reduced_cost_upper(p, a1, a2, lo, hi, patterns) < 0
            except (ZeroDivisionError, ValueError):   # singular ball matrix: split further
                ok = False
            if ok:
                continue
            if hi - lo <= lo * Fraction(1, 10 ** 12):
                return False, used, (lo, hi)
            m = _geo_mid(lo, hi)
            stack.append((m, hi))
            stack.append((lo, m))
    return True, used, None


def _geo_mid(lo: Fraction, hi: Fraction) -> Fraction:
    """A rational strictly between lo and hi, close to sqrt(lo * hi) (short denominator)."""
    import math
    g = Fraction(math.sqrt(float(lo) * float(hi)))
    if not (lo < g < hi):
        g = (lo + hi) / 2
    for den in (10 ** 3, 10 ** 6, 10 ** 9, 10 ** 12):
        c = g.limit_denominator(den)
        if lo < c < hi:
            return c
    return (lo + hi) / 2
