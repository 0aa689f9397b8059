"""``verification.html``: one self-contained page (CSS and JavaScript inline, no network).

Findings first (REFUTED by kind, then INCONCLUSIVE: the paper's words, ours, the counterexample, a link
to the claim), a per-paper summary, the coverage slot (issue 12), every claim in the paper's order with
an anchor, a link to its source file and line, readable formulas and evidence tables; the tool's own
checks apart; benchmarks; the environment in a collapsed block at the end. A table of contents and a
filter by paper / verdict / kind / text (plain JavaScript in the page).
"""

from __future__ import annotations

import html
import json
import os
from importlib import resources
from pathlib import Path

from rldp_verify.report import model
from rldp_verify.report.model import KIND_TITLES, KINDS, VERDICTS, anchor, pretty, slug

e = html.escape


def _asset(name: str) -> str:
    return resources.files("rldp_verify.report").joinpath("assets", name).read_text()


def _source_href(c: dict, out_dir: Path | None) -> str | None:
    """A relative link from the report to the claim's source file, when the file is found."""
    f = c.get("file")
    if not f or out_dir is None:
        return None
    root = Path(__file__).resolve().parents[2]
    for base in (Path.cwd(), root):
        p = base / f
        if p.is_file():
            return os.path.relpath(p.resolve(), Path(out_dir).resolve())
    return None


# ------------------------------------------------------------------ evidence as tables

def _scalar(v) -> str:
    if isinstance(v, bool):
        return "yes" if v else "no"
    if v is None:
        return "—"
    text = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    if len(text) > 600:
        return f"<details><summary>{e(text[:120])}… ({len(text)} characters)</summary><code>{e(text)}</code></details>"
    return f"<code>{e(text)}</code>" if not isinstance(v, str) or len(text) < 60 else e(text)


def _is_scalar(v) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _value(v, depth: int = 0, rows: int = 50) -> str:
    if _is_scalar(v):
        return _scalar(v)
    if depth >= 3:
        return _scalar(json.dumps(v, ensure_ascii=False))
    if isinstance(v, dict):
        if not v:
            return "—"
        rows = "".join(f"<tr><th>{e(str(k))}</th><td>{_value(x, depth + 1)}</td></tr>" for k, x in v.items())
        return f"<table class='ev'>{rows}</table>"
    if isinstance(v, list):
        if not v:
            return "—"
        if all(_is_scalar(x) for x in v):
            shown = ", ".join(_scalar(x) for x in v[:40])
            return shown + (f", … ({len(v) - 40} more)" if len(v) > 40 else "")
        if all(isinstance(x, dict) for x in v):
            cols = list(dict.fromkeys(k for x in v for k in x))[:12]
            head = "".join(f"<th>{e(str(k))}</th>" for k in cols)
            body = "".join("<tr>" + "".join(f"<td>{_value(x.get(k), depth + 1)}</td>" for k in cols) + "</tr>"
                           for x in v[:rows])
            more = f"<tr><td colspan='{len(cols)}'>… {len(v) - rows} more rows</td></tr>" if len(v) > rows else ""
            return f"<table class='ev'><tr>{head}</tr>{body}{more}</table>"
        if all(isinstance(x, list) and all(_is_scalar(y) for y in x) for x in v):
            body = "".join("<tr>" + "".join(f"<td>{_scalar(y)}</td>" for y in x[:16]) + "</tr>" for x in v[:30])
            return f"<table class='ev'>{body}</table>"
        return "<ul>" + "".join(f"<li>{_value(x, depth + 1)}</li>" for x in v[:50]) + "</ul>"
    return _scalar(str(v))


def _evidence(c: dict) -> str:
    ev = c.get("evidence") or {}
    parts = []
    comps = ev.get("comparisons")
    if comps:
        rows = "".join(f"<tr><td>{e(str(x.get('label')))}</td><td>{e(str(x.get('printed')))}</td>"
                       f"<td>{e(str(x.get('ours')))}</td><td>{'yes' if x.get('agrees') else '<b>no</b>'}</td></tr>"
                       for x in comps)
        parts.append("<table class='ev'><tr><th>quantity</th><th>printed</th><th>ours</th><th>agrees</th></tr>"
                     f"{rows}</table>")
    if "counterexample" in ev:
        parts.append(f"<p><b>Counterexample</b></p>{_value(ev['counterexample'])}")
    rest = {k: v for k, v in ev.items() if k not in ("comparisons", "traceback", "figure", "counterexample", "kind")}
    if rest:
        parts.append(_value(rest))
    if ev.get("traceback"):
        parts.append(f"<pre>{e(str(ev['traceback']))}</pre>")
    if not parts:
        return ""
    return f"<div class='evidence'><p><b>Evidence</b></p>{''.join(parts)}</div>"


# ------------------------------------------------------------------ pieces

def _attrs(c: dict) -> str:
    return (f" data-claim='{e(c['id'])}' data-paper='{e(c['paper'])}' data-verdict='{c['verdict']}'"
            f" data-kind='{e(model.kind_of(c) or '')}'")


def _badge(v: str) -> str:
    return f"<span class='badge {v}'>{v}</span>"


def _finding(c: dict) -> str:
    ev = c.get("evidence") or {}
    ce = f"<dt>Counterexample</dt><dd>{_value(ev['counterexample'], rows=8)}</dd>" if "counterexample" in ev else ""
    kind = model.kind_of(c)
    return (f"<div class='finding'{_attrs(c)}><h4>{_badge(c['verdict'])} <a href='#{anchor(c['id'])}'>"
            f"<code>{e(c['id'])}</code></a> <span class='meta'>{e(c['source'])}"
            f"{' · kind: ' + e(kind) if kind else ''}</span></h4>"
            f"<dl><dt>The paper</dt><dd>{e(pretty(c['statement']))}</dd>"
            f"<dt>Ours</dt><dd>{e(pretty(c['summary']))}</dd>{ce}</dl></div>")


def _claim(c: dict, figs: dict[str, list[str]], out_dir: Path | None) -> str:
    href = _source_href(c, out_dir)
    loc = ""
    if c.get("file"):
        text = f"{c['file']}:{c['line']}"
        loc = f" · <a href='{e(href)}#L{c['line']}'><code>{e(text)}</code></a>" if href else f" · <code>{e(text)}</code>"
    short = pretty(c["summary"])
    short = short if len(short) <= 160 else short[:159] + "…"
    out = [f"<article class='claim' id='{anchor(c['id'])}'{_attrs(c)}><details>",
           f"<summary>{_badge(c['verdict'])} <code>{e(c['id'])}</code> <span class='meta'>{e(c['source'])}</span>"
           f"<br><span class='short'>{e(short)}</span></summary>",
           f"<p class='meta'>{e(c['method'])} · {c['seconds']:.2f} s{loc}</p>",
           f"<p><b>Statement.</b> {e(pretty(c['statement']))}</p>"]
    if c.get("hypotheses"):
        out.append("<p><b>Hypotheses.</b> " + "; ".join(e(pretty(h)) for h in c["hypotheses"]) + "</p>")
    if c.get("reading"):
        out.append(f"<p><b>Reading chosen.</b> {e(pretty(c['reading']))}</p>")
    kind = model.kind_of(c)
    out.append(f"<p><b>Finding.</b> {e(pretty(c['summary']))}{' <i>(kind: ' + e(kind) + ')</i>' if kind else ''}</p>")
    fig = (c.get("evidence") or {}).get("figure")
    if isinstance(fig, str) and fig:
        users = figs.get(fig, [])
        if users and users[0] == c["id"]:
            also = ", ".join(f"<a href='#{anchor(u)}'><code>{e(u)}</code></a>" for u in users[1:])
            out.append(f"<figure><img src='{e(fig)}' alt='figure of {e(c['id'])}'>"
                       f"<figcaption class='meta'>{e(fig)}{' — also cited by ' + also if also else ''}</figcaption></figure>")
        elif users:
            out.append(f"<p class='meta'>Figure: shown with <a href='#{anchor(users[0])}'><code>{e(users[0])}</code></a>.</p>")
    out.append(_evidence(c))
    out.append("</details></article>")
    return "".join(out)


def _table(columns, rows) -> str:
    head = "".join(f"<th>{e(str(x))}</th>" for x in columns)
    body = "".join("<tr>" + "".join(f"<td>{e(str(x))}</td>" for x in row) + "</tr>" for row in rows)
    return f"<table><tr>{head}</tr>{body}</table>"


def _notes(notes) -> str:
    notes = [notes] if isinstance(notes, str) else list(notes or [])
    return "<ul>" + "".join(f"<li>{e(str(n))}</li>" for n in notes) + "</ul>" if notes else ""


def _coverage(cov) -> str:
    """The coverage section (issue 12): a table ``{"columns", "rows", "notes"}`` or key/value pairs."""
    if isinstance(cov, dict) and "columns" in cov:
        inner = _table(cov["columns"], cov.get("rows", [])) + _notes(cov.get("notes"))
    else:
        inner = _value(cov)
    return f"<section id='coverage'><h2>Coverage</h2>{inner}</section>"


def _filter(doc: dict) -> str:
    papers = "".join(f"<option value='{e(p)}'>{e(t)}</option>" for p, t in doc["papers"].items())
    verdicts = "".join(f"<option>{v}</option>" for v in VERDICTS)
    kinds = "".join(f"<option value='{k}'>{e(KIND_TITLES[k])}</option>" for k in KINDS)
    return ("<form id='filter' onsubmit='return false'><b>Filter</b>"
            f"<label>paper <select id='f-paper'><option value=''>all</option>{papers}</select></label>"
            f"<label>verdict <select id='f-verdict'><option value=''>all</option>{verdicts}</select></label>"
            f"<label>kind <select id='f-kind'><option value=''>all</option>{kinds}</select></label>"
            "<label>text <input id='f-text' type='search' size='16'></label>"
            "<button type='button' id='f-reset'>reset</button><output id='f-count'></output></form>")


# ------------------------------------------------------------------ the page

def render(doc: dict, out_dir: Path | None = None) -> str:
    """The self-contained HTML report of ``doc``: findings first, the summary and coverage, every claim by
    paper, the tool's own checks, benchmarks, environment; a filter in plain JavaScript."""
    s = doc["summary"]
    figs = model.figures(doc)
    groups = model.findings(doc["claims"])
    papers = list(doc["papers"].items())
    split = {p: model.paper_claims(doc, p) for p, _ in papers}
    tool_all = [c for p, _ in papers for c in split[p][1]]

    toc = ["<li><a href='#findings'>Findings</a><ol>"]
    toc += [f"<li><a href='#findings-{key}'>{e(title)} ({len(cs)})</a></li>" for key, title, cs in groups]
    toc += ["</ol></li>", "<li><a href='#summary'>Summary by paper</a></li>"]
    if doc.get("coverage") is not None:
        toc.append("<li><a href='#coverage'>Coverage</a></li>")
    toc += [f"<li><a href='#paper-{slug(p)}'>{e(t)}</a></li>" for p, t in papers]
    if tool_all:
        toc.append("<li><a href='#tool-checks'>The tool's own consistency checks</a></li>")
    if doc.get("benchmarks"):
        toc.append("<li><a href='#benchmarks'>Benchmarks</a></li>")
    toc.append("<li><a href='#environment'>Environment</a></li>")

    out = ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
           "<meta name='viewport' content='width=device-width, initial-scale=1'>",
           "<title>rldp-verify verification report</title>", f"<style>{_asset('report.css')}</style></head><body>",
           "<header><h1>rldp-verify verification report</h1>",
           f"<p>{sum(s.values())} claims: " + ", ".join(f"{_badge(v)} {s[v]}" for v in VERDICTS) + "</p></header>",
           "<nav id='toc'><b>Contents</b><ol>" + "".join(toc) + "</ol></nav>", _filter(doc),
           "<section id='findings'><h2>Findings</h2>"]
    if not groups:
        out.append("<p>No claim was refuted or left inconclusive.</p>")
    for key, title, cs in groups:
        out.append(f"<section id='findings-{key}' data-group><h3>{e(title)} ({len(cs)})</h3>")
        for p, t in papers:
            pcs = [c for c in cs if c["paper"] == p]
            if pcs:
                out.append(f"<div data-group><p class='meta'>{e(t)}</p>" + "".join(_finding(c) for c in pcs) + "</div>")
        out.append("</section>")
    out.append("</section>")

    rows = []
    for paper, title, cnt in model.per_paper_counts(doc):
        rows.append(f"<tr><td><a href='#paper-{slug(paper)}'>{e(title)}</a></td>"
                    + "".join(f"<td>{cnt.get(v, 0)}</td>" for v in VERDICTS) + f"<td>{sum(cnt.values())}</td></tr>")
    rows.append("<tr><th>all</th>" + "".join(f"<th>{s[v]}</th>" for v in VERDICTS) + f"<th>{sum(s.values())}</th></tr>")
    out.append("<section id='summary'><h2>Summary by paper</h2><table class='counts'><tr><th>paper</th>"
               + "".join(f"<th>{v}</th>" for v in VERDICTS) + "<th>total</th></tr>" + "".join(rows) + "</table></section>")
    if doc.get("coverage") is not None:
        out.append(_coverage(doc["coverage"]))

    for p, t in papers:
        stmts, _ = split[p]
        out.append(f"<section id='paper-{slug(p)}' data-group><h2>{e(t)}</h2>"
                   f"<p class='meta'><code>{e(p)}</code> — {len(stmts)} claims in the paper's order (click a claim for its "
                   "statement, reading and evidence).</p>")
        out += [_claim(c, figs, out_dir) for c in stmts]
        out.append("</section>")
    if tool_all:
        out.append("<section id='tool-checks' data-group><h2>The tool's own consistency checks</h2>"
                   "<p>Checks of rldp-verify's machinery (e.g. the auditor's duality) against the papers' formulas; "
                   "not statements of the papers.</p>")
        out += [_claim(c, figs, out_dir) for c in tool_all]
        out.append("</section>")
    if doc.get("benchmarks"):
        out.append("<section id='benchmarks'><h2>Benchmarks</h2>")
        for b in doc["benchmarks"]:
            out.append(f"<h3>{e(str(b.get('title', '')))}</h3>" + _table(b.get("columns", []), b.get("rows", []))
                       + _notes(b.get("notes")))
        out.append("</section>")
    env = doc["environment"]
    pk = "".join(f"<tr><td>{e(k)}</td><td>{e(str(v))}</td></tr>" for k, v in env.get("packages", {}).items() if v)
    out.append("<section id='environment'><h2>Environment</h2><details><summary>Python, packages, precision, seed"
               f"</summary><p>Python {e(env['python'])} on {e(env['platform'])}; working precision {env['dps']} "
               f"digits; seed {env['seed']}; slow claims included: {env['include_slow']}.</p>"
               f"<table class='ev'><tr><th>package</th><th>version</th></tr>{pk}</table></details></section>")
    out.append(f"<script>{_asset('report.js')}</script></body></html>")
    return "\n".join(out) + "\n"
