"""The claim engine.

A *claim* is one statement of a paper (theorem, lemma, proposition, example, printed number) with a
check that recomputes it from the mathematics. Claims live in ``proofs/<paper>/`` (one module per
theorem or example) and register themselves with the :func:`claim` decorator::

    from rldp_verify.claims import claim, Method, Outcome

    @claim(
        id="rldp.example1.radius",
        paper="000_aca93ed29ea857ee.txt",
        source="Sec. 3, Example 1, eq. (12)",
        statement="B = log(1 + F^-1_{chi2,3}(0.95)/100) = 0.0752",
        hypotheses=("alpha = 2", "n = 100"),
        method=Method.HIGH_PRECISION,
    )
    def check(ctx):
        ...
        return Outcome.verified("recomputed B = 0.07524...", B="0.0752415...")

The check returns an :class:`Outcome`; the engine adds timing and turns exceptions into ERROR.
A check must compute its verdict; it never encodes the expected answer.
"""

from rldp_verify.claims.core import (
    Claim,
    ConsistencyFailure,
    Context,
    Method,
    Outcome,
    Result,
    Verdict,
    claim,
    registry,
)
from rldp_verify.claims.printed import Comparison, compare_printed, outcome_from_comparisons
from rldp_verify.claims.readings import ReadingSearch, search_readings
from rldp_verify.claims.runner import discover, run_claims

__all__ = [
    "Claim",
    "Comparison",
    "ConsistencyFailure",
    "ReadingSearch",
    "search_readings",
    "Context",
    "Method",
    "Outcome",
    "Result",
    "Verdict",
    "claim",
    "compare_printed",
    "discover",
    "outcome_from_comparisons",
    "registry",
    "run_claims",
]
