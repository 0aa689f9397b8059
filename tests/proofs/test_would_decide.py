"""Issue 24: every INCONCLUSIVE claim says what would decide it, in one sentence under ``would_decide`` in its
evidence. The claims pinned INCONCLUSIVE are run (a claim whose result is INCONCLUSIVE is pinned so:
tests/proofs/test_proofs.py); the slow ones in the slow suite."""

import pytest

from rldp_verify.claims import Context, Verdict
from rldp_verify.claims.catalogue import Catalogue
from rldp_verify.claims.runner import run_claim

CATALOGUE = Catalogue.load("proofs")
PINS = CATALOGUE.pins()
INCONCLUSIVE = [c for c in CATALOGUE.discover() if PINS.get(c.id, {}).get("verdict") == "INCONCLUSIVE"]


def _check(c):
    r = run_claim(c, Context(include_slow=c.slow))
    assert r.verdict is Verdict.INCONCLUSIVE, f"{c.id}: {r.verdict.value} ({r.summary})"
    sentence = r.evidence.get("would_decide")
    assert isinstance(sentence, str) and sentence.strip(), f"{c.id}: INCONCLUSIVE without evidence['would_decide']"


@pytest.mark.parametrize("c", [c for c in INCONCLUSIVE if not c.slow], ids=lambda c: c.id)
def test_fast_inconclusive_claim_says_what_would_decide_it(c):
    _check(c)


@pytest.mark.slow
@pytest.mark.parametrize("c", [c for c in INCONCLUSIVE if c.slow], ids=lambda c: c.id)
def test_slow_inconclusive_claim_says_what_would_decide_it(c):
    _check(c)
