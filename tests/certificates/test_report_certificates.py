"""``report --certificates DIR`` (issue 23): certificate documents leave the claim records, are written per claim
and re-checked; each claim gets a status and the report counts them."""

import json

from rldp_verify.certificates.claims import built, evidence, no_certificate
from rldp_verify.certificates.report import attach, default_reason
from rldp_verify.certificates.value import value_certificate
from rldp_verify.report.markdown import render

GOOD = value_certificate("ln2", ["log", 2], lower="0.69", upper="0.7")
WRONG = value_certificate("ln2", ["log", 2], lower="0.7")


def _claims():
    return [{"id": "x.good", "method": "exact", "verdict": "VERIFIED", "evidence": {"v": "1", **evidence(GOOD)}},
            {"id": "x.wrong", "method": "high-precision", "verdict": "VERIFIED", "evidence": evidence(WRONG)},
            {"id": "x.stat", "method": "property", "verdict": "INCONCLUSIVE",
             "evidence": no_certificate("statistical statement")},
            {"id": "x.sym", "method": "symbolic", "verdict": "VERIFIED", "evidence": {}}]


def test_attach_writes_rechecks_and_counts(tmp_path):
    claims = _claims()
    entry = attach(claims, tmp_path / "c")
    assert entry == {"dir": str(tmp_path / "c"), "re-checked": 1, "failed": 1, "none": 2, "kinds": {"rigorous-value": 1}}
    st = {c["id"]: c["certificate"] for c in claims}
    assert st["x.good"] == "certificate re-checked" and st["x.wrong"].startswith("certificate FAILED: rigorous-value")
    assert st["x.stat"] == "no certificate: statistical statement"
    assert st["x.sym"] == "no certificate: " + default_reason(claims[3]) and "sympy" in st["x.sym"]
    assert claims[0]["evidence"] == {"v": "1", "certificates": {"file": "x.good.json", "kinds": ["rigorous-value"],
                                                                "count": 1, "status": "certificate re-checked"}}
    assert json.loads((tmp_path / "c" / "x.good.json").read_text()) == [GOOD]
    assert sorted(p.name for p in (tmp_path / "c").iterdir()) == ["x.good.json", "x.wrong.json"]
    # a record reused from verification.json holds only the reference: its file is read back and re-checked
    again = [dict(claims[0])]
    assert attach(again, tmp_path / "d", previous=tmp_path / "c")["re-checked"] == 1
    assert (tmp_path / "d" / "x.good.json").is_file()
    lost = [dict(claims[0])]
    assert attach(lost, tmp_path / "e")["failed"] == 1 and "--no-cache" in lost[0]["certificate"]


def test_without_a_directory_the_documents_leave_the_json_only():
    claims = _claims()
    assert attach(claims, None) is None
    assert claims[0]["evidence"]["certificates"] == {"kinds": ["rigorous-value"], "count": 1}
    assert "certificate" not in claims[0]


def test_built_never_raises():
    def boom():
        raise ArithmeticError("no")
    assert built(boom) == no_certificate("building the certificate failed: ArithmeticError: no")
    assert built(lambda: [GOOD, GOOD]) == evidence(GOOD, GOOD)


def test_markdown_shows_the_status_and_the_counts(tmp_path):
    claims = _claims()
    for c in claims:
        c.update(paper="p", source="s", statement="t", hypotheses=[], reading=None, summary="x", seconds=0.0)
    doc = {"summary": {"VERIFIED": 3, "REFUTED": 0, "INCONCLUSIVE": 1, "ERROR": 0}, "papers": {"p": "P"},
           "claims": claims, "benchmarks": [], "environment": {"python": "3", "platform": "x", "packages": {},
                                                               "dps": 50, "seed": 1, "include_slow": False}}
    doc["certificates"] = attach(claims, tmp_path)
    md = render(doc)
    assert "1 claims re-checked, 1 FAILED, 2 without one (rigorous-value 1)" in md
    assert "- **Certificate:** no certificate: statistical statement" in md
    from rldp_verify.report.html import render as html

    assert "certificate re-checked" in html(doc) and "1 FAILED" in html(doc)


def test_printed_certificate_and_mutual_information():
    from fractions import Fraction as F

    from rldp_verify.certificates import recheck
    from rldp_verify.certificates.value import mutual_information_expr, printed_certificate

    e = mutual_information_expr([[F(3, 4), F(1, 4)], [F(1, 4), F(3, 4)]], [F(1, 2), F(1, 2)])   # 0.1308120...
    assert recheck(printed_certificate("mi", e, "0.1308", True)).ok
    assert not recheck(printed_certificate("mi", e, "0.1307", True)).ok      # a wrong agreement is rejected
    assert recheck(printed_certificate("mi", e, "0.1400", False)).ok and recheck(printed_certificate("mi", e, "0.12", False)).ok
    assert not recheck(printed_certificate("mi", e, "0.1308", False)).ok     # a wrong refutation is rejected


def test_mutation_judge_counts_a_rejected_certificate_as_a_kill():
    from rldp_verify.claims.mutants import _certificate_status, judge, mutant, replace

    assert _certificate_status({"certificates": [GOOD]}) == "re-checked"
    assert _certificate_status({"certificates": [GOOD, WRONG]}).startswith("FAILED: ln2")
    assert _certificate_status({"x": 1}) is None
    m = mutant("m", "x", "d", replace("x:y", None), ("c.*",))
    base = {"c.a": {"verdict": "VERIFIED", "certificate": "re-checked"}, "c.b": {"verdict": "VERIFIED"}}
    run = {"results": {"c.a": {"verdict": "VERIFIED", "certificate": "FAILED: x"},
                       "c.b": {"verdict": "VERIFIED", "certificate": "FAILED: x"}}, "seconds": 1}
    rec = judge(m, base, run)
    assert rec["status"] == "killed" and rec["killed_by"] == ["c.a (certificate rejected by rldp_verify_check)"]


TOY = '''
from rldp_verify.certificates.claims import built, no_certificate
from rldp_verify.certificates.value import value_certificate
from rldp_verify.claims import Method, Outcome, claim

P = "000_aca93ed29ea857ee.txt"


@claim(id="toy.cert", paper=P, source="s", statement="ln 2 < 0.7", method=Method.HIGH_PRECISION)
def c1(ctx):
    return Outcome.verified("ok", **built(value_certificate, "ln2", ["log", 2], upper="0.7"))


@claim(id="toy.stat", paper=P, source="s", statement="s", method=Method.PROPERTY)
def c2(ctx):
    return Outcome.inconclusive("within the spread", **no_certificate("statistical statement"))


@claim(id="toy.sym", paper=P, source="s", statement="s", method=Method.SYMBOLIC)
def c3(ctx):
    return Outcome.verified("simplifies to 0")
'''


def test_report_certificates_end_to_end(tmp_path):
    """report --certificates DIR on a toy proofs package: fresh, reused from the cache, reused from
    verification.json (the documents read back from DIR); check-certificates accepts DIR."""
    import shutil
    import subprocess
    import sys

    (tmp_path / "toyc").mkdir()
    (tmp_path / "toyc" / "__init__.py").write_text("")
    (tmp_path / "toyc" / "m.py").write_text(TOY)

    def report():
        r = subprocess.run([sys.executable, "-m", "rldp_verify", "report", "--proofs", "toyc", "--out", "out",
                            "--quiet", "--certificates", "out/certs"], cwd=tmp_path, capture_output=True, text=True,
                           timeout=300)
        assert r.returncode == 0, r.stdout + r.stderr
        assert "certificates: 1 re-checked, 0 failed, 2 claims without one" in r.stdout
        return json.loads((tmp_path / "out" / "verification.json").read_text())

    for step in ("fresh", "cache", "json"):
        if step == "json":
            shutil.rmtree(tmp_path / "out" / ".cache")
        doc = report()
        st = {c["id"]: c["certificate"] for c in doc["claims"]}
        assert st == {"toy.cert": "certificate re-checked", "toy.stat": "no certificate: statistical statement",
                      "toy.sym": "no certificate: sympy simplification (no symbolic-identity certificate wired into this check)"}
        assert doc["certificates"] == {"dir": "out/certs", "re-checked": 1, "failed": 0, "none": 2,
                                       "kinds": {"rigorous-value": 1}}
        ev = next(c for c in doc["claims"] if c["id"] == "toy.cert")["evidence"]["certificates"]
        assert ev == {"file": "toy.cert.json", "kinds": ["rigorous-value"], "count": 1, "status": "certificate re-checked"}
        assert "Certificate:** certificate re-checked" in (tmp_path / "out" / "verification.md").read_text()
    r = subprocess.run([sys.executable, "-m", "rldp_verify_check", "out/certs"], cwd=tmp_path, capture_output=True,
                       text=True, timeout=120)
    assert r.returncode == 0 and r.stdout.splitlines()[-1] == "1 certificates, 1 re-checked, 0 failed"


CHEAP = ("rldp.example2.fprime-simplex", "rldp.example1.d2-pstar", "rldp.ex4.matrices-and-utilities",
         "rldp.sec8.realized-eps", "rldp.ex3.true-utility", "isit.lemma7.intersection-support",
         "kairouz.thm4.staircase-lp", "rldp.sec6.srr-stricter-than-polyopt")


def test_claims_certificates_are_accepted():
    """The cheaper certificate-carrying claims (a few seconds in all): each carries certificates and the
    independent checker accepts every one (the costlier ones: README, 'Certificates of the report's claims')."""
    from rldp_verify.certificates import recheck
    from rldp_verify.claims import Context, discover
    from rldp_verify.claims.runner import run_claim

    claims = {c.id: c for c in discover("proofs") if c.id in CHEAP}
    assert sorted(claims) == sorted(CHEAP)
    for cid in CHEAP:
        docs = run_claim(claims[cid], Context()).evidence.get("certificates")
        assert docs, f"{cid} carries no certificate"
        bad = [r.line() for r in map(recheck, docs) if not r.ok]
        assert not bad, bad
