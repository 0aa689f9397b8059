"""Every registered claim is well-formed, runs to a verdict, and reaches its *pinned* verdict.

The pins (``proofs/pinned_verdicts.json``, and a paper's own ``proofs/<name>/pins.json``, read together by
:meth:`rldp_verify.claims.catalogue.Catalogue.pins`) map every claim id to the verdict (and, for REFUTED, the
finding kind) that the report publishes. The papers are the catalogue's registry (``proofs/papers.py``). A fast claim whose verdict differs from its pin fails here; the slow
claims have a slow-marked twin that the report job (``make report``/``make test-slow``) runs.
Changing a pin is an explicit edit of that file, in the same commit as its cause, with the reason in
the commit message. A claim without a pin, or a pin without a claim, fails too.
"""

from pathlib import Path

import pytest

from rldp_verify.claims import Context, Verdict
from rldp_verify.claims.catalogue import Catalogue
from rldp_verify.claims.runner import run_claim

SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"
CATALOGUE = Catalogue.load("proofs")
PINS_FILE = "the pin files (" + ", ".join(str(f.relative_to(CATALOGUE.root)) for f in CATALOGUE.pin_files()) + ")"
CLAIMS = CATALOGUE.discover()
FAST = [c for c in CLAIMS if not c.slow]
SLOW = [c for c in CLAIMS if c.slow]
PINS = CATALOGUE.pins()
PAPERS = {p.name: p.seed for p in CATALOGUE.papers}


def test_claims_are_registered():
    assert CLAIMS, "no claims discovered under proofs/"
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


def test_every_claim_is_pinned_and_every_pin_has_a_claim():
    ids = {c.id for c in CLAIMS}
    unpinned = sorted(ids - PINS.keys())
    stale = sorted(PINS.keys() - ids)
    assert not unpinned, f"claims without a pinned verdict in {PINS_FILE}: {unpinned}"
    assert not stale, f"pins in {PINS_FILE} for claims that no longer exist: {stale}"


def test_pins_are_well_formed():
    verdicts = {v.value for v in Verdict} - {Verdict.ERROR.value}
    for cid, pin in PINS.items():
        assert pin["verdict"] in verdicts, f"{cid}: pinned verdict {pin['verdict']!r} (ERROR is never pinned)"
        assert set(pin) <= {"verdict", "kind", "slow"}, f"{cid}: unknown keys {sorted(set(pin))}"
    slow_ids = {c.id for c in SLOW}
    for cid, pin in PINS.items():
        if cid in {c.id for c in CLAIMS}:
            assert pin.get("slow", False) == (cid in slow_ids), f"{cid}: pin's 'slow' differs from the claim's"


@pytest.mark.parametrize("c", CLAIMS, ids=lambda c: c.id)
def test_claim_is_well_formed(c):
    assert c.paper.endswith(".txt")
    if SEEDS.is_dir():
        assert (SEEDS / c.paper).is_file(), f"{c.id}: unknown paper {c.paper}"
    assert c.source.strip() and c.statement.strip()
    prefix = c.id.split(".")[0]
    assert prefix in PAPERS, f"{c.id}: no paper {prefix!r} in proofs/papers.py (known: {sorted(PAPERS)})"
    assert c.module.split(".")[1] == prefix, f"{c.id}: registered in {c.module}, not in the folder {prefix}/"
    assert c.paper == PAPERS[prefix], f"{c.id}: paper {c.paper}, but proofs/papers.py gives {PAPERS[prefix]}"


def _run(c):
    r = run_claim(c, Context(include_slow=c.slow))
    assert r.verdict is not Verdict.ERROR, f"{c.id}: {r.summary}\n{r.evidence.get('traceback', '')}"
    assert r.summary.strip()
    if r.verdict is Verdict.REFUTED:
        assert r.evidence.get("counterexample") not in (None, "", [], {})
    pin = PINS.get(c.id)
    assert pin is not None, f"{c.id} has no pinned verdict in {PINS_FILE}"
    assert r.verdict.value == pin["verdict"], (
        f"{c.id}: verdict {r.verdict.value}, pinned {pin['verdict']} ({r.summary}). If the change is right, "
        f"edit its pin in {PINS_FILE} in the same commit and give the reason in the commit message."
    )
    kind = r.to_json().get("kind")
    assert kind == pin.get("kind"), f"{c.id}: finding kind {kind!r}, pinned {pin.get('kind')!r}"


@pytest.mark.parametrize("c", FAST, ids=lambda c: c.id)
def test_fast_claim_reaches_its_pinned_verdict(c):
    _run(c)


@pytest.mark.slow
@pytest.mark.parametrize("c", SLOW, ids=lambda c: c.id)
def test_slow_claim_reaches_its_pinned_verdict(c):
    _run(c)
