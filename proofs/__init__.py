"""The papers' claims, one folder per paper, one module per numbered statement: the catalogue of papers.

Papers (folder, seed file under ../shared/seeds/, title, bibliographic data) are listed in :mod:`proofs.papers`.
The engine reaches this package only through :class:`rldp_verify.claims.catalogue.Catalogue` (loaded by name,
``proofs`` in the repository, ``rldp_verify_papers`` when installed from the wheel): modules here import each
other relatively (``from ._common import ...``), never as ``proofs.*``, so the package works under either name.
Modules are
named ``<kind><n>_<topic>.py`` (kind: def, thm, lem, prop, cor, rem, fact, ex, eq, or sec for
section-level statements and experiments); helpers start with ``_``.

Modules register claims with :func:`rldp_verify.claims.claim`; ``rldp-verify report`` discovers them. They
use the engine's public API only (no ``_private`` names, no ``rldp_verify.cli``).

``proofs/statements/`` is the statement index (every statement of each paper and the claims that check it;
a paper may keep its part in its own folder as ``<name>/statements.toml`` instead); ``rldp-verify report``
calls :func:`coverage` for the report's coverage table and :func:`claim_order` for the order of each paper's
claims (the engine knows no paper: both come from here). Pins: ``pinned_verdicts.json`` here, or a paper's
own ``<name>/pins.json``; mutants: ``mutation/catalogue.py``, or a paper's own ``<name>/mutants.py``.
"""


def coverage(claim_ids):
    """Per-paper statement coverage given the registered claim ids (see :mod:`proofs.statements`)."""
    from .statements import coverage as _coverage

    return _coverage(claim_ids)


def step_coverage(claim_ids):
    """Proof-step coverage per paper and section (issue 30; see :mod:`proofs.steps`)."""
    from .steps import coverage as _coverage

    return _coverage(claim_ids)


def claim_order(claim_ids):
    """``{seed file: [claim ids in the paper's order]}`` from the statement index (see :mod:`proofs.statements`)."""
    from .statements import claim_order as _claim_order

    return _claim_order(claim_ids)
