"""rldp-verify: a theorem checker for robust local differential privacy.

The engine (this package) knows no papers; the claims of the papers live in ``proofs/`` and use
the engine's public API to check themselves.

Public modules (one concept each):

- :mod:`rldp_verify.numbers`     exact and high-precision numbers, scoped precision
- :mod:`rldp_verify.rigorous`    certified enclosures (python-flint arb balls)
- :mod:`rldp_verify.errors`      :class:`InputError`, raised for bad input with the bad value named
- :mod:`rldp_verify.divergence`  Rényi divergence, KL, chi-square
- :mod:`rldp_verify.stats`       chi-square quantiles at working precision
- :mod:`rldp_verify.uncertainty` Rényi balls, Theorem 1 projections, xi-/xi+, L_{u|s}, rad_s
- :mod:`rldp_verify.polytope`    exact vertex enumeration (pycddlib GMP)
- :mod:`rldp_verify.lp`          exact / certified linear programs
- :mod:`rldp_verify.mechio`      the mechanism JSON format (read / write / validate)
- :mod:`rldp_verify.claims`      the claim engine
- :mod:`rldp_verify.report`      the verification report (md / json / html)
"""

__version__ = "0.1.0"
