"""The verification report: ``OUT/verification.{md,json,html}``.

The JSON holds ``{"schema_version", "summary": {verdict: count}, "environment": {...}, "papers":
{seed file: title}, "claims": [...], "benchmarks": [...]}`` (schema
``rldp_verify/schemas/report.schema.json``); an optional ``"coverage"`` entry (issue 12) is shown near
the top of the pages. Claims are in report order (papers in the order of ``titles``, each paper's
claims in the paper's own order as the proofs package gives it, ``order``) and the pages show them in the
document's order (so ``report --from-json`` keeps it); the environment names versions, precision and seed, so the same
inputs give the same report; only the ``seconds`` fields (timings) vary between runs.

The pages open with the findings (REFUTED grouped by kind, then INCONCLUSIVE), then a per-paper
summary, then every claim in the paper's order with the tool's own consistency checks apart
(:mod:`.model`); Markdown in :mod:`.markdown`, a self-contained HTML page (table of contents, filter,
anchors; no network) in :mod:`.html`. Paper titles come from the proofs package
(``proofs.papers.titles()``), never from the engine.

Benchmark tables are read from ``OUT/benchmarks/*.json`` (written by ``benchmarks/run.py``), each
``{"title", "columns", "rows", "notes"}``.
"""

from __future__ import annotations

import json
import platform
from collections import Counter
from importlib import metadata
from pathlib import Path

from rldp_verify.claims.core import Result, Verdict

VERDICTS = [v.value for v in Verdict]
SCHEMA_VERSION = 1


def environment(dps: int, seed: int, include_slow: bool) -> dict:
    """The report's environment record: Python, platform, package versions, dps, seed and include_slow."""
    pkgs: dict[str, str | None] = {}
    for name in ["rldp-verify", "numpy", "scipy", "sympy", "mpmath", "pycddlib", "python-flint",
                 "highspy", "hypothesis", "cvxpy", "clarabel", "pandas", "matplotlib"]:
        try:
            pkgs[name] = metadata.version(name)
        except metadata.PackageNotFoundError:
            pkgs[name] = None
    return {
        "python": platform.python_version(),
        "platform": platform.platform(terse=True),
        "packages": pkgs,
        "dps": dps,
        "seed": seed,
        "include_slow": include_slow,
    }


def build(results: list[Result], env: dict, benchmarks: list[dict] | None = None,
          titles: dict[str, str] | None = None, order: dict[str, list[str]] | None = None) -> dict:
    """The report document. ``titles`` maps a claim's ``paper`` (seed file) to its title, in report order
    (``proofs.papers.titles()``); papers not in it keep their file name and come last. ``order`` maps a
    paper to its claim ids in the paper's own order (``proofs.claim_order``, read from the statement
    index: sections, theorems, examples as the paper has them); claims it does not list follow, by id."""
    titles = titles or {}
    papers = list(titles)

    def paper_key(paper: str):
        return (papers.index(paper), "") if paper in papers else (len(papers), paper)

    claims = sort_claims([r.to_json() for r in results], paper_key, order)
    counts = Counter(c["verdict"] for c in claims)
    return {
        "schema_version": SCHEMA_VERSION,
        "summary": {v: counts.get(v, 0) for v in VERDICTS},
        "environment": env,
        "papers": {p: titles.get(p, p) for p in sorted({c["paper"] for c in claims}, key=paper_key)},
        "claims": claims,
        "benchmarks": benchmarks or [],
    }


def sort_claims(claims: list[dict], paper_key, order: dict[str, list[str]] | None, *,
                unlisted_by_id: bool = True) -> list[dict]:
    """``claims`` (JSON records) by paper (``paper_key``), then by their place in ``order[paper]``; claims
    that ``order`` does not list follow their paper's listed ones, by id (or, with ``unlisted_by_id=False``,
    in their present order)."""
    position = {(p, cid): i for p, ids in (order or {}).items() for i, cid in enumerate(ids)}

    def key(k_c):
        k, c = k_c
        i = position.get((c["paper"], c["id"]))
        return (paper_key(c["paper"]), (0, i, "") if i is not None else (1, 0 if unlisted_by_id else k, c["id"]))

    return [c for _, c in sorted(enumerate(claims), key=key)]


def reorder(doc: dict, order: dict[str, list[str]] | None) -> dict:
    """``doc`` with each paper's claims put in ``order`` (papers keep the document's order, claims that
    ``order`` does not list keep theirs, after the listed ones); used by ``report --from-json`` so that a
    re-rendered report follows the current statement index."""
    if not order:
        return doc
    papers = list(doc.get("papers") or {})

    def paper_key(paper: str):
        return (papers.index(paper), "") if paper in papers else (len(papers), paper)

    return {**doc, "claims": sort_claims(doc["claims"], paper_key, order, unlisted_by_id=False)}


def load_benchmarks(directory: Path) -> list[dict]:
    """The benchmark tables ``*.json`` of ``directory`` (sorted by name); an unreadable file becomes a table
    that says so."""
    out = []
    if directory.is_dir():
        for f in sorted(directory.glob("*.json")):
            try:
                out.append(json.loads(f.read_text()))
            except json.JSONDecodeError as exc:
                out.append({"title": f.name, "columns": [], "rows": [], "notes": f"unreadable: {exc}"})
    return out


def to_markdown(doc: dict, out_dir: Path | None = None) -> str:
    """The report ``doc`` rendered as Markdown (figures linked below ``out_dir``)."""
    from rldp_verify.report.markdown import render

    return render(doc, out_dir)


def to_html(doc: dict, out_dir: Path | None = None, mutation: str | None = None) -> str:
    """The report ``doc`` rendered as one self-contained HTML page (``mutation``: the Markdown of the
    mutation-testing section, shown before the environment and listed in the contents)."""
    from rldp_verify.report.html import render

    return render(doc, out_dir, mutation=mutation)


def mutation_markdown(directory: Path) -> str:
    """The 'Mutation testing' section, rendered from ``directory/mutation.json`` when `make mutation` wrote it."""
    from rldp_verify.claims.mutants import load_report, markdown_section

    lines = markdown_section(load_report(Path(directory) / "mutation.json"))
    return "\n".join(lines) + "\n" if lines else ""


def write(doc: dict, directory: Path) -> list[Path]:
    """Write verification.json, .md and .html to ``directory`` (created if needed); returns the paths."""
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / "verification.json", directory / "verification.md", directory / "verification.html"]
    paths[0].write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    mutation = mutation_markdown(directory)   # issue 9: the mutation-testing section, when reports/mutation.json exists
    paths[1].write_text(to_markdown(doc, directory) + ("\n" + mutation if mutation else ""))
    paths[2].write_text(to_html(doc, directory, mutation=mutation or None))
    return paths
