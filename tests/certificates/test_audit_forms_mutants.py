"""Issue 23: the catalogue mutants of the lattice-laplace and hash-witness certificate forms (mutation/catalogue.py,
certificate.lattice-eps-without-rounding, certificate.hash-witness-seed-before, certificate.treehist-upper-word-only),
applied as the mutation runner
applies them: the certificates of rldp.audit.lattice-noise-and-hash-witness and rldp.audit.treehist-product
(proofs/rldp/audit_certificate_noise.py) are accepted on the unmutated engine, and under each mutant those of the mutated route are rejected by
rldp_verify_check."""

from __future__ import annotations

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.claims.mutants import apply, revert


def _docs(which="check_lattice_and_hash_witness"):
    import proofs.rldp.audit_certificate_noise as mod

    class Ctx:
        dps = 30

    check = getattr(mod, which)
    out = getattr(check, "__wrapped__", check)(Ctx())
    return out, {d["name"]: d for d in out.evidence["certificates"]}


@pytest.mark.parametrize(("mid", "route", "why"), [
    ("certificate.lattice-eps-without-rounding", "floats [0.2, 1.7]", "does not enclose e^4"),
    ("certificate.hash-witness-seed-before", "local hashing", "with different buckets"),
    ("certificate.treehist-upper-word-only", "treehist", "below the certified bound 9")])
def test_form_mutant_rejected(mid, route, why):
    from mutation.catalogue import MODULES, MUTANTS

    if route == "local hashing":
        pytest.importorskip("xxhash")
    which = "check_treehist_product" if route == "treehist" else "check_lattice_and_hash_witness"
    out, good = _docs(which)
    assert str(out.verdict) == "VERIFIED" and all(recheck(d).ok for d in good.values())
    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        _, bad = _docs(which)
    finally:
        revert(done)
    hit = {n: recheck(d) for n, d in bad.items() if route in n}
    assert hit and any(not c.ok and why in c.message for c in hit.values()), [c.message for c in hit.values()]
    assert all(recheck(d).ok for n, d in bad.items() if route not in n)      # only the mutated route
    assert all(recheck(d).ok for d in _docs(which)[1].values())               # reverted
