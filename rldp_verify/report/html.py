"""``verification.html``: one self-contained page (CSS and JavaScript inline, no network).

A per-paper summary and the coverage slot (issue 12) first, then the findings (REFUTED by kind, then
INCONCLUSIVE: the paper's words, ours, the counterexample, a link to the claim), every claim in the paper's
order with an anchor, a link to its source file and line, readable formulas and evidence tables; the tool's
own checks apart; benchmarks; the mutation-testing section; the environment in a collapsed block at the end.
A table of contents listing every section and a filter by paper / verdict / kind / text (plain JavaScript in
the page); the claim counts of the contents and headings follow the filter.

Readable at 1280 px to the end (issue 29): anchor targets land below the sticky filter bar; prose formulas
are Unicode with ``<sub>`` / ``<sup>`` (no TeX); no table is taller than two screens as the page opens or
with a claim opened — a benchmark table wider than :data:`WIDE_COLUMNS` or longer than :data:`LONG_ROWS`
is a summary with the full table in a collapsed block, long evidence shows its first rows (the rest
collapsed), records with the same keys become one table with a row each.
"""

from __future__ import annotations

import html
import json
import os
import re
from importlib import resources
from pathlib import Path

from rldp_verify.report import model
from rldp_verify.report.model import KIND_TITLES, KINDS, VERDICTS, anchor, pretty, slug

e = html.escape

# ``X_{...}`` / ``^{...}`` (TeX-style groups in the claims' prose) and short subscripts ``B_s``, ``D_α``
_GROUP = re.compile(r"([_^])\{([^{}]*)\}")
_SHORT_SUB = re.compile(r"(?<![A-Za-z0-9_.])([A-Za-zα-ωΑ-Ω]\u0302?)_"
                        r"(\([^()]{1,12}\)|[A-Za-z0-9α-ω]{1,2}\|[A-Za-z0-9α-ω]{1,2}"
                        r"|[A-Za-z0-9α-ω]{1,2}|[A-Za-z]\d)(?![A-Za-z0-9_{])")
_PAREN_SUP = re.compile(r"(?<![A-Za-z0-9_])e\^\(([^()]{1,20})\)")
_SHORT_SUP = re.compile(r"(?<=[A-Za-z0-9)])\^([A-Za-zα-ω]{1,3}|-?[A-Za-zα-ω0-9]{1,2})(?![A-Za-z0-9_{(])")


def text(s: str | None, limit: int | None = None) -> str:
    """Prose as HTML: the readable Unicode of :func:`~rldp_verify.report.model.pretty` (Greek, ≤, x²), then
    ``_{...}`` and ``^{...}`` groups and short subscripts (``B_s``) as ``<sub>`` / ``<sup>``, so that no TeX
    is left on the page. ``limit`` shortens the prose first (never inside a group)."""
    t = pretty(s)
    if limit is not None and len(t) > limit:
        t = t[: limit - 1]
        if t.rfind("{") > t.rfind("}"):
            t = t[: t.rfind("{")].rstrip("_^")
        t += "…"
    out = e(t)
    for _ in range(3):  # nested groups, innermost first
        new = _GROUP.sub(lambda m: f"<{'sub' if m.group(1) == '_' else 'sup'}>{m.group(2)}"
                         f"</{'sub' if m.group(1) == '_' else 'sup'}>", out)
        if new == out:
            break
        out = new
    out = _SHORT_SUB.sub(lambda m: f"{m.group(1)}<sub>{m.group(2).strip('()')}</sub>", out)
    out = _PAREN_SUP.sub(r"e<sup>\1</sup>", out)
    return _SHORT_SUP.sub(r"<sup>\1</sup>", out)


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
    shown = v if isinstance(v, str) else json.dumps(v, ensure_ascii=False)
    if len(shown) > 600:
        return (f"<details><summary>{e(shown[:120])}… ({len(shown)} characters)</summary>"
                f"<code>{e(shown)}</code></details>")
    return f"<code>{e(shown)}</code>" if not isinstance(v, str) or len(shown) < 60 else e(shown)


def _is_scalar(v) -> bool:
    return v is None or isinstance(v, (str, int, float, bool))


def _dict_value(v: dict, depth: int) -> str:
    if not v:
        return "—"
    recs = {k: x for k, x in v.items() if isinstance(x, dict) and x and all(_flat(y) for y in x.values())}
    inner = list(dict.fromkeys(c for x in recs.values() for c in x))
    if len(recs) >= 2 and len(inner) <= 12:
        # records with the same keys (e.g. eps -> {GRR, SRR, IR}): one row per record, one column per key;
        # the other entries in a key/value table beside it
        head = "<tr><th></th>" + "".join(f"<th>{e(str(c))}</th>" for c in inner) + "</tr>"
        body = "".join(f"<tr><th>{e(str(k))}</th>" + "".join(f"<td>{_cell(x.get(c))}</td>" for c in inner) + "</tr>"
                       for k, x in recs.items())
        others = {k: x for k, x in v.items() if k not in recs}
        return (_value(others, depth) if others else "") + f"<table class='ev pivot'>{head}{body}</table>"
    rows = "".join(f"<tr><th>{e(str(k))}</th><td>{_value(x, depth + 1)}</td></tr>" for k, x in v.items())
    return f"<table class='ev'>{rows}</table>"


def _list_value(v: list, depth: int, rows: int) -> str:
    if not v:
        return "—"
    if all(_is_scalar(x) for x in v):
        shown = ", ".join(_scalar(x) for x in v[:40])
        return shown + (f", … ({len(v) - 40} more)" if len(v) > 40 else "")
    if all(isinstance(x, dict) for x in v):
        return _records(v, depth, rows)
    if all(isinstance(x, list) and all(_is_scalar(y) for y in x) for x in v):
        body = "".join("<tr>" + "".join(f"<td>{_scalar(y)}</td>" for y in x[:16]) + "</tr>" for x in v[:30])
        return f"<table class='ev'>{body}</table>"
    return "<ul>" + "".join(f"<li>{_value(x, depth + 1)}</li>" for x in v[:50]) + "</ul>"


def _value(v, depth: int = 0, rows: int = 50) -> str:
    if _is_scalar(v):
        return _scalar(v)
    if depth >= 3:
        return _scalar(json.dumps(v, ensure_ascii=False))
    if isinstance(v, dict):
        return _dict_value(v, depth)
    if isinstance(v, list):
        return _list_value(v, depth, rows)
    return _scalar(str(v))


FIRST_ROWS = 10   # a longer list of records shows its first rows; the rest are in a collapsed block


def _cell(y) -> str:
    return _scalar(y) if _is_scalar(y) else _scalar(json.dumps(y, ensure_ascii=False))


def _flat(v) -> bool:
    """A scalar, or a list (of lists) of scalars: shown as compact text in a table cell."""
    return _is_scalar(v) or (isinstance(v, list) and all(_flat(x) and not isinstance(x, dict) for x in v))


def _records(v: list[dict], depth: int, rows: int) -> str:
    """A list of records: one table with a column per key when the values are flat (at most 12 columns),
    else one key/value table per record; past FIRST_ROWS records the rest sit in a collapsed block, so that
    an opened claim does not become a table thousands of pixels tall."""
    v = v[:rows]
    cols = list(dict.fromkeys(k for x in v for k in x))
    if all(_flat(y) for x in v for y in x.values()):
        cols = cols[:12]
        head = "<tr>" + "".join(f"<th>{e(str(k))}</th>" for k in cols) + "</tr>"

        def table(xs, start=0):
            return ("<table class='ev'>" + head + "".join("<tr>" + "".join(f"<td>{_cell(x.get(k))}</td>" for k in cols)
                                                          + "</tr>" for x in xs) + "</table>")
        first = FIRST_ROWS if depth == 0 else FIRST_ROWS // 2  # nested in a cell: several such tables side by side
    else:
        first = 3  # a record of nested tables is tall: the first three, the rest collapsed

        def table(xs, start=0):
            return ("<table class='ev items'>"
                    + "".join(f"<tr><th>{start + i + 1}</th><td>{_value(x, depth + 1)}</td></tr>"
                              for i, x in enumerate(xs)) + "</table>")
    if len(v) <= first + 2:
        return table(v)
    return (table(v[:first]) + f"<details class='full'><summary>{len(v) - first} more rows</summary>"
            f"<div class='scroll'>{table(v[first:], first)}</div></details>")


def _boxed(html: str) -> str:
    """A piece of evidence holding a table, in a scroll box of at most one screen (a few wide records wrap into
    a table taller than two screens: the 2,187 px counterexample of a finding, issue 29); text stays as it is."""
    return f"<div class='scroll'>{html}</div>" if "<table" in html else html


def _evidence(c: dict) -> str:
    ev = c.get("evidence") or {}
    parts = []
    comps = ev.get("comparisons")
    if comps:
        def table(xs):
            rows = "".join(f"<tr><td>{e(str(x.get('label')))}</td><td>{e(str(x.get('printed')))}</td>"
                           f"<td>{e(str(x.get('ours')))}</td><td>{'yes' if x.get('agrees') else '<b>no</b>'}</td></tr>"
                           for x in xs)
            return ("<table class='ev'><tr><th>quantity</th><th>printed</th><th>ours</th><th>agrees</th></tr>"
                    f"{rows}</table>")
        if len(comps) <= FIRST_ROWS + 2:
            parts.append(table(comps))
        else:  # the disagreements first, the rest collapsed
            comps = sorted(comps, key=lambda x: bool(x.get("agrees")))
            parts.append(table(comps[:FIRST_ROWS]) + f"<details class='full'><summary>{len(comps) - FIRST_ROWS} more "
                         f"comparisons</summary><div class='scroll'>{table(comps[FIRST_ROWS:])}</div></details>")
    if "counterexample" in ev:
        parts.append(f"<p><b>Counterexample</b></p>{_boxed(_value(ev['counterexample']))}")
    rest = {k: v for k, v in ev.items() if k not in ("comparisons", "traceback", "figure", "counterexample", "kind")}
    if rest:  # flat entries in one key/value table, each nested one under its own heading
        flat = {k: v for k, v in rest.items() if _flat(v)}
        if flat:
            parts.append(_boxed(_value(flat)))
        parts += [f"<p class='evk'><b>{e(str(k))}</b></p>{_boxed(_value(v, 1))}"
                  for k, v in rest.items() if k not in flat]
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


def _finding(c: dict, follow: list[dict] | None = None) -> str:
    ev = c.get("evidence") or {}
    ce = ""
    if "counterexample" in ev:
        body = _value(ev["counterexample"], rows=8)
        if len(body) > 200:  # a counterexample beyond a line stays one click away: the findings read as a list
            body = (f"<details><summary>show the counterexample ({_size(ev['counterexample'])})</summary>"
                    f"{_boxed(body)}</details>")
        ce = f"<dt>Counterexample</dt><dd class='evidence'>{body}</dd>"
    kind = model.kind_of(c)
    # a finding reads as one entry of a list: its gist in a line or two, the paper's statement, our finding in
    # full and the counterexample one click away (the claim itself, linked, has all of its evidence)
    return (f"<div class='finding'{_attrs(c)}><h4>{_badge(c['verdict'])} <a href='#{anchor(c['id'])}'>"
            f"<code>{e(c['id'])}</code></a> <span class='meta'>{text(c['source'])}"
            f"{' · kind: ' + e(kind) if kind else ''}</span></h4>"
            f"<details><summary class='gist'>{text(c['summary'], 240)}</summary>"
            f"<dl><dt>The paper</dt><dd>{text(c['statement'])}</dd>"
            f"<dt>Ours</dt><dd>{text(c['summary'])}</dd>{ce}</dl></details>{_followers(follow)}</div>")


def _followers(follow: list[dict] | None) -> str:
    """The REFUTED claims that follow from this finding (issue 24: one finding, counted once)."""
    if not follow:
        return ""
    items = "".join(f"<li><a href='#{anchor(f['id'])}'><code>{e(f['id'])}</code></a> "
                    f"<span class='meta'>{text(f['source'])}</span></li>" for f in follow)
    return (f"<details class='followers'><summary>{len(follow)} more claims refuted by this finding "
            f"(not counted again)</summary><ul>{items}</ul></details>")


def _size(v) -> str:
    if isinstance(v, list):
        return f"{len(v)} entries"
    if isinstance(v, dict):
        return f"{len(v)} keys"
    return f"{len(str(v))} characters"


def _claim(c: dict, figs: dict[str, list[str]], out_dir: Path | None) -> str:
    href = _source_href(c, out_dir)
    loc = ""
    if c.get("file"):
        where = f"{c['file']}:{c['line']}"
        loc = (f" · <a href='{e(href)}#L{c['line']}'><code>{e(where)}</code></a>" if href
               else f" · <code>{e(where)}</code>")
    out = [f"<article class='claim' id='{anchor(c['id'])}'{_attrs(c)}><details>",
           f"<summary>{_badge(c['verdict'])} <code>{e(c['id'])}</code> <span class='meta'>{text(c['source'])}</span>"
           f"<br><span class='short'>{text(c['summary'], 160)}</span></summary>",
           f"<p class='meta'>{e(c['method'])} · {c['seconds']:.2f} s{loc}</p>",
           f"<p class='meta'>{e(c['certificate'])}</p>" if c.get("certificate") else "",   # issue 23
           f"<p><b>Statement.</b> {text(c['statement'])}</p>"]
    if c.get("hypotheses"):
        out.append("<p><b>Hypotheses.</b> " + "; ".join(text(h) for h in c["hypotheses"]) + "</p>")
    if c.get("reading"):
        out.append(f"<p><b>Reading chosen.</b> {text(c['reading'])}</p>")
    kind = model.kind_of(c)
    out.append(f"<p><b>Finding.</b> {text(c['summary'])}{' <i>(kind: ' + e(kind) + ')</i>' if kind else ''}</p>")
    fig, also_ids, shown_by = model.figure_of(c, figs) or (None, [], None)
    if shown_by is not None:
        out.append(f"<p class='meta'>Figure: shown with <a href='#{anchor(shown_by)}'>"
                   f"<code>{e(shown_by)}</code></a>.</p>")
    elif fig is not None:
        also = ", ".join(f"<a href='#{anchor(u)}'><code>{e(u)}</code></a>" for u in also_ids)
        out.append(f"<figure><img src='{e(fig)}' alt='figure of {e(c['id'])}'>"
                   f"<figcaption class='meta'>{e(fig)}{' — also cited by ' + also if also else ''}"
                   "</figcaption></figure>")
    out.append(_evidence(c))
    out.append("</details></article>")
    return "".join(out)


def _table(columns, rows, cls: str = "") -> str:
    head = "".join(f"<th>{e(str(x))}</th>" for x in columns)
    body = "".join("<tr>" + "".join(f"<td>{e(str(x))}</td>" for x in row) + "</tr>" for row in rows)
    return f"<table{f' class={chr(39)}{cls}{chr(39)}' if cls else ''}><tr>{head}</tr>{body}</table>"


# ------------------------------------------------------------------ benchmark tables

WIDE_COLUMNS = 10  # a benchmark table with more columns is shown as a summary, the full table collapsed
SUMMARY_COLUMNS = 8  # ... the summary keeps at most this many columns
LONG_ROWS = 40     # a table with more rows is summarised too
SUMMARY_CELL = 24  # ... and cuts a longer cell (a certificate's reason) there: the full table has the text
SUMMARY_ROWS = 15  # ... and a summary keeps its first SUMMARY_ROWS rows (58 protocol rows of 8 wrapped columns were
                   # 1,755 px: more than two screens)


def _num(x, digits: int) -> str:
    if isinstance(x, bool):
        return "yes" if x else "no"
    if isinstance(x, float):
        return f"{x:.{digits}g}"
    return str(x)


def _bench_cell(x, full: bool) -> str:
    """A benchmark cell as text: floats to 6 significant digits in the summary (12 in the full table), a
    flat list inline, a nested list one entry per line in the full table ("n entries" in the summary)."""
    d = 12 if full else 6
    if isinstance(x, list):
        if all(_is_scalar(y) for y in x):
            return "[" + ", ".join(_num(y, d) for y in x) + "]"
        if not full:
            return f"{len(x)} entries"
        return "\n".join(_bench_cell(y, True) if isinstance(y, list) else json.dumps(y, ensure_ascii=False) for y in x)
    if isinstance(x, dict):
        return json.dumps(x, ensure_ascii=False) if full else f"{len(x)} keys"
    return _num(x, d)


def _short(text: str, n: int = SUMMARY_CELL) -> str:
    """A summary cell cut after ``n`` characters (the full table below it has the whole text)."""
    return text if len(text) <= n else text[: n - 1].rstrip() + "…"


def _summary_columns(b: dict) -> list[int]:
    """Indices of the columns a wide benchmark table shows in its summary: ``b["summary_columns"]`` when
    the benchmark names them, else the first column and then, in order, the columns whose cells are short
    (at most 24 characters) and not all empty, up to SUMMARY_COLUMNS."""
    cols = list(b.get("columns", []))
    named = [cols.index(c) for c in b.get("summary_columns", []) if c in cols]
    if named:
        return named
    rows = b.get("rows", [])
    keep = [0] if cols else []
    for i in range(1, len(cols)):
        cells = [_bench_cell(r[i], False) if i < len(r) else "" for r in rows]
        if any(cells) and all(len(c) <= 24 and not c.endswith((" entries", " keys")) for c in cells):
            keep.append(i)
        if len(keep) == SUMMARY_COLUMNS:
            break
    return keep


def _benchmark(b: dict) -> str:
    """One benchmark table: as it is when it is small; else a summary (some columns, at most SUMMARY_ROWS rows)
    with the full table in a collapsed block below it."""
    cols, rows = list(b.get("columns", [])), list(b.get("rows", []))
    full = _table(cols, [[_bench_cell(x, True) for x in r] for r in rows], "bench full")
    head = f"<h3>{e(str(b.get('title', '')))}</h3>"
    if len(cols) <= WIDE_COLUMNS and len(rows) <= LONG_ROWS:
        return head + full + _notes(b.get("notes"))
    keep = _summary_columns(b)
    summary = _table([cols[i] for i in keep], [[_short(_bench_cell(r[i], False)) if i < len(r) else "" for i in keep]
                                               for r in rows[:SUMMARY_ROWS]], "bench")
    shown = (f"{len(keep)} of {len(cols)} columns" + (f", the first {SUMMARY_ROWS} of {len(rows)} rows"
                                                       if len(rows) > SUMMARY_ROWS else ""))
    return (head + f"<p class='meta'>Summary: {shown}; the full table is below it.</p>" + summary
            + f"<details class='full'><summary>the full table ({len(rows)} rows × {len(cols)} columns)</summary>"
            + f"<div class='scroll'>{full}</div></details>" + _notes(b.get("notes")))


# ------------------------------------------------------------------ a little Markdown (the mutation section)

def _inline(t: str) -> str:
    """One line of Markdown: `code` escaped as it is, the rest as prose (:func:`text`) with **bold** and *italics*."""
    parts = re.split(r"`([^`]+)`", t.replace("\\|", "|"))
    out = []
    for i, part in enumerate(parts):
        if i % 2:
            out.append(f"<code>{e(part)}</code>")
        else:
            part = re.sub(r"\*\*(.+?)\*\*", "\x01\\1\x02", part)
            part = re.sub(r"(?<![*\w])\*([^*\s][^*]*)\*(?![*\w])", "\x03\\1\x04", part)
            out.append(text(part).translate({1: "<b>", 2: "</b>", 3: "<i>", 4: "</i>"}))
    return "".join(out)


def _markdown(md: str) -> str:
    """The Markdown of a section written for verification.md (paragraphs, ``-`` lists, pipe tables, inline
    code, bold, italics) as HTML; its own ``##`` heading is dropped, a table of more than 20 rows is collapsed."""
    out, lines, i = [], md.splitlines(), 0
    while i < len(lines):
        line = lines[i]
        if not line.strip() or line.startswith("## "):
            i += 1
        elif line.startswith("#"):
            out.append(f"<h3>{_inline(line.lstrip('#').strip())}</h3>")
            i += 1
        elif line.startswith("|"):
            block = []
            while i < len(lines) and lines[i].startswith("|"):
                block.append([c.strip() for c in re.split(r"(?<!\\)\|", lines[i].strip()[1:-1])])
                i += 1
            body = [r for r in block[1:] if not all(set(c) <= set("-: ") for c in r)]
            table = ("<table><tr>" + "".join(f"<th>{_inline(c)}</th>" for c in block[0]) + "</tr>"
                     + "".join("<tr>" + "".join(f"<td>{_inline(c)}</td>" for c in r) + "</tr>" for r in body)
                     + "</table>")
            out.append(table if len(body) <= 20 else
                       f"<details class='full'><summary>the table ({len(body)} rows)</summary>"
                       f"<div class='scroll'>{table}</div></details>")
        elif line.startswith("- "):
            items = []
            while i < len(lines) and lines[i].startswith("- "):
                items.append(f"<li>{_inline(lines[i][2:])}</li>")
                i += 1
            out.append("<ul>" + "".join(items) + "</ul>")
        else:
            para = []
            while i < len(lines) and lines[i].strip() and not lines[i].startswith(("#", "|", "- ")):
                para.append(lines[i])
                i += 1
            out.append(f"<p>{_inline(' '.join(para))}</p>")
    return "".join(out)


def _notes(notes) -> str:
    notes = [notes] if isinstance(notes, str) else list(notes or [])
    return "<ul>" + "".join(f"<li>{e(str(n))}</li>" for n in notes) + "</ul>" if notes else ""


def _coverage(cov, anchor: str = "coverage", title: str = "Coverage") -> str:
    """The coverage section (issue 12; the proof steps' of issue 30 with ``anchor``/``title``): a table
    ``{"columns", "rows", "notes"}`` or key/value pairs."""
    if isinstance(cov, dict) and "columns" in cov:
        inner = _table(cov["columns"], cov.get("rows", []), "auto") + _notes(cov.get("notes"))
    else:
        inner = _value(cov)
    return f"<section id='{anchor}'><h2>{e(title)}</h2>{inner}</section>"


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

def _count(section_id: str, n: int) -> str:
    """A claim count that follows the filter ("3 of 12" while filtered; report.js updates it)."""
    return f"<span class='count' data-for='{e(section_id)}'>{n}</span>"


def _toc(doc: dict, groups, papers, split, tool_all, mutation: str | None) -> list[str]:
    toc = ["<li><a href='#summary'>Summary by paper</a></li>"]
    if doc.get("coverage") is not None:
        toc.append("<li><a href='#coverage'>Coverage</a></li>")
    if doc.get("step_coverage") is not None:
        toc.append("<li><a href='#step-coverage'>Proof-step coverage</a></li>")
    toc += ["<li><a href='#findings'>Findings</a><ol>"]
    toc += [f"<li><a href='#findings-{key}'>{e(title)} ({_count('findings-' + key, len(cs))})</a></li>"
            for key, title, cs in groups]
    toc += ["</ol></li>"]
    toc += [f"<li><a href='#paper-{slug(p)}'>{e(t)} ({_count('paper-' + slug(p), len(split[p][0]))})</a></li>"
            for p, t in papers]
    if tool_all:
        toc.append(f"<li><a href='#tool-checks'>The tool's own consistency checks "
                   f"({_count('tool-checks', len(tool_all))})</a></li>")
    if doc.get("benchmarks"):
        toc.append("<li><a href='#benchmarks'>Benchmarks</a></li>")
    if mutation:
        toc.append("<li><a href='#mutation'>Mutation testing of the checker</a></li>")
    toc.append("<li><a href='#environment'>Environment</a></li>")
    return toc


def _head(doc: dict, toc: list[str]) -> list[str]:
    s = doc["summary"]
    certs = doc.get("certificates")
    cert_line = (f"<p>Certificates re-checked by the independent checker: {certs['re-checked']} claims, "
                 f"{certs['failed']} FAILED, {certs['none']} without one.</p>" if certs else "")
    bench = model.benchmark_certificates(doc)
    cert_line += f"<p>{e(bench)}</p>" if bench else ""
    return ["<!doctype html><html lang='en'><head><meta charset='utf-8'>",
            "<meta name='viewport' content='width=device-width, initial-scale=1'>",
            "<title>rldp-verify verification report</title>", f"<style>{_asset('report.css')}</style></head><body>",
            "<header><h1>rldp-verify verification report</h1>",
            f"<p>{sum(s.values())} claims: " + ", ".join(f"{_badge(v)} {s[v]}" for v in VERDICTS) + "</p>"
            + cert_line + "</header>",
            "<nav id='toc'><b>Contents</b><ol>" + "".join(toc) + "</ol></nav>", _filter(doc)]


def _summary(doc: dict) -> str:
    s = doc["summary"]
    rows = []
    for paper, title, cnt in model.per_paper_counts(doc):
        rows.append(f"<tr><td><a href='#paper-{slug(paper)}'>{e(title)}</a></td>"
                    + "".join(f"<td>{cnt.get(v, 0)}</td>" for v in VERDICTS) + f"<td>{sum(cnt.values())}</td></tr>")
    rows.append("<tr><th>all</th>" + "".join(f"<th>{s[v]}</th>" for v in VERDICTS)
                + f"<th>{sum(s.values())}</th></tr>")
    return ("<section id='summary'><h2>Summary by paper</h2><table class='counts'><tr><th>paper</th>"
            + "".join(f"<th>{v}</th>" for v in VERDICTS) + "<th>total</th></tr>" + "".join(rows) + "</table></section>")


def _findings(groups, papers, claims) -> list[str]:
    out = ["<section id='findings'><h2>Findings</h2>"]
    follow = model.followers(claims)
    refuted = sum(1 for c in claims if c["verdict"] == "REFUTED")
    if refuted:
        n_follow = sum(len(v) for v in follow.values())
        out.append(f"<p>{refuted} REFUTED claims make {refuted - n_follow} distinct findings: {n_follow} claims "
                   "follow from another claim's finding and are listed under it.</p>")
    if not groups:
        out.append("<p>No claim was refuted or left inconclusive.</p>")
    for key, title, cs in groups:
        out.append(f"<section id='findings-{key}' data-group><h3>{e(title)} "
                   f"({_count('findings-' + key, len(cs))})</h3>")
        for p, t in papers:
            pcs = [c for c in cs if c["paper"] == p]
            if pcs:
                out.append(f"<div data-group><p class='meta'>{e(t)}</p>"
                           + "".join(_finding(c, follow.get(c["id"])) for c in pcs) + "</div>")
        out.append("</section>")
    out.append("</section>")
    return out


def _papers(papers, split, figs, out_dir: Path | None) -> list[str]:
    out = []
    for p, t in papers:
        stmts, _ = split[p]
        out.append(f"<section id='paper-{slug(p)}' data-group><h2>{e(t)}</h2>"
                   f"<p class='meta'><code>{e(p)}</code> — {_count('paper-' + slug(p), len(stmts))} claims in the "
                   "paper's order (click a claim for its statement, reading and evidence).</p>")
        out += [_claim(c, figs, out_dir) for c in stmts]
        out.append("</section>")
    return out


def _environment(env: dict) -> str:
    pk = "".join(f"<tr><td>{e(k)}</td><td>{e(str(v))}</td></tr>" for k, v in env.get("packages", {}).items() if v)
    return ("<section id='environment'><h2>Environment</h2><details><summary>Python, packages, precision, seed"
            f"</summary><p>Python {e(env['python'])} on {e(env['platform'])}; working precision {env['dps']} "
            f"digits; seed {env['seed']}; slow claims included: {env['include_slow']}.</p>"
            f"<table class='ev'><tr><th>package</th><th>version</th></tr>{pk}</table></details></section>")


def render(doc: dict, out_dir: Path | None = None, mutation: str | None = None) -> str:
    """The self-contained HTML report of ``doc``: the summary and coverage, the findings, every claim by
    paper, the tool's own checks, benchmarks, the mutation section (``mutation``: its Markdown, when
    ``make mutation`` wrote one), environment; a table of contents and a filter in plain JavaScript."""
    figs = model.figures(doc)
    groups = model.findings(doc["claims"])
    papers = list(doc["papers"].items())
    split = {p: model.paper_claims(doc, p) for p, _ in papers}
    tool_all = [c for p, _ in papers for c in split[p][1]]

    out = _head(doc, _toc(doc, groups, papers, split, tool_all, mutation))
    out.append(_summary(doc))
    if doc.get("coverage") is not None:
        out.append(_coverage(doc["coverage"]))
    if doc.get("step_coverage") is not None:
        out.append(_coverage(doc["step_coverage"], "step-coverage", "Proof-step coverage"))
    out += _findings(groups, papers, doc["claims"])
    out += _papers(papers, split, figs, out_dir)
    if tool_all:
        out.append("<section id='tool-checks' data-group><h2>The tool's own consistency checks</h2>"
                   "<p>Checks of rldp-verify's machinery (e.g. the auditor's duality) against the papers' formulas; "
                   "not statements of the papers.</p>")
        out += [_claim(c, figs, out_dir) for c in tool_all]
        out.append("</section>")
    if doc.get("benchmarks"):
        out.append("<section id='benchmarks'><h2>Benchmarks</h2>")
        out += [_benchmark(b) for b in doc["benchmarks"]]
        out.append("</section>")
    if mutation:
        out.append(f"<section id='mutation'><h2>Mutation testing of the checker</h2>{_markdown(mutation)}</section>")
    out.append(_environment(doc["environment"]))
    out.append(f"<script>{_asset('report.js')}</script></body></html>")
    return "\n".join(out) + "\n"
