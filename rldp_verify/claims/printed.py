"""Comparing a paper's printed numbers with our recomputation, at the printed precision.

A printed decimal with ``d`` digits after the point agrees with our value ``v`` when
``|v - printed| <= 0.5 * 10**-d`` (i.e. ``v`` rounds to the printed digits). No further slack is
added: a printed number we cannot reproduce is a finding.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import mpmath

from rldp_verify.claims.core import Outcome
from rldp_verify.core.numbers import decimals, parse_exact, to_mpf


@dataclass(frozen=True)
class Comparison:
    """A printed number against ours (:func:`compare_printed`): both as strings, whether ours rounds to the
    printed digits (``agrees``) and the tolerance that implies."""

    label: str
    printed: str
    ours: str
    agrees: bool
    tolerance: str

    def to_json(self) -> dict:
        """The comparison as a JSON-ready dict."""
        return {
            "label": self.label,
            "printed": self.printed,
            "ours": self.ours,
            "agrees": self.agrees,
            "tolerance": self.tolerance,
        }


def compare_printed(label: str, printed: str, value, *, digits: int = 12) -> Comparison:
    """Compare ``value`` (mpf, Fraction, int or float) with the printed decimal string."""
    d = decimals(printed)
    tol = Fraction(1, 2 * 10**d)
    with mpmath.workdps(max(30, d + 10)):
        v = to_mpf(value) if isinstance(value, (Fraction, int, str)) else mpmath.mpf(value)
        p = to_mpf(parse_exact(printed))
        agrees = bool(abs(v - p) <= to_mpf(tol))
        ours = mpmath.nstr(v, max(digits, d + 4))
    return Comparison(label, printed, ours, agrees, str(float(tol)))


def outcome_from_comparisons(
    comparisons: list[Comparison], *, what: str = "printed values", kind: str = "wrong-number", **evidence
) -> Outcome:
    """VERIFIED when every printed value is reproduced, REFUTED (listing each miss) otherwise; the finding
    kind of a miss is ``wrong-number`` unless the caller knows better (e.g. ``misprint``)."""
    misses = [c for c in comparisons if not c.agrees]
    table = [c.to_json() for c in comparisons]
    if not misses:
        return Outcome.verified(f"all {len(comparisons)} {what} reproduced at their printed precision",
                                comparisons=table, **evidence)
    labels = ", ".join(f"{c.label}: printed {c.printed}, ours {c.ours}" for c in misses[:6])
    more = f" (+{len(misses) - 6} more)" if len(misses) > 6 else ""
    return Outcome.refuted(
        f"{len(misses)} of {len(comparisons)} {what} not reproduced: {labels}{more}",
        counterexample=[c.to_json() for c in misses],
        kind=kind,
        comparisons=table,
        **evidence,
    )
