"""Issue 23 leftovers: the catalogue mutants of the audit certificate forms "split", "unary" and "seeded-grr"
(mutation/catalogue.py, certificate.split-levels-shrunk / unary-ratio-hot-bit-only /
seeded-grr-ratio-against-all-buckets), applied as the mutation runner applies them: the certificate of the audit
of proofs/rldp/audit_certificate_forms.py is accepted on the unmutated engine and rejected by rldp_verify_check
under the mutant (whatever the claim's own verdict says)."""

from __future__ import annotations

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.certificates.audit import audit_certificate, structured_certificate
from rldp_verify.claims.mutants import apply, revert
from rldp_verify.rldp.audit import audit
from rldp_verify.rldp.mechio import Mechanism
from rldp_verify.structured.audit import Adapted, audit_structured


def _mutant(mid):
    from mutation.catalogue import MODULES, MUTANTS

    (m,) = [m for m in MUTANTS if m.id == mid]
    return m, MODULES


def _split_cert():
    from proofs.rldp.audit_certificate_forms import ALPHA, PHAT, Q_PRINTED, RADIUS

    mech = Mechanism.from_matrix(Q_PRINTED, ["s1", "s2"], ["u1", "u2"], normalize=True)
    res = audit(mech, "log(2)", phat=PHAT, alpha=ALPHA, radius=RADIUS)
    return audit_certificate(res, mech, "log(2)", phat=PHAT, alpha=ALPHA, radius=RADIUS)


def _structured_cert(name):
    from proofs.rldp.audit_certificate_forms import _forms

    ((st, r),) = [(st, r) for n, st, r in _forms() if n == name]
    model = Adapted(st, name, "exact")
    return structured_certificate(audit_structured(model, f"log({r})"), model, f"log({r})")


@pytest.mark.parametrize(("mid", "build", "form"), [
    ("certificate.split-levels-shrunk", _split_cert, "split"),
    ("certificate.unary-ratio-hot-bit-only", lambda: _structured_cert("OUE"), "unary"),
    ("certificate.unary-ratio-hot-bit-only", lambda: _structured_cert("SUE"), "unary"),
    ("certificate.seeded-grr-ratio-against-all-buckets", lambda: _structured_cert("OLH"), "seeded-grr")])
def test_certificate_form_mutant_rejected(mid, build, form):
    good = build()
    chk = recheck(good)
    assert chk.ok and chk.message.startswith("PASS"), chk.message
    if form == "split":
        assert any(p.get("mode") == "split" for p in good["data"]["pairs"])
    else:
        assert form in good["statement"]
    m, modules = _mutant(mid)
    done = apply(m, modules)
    try:
        bad = build()
    finally:
        revert(done)
    chk = recheck(bad)
    assert not chk.ok, chk.message
    assert "below the certified bound" in chk.message or "does not prove ratio" in chk.message, chk.message
    assert recheck(build()).ok                           # reverted
