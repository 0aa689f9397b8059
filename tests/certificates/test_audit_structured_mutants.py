"""Issue 23: the catalogue mutants of the structured certificate forms under {P} and a Rényi ball
(mutation/catalogue.py, certificate.subsets-p-ratio-as-grr, unary-p-ratio-hot-bit-only,
seeded-grr-p-upper-at-searched-seeds, unary-ball-upper-hot-bit-only, subsets-ball-lumps-lightest), applied as the
mutation runner applies them: the certificates of rldp.audit.structured-p-and-ball (proofs/rldp/audit_certificate_structured.py) are accepted on
the unmutated engine, and under each mutant the one of the mutated route is rejected by rldp_verify_check."""

from __future__ import annotations

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.claims.mutants import apply, revert


def _docs():
    from proofs.rldp.audit_certificate_structured import check_structured_p_and_ball

    class Ctx:
        dps = 30

    fn = getattr(check_structured_p_and_ball, "__wrapped__", check_structured_p_and_ball)
    out = fn(Ctx())
    return out, {d["name"]: d for d in out.evidence["certificates"]}


@pytest.mark.parametrize(("mid", "name", "form"), [
    ("certificate.subsets-p-ratio-as-grr", "structured-subsets", "subsets"),
    ("certificate.unary-p-ratio-hot-bit-only", "structured-OUE", "unary"),
    ("certificate.seeded-grr-p-upper-at-searched-seeds", "structured-OLH", "seeded-grr"),
    ("certificate.unary-ball-upper-hot-bit-only", "structured-OUE ball", "unary"),
    ("certificate.subsets-ball-lumps-lightest", "structured-GRR ball", "subsets")])
def test_structured_form_mutant_rejected(mid, name, form):
    from mutation.catalogue import MODULES, MUTANTS

    out, good = _docs()
    assert str(out.verdict) == "VERIFIED"
    assert all(recheck(d).ok for d in good.values()) and form in good[name]["statement"]
    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        _, bad = _docs()
    finally:
        revert(done)
    chk = recheck(bad[name])
    why = "lumped blocks does not prove" if mid.endswith("lumps-lightest") else "below the certified bound"
    assert not chk.ok and why in chk.message, chk.message
    assert all(recheck(d).ok for n, d in bad.items() if n != name)        # only the mutated route
    assert all(recheck(d).ok for d in _docs()[1].values())                 # reverted
