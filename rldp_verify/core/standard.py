"""The statistical standard (issue 24): how the papers' qualitative words about random experiments are read
and decided, the same way in every claim that checks one.

A paper's "much larger", "significantly", "almost all", "little difference" about quantities measured on random
instances is read with a fixed threshold (the constants below; a claim that needs another states it in its
hypotheses and says why). The statistic is computed on the instances the claim ran and given a two-sided 95 %
percentile-bootstrap interval (2,000 resamples of the instances, seeded, so the same inputs give the same
interval; rows are resampled together, so paired statistics such as a ratio of two problems' medians keep their
pairing). Then:

- the reading **holds** when the whole interval lies on the claimed side of the threshold;
- it **fails** when the whole interval lies on the other side;
- otherwise it is **undecided**, and the claim says INCONCLUSIVE with the number of instances that would decide
  it at the observed spread (:attr:`Decision.instances_to_decide`).

A claim is VERIFIED when every reading it makes holds, REFUTED when one fails, INCONCLUSIVE otherwise.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import numpy as np

#: ">>" and "<<": at least a factor of 2 (x >= 2 y, x <= y / 2)
MUCH = 2.0
#: "significantly larger": a ratio of at least 1.2 (20 %)
SIGNIFICANT = 1.2
#: "almost all": at least 80 % of the instances (the charitable end of the usual 80-95 %)
ALMOST_ALL = 0.8
#: "little difference ... considerably greater": the one effect less than half the other
LITTLE = 0.5
#: "close": within 5 % (relative)
CLOSE = 0.05
#: the confidence level of every interval
LEVEL = 0.95
#: bootstrap resamples
RESAMPLES = 2000

HOLDS, FAILS, UNDECIDED = "holds", "fails", "undecided"


@dataclass(frozen=True)
class Decision:
    """One reading decided on a sample: ``estimate`` of the statistic, its ``interval`` (LEVEL, bootstrap),
    compared with ``threshold`` on side ``side`` (">=" or "<=")."""

    reading: str
    estimate: float
    interval: tuple[float, float]
    threshold: float
    side: str
    instances: int
    outcome: str

    @property
    def instances_to_decide(self) -> int | None:
        """For an undecided reading, about how many instances would put the interval on one side of the
        threshold at the observed spread (the half-width shrinks like 1/sqrt(K)); None otherwise."""
        if self.outcome != UNDECIDED:
            return None
        gap = abs(self.estimate - self.threshold)
        half = (self.interval[1] - self.interval[0]) / 2
        if gap == 0 or not math.isfinite(half):
            return None
        return math.ceil(self.instances * (half / gap) ** 2)

    def text(self) -> str:
        """One line: the reading, the estimate with its interval, and the outcome."""
        lo, hi = self.interval
        more = f"; about {self.instances_to_decide} instances would decide it" if self.instances_to_decide else ""
        return (f"{self.reading}: {self.estimate:.4g} (95 % interval [{lo:.4g}, {hi:.4g}], {self.instances} "
                f"instances) {self.side} {self.threshold:.4g} {self.outcome}{more}")

    def record(self) -> dict[str, Any]:
        """The decision as JSON-ready evidence."""
        return {"reading": self.reading, "estimate": self.estimate, "interval": list(self.interval),
                "threshold": self.threshold, "side": self.side, "instances": self.instances,
                "outcome": self.outcome, "instances_to_decide": self.instances_to_decide}


def bootstrap_interval(rows: Any, statistic: Callable[[Any], float], *, level: float = LEVEL,
                       resamples: int = RESAMPLES, seed: int = 0) -> tuple[float, float]:
    """The two-sided percentile-bootstrap interval of ``statistic(rows)``, resampling the rows (the first axis)
    with replacement ``resamples`` times from a generator seeded with ``seed``."""
    arr = np.asarray(rows)
    if arr.shape[0] < 2:
        raise ValueError(f"a bootstrap interval needs at least 2 instances, got {arr.shape[0]}")
    rng = np.random.default_rng(seed)
    idx = rng.integers(0, arr.shape[0], size=(resamples, arr.shape[0]))
    vals = np.array([statistic(arr[i]) for i in idx], dtype=float)
    if np.isnan(vals).any():
        return (math.nan, math.nan)
    tail = (1 - level) / 2 * 100
    # sample values, not interpolations (an infinite statistic stays infinite), widened outwards
    lo = np.percentile(vals, tail, method="lower")
    hi = np.percentile(vals, 100 - tail, method="higher")
    return (float(lo), float(hi))


def decide(reading: str, rows: Any, statistic: Callable[[Any], float], threshold: float, side: str, *,
           seed: int = 0) -> Decision:
    """Decide ``statistic(rows) side threshold`` (side ">=" or "<=") by the standard above."""
    if side not in (">=", "<="):
        raise ValueError(f"side must be '>=' or '<=', got {side!r}")
    arr = np.asarray(rows)
    est = float(statistic(arr))
    lo, hi = bootstrap_interval(arr, statistic, seed=seed)
    if math.isnan(lo) or math.isnan(hi) or math.isnan(est):
        outcome = UNDECIDED
    elif side == ">=":
        outcome = HOLDS if lo >= threshold else FAILS if hi < threshold else UNDECIDED
    else:
        outcome = HOLDS if hi <= threshold else FAILS if lo > threshold else UNDECIDED
    return Decision(reading, est, (lo, hi), float(threshold), side, int(arr.shape[0]), outcome)


def combine(decisions: list[Decision]) -> str:
    """The claim's outcome from its readings: HOLDS when all hold, FAILS when one fails, else UNDECIDED."""
    if any(d.outcome == FAILS for d in decisions):
        return FAILS
    if all(d.outcome == HOLDS for d in decisions):
        return HOLDS
    return UNDECIDED
