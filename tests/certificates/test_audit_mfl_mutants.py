"""Issue 23: the catalogue mutants of the laplace-histogram, rsfd and ordered-subsets certificate forms
(mutation/catalogue.py, certificate.he-eps-factor-two-dropped, certificate.rsfd-one-attribute-differs,
certificate.ordered-ss-read-as-set), applied as the mutation runner applies them: the certificates of
rldp.audit.mfl-he-rsfd-ordered-ss (proofs/rldp/audit_certificate_mfl.py) are accepted on the unmutated engine, and under
each mutant those of the mutated route are rejected by rldp_verify_check."""

from __future__ import annotations

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.claims.mutants import apply, revert


def _docs():
    import proofs.rldp.audit_certificate_mfl as mod

    class Ctx:
        dps = 30

    check = mod.check_mfl_forms
    out = getattr(check, "__wrapped__", check)(Ctx())
    return out, {d["name"]: d for d in out.evidence["certificates"]}


@pytest.mark.parametrize(("mid", "route", "why"), [
    ("certificate.he-eps-factor-two-dropped", "HE", "does not enclose e^1/4"),
    ("certificate.rsfd-one-attribute-differs", "RS+FD", "the ratio is not <= R"),
    ("certificate.ordered-ss-read-as-set", "ordered SS", "below the certified bound inf")])
def test_mfl_form_mutant_rejected(mid, route, why):
    from mutation.catalogue import MODULES, MUTANTS

    out, good = _docs()
    assert str(out.verdict) == "VERIFIED" and all(recheck(d).ok for d in good.values())
    (m,) = [m for m in MUTANTS if m.id == mid]
    done = apply(m, MODULES)
    try:
        _, bad = _docs()
    finally:
        revert(done)
    hit = {n: recheck(d) for n, d in bad.items() if n.startswith(f"mfl {route}")}
    assert hit and all(not c.ok for c in hit.values()) and any(why in c.message for c in hit.values()), \
        [c.message for c in hit.values()]
    assert all(recheck(d).ok for n, d in bad.items() if not n.startswith(f"mfl {route}"))   # only the mutated route
    assert all(recheck(d).ok for d in _docs()[1].values())                                  # reverted
