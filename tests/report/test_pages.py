"""Issue 13: the report opens with the summary and the findings, orders claims as the paper does, shows each
figure once. Issue 29: the summary and coverage come first (short), then the findings."""

import json
import re
import subprocess
import sys
from pathlib import Path

from rldp_verify.report import model
from tests.report.helpers import P0, P1, TITLES, make_report

ROOT = Path(__file__).resolve().parents[2]


def test_summary_then_findings_grouped_by_kind(tmp_path):
    make_report(tmp_path)
    md = (tmp_path / "verification.md").read_text()
    heads = [h for h in re.findall(r"^##+ .*$", md, re.M)]
    assert heads[:2] == ["## Summary by paper", "## Findings"]
    order = [h for h in heads if h.startswith("### ")][:4]
    assert order == ["### Checks that failed to run (ERROR) (1)", "### REFUTED — False statements (1)",
                     "### REFUTED — Printed numbers not reproduced (1)", "### INCONCLUSIVE (1)"]
    assert md.index("## Summary by paper") < md.index("## Findings") < md.index("## " + TITLES[P0])
    # each finding: the paper's words, ours, the counterexample and a link to the claim
    block = md.split("### REFUTED — False statements")[1].split("###")[0]
    assert "*Paper:*" in block and "*Ours:*" in block and "*Counterexample:*" in block
    assert "(#claim-rldp.thm1.false)" in block and '<a id="claim-rldp.thm1.false"></a>' in md
    assert "D_α(P||Q) ≤ B" in block  # readable formulas


def test_paper_order_and_tool_checks_apart(tmp_path):
    doc = make_report(tmp_path)
    stmts, tool = model.paper_claims(doc, P0)
    assert [c["id"] for c in stmts] == ["rldp.example1.ok", "rldp.thm1.false", "rldp.example2.number",
                                        "rldp.sec8.figure", "rldp.sec8.figure-again"]
    assert [c["id"] for c in tool] == ["rldp.audit.dual"]
    assert list(doc["papers"]) == [P0, P1] and doc["papers"][P1] == TITLES[P1]
    md = (tmp_path / "verification.md").read_text()
    assert md.index("## The tool's own consistency checks") > md.index("## " + TITLES[P1])


def test_order_comes_from_the_given_index_not_the_source_string(tmp_path):
    """build() follows the paper's order given by the proofs package; the claims' source strings are not
    consulted (here "Sec. 8.2" of rldp.sec8.figure would sort before nothing else by text)."""
    from rldp_verify import report
    from rldp_verify.claims import Context
    from rldp_verify.claims.runner import run_claims
    from tests.report.helpers import claims

    res = run_claims(claims(), Context(out_dir=str(tmp_path)))
    rev = {P0: ["rldp.sec8.figure", "rldp.example2.number", "rldp.thm1.false", "rldp.example1.ok"]}
    doc = report.build(res, report.environment(50, 1, False), None, TITLES, order=rev)
    stmts, _ = model.paper_claims(doc, P0)
    assert [c["id"] for c in stmts] == rev[P0] + ["rldp.sec8.figure-again"]   # unlisted: after, by id
    doc = report.build(res, report.environment(50, 1, False), None, TITLES)         # no order: by id
    assert [c["id"] for c in model.paper_claims(doc, P1)[0]] == ["kairouz.lemma2.ok", "kairouz.thm8.boom"]
    assert [c["id"] for c in model.paper_claims(doc, P0)[0]][0] == "rldp.example1.ok"


def test_html_page_structure(tmp_path):
    make_report(tmp_path)
    page = (tmp_path / "verification.html").read_text()
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)" in page
    assert page.count("<img ") == 1  # the figure cited by two claims is shown once
    assert "shown with <a href='#claim-rldp.sec8.figure'>" in page
    assert "<nav id='toc'>" in page and "id='f-paper'" in page and "http://" not in page.split("<style>")[1]
    assert page.index("id='summary'") < page.index("id='findings'") < page.index("id='mutation'") < page.index("id='environment'")
    assert "<details><summary>Python, packages" in page
    assert "tests/report/helpers.py:" in page and "href='" in page.split("tests/report/helpers.py:")[0][-300:]
    assert "{}" not in re.sub(r"<(script|style)>.*?</\1>", "", page, flags=re.S)  # no empty evidence boxes
    for anchor in re.findall(r"href='#([^']+)'", page):
        assert f"id='{anchor}'" in page, anchor


def test_coverage_slot(tmp_path):
    doc = make_report(tmp_path)
    doc["coverage"] = {"columns": ["paper", "statements", "checked"], "rows": [["000", 40, 38]], "notes": ["n"]}
    from rldp_verify import report

    page, md = report.to_html(doc, tmp_path), report.to_markdown(doc, tmp_path)
    assert page.index("id='summary'") < page.index("id='coverage'") < page.index("id='findings'") < page.index("id='paper-")
    assert md.index("## Summary by paper") < md.index("## Coverage") < md.index("## Findings") < md.index("## " + TITLES[P0])


def test_from_json_renders_the_same(tmp_path):
    make_report(tmp_path)
    before = (tmp_path / "verification.md").read_text()
    out = subprocess.run([sys.executable, "-m", "rldp_verify", "report", "--from-json", "--out", str(tmp_path)],
                         cwd=ROOT, capture_output=True, text=True)
    assert out.returncode == 1, out.stderr  # the sample has one ERROR claim
    assert "kairouz.thm8.boom" in out.stderr
    assert (tmp_path / "verification.md").read_text() == before
    json.loads((tmp_path / "verification.json").read_text())


def test_from_json_puts_claims_in_the_index_order(tmp_path):
    """A report written in another order (e.g. by an older version) is re-rendered in the statement index's."""
    from rldp_verify import report

    doc = make_report(tmp_path)
    doc["claims"] = list(reversed(doc["claims"]))
    order = {P0: ["rldp.sec8.figure", "rldp.example1.ok"]}
    again = report.reorder(doc, order)
    ids = [c["id"] for c in again["claims"] if c["paper"] == P0]
    rest = [c["id"] for c in doc["claims"] if c["paper"] == P0 and c["id"] not in order[P0]]
    assert ids == order[P0] + rest                       # listed first in the index's order, the rest as they were
    assert [c["paper"] for c in again["claims"]] == sorted((c["paper"] for c in doc["claims"]), key=list(doc["papers"]).index)
    assert report.reorder(doc, None) is doc


def test_wide_benchmark_table_is_a_summary_with_the_full_table_collapsed(tmp_path):
    from rldp_verify.report import html

    make_report(tmp_path)
    page = (tmp_path / "verification.html").read_text()
    bench = page.split("<h3>Wide and long</h3>")[1].split("</section>")[0]
    summary, full = bench.split("<details class='full'>")
    assert f"Summary: 8 of 19 columns, the first {html.SUMMARY_ROWS} of 43 rows" in summary
    assert summary.count("<tr>") == html.SUMMARY_ROWS + 1 and "<th>certified</th>" not in summary   # nested lists stay in the full table
    assert "[1.91481, 1.91489]" in summary and "4.52506e-05" in summary
    assert "the full table (43 rows × 19 columns)" in full and full.count("<tr>") == 44
    assert "60.066" in full
    assert html._summary_columns({"columns": ["a", "b", "c"], "rows": [[1, 2, 3]], "summary_columns": ["c", "a"]}) == [2, 0]
    assert html._short("x" * html.SUMMARY_CELL) == "x" * html.SUMMARY_CELL        # a summary cell is cut, not the full table's
    assert html._short("y" * 100).endswith("…") and len(html._short("y" * 100)) == html.SUMMARY_CELL


def test_prose_formulas_become_sub_and_superscripts():
    from rldp_verify.report.html import text

    assert text("F^{-1}_{chi2,a-1}(1-beta)") == "F<sup>-1</sup><sub>χ2,a-1</sub>(1-β)"
    assert text("L_{u1|s1} <= B_s, D_alpha(P||Q), e^(B_s) - 1") == (
        "L<sub>u1|s1</sub> ≤ B<sub>s</sub>, D<sub>α</sub>(P||Q), e<sup>B<sub>s</sub></sup> - 1")
    assert text("ctx.np_rng(salt) and rldp.sec8.adult_grr <b>") == "ctx.np_rng(salt) and rldp.sec8.adult_grr &lt;b&gt;"
    assert text("x" * 150 + " L_{u|s}", 155).endswith(" L…")   # never cut inside a group


def test_pretty_leaves_module_names_alone():
    from rldp_verify.report.model import pretty

    assert pretty("rldp_verify.rldp.gamma and D_alpha(P) for gamma.") == "rldp_verify.rldp.gamma and D_α(P) for γ."


def _refuted(cid, kind="false", root=None, paper="000_aca93ed29ea857ee.txt"):
    return {"id": cid, "paper": paper, "verdict": "REFUTED", "kind": kind, "root": root, "source": "Example 2",
            "statement": "s", "hypotheses": [], "reading": "r", "method": "exact", "slow": False, "module": "m",
            "file": "proofs/m.py", "line": 1, "summary": "ours", "evidence": {}, "seconds": 0.0}


def test_one_finding_counted_once():
    from rldp_verify.report import html, markdown

    claims = [_refuted("rldp.example2.radii"), _refuted("rldp.example2.L", "wrong-number", "rldp.example2.radii"),
              _refuted("rldp.example3.inputs", "wrong-number", "rldp.example2.radii"),
              # its root is not REFUTED: a finding of its own
              _refuted("rldp.other", root="rldp.verified.claim"),
              {**_refuted("rldp.verified.claim"), "verdict": "VERIFIED", "kind": None}]
    follow = model.followers(claims)
    assert [c["id"] for c in follow["rldp.example2.radii"]] == ["rldp.example2.L", "rldp.example3.inputs"]
    assert [c["id"] for c in model.distinct_findings(claims)] == ["rldp.example2.radii", "rldp.other"]
    groups = model.findings(claims)
    assert [(k, [c["id"] for c in cs]) for k, _, cs in groups] == [("refuted-false", ["rldp.example2.radii", "rldp.other"])]
    doc = {"summary": {"VERIFIED": 1, "REFUTED": 4, "INCONCLUSIVE": 0, "ERROR": 0},
           "papers": {"000_aca93ed29ea857ee.txt": "Paper Zero"}, "claims": claims, "benchmarks": [],
           "environment": {"python": "3", "platform": "x", "packages": {}, "dps": 30, "seed": 0, "include_slow": False}}
    md = markdown.render(doc)
    assert "4 REFUTED claims make 2 distinct findings: 2 claims follow" in md
    assert "*Also refuted by this finding (2 claims, not counted again):* [rldp.example2.L]" in md
    page = html.render(doc)
    assert "4 REFUTED claims make 2 distinct findings" in page and page.count("more claims refuted by this finding") == 1
