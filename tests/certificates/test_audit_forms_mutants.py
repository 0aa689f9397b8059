"""Issue 23: the catalogue mutants of the lattice-laplace and hash-witness certificate forms (mutation/catalogue.py,
certificate.lattice-eps-without-rounding, certificate.hash-witness-seed-before), applied as the mutation runner
applies them: the certificates of rldp.audit.lattice-noise-and-hash-witness (proofs/rldp/audit_certificate_noise.py)
are accepted on the unmutated engine, and under each mutant those of the mutated route are rejected by
rldp_verify_check."""

from __future__ import annotations

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.claims.mutants import apply, revert


def _docs():
    from proofs.rldp.audit_certificate_noise import check_lattice_and_hash_witness

    class Ctx:
        dps = 30

    fn = getattr(check_lattice_and_hash_witness, "__wrapped__", check_lattice_and_hash_witness)
    out = fn(Ctx())
    return out, {d["name"]: d for d in out.evidence["certificates"]}


@pytest.mark.parametrize(("mid", "route", "why"), [
    ("certificate.lattice-eps-without-rounding", "floats [0.2, 1.7]", "does not enclose e^4"),
    ("certificate.hash-witness-seed-before", "local hashing", "with different buckets")])
def test_form_mutant_rejected(mid, route, why):
    from mutation.catalogue import MODULES, MUTANTS

    if route == "local hashing":
        pytest.importorskip("xxhash")
    out, good = _docs()
    assert str(out.verdict) == "VERIFIED" and all(recheck(d).ok for d in good.values())
    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        _, bad = _docs()
    finally:
        revert(done)
    hit = {n: recheck(d) for n, d in bad.items() if route in n}
    assert hit and any(not c.ok and why in c.message for c in hit.values()), [c.message for c in hit.values()]
    assert all(recheck(d).ok for n, d in bad.items() if route not in n)      # only the mutated route
    assert all(recheck(d).ok for d in _docs()[1].values())                    # reverted
