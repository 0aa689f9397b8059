"""Certificates in the verification report (issue 23): ``rldp-verify report --certificates DIR``.

A claim's check puts certificate documents in its evidence (:mod:`rldp_verify.certificates.claims`).  After
the claims ran, :func:`attach` takes them out of each claim's JSON record, so that ``verification.json`` keeps
only a reference ``evidence["certificates"] = {"file", "kinds", "status"}``; with a directory it writes them
to ``DIR/<claim id>.json``, re-checks each with the independent checker (:mod:`rldp_verify_check`, which
imports nothing from the engine) and records per claim ``"certificate"``: "certificate re-checked",
"certificate FAILED: <why>" or "no certificate: <reason>".  The reason is the claim's own
(``no_certificate(reason)``) or, when it gives none, one derived from its method (:func:`default_reason`).
The report's top-level ``"certificates"`` entry counts them.  Nothing here changes a verdict.

A claim reused from the result cache carries its documents (the cache stores the record before the split);
one reused from a previous ``verification.json`` carries only the reference, and its documents are read back
from ``DIR/<file>`` (or the previous run's directory) and re-checked like fresh ones.
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

from rldp_verify.certificates import recheck, write
from rldp_verify.certificates.claims import KEY, NONE_KEY, file_name, split

RECHECKED, FAILED, NONE = "certificate re-checked", "certificate FAILED", "no certificate"


def default_reason(claim: dict) -> str:
    """Why a claim without certificate documents (and without its own reason) has none, from its method."""
    if claim.get("verdict") == "ERROR":
        return "the check ended in ERROR"
    if (claim.get("evidence") or {}).get("figure"):
        return "a figure (a redrawn plot: no certificate kind for it)"
    methods = set(str(claim.get("method", "")).split("+"))
    if "property" in methods:
        return "property test on sampled instances (a sample is not a proof)"
    if methods == {"symbolic"}:
        return "sympy simplification (no symbolic-identity certificate wired into this check)"
    if "symbolic" in methods:
        return "rests partly on sympy simplification (no symbolic-identity certificate wired into this check)"
    return f"no certificate builder wired into this check yet (method: {claim.get('method', '?')})"


def _docs_of(claim: dict, dirs: list[Path]) -> tuple[list[dict], str | None]:
    """The claim's certificate documents: from its evidence, or (a record reused from verification.json
    holding only the reference) from the referenced file in one of ``dirs``; (docs, problem)."""
    ev = claim.get("evidence") or {}
    ref = ev.get(KEY)
    if isinstance(ref, list):
        return split(ev)[1], None
    if isinstance(ref, dict) and ref.get("file"):
        for d in dirs:
            p = Path(d) / ref["file"]
            if p.is_file():
                try:
                    docs = json.loads(p.read_text())
                except ValueError as exc:
                    return [], f"{p} is unreadable: {exc}"
                return (docs if isinstance(docs, list) else [docs]), None
        return [], (f"the claim was reused from verification.json and its file {ref['file']} is in none of "
                    f"{', '.join(map(str, dirs))} (run with --no-cache)")
    return [], None


def attach(claims: list[dict], cert_dir: str | Path | None, previous: str | Path | None = None) -> dict | None:
    """Split the certificate documents out of each claim record of ``claims`` (in place); with ``cert_dir``
    write and re-check them and set each claim's ``"certificate"`` status. Returns the report's
    ``"certificates"`` entry ``{"dir", "re-checked", "failed", "none", "kinds": {kind: claims}}`` (None without
    ``cert_dir``). ``previous``: another directory to find the files of claims reused from verification.json."""
    dirs = [Path(cert_dir)] + ([Path(previous)] if previous is not None else []) if cert_dir is not None else []
    counts: Counter[str] = Counter()
    kinds: Counter[str] = Counter()
    for c in claims:
        ev = c.get("evidence")
        if not isinstance(ev, dict):
            ev = {}
        docs, problem = _docs_of(c, dirs)
        if cert_dir is None:
            if isinstance(ev.get(KEY), list):
                c["evidence"] = {**split(ev)[0], KEY: {"kinds": sorted({str(d.get("kind")) for d in docs}),
                                                       "count": len(docs)}}
            continue
        if not docs and problem is None:
            status = f"{NONE}: {ev.get(NONE_KEY) or default_reason(c)}"
            counts["none"] += 1
            (Path(cert_dir) / file_name(c["id"])).unlink(missing_ok=True)   # a stale file of an earlier run
        else:
            ks = sorted({str(d.get("kind")) for d in docs})
            name = file_name(c["id"])
            if problem is None:
                write(Path(cert_dir) / name, docs)
                bad = [r for r in (recheck(d) for d in docs) if not r.ok]
                problem = None if bad else ""
                if bad:
                    problem = f"{bad[0].kind} {bad[0].name}: {bad[0].message}"
            if problem:
                status = f"{FAILED}: {problem}"
                counts["failed"] += 1
            else:
                status = RECHECKED
                counts["re-checked"] += 1
                kinds.update(ks)
            c["evidence"] = {**{k: v for k, v in ev.items() if k != KEY},
                             KEY: {"file": name, "kinds": ks, "count": len(docs), "status": status}}
        c["certificate"] = status
    if cert_dir is None:
        return None
    return {"dir": str(cert_dir), "re-checked": counts["re-checked"], "failed": counts["failed"],
            "none": counts["none"], "kinds": dict(sorted(kinds.items()))}


def summary_line(entry: dict | None) -> str:
    """The report's one-line count: "certificates: N re-checked, N failed, N claims without one"."""
    if not entry:
        return ""
    return (f"certificates: {entry['re-checked']} re-checked, {entry['failed']} failed, {entry['none']} claims "
            f"without one (in {entry['dir']})")
