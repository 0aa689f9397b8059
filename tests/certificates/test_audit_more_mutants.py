"""Issue 23: the catalogue mutants of the lattice-gaussian and noisy-max certificate forms (mutation/catalogue.py,
certificate.gaussian-ratio-bounded, certificate.noisy-max-exponential-as-softmax), applied as the mutation runner
applies them: the certificates of rldp.audit.opendp-gaussian-noisy-max (proofs/rldp/audit_certificate_more.py) are
accepted on the unmutated engine, and under each mutant those of the mutated route are rejected by
rldp_verify_check."""

from __future__ import annotations

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.claims.mutants import apply, revert


def _docs():
    import proofs.rldp.audit_certificate_more as mod

    class Ctx:
        dps = 30

    check = mod.check_more_forms
    out = getattr(check, "__wrapped__", check)(Ctx())
    return out, {d["name"]: d for d in out.evidence["certificates"]}


@pytest.mark.parametrize(("mid", "route", "why"), [
    ("certificate.gaussian-ratio-bounded", "Gaussian integers", "the ratio is unbounded"),
    ("certificate.noisy-max-exponential-as-softmax", "noisy max exponential", "is not certain"),
    ("certificate.hash-p-cell-off-by-one", "local hashing under P", "not attained by a witness")])
def test_more_form_mutant_rejected(mid, route, why):
    from mutation.catalogue import MODULES, MUTANTS

    if mid.startswith("certificate.hash-p"):
        pytest.importorskip("xxhash")
    out, good = _docs()
    assert str(out.verdict) == "VERIFIED" and all(recheck(d).ok for d in good.values())
    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        _, bad = _docs()
    finally:
        revert(done)
    hit = {n: recheck(d) for n, d in bad.items() if n.startswith(f"more {route}")}
    assert hit and any(not c.ok and why in c.message for c in hit.values()), [c.message for c in hit.values()]
    assert all(recheck(d).ok for n, d in bad.items() if not n.startswith(f"more {route}"))  # only the mutated route
    assert all(recheck(d).ok for d in _docs()[1].values())                                   # reverted
