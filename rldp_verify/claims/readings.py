"""Reading search (issue 9 item 6): when a printed number is not reproduced, look for the reading that
reproduces it among the quantities the paper computes on the same objects.

A check that finds a printed value it cannot reproduce builds a dictionary of *candidate readings*
(name -> value): the other utility, the realised eps* of eq. (62) under P-hat and under P*, alternative
formulas found elsewhere in the paper, the same computation from rounded (printed) inputs, a
neighbouring example's values, ... and calls :func:`search_readings`. A candidate *matches* when it
rounds to the printed digits (the rule of :func:`rldp_verify.claims.compare_printed`, no extra slack).
The result goes into the claim's evidence; its :meth:`ReadingSearch.sentence` says either which
readings reproduce the number or "no reading found" together with everything that was tried.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Any

from rldp_verify.claims.printed import compare_printed

__all__ = ["ReadingSearch", "search_readings"]


@dataclass(frozen=True)
class ReadingSearch:
    """Result of :func:`search_readings`: the readings tried (name -> our value), those that reproduce the
    printed number, and those that could not be evaluated (with why)."""

    label: str
    printed: str
    tried: dict = field(default_factory=dict)        # name -> our value (string, printed digits + 4)
    matches: tuple = ()                               # names whose value reproduces the printed number
    skipped: dict = field(default_factory=dict)       # name -> why it could not be evaluated

    @property
    def found(self) -> bool:
        """True when some reading reproduces the printed number."""
        return bool(self.matches)

    def sentence(self) -> str:
        """One sentence for a claim's summary: the readings that reproduce the number, or all tried with values."""
        if self.matches:
            return (f"{self.label} = {self.printed} is reproduced by the reading"
                    f"{'s' if len(self.matches) > 1 else ''} {'; '.join(self.matches)}")
        names = ", ".join(f"{k} ({v})" for k, v in self.tried.items())
        return f"no reading found for {self.label} = {self.printed} among {len(self.tried)} tried: {names}"

    def to_json(self) -> dict[str, Any]:
        """The search as a JSON-ready dict (``matches`` is "no reading found" when empty)."""
        return {"label": self.label, "printed": self.printed, "matches": list(self.matches) or "no reading found",
                "tried": dict(self.tried), "skipped": dict(self.skipped)}


def search_readings(printed: str, candidates: Mapping[str, Any], *, label: str = "printed value") -> ReadingSearch:
    """Compare ``printed`` with every candidate value (mpf, Fraction, int, float or a callable returning
    one; a callable that raises is recorded under ``skipped``). Candidates are tried in the given order."""
    tried, matches, skipped = {}, [], {}
    for name, value in candidates.items():
        try:
            v = value() if callable(value) else value
            if v is None:
                skipped[name] = "undefined"
                continue
            c = compare_printed(name, printed, v, digits=6)
        except Exception as exc:  # a reading that cannot be evaluated is reported, never silently dropped
            skipped[name] = f"{type(exc).__name__}: {exc}"
            continue
        tried[name] = c.ours
        if c.agrees:
            matches.append(name)
    return ReadingSearch(label, printed, tried, tuple(matches), skipped)
