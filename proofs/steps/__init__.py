"""The proof-step index (issue 30): every displayed step and inference sentence of the papers' proofs.

The statement index (:mod:`proofs.statements`) lists what the papers *state*; this index lists how they
*prove* it, so that a step that fails while its theorem holds can be reported (finding kind ``proof-gap``).
One TOML file per paper in this folder (``rldp.toml`` = seed 000, ...), ``paper = "<seed file>"`` followed
by ``[[step]]`` entries in the paper's order::

    [[step]]
    id = "A.1.A8"                      # unique within the paper
    kind = "display"                   # "display" (a displayed formula) or "inference" (a sentence)
    section = "A.1"                    # the proof or appendix section, for the coverage table
    label = "A8"                       # displays: the paper's number (inferred between labelled anchors,
                                       #   see the file's header), omitted for unnumbered displays
    where = "App. A.1, proof of Lemma A1, after 'differentiating with respect to P_s'"
    quote = "Setting this equal to 0"  # inference sentences: an exact substring of the seed text
    text = "d/dP_s of the RHS of (A7) = (alpha-1) P_s^(alpha-2) (1-P^_s)^alpha / P^_s^alpha (...)"
    serves = "lemmaA1"                 # the id of the statement (proofs/statements/<paper>.toml) it proves
    cites = ["A7"]                     # the displays / statements the step uses (labels, "Theorem 1", ...)
    claims = ["rldp.steps.a1.a8-derivative"]   # or not_checkable = "reason" / uncovered = "what to check"

An entry has exactly one of ``claims`` (registered claim ids that check the step), ``not_checkable`` (a
definition, a restatement, a sentence of method that asserts nothing) or ``uncovered`` (what a check would
have to do: honest bookkeeping until the check exists). ``scripts/scan_steps.py --check`` re-reads the seed
texts and reports every labelled display of an appendix (and every inference sentence, found by its
marker words) that the index does not account for. :func:`coverage` gives the per-paper and per-section
figures: steps indexed, checked (``claims``), not checkable, unchecked.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

INDEX_DIR = Path(__file__).resolve().parent

KINDS = ("display", "inference")
_FIELDS = {"id", "kind", "section", "label", "where", "quote", "text", "serves", "cites", "claims",
           "not_checkable", "uncovered"}


@dataclass(frozen=True)
class Step:
    """One entry of the step index (see the module docstring for the fields)."""

    paper: str
    id: str
    kind: str
    section: str
    where: str
    text: str
    serves: str
    label: str | None = None
    quote: str | None = None
    cites: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    not_checkable: str | None = None
    uncovered: str | None = None
    file: str = ""

    @property
    def status(self) -> str:
        """``checked``, ``not-checkable`` or ``unchecked``."""
        if self.claims:
            return "checked"
        if self.not_checkable:
            return "not-checkable"
        return "unchecked"

    @property
    def name(self) -> str:
        """How a report names the step: ``(A8)`` or its id, with where it is."""
        return f"({self.label})" if self.label else self.id


class StepIndexError(ValueError):
    """A malformed step index file (the message names the file and the entry)."""


def index_files() -> list[Path]:
    """The TOML files of the step index, sorted by name."""
    return sorted(INDEX_DIR.glob("*.toml"))


def load_index() -> dict[str, dict]:
    """The raw index: ``{seed file: {"paper", "step": [entry dicts], "file"}}``."""
    out: dict[str, dict] = {}
    for f in index_files():
        with f.open("rb") as fh:
            try:
                doc = tomllib.load(fh)
            except tomllib.TOMLDecodeError as exc:
                raise StepIndexError(f"{f.name}: {exc}") from None
        paper = doc.get("paper")
        if not isinstance(paper, str) or not paper.endswith(".txt"):
            raise StepIndexError(f"{f.name}: 'paper' must be the seed file name, got {paper!r}")
        if paper in out:
            raise StepIndexError(f"{f.name}: paper {paper} is indexed twice")
        out[paper] = {"paper": paper, "step": list(doc.get("step", [])), "file": f.name}
    return out


def _strings(entry: dict, key: str, where: str) -> tuple[str, ...]:
    v = entry.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
        raise StepIndexError(f"{where}: '{key}' must be a list of non-empty strings")
    return tuple(v)


def steps() -> list[Step]:
    """Every entry of every index file, checked for form (not against the claims or the statement index)."""
    out = []
    for paper, idx in load_index().items():
        seen: set[str] = set()
        labels: set[str] = set()
        for i, e in enumerate(idx["step"]):
            where = f"{idx['file']} step {i + 1} ({e.get('id', '?')})"
            unknown = set(e) - _FIELDS
            if unknown:
                raise StepIndexError(f"{where}: unknown field(s) {sorted(unknown)}")
            for key in ("id", "kind", "section", "where", "text", "serves"):
                if not isinstance(e.get(key), str) or not e[key].strip():
                    raise StepIndexError(f"{where}: '{key}' must be a non-empty string")
            if e["id"] in seen:
                raise StepIndexError(f"{where}: duplicate id {e['id']!r}")
            seen.add(e["id"])
            if e["kind"] not in KINDS:
                raise StepIndexError(f"{where}: kind {e['kind']!r} is not one of {', '.join(KINDS)}")
            label = e.get("label")
            if label is not None:
                if e["kind"] != "display" or not (isinstance(label, str) and re.fullmatch(r"[A-Z]?\d+", label)):
                    raise StepIndexError(f"{where}: 'label' belongs to displays and reads like 'A8', got {label!r}")
                if label in labels:
                    raise StepIndexError(f"{where}: display ({label}) is indexed twice")
                labels.add(label)
            quote = e.get("quote")
            if e["kind"] == "inference" and not (isinstance(quote, str) and len(quote.strip()) >= 8):
                raise StepIndexError(f"{where}: an inference needs a 'quote' (>= 8 characters of the seed text)")
            for key in ("not_checkable", "uncovered"):
                if key in e and not (isinstance(e[key], str) and e[key].strip()):
                    raise StepIndexError(f"{where}: '{key}' must be a non-empty reason")
            claims = _strings(e, "claims", where)
            if "claims" in e and not claims:
                raise StepIndexError(f"{where}: 'claims' is empty; use not_checkable or uncovered with a reason")
            modes = [bool(claims), "not_checkable" in e, "uncovered" in e]
            if sum(modes) != 1:
                raise StepIndexError(f"{where}: needs exactly one of 'claims', 'not_checkable', 'uncovered' "
                                     f"(has {sum(modes)})")
            out.append(Step(paper=paper, id=e["id"], kind=e["kind"], section=e["section"], where=e["where"],
                            text=e["text"], serves=e["serves"], label=label, quote=quote,
                            cites=_strings(e, "cites", where), claims=claims,
                            not_checkable=e.get("not_checkable"), uncovered=e.get("uncovered"), file=idx["file"]))
    return out


def listed_claims() -> set[str]:
    """Every claim id that some step lists in ``claims``."""
    return {c for s in steps() for c in s.claims}


def _expand(spec: str) -> list[str]:
    """"12" -> ["12"]; "A1-A3" -> ["A1", "A2", "A3"] (the statement index's equation ranges)."""
    m = re.fullmatch(r"(A?)(\d+)\s*-\s*A?(\d+)", spec.strip())
    return [f"{m[1]}{k}" for k in range(int(m[2]), int(m[3]) + 1)] if m else [spec.strip()]


def check_against(claim_ids, statement_ids: dict[str, set[str]] | None = None,
                  equations: dict[str, set[str]] | None = None) -> list[str]:
    """Problems between the step index, the registered claims and the statement index (empty: consistent).

    - a step lists a claim that is not registered;
    - a registered step claim (id ``<paper>.steps.*``) that no step lists;
    - a step ``serves`` a statement id that the paper's statement index does not have (``statement_ids``:
      ``{seed file: {statement ids}}``; read from :mod:`proofs.statements` when None);
    - a step ``cites`` an equation number that is neither a display of the step index nor an equation of the
      statement index (``equations``: ``{seed file: {numbers}}``), or a name that is no statement id.
    """
    claim_ids = set(claim_ids)
    if statement_ids is None:
        from ..statements import statements as _statements

        statement_ids, equations = {}, {}
        for st in _statements():
            statement_ids.setdefault(st.paper, set()).add(st.id)
            for spec in st.equations:
                equations.setdefault(st.paper, set()).update(_expand(spec))
    all_steps = steps()
    labels: dict[str, set[str]] = {}
    for s in all_steps:
        if s.label:
            labels.setdefault(s.paper, set()).add(s.label)
    problems = []
    listed: set[str] = set()
    for s in all_steps:
        for cid in s.claims:
            if cid not in claim_ids:
                problems.append(f"{s.file}: step {s.id} lists {cid!r}, which is not a registered claim")
        listed.update(s.claims)
        if s.serves not in statement_ids.get(s.paper, set()):
            problems.append(f"{s.file}: step {s.id} serves {s.serves!r}, which is not a statement of {s.paper}")
        for c in s.cites:
            if re.fullmatch(r"A?\d+", c):
                known = labels.get(s.paper, set()) | (equations or {}).get(s.paper, set())
                if equations is not None and c not in known:
                    problems.append(f"{s.file}: step {s.id} cites ({c}), which no display or equation entry has")
            elif c not in statement_ids.get(s.paper, set()):
                problems.append(f"{s.file}: step {s.id} cites {c!r}, which is not a statement of {s.paper}")
    for cid in sorted(c for c in claim_ids - listed if ".steps." in c):
        problems.append(f"step claim {cid!r} is listed by no step of the index")
    return problems


def coverage(claim_ids=None) -> dict:
    """Steps indexed / checked / not checkable / unchecked, per paper and per section (for the report).

    Returns ``{"papers": {seed: {"steps", "displays", "inferences", "checked", "not_checkable", "unchecked",
    "checkable", "coverage", "sections": {section: {same counts}}}}, "total": {...}, "columns", "rows"}``.
    A step counts as checked when it lists a claim and, if ``claim_ids`` is given, every claim it lists is
    among them. ``coverage`` = checked / (steps - not_checkable), None when nothing is checkable.
    """
    ids = None if claim_ids is None else set(claim_ids)

    def blank():
        return {"steps": 0, "displays": 0, "inferences": 0, "checked": 0, "not_checkable": 0, "unchecked": 0}

    def finish(c):
        c["checkable"] = c["steps"] - c["not_checkable"]
        c["coverage"] = round(c["checked"] / c["checkable"], 4) if c["checkable"] else None
        return c

    papers: dict[str, dict] = {}
    for s in steps():
        p = papers.setdefault(s.paper, {**blank(), "sections": {}})
        sec = p["sections"].setdefault(s.section, blank())
        status = s.status
        if status == "checked" and ids is not None and not set(s.claims) <= ids:
            status = "unchecked"
        key = {"checked": "checked", "not-checkable": "not_checkable", "unchecked": "unchecked"}[status]
        for c in (p, sec):
            c["steps"] += 1
            c["displays" if s.kind == "display" else "inferences"] += 1
            c[key] += 1
    try:
        from ..papers import PAPERS

        order = [p.seed for p in PAPERS]
    except ImportError:  # pragma: no cover - proofs.papers is part of the package
        order = []
    papers = {k: papers[k] for k in sorted(papers, key=lambda k: (order.index(k) if k in order else len(order), k))}
    total = blank()
    for p in papers.values():
        for sec in p["sections"].values():
            finish(sec)
        finish(p)
        for k in total:
            total[k] += p[k]
    finish(total)

    def pct(x):
        return "—" if x is None else f"{100 * x:.1f} %"

    columns = ["paper / section", "steps", "displays", "inferences", "checked", "not checkable", "unchecked",
               "checked / checkable"]
    rows = []
    for paper, p in papers.items():
        rows.append([paper[:3], p["steps"], p["displays"], p["inferences"], p["checked"], p["not_checkable"],
                     p["unchecked"], pct(p["coverage"])])
        for name, c in p["sections"].items():
            rows.append([f"{paper[:3]} {name}", c["steps"], c["displays"], c["inferences"], c["checked"],
                         c["not_checkable"], c["unchecked"], pct(c["coverage"])])
    rows.append(["all papers", total["steps"], total["displays"], total["inferences"], total["checked"],
                 total["not_checkable"], total["unchecked"], pct(total["coverage"])])
    return {"papers": papers, "total": total, "columns": columns, "rows": rows}
