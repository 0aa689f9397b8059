"""Every registered claim is well-formed, and every fast claim runs to a verdict (not ERROR).

The verdicts themselves are not asserted here (a REFUTED claim is a finding, not a failure); what
is asserted is that each check computes a verdict with evidence.
"""

from pathlib import Path

import pytest

from rldp_verify.claims import Context, Verdict, discover
from rldp_verify.claims.runner import run_claim

SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"
CLAIMS = discover("proofs")
FAST = [c for c in CLAIMS if not c.slow]
SLOW = [c for c in CLAIMS if c.slow]


def test_claims_are_registered():
    assert CLAIMS, "no claims discovered under proofs/"
    assert len({c.id for c in CLAIMS}) == len(CLAIMS)


@pytest.mark.parametrize("c", CLAIMS, ids=lambda c: c.id)
def test_claim_is_well_formed(c):
    assert c.paper.endswith(".txt")
    if SEEDS.is_dir():
        assert (SEEDS / c.paper).is_file(), f"{c.id}: unknown paper {c.paper}"
    assert c.source.strip() and c.statement.strip()
    assert c.id.split(".")[0] in {"rldp", "isit", "kairouz", "pram", "falpha"}


def _run(c):
    r = run_claim(c, Context(include_slow=c.slow))
    assert r.verdict is not Verdict.ERROR, f"{c.id}: {r.summary}\n{r.evidence.get('traceback', '')}"
    assert r.summary.strip()
    if r.verdict is Verdict.REFUTED:
        assert r.evidence.get("counterexample") not in (None, "", [], {})


@pytest.mark.parametrize("c", FAST, ids=lambda c: c.id)
def test_fast_claim_reaches_a_verdict(c):
    _run(c)


@pytest.mark.slow
@pytest.mark.parametrize("c", SLOW, ids=lambda c: c.id)
def test_slow_claim_reaches_a_verdict(c):
    _run(c)
