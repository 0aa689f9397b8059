"""rldp-verify: a theorem checker for robust local differential privacy.

The engine (this package) knows no papers; the claims of the papers live in ``proofs/`` and use
the engine's public API to check themselves.

Layers (one concept per module; see each package's docstring):

- :mod:`rldp_verify.core`    numerics that import nothing above them: numbers, rigorous, errors,
  divergence, stats, polytope, lp
- :mod:`rldp_verify.rldp`    the core RLDP paper's machinery: uncertainty, gamma, mechanisms, audit,
  srr_threshold, experiments, mechio, data
- :mod:`rldp_verify.topics`  the companion papers' numerics, named by concept: fdiv, pram, chisquare,
  extremal
- :mod:`rldp_verify.claims`  the claim engine; :mod:`rldp_verify.report` the report; ``cli`` the commands
"""

__version__ = "0.1.0"
