"""The statement index: every statement of the five papers, mapped to the claims that check it.

One TOML file per paper in this folder (``rldp.toml`` = seed 000, ``falpha.toml`` = 001, ``pram.toml`` =
002, ``isit.toml`` = 003, ``kairouz.toml`` = 004), each ``paper = "<seed file>"`` followed by
``[[statement]]`` entries::

    [[statement]]
    id = "thm1"                        # unique within the paper
    kind = "theorem"                   # see KINDS
    label = "Theorem 1"                # numbered items: exactly as the paper numbers them
    where = "Sec. 4.1, Theorem 1, eqs. (21)-(24)"
    equations = ["21-24"]              # equation labels this entry accounts for ("12", "21-25", "A1-A27")
    text = "what the paper states, briefly"
    claims = ["rldp.thm1.radius-direct-optimisation", ...]   # the claim ids that check it

An entry has exactly one of:

- ``claims``: a non-empty list of registered claim ids (the entry is *covered*);
- ``not_checkable``: a non-empty reason (a definition used by the claims in ``used_by``; a statement about
  the authors' software; an empirical statement about data we do not have -- say which);
- ``uncovered``: what a claim would have to check (honest bookkeeping until the claim exists).

The index lists every numbered theorem, lemma, proposition, corollary, definition, example, remark,
algorithm, fact, assumption, claim, problem, figure and table, every numbered equation that asserts
something (grouped into entries; definitions go into not-checkable entries), and every unnumbered
sentence that asserts a checkable fact (``kind = "sentence"``). ``scripts/scan_statements.py --check``
re-reads the seed texts and reports numbered items missing from the index.

A claim names its statements through this index: every registered claim must appear in the ``claims``
of at least one entry, and every id listed here must be registered (tests/test_statements.py).
:func:`coverage` gives the per-paper figures for the report.
"""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

INDEX_DIR = Path(__file__).resolve().parent

KINDS = (
    "theorem", "lemma", "proposition", "corollary", "definition", "example", "remark", "algorithm", "fact",
    "assumption", "claim", "problem", "figure", "table", "equation", "sentence",
)
#: Kinds that the paper numbers: their entries need a ``label`` such as "Theorem 1".
NUMBERED = {"theorem", "lemma", "proposition", "corollary", "definition", "remark", "algorithm", "fact",
            "assumption", "claim", "problem", "figure", "table"}
_FIELDS = {"id", "kind", "label", "where", "equations", "text", "claims", "not_checkable", "uncovered", "used_by"}


@dataclass(frozen=True)
class Statement:
    paper: str
    id: str
    kind: str
    where: str
    text: str
    label: str | None = None
    equations: tuple[str, ...] = ()
    claims: tuple[str, ...] = ()
    not_checkable: str | None = None
    uncovered: str | None = None
    used_by: tuple[str, ...] = ()
    file: str = ""

    @property
    def status(self) -> str:
        """``covered``, ``not-checkable`` or ``uncovered``."""
        if self.claims:
            return "covered"
        if self.not_checkable:
            return "not-checkable"
        return "uncovered"

    @property
    def name(self) -> str:
        """How the report names the entry: its label, else its id, with where it is."""
        return f"{self.label or self.id} ({self.where})"


class IndexError_(ValueError):
    """A malformed index file (the message names the file and the entry)."""


#: the papers' folders: a paper may keep its part of the index in its own folder, ``<name>/statements.toml``
PAPERS_DIR = INDEX_DIR.parent


def index_files() -> list[Path]:
    return sorted(INDEX_DIR.glob("*.toml")) + sorted(PAPERS_DIR.glob("*/statements.toml"))


def load_index() -> dict[str, dict]:
    """The raw index: ``{seed file: {"paper", "statement": [entry dicts], "file"}}``."""
    out: dict[str, dict] = {}
    for f in index_files():
        with f.open("rb") as fh:
            try:
                doc = tomllib.load(fh)
            except tomllib.TOMLDecodeError as exc:
                raise IndexError_(f"{f.name}: {exc}") from None
        paper = doc.get("paper")
        if not isinstance(paper, str) or not paper.endswith(".txt"):
            raise IndexError_(f"{f.name}: 'paper' must be the seed file name, got {paper!r}")
        if paper in out:
            raise IndexError_(f"{f.name}: paper {paper} is indexed twice")
        out[paper] = {"paper": paper, "statement": list(doc.get("statement", [])), "file": f.name}
    return out


def _tuple(entry: dict, key: str, where: str) -> tuple[str, ...]:
    v = entry.get(key, [])
    if not isinstance(v, list) or not all(isinstance(x, str) and x.strip() for x in v):
        raise IndexError_(f"{where}: '{key}' must be a list of non-empty strings")
    return tuple(v)


def statements() -> list[Statement]:
    """Every entry of every index file, checked for form (not against the claim registry)."""
    out = []
    for paper, idx in load_index().items():
        seen = set()
        for i, e in enumerate(idx["statement"]):
            where = f"{idx['file']} entry {i + 1} ({e.get('id', '?')})"
            unknown = set(e) - _FIELDS
            if unknown:
                raise IndexError_(f"{where}: unknown field(s) {sorted(unknown)}")
            for key in ("id", "kind", "where", "text"):
                if not isinstance(e.get(key), str) or not e[key].strip():
                    raise IndexError_(f"{where}: '{key}' must be a non-empty string")
            if e["id"] in seen:
                raise IndexError_(f"{where}: duplicate id {e['id']!r}")
            seen.add(e["id"])
            if e["kind"] not in KINDS:
                raise IndexError_(f"{where}: kind {e['kind']!r} is not one of {', '.join(KINDS)}")
            label = e.get("label")
            if e["kind"] in NUMBERED and not (isinstance(label, str) and re.fullmatch(r"[A-Z][a-z]+ [A-Z]?\d+(\.\d+)*", label)):
                raise IndexError_(f"{where}: a {e['kind']} needs a label such as 'Theorem 3', got {label!r}")
            for key in ("not_checkable", "uncovered"):
                if key in e and not (isinstance(e[key], str) and e[key].strip()):
                    raise IndexError_(f"{where}: '{key}' must be a non-empty reason")
            claims = _tuple(e, "claims", where)
            if "claims" in e and not claims:
                raise IndexError_(f"{where}: 'claims' is empty; use not_checkable or uncovered with a reason")
            modes = [bool(claims), "not_checkable" in e, "uncovered" in e]
            if sum(modes) != 1:
                raise IndexError_(f"{where}: needs exactly one of 'claims', 'not_checkable', 'uncovered' "
                                  f"(has {sum(modes)})")
            used_by = _tuple(e, "used_by", where)
            if used_by and "not_checkable" not in e:
                raise IndexError_(f"{where}: 'used_by' belongs to not-checkable entries only")
            eqs = _tuple(e, "equations", where)
            for spec in eqs:
                if not re.fullmatch(r"A?\d+(\s*-\s*A?\d+)?", spec):
                    raise IndexError_(f"{where}: bad equation label {spec!r}")
            out.append(Statement(paper=paper, id=e["id"], kind=e["kind"], where=e["where"], text=e["text"],
                                 label=label, equations=eqs, claims=claims, not_checkable=e.get("not_checkable"),
                                 uncovered=e.get("uncovered"), used_by=used_by, file=idx["file"]))
    return out


def check_against_claims(claim_ids) -> list[str]:
    """Problems between the index and the registered claim ids (empty list: consistent).

    - an id listed in ``claims`` or ``used_by`` that is not registered;
    - a registered claim that no entry lists in ``claims`` (a claim must name a statement of the index).
    """
    claim_ids = set(claim_ids)
    problems = []
    listed = set()
    for s in statements():
        for cid in s.claims + s.used_by:
            if cid not in claim_ids:
                problems.append(f"{s.file}: {s.id} lists {cid!r}, which is not a registered claim")
        listed.update(s.claims)
    from ..steps import listed_claims  # a proof-step claim names a step of proofs/steps/ instead (issue 30)

    listed |= listed_claims()
    for cid in sorted(claim_ids - listed):
        problems.append(f"claim {cid!r} is listed by no statement of the index (add it to the entry it checks)")
    return problems


def statements_of(claim_id: str) -> list[Statement]:
    """The entries whose ``claims`` list ``claim_id``."""
    return [s for s in statements() if claim_id in s.claims]


def claim_order(claim_ids=None) -> dict[str, list[str]]:
    """The paper's own order of its claims, from the index: ``{seed file: [claim ids]}``.

    Each index file lists its paper's statements in the paper's order (sections, theorems, examples,
    then the appendices); a claim takes the place of the first entry *of its own paper* that lists it
    in ``claims`` (claim ids start with the paper's folder name, :mod:`proofs.papers`), so a claim that a
    later entry or another paper's index also cites stays where its own statement is. With
    ``claim_ids`` only those ids are kept. The report sorts each paper's claims by this list."""
    from ..papers import PAPERS

    folder = {p.seed: p.name for p in PAPERS}
    keep = None if claim_ids is None else set(claim_ids)
    out: dict[str, list[str]] = {}
    seen: set[str] = set()
    for s in statements():
        ids = out.setdefault(s.paper, [])
        prefix = folder.get(s.paper)
        for cid in s.claims:
            if cid in seen or (keep is not None and cid not in keep):
                continue
            if prefix is not None and cid.split(".", 1)[0] != prefix:
                continue               # another paper's claim cited here: it is placed by its own index
            seen.add(cid)
            ids.append(cid)
    return out


def coverage(claim_ids=None) -> dict:
    """Per paper (in report order, :mod:`proofs.papers`): ``{"statements", "covered", "not_checkable",
    "uncovered", "uncovered_names", "checkable", "coverage", "title"}`` under ``"papers"``, ``"total"`` over all
    papers, and the same as a table (``"columns"``, ``"rows"``, ``"notes"``) for the report's coverage slot.

    An entry counts as covered when it lists at least one claim and, if ``claim_ids`` is given, all the
    claims it lists are among them (a listed claim that is not registered does not cover anything).
    ``coverage`` is covered / (statements - not_checkable), or None when nothing is checkable.
    """
    ids = None if claim_ids is None else set(claim_ids)
    papers: dict[str, dict] = {}
    for s in statements():
        p = papers.setdefault(s.paper, {"statements": 0, "covered": 0, "not_checkable": 0, "uncovered": 0,
                                        "uncovered_names": []})
        p["statements"] += 1
        status = s.status
        if status == "covered" and ids is not None and not set(s.claims) <= ids:
            status = "uncovered"
        if status == "covered":
            p["covered"] += 1
        elif status == "not-checkable":
            p["not_checkable"] += 1
        else:
            p["uncovered"] += 1
            p["uncovered_names"].append(s.name)
    try:
        from ..papers import titles as _titles

        titles = _titles()
    except ImportError:  # pragma: no cover - proofs.papers is part of the package
        titles = {}
    order = list(titles)
    papers = {k: papers[k] for k in sorted(papers, key=lambda k: (order.index(k) if k in order else len(order), k))}
    for k, p in papers.items():
        p["title"] = titles.get(k, k)
    total = {"statements": 0, "covered": 0, "not_checkable": 0, "uncovered": 0}
    for p in papers.values():
        checkable = p["statements"] - p["not_checkable"]
        p["checkable"] = checkable
        p["coverage"] = round(p["covered"] / checkable, 4) if checkable else None
        for k in total:
            total[k] += p[k]
    checkable = total["statements"] - total["not_checkable"]
    total["checkable"] = checkable
    total["coverage"] = round(total["covered"] / checkable, 4) if checkable else None
    columns = ["paper", "statements", "covered", "not checkable", "uncovered", "covered / checkable"]

    def pct(x):
        return "—" if x is None else f"{100 * x:.1f} %"

    rows = [[f"{p['title']} ({k[:3]})", p["statements"], p["covered"], p["not_checkable"], p["uncovered"],
             pct(p["coverage"])] for k, p in papers.items()]
    rows.append(["all papers", total["statements"], total["covered"], total["not_checkable"], total["uncovered"],
                 pct(total["coverage"])])
    notes = ["Every numbered statement, numbered equation that asserts something and unnumbered checkable sentence "
             "of each paper is in the statement index (proofs/statements/); covered = at least one claim checks it; "
             "not checkable = a definition, the authors' software, or data we do not have (the reason is in the index)."]
    notes += [f"Uncovered in {k[:3]}: " + "; ".join(p["uncovered_names"]) for k, p in papers.items() if p["uncovered_names"]]
    return {"columns": columns, "rows": rows, "notes": notes, "papers": papers, "total": total}
