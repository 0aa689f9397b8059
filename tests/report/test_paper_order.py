"""Issue 13: the report lists each paper's claims in the paper's own order, taken from the statement index
(proofs/statements/*.toml via proofs.claim_order), not guessed from the claims' source strings; the tool's
own consistency claims stay in their separate part. Nothing here runs a claim (the verdicts are stand-ins)."""

import re
from itertools import pairwise

import pytest

import proofs
from rldp_verify import report
from rldp_verify.claims import discover
from rldp_verify.claims.core import Result, Verdict
from rldp_verify.report import model

P000 = "000_aca93ed29ea857ee.txt"
P004 = "004_3b35ffa09c03afc4.txt"


@pytest.fixture(scope="module")
def pages(tmp_path_factory):
    from proofs.papers import titles

    claims = discover("proofs")
    results = [Result(c, Verdict.VERIFIED, "stand-in", {}, 0.0) for c in claims]
    ids = [c.id for c in claims]
    doc = report.build(results, report.environment(50, 1, False), None, titles(), order=proofs.claim_order(ids))
    out = tmp_path_factory.mktemp("order")
    report.write(doc, out)
    return doc, (out / "verification.md").read_text(), (out / "verification.html").read_text()


def _positions(text, pattern):
    return [m.start() for m in re.finditer(pattern, text)]


def _placed(doc, which):
    """Claim ids of paper 000 placed at the index entries selected by ``which`` (a claim is placed at the
    first entry of its paper that lists it), without the tool's own checks."""
    from proofs.statements import statements

    seen, out = set(), []
    for s in statements():
        if s.paper != P000:
            continue
        new = [c for c in s.claims if c.startswith("rldp.") and c not in seen]
        seen.update(new)
        if which(s):
            out += [c for c in new if not model.is_tool_claim({"id": c, "source": _source(doc, c)})]
    return out


def _source(doc, cid):
    return next(c["source"] for c in doc["claims"] if c["id"] == cid)


@pytest.mark.parametrize("fmt", ["md", "html"])
def test_theorem1_before_lemma1_prop2_before_example2_before_sec5_and_thm4_before_sec8(pages, fmt):
    doc, md, html = pages
    text = md if fmt == "md" else html
    q = '"' if fmt == "md" else "'"

    def at(ids):             # positions of the claims' anchors (their entries in the paper's section)
        pos = [p for cid in ids for p in _positions(text, rf"id={q}claim-{re.escape(cid)}{q}")]
        assert len(pos) >= len(ids), ids
        return pos

    # the claims placed at these statements of the index (Sec. 4.1 Theorem 1; Sec. 4.3 Lemma 1, Proposition 2,
    # then Example 2 -- the old source-string sort put Example 2 first; Sec. 5 Theorem 2; Sec. 6 Theorem 4;
    # Sec. 8), the tool's own checks left out
    chain = [_placed(doc, lambda s: s.label == lab) for lab in
             ("Theorem 1", "Lemma 1", "Proposition 2", "Example 2", "Theorem 2", "Theorem 4")]
    chain.append(_placed(doc, lambda s: s.where.startswith("Sec. 8")))
    for a, b in pairwise(chain):
        assert a and b and max(at(a)) < min(at(b)), (a, b)
    at_audit = [c["id"] for c in doc["claims"] if c["id"].startswith("rldp.audit.")]
    # the tool's own checks (rldp.audit.*) are in their own part, after every paper's section
    head = "## The tool's own consistency checks" if fmt == "md" else "id='tool-checks'"
    last_paper = "## " + doc["papers"][list(doc["papers"])[-1]] if fmt == "md" else \
        f"id='paper-{model.slug(list(doc['papers'])[-1])}'"
    assert text.index(last_paper) < text.index(head) < min(at(at_audit))


def test_each_paper_follows_its_statement_index(pages):
    doc, md, _ = pages
    order = proofs.claim_order([c["id"] for c in doc["claims"]])
    for paper in doc["papers"]:
        stmts, tool = model.paper_claims(doc, paper)
        listed = [cid for cid in order[paper] if not model.is_tool_claim(next(c for c in doc["claims"] if c["id"] == cid))]
        ids = [c["id"] for c in stmts]
        # the claims the index places come first, in its order; claims it does not place (e.g. the proof-step
        # claims of issue 30, indexed by proofs/steps/ rather than the statement index) follow them
        assert ids[: len(listed)] == listed, paper
        assert not set(ids[len(listed):]) & set(listed), paper
        assert all(model.is_tool_claim(c) for c in tool)
    # in the Markdown, the paper sections list the claims in that order too
    anchors = re.findall(r'<a id="claim-([^"]+)"></a>', md)
    k = [a for a in anchors if a.startswith("kairouz.")]
    listed_k = [cid for cid in order[P004] if cid in k]
    # the indexed claims first, in the index's order; the unindexed ones (Kairouz's proof-step claims) after them
    assert k[: len(listed_k)] == listed_k, "kairouz claims out of the index order"
    assert not set(k[len(listed_k):]) & set(listed_k)
