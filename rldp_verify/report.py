"""The verification report: ``reports/verification.{md,json,html}``.

The JSON holds ``{"summary": {verdict: count}, "environment": {...}, "claims": [...],
"benchmarks": [...]}``. Claims are ordered by paper and id and the environment names versions,
precision and seed, so the same inputs give the same report; only the ``seconds`` fields (timings)
vary between runs.

Benchmark tables are read from ``reports/benchmarks/*.json`` (written by ``benchmarks/run.py``), each
``{"title", "columns", "rows", "notes"}``.
"""

from __future__ import annotations

import html
import json
import platform
from collections import Counter
from importlib import metadata
from pathlib import Path

from rldp_verify.claims.core import Result, Verdict

VERDICTS = [v.value for v in Verdict]


def environment(dps: int, seed: int, include_slow: bool) -> dict:
    pkgs = {}
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
          titles: dict[str, str] | None = None) -> dict:
    """The report document. ``titles`` maps a claim's ``paper`` (seed file) to its title, in report order
    (``proofs.papers.titles()``); papers not in it keep their file name and come last."""
    titles = titles or {}
    order = list(titles)

    def _paper_key(paper: str) -> int:
        return order.index(paper) if paper in order else len(order)

    results = sorted(results, key=lambda r: (_paper_key(r.claim.paper), r.claim.id))
    counts = Counter(r.verdict.value for r in results)
    return {
        "summary": {v: counts.get(v, 0) for v in VERDICTS},
        "environment": env,
        "papers": {p: titles.get(p, p) for p in sorted({r.claim.paper for r in results}, key=_paper_key)},
        "claims": [r.to_json() for r in results],
        "benchmarks": benchmarks or [],
    }


def load_benchmarks(directory: Path) -> list[dict]:
    out = []
    if directory.is_dir():
        for f in sorted(directory.glob("*.json")):
            try:
                out.append(json.loads(f.read_text()))
            except json.JSONDecodeError as exc:
                out.append({"title": f.name, "columns": [], "rows": [], "notes": f"unreadable: {exc}"})
    return out


def _notes(notes) -> list[str]:
    if not notes:
        return []
    return [str(n) for n in notes] if isinstance(notes, (list, tuple)) else [str(notes)]


def _short(ev: dict, limit: int = 400) -> str:
    parts = []
    for k, v in ev.items():
        if k in ("comparisons", "traceback"):
            continue
        s = json.dumps(v, ensure_ascii=False) if not isinstance(v, str) else v
        parts.append(f"{k}={s}")
    text = "; ".join(parts)
    return text if len(text) <= limit else text[: limit - 1] + "…"


def to_markdown(doc: dict) -> str:
    lines = ["# rldp-verify verification report", ""]
    s = doc["summary"]
    lines += ["## Summary", "", "| verdict | claims |", "|---|---|"]
    lines += [f"| {v} | {s[v]} |" for v in VERDICTS]
    lines += ["", f"Total: {sum(s.values())} claims.", ""]
    env = doc["environment"]
    lines += ["## Environment", "", f"- Python {env['python']} on {env['platform']}",
              f"- working precision: {env['dps']} decimal digits; seed {env['seed']}; slow claims included: {env['include_slow']}",
              "- packages: " + ", ".join(f"{k} {v}" for k, v in env["packages"].items() if v), ""]
    for paper, title in doc["papers"].items():
        cl = [c for c in doc["claims"] if c["paper"] == paper]
        cnt = Counter(c["verdict"] for c in cl)
        lines += [f"## {title}", "", f"`{paper}` — " + ", ".join(f"{v} {cnt.get(v, 0)}" for v in VERDICTS), "",
                  "| id | source | verdict | method | seconds | summary |", "|---|---|---|---|---|---|"]
        for c in cl:
            lines.append(f"| `{c['id']}` | {c['source']} | **{c['verdict']}** | {c['method']} | {c['seconds']:.2f} | "
                         + c["summary"].replace("|", "\\|").replace("\n", " ") + " |")
        lines.append("")
        lines.append("### Claims in detail")
        lines.append("")
        for c in cl:
            lines += [f"#### `{c['id']}` — {c['verdict']}", "",
                      f"- **Source:** {c['source']}",
                      f"- **Statement:** {c['statement']}"]
            if c["hypotheses"]:
                lines.append(f"- **Hypotheses:** {'; '.join(c['hypotheses'])}")
            if c["reading"]:
                lines.append(f"- **Reading chosen:** {c['reading']}")
            lines += [f"- **Method:** {c['method']} ({c['seconds']:.2f} s)",
                      f"- **Finding:** {c['summary']}"]
            comps = c["evidence"].get("comparisons")
            if comps:
                lines += ["", "  | quantity | printed | ours | agrees |", "  |---|---|---|---|"]
                lines += [f"  | {x['label']} | {x['printed']} | {x['ours']} | {'yes' if x['agrees'] else '**no**'} |" for x in comps]
            fig = c["evidence"].get("figure")
            if isinstance(fig, str) and fig:
                lines += ["", f"  ![{c['id']}]({fig})"]
            ev = _short(c["evidence"], 1200)
            if ev:
                lines.append(f"- **Evidence:** {ev}")
            lines.append("")
    if doc["benchmarks"]:
        lines += ["## Benchmarks", ""]
        for b in doc["benchmarks"]:
            lines += [f"### {b.get('title', '')}", ""]
            cols = b.get("columns", [])
            if cols:
                lines += ["| " + " | ".join(map(str, cols)) + " |", "|" + "---|" * len(cols)]
                lines += ["| " + " | ".join(map(str, row)) + " |" for row in b.get("rows", [])]
            if b.get("notes"):
                lines += [""] + [f"- {n}" for n in _notes(b["notes"])]
            lines.append("")
    return "\n".join(lines) + "\n"


_CSS = """body{font-family:system-ui,sans-serif;max-width:1200px;margin:2em auto;padding:0 1em;color:#222}
table{border-collapse:collapse;margin:1em 0}td,th{border:1px solid #ccc;padding:3px 6px;vertical-align:top;font-size:90%}
.VERIFIED{background:#e3f6e3}.REFUTED{background:#fde2e2}.INCONCLUSIVE{background:#fff5d6}.ERROR{background:#e6e6e6}
code{font-size:90%}details{margin:.3em 0}pre{white-space:pre-wrap;font-size:85%}"""


def to_html(doc: dict) -> str:
    e = html.escape
    s = doc["summary"]
    out = ["<!doctype html><html><head><meta charset='utf-8'><title>rldp-verify verification report</title>",
           f"<style>{_CSS}</style></head><body><h1>rldp-verify verification report</h1>",
           "<h2>Summary</h2><table><tr><th>verdict</th><th>claims</th></tr>"]
    out += [f"<tr class='{v}'><td>{v}</td><td>{s[v]}</td></tr>" for v in VERDICTS]
    out.append("</table>")
    env = doc["environment"]
    out.append(f"<h2>Environment</h2><pre>{e(json.dumps(env, indent=1))}</pre>")
    for paper, title in doc["papers"].items():
        out.append(f"<h2>{e(title)}</h2><p><code>{e(paper)}</code></p><table>"
                   "<tr><th>id</th><th>source</th><th>verdict</th><th>method</th><th>s</th><th>finding and evidence</th></tr>")
        for c in (c for c in doc["claims"] if c["paper"] == paper):
            ev = e(json.dumps(c["evidence"], indent=1, ensure_ascii=False))
            extra = f"<br><i>Reading chosen:</i> {e(c['reading'])}" if c["reading"] else ""
            fig = c["evidence"].get("figure")
            if isinstance(fig, str) and fig:
                extra += f"<br><img src='{e(fig)}' alt='{e(c['id'])}' style='max-width:700px'>"
            out.append(f"<tr class='{c['verdict']}'><td><code>{e(c['id'])}</code></td><td>{e(c['source'])}</td>"
                       f"<td><b>{c['verdict']}</b></td><td>{e(c['method'])}</td><td>{c['seconds']:.2f}</td>"
                       f"<td><b>Statement:</b> {e(c['statement'])}{extra}<br><b>Finding:</b> {e(c['summary'])}"
                       f"<details><summary>evidence</summary><pre>{ev}</pre></details></td></tr>")
        out.append("</table>")
    if doc["benchmarks"]:
        out.append("<h2>Benchmarks</h2>")
        for b in doc["benchmarks"]:
            out.append(f"<h3>{e(str(b.get('title', '')))}</h3><table><tr>"
                       + "".join(f"<th>{e(str(c))}</th>" for c in b.get("columns", [])) + "</tr>")
            out += ["<tr>" + "".join(f"<td>{e(str(x))}</td>" for x in row) + "</tr>" for row in b.get("rows", [])]
            out.append("</table><ul>" + "".join(f"<li>{e(n)}</li>" for n in _notes(b.get("notes"))) + "</ul>")
    out.append("</body></html>")
    return "\n".join(out) + "\n"


def write(doc: dict, directory: Path) -> list[Path]:
    directory.mkdir(parents=True, exist_ok=True)
    paths = [directory / "verification.json", directory / "verification.md", directory / "verification.html"]
    paths[0].write_text(json.dumps(doc, indent=1, ensure_ascii=False) + "\n")
    paths[1].write_text(to_markdown(doc))
    paths[2].write_text(to_html(doc))
    return paths
