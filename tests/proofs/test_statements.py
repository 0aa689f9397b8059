"""The statement index (proofs/statements/*.toml, issue 12): form, consistency with the claims, the scan.

Fast: nothing here runs a claim.
"""

import importlib.util
import sys
import textwrap
from pathlib import Path

import pytest

import proofs.statements as st
from rldp_verify.claims import discover
from rldp_verify.claims.catalogue import Catalogue

ROOT = Path(__file__).resolve().parents[2]


def _scan_module():
    spec = importlib.util.spec_from_file_location("scan_statements", ROOT / "scripts" / "scan_statements.py")
    mod = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = mod  # its dataclass needs the module registered
    spec.loader.exec_module(mod)
    return mod


SCAN = _scan_module()
SEEDS = SCAN.default_seeds()

@pytest.fixture(scope="module")
def claim_ids():
    return {c.id for c in discover("proofs")}


def test_index_files_parse_and_are_well_formed():
    ss = st.statements()  # raises on a malformed entry
    papers = {s.paper for s in ss}
    assert papers == set(Catalogue.load("proofs").titles())   # every registered paper is indexed
    for s in ss:
        assert s.status in ("covered", "not-checkable", "uncovered")
        if s.status == "not-checkable":
            assert s.not_checkable.strip()
        if s.status == "uncovered":
            assert s.uncovered.strip()


def test_every_listed_claim_exists_and_every_claim_names_a_statement(claim_ids):
    assert st.check_against_claims(claim_ids) == []


def test_no_entry_is_uncovered():
    """Issue 12's bar: every entry is covered by a claim or not checkable with a reason."""
    assert [f"{s.paper}: {s.id}" for s in st.statements() if s.status == "uncovered"] == []


@pytest.mark.skipif(not SEEDS.is_dir(), reason="seed texts (../shared/seeds) not found")
def test_scan_finds_nothing_missing_from_the_index():
    index = st.load_index()
    missing = []
    for paper, idx in index.items():
        missing += [f"{paper}: {it.label} (line {it.line})"
                    for it in SCAN.missing_from_index(SCAN.scan_paper(SEEDS / paper), idx["statement"])]
    assert missing == []


def test_scan_reports_a_missing_item():
    text = textwrap.dedent("""\
        Theorem 3.
        Let x be fine. Then
        $$ a = b \\quad (7) $$
        A display with a label (8)
        Lemma 4 follows from Theorem 3.
        Figure 2: a caption.
        """)
    items = SCAN.scan_text(text)
    assert {it.label for it in items} == {"Theorem 3", "Figure 2", "eq. (7)", "eq. (8)"}
    entries = [{"label": "Theorem 3", "equations": ["7-8"]}]
    assert [it.label for it in SCAN.missing_from_index(items, entries)] == ["Figure 2"]
    assert SCAN.expand_equations("A1-A3") == ["A1", "A2", "A3"]
    with pytest.raises(ValueError):
        SCAN.expand_equations("3-A4")


def _write(tmp_path, body):
    f = tmp_path / "x.toml"
    f.write_text('paper = "000_aca93ed29ea857ee.txt"\n\n[[statement]]\n' + textwrap.dedent(body))
    return f


@pytest.mark.parametrize("body, message", [
    ('id = "a"\nkind = "sentence"\nwhere = "Sec. 1"\ntext = "t"\n', "exactly one of"),
    ('id = "a"\nkind = "sentence"\nwhere = "Sec. 1"\ntext = "t"\nnot_checkable = " "\n', "non-empty reason"),
    ('id = "a"\nkind = "sentence"\nwhere = "Sec. 1"\ntext = "t"\nuncovered = ""\n', "non-empty reason"),
    ('id = "a"\nkind = "sentence"\nwhere = "Sec. 1"\ntext = "t"\nclaims = []\n', "'claims' is empty"),
    ('id = "a"\nkind = "theorem"\nwhere = "Sec. 1"\ntext = "t"\nclaims = ["x"]\n', "needs a label"),
    ('id = "a"\nkind = "sentence"\nwhere = "Sec. 1"\ntext = "t"\nclaims = ["x"]\nuncovered = "y"\n', "exactly one of"),
    ('id = "a"\nkind = "sentence"\nwhere = "Sec. 1"\ntext = "t"\nclaims = ["x"]\nused_by = ["y"]\n', "used_by"),
    ('id = "a"\nkind = "poem"\nwhere = "Sec. 1"\ntext = "t"\nclaims = ["x"]\n', "kind"),
])
def test_malformed_entries_fail(tmp_path, monkeypatch, body, message):
    _write(tmp_path, body)
    monkeypatch.setattr(st, "INDEX_DIR", tmp_path)
    with pytest.raises(st.IndexError_, match=message):
        st.statements()


def test_unknown_or_unlisted_claims_are_reported(tmp_path, monkeypatch):
    _write(tmp_path, 'id = "a"\nkind = "sentence"\nwhere = "Sec. 1"\ntext = "t"\nclaims = ["no.such.claim"]\n')
    monkeypatch.setattr(st, "INDEX_DIR", tmp_path)
    problems = st.check_against_claims({"rldp.some.claim"})
    assert any("no.such.claim" in p and "not a registered claim" in p for p in problems)
    assert any("rldp.some.claim" in p and "listed by no statement" in p for p in problems)


def test_coverage_counts(tmp_path, monkeypatch):
    _write(tmp_path, '''\
        id = "a"
        kind = "sentence"
        where = "Sec. 1"
        text = "t"
        claims = ["c1"]

        [[statement]]
        id = "b"
        kind = "definition"
        label = "Definition 1"
        where = "Sec. 2"
        text = "t"
        not_checkable = "a definition"

        [[statement]]
        id = "c"
        kind = "sentence"
        where = "Sec. 3"
        text = "t"
        uncovered = "to do"

        [[statement]]
        id = "d"
        kind = "sentence"
        where = "Sec. 4"
        text = "t"
        claims = ["c2"]
        ''')
    monkeypatch.setattr(st, "INDEX_DIR", tmp_path)
    cov = st.coverage({"c1"})  # c2 is not registered: d does not count as covered
    p = cov["papers"]["000_aca93ed29ea857ee.txt"]
    assert (p["statements"], p["covered"], p["not_checkable"], p["uncovered"]) == (4, 1, 1, 2)
    assert p["uncovered_names"] == ["c (Sec. 3)", "d (Sec. 4)"]
    assert p["coverage"] == round(1 / 3, 4)
    assert cov["total"]["statements"] == 4


def test_report_has_coverage_table(tmp_path, claim_ids):
    import json

    from rldp_verify import report

    cov = st.coverage(claim_ids)
    assert cov["rows"][-1][:2] == ["all papers", cov["total"]["statements"]]
    doc = report.build([], report.environment(50, 1, False))
    doc["coverage"] = cov
    paths = report.write(doc, tmp_path)
    md = next(p for p in paths if p.suffix == ".md").read_text()
    assert "## Coverage" in md and "| all papers | " + str(cov["total"]["statements"]) in md
    assert "id='coverage'" in next(p for p in paths if p.suffix == ".html").read_text()
    assert json.loads(next(p for p in paths if p.suffix == ".json").read_text())["coverage"] == cov
