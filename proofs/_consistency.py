"""What a check expects of its own computation (issue 24): two routes to the same value agree, an identity
holds, a bracket is ordered. When such an expectation fails the engine (or the check) is wrong, not the paper:
the claim ends in ERROR, never in a verdict that could hide the defect."""

from __future__ import annotations

from rldp_verify.claims import ConsistencyFailure


class InconsistentCheck(ConsistencyFailure):
    """Two routes of a check disagree, or a value the check expects of its own computation fails."""


def expect(ok: bool, what: str) -> None:
    """Raise :class:`InconsistentCheck` (the runner reports ERROR) naming ``what`` unless ``ok``."""
    if not ok:
        raise InconsistentCheck(what)
