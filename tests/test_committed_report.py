"""Every pin is checked by the test command (issue 28): the fast claims run in tests/proofs/test_proofs.py; the
slow ones are checked here through the committed report, whose claims carry the key they were computed under.

A slow claim whose committed result was computed under its current key (same module and imports, options,
library versions, data) has its committed verdict compared with its pin. One whose key changed since is
stale: the committed report no longer says what the code computes, and the test lists it (skip with the
ids; ``make report`` recomputes exactly those).
"""

import json
from pathlib import Path

import pytest

from rldp_verify.claims import Context, discover
from rldp_verify.claims.cache import ResultCache

ROOT = Path(__file__).resolve().parents[1]
REPORT = ROOT / "reports" / "verification.json"
PINS = json.loads((ROOT / "proofs" / "pinned_verdicts.json").read_text())["claims"]


def _committed() -> dict:
    doc = json.loads(REPORT.read_text())
    return {c["id"]: c for c in doc["claims"]}


def test_committed_verdicts_are_the_pinned_ones():
    """A committed verdict that differs from its pin (fast claims are re-run by test_proofs.py; this catches a
    report committed with a verdict the pins do not have)."""
    committed = _committed()
    bad = [f"{cid}: {c['verdict']}/{c.get('kind')} vs pin {PINS[cid]['verdict']}/{PINS[cid].get('kind')}"
           for cid, c in committed.items() if cid in PINS
           and (c["verdict"], c.get("kind")) != (PINS[cid]["verdict"], PINS[cid].get("kind"))]
    assert not bad, "committed verdicts that differ from their pins:\n" + "\n".join(bad)


def test_slow_claims_committed_results_are_current():
    committed = _committed()
    cache = ResultCache(ROOT / "reports")
    ctx = Context(include_slow=True)
    slow = [c for c in discover("proofs") if c.slow]
    stale = [c.id for c in slow if committed.get(c.id, {}).get("key") != cache.key(c, ctx)]  # missing: stale too
    if stale:
        pytest.skip(f"{len(stale)} of {len(slow)} slow claims were computed by an older version of the code they "
                    f"import (make report recomputes them): {', '.join(stale[:8])}{' ...' if len(stale) > 8 else ''}")
    for c in slow:
        pin = PINS[c.id]
        assert committed[c.id]["verdict"] == pin["verdict"], c.id
