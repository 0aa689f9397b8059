"""Shared machinery of the proof-step claims (``proofs/rldp/steps_appA*.py``, issue 30).

A step claim checks one displayed step (or a short chain of them) of a proof in Appendix A of
000_aca93ed29ea857ee.txt. The step *as the paper writes it* (under the reading recorded in the claim) is a
module-level function of the claim's module named ``printed_<label>``; the claim compares it with a value
computed from the definitions (never with a stored answer) at many random rational points and at the
boundaries of the step's domain, in mpmath at ``ctx.dps`` digits. Because the printed step is looked up by
name when the check runs, a semantic mutant (``mutation/steps_catalogue.py``) can replace it by a wrong
variant, which the claim must REFUTE.

A step that fails is REFUTED with the point where it fails. Its kind is ``proof-gap`` when the statement it
serves holds (the claim names the claims that check that statement), with the repair where one exists.
"""

from __future__ import annotations

from fractions import Fraction

import mpmath

from rldp_verify.claims import Outcome
from rldp_verify.core.numbers import to_mpf

from ._sec34 import PAPER, nstr

__all__ = ["PAPER", "Tally", "mp", "nstr", "rand_fraction"]


def mp(x):
    """``x`` (Fraction, int, str, mpf) as an mpf at the current precision."""
    return to_mpf(x) if not isinstance(x, mpmath.mpf) else x


def rand_fraction(rng, lo: Fraction, hi: Fraction, den: int = 997) -> Fraction:
    """A random rational in the open interval (lo, hi) with denominator dividing ``den`` times hi - lo's."""
    lo, hi = Fraction(lo), Fraction(hi)
    return lo + (hi - lo) * Fraction(rng.randint(1, den - 1), den)


class Tally:
    """Collects the comparisons of one step claim: the worst relative difference of each identity, the first
    point where an identity or inequality fails, and the number of points checked.

    ``tol`` is relative (default 10^-(dps - 12)); an inequality ``lhs <= rhs`` fails when lhs exceeds rhs by
    more than ``tol`` times their size."""

    def __init__(self, dps: int, tol=None):
        self.tol = mpmath.mpf(10) ** (-(dps - 12)) if tol is None else mpmath.mpf(tol)
        self.points = 0
        self.worst: dict[str, mpmath.mpf] = {}
        self.failure: dict | None = None

    def _fail(self, step, point, **values):
        if self.failure is None:
            self.failure = {"step": step, "point": {k: _show(v) for k, v in point.items()},
                            **{k: _show(v) for k, v in values.items()}}

    def equal(self, step: str, got, want, point: dict) -> bool:
        """Record ``got == want`` (the printed step against the recomputed value) at ``point``."""
        got, want = mp(got), mp(want)
        scale = max(abs(got), abs(want), mpmath.mpf(1))
        d = abs(got - want) / scale
        self.worst[step] = max(self.worst.get(step, mpmath.mpf(0)), d)
        if not d <= self.tol:
            self._fail(step, point, printed=got, recomputed=want, relative_difference=d)
            return False
        return True

    def leq(self, step: str, lhs, rhs, point: dict) -> bool:
        """Record ``lhs <= rhs`` at ``point`` (within ``tol`` of their size)."""
        lhs, rhs = mp(lhs), mp(rhs)
        scale = max(abs(lhs), abs(rhs), mpmath.mpf(1))
        slack = (rhs - lhs) / scale
        self.worst[step] = min(self.worst.get(step, mpmath.inf), slack)
        if not slack >= -self.tol:
            self._fail(step, point, lhs=lhs, rhs=rhs, excess=-slack)
            return False
        return True

    def truth(self, step: str, ok: bool, point: dict, **values) -> bool:
        """Record a yes/no fact of the step (e.g. an equivalence, a sign) at ``point``."""
        if not ok:
            self._fail(step, point, **values)
        return ok

    def outcome(self, what: str, *, kind: str = "proof-gap", repair: str | None = None,
                statement_claims: tuple[str, ...] = (), **evidence) -> Outcome:
        """VERIFIED when nothing failed, else REFUTED (``kind``) with the first failing point."""
        ev = {"points_checked": self.points, "tolerance": nstr(self.tol, 3),
              "worst": {k: nstr(v, 3) for k, v in self.worst.items()}, **evidence}
        if statement_claims:
            ev["statement_checked_by"] = list(statement_claims)
        if self.failure is None:
            return Outcome.verified(f"{what}: holds at all {self.points} points (worst relative difference or "
                                    f"slack per step in the evidence)", **ev)
        f = self.failure
        summary = (f"{what}: step {f['step']} fails at {f['point']}"
                   + (f"; the statement it serves holds (checked by {', '.join(statement_claims)})"
                      if statement_claims and kind == "proof-gap" else "")
                   + (f"; repair: {repair}" if repair else ""))
        if repair:
            ev["repair"] = repair
        return Outcome.refuted(summary, counterexample=f, kind=kind, **ev)


def _show(v):
    if isinstance(v, (mpmath.mpf, Fraction)):
        return nstr(v, 15)
    if isinstance(v, (list, tuple)):
        return [_show(x) for x in v]
    return v if isinstance(v, (int, str, float, bool)) or v is None else str(v)
