"""The papers' claims, one folder per paper, one module per numbered statement.

Papers (folder, seed file under ../shared/seeds/, title) are listed in :mod:`proofs.papers`. Modules are
named ``<kind><n>_<topic>.py`` (kind: def, thm, lem, prop, cor, rem, fact, ex, eq, or sec for
section-level statements and experiments); helpers start with ``_``.

Modules register claims with :func:`rldp_verify.claims.claim`; ``rldp-verify report`` discovers them. They
use the engine's public API only (no ``_private`` names, no ``rldp_verify.cli``).

``proofs/statements/`` is the statement index (every statement of each paper and the claims that check it);
``rldp-verify report`` calls :func:`coverage` for the report's coverage table and :func:`claim_order` for the
order of each paper's claims (the engine knows no paper: both come from here).
"""


def coverage(claim_ids):
    """Per-paper statement coverage given the registered claim ids (see :mod:`proofs.statements`)."""
    from proofs.statements import coverage as _coverage

    return _coverage(claim_ids)


def step_coverage(claim_ids):
    """Proof-step coverage per paper and section (issue 30; see :mod:`proofs.steps`)."""
    from proofs.steps import coverage as _coverage

    return _coverage(claim_ids)


def claim_order(claim_ids):
    """``{seed file: [claim ids in the paper's order]}`` from the statement index (see :mod:`proofs.statements`)."""
    from proofs.statements import claim_order as _claim_order

    return _claim_order(claim_ids)
