"""Issue 24: the report never holds two verdicts that contradict each other. Claims that share inputs are listed
here with the rule that keeps their pinned verdicts and kinds consistent; the rule is checked on the pins (which
tests/proofs/test_proofs.py ties to the claims' actual verdicts)."""

import json
from pathlib import Path

import pytest

PINS = json.loads((Path(__file__).resolve().parents[2] / "proofs" / "pinned_verdicts.json").read_text())["claims"]


def _not_false_if_verified(a, b):
    """b may not be a 'false' finding when a, on the same inputs, verifies the reading b's finding contradicts."""
    return not (PINS[a]["verdict"] == "VERIFIED" and PINS[b]["verdict"] == "REFUTED" and PINS[b]["kind"] == "false")


SHARED_INPUTS = [
    # J_0.05's ends print as 0.4875 / 0.5125 (interval VERIFIED): the grid with those ends cannot be a 'false' finding
    ("pram.sec4-2.interval", "pram.sec4-2.grid-private", _not_false_if_verified,
     "J_0.05 = [1/(e^0.05+1), e^0.05/(1+e^0.05)] and the six printed q"),
    # Example 3 is reproduced from the recomputed L (one value off: 0.2804); its printed-L reading is a consequence of
    # Example 2's radius, not a separate false statement
    ("rldp.ex3.recomputed-L", "rldp.ex3.printed-L-inputs", lambda a, b: PINS[b]["kind"] != "false",
     "Example 3's inputs"),
]


@pytest.mark.parametrize("a,b,rule,what", SHARED_INPUTS, ids=[f"{a}|{b}" for a, b, _, _ in SHARED_INPUTS])
def test_claims_sharing_inputs_do_not_contradict(a, b, rule, what):
    assert a in PINS and b in PINS
    assert rule(a, b), f"{a} ({PINS[a]}) and {b} ({PINS[b]}) contradict on {what}"
