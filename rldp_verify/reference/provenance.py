"""Which claims verify a reference quantity's formula: resolved in the claim registry, optionally re-run.

The map quantity -> claim ids lives with the claims (``<proofs package>.reference_claims.REFERENCE_CLAIMS``);
this module only looks the ids up (:func:`rldp_verify.claims.discover`) and, with ``run=True``, runs their
checks now, so the verdict in a table's provenance is computed, not copied. An id that is not in the
registry is an error (never silently dropped).
"""

from __future__ import annotations

import importlib

from rldp_verify.core.errors import InputError


def claim_ids(quantity: str, package: str = "proofs") -> tuple[str, ...]:
    """The ids of the claims that back ``quantity`` (``REFERENCE_CLAIMS`` of ``<package>.reference_claims``);
    InputError when the package has none."""
    try:
        mod = importlib.import_module(f"{package}.reference_claims")
    except ImportError:
        raise InputError(f"the claims package {package!r} has no reference_claims module") from None
    table = getattr(mod, "REFERENCE_CLAIMS", {})
    if quantity not in table:
        raise InputError(f"{package}.reference_claims names no claims for the quantity {quantity!r}")
    return tuple(table[quantity])


def pinned(package: str = "proofs") -> dict:
    """The package's pinned verdicts ({id: {"verdict", ...}}), or {} when it has none."""
    import json
    from pathlib import Path

    try:
        mod = importlib.import_module(package)
        path = Path(mod.__file__).parent / "pinned_verdicts.json"
        return json.loads(path.read_text()).get("claims", {})
    except (ImportError, OSError, ValueError, TypeError):
        return {}


def resolve(quantity: str, *, package: str = "proofs", run: bool = True, dps: int = 30) -> list[dict]:
    """[{"id", "paper", "source", "statement", "pinned_verdict", "verdict" and "seconds" (when run)}] for the
    quantity's claims."""
    from rldp_verify.claims import Context, discover
    from rldp_verify.claims.runner import run_claim

    ids = claim_ids(quantity, package)
    found = {c.id: c for c in discover(package)}
    pins = pinned(package)
    out = []
    for cid in ids:
        c = found.get(cid)
        if c is None:
            raise InputError(f"claim {cid!r} (named for {quantity!r} in {package}.reference_claims) is not registered")
        rec = {"id": c.id, "paper": c.paper, "source": c.source, "statement": c.statement,
               "pinned_verdict": pins.get(c.id, {}).get("verdict")}
        if run:
            r = run_claim(c, Context(dps=dps, include_slow=True))
            rec["verdict"] = r.verdict.value
            rec["seconds"] = round(r.seconds, 3)
        out.append(rec)
    return out
