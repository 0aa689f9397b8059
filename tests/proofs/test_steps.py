"""The proof-step index (proofs/steps/*.toml, issue 30): form, consistency with the claims and the statement
index, the scan of the seed texts, the coverage figures, the finding kind proof-gap.

Fast: nothing here runs a claim (the step claims themselves run in tests/proofs/test_proofs.py against their pins).
"""

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

import proofs.steps as st
from rldp_verify.claims import Outcome, discover
from rldp_verify.claims.core import KINDS

ROOT = Path(__file__).resolve().parents[2]


def _scan_module():
    spec = importlib.util.spec_from_file_location("scan_steps", ROOT / "scripts" / "scan_steps.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclass needs the module registered
    spec.loader.exec_module(mod)
    return mod


SCAN = _scan_module()
SEEDS = SCAN.default_seeds()
CORE = "000_aca93ed29ea857ee.txt"
#: labelled displays the scan finds in each paper's indexed proofs (a change means the scan or the text changed)
LABELLED = {CORE: 83, "001_29f852b736fc5e16.txt": 32, "002_e8b3078a5cf2ef08.txt": 8, "003_726cfd382c041001.txt": 45,
            "004_3b35ffa09c03afc4.txt": 85}


@pytest.fixture(scope="module")
def claim_ids():
    return {c.id for c in discover("proofs")}


def test_index_parses_and_is_well_formed():
    steps = st.steps()
    assert {s.paper for s in steps} >= {CORE}
    for s in steps:
        assert s.status in ("checked", "not-checkable", "unchecked")
        if s.kind == "inference":
            assert s.quote and len(s.quote) >= 8


def test_every_listed_claim_exists_every_step_claim_is_listed_and_steps_serve_statements(claim_ids):
    assert st.check_against(claim_ids) == []


def test_core_appendix_a_has_every_numbered_display():
    """Appendix A of the core paper numbers its displays (A1)-(A116): each has exactly one entry."""
    labels = [s.label for s in st.steps() if s.paper == CORE and s.label and s.label.startswith("A")]
    assert sorted(labels, key=lambda x: int(x[1:])) == [f"A{k}" for k in range(1, 117)]
    body = [s.label for s in st.steps() if s.paper == CORE and s.label and not s.label.startswith("A")]
    assert sorted(body, key=int) == [str(k) for k in [*range(51, 56), *range(64, 77), *range(78, 81)]]


def test_isit_appendices_have_every_numbered_display():
    """The ISIT paper's Appendices A-C number their displays (33)-(77): each has exactly one entry."""
    labels = [s.label for s in st.steps() if s.paper == "003_726cfd382c041001.txt" and s.label]
    assert sorted(labels, key=int) == [str(k) for k in range(33, 78)]


def test_core_checked_share_meets_the_issue_bar(claim_ids):
    """Issue 30: at least 90 % of the checkable steps have a check."""
    cov = st.coverage(claim_ids)["papers"][CORE]
    assert cov["coverage"] >= 0.9, cov


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed texts (../shared/seeds) not found")
def test_scan_finds_nothing_missing_from_the_step_index():
    index = st.load_index()
    problems = []
    assert set(SCAN.APPENDICES) == set(index)   # every paper's proofs are indexed
    for paper, spec in SCAN.APPENDICES.items():
        if paper not in index:
            continue
        entries = index[paper]["step"]
        path = SEEDS / paper
        found = SCAN.scan_paper(path, spec)
        assert sum(f.kind == "display" for f in found) == LABELLED[paper]   # the labels the conversions kept
        problems += [f"{paper}: {f.section} line {f.line}: {f.label or f.text[:50]}"
                     for f in SCAN.missing_from_index(found, entries)]
        problems += [f"{paper}: stale quote {sid}" for sid in SCAN.quotes_not_in_text(path.read_text(), entries)]
    assert problems == []


def test_scan_tells_display_labels_from_references():
    text = textwrap.dedent("""\
        Appendix A.1. Proof of something
        Then, (A2) P ^ s α = u P (A3) C s .
        Applying this to (A4), we obtain
        Hence, the bound in (A2) is (A5) = x y z .
        Appendix A.2. Next
        Since (A5) is concave, it follows that x is 1.
        """)
    spec = [("A.1", r"^Appendix A\.1\. "), ("A.2", r"^Appendix A\.2\. ")]
    found = [f for name, first, lines in SCAN.regions(text, spec) for f in SCAN.scan_region(name, first, lines)]
    assert [(f.section, f.label) for f in found if f.kind == "display"] == [("A.1", "A2"), ("A.1", "A3"), ("A.1", "A5")]
    inferences = [f.text for f in found if f.kind == "inference"]
    assert any(t.startswith("Applying this to (A4)") for t in inferences)
    assert any(t.startswith("Since (A5) is concave") for t in inferences)
    entries = [{"kind": "display", "label": "A2"}, {"kind": "display", "label": "A3"},
               {"kind": "inference", "quote": "Applying this to (A4), we obtain"}]
    missing = SCAN.missing_from_index(found, entries)
    assert [f.label for f in missing if f.kind == "display"] == ["A5"]
    assert len([f for f in missing if f.kind == "inference"]) == 2
    assert SCAN.quotes_not_in_text(text, [{"id": "x", "quote": "not in this text at all"}]) == ["x"]


def _write(tmp_path, body):
    f = tmp_path / "x.toml"
    f.write_text(f'paper = "{CORE}"\n\n[[step]]\n' + textwrap.dedent(body))
    return f


BASE = 'id = "a"\nkind = "display"\nsection = "A.1"\nwhere = "w"\ntext = "t"\nserves = "lemmaA1"\n'


@pytest.mark.parametrize("body, message", [
    (BASE, "exactly one of"),
    (BASE + 'not_checkable = " "\n', "non-empty reason"),
    (BASE + 'claims = []\n', "'claims' is empty"),
    (BASE + 'claims = ["x"]\nuncovered = "y"\n', "exactly one of"),
    (BASE.replace('"display"', '"lemma"') + 'claims = ["x"]\n', "kind"),
    (BASE.replace('"display"', '"inference"') + 'claims = ["x"]\n', "quote"),
    (BASE + 'label = "(A1)"\nclaims = ["x"]\n', "label"),
    (BASE + 'claims = ["x"]\nfoo = 1\n', "unknown field"),
])
def test_malformed_entries_fail(tmp_path, monkeypatch, body, message):
    _write(tmp_path, body)
    monkeypatch.setattr(st, "INDEX_DIR", tmp_path)
    with pytest.raises(st.StepIndexError, match=message):
        st.steps()


def test_unknown_claims_unlisted_step_claims_and_unknown_statements_are_reported(tmp_path, monkeypatch):
    _write(tmp_path, BASE.replace('"lemmaA1"', '"no-such-statement"') + 'claims = ["no.such.claim"]\n')
    monkeypatch.setattr(st, "INDEX_DIR", tmp_path)
    problems = st.check_against({"rldp.steps.x.y"}, {CORE: {"lemmaA1"}})
    assert any("no.such.claim" in p and "not a registered claim" in p for p in problems)
    assert any("rldp.steps.x.y" in p and "listed by no step" in p for p in problems)
    assert any("no-such-statement" in p for p in problems)
    _write(tmp_path, BASE + 'cites = ["A999", "no-such-lemma", "A1"]\nclaims = ["rldp.steps.x.y"]\n')
    problems = st.check_against({"rldp.steps.x.y"}, {CORE: {"lemmaA1"}}, {CORE: {"A1"}})
    assert [p for p in problems if "cites" in p] == [
        "x.toml: step a cites (A999), which no display or equation entry has",
        "x.toml: step a cites 'no-such-lemma', which is not a statement of 000_aca93ed29ea857ee.txt"]


def test_coverage_counts(tmp_path, monkeypatch):
    _write(tmp_path, BASE + 'claims = ["c1"]\n' + textwrap.dedent('''
        [[step]]
        id = "b"
        kind = "inference"
        section = "A.2"
        where = "w"
        quote = "it follows that x"
        text = "t"
        serves = "lemmaA5"
        not_checkable = "a sentence of method"

        [[step]]
        id = "c"
        kind = "display"
        section = "A.2"
        where = "w"
        text = "t"
        serves = "lemmaA5"
        claims = ["c2"]

        [[step]]
        id = "d"
        kind = "inference"
        section = "A.2"
        where = "w"
        quote = "hence y is z here"
        text = "t"
        serves = "lemmaA5"
        uncovered = "to do"
        '''))
    monkeypatch.setattr(st, "INDEX_DIR", tmp_path)
    cov = st.coverage({"c1"})   # c2 is not registered: c does not count as checked
    p = cov["papers"][CORE]
    assert (p["steps"], p["displays"], p["inferences"], p["checked"], p["not_checkable"], p["unchecked"]) == (4, 2, 2, 1, 1, 2)
    assert p["coverage"] == round(1 / 3, 4)
    a2 = p["sections"]["A.2"]
    assert (a2["steps"], a2["checked"], a2["not_checkable"], a2["unchecked"]) == (3, 0, 1, 2)
    assert cov["rows"][-1][:2] == ["all papers", 4]


def test_proof_gap_is_a_finding_kind():
    assert "proof-gap" in KINDS
    o = Outcome.refuted("a step fails", counterexample={"x": 1}, kind="proof-gap")
    assert o.kind == "proof-gap"


# --- the step checks against wrong variants of their steps (mutation/steps_catalogue.py) -----------------


def _run(claim_id):
    from rldp_verify.claims import Context
    from rldp_verify.claims.runner import run_claim

    claim = {c.id: c for c in discover("proofs")}[claim_id]
    return run_claim(claim, Context())


def test_every_verified_step_claim_has_a_mutant(claim_ids):
    import json

    from mutation.steps_catalogue import STEP_MUTANTS

    pins = json.loads((ROOT / "proofs" / "pinned_verdicts.json").read_text())["claims"]
    step_claims = {c for c in claim_ids if ".steps." in c and pins[c]["verdict"] == "VERIFIED"}
    assert len(step_claims) >= 24
    assert {c for c in step_claims if not any(m.selects(c) for m in STEP_MUTANTS)} == set()


def _step_mutants():
    from mutation.steps_catalogue import STEP_MUTANTS

    return STEP_MUTANTS


@pytest.mark.parametrize("m", _step_mutants(), ids=lambda m: m.id)
def test_step_mutant_is_refuted_in_process(m):
    """Each wrong variant of a printed step makes one of its step claims REFUTED (in this process: the claims
    look their printed step up by name, so the patch reaches them; `make mutation` does the same in a fresh
    interpreter)."""
    from rldp_verify.claims.mutants import apply, revert

    ids = sorted(c.id for c in discover("proofs") if m.selects(c.id))
    assert ids, m.id
    done = apply(m, {})
    try:
        verdicts = {cid: _run(cid).verdict.value for cid in ids}
    finally:
        revert(done)
    assert "REFUTED" in verdicts.values(), verdicts
    assert "ERROR" not in verdicts.values(), verdicts


@pytest.mark.parametrize("claim_id, module, name, repaired", [
    ("rldp.steps.a2.xi-domain", "proofs.rldp.steps_appA2", "printed_root_domain", lambda rho: 1 / rho),
    ("rldp.steps.a4.w-extreme-value", "proofs.rldp.steps_appA4", "PRINTED_EXTREME", "minimal"),
    ("falpha.steps.appa.extreme-at-p0", "proofs.falpha.steps_appA_B", "PRINTED_EXTREME_AT_0", "minimum"),
    ("kairouz.steps.s8-2.eps-star", "proofs.kairouz.steps_sec7_8", "printed_eps_j_at_T", lambda: float("inf")),
])
def test_proof_gap_repair_holds(monkeypatch, claim_id, module, name, repaired):
    """The proof gaps: REFUTED as printed, VERIFIED with the repair their evidence names."""
    import importlib

    first = _run(claim_id)
    assert (first.verdict.value, first.kind) == ("REFUTED", "proof-gap")
    assert "repair" in first.evidence
    monkeypatch.setattr(importlib.import_module(module), name, repaired)
    assert _run(claim_id).verdict.value == "VERIFIED"


def test_misprint_repair_holds(monkeypatch):
    """Grosse et al.'s 'psi_alpha(0, t) = (1-t)^(1-alpha)': REFUTED misprint, VERIFIED with the - 1 its repair names."""
    import importlib

    first = _run("falpha.steps.appa.psi-at-p0")
    assert (first.verdict.value, first.kind) == ("REFUTED", "misprint")
    mod = importlib.import_module("proofs.falpha.steps_appA_B")
    monkeypatch.setattr(mod, "printed_psi_at_0", lambda a, t: (1 - t) ** (1 - a) - 1)
    assert _run("falpha.steps.appa.psi-at-p0").verdict.value == "VERIFIED"


def test_citation_repair_holds(monkeypatch):
    """PRAM's Lemma 5.1 cites (19) and (21): REFUTED misprint; with (12) and (14) cited, VERIFIED."""
    import importlib

    first = _run("pram.steps.app5-3.lemma5-1-citations")
    assert (first.verdict.value, first.kind) == ("REFUTED", "misprint")
    mod = importlib.import_module("proofs.pram.steps_app5")
    keys = list(mod.PRINTED_CITES)
    monkeypatch.setattr(mod, "PRINTED_CITES", {keys[0]: "12", keys[1]: "14"})
    assert _run("pram.steps.app5-3.lemma5-1-citations").verdict.value == "VERIFIED"


def test_superset_step_certificate_rejects_a_wrong_t():
    """kairouz.steps.s9-4.superset-bound's certificate (mu(P(T)) > mu(P(A)) for every strict superset A of T = {x*}):
    accepted by the independent checker at an instance of Claim 4, rejected when T is the lightest atom."""
    from fractions import Fraction as F

    from proofs.kairouz.steps_sec9_direct import _superset_certificate
    from rldp_verify.certificates import recheck

    assert recheck(_superset_certificate([F(7, 10), F(1, 10), F(1, 5)], F(1, 2))).ok
    assert not recheck(_superset_certificate([F(1, 10), F(7, 10), F(1, 5)], F(1, 2))).ok
