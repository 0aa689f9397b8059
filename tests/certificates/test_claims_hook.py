"""The evidence hook for claims' certificates (rldp_verify.certificates.claims)."""

from rldp_verify.certificates.claims import evidence, no_certificate, split, write_claim_certificates
from rldp_verify.certificates.value import value_certificate
from rldp_verify_check import check_path


def test_claims_certificates_written_and_rechecked(tmp_path):
    good = value_certificate("ln2", ["log", 2], lower="0.69", upper="0.7")
    wrong = value_certificate("ln2", ["log", 2], lower="0.7")
    claims = [{"id": "x.good", "evidence": {"value": "0.693", **evidence(good)}},
              {"id": "x.wrong", "evidence": evidence(wrong)},
              {"id": "x.stat", "evidence": no_certificate("statistical statement")},
              {"id": "x.plain", "evidence": {}}]
    rest, docs = split(claims[0]["evidence"])
    assert rest == {"value": "0.693"} and docs == [good]
    out = write_claim_certificates(claims, tmp_path)
    assert out["per_claim"] == {"x.good": "certificate re-checked",
                                "x.wrong": out["per_claim"]["x.wrong"],
                                "x.stat": "no certificate: statistical statement",
                                "x.plain": "no certificate: not given"}
    assert out["per_claim"]["x.wrong"].startswith("certificate FAILED")
    assert (out["re-checked"], out["failed"], out["none"]) == (1, 1, 2)
    assert [r.ok for r in check_path(tmp_path)] == [True, False]


def test_one_spelling_of_the_certified_part():
    """What a certificate covers is named in the evidence key ``certificate_covers`` everywhere (two spellings
    had grown apart: a reader or a tool looking for one would miss the claims that used the other)."""
    import re
    from pathlib import Path
    root = Path(__file__).resolve().parents[2]
    spelling = re.compile(r"\bcertificates?_covers?\b")
    wrong = [f"{p.relative_to(root)}: {m}" for d in ("proofs", "rldp_verify") for p in sorted((root / d).rglob("*.py"))
             for m in spelling.findall(p.read_text()) if m != "certificate_covers"]
    assert not wrong, wrong
