"""Every PRAM claim (seed 002) is well formed; the slow ones run to a verdict (VERIFIED, REFUTED or INCONCLUSIVE,
never ERROR) under the slow marker."""

import pytest

from rldp_verify.claims import Context, Verdict, discover
from rldp_verify.claims.runner import run_claim

CLAIMS = [c for c in discover("proofs") if c.id.startswith("pram.")]


def test_every_claim_has_paper_source_and_method():
    assert len(CLAIMS) >= 30
    for c in CLAIMS:
        assert c.paper == "002_e8b3078a5cf2ef08.txt" and c.source and c.method


# The fast PRAM claims run in tests/proofs/test_proofs.py, which also compares each with its pin (a stronger
# check than "not ERROR"); running them here again doubled their ~30 s in the test command.


@pytest.mark.slow
@pytest.mark.parametrize("c", [c for c in CLAIMS if c.slow], ids=lambda c: c.id)
def test_slow_claim_reaches_a_verdict(c):
    r = run_claim(c, Context(dps=30, include_slow=True))
    assert r.verdict is not Verdict.ERROR, r.evidence.get("traceback", r.summary)
