#!/usr/bin/env python3
"""Scan the seed papers' proofs and appendices for displayed steps and inference sentences, and compare them
with the proof-step index (``proofs/steps/<paper>.toml``; format in ``proofs/steps/__init__.py``).

What the scan finds in an appendix (the region of a seed text named in :data:`APPENDICES`):

- **labelled displays**: an equation label ``(A8)`` that opens a formula inside a display line (the core
  paper's conversion puts labels in front of their formula: ``(A2) P ^ s α ...``). A label followed by a
  word such as "and", "can", "implies", or by punctuation, is a *reference* ("Applying this to (A4), ...")
  and is not counted. Displays whose label the conversion dropped cannot be found; the index lists them
  with the number inferred between labelled anchors (see the index file's header).
- **inference sentences**: sentences of the region with a marker word of a step ("it follows", "hence",
  "thus", "since", "we find", "this shows", ...). Each must contain the ``quote`` of an ``inference`` entry.

Usage::

    scripts/scan_steps.py               # list what the scan finds, per paper and section
    scripts/scan_steps.py --check       # report scanned items missing from the index (exit 1 if any)

``--seeds DIR`` overrides the seed directory (as for ``scripts/scan_statements.py``).
"""

from __future__ import annotations

import argparse
import os
import re
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

#: Per seed file: the appendix/proof regions scanned, as (section name, regex of the first line). A region
#: runs to the start of the next region or the end of the text; a region named "-" only ends the one before it
#: (e.g. the references). Add the other papers' proofs here.
APPENDICES: dict[str, list[tuple[str, str]]] = {
    "000_aca93ed29ea857ee.txt": [
        # the proofs in the body (Sec. 6: Proposition 3; Sec. 7: Lemma 3, Theorems 5 and 6), each ended by a "-" region
        ("6.P3", r"^Suppose that Q satisfies \( ε , F \) -RLDP with respect to P X \. Let"),
        ("-", r"^The proposition demonstrates that RLDP is very similar"),
        ("7.L3", r"^Fix y, and let Q y max"), ("7.T5", r"^\(Proof of Theorem 5\)\. We start"),
        ("-", r"^Theorem 5 establishes the privacy of independent reporting"),
        ("7.T6", r"^Since R 1 \( S \) and U are independent given S"), ("-", r"^We use Theorems 5 and 6 to find"),
        ("A.1", r"^Appendix A\.1\. "), ("A.2", r"^Appendix A\.2\. "), ("A.3", r"^Appendix A\.3\. "),
        ("A.4", r"^Appendix A\.4\. "), ("A.5", r"^Appendix A\.5\. "), ("A.6", r"^Appendix A\.6\. "),
    ],
    "001_29f852b736fc5e16.txt": [
        ("III.P3", r"^We provide a constructive proof in Appendix B\. Here"), ("-", r"^III-A Connection to the Confusion"),
        ("IV.T6", r"^Fix QXQ_\{X\} and PXP_\{X\}"), ("-", r"^Note that this proof technique can also be used"),
        ("IV.T8", r"^The proof follows from bounding the joint range"), ("-", r"^Remark 9\."),
        ("V.C11", r"^Follows from Theorem\s6 with"), ("-", r"^This result stresses the relation between"),
        ("A", r"^Appendix A Proof of Theorem\s8"), ("B", r"^Appendix B Proof of Proposition\s3"), ("-", r"^References\s*$"),
    ],
    "002_e8b3078a5cf2ef08.txt": [
        ("5.1", r"^5\.1 Proof of Proposition 3\.1"), ("5.2", r"^5\.2 Fact 1"), ("5.3", r"^5\.3 Proof of Proposition 3\.2"),
        ("-", r"^References\s*$"),
    ],
    "004_3b35ffa09c03afc4.txt": [
        ("7", r"^7 Proof of Theorems 2 and 4"), ("7.1", r"^7\.1 Proof of Theorem 21"), ("7.2", r"^7\.2 Proof of Lemma 22"),
        ("7.3", r"^7\.3 Proof of Lemma 23"), ("-", r"^8 Proofs for Hypothesis Testing"), ("8.1", r"^8\.1 Proof of Theorem 5"),
        ("8.2", r"^8\.2 Proof of Lemma 24"), ("8.3", r"^8\.3 Proof of Theorem 6"), ("8.4", r"^8\.4 Proof of Theorem 8"),
        ("8.5", r"^8\.5 Proof of Theorem 7"), ("-", r"^9 Proofs for Information Preservation"),
        ("9.1", r"^9\.1 Proof of Theorem 12"), ("9.2", r"^9\.2 Proof of Theorem 13"), ("9.3", r"^9\.3 Proof of Lemma 26"),
        ("9.4", r"^9\.4 Proof of Lemma 27"), ("9.5", r"^9\.5 Proof of Theorem 14"), ("10", r"^10 Proof of Proposition 17"),
        ("-", r"^Acknowledgments\s*$"),
    ],
    "003_726cfd382c041001.txt": [
        ("A", r"^## APPENDIX A PROOF OF THEOREM 3"), ("B", r"^## APPENDIX B CONCAVE CONJUGATES"),
        ("C", r"^APPENDIX C\s*$"),
    ],
}

#: how a paper's conversion writes display labels: "inline" -- "(A2) formula" inside a display line (seed 000);
#: "quad" -- "$$ formula \\quad (33)$$" (the Markdown conversions, e.g. seed 003). Default "inline".
#: "end" -- a label "(63)" closing a display line (the LaTeX-to-text conversions, e.g. seed 001).
LABEL_STYLE: dict[str, str] = {"003_726cfd382c041001.txt": "quad", "001_29f852b736fc5e16.txt": "end",
                               "002_e8b3078a5cf2ef08.txt": "end", "004_3b35ffa09c03afc4.txt": "end"}
END_LABEL = re.compile(r"\((?P<num>\d{1,3})\)\s*$")
LABEL = re.compile(r"\((?P<num>A?\d{1,3})\)(?P<next>\s*\S*)")
QUAD_LABEL = re.compile(r"\\(?:quad|qquad)\s*\((?P<num>\d{1,3})\)|\\tag\{(?P<tag>\d{1,3})\}")
#: a label followed by one of these (or by punctuation / a dash) is a reference, not a display label
REFERENCE_NEXT = {"and", "or", "is", "are", "can", "implies", "shows", "has", "has,", "corresponds", "one", "we",
                  "for", "in", "holds", "gives", "yields", "becomes", "with", "to", "that", "says"}
MARKERS = re.compile(
    r"\b(it follows|hence|thus|therefore|we find|we obtain|we (?:can )?conclude|this shows|showing that|implies|"
    r"since|so that|which means|as such|it is clear|it is straightforward|by definition|by duality|by rescaling|"
    r"we see that|this proves|proving|proves the|and so|either way|must|it is easy to see|this means|we have to|"
    r"by lemmas?|applying lemmas?|then by|as in \(\d+)\b", re.I)
SENTENCE_SPLIT = re.compile(r"(?<=[.;])\s+(?=[A-Z(])")


@dataclass(frozen=True)
class Found:
    """A scanned item: ``kind`` "display" (``label`` "A8") or "inference" (``text`` the sentence)."""

    kind: str
    section: str
    line: int
    label: str | None
    text: str


def default_seeds() -> Path:
    """``$RLDP_SEEDS``, else the first ``shared/seeds`` beside the repository or one of its parents."""
    env = os.environ.get("RLDP_SEEDS")
    if env:
        return Path(env)
    for up in ROOT.parents:
        if (up / "shared" / "seeds").is_dir():
            return up / "shared" / "seeds"
    return ROOT.parent / "shared" / "seeds"


def regions(text: str, spec: list[tuple[str, str]]) -> list[tuple[str, int, list[str]]]:
    """``[(section, first line number, lines)]`` of ``text`` for the region heads of ``spec``."""
    lines = text.splitlines()
    starts = []
    for name, rx in spec:
        r = re.compile(rx)
        hit = next((i for i, ln in enumerate(lines) if r.search(ln)), None)
        if hit is None:
            raise ValueError(f"region {name!r}: no line matches {rx!r}")
        starts.append((hit, name))
    starts.sort()
    out = []
    for k, (i, name) in enumerate(starts):
        j = starts[k + 1][0] if k + 1 < len(starts) else len(lines)
        out.append((name, i + 1, lines[i:j]))
    return out


def _is_display_label(next_token: str) -> bool:
    tok = next_token.strip()
    if not tok:
        return False
    if tok[0] in ",.;:–-)" or tok.startswith("–("):
        return False
    return tok.lower() not in REFERENCE_NEXT


def scan_region(section: str, first_line: int, lines: list[str], style: str = "inline") -> list[Found]:
    """The labelled displays and inference sentences of one region (``style``: see :data:`LABEL_STYLE`)."""
    out: list[Found] = []
    seen: set[str] = set()
    for k, line in enumerate(lines):
        if style == "quad":
            hits = [(m.start(), m["num"] or m["tag"]) for m in QUAD_LABEL.finditer(line)]
        elif style == "end":
            hits = [(m.start(), m["num"]) for m in END_LABEL.finditer(line)]
        else:
            hits = [(m.start(), m["num"]) for m in LABEL.finditer(line) if _is_display_label(m["next"])
                    and m["num"].startswith("A") == section.startswith("A")]   # appendix labels are (A1), (A2), ...
        for start, num in hits:
            if num not in seen:
                seen.add(num)
                out.append(Found("display", section, first_line + k, num,
                                 line[max(0, start - 60):start + 20] if style == "quad" else line[start:start + 80]))
    for k, line in enumerate(lines):
        if line.lstrip().startswith("$$"):
            continue                                   # a formula line (Markdown conversions)
        for sent in SENTENCE_SPLIT.split(line):
            # a one- or two-word fragment ("Since") is a sentence broken by a display: the index quotes its
            # continuation after the display instead
            if MARKERS.search(sent) and len(sent.split()) >= 3:
                out.append(Found("inference", section, first_line + k, None, sent.strip()))
    return out


def scan_paper(path: Path, spec: list[tuple[str, str]]) -> list[Found]:
    """Every labelled display and inference sentence of the regions ``spec`` of the seed text at ``path``."""
    text = path.read_text(encoding="utf-8")
    style = LABEL_STYLE.get(path.name, "inline")
    return [f for name, first, lines in regions(text, spec) if name != "-" for f in scan_region(name, first, lines, style)]


def missing_from_index(found: list[Found], entries: list[dict]) -> list[Found]:
    """The scanned items the index entries do not account for: a display whose label no ``display`` entry
    has, an inference sentence that contains the ``quote`` of no ``inference`` entry."""
    labels = {e.get("label") for e in entries if e.get("kind") == "display"}
    quotes = [" ".join(e["quote"].split()) for e in entries if e.get("kind") == "inference" and e.get("quote")]
    out = []
    for f in found:
        if f.kind == "display":
            if f.label not in labels:
                out.append(f)
        elif not any(q in " ".join(f.text.split()) for q in quotes):
            out.append(f)
    return out


def quotes_not_in_text(text: str, entries: list[dict]) -> list[str]:
    """Ids of inference entries whose ``quote`` is not in the seed text (a quote must be copied verbatim)."""
    flat = " ".join(text.split())
    return [e["id"] for e in entries if e.get("quote") and " ".join(e["quote"].split()) not in flat]


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=Path, default=None)
    ap.add_argument("--check", action="store_true", help="report scanned items missing from the index; exit 1 if any")
    args = ap.parse_args(argv)
    seeds = args.seeds or default_seeds()
    if not seeds.is_dir():
        print(f"scan_steps: error: seed directory {str(seeds)!r} not found", file=sys.stderr)
        return 2
    if args.check:
        sys.path.insert(0, str(ROOT))
        from proofs.steps import load_index

        index = load_index()
        bad = 0
        for paper, spec in sorted(APPENDICES.items()):
            path = seeds / paper
            if not path.is_file():
                print(f"{paper}: seed text not found in {seeds}")
                bad += 1
                continue
            found = scan_paper(path, spec)
            if paper not in index:
                print(f"{paper}: not indexed yet ({sum(f.kind == 'display' for f in found)} labelled displays and "
                      f"{sum(f.kind == 'inference' for f in found)} inference sentences in its proofs)")
                continue
            entries = index[paper]["step"]
            missing = missing_from_index(found, entries)
            for f in missing:
                what = f"({f.label})" if f.kind == "display" else "inference sentence"
                print(f"{paper}: App. {f.section} line {f.line}: {what} is not in the step index  | {f.text[:70]}")
            stale = quotes_not_in_text(path.read_text(encoding="utf-8"), entries)
            for sid in stale:
                print(f"{paper}: step {sid}: its quote is not in the seed text")
            bad += len(missing) + len(stale)
            print(f"{paper}: {len(entries)} steps indexed; {sum(f.kind == 'display' for f in found)} labelled "
                  f"displays and {sum(f.kind == 'inference' for f in found)} inference sentences scanned; "
                  f"{len(missing)} missing, {len(stale)} stale quotes")
        return 1 if bad else 0
    for paper, spec in sorted(APPENDICES.items()):
        found = scan_paper(seeds / paper, spec)
        print(f"== {paper}: {len(found)} items")
        for f in found:
            print(f"  App. {f.section} line {f.line:<4} {f.kind:<9} {f.label or '':<5} {f.text[:90]}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
