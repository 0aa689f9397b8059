"""Extremal (staircase) mechanisms for local differential privacy and their optimality thresholds.

- :mod:`.staircase`   pattern matrices and the certified staircase LP
- :mod:`.utilities`   utility functionals (f-divergences, mutual information) and named mechanisms
- :mod:`.polytope`    the polytope of privatisation mechanisms, exact vertices
- :mod:`.thresholds`  optimality thresholds eps* with certified brackets
- :mod:`.tail`        certification that a mechanism stays optimal on a whole tail of eps
"""
