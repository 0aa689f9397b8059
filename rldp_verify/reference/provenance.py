"""Which claims verify a reference quantity's formula: resolved in the claim registry, optionally re-run.

The map quantity -> claim ids lives with the claims (``REFERENCE_CLAIMS`` of the catalogue package's
``reference_claims`` module, :meth:`rldp_verify.claims.catalogue.Catalogue.reference_claims`); this module only
looks the ids up (:meth:`~rldp_verify.claims.catalogue.Catalogue.discover`) and, with ``run=True``, runs their
checks now, so the verdict in a table's provenance is computed, not copied. An id that is not in the
registry is an error (never silently dropped). ``package`` is the :class:`~rldp_verify.claims.catalogue.Catalogue`
or the name it is loaded from.
"""

from __future__ import annotations

from rldp_verify.claims.catalogue import DEFAULT_SOURCE, Catalogue
from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import REFERENCE_DPS


def claim_ids(quantity: str, package: str | Catalogue = DEFAULT_SOURCE) -> tuple[str, ...]:
    """The ids of the claims that back ``quantity`` (``REFERENCE_CLAIMS`` of ``<package>.reference_claims``);
    InputError when the package has none."""
    try:
        cat = Catalogue.load(package)
        table = cat.reference_claims()
    except ImportError:
        table = None
    name = Catalogue.name_of(package)
    if table is None:
        raise InputError(f"the claims package {name!r} has no reference_claims module")
    if quantity not in table:
        raise InputError(f"{name}.reference_claims names no claims for the quantity {quantity!r}")
    return tuple(table[quantity])


def pinned(package: str | Catalogue = DEFAULT_SOURCE) -> dict:
    """The package's pinned verdicts ({id: {"verdict", ...}}), or {} when it has none."""
    try:
        return Catalogue.load(package).pins()
    except (ImportError, OSError, ValueError, TypeError):
        return {}


def resolve(quantity: str, *, package: str | Catalogue = DEFAULT_SOURCE, run: bool = True,
            dps: int = REFERENCE_DPS) -> list[dict]:
    """[{"id", "paper", "source", "statement", "pinned_verdict", "verdict" and "seconds" (when run)}] for the
    quantity's claims."""
    from rldp_verify.claims import Context
    from rldp_verify.claims.runner import run_claim

    ids = claim_ids(quantity, package)
    cat = Catalogue.load(package)
    found = {c.id: c for c in cat.discover()}
    pins = pinned(cat)
    out = []
    for cid in ids:
        c = found.get(cid)
        if c is None:
            raise InputError(f"claim {cid!r} (named for {quantity!r} in {cat.name}.reference_claims) is not registered")
        rec = {"id": c.id, "paper": c.paper, "source": c.source, "statement": c.statement,
               "pinned_verdict": pins.get(c.id, {}).get("verdict")}
        if run:
            r = run_claim(c, Context(dps=dps, include_slow=True))
            rec["verdict"] = r.verdict.value
            rec["seconds"] = round(r.seconds, 3)
        out.append(rec)
    return out
