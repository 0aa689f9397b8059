"""``verification.md``: the per-paper summary and coverage, the findings, claims in the paper's order, the tool's
own checks apart, benchmarks, and the environment last (collapsed)."""

from __future__ import annotations

import json
from pathlib import Path

from rldp_verify.report import model
from rldp_verify.report.model import VERDICTS, anchor
from rldp_verify.report.model import pretty as _pretty


def _tag(m) -> str:
    tag = "sub" if m.group(1) == "_" else "sup"
    return f"<{tag}>{m.group(2)}</{tag}>"


def pretty(text) -> str:
    """:func:`~rldp_verify.report.model.pretty`, with ``_{...}`` / ``^{...}`` groups as ``<sub>`` / ``<sup>``
    (Markdown renders them; no TeX is left)."""
    from rldp_verify.report.html import _GROUP

    s = _pretty(text)
    for _ in range(3):
        s = _GROUP.sub(_tag, s)
    return s


def _cell(x) -> str:
    return str(x).replace("|", "\\|").replace("\n", " ")


def _value(v, limit: int = 300) -> str:
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def _counterexample(ce) -> list[str]:
    if isinstance(ce, list) and ce and all(isinstance(x, dict) for x in ce):
        cols = list(dict.fromkeys(k for x in ce for k in x))
        lines = ["", "  | " + " | ".join(cols) + " |", "  |" + "---|" * len(cols)]
        lines += ["  | " + " | ".join(_cell(_value(x.get(k, ""), 80)) for k in cols) + " |" for x in ce[:12]]
        if len(ce) > 12:
            lines.append(f"  | … {len(ce) - 12} more | " + " | " * (len(cols) - 1))
        return lines
    if isinstance(ce, dict):
        return [f"  - {k}: `{_value(v, 200)}`" for k, v in ce.items()]
    return [f"  `{_value(ce, 600)}`"]


def _finding(c: dict, follow: list[dict] | None = None) -> list[str]:
    out = [f"- **[{c['id']}](#{anchor(c['id'])})** — {pretty(c['source'])}",
           f"  - *Paper:* {pretty(c['statement'])}",
           f"  - *Ours:* {pretty(c['summary'])}"]
    ce = (c.get("evidence") or {}).get("counterexample")
    if ce is not None:
        out.append("  - *Counterexample:*")
        out += ["  " + line for line in _counterexample(ce)]
    if follow:
        out.append(f"  - *Also refuted by this finding ({len(follow)} claims, not counted again):* "
                   + ", ".join(f"[{f['id']}](#{anchor(f['id'])})" for f in follow))
    return out


def _evidence(c: dict) -> list[str]:
    ev = c.get("evidence") or {}
    lines = []
    comps = ev.get("comparisons")
    if comps:
        lines += ["", "  | quantity | printed | ours | agrees |", "  |---|---|---|---|"]
        lines += [f"  | {_cell(x.get('label'))} | {_cell(x.get('printed'))} | {_cell(x.get('ours'))} | "
                  f"{'yes' if x.get('agrees') else '**no**'} |" for x in comps]
    rest = {k: v for k, v in ev.items() if k not in ("comparisons", "traceback", "figure", "counterexample")}
    if rest:
        lines += ["", "  | evidence | value |", "  |---|---|"]
        lines += [f"  | {_cell(k)} | {_cell(_value(v))} |" for k, v in rest.items()]
    if "counterexample" in ev:
        lines += ["", "  Counterexample:"] + _counterexample(ev["counterexample"])
    if ev.get("traceback"):
        lines += ["", "  ```", *["  " + t for t in str(ev["traceback"]).splitlines()], "  ```"]
    return lines


def _claim(c: dict, figs: dict[str, list[str]]) -> list[str]:
    loc = f" — `{c['file']}:{c['line']}`" if c.get("file") else ""
    lines = [f'<a id="{anchor(c["id"])}"></a>', "", f"#### `{c['id']}` — {c['verdict']}", "",
             f"- **Source:** {pretty(c['source'])}{loc}",
             f"- **Statement:** {pretty(c['statement'])}"]
    if c.get("hypotheses"):
        lines.append(f"- **Hypotheses:** {pretty('; '.join(c['hypotheses']))}")
    if c.get("reading"):
        lines.append(f"- **Reading chosen:** {pretty(c['reading'])}")
    kind = model.kind_of(c)
    lines += [f"- **Method:** {c['method']} ({c['seconds']:.2f} s)",
              f"- **Finding:** {pretty(c['summary'])}" + (f" *(kind: {kind})*" if kind else "")]
    if c.get("certificate"):   # issue 23: report --certificates DIR
        lines.append(f"- **Certificate:** {_cell(c['certificate'])}")
    fig, also_ids, shown_by = model.figure_of(c, figs) or (None, [], None)
    if shown_by is not None:
        lines.append(f"- **Figure:** shown with [{shown_by}](#{anchor(shown_by)})")
    elif fig is not None:
        also = ", ".join(f"[{u}](#{anchor(u)})" for u in also_ids)
        lines += ["", f"  ![{fig}]({fig})"] + (["", f"  Also cited by {also}."] if also else [])
    lines += _evidence(c)
    lines.append("")
    return lines


def _claims_table(cs: list[dict]) -> list[str]:
    lines = ["| id | source | verdict | finding |", "|---|---|---|---|"]
    lines += [f"| [`{c['id']}`](#{anchor(c['id'])}) | {_cell(pretty(c['source']))} | **{c['verdict']}** | "
              f"{_cell(pretty(c['summary']))} |" for c in cs]
    return lines


def _coverage(cov, title: str = "Coverage") -> list[str]:
    """The coverage section (issue 12; the proof steps' of issue 30 with ``title``): a table
    ``{"columns", "rows", "notes"}`` or key/value pairs."""
    lines = [f"## {title}", ""]
    if isinstance(cov, dict) and "columns" in cov:
        lines += ["| " + " | ".join(map(str, cov["columns"])) + " |", "|" + "---|" * len(cov["columns"])]
        lines += ["| " + " | ".join(_cell(x) for x in row) + " |" for row in cov.get("rows", [])]
        notes = cov.get("notes") or []
        lines += [""] + [f"- {n}" for n in ([notes] if isinstance(notes, str) else notes)]
    elif isinstance(cov, dict):
        lines += [f"- **{k}:** {_value(v)}" for k, v in cov.items()]
    else:
        lines.append(_value(cov, 2000))
    return lines + [""]


def _head(doc: dict) -> list[str]:
    s = doc["summary"]
    lines = ["# rldp-verify verification report", "",
             f"{sum(s.values())} claims: " + ", ".join(f"{s[v]} {v}" for v in VERDICTS) + ".", ""]
    cert = doc.get("certificates")
    if cert:
        kinds = cert.get("kinds")
        lines += [f"Certificates (re-checked by the independent checker `rldp_verify_check`): {cert['re-checked']} "
                  f"claims re-checked, {cert['failed']} FAILED, {cert['none']} without one"
                  + (" (" + ", ".join(f"{k} {n}" for k, n in kinds.items()) + ")" if kinds else "") + ".", ""]
    bench = model.benchmark_certificates(doc)
    if bench:
        lines += [bench, ""]
    lines += ["## Summary by paper", "", "| paper | " + " | ".join(VERDICTS) + " | total |",
              "|---|" + "---|" * (len(VERDICTS) + 1)]
    for paper, title, cnt in model.per_paper_counts(doc):
        lines.append(f"| {_cell(title)} (`{paper}`) | " + " | ".join(str(cnt.get(v, 0)) for v in VERDICTS)
                     + f" | {sum(cnt.values())} |")
    lines += ["| **all** | " + " | ".join(f"**{s[v]}**" for v in VERDICTS) + f" | **{sum(s.values())}** |", ""]
    return lines


def _findings(doc: dict) -> list[str]:
    groups = model.findings(doc["claims"])
    follow = model.followers(doc["claims"])
    lines = ["## Findings", ""]
    refuted = sum(1 for c in doc["claims"] if c["verdict"] == "REFUTED")
    if refuted:
        n_follow = sum(len(v) for v in follow.values())
        lines += [f"{refuted} REFUTED claims make {refuted - n_follow} distinct findings: {n_follow} claims follow "
                  "from another claim's finding and are listed under it.", ""]
    if not groups:
        lines += ["No claim was refuted or left inconclusive.", ""]
    for _key, title, cs in groups:
        lines += [f"### {title} ({len(cs)})", ""]
        for p in doc["papers"]:
            pcs = [c for c in cs if c["paper"] == p]
            if pcs:
                lines += [f"*{doc['papers'][p]}*", ""]
                for c in pcs:
                    lines += _finding(c, follow.get(c["id"]))
                lines.append("")
    return lines


def _papers(doc: dict, figs) -> tuple[list[str], list[dict]]:
    lines: list[str] = []
    tool_all: list[dict] = []
    for paper, title in doc["papers"].items():
        stmts, tool = model.paper_claims(doc, paper)
        tool_all += tool
        lines += [f"## {title}", "", f"`{paper}` — claims in the paper's order.", ""]
        lines += _claims_table(stmts) + ["", "### Claims in detail", ""]
        for c in stmts:
            lines += _claim(c, figs)
    return lines, tool_all


def _benchmarks(benchmarks: list[dict]) -> list[str]:
    lines = ["## Benchmarks", ""]
    for b in benchmarks:
        lines += [f"### {b.get('title', '')}", ""]
        cols = b.get("columns", [])
        if cols:
            lines += ["| " + " | ".join(map(str, cols)) + " |", "|" + "---|" * len(cols)]
            lines += ["| " + " | ".join(_cell(x) for x in row) + " |" for row in b.get("rows", [])]
        notes = b.get("notes") or []
        lines += [""] + [f"- {n}" for n in ([notes] if isinstance(notes, str) else notes)] + [""]
    return lines


def render(doc: dict, out_dir: Path | None = None) -> str:
    """The Markdown report of ``doc``: the summary and coverage, the findings, every claim by paper, benchmarks,
    environment."""
    figs = model.figures(doc)
    lines = _head(doc)
    if doc.get("coverage") is not None:
        lines += _coverage(doc["coverage"])
    if doc.get("step_coverage") is not None:
        lines += _coverage(doc["step_coverage"], "Proof-step coverage")
    lines += _findings(doc)
    paper_lines, tool_all = _papers(doc, figs)
    lines += paper_lines
    if tool_all:
        lines += ["## The tool's own consistency checks", "",
                  "Checks of rldp-verify's machinery (e.g. the auditor's duality) against the papers' "
                  "formulas; not statements of the papers.", ""]
        lines += _claims_table(tool_all) + [""]
        for c in tool_all:
            lines += _claim(c, figs)
    if doc.get("benchmarks"):
        lines += _benchmarks(doc["benchmarks"])
    env = doc["environment"]
    lines += ["## Environment", "", "<details><summary>Python, packages, precision, seed</summary>", "",
              f"- Python {env['python']} on {env['platform']}",
              f"- working precision: {env['dps']} decimal digits; seed {env['seed']}; "
              f"slow claims included: {env['include_slow']}",
              "- packages: " + ", ".join(f"{k} {v}" for k, v in env["packages"].items() if v), "", "</details>", ""]
    return "\n".join(lines) + "\n"
