"""Interval certificates of kairouz.steps.s9-5.rr-dual-tail's bisection over eps (the printed (129)/(130) dual
feasible on [eps_1, 12]): accepted on the engine's boxes; rejected when the cover is stretched below eps_1 or when
(129) is written with a wrong denominator."""

from fractions import Fraction as F

import pytest

from proofs.kairouz import steps_sec9_direct as s9
from rldp_verify.certificates import recheck
from rldp_verify.core.rigorous import arb_precision

P = (F(7, 97), F(33, 97), F(57, 97))


def _leaves(lo=F(2), hi=F(12)):
    leaves: list = []
    with arb_precision(50):
        status, _ = s9._prove_feasible(P, 3, lo, hi, max_boxes=3000, leaves=leaves)
    assert status == "ok"
    return leaves


def test_feasible_certificate_and_wrong_twins(monkeypatch):
    leaves = _leaves()
    assert recheck(s9._feasible_certificate(3, P, F(2), F(12), leaves)).ok
    # eps_1 = 1/2 claimed with one extra box [1/2, 2] that the bisection never proved (it starts at eps_1 = 2)
    r = recheck(s9._feasible_certificate(3, P, F(1, 2), F(12), [(F(1, 2), F(2))] + leaves))
    assert not r.ok and "on the box [1/2, 2]" in r.message
    # (129) with (e^eps + k - 2) for (e^eps - 1) in the denominator: its reduced costs are not > 0 on the boxes
    real = s9.printed_129
    monkeypatch.setattr(s9, "printed_129", lambda t, k, singles, i: real(t, k, singles, i) * (t - 1) / (t + k - 2))
    r = recheck(s9._feasible_certificate(3, P, F(2), F(12), leaves))
    assert not r.ok and "on the box" in r.message


@pytest.mark.parametrize("cid, check, kinds", [("kairouz.thm8.rr-optimal-kl-distinct-ratios", "thm8_rr_kl:check_distinct", 44)])
def test_claim_keeps_its_pin_and_its_interval_certificates_pass(cid, check, kinds):
    """The fastest of the four claims (kairouz.thm14.rr-optimal-mi, kairouz.steps.s9-5.rr-dual-tail and
    pram.table3.counts are checked by the report's --certificates run; pram's builder in test_interval.py): pin kept,
    every certificate accepted, the covered part named; the bracket's lower ends (h_T < 0 at one point) moved to the
    tail's s_hi (where RR is optimal) are rejected."""
    import importlib
    import json
    from pathlib import Path

    from rldp_verify.claims import Context

    module, fn = check.split(":")
    pkg = "kairouz" if cid.startswith("kairouz") else "pram"
    r = getattr(importlib.import_module(f"proofs.{pkg}.{module}"), fn)(Context(out_dir="/tmp/rldp-verify-test-interval"))
    pins = json.loads((Path(s9.__file__).parents[1] / "pinned_verdicts.json").read_text())["claims"]
    assert r.verdict.value == pins[cid]["verdict"]
    docs = r.evidence.get("certificates")
    assert docs and len(docs) == kinds and all("forall" in d["statement"] for d in docs)
    assert all(recheck(d).ok for d in docs) and r.evidence.get("certificate_covers")
    points = [d for d in docs if "not optimal there" in d["name"]]
    assert len(points) == 3
    for d in points:
        s_hi = next(x for x in docs if x["name"].split(":")[0] == d["name"].split(":")[0] and "lower" in x["statement"]
                    and x["statement"]["lower"] == 0)["statement"]["forall"][2]
        moved = {**d, "statement": {**d["statement"], "forall": ["s", s_hi, s_hi]}, "data": {"boxes": [[s_hi, s_hi]]}}
        r2 = recheck(moved)
        assert not r2.ok and "on the box" in r2.message
