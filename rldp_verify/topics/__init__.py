"""Numerics of the companion papers, named by concept.

- :mod:`.fdiv`       f_alpha-divergences, hockey-stick, contraction and amplification bounds
- :mod:`.pram`       post-randomisation (PRAM) matrices under DP: constraints, vertices, MI
- :mod:`.chisquare`  the chi-square (order-2 Rényi) ball: support functions, joint projections, protocols
- :mod:`.extremal`   staircase mechanisms, utilities, thresholds of optimality
"""
