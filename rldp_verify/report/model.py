"""What the report shows, independent of its format: findings grouped by kind, the tool's own
consistency claims apart, figures shown once, readable formulas.

Everything here works on the JSON document of :func:`rldp_verify.report.build` (so ``report
--from-json`` renders the same page as a fresh run). The order of the claims is the document's:
``build`` puts each paper's claims in the paper's own order, which the proofs package derives from its
statement index; nothing here re-sorts them.
"""

from __future__ import annotations

import re
from collections import Counter

VERDICTS = ("VERIFIED", "REFUTED", "INCONCLUSIVE", "ERROR")
# Finding kinds (issue 9): the ones that change what the paper claims first.
KINDS = ("false", "wrong-number", "missing-hypothesis", "misprint", "proof-gap", "reading-dependent", "unclassified")
KIND_TITLES = {
    "false": "False statements",
    "wrong-number": "Printed numbers not reproduced",
    "missing-hypothesis": "Missing hypotheses",
    "misprint": "Misprints",
    "proof-gap": "Proof gaps (the statement holds, a step of its proof does not)",
    "reading-dependent": "Reading-dependent (false as written, true under a charitable reading; both shown)",
    "unclassified": "Unclassified findings",
}
# Claims that check the tool's own machinery against the paper (not a statement of the paper itself).
TOOL_ID_SEGMENTS = ("audit",)
TOOL_SOURCE_MARKERS = ("derived for the audit", "our variant")


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


def followers(claims: list[dict]) -> dict[str, list[dict]]:
    """Issue 24, one finding counted once: {root claim id: the REFUTED claims that name it as their ``root``},
    for roots that are themselves REFUTED in ``claims`` (a follower of a root that is not is a finding of its
    own)."""
    refuted = {c["id"] for c in claims if c["verdict"] == "REFUTED"}
    out: dict[str, list[dict]] = {}
    for c in claims:
        root = c.get("root")
        if c["verdict"] == "REFUTED" and root and root != c["id"] and root in refuted:
            out.setdefault(root, []).append(c)
    return out


def distinct_findings(claims: list[dict]) -> list[dict]:
    """The REFUTED claims that are findings of their own: every REFUTED claim but the followers of another
    REFUTED claim (:func:`followers`)."""
    follow = {c["id"] for cs in followers(claims).values() for c in cs}
    return [c for c in claims if c["verdict"] == "REFUTED" and c["id"] not in follow]


def findings(claims: list[dict]) -> list[tuple[str, str, list[dict]]]:
    """``[(group key, title, claims)]``: ERROR first (if any), REFUTED by kind (false and wrong-number
    first) — the distinct findings only, each follower listed under its root (:func:`followers`) —, then
    INCONCLUSIVE; each group in paper order."""
    groups = []
    errs = [c for c in claims if c["verdict"] == "ERROR"]
    if errs:
        groups.append(("error", "Checks that failed to run (ERROR)", errs))
    distinct = distinct_findings(claims)
    for k in KINDS:
        cs = [c for c in distinct if kind_of(c) == k]
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
    """The paper's claims in the document's order (the paper's own, see :func:`rldp_verify.report.build`),
    split into (the paper's statements, the tool's own checks)."""
    cs = [c for c in doc["claims"] if c["paper"] == paper]
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


def figure_of(c: dict, figs: dict[str, list[str]]) -> tuple[str, list[str], str | None] | None:
    """The figure claim ``c`` cites, as (path, the other claims citing it, None) when ``c`` shows it (it cites
    it first), (path, [], the claim that shows it) when another does; None without a figure."""
    fig = (c.get("evidence") or {}).get("figure")
    if not (isinstance(fig, str) and fig):
        return None
    users = figs.get(fig, [])
    if users and users[0] == c["id"]:
        return fig, users[1:], None
    return (fig, [], users[0]) if users else None


def anchor(claim_id: str) -> str:
    """The HTML/Markdown anchor of a claim."""
    return "claim-" + re.sub(r"[^A-Za-z0-9_.\-]", "-", claim_id)


def slug(text: str) -> str:
    """A lowercase ASCII anchor id: runs of other characters become '-' ("x" when nothing is left)."""
    return re.sub(r"[^a-z0-9]+", "-", text.lower()).strip("-") or "x"


# ------------------------------------------------------------------ readable formulas (Unicode)

_GREEK = {"alpha": "α", "beta": "β", "gamma": "γ", "Gamma": "Γ", "delta": "δ", "Delta": "Δ", "eps": "ε",
          "epsilon": "ε", "theta": "θ", "lambda": "λ", "mu": "μ", "xi": "ξ", "rho": "ρ", "sigma": "σ",
          "tau": "τ", "phi": "φ", "Phi": "Φ", "chi": "χ", "psi": "ψ", "omega": "ω", "eta": "η"}
_GREEK_RE = re.compile(r"(?<![A-Za-z.])(" + "|".join(sorted(_GREEK, key=len, reverse=True)) + r")(?![A-Za-z])")
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


def benchmark_certificates(doc: dict) -> str | None:
    """The summary's sentence on the benchmark audits' certificates (issue 23): the cells of every benchmark table's
    ``"certificate"`` column ("re-checked (...)", "FAILED: ...", "none: ..."; see ``benchmarks/_certificates.py``),
    counted apart from the claims'; None when no table has that column."""
    counts: Counter[str] = Counter()
    tables = 0
    for b in doc.get("benchmarks") or []:
        cols = list(b.get("columns") or [])
        if "certificate" not in cols:
            continue
        tables += 1
        i = cols.index("certificate")
        for row in b.get("rows") or []:
            cell = str(row[i]) if i < len(row) and row[i] is not None else ""
            counts[next((k for k in ("re-checked", "FAILED", "none") if cell.startswith(k)), "none")] += 1
    if not tables:
        return None
    return (f"Benchmark audits ({tables} tables, counted apart from the claims): {counts['re-checked']} certificates "
            f"re-checked, {counts['FAILED']} FAILED, {counts['none']} rows without one (the reason in the row).")
