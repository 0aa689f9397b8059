"""The hook by which a claim's evidence carries certificates (issue 23), for ``report --certificates DIR``.

A check adds ``**certificates.claims.evidence(doc, ...)`` to its :class:`~rldp_verify.claims.Outcome`'s
evidence (the key ``"certificates"``: a list of certificate documents), or ``**no_certificate(reason)``
(the key ``"no_certificate"``: why this verdict has none, e.g. "statistical statement").  The report writer
then calls :func:`split` on each claim's evidence, so that ``verification.json`` keeps a short reference
(``{"certificates": {"file": "<id>.json", "kinds": [...]}}``) instead of the documents, and
:func:`write_claim_certificates` writes them to DIR, one file per claim, re-checked by the independent
checker.  Nothing here changes a verdict: a certificate that fails is reported as failed.
"""

from __future__ import annotations

import re
from pathlib import Path

from rldp_verify.certificates import recheck, write

KEY, NONE_KEY = "certificates", "no_certificate"


def evidence(*docs: dict) -> dict:
    """Evidence entries carrying certificate documents (spread into ``Outcome.verified(..., **evidence(doc))``)."""
    return {KEY: list(docs)}


def no_certificate(reason: str) -> dict:
    """Evidence entry saying why a verdict carries no certificate."""
    return {NONE_KEY: reason}


def split(evidence_: dict) -> tuple[dict, list[dict]]:
    """(evidence without the certificate documents, the documents)."""
    docs = evidence_.get(KEY)
    if not isinstance(docs, list):
        return dict(evidence_), []
    rest = {k: v for k, v in evidence_.items() if k != KEY}
    return rest, docs


def file_name(claim_id: str) -> str:
    """The certificate file of a claim: its id with characters other than [A-Za-z0-9._-] replaced."""
    return re.sub(r"[^A-Za-z0-9._-]", "_", claim_id) + ".json"


def write_claim_certificates(claims: list[dict], out_dir) -> dict:
    """Write each claim's certificates (``claims``: entries of ``verification.json`` or dicts with ``id`` and
    ``evidence``) to ``out_dir/<id>.json``, re-check them, and return
    ``{"per_claim": {id: status}, "re-checked": n, "failed": n, "none": n}``; status is "certificate re-checked",
    "certificate FAILED: <why>" or "no certificate: <reason>" (reason "not given" when the claim gives none)."""
    per_claim: dict[str, str] = {}
    n = {"re-checked": 0, "failed": 0, "none": 0}
    for c in claims:
        ev = c.get("evidence") or {}
        _, docs = split(ev)
        if not docs:
            per_claim[c["id"]] = f"no certificate: {ev.get(NONE_KEY, 'not given')}"
            n["none"] += 1
            continue
        write(Path(out_dir) / file_name(c["id"]), docs)
        bad = [r for r in (recheck(d) for d in docs) if not r.ok]
        if bad:
            per_claim[c["id"]] = f"certificate FAILED: {bad[0].message}"
            n["failed"] += 1
        else:
            per_claim[c["id"]] = "certificate re-checked"
            n["re-checked"] += 1
    return {"per_claim": per_claim, **n}


def built(builder, *args, **kwargs) -> dict:
    """``evidence(builder(*args, **kwargs))`` -- or, when building the certificate raises, a ``no_certificate``
    entry naming the exception: a certificate that cannot be built never turns a verdict into ERROR, and the
    report says why there is none. ``builder`` may return a document or a list of documents."""
    try:
        out = builder(*args, **kwargs)
    except Exception as exc:  # noqa: BLE001 - reported per claim, never hidden
        return no_certificate(f"building the certificate failed: {type(exc).__name__}: {str(exc)[:200]}")
    return evidence(*(out if isinstance(out, list) else [out]))
