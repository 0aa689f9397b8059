"""Issue 9 items 3 and 7: the certified routes refute wrong engine formulas (mutants) and verify the right ones."""

import pytest

from rldp_verify.claims import Context, discover
from rldp_verify.claims.runner import run_claim
from tests.checker.mutants import MUTANTS, NO_ERROR

_CLAIMS = {c.id: c for c in discover("proofs")}


def _verdict(cid):
    return run_claim(_CLAIMS[cid], Context())


@pytest.mark.parametrize("mutant", [pytest.param(m, id=m.id, marks=[pytest.mark.slow] if m.slow else [])
                                    for m in MUTANTS])
def test_mutant_is_refuted(mutant, monkeypatch):
    mutant.apply(monkeypatch)
    for cid in mutant.killed_by:
        r = _verdict(cid)
        assert r.verdict.value == "REFUTED", (cid, r.verdict, r.summary, r.evidence.get("traceback"))


@pytest.mark.parametrize("mutant_id, claim_ids", NO_ERROR, ids=[m for m, _ in NO_ERROR])
def test_claims_give_a_verdict_under_mutant(mutant_id, claim_ids):
    from rldp_verify.claims.mutants import apply, load_catalogue, revert

    mutants, modules = load_catalogue("mutation.catalogue")
    done = apply({m.id: m for m in mutants}[mutant_id], modules)
    try:
        for cid in claim_ids:
            r = _verdict(cid)
            assert r.verdict.value != "ERROR", (cid, r.summary, r.evidence.get("traceback"))
    finally:
        revert(done)
