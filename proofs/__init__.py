"""The papers' claims, one folder per paper, one module per numbered statement.

Papers (folder, seed file under ../shared/seeds/, title) are listed in :mod:`proofs.papers`. Modules are
named ``<kind><n>_<topic>.py`` (kind: def, thm, lem, prop, cor, rem, fact, ex, eq, or sec for
section-level statements and experiments); helpers start with ``_``.

Modules register claims with :func:`rldp_verify.claims.claim`; ``rldp-verify report`` discovers them. They
use the engine's public API only (no ``_private`` names, no ``rldp_verify.cli``).
"""
