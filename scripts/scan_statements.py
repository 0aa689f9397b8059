#!/usr/bin/env python3
"""Scan the seed papers for numbered statements and compare them with the statement index.

The statement index (``proofs/statements/<paper>.toml``, one file per paper; see
``proofs/statements/__init__.py``) lists every numbered theorem, lemma, proposition, corollary,
definition, example, remark, algorithm, fact, assumption, claim, problem, figure and table of a paper, its
numbered equations (grouped into entries) and the unnumbered sentences that assert a checkable fact.

This script finds the *numbered* items in the plain-text seeds (``../shared/seeds/*.txt``):

- headings: a line that starts with ``Theorem 3.``, ``**Lemma 2.**``, ``Definition 2.1 (...)``,
  ``Fact 1:`` ... (a reference such as "Theorem 5 establishes ..." is not a heading);
- figures and tables: captions (``Figure 2: ...``, ``Fig. 1: ...``) and, where the text conversion
  dropped the captions (the core paper), references such as "shown in Figure 3";
- equation labels: ``(12)`` at the end of a display line, ``\\quad (12)`` in a ``$$`` block, and in the
  core paper's conversion the labels that precede a formula inside a display line (``(12) F = ...``).
  Equation numbers the conversion dropped altogether cannot be found by a scan; the index lists them
  from reading the paper.

Usage::

    scripts/scan_statements.py               # list what the scan finds, per paper
    scripts/scan_statements.py --check       # report items in the text missing from the index (exit 1)
    scripts/scan_statements.py --init PAPER  # print a first TOML skeleton for one paper (used once)

``--seeds DIR`` overrides the seed directory (default: ``$RLDP_SEEDS``, else the first ``shared/seeds``
beside the repository or one of its parent directories).
"""

from __future__ import annotations

import argparse
import json
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

KINDS = {
    "theorem": "Theorem", "lemma": "Lemma", "proposition": "Proposition", "corollary": "Corollary",
    "definition": "Definition", "example": "Example", "remark": "Remark", "algorithm": "Algorithm",
    "fact": "Fact", "assumption": "Assumption", "claim": "Claim", "problem": "Problem",
    "figure": "Figure", "table": "Table",
}
_WORDS = "|".join(KINDS.values())
NUM = r"[A-Z]?\d+(?:\.\d+)*"
# A heading: the kind word at the start of a line (after markup such as ** or spaces), the number, then
# the end of the line, punctuation, or a parenthesised title.
HEADING = re.compile(rf"^[\s*#_]*(?P<kind>{_WORDS})\s+(?P<num>{NUM})(?P<rest>.*)$")
CAPTION = re.compile(r"^[\s*#_]*(?P<kind>Figure|Fig\.|Table)\s*(?P<num>\d+)\s*[:.]")
FIG_REF = re.compile(r"\b(?P<kind>Figure|Table)s?\s+(?P<num>\d+)\b")
EQ_END = re.compile(r"(?<!formula )(?<!equation )(?<!Equation )(?<!eq\. )\((?P<num>A?\d{1,3})\)\s*(?:\$\$)?\s*[.,]?\s*$")
EQ_QUAD = re.compile(r"\\quad\s*\((?P<num>A?\d{1,3})\)")
EQ_TAG = re.compile(r"\\tag\{(?P<num>A?\d{1,3})\}")
EQ_INLINE = re.compile(r"(?:^|\s)\((?P<num>A?\d{1,3})\)\s+(?=\S)")


@dataclass(frozen=True)
class Item:
    kind: str    # a key of KINDS, or "equation"
    number: str  # "3", "2.1", "A8"
    line: int
    text: str

    @property
    def label(self) -> str:
        return f"eq. ({self.number})" if self.kind == "equation" else f"{KINDS[self.kind]} {self.number}"


def default_seeds() -> Path:
    """``$RLDP_SEEDS``, else the first ``shared/seeds`` beside the repository or one of its parents."""
    env = os.environ.get("RLDP_SEEDS")
    if env:
        return Path(env)
    for up in ROOT.parents:
        if (up / "shared" / "seeds").is_dir():
            return up / "shared" / "seeds"
    return ROOT.parent / "shared" / "seeds"


def _is_heading(rest: str) -> bool:
    rest = rest.strip().lstrip("*").strip()
    if not rest:
        return True
    return bool(rest[0] in ".:(" or rest.startswith("**"))


def _display_line(line: str) -> bool:
    """True for a line of the core paper's conversion that is a displayed formula: mostly 1-2 character tokens."""
    toks = line.split()
    if len(toks) < 4:
        return False
    short = sum(1 for t in toks if len(t) <= 2)
    return short / len(toks) >= 0.6


def scan_text(text: str) -> list[Item]:
    items: dict[tuple[str, str], Item] = {}
    refs: dict[tuple[str, str], Item] = {}

    def add(store, kind, num, lineno, line):
        key = (kind, num)
        if key not in store:
            store[key] = Item(kind, num, lineno, line.strip()[:120])

    for lineno, line in enumerate(text.splitlines(), 1):
        m = CAPTION.match(line)
        if m:
            kind = "table" if m["kind"] == "Table" else "figure"
            add(items, kind, m["num"], lineno, line)
        else:
            m = HEADING.match(line)
            if m and _is_heading(m["rest"]):
                kind = m["kind"].lower()
                if not (kind in ("figure", "table") and "about here" in line):
                    add(items, kind, m["num"], lineno, line)
        if "about here" not in line:  # "Figures 5-6 about here." (converted to "Figures 56") places figures
            for m in FIG_REF.finditer(line):
                add(refs, m["kind"].lower(), m["num"], lineno, line)
        for rx in (EQ_END, EQ_QUAD, EQ_TAG):
            for m in rx.finditer(line):
                add(items, "equation", m["num"], lineno, line)
        if _display_line(line):
            for m in EQ_INLINE.finditer(line):
                add(items, "equation", m["num"], lineno, line)
    # Figures and tables that are referenced but have no caption in the conversion.
    own_figs = {k for k in items if k[0] in ("figure", "table")}
    for key, it in refs.items():
        if key not in own_figs and key not in items:
            items[key] = it
    order = {k: i for i, k in enumerate(list(KINDS) + ["equation"])}
    return sorted(items.values(), key=lambda it: (order[it.kind], _numkey(it.number)))


def _numkey(num: str):
    head = 1 if num[:1].isalpha() else 0
    return (head, [int(p) for p in re.findall(r"\d+", num)])


def scan_paper(path: Path) -> list[Item]:
    return scan_text(path.read_text(encoding="utf-8"))


# --- comparing with the index -------------------------------------------------------------------------

def expand_equations(spec: str) -> list[str]:
    """"12" -> ["12"]; "21-25" -> ["21", ..., "25"]; "A1-A27" -> ["A1", ..., "A27"]."""
    spec = spec.strip()
    m = re.fullmatch(r"(A?)(\d+)\s*-\s*(A?)(\d+)", spec)
    if m:
        if m[1] != m[3]:
            raise ValueError(f"equation range {spec!r} mixes numbering schemes")
        lo, hi = int(m[2]), int(m[4])
        if hi < lo:
            raise ValueError(f"equation range {spec!r} is reversed")
        return [f"{m[1]}{k}" for k in range(lo, hi + 1)]
    if not re.fullmatch(r"A?\d+", spec):
        raise ValueError(f"bad equation label {spec!r}")
    return [spec]


def missing_from_index(items: list[Item], entries: list[dict]) -> list[Item]:
    labels = set()
    eqs = set()
    for e in entries:
        if e.get("label"):
            labels.add(e["label"].strip())
        for spec in e.get("equations", []):
            eqs.update(expand_equations(spec))
    out = []
    for it in items:
        if it.kind == "equation":
            if it.number not in eqs:
                out.append(it)
        elif it.label not in labels:
            out.append(it)
    return out


def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def init_toml(paper: str, items: list[Item]) -> str:
    lines = [f"paper = {_toml_str(paper)}", ""]
    for it in items:
        if it.kind == "equation":
            continue
        lines += ["[[statement]]", f"id = {_toml_str(it.label.lower().replace(' ', ''))}",
                  f"kind = {_toml_str(it.kind)}", f"label = {_toml_str(it.label)}",
                  f"where = {_toml_str(f'line {it.line}')}", f"text = {_toml_str(it.text)}", "claims = []", ""]
    eqs = [it.number for it in items if it.kind == "equation"]
    lines.append("# equation labels found: " + ", ".join(eqs))
    return "\n".join(lines) + "\n"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=Path, default=None)
    ap.add_argument("--check", action="store_true", help="report numbered items missing from the index; exit 1 if any")
    ap.add_argument("--init", metavar="PAPER", help="print a TOML skeleton for this seed file name")
    args = ap.parse_args(argv)
    seeds = args.seeds or default_seeds()
    if not seeds.is_dir():
        print(f"scan_statements: error: seed directory {str(seeds)!r} not found", file=sys.stderr)
        return 2
    if args.init:
        print(init_toml(args.init, scan_paper(seeds / args.init)), end="")
        return 0
    if args.check:
        sys.path.insert(0, str(ROOT))
        from proofs.statements import load_index

        index = load_index()
        bad = 0
        for paper, idx in sorted(index.items()):
            path = seeds / paper
            if not path.is_file():
                print(f"{paper}: seed text not found in {seeds}")
                bad += 1
                continue
            missing = missing_from_index(scan_paper(path), idx["statement"])
            for it in missing:
                print(f"{paper}: line {it.line}: {it.label} is not in the index  | {it.text[:70]}")
            bad += len(missing)
            print(f"{paper}: {len(idx['statement'])} entries; {len(missing)} scanned items missing")
        return 1 if bad else 0
    for path in sorted(seeds.glob("*.txt")):
        items = scan_paper(path)
        print(f"== {path.name}: {len(items)} numbered items")
        for it in items:
            print(f"  {it.label:<18} line {it.line:<5} {it.text[:80]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
