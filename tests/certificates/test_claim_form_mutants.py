"""Issue 23: the catalogue mutants of the audit forms that a small pinned claim writes (mutation/catalogue.py),
applied as the mutation runner applies them. For each: the claim's certificates are accepted on the unmutated
engine; under the mutant, those of the mutated route are rejected by rldp_verify_check with the expected reason,
the other routes' are still accepted, and after the revert all are accepted again.

- proofs/rldp/audit_certificate_mfl.py (rldp.audit.mfl-he-rsfd-ordered-ss): laplace-histogram, rsfd (eps-LDP and {P}),
  ordered-subsets;
- proofs/rldp/audit_certificate_more.py (rldp.audit.opendp-gaussian-noisy-max): lattice-gaussian, noisy-max and
  local hashing's witness under {P};
- proofs/rldp/audit_certificate_hash.py (rldp.audit.hash-bloom-sketch-reports): bloom, signed-sketch,
  laplace-reports and the compound-seed witnesses;
- proofs/rldp/audit_certificate_noise.py (rldp.audit.lattice-noise-and-hash-witness, rldp.audit.treehist-product):
  lattice-laplace, local hashing's separating-seed witness and TreeHist's product."""

from __future__ import annotations

import importlib

import pytest

from rldp_verify.certificates import recheck
from rldp_verify.claims.mutants import apply, revert

# claim -> (its module in proofs/rldp/, its check function, the prefix of its certificates' names, how many it writes)
CLAIMS = {"mfl": ("audit_certificate_mfl", "check_mfl_forms", "mfl", None),
          "more": ("audit_certificate_more", "check_more_forms", "more", None),
          "hash": ("audit_certificate_hash", "check_hash_forms", "hash", 7),
          "noise": ("audit_certificate_noise", "check_lattice_and_hash_witness", "noise", None),
          "treehist": ("audit_certificate_noise", "check_treehist_product", "treehist", None)}

# (claim, mutant, route (certificate name after the prefix), the checker's reason, every routed certificate fails)
MUTANTS = [
    ("mfl", "certificate.he-eps-factor-two-dropped", "HE", "does not enclose e^1/4", True),
    ("mfl", "certificate.rsfd-one-attribute-differs", "RS+FD", "the ratio is not <= R", True),
    ("mfl", "certificate.ordered-ss-read-as-set", "ordered SS", "below the certified bound inf", True),
    ("mfl", "certificate.rsfd-p-ones-by-s-alone", "UE-r RS+FD under P", "the ratio is not <= R", True),
    ("more", "certificate.gaussian-ratio-bounded", "Gaussian integers", "the ratio is unbounded", False),
    ("more", "certificate.noisy-max-exponential-as-softmax", "noisy max exponential", "is not certain", False),
    ("more", "certificate.hash-p-cell-off-by-one", "local hashing under P", "not attained by a witness", False),
    ("hash", "certificate.bloom-cold-side-dropped", "bloom", "below the certified bound 81", False),
    ("hash", "certificate.signed-sketch-other-entry-dropped", "signed sketch", "below the certified bound 13.5",
     False),
    ("hash", "certificate.laplace-reports-word-dropped", "Laplace reports", "does not enclose e^3/4", False),
    ("hash", "certificate.compound-witness-first-row-halved", "Hadamard", "with different buckets", False),
    ("noise", "certificate.lattice-eps-without-rounding", "floats [0.2, 1.7]", "does not enclose e^4", False),
    ("noise", "certificate.hash-witness-seed-before", "local hashing", "with different buckets", False),
    ("treehist", "certificate.treehist-upper-word-only", "", "below the certified bound 9", False),
]


def _docs(claim: str):
    module, func, _, _ = CLAIMS[claim]
    check = getattr(importlib.import_module(f"proofs.rldp.{module}"), func)

    class Ctx:
        dps = 30

    out = getattr(check, "__wrapped__", check)(Ctx())
    return out, {d["name"]: d for d in out.evidence["certificates"]}


@pytest.mark.parametrize(("claim", "mid", "route", "why", "every"), MUTANTS, ids=[m[1] for m in MUTANTS])
def test_form_mutant_rejected_by_the_checker(claim, mid, route, why, every):
    from mutation.catalogue import MODULES
    from mutation.catalogue import MUTANTS as CATALOGUE

    if mid.startswith(("certificate.hash-p", "certificate.hash-witness")):
        pytest.importorskip("xxhash")
    _, _, prefix, count = CLAIMS[claim]
    out, good = _docs(claim)
    assert str(out.verdict) == "VERIFIED" and all(recheck(d).ok for d in good.values())
    assert count is None or len(good) == count
    (m,) = [m for m in CATALOGUE if m.id == mid]
    done = apply(m, MODULES)
    try:
        _, bad = _docs(claim)
    finally:
        revert(done)
    routed = f"{prefix} {route}"
    hit = {n: recheck(d) for n, d in bad.items() if n.startswith(routed)}
    assert hit and any(not c.ok and why in c.message for c in hit.values()), [c.message for c in hit.values()]
    assert not every or all(not c.ok for c in hit.values()), [c.message for c in hit.values()]
    assert all(recheck(d).ok for n, d in bad.items() if not n.startswith(routed))    # only the mutated route
    assert all(recheck(d).ok for d in _docs(claim)[1].values())                       # reverted
