"""The certified audit: worst ratio rho(Q, F), realised eps_F = log rho and a verdict against eps.

Paper: [lopuhaa-2024], Definition 1 (RLDP), Definition 2 (LDP), Proposition 3 (F = P_X),
Sec. 3 eq. (8) (Rényi balls, Theorem 1 radii), eq. (62) (realised eps* for F = {P*}); conventions of
[goseling-2021] eq. (32) (0/0 = 1, x/0 = inf).

    rho(Q, F) = sup_{P in F, y, s != s'} P(Y=y|S=s) / P(Y=y|S=s').

Result: [lo, hi] with hi a certified upper bound and lo the exact ratio of a witness P verified to lie
in F; verdict PASS when hi <= e^eps (certified), FAIL when lo > e^eps, else INCONCLUSIVE after raising
the precision up to ``max_dps``.

Matrix entries that are floats are read as the binary rationals they denote (``from_float``): the audit
is about exactly that matrix.

Extreme balls (issue 25) are audited through nested balls lo_ball <= F <= hi_ball (:func:`_nested_balls`):
a radius above RADIUS_CAP takes its lower end from a witness in the ball of radius RADIUS_CAP, so the lower
end never falls as the ball grows; alpha beyond [ALPHA_MIN, ALPHA_CAP] uses the monotonicity of D_alpha in
alpha. A ``time_limit`` bounds the pairs not certified in time by Proposition 3. Both only widen the
interval; neither decides a verdict that the interval does not decide.

Beside this module: :mod:`~rldp_verify.rldp.audit.target` (e^eps and its certified comparisons),
:mod:`~rldp_verify.rldp.audit.pairs` (the (y, s, s') pairs of a Rényi-ball audit: order, float screen loop,
Proposition 3's bound, D_inf witnesses), :mod:`~rldp_verify.rldp.audit.pair` (one pair certified in arb).
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from enum import StrEnum
from fractions import Fraction
from pathlib import Path
from typing import Any

import numpy as np

from rldp_verify.core import progress
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import DEFAULT_DPS, from_float
from rldp_verify.core.rigorous import arb_exact, arb_precision
from rldp_verify.core.rigorous import lower as arb_lower
from rldp_verify.core.rigorous import upper as arb_upper
from rldp_verify.rldp.audit import exact as exact_audits
from rldp_verify.rldp.audit.deadline import NO_DEADLINE, Deadline, TimeLimitReached
from rldp_verify.rldp.audit.dual import beta_of, phi_np, to_float
from rldp_verify.rldp.audit.pair import PairProblem, PairResult, solve_pair
from rldp_verify.rldp.audit.pairs import (
    certify_pairs,
    dinf_witness,
    in_results,
    pair_codes,
    product_upper,
    px_bound,
    px_estimates,
    screen_unsafe,
)
from rldp_verify.rldp.audit.screen import build_tables, estimates
from rldp_verify.rldp.audit.target import Target, parse_eps
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.rldp.uncertainty import RenyiBall, read_table

INF = math.inf
# the witness in --json: its exact entries, so that the printed table is the member of F that was verified
WITNESS_FORMAT = "exact rationals p/q"


class Verdict(StrEnum):
    """The audit's verdict (a ``str``: compares equal to "PASS", "FAIL", "INCONCLUSIVE"; exit codes 0, 1, 3)."""

    PASS = "PASS"
    FAIL = "FAIL"
    INCONCLUSIVE = "INCONCLUSIVE"


PASS, FAIL, INCONCLUSIVE = Verdict.PASS, Verdict.FAIL, Verdict.INCONCLUSIVE


@dataclass
class AuditResult:
    """The audit's answer: the verdict (PASS / FAIL / INCONCLUSIVE), the certified ratio interval
    [ratio_lower, ratio_upper], the argmax pair, the witness P and what was checked."""
    verdict: Verdict
    ratio_lower: Fraction | float | None
    ratio_upper: Fraction | float
    argmax: dict | None
    witness: Sequence[Sequence[Any]] | None   # the verified member P of F (a |S| x |U| table), or None
    dps: int
    seconds: float
    uncertainty: str
    eps: str
    notes: list = field(default_factory=list)
    pairs_certified_in_arb: int = 0
    pairs_screened: int = 0
    pair_entries: dict = field(default_factory=dict)  # (y, s, s') -> the pair entry proving its bound (bounds.py)

    def eps_realised(self, digits: int = 20):
        """[log lo, log hi] rounded outward, as decimal strings ('inf' / None when undefined)."""
        return [_log_str(self.ratio_lower, digits, down=True), _log_str(self.ratio_upper, digits, down=False)]

    def to_json(self) -> dict:
        """The ``--json`` document of ``rldp-verify audit`` (numbers as decimal strings, the witness as a table of
        exact rationals "p/q": the verified member of F itself, not a rounding of it)."""
        wit = self.witness
        if wit is not None:  # exact: the printed table is the verified member of F itself
            wit = [[str(Fraction(v)) for v in row] for row in wit]
        return {
            "verdict": self.verdict,
            "ratio_lower": _dec(self.ratio_lower, 20, True),
            "ratio_upper": _dec(self.ratio_upper, 20, False),
            "eps_realised": self.eps_realised(),
            "argmax": self.argmax,
            "witness": wit,
            "witness_format": WITNESS_FORMAT,
            "dps": self.dps,
            "seconds": round(self.seconds, 4),
            "uncertainty": self.uncertainty,
            "eps": self.eps,
            "pairs_certified_in_arb": self.pairs_certified_in_arb,
            "pairs_screened": self.pairs_screened,
            "notes": list(self.notes),
        }


def _dec(x, digits, down):
    if x is None:
        return None
    if x == INF:
        return "inf"
    x = Fraction(x)
    scale = 10**digits
    if down is None:  # nearest (display only)
        return _fmt(Fraction(round(x * scale), scale), digits)
    v = (x * scale).__floor__() if down else (x * scale).__ceil__()
    return _fmt(Fraction(v, scale), digits)


def _fmt(q: Fraction, digits: int) -> str:
    """The exact decimal expansion of q = n / 10^digits (no further rounding), trailing zeros stripped."""
    n = q.numerator * (10**digits // q.denominator)
    sign = "-" if n < 0 else ""
    n = abs(n)
    whole, frac = divmod(n, 10**digits)
    frac_s = str(frac).rjust(digits, "0").rstrip("0")
    return f"{sign}{whole}" + (f".{frac_s}" if frac_s else "")


def _log_str(x, digits, down):
    """log(x) as a decimal string rounded down (``down``) or up, from an arb enclosure; None -> None,
    inf -> "inf", 0 -> "-inf"."""
    if x is None or x == INF:
        return _dec(x, digits, down)
    x = Fraction(x)
    if x == 0:
        return "-inf"
    with arb_precision(digits + 20):
        v = arb_exact(x).log()
        q = arb_lower(v) if down else arb_upper(v)
    return _dec(q, digits, down)


# ------------------------------------------------------------------------------------- mechanism


def load_mechanism(mechanism, *, sizes=None, normalize: bool = False) -> Mechanism:
    """Mechanism, a JSON path, or a matrix (numpy array / nested lists of numbers or Fractions)."""
    if isinstance(mechanism, Mechanism):
        return mechanism
    if isinstance(mechanism, (str, Path)):
        return Mechanism.load(mechanism, normalize=normalize)
    if sizes is None:
        raise InputError("a matrix needs the sizes (|S|, |U|) (or pass a Mechanism / JSON file)")
    arr = mechanism
    if type(arr).__name__ == "DataFrame":
        arr = arr.to_numpy()
    if isinstance(arr, np.ndarray):
        if arr.ndim != 2:
            raise InputError(f"the mechanism matrix must be 2-D, got shape {arr.shape}")
        arr = arr.tolist()
    return Mechanism.from_matrix(arr, sizes[0], sizes[1], normalize=normalize)


def _check_sizes(sizes):
    if sizes is None:
        return None
    try:
        a1, a2 = sizes
    except (TypeError, ValueError):
        raise InputError(f"sizes = {sizes!r} must be (|S|, |U|)") from None
    if any(isinstance(v, bool) or not isinstance(v, (int, np.integer)) or v < 1 for v in (a1, a2)):
        raise InputError(f"sizes = {sizes!r} must be two positive integers (|S|, |U|)")
    return int(a1), int(a2)


def exact_matrix(mech: Mechanism):
    """Entries as Fractions (floats read exactly as binary rationals)."""
    return [[v if isinstance(v, Fraction) else from_float(v) for v in row] for row in mech.matrix]


# ------------------------------------------------------------------------------------------ audit


def audit(mechanism, eps, *, ball: RenyiBall | None = None, phat=None, alpha=None, radius=None,
          confidence=None, samples=None, full_simplex: bool = False, distribution=None, ldp: bool = False,
          dps: int = DEFAULT_DPS, max_dps: int = 4 * DEFAULT_DPS, screen: bool = True,
          normalize: bool = False, sizes=None, time_limit: float | None = None) -> AuditResult:
    """Audit ``mechanism`` against eps for one uncertainty set (see the module docstring).

    Exactly one of: ``ldp=True``; ``full_simplex=True``; ``distribution=P`` (|S| x |U| table);
    ``ball=RenyiBall``; or ``phat`` with ``alpha`` and ``radius`` or (``confidence``, ``samples``).
    ``mechanism``: a Mechanism, a JSON path, or a matrix (rows y, columns x in S-major order: nested lists,
    a NumPy array or a DataFrame; float entries are the binary rationals they denote) with
    ``sizes=(|S|, |U|)`` when no table gives them.
    ``time_limit``: seconds of wall-clock time for a Rényi-ball audit (None: no limit); when it is reached the
    verdict comes from the interval certified so far (pairs not yet certified are bounded by Proposition 3),
    with a note.
    """
    t0 = time.perf_counter()
    _check_time_limit(time_limit)
    deadline = Deadline(time_limit)
    target = parse_eps(eps)
    if isinstance(dps, bool) or not isinstance(dps, int) or dps < 15:
        raise InputError(f"dps must be an integer >= 15, got {dps!r}")
    chosen = [bool(ldp), bool(full_simplex), distribution is not None, ball is not None or phat is not None]
    if sum(chosen) != 1:
        raise InputError("choose exactly one uncertainty set: ldp, full_simplex, distribution, or a Rényi ball (phat)")
    mech = _load_for_tables(mechanism, sizes, phat, ball, distribution, normalize)
    Q = exact_matrix(mech)
    notes = list(mech.notes)
    if not mech.exact:
        notes.append("float matrix entries read exactly as binary rationals (from_float)")
    closed = _closed_form(Q, len(mech.sensitive), len(mech.public), ldp, full_simplex, distribution, notes)
    if closed is not None:
        lo, hi, arg, witness, desc = closed
        return _finish(target, lo, hi, arg, witness, dps, t0, desc, notes)
    if ball is None:
        ball = _ball_of(phat, alpha, radius, confidence, samples, dps)
    return _audit_renyi(Q, mech, ball, target, dps, max_dps, screen, deadline, notes, t0)


def _check_time_limit(time_limit) -> None:
    if time_limit is not None and (isinstance(time_limit, bool) or not isinstance(time_limit, (int, float))
                                   or not time_limit > 0 or time_limit == INF):
        raise InputError(f"time_limit must be a positive number of seconds (or None), got {time_limit!r}")


def _table_sizes(phat, ball, distribution):
    """(|S|, |U|) of the table that comes with the uncertainty set (None for ldp / full_simplex)."""
    if phat is not None:
        tab = read_table(phat)
        return len(tab), len(tab[0])
    if ball is not None:
        return ball.sensitive_size, ball.public_size
    if distribution is not None:
        tab = read_table(distribution, name="distribution")
        return len(tab), len(tab[0])
    return None


def _load_for_tables(mechanism, sizes, phat, ball, distribution, normalize) -> Mechanism:
    """The mechanism, its |S| x |U| checked against ``sizes`` and the uncertainty set's table."""
    given = _check_sizes(sizes)
    tables = _table_sizes(phat, ball, distribution)
    if given is not None and tables is not None and given != tables:
        raise InputError(f"sizes = {given} but the table is {tables[0]} x {tables[1]}")
    mech = load_mechanism(mechanism, sizes=tables or given, normalize=normalize)
    a1, a2 = len(mech.sensitive), len(mech.public)
    if tables is not None and tables != (a1, a2):
        raise InputError(f"the mechanism has |S| x |U| = {a1} x {a2} but the table is {tables[0]} x {tables[1]}")
    return mech


def _closed_form(Q, a1, a2, ldp, full_simplex, distribution, notes):
    """(lo, hi, argmax, witness, description) of the audits decided by one exact computation (eps-LDP,
    |S| = 1, F = P_X, F = {P}); None for a Rényi ball. May append to ``notes``."""
    if ldp:
        rho, arg = exact_audits.audit_ldp(Q, a1, a2)
        return rho, rho, arg, None, "eps-LDP (Definition 2)"
    if a1 < 2:
        notes.append("|S| = 1: Definition 1 has no pair s != s'; the ratio is taken as 1")
        return Fraction(1), Fraction(1), None, None, "any F (|S| = 1)"
    if full_simplex:
        rho, arg, P = exact_audits.audit_full_simplex(Q, a1, a2)
        return rho, rho, arg, P, "F = P_X (Proposition 3)"
    if distribution is not None:
        P = read_table(distribution, name="distribution", normalize_counts=False)
        rho, arg = exact_audits.audit_single(Q, P, a1, a2)
        return rho, rho, arg, P, "F = {P} (single distribution, eq. (62))"
    return None


def _ball_of(phat, alpha, radius, confidence, samples, dps) -> RenyiBall:
    """The Rényi ball around ``phat`` of order ``alpha``: of the given radius, or Theorem 1's radius at
    ``confidence`` for ``samples`` samples."""
    if alpha is None:
        raise InputError("a Rényi ball needs alpha")
    if (radius is None) == (confidence is None):
        raise InputError("give exactly one of radius or (confidence, samples)")
    if radius is not None:
        return RenyiBall.from_radius(phat, alpha, radius)
    if samples is None:
        raise InputError("confidence needs the sample size (samples)")
    return RenyiBall.from_confidence(phat, alpha, confidence, samples, dps=dps)


def _describe(ball: RenyiBall) -> str:
    """The uncertainty set's description: alpha, radius (shortened when long) and provenance."""
    alpha_s = str(ball.alpha) if len(str(ball.alpha)) <= 24 else _short(ball.alpha)
    radius_s = "inf" if ball.radius == INF else _dec(ball.radius, 12, False)
    radius_s = radius_s if len(radius_s) <= 30 else _short(ball.radius)
    return f"Rényi ball alpha = {alpha_s}, radius B = {radius_s} ({ball.provenance})"


def _audit_renyi(Q, mech, ball: RenyiBall, target: Target, dps, max_dps, screen, deadline, notes, t0) -> AuditResult:
    """The audit of a Rényi ball: radius 0 and inf in closed form, extreme balls through nested balls, the
    rest in precision rounds."""
    a1, a2 = len(mech.sensitive), len(mech.public)
    desc = _describe(ball)
    if ball.radius == 0:
        rho, arg = exact_audits.audit_single(Q, ball.phat, a1, a2)
        return _finish(target, rho, rho, arg, ball.phat, dps, t0, desc + ": F = {P^}", notes)
    if ball.radius == INF:
        rho, arg, P = exact_audits.audit_full_simplex(Q, a1, a2)
        notes.append("radius inf: the closure of F is P_X (Proposition 3)")
        return _finish(target, rho, rho, arg, P, dps, t0, desc, notes)
    lo_ball, hi_ball, why = _nested_balls(ball)
    if why is None:
        res = _rounds(Q, mech, ball, target, dps, max_dps, screen, deadline)
    else:
        res = _audit_nested(Q, mech, ball, lo_ball, hi_ball, target, dps, max_dps, screen, deadline, why)
    res.uncertainty = desc
    res.eps = target.text
    res.notes = notes + res.notes
    res.seconds = time.perf_counter() - t0
    return res


# Beyond these the ball is audited through nested balls (see _nested_balls): a radius above RADIUS_CAP nats
# needs witness cells below e^-RADIUS_CAP, an alpha above ALPHA_CAP or below ALPHA_MIN powers with exponents
# that arb and mpmath cannot carry in seconds.
RADIUS_CAP = Fraction(100)
ALPHA_CAP = Fraction(10**6)
ALPHA_MIN = Fraction(1, 10**4)


def _nested_balls(ball: RenyiBall):
    """(lo_ball, hi_ball, why): balls with lo_ball <= F <= hi_ball (None: no such ball is used), or
    (None, None, None) when ``ball`` is audited directly.

    D_alpha is non-decreasing in alpha (van Erven & Harremoës, Theorem 3), so the ball of a larger alpha is
    smaller: for alpha > ALPHA_CAP, F lies inside the ball of order ALPHA_CAP (upper end); for alpha <
    ALPHA_MIN, the ball of order ALPHA_MIN lies inside F (lower end). A ball of a smaller radius lies inside F
    (lower end). Without a hi_ball the upper end is Proposition 3's (F lies inside P_X); with one (alpha >
    ALPHA_CAP) the lower end comes from :func:`dinf_witness`."""
    alpha, B = Fraction(ball.alpha), ball.radius
    big_r = B > RADIUS_CAP
    r_lo = min(B, RADIUS_CAP)
    if alpha > ALPHA_CAP:
        hi = None if big_r else RenyiBall.from_radius(ball.phat, ALPHA_CAP, B)
        return None, hi, f"alpha > {ALPHA_CAP}: upper end over the larger ball of order {ALPHA_CAP}" + \
            (f" and radius {B}" if not big_r else ", here Proposition 3 (radius > 100)") + \
            "; lower end from the D_inf ball (inside F)"
    if alpha < ALPHA_MIN:
        return RenyiBall.from_radius(ball.phat, ALPHA_MIN, r_lo), None, \
            (f"alpha < {ALPHA_MIN}: lower end from a witness in the smaller ball of order {ALPHA_MIN}, radius "
             f"{_short(r_lo)}; upper end from Proposition 3")
    if big_r:
        return RenyiBall.from_radius(ball.phat, alpha, RADIUS_CAP), None, \
            (f"radius > {RADIUS_CAP}: lower end from a witness in the smaller ball of radius {RADIUS_CAP} (inside F); "
             "upper end from Proposition 3 (F lies inside P_X, and tends to it as the radius grows), per pair from "
             "the Theorem-1 projections where Proposition 3 is infinite")
    return None, None, None


def _audit_nested(Q, mech, ball, lo_ball, hi_ball, target, dps, max_dps, screen, deadline, why) -> AuditResult:
    """The audit of ``ball`` from nested balls lo_ball <= F <= hi_ball (:func:`_nested_balls`): the lower end
    (and witness) of lo_ball's audit, or P-hat's exact ratio; the upper end of hi_ball's audit, or
    Proposition 3's bound."""
    a1, a2 = ball.sensitive_size, ball.public_size
    rho_hat, arg_hat = exact_audits.audit_single(Q, ball.phat, a1, a2)
    lo, arg, wit = rho_hat, arg_hat, (ball.phat if arg_hat is not None else None)
    notes = [why]
    if hi_ball is None:
        hi = exact_audits.audit_full_simplex(Q, a1, a2)[0]
        if hi == INF and lo_ball is not None and lo_ball.alpha == ball.alpha:  # radius > RADIUS_CAP
            hi = product_upper(Q, ball, a1, a2, dps, deadline)
            notes.append("upper end: per pair the smaller of Proposition 3's bound and the product of the "
                         "Theorem-1 projections of F (finite where a cell cannot vanish in F); not tight")
    else:
        r_hi = _rounds(Q, mech, hi_ball, target, dps, max_dps, screen, deadline)
        hi = r_hi.ratio_upper
        notes += [f"(ball of order {ALPHA_CAP}) {n}" for n in r_hi.notes]
    used = dps
    if hi_ball is not None:  # alpha > ALPHA_CAP: witnesses of the D_inf ball, which lies inside F
        rho_w, arg_w, W = dinf_witness(Q, ball.phat, ball.radius, a1, a2, dps)
        if arg_w is not None and (lo is None or rho_w > lo):
            lo, arg, wit = rho_w, arg_w, W
            notes.append("lower end: a witness in {P : P_x >= e^-B P-hat_x}, the D_inf ball, inside F for every alpha")
    if lo_ball is not None:  # also when hi already decides PASS: the lower end must not fall as the ball grows
        r_lo = _rounds(Q, mech, lo_ball, target, dps, max_dps, screen, deadline)
        used = r_lo.dps
        notes += [f"(inner ball) {n}" for n in r_lo.notes]
        if r_lo.ratio_lower is not None and (lo is None or r_lo.ratio_lower > lo):
            lo, arg, wit = r_lo.ratio_lower, r_lo.argmax, r_lo.witness
    lo, arg, wit = _infinite_end(Q, ball, hi, lo, arg, wit, dps, notes)
    if lo is not None and hi < lo:  # pragma: no cover - would be a bug: both ends are certified
        raise AssertionError(f"lower end {_short(lo)} above upper end {_short(hi)}")
    return AuditResult(_verdict(target, lo, hi, used), lo, hi, arg, wit, used, 0.0, "", "", notes)


def _infinite_end(Q, ball: RenyiBall, hi, lo, arg, wit, dps, notes):
    """(lo, argmax, witness), with lo = inf when the upper end is inf and a member of F attains x/0: a witness
    of the D_inf ball (:func:`dinf_witness`, inside F for every alpha) whose P(Y=y|S=s') is 0 while P(Y=y|S=s)
    is not. Appends to ``notes`` whether the infinite upper end is tight (attained) or only not excluded."""
    if hi != INF or lo == INF:
        if hi == INF:
            notes.append("upper end inf is tight: the witness has P(Y=y|S=s') = 0 < P(Y=y|S=s) (x/0 = inf)")
        return lo, arg, wit
    # radius B/2: the witness lies strictly inside F (on the D_inf ball's boundary D_alpha = B exactly, arb
    # could not re-check it); an infinite ratio needs only some free mass
    rho_w, arg_w, W = dinf_witness(Q, ball.phat, Fraction(ball.radius) / 2, ball.sensitive_size, ball.public_size, dps)
    if rho_w == INF:
        notes.append("upper end inf is tight: the witness (a member of the D_inf ball, inside F) has "
                     f"P(Y={arg_w['y']}|S={arg_w['s_prime']}) = 0 < P(Y={arg_w['y']}|S={arg_w['s']}) (x/0 = inf)")
        return rho_w, arg_w, W
    if ball.alpha >= 1 and _positive_outputs(Q, ball.phat, ball.public_size):
        notes.append("upper end inf is not tight: the ratio is finite (alpha >= 1: every P in the closed ball F is "
                     "positive wherever P-hat is, and P-hat gives every output positive probability under every s), "
                     "but its certified bound needs e^-B_s below 2^-4096, beyond the exact rationals used")
    else:
        notes.append("upper end inf is not certified tight: a zero entry of Q makes Proposition 3's bound infinite "
                     "and no member of F with P(Y=y|S=s') = 0 was found (the sup may be finite)")
    return lo, arg, wit


def _positive_outputs(Q, phat, a2) -> bool:
    """Every s has P-hat_s > 0 and every output y has sum_u Q[y|s,u] P-hat[s][u] > 0 (exact)."""
    return all(any(v > 0 for v in row) for row in phat) and all(
        sum(q * p for q, p in zip(Qy[s * a2:(s + 1) * a2], row, strict=True)) > 0
        for Qy in Q for s, row in enumerate(phat))


def _rounds(Q, mech, ball, target, dps, max_dps, screen, deadline) -> AuditResult:
    """The precision rounds of one Rényi-ball audit: dps, 2 dps, ... up to max_dps, until the verdict is
    decided or the deadline expires; the intervals of the rounds are intersected."""
    cur = dps
    rounds = 1
    while cur * 2 ** (rounds - 1) < max_dps:
        rounds += 1
    k = 0
    prev = None
    while True:
        k += 1
        res = _audit_ball(Q, mech, ball, target, cur, screen,
                          stage=f"{cur} digits, precision round {k} of at most {rounds}", deadline=deadline)
        if prev is not None:
            res = _intersect(prev, res, target)
        if res.verdict != INCONCLUSIVE or cur >= max_dps or deadline.expired():
            return res
        prev = res
        cur = min(max_dps, 2 * cur)


def _intersect(a: AuditResult, b: AuditResult, target: Target) -> AuditResult:
    """The better ends of two certified intervals of the same audit (precision rounds): both are sound, so
    the largest lower end (with its witness) and the smallest upper end are."""
    out = b
    if a.ratio_lower is not None and (b.ratio_lower is None or a.ratio_lower > b.ratio_lower):
        out.ratio_lower, out.witness, out.argmax = a.ratio_lower, a.witness, a.argmax
    if a.ratio_upper < b.ratio_upper:
        out.ratio_upper = a.ratio_upper
    out.pair_entries = {**a.pair_entries, **{k: e for k, e in b.pair_entries.items()
                                             if k not in a.pair_entries or e["r"] < a.pair_entries[k]["r"]}}
    out.notes = list(dict.fromkeys(a.notes + b.notes))
    out.verdict = _verdict(target, out.ratio_lower, out.ratio_upper, out.dps)
    return out


def _finish(target, lo, hi, arg, witness, dps, t0, desc, notes) -> AuditResult:
    verdict = _verdict(target, lo, hi, dps)
    return AuditResult(verdict, lo, hi, arg, witness, dps, time.perf_counter() - t0, desc, target.text, notes)


def _verdict(target: Target, lo, hi, dps) -> Verdict:
    if target.le(hi, dps + 10):
        return PASS
    if target.lt_strict(lo, dps + 10):
        return FAIL
    return INCONCLUSIVE


def _audit_ball(Q, mech, ball: RenyiBall, target: Target, dps: int, screen: bool, stage: str = "",
                deadline: Deadline = NO_DEADLINE) -> AuditResult:
    """One audit of the Rényi ball at ``dps`` digits; ``stage`` (e.g. the precision round) prefixes the
    progress steps. When ``deadline`` expires, the pairs not yet certified are bounded by Proposition 3."""
    a1, a2 = ball.sensitive_size, ball.public_size
    pre = f"[{stage}] " if stage else ""
    progress.step(f"{pre}float screen tables")
    Y = len(Q)
    alpha = Fraction(ball.alpha)
    beta = beta_of(alpha)
    notes = []
    why = screen_unsafe(Q, ball.phat, alpha, ball.radius)
    if why is not None:
        notes.append(f"float screen off ({why}): every pair certified in arb")
        screen = False
    rows = [[tuple(Q[y][s * a2:(s + 1) * a2]) for s in range(a1)] for y in range(Y)]
    Qf = np.array([[to_float(v) for v in row] for row in Q])
    phat_f = np.array([[to_float(v) for v in row] for row in ball.phat])
    with np.errstate(all="ignore"):  # the screen is a float proposal; non-finite values settle nothing
        if why is None:
            Phi = float(phi_np(to_float(ball.radius), to_float(beta)))
            tab = build_tables(Qf, phat_f, to_float(alpha), Phi)
            est, gidx = estimates(tab)
        else:  # no tables: pairs in the order of their Proposition-3 bound, no float start points
            Phi, tab, gidx = None, None, None
            est = px_estimates(Qf, a1, a2)
    return _audit_ball_pairs(Q, ball, target, dps, screen, pre, deadline, notes, rows, Qf, phat_f, Phi, tab,
                             est, gidx)


def _short(x) -> str:
    """A number for a message: at most 12 significant digits ("inf" for infinity)."""
    if x is None:
        return "none"
    if x == INF:
        return "inf"
    with arb_precision(30):
        return arb_exact(Fraction(x)).str(12, radius=False)


def _audit_ball_pairs(Q, ball, target, dps, screen, pre, deadline, notes, rows, Qf, phat_f, Phi, tab, est, gidx):
    """The pairs of one Rényi-ball audit: leading pairs in arb, the float screen, the rest in arb."""
    a1, a2 = ball.sensitive_size, ball.public_size
    alpha = Fraction(ball.alpha)
    flat_idx = np.argsort(-est, axis=None)
    all_pairs = np.array(np.unravel_index(flat_idx, est.shape)).T  # sorted by estimate, descending
    valid = all_pairs[:, 1] != all_pairs[:, 2]
    all_pairs = all_pairs[valid]
    top_est = est[tuple(all_pairs[0])]
    results: dict[tuple, PairResult] = {}

    def solve(p):
        deadline.check()
        y, s1, s2 = (int(v) for v in p)
        start = None
        if tab is not None:
            g = gidx[y, s1, s2]
            start = (float(tab.tU[y, s1, g]), float(tab.tL[y, s2, g]))
        prob = PairProblem(ball, rows[y], y, s1, s2)
        best_lo = max((r.lo for r in results.values() if r.lo is not None), default=None)
        want = (lambda r: True) if best_lo is None or best_lo == INF else \
            (lambda r: r > to_float(best_lo) * (1 + 1e-12))
        results[(y, s1, s2)] = solve_pair(prob, dps, start, want_witness=want, deadline=deadline)

    n_all = len(all_pairs)
    screened: list = []  # arrays of the pairs the float screen settled (bounded by results[("screen",)])
    try:
        certify_pairs(all_pairs, est, top_est, results, solve, screen, pre, notes, rows, Qf, phat_f, Phi, tab, alpha,
                      a1, a2, screened)
    except TimeLimitReached as exc:
        pending = all_pairs[~in_results(all_pairs, results, a1)]
        if screened:
            pending = pending[~np.isin(pair_codes(pending, a1), pair_codes(np.concatenate(screened), a1))]
        bound = px_bound(pending, Qf, rows, a1, a2)
        notes.append(f"{exc}: {len(pending)} of {n_all} (y, s, s') pairs were not certified and are bounded by "
                     f"Proposition 3 (max/min of the entries; upper end {_short(bound)})")
        results[("timeout",)] = PairResult(-1, -1, -1, None, bound)
    # P^ is in F: the exact audit at P^ is a witness for every pair
    progress.step(f"{pre}exact audit at P-hat (a witness in F)")
    rho_hat, arg_hat = exact_audits.audit_single(Q, ball.phat, a1, a2)
    if arg_hat is not None:
        results[("phat",)] = PairResult(arg_hat["y"], arg_hat["s"], arg_hat["s_prime"], rho_hat, 0, ball.phat)
    his = [r.hi for r in results.values()]
    hi = max(his)
    with_lo = [r for r in results.values() if r.lo is not None]
    best = max(with_lo, key=lambda r: r.lo) if with_lo else None
    lo = best.lo if best else None
    arg = {"y": best.y, "s": best.s1, "s_prime": best.s2, "u": None, "u_prime": None} if best else None
    for r in results.values():
        notes.extend(f"pair (y={r.y}, s={r.s1}, s'={r.s2}): {n}" for n in r.notes)
    lo, arg, wit = _infinite_end(Q, ball, hi, lo, arg, best.witness if best else None, dps, notes)
    if 2 * alpha <= 1 and lo is not None and 0 < lo < hi < INF:
        notes.append(f"alpha <= 1/2: hi/lo = {_short(Fraction(hi) / Fraction(lo))}; the Lagrangian dual is not tight "
                     "for alpha <= 1/2 (Psi's sup over z = e^-d lies at z = 0 or 1: it cannot split the budget between "
                     "the blocks); the printed upper end is the smaller of Theorem 1's product bound and the bound "
                     "from splitting the budget into intervals (both re-checkable by rldp_verify_check), the lower "
                     "end from the best grid point on the two maximiser curves (a verified witness)")
    verdict = _verdict(target, lo, hi, dps)
    n_arb = sum(1 for k in results if len(k) == 3)
    n_screened = sum(len(a) for a in screened)
    return AuditResult(verdict, lo, hi, arg, wit, dps, 0.0, "", "", notes, pairs_certified_in_arb=n_arb,
                       pairs_screened=n_screened, pair_entries={k: r.entry for k, r in results.items() if r.entry})


