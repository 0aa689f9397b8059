"""Rényi-divergence uncertainty sets and their conditional projections.

Paper: [lopuhaa-2024] (RLDP), Sec. 3 eq. (8)-(11) and Sec. 4 (Theorem 1, eqs. (19)-(30)).

    F = { P in P_X : D_alpha(P^ || P) <= B }                                      eq. (8)

Theorem 1 (conditional projection). For P^_s > 0, F_{U|s} is the Rényi ball of the same order
around P^_{U|s} with radius

    B_s = alpha/(alpha-1) * log((e^{(alpha-1)B/alpha} - (1 - P^_s)) / P^_s)    (alpha != 1)
    B_s = B / P^_s                                                            (alpha = 1)

Reading: for alpha < 1 the argument of the log can be <= 0; then every R in the simplex is the
conditional of some P in F (take P_s -> 0), i.e. B_s = +inf. P^_s = 0 likewise gives the whole
simplex.

xi-/xi+ (eqs. (26)-(28)) and the t-interval (t-, t+) = (rho xi-, rho xi+) of the binary Rényi ball are in
:mod:`rldp_verify.rldp.xi_interval`.

Statistics (Proposition 1):

    L_{u|s}(F) = t-(P^_{u|s})                                                 eq. (29)
    rad_s(F)   = 2 max_{U1 subset U} (t+(P^_{U1|s}) - P^_{U1|s})               eq. (30)

rad_s: g(rho) = t+(rho) - rho is concave (D_alpha is jointly quasi-convex), so with many subset sums the
maximum of eq. (30) is found by a unimodal search over the sorted sums (every sum is evaluated when there are
at most 64); the certified bound certifies the window it found and falls back to every sum otherwise.

Edge cases: B = 0 gives t- = t+ = rho exactly; B_s is clamped at 0 (rounding); B = inf or P^_s = 0 gives the
whole simplex (rad_s = 2 (1 - min_u P^_{u|s}) for B = inf, the trivial bound 2 when P^_s = 0). For B = 0 and
P^_s = 0 the true projection is empty (no P in F has P_s > 0); we still report the whole simplex (larger, safe).

Which way results may err:

- ``*_value`` methods return mpmath values at the working precision (|error| <~ 10^-(dps-5)).
- ``lower_certified`` is a rational <= the true L_{u|s}; ``rad_certified`` is a rational >= rad_s;
  ``t_interval_certified`` rounds outward. These are the ones to use when certifying privacy: a
  smaller lower bound / larger radius only enlarges the enveloping sets, never weakens a guarantee.
- A radius computed from a confidence level is rounded *up* to a rational (the set only grows).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from fractions import Fraction

import mpmath
import numpy as np

from rldp_verify.core.divergence import renyi_divergence, renyi_divergence_arb, validate_alpha
from rldp_verify.core.errors import CertificationError, InputError
from rldp_verify.core.numbers import (
    DEFAULT_DPS,
    check_table,
    exact,
    parse_exact,
    sum_str,
    to_mpf,
    working_precision,
)
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.core.stats import chi2_quantile, chi2_quantile_bracket
from rldp_verify.core.validate import require_sum_one
from rldp_verify.rldp.xi_interval import t_interval, t_interval_certified, t_plus_inner

INF = math.inf

# ---------------------------------------------------------------------------------------------
# Confidence radius, eq. (9)/(11)
# ---------------------------------------------------------------------------------------------


def confidence_radius(alpha, confidence, n: int, a: int, *, dps: int | None = None):
    """B such that F is an asymptotic ``confidence``-level set (mpf at ``dps``; inf allowed).

    alpha = 2: eq. (11), B = log(1 + F^{-1}_{chi2,a-1}(1-beta)/n), with confidence = 1 - beta.
    Other alpha (our reading, the paper gives only alpha = 2): the Cressie-Read statistic
    2n/(alpha(alpha-1)) (sum P^^alpha P^(1-alpha) - 1) is asymptotically chi2_{a-1}, so
    B = log(1 + alpha(alpha-1) q/(2n))/(alpha-1); alpha = 1 (KL, 2n D_1 ~ chi2): B = q/(2n).
    This reduces to eq. (11) at alpha = 2.
    """
    alpha = validate_alpha(alpha)
    n = _check_n(n)
    if a < 2:
        raise InputError(f"the alphabet needs at least 2 elements, got {a}")
    with working_precision(dps) as d:
        q = chi2_quantile(confidence, a - 1, dps=d + 5)
        return _radius_from_quantile(q, alpha, n)


def _check_n(n):
    bad = InputError(f"the sample size must be a positive integer, got {n!r}")
    if isinstance(n, (bool, float)):
        raise bad
    try:
        q = exact(n)
    except (InputError, TypeError):
        raise bad from None
    if q.denominator != 1 or q < 1:
        raise bad
    return int(q)


def _radius_from_quantile(q, alpha, n):
    a = to_mpf(alpha)
    if a == 1:
        return q / (2 * n)
    arg = 1 + a * (a - 1) * q / (2 * n)
    if arg <= 0:
        return mpmath.inf
    return mpmath.log(arg) / (a - 1)


def radius_from_quantile_arb(q, alpha, n: int):
    """The arb route of the radius of :func:`confidence_radius` from an exact chi-square quantile ``q``:
    B = log(1 + alpha (alpha - 1) q / (2n)) / (alpha - 1), B = q / (2n) at alpha = 1 (exact alpha, q), at the
    current arb precision; None when 1 + alpha (alpha - 1) q / (2n) <= 0 (B = +inf). Rigorous; raises
    CertificationError when the sign of that argument is undecided."""
    qa = arb_exact(q)
    if alpha == 1:
        return qa / (2 * n)
    aa = arb_exact(alpha)
    arg = 1 + aa * (aa - 1) * qa / (2 * n)
    if arg <= 0:
        return None
    if not arg > 0:
        raise CertificationError("sign of 1 + alpha(alpha-1)q/(2n) undecided")
    return arg.log() / (aa - 1)


def chi2_radius_float(n: int, cells: int, alpha) -> float:
    """``B = F^{-1}_{cells - 1}(1 - alpha) / n`` (float; scipy's chi-square quantile, about 1e-15 relative, not
    rounded in either direction: a radius, not a privacy bound): the chi-square-divergence radius of the
    confidence set, e^B - 1 of eq. (11)'s B at alpha = 2 (here ``alpha`` is the significance level 1 - confidence).
    Also eq. (3) of the chi-square paper (:mod:`rldp_verify.topics.chisquare.ball`)."""
    from scipy.stats import chi2

    if int(n) != n or n < 1:
        raise InputError(f"sample size n must be a positive integer, got n={n!r}")
    if int(cells) != cells or cells < 2:
        raise InputError(f"number of cells must be an integer >= 2, got {cells!r}")
    a = float(alpha)
    if not 0 < a < 1:
        raise InputError(f"significance level alpha must lie in (0, 1), got alpha={alpha!r}")
    return float(chi2.ppf(1 - a, cells - 1)) / int(n)


def confidence_radius_upper(alpha, confidence, n: int, a: int, *, dps: int = DEFAULT_DPS):
    """A rational >= the radius of :func:`confidence_radius` (certified; None for +inf)."""
    alpha = exact(validate_alpha(alpha))
    n = _check_n(n)
    lo, hi = chi2_quantile_bracket(confidence, a - 1, dps=dps)
    # B is increasing in q for every alpha: use the upper end of the quantile bracket
    with arb_precision(dps + 10):
        try:
            B = radius_from_quantile_arb(hi, alpha, n)
        except CertificationError:
            return None
        return None if B is None else arb_upper(B)


# ---------------------------------------------------------------------------------------------
# The ball
# ---------------------------------------------------------------------------------------------


def _read_number(x, where: str) -> Fraction:
    if isinstance(x, bool):
        raise InputError(f"{where} = {x!r} is not a number")
    if isinstance(x, float):
        if not math.isfinite(x):
            raise InputError(f"{where} = {x!r} is not a finite number")
        return parse_exact(repr(float(x)))  # a float (also np.float64) is read as its shortest decimal representation
    if isinstance(x, (np.floating,)):
        return _read_number(float(x), where)
    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise InputError(f"{where} = {x} is not a finite number")
        man, exp = x.man_exp
        man, exp = int(man), int(exp)
        return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))  # the mpf's exact value
    try:
        return exact(x)
    except (InputError, TypeError):
        raise InputError(f"{where} = {x!r} is not a number") from None


def read_table(table, *, name: str = "phat", normalize_counts: bool = True) -> tuple[tuple[Fraction, ...], ...]:
    """A |S| x |U| table of probabilities (or of counts, normalised) as exact Fractions.

    Probabilities must be >= 0 and sum to exactly 1 (decimal inputs are read exactly; floats as their
    shortest decimal representation). A table of non-negative integers that does not sum to 1 is read
    as counts and normalised. Rows must have equal length; every row must have positive mass is NOT
    required here (Theorem 1 treats P^_s = 0 as the whole simplex). A path ending in .json, .csv or .npy is a
    table file (:mod:`rldp_verify.rldp.table_files`); its errors name the file.
    """
    from rldp_verify.rldp.table_files import is_table_file, load_rows

    if is_table_file(table):
        path = str(table).strip()
        try:
            return read_table(load_rows(path), name=name, normalize_counts=normalize_counts)
        except InputError as exc:
            msg = str(exc)
            raise InputError(msg if msg.startswith(path + ":") else f"{path}: {msg}") from None
    if isinstance(table, str):
        table = [list(r.split(",")) for r in table.split(";")]
    from rldp_verify.rldp.tables import as_rows

    table = as_rows(table, name)   # NumPy arrays and DataFrames (see rldp_verify.rldp.tables)
    try:
        rows = [list(r) for r in table]
    except TypeError:
        raise InputError(f"{name} must be a table (rows of numbers), got {table!r}") from None
    vals = check_table([[_read_number(x, f"{name}[{i}][{j}]") for j, x in enumerate(r)] for i, r in enumerate(rows)],
                       name)
    total = sum(map(sum, vals))
    if total == 0:
        raise InputError(f"{name} has total mass 0")
    if total != 1:
        is_counts = all(v.denominator == 1 for r in vals for v in r)
        if is_counts and normalize_counts:
            vals = [[v / total for v in r] for r in vals]
        else:
            try:  # as the user typed it (decimals): the float, unless it hides the difference or overflows
                shown = repr(float(total)) if float(total) != 1 else sum_str(total)
            except OverflowError:
                shown = sum_str(total)
            require_sum_one(total, name, shown, " (give probabilities summing to 1, or counts)")
    return tuple(tuple(r) for r in vals)


@dataclass(frozen=True)
class RenyiBall:
    """F = {P : D_alpha(P^ || P) <= B} around a |S| x |U| table P^ (eq. (8)).

    ``radius`` is an exact Fraction (or ``math.inf``). When the ball is built from a confidence level,
    ``radius`` is a rational upper bound of the true B (certified; the set can only grow) and
    ``radius_value`` the value at working precision.
    """

    phat: tuple[tuple[Fraction, ...], ...]
    alpha: Fraction
    radius: Fraction | float
    provenance: str = "given radius"
    radius_value: object = field(default=None, compare=False)

    # construction ---------------------------------------------------------------------------
    @classmethod
    def from_radius(cls, phat, alpha, radius) -> RenyiBall:
        """The ball {P : D_alpha(P^||P) <= radius} (radius >= 0 exact, or inf)."""
        alpha = _read_number(alpha, "alpha")
        if alpha <= 0:
            raise InputError(f"alpha must be in (0, inf), got alpha={alpha}")
        r: Fraction | float
        if radius == INF or (isinstance(radius, str) and radius.strip().lower() in ("inf", "infinity")):
            r = INF
        else:
            r = _read_number(radius, "radius")
            if r < 0:
                raise InputError(f"radius must be >= 0, got radius={r}")
        return cls(read_table(phat), alpha, r, "given radius", r)

    @classmethod
    def from_confidence(cls, phat, alpha, confidence, samples: int, *, dps: int = DEFAULT_DPS) -> RenyiBall:
        """The ball whose radius is eq. (11)'s confidence radius for n = ``samples`` (rounded up, the set only
        grows)."""
        alpha = _read_number(alpha, "alpha")
        if alpha <= 0:
            raise InputError(f"alpha must be in (0, inf), got alpha={alpha}")
        conf = _read_number(confidence, "confidence")
        if not 0 < conf < 1:
            raise InputError(f"confidence must be in (0, 1), got confidence={conf}")
        table = read_table(phat)
        a = len(table) * len(table[0])
        value = confidence_radius(alpha, conf, samples, a, dps=dps)
        up = confidence_radius_upper(alpha, conf, samples, a, dps=dps)
        r = INF if up is None else up
        prov = (f"confidence {conf} with n = {int(samples)} samples, chi2 with {a - 1} degrees of freedom "
                "(eq. (9)/(11); radius rounded up)")
        return cls(table, alpha, r, prov, value)

    # shape ------------------------------------------------------------------------------------
    @property
    def sensitive_size(self) -> int:
        """|S|."""
        return len(self.phat)

    @property
    def public_size(self) -> int:
        """|U|."""
        return len(self.phat[0])

    def flat(self) -> list[Fraction]:
        """P^ as a vector over X in S-major order (s1,u1), (s1,u2), ..., (s2,u1), ..."""
        return [v for r in self.phat for v in r]

    def marginal(self, s: int) -> Fraction:
        """P^_s (eq. (15))."""
        return sum(self.phat[s], Fraction(0))

    def conditional(self, s: int) -> tuple[Fraction, ...]:
        """P^_{U|s} (eq. (16)-(17)); requires P^_s > 0."""
        m = self.marginal(s)
        if m == 0:
            raise InputError(f"P^_s = 0 for s = {s}: the conditional distribution is undefined")
        return tuple(v / m for v in self.phat[s])

    # divergence and membership ----------------------------------------------------------------
    def divergence(self, p, *, dps: int | None = None):
        """D_alpha(P^ || P) for a table or flat vector P."""
        return renyi_divergence(self.flat(), _flat(p), self.alpha, dps=dps)

    def contains(self, p, *, dps: int = DEFAULT_DPS) -> bool | None:
        """Certified membership: True / False when decided in arb, None when undecided (on the boundary
        at this precision). Requires exact P."""
        flat = [exact(v) for v in _flat(p)]
        if self.radius == INF:
            return True
        with arb_precision(dps):
            d = renyi_divergence_arb(self.flat(), flat, self.alpha, dps=dps)
            if d is None:
                return False
            B = arb_exact(self.radius)
            if d <= B:
                return True
            if d > B:
                return False
            return None

    # Theorem 1 ----------------------------------------------------------------------------------
    def conditional_radius(self, s: int, *, dps: int | None = None):
        """B_s of Theorem 1 (eq. (23)) at ``dps`` digits; mpmath.inf for the whole simplex."""
        with working_precision(dps) as d:
            with mpmath.workdps(d + 10):
                ps = to_mpf(self.marginal(s))
                if ps == 0 or self.radius == INF:
                    return mpmath.inf
                if self.radius == 0 or ps == 1:   # B_s = B exactly (no rounding below 0)
                    return to_mpf(self.radius)
                B = to_mpf(self.radius)
                a = to_mpf(self.alpha)
                if a == 1:
                    return +(B / ps)
                arg = (mpmath.exp((a - 1) * B / a) - (1 - ps)) / ps
                if arg <= 0:
                    return mpmath.inf
                val = max(a / (a - 1) * mpmath.log(arg), mpmath.mpf(0))  # B_s >= 0; rounding may dip below
            return +val

    def conditional_radius_arb(self, s: int, *, dps: int = DEFAULT_DPS):
        """An arb enclosure of B_s (None for +inf)."""
        ps = self.marginal(s)
        if ps == 0 or self.radius == INF:
            return None
        with arb_precision(dps):
            B, a, p = arb_exact(self.radius), arb_exact(self.alpha), arb_exact(ps)
            if self.alpha == 1:
                return B / p
            arg = ((a - 1) * B / a).exp() - (1 - p)
            if not arg > 0:
                # arg <= 0 (possible for alpha < 1 only: for alpha > 1, arg > P^_s > 0), or its sign undecided:
                # the radius may be infinite -> report infinity (safe)
                return None
            return a / (a - 1) * (arg / p).log()

    def conditional_ball(self, s: int, *, dps: int | None = None) -> SimplexBall:
        """F_{U|s} as a ball on P_U (Theorem 1)."""
        return SimplexBall(self.conditional(s), self.alpha, self.conditional_radius(s, dps=dps))

    # Proposition 1 ---------------------------------------------------------------------------
    def lower_value(self, u: int, s: int, *, dps: int | None = None):
        """L_{u|s}(F) (eq. (19), (29)) at ``dps`` digits."""
        if self.marginal(s) == 0:
            return mpmath.mpf(0)
        rho = self.conditional(s)[u]
        return t_interval(rho, self.alpha, self.conditional_radius(s, dps=dps), dps=dps)[0]

    def lower_certified(self, u: int, s: int, *, dps: int = DEFAULT_DPS) -> Fraction:
        """A rational <= L_{u|s}(F), certified (0 when P^_s = 0)."""
        if self.marginal(s) == 0:
            return Fraction(0)
        rho = self.conditional(s)[u]
        return t_interval_certified(rho, self.alpha, self.conditional_radius_arb(s, dps=dps), dps=dps)[0]

    def lower_table(self, *, dps: int | None = None) -> list[list]:
        """The table of L_{u|s} (eq. (29)) at ``dps`` digits."""
        return [[self.lower_value(u, s, dps=dps) for u in range(self.public_size)] for s in range(self.sensitive_size)]

    def rad_value(self, s: int, *, dps: int | None = None):
        """rad_s(F) (eq. (20), (30)) at ``dps`` digits (2 when P^_s = 0)."""
        if self.marginal(s) == 0:
            return mpmath.mpf(2)
        return SimplexBall(self.conditional(s), self.alpha, self.conditional_radius(s, dps=dps)).l1_radius(dps=dps)

    def rad_certified(self, s: int, *, dps: int = DEFAULT_DPS) -> Fraction:
        """A rational >= rad_s(F), certified."""
        if self.marginal(s) == 0:
            return Fraction(2)
        ball = SimplexBall(self.conditional(s), self.alpha, self.conditional_radius(s, dps=dps))
        return ball.l1_radius_certified(self.conditional_radius_arb(s, dps=dps), dps=dps)

    def statistics(self, *, dps: int = DEFAULT_DPS, certified: bool = False) -> dict:
        """The set's statistics (used by ``rldp-verify ball``), as numbers (mpf / Fraction / math.inf).

        ``radius`` is B at working precision (for a confidence ball the value of eq. (11);
        ``radius_upper`` is the certified rational upper bound actually used for the set). Per s:
        ``radius`` = B_s (Theorem 1), ``lower`` = [L_{u|s}] (eq. (29)), ``rad`` = rad_s (eq. (30));
        with ``certified`` also ``lower_certified`` (rationals <= L) and ``rad_certified`` (>= rad).
        """
        from rldp_verify.core import progress

        out = []
        cells = self.sensitive_size * self.public_size
        progress.step("lower bounds L_{u|s}(F)" + (" and their certified roundings" if certified else ""), cells,
                      "cells")
        with working_precision(dps):
            for s in range(self.sensitive_size):
                Bs = self.conditional_radius(s, dps=dps)
                lower, lower_cert = [], []
                for u in range(self.public_size):
                    lower.append(self.lower_value(u, s, dps=dps))
                    if certified:
                        lower_cert.append(self.lower_certified(u, s, dps=dps))
                    progress.update(s * self.public_size + u + 1)
                row = {
                    "s": s,
                    "marginal": self.marginal(s),
                    "radius": INF if Bs == mpmath.inf else Bs,
                    "lower": lower,
                    "rad": self.rad_value(s, dps=dps),
                }
                if certified:
                    row["lower_certified"] = lower_cert
                    row["rad_certified"] = self.rad_certified(s, dps=dps)
                out.append(row)
            B = self.radius_value if self.radius_value is not None else self.radius
        return {"alpha": self.alpha, "radius": B, "radius_upper": self.radius,
                "provenance": self.provenance, "dps": dps, "conditional": out}


def _flat(p) -> list:
    if isinstance(p, str):
        p = read_table(p, name="P", normalize_counts=False)
    p = list(p)
    if p and isinstance(p[0], (list, tuple)):
        return [v for r in p for v in r]
    return p


@dataclass(frozen=True)
class SimplexBall:
    """A Rényi ball {R in P_U : D_alpha(center || R) <= radius} (radius an mpf, Fraction or inf).

    Lemmas A5 and A6 of the paper: min/max coordinate and the maximal l1 distance.
    """

    center: tuple[Fraction, ...]
    alpha: Fraction
    radius: object

    def coordinate_interval(self, u: int, *, dps: int | None = None):
        """(min R_u, max R_u) over the ball (Lemma A5): (t-(rho), t+(rho)) with rho = center_u."""
        return t_interval(self.center[u], self.alpha, self.radius, dps=dps)

    # g(rho) = t+(rho) - rho is concave on [0, 1]: {(rho, t) : D_alpha(Bern rho || Bern t) <= B} is convex
    # because D_alpha is jointly quasi-convex for every alpha in (0, inf) (van Erven & Harremoes 2014,
    # Thm 13), and t+ is the upper boundary of that convex set. So over the sorted subset sums the
    # values g(s_i) are unimodal, and the maximum of eq. (30) is found by a discrete binary search on
    # the sign of g(s_{i+1}) - g(s_i) (claim rldp.lemma-a6.* checks the concavity numerically).
    EXHAUSTIVE_UP_TO = 64  # number of distinct sums below which every sum is evaluated

    def _g(self, rho, dps):
        return t_interval(rho, self.alpha, self.radius, dps=dps)[1] - to_mpf(rho)

    def _argmax_window(self, sums, dps):
        """Indices (a, b) of a window of sums containing the (approximate) maximiser of g."""
        n = len(sums)
        lo, hi = 0, n - 1          # invariant: the maximiser index lies in [lo, hi]
        cache = {}

        def g(i):
            if i not in cache:
                cache[i] = self._g(sums[i], dps)
            return cache[i]

        while hi - lo > 2:
            mid = (lo + hi) // 2
            if g(mid + 1) > g(mid):
                lo = mid + 1
            else:
                hi = mid
        return max(0, lo - 2), min(n - 1, hi + 2), cache

    def l1_radius(self, *, dps: int | None = None, max_size: int = 20, exhaustive: bool = False):
        """sup_R ||R - center||_1 = 2 max_{U1} (t+(rho_{U1}) - rho_{U1}) (Lemma A6 / eq. (30)), at ``dps``
        digits. Every subset sum is evaluated when there are few (or ``exhaustive``); otherwise the
        unimodal search above. |U| > ``max_size`` returns the trivial bound 2."""
        sums = self._candidate_sums(max_size)
        if sums is None:
            return mpmath.mpf(2)
        with working_precision(dps):
            if exhaustive or len(sums) <= self.EXHAUSTIVE_UP_TO:
                idx = range(len(sums))
                vals = [self._g(sums[i], dps) for i in idx]
            else:
                a, b, cache = self._argmax_window(sums, dps)
                vals = [cache[i] if i in cache else self._g(sums[i], dps) for i in range(a, b + 1)]
            return 2 * max([mpmath.mpf(0)] + vals)

    def l1_radius_certified(self, radius_arb, *, dps: int = DEFAULT_DPS, max_size: int = 20) -> Fraction:
        """A rational >= sup ||R - center||_1 (certified in arb; 2 is returned when |U| > max_size).

        With many subset sums, the window found by the unimodal search is certified: the maximum over
        the window is bounded above in arb, and the values just outside the window are certified to be
        smaller than the values inside (inner bounds of t+), which by concavity bounds every other sum.
        When that certificate fails, every sum is bounded (slow but sound)."""
        sums = self._candidate_sums(max_size)
        if sums is None:
            return Fraction(2)

        def up(i):
            return t_interval_certified(sums[i], self.alpha, radius_arb, dps=dps)[1] - sums[i]

        idx = range(len(sums))
        if len(sums) > self.EXHAUSTIVE_UP_TO and radius_arb is not None:
            a, b, _ = self._argmax_window(sums, dps)
            ok = True
            if a > 0:  # g(s_{a-1}) <= g(s_a) certified => g(s_i) <= g(s_{a-1}) for all i < a
                ok &= up(a - 1) <= t_plus_inner(sums[a], self.alpha, radius_arb, dps) - sums[a]
            if b < len(sums) - 1:
                ok &= up(b + 1) <= t_plus_inner(sums[b], self.alpha, radius_arb, dps) - sums[b]
            if ok:
                idx = range(max(0, a - 1), min(len(sums), b + 2))
        best = max(up(i) for i in idx)
        return min(Fraction(2), 2 * max(best, Fraction(0)))

    def _candidate_sums(self, max_size):
        """The distinct sums P^_{U1} over non-empty proper subsets (U1 = U contributes 0)."""
        n = len(self.center)
        if n > max_size:
            return None
        sums = {Fraction(0)}
        for v in self.center:
            sums |= {x + v for x in sums}
        sums.discard(Fraction(0)) if all(v > 0 for v in self.center) else None
        sums.discard(Fraction(1))
        return sorted(sums)
