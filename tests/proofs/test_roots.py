"""Issue 24: one finding, counted once. Every root named by a claim is a registered REFUTED claim stating its finding
in proofs.roots.ROOTS (and is its own root); members are pinned REFUTED; the distinct findings are fewer than the
REFUTED claims by the number of members."""

import json
from pathlib import Path

from proofs.roots import ROOTS, distinct_findings
from rldp_verify.claims import discover

PINS = json.loads((Path(__file__).resolve().parents[2] / "proofs" / "pinned_verdicts.json").read_text())["claims"]
CLAIMS = discover("proofs")
BY_ID = {c.id: c for c in CLAIMS}


def test_roots_are_registered_refuted_claims():
    for root, sentence in ROOTS.items():
        assert root in BY_ID, f"root {root} is not a registered claim"
        assert BY_ID[root].root is None, f"root {root} names a root itself"
        assert PINS[root]["verdict"] == "REFUTED" and sentence.strip()


def test_members_name_a_known_root_and_are_refuted():
    members = [c for c in CLAIMS if c.root]
    assert members
    for c in members:
        assert c.root in ROOTS, f"{c.id}: root {c.root} not in proofs.roots.ROOTS"
        assert PINS[c.id]["verdict"] == "REFUTED", f"{c.id} names a root but is pinned {PINS[c.id]['verdict']}"


def test_distinct_findings_count_each_root_once():
    verdicts = {k: v["verdict"] for k, v in PINS.items()}
    found = distinct_findings(CLAIMS, verdicts)
    refuted = sum(1 for v in verdicts.values() if v == "REFUTED")
    assert len(found) == refuted - sum(1 for c in CLAIMS if c.root and verdicts.get(c.id) == "REFUTED")
    assert set(found["rldp.example2.conditional-radii"]) >= {"rldp.example2.lower-bounds", "rldp.ex3.printed-L-inputs"}
