"""The audit's wall-clock limit (``rldp-verify audit --time-limit``).

A :class:`Deadline` is checked at the loop heads of the audit (pairs, precision rounds, root searches,
bisection steps); :meth:`Deadline.check` raises :class:`TimeLimitReached`, which the audit catches: pairs
not yet certified are then bounded by Proposition 3 (max_u Q[y|s,u] / min_u Q[y|s',u], valid over all of
P_X, exact), so the interval returned is still certified, only wider.

Which way results may err: none -- a deadline only widens the interval; it never decides a verdict.
"""

from __future__ import annotations

import time


class TimeLimitReached(Exception):
    """The audit's time limit was reached (caught inside the audit; never reaches the user)."""


class Deadline:
    """``seconds`` of wall-clock time from now (``None``: no limit)."""

    def __init__(self, seconds: float | None = None):
        self.seconds = seconds
        self.end = None if seconds is None else time.perf_counter() + seconds

    def expired(self) -> bool:
        """True when the limit has been reached."""
        return self.end is not None and time.perf_counter() >= self.end

    def check(self) -> None:
        """Raise :class:`TimeLimitReached` when the limit has been reached."""
        if self.expired():
            raise TimeLimitReached(f"time limit of {self.seconds:g} s reached")


NO_DEADLINE = Deadline(None)
