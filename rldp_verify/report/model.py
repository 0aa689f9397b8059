"""What the report shows, independent of its format: the paper's own order of claims, findings
grouped by kind, the tool's own consistency claims, figures shown once, readable formulas.

Everything here works on the JSON document of :func:`rldp_verify.report.build` (so ``report
--from-json`` renders the same page as a fresh run).
"""

from __future__ import annotations

import re
from collections import Counter

VERDICTS = ("VERIFIED", "REFUTED", "INCONCLUSIVE", "ERROR")
# Finding kinds (issue 9): the ones that change what the paper claims first.
KINDS = ("false", "wrong-number", "missing-hypothesis", "misprint", "unclassified")
KIND_TITLES = {
    "false": "False statements",
    "wrong-number": "Printed numbers not reproduced",
    "missing-hypothesis": "Missing hypotheses",
    "misprint": "Misprints",
    "unclassified": "Unclassified findings",
}
# Claims that check the tool's own machinery against the paper (not a statement of the paper itself).
TOOL_ID_SEGMENTS = ("audit",)
TOOL_SOURCE_MARKERS = ("derived for the audit", "our variant")

_ROMAN = {"I": 1, "V": 5, "X": 10, "L": 50}


def _roman(s: str) -> int | None:
    if not s or any(ch not in _ROMAN for ch in s):
        return None
    total = 0
    for a, b in zip(s, s[1:] + " "):
        v = _ROMAN[a]
        total += -v if b in _ROMAN and _ROMAN[b] > v else v
    return total


def _numbers(text: str) -> tuple:
    """'3.2.1' -> (3, 2, 1); 'IV-B' -> (4, 2); 'A.6' -> (1, 6); '5.3' -> (5, 3)."""
    out = []
    for part in re.split(r"[.\-]", text):
        if part.isdigit():
            out.append(int(part))
        elif _roman(part) is not None and len(part) > 0 and (len(part) > 1 or part in "IVX"):
            out.append(_roman(part))
        elif len(part) == 1 and part.isalpha():
            out.append(ord(part.upper()) - ord("A") + 1)
        else:
            break
    return tuple(out)


_SEC = re.compile(r"\b(Abstract|Secs?\.|Section|App\.|Appendix|Appendices)\s*([A-Z0-9][A-Za-z0-9.\-]*)?")
_EQ = re.compile(r"\beqs?\.\s*\(?A?(\d+)|\((\d+)\)")


def order_key(claim: dict) -> tuple:
    """Sort key in the paper's own order: the abstract, then sections (1 < 2 < 2.1 < IV < IV-A < V),
    then appendices, then sources without a section; within a place by the first equation number
    cited, then by id."""
    src = claim.get("source") or ""
    m = _SEC.search(src)
    if m is None:
        part, place = 3, ()
    elif m.group(1) == "Abstract":
        part, place = 0, ()
    elif m.group(1).startswith("App"):
        part, place = 2, _numbers((m.group(2) or "").rstrip("."))
    else:
        part, place = 1, _numbers((m.group(2) or "").rstrip("."))
    e = _EQ.search(src)
    eq = int(e.group(1) or e.group(2)) if e else 10**6
    return (part, place, eq, claim["id"])


def is_tool_claim(claim: dict) -> bool:
    """A consistency claim of the tool itself (e.g. ``rldp.audit.*``), shown in a separate part."""
    segs = claim["id"].split(".")
    src = (claim.get("source") or "").lower()
    return any(s in segs[1:2] for s in TOOL_ID_SEGMENTS) or any(m in src for m in TOOL_SOURCE_MARKERS)


def kind_of(claim: dict) -> str | None:
    """The finding kind of a REFUTED claim (issue 9: ``kind`` on the result or in its evidence);
    "unclassified" when none is given; None for other verdicts."""
    if claim["verdict"] != "REFUTED":
        return None
    k = claim.get("kind") or (claim.get("evidence") or {}).get("kind")
    return k if k in KINDS else "unclassified"


def findings(claims: list[dict]) -> list[tuple[str, str, list[dict]]]:
    """``[(group key, title, claims)]``: ERROR first (if any), REFUTED by kind (false and wrong-number
    first), then INCONCLUSIVE; each group in paper order."""
    groups = []
    errs = [c for c in claims if c["verdict"] == "ERROR"]
    if errs:
        groups.append(("error", "Checks that failed to run (ERROR)", errs))
    for k in KINDS:
        cs = [c for c in claims if kind_of(c) == k]
        if cs:
            groups.append((f"refuted-{k}", f"REFUTED — {KIND_TITLES[k]}", cs))
    inc = [c for c in claims if c["verdict"] == "INCONCLUSIVE"]
    if inc:
        groups.append(("inconclusive", "INCONCLUSIVE", inc))
    return groups


def per_paper_counts(doc: dict) -> list[tuple[str, str, Counter]]:
    """``[(paper file, title, Counter of verdicts)]`` in report order."""
    out = []
    for paper, title in doc["papers"].items():
        out.append((paper, title, Counter(c["verdict"] for c in doc["claims"] if c["paper"] == paper)))
    return out


def paper_claims(doc: dict, paper: str) -> tuple[list[dict], list[dict]]:
    """The paper's claims in its own order, split into (the paper's statements, the tool's own checks)."""
    cs = sorted((c for c in doc["claims"] if c["paper"] == paper), key=order_key)
    return [c for c in cs if not is_tool_claim(c)], [c for c in cs if is_tool_claim(c)]


def figures(doc: dict) -> dict[str, list[str]]:
    """figure path -> ids of the claims that cite it (report order); the first shows it."""
    out: dict[str, list[str]] = {}
    for paper in doc["papers"]:
        stmts, tool = paper_claims(doc, paper)
        for c in stmts + tool:
            fig = (c.get("evidence") or {}).get("figure")
            if isinstance(fig, str) and fig:
                out.setdefault(fig, []).append(c["id"])
    return out


def anchor(claim_id: str) -> str:
    """The HTML/Markdown anchor of a claim."""
    return "claim-" + re.sub(r"[^A-Za-z0-9_.\-]", "-", claim_id)


def slug(text: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


# ------------------------------------------------------------------ readable formulas (Unicode)

_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "Gamma": "Γ", "delta": "δ", "Delta": "Δ", "eps": "ε",
          "epsilon": "ε", "theta": "θ", "lambda": "λ", "mu": "μ", "xi": "ξ", "rho": "ρ", "sigma": "σ",
          "tau": "τ", "phi": "φ", "Phi": "Φ", "chi": "χ", "psi": "ψ", "omega": "ω", "eta": "η"}
_GREEK_RE = re.compile(r"(?<![A-Za-z])(" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?![A-Za-z])")
_SUP = str.maketrans("0123456789+-()n", "⁰¹²³⁴⁵⁶⁷⁸⁹⁺⁻⁽⁾ⁿ")
_OPS = [("<=", "≤"), (">=", "≥"), ("!=", "≠"), ("->", "→"), ("+/-", "±"), ("sqrt", "√"), ("P-hat", "P̂"),
        ("P^_", "P̂_"), ("P^ ", "P̂ "), ("F-tilde", "F̃"), ("F-bar", "F̄"), ("Gamma-hat", "Γ̂")]


def pretty(text: str | None) -> str:
    """Prose with ASCII formulas made readable: Greek letters, ≤ ≥ ≠ →, simple superscripts
    (x^2, e^-1). Only for display (the JSON keeps the text as written)."""
    if not text:
        return ""
    s = str(text)
    for a, b in _OPS:
        s = s.replace(a, b)
    s = _GREEK_RE.sub(lambda m: _GREEK[m.group(1)], s)
    s = re.sub(r"\^(-?[0-9]+|n)(?![0-9A-Za-z.])", lambda m: m.group(1).translate(_SUP), s)
    return s
