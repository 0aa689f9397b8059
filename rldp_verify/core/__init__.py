"""Core numerics, independent of any paper and of everything above them in ``rldp_verify``.

- :mod:`.numbers`     exact and high-precision numbers, scoped precision
- :mod:`.rigorous`    certified enclosures (python-flint arb balls)
- :mod:`.errors`      :class:`~.errors.InputError`, raised for bad input with the bad value named
- :mod:`.divergence`  Rényi divergence, KL, chi-square (the one implementation)
- :mod:`.information` mutual information I_P(X;Y), mu(v), NMI (one orientation: matrix[y][x] = Q(y|x))
- :mod:`.stats`       chi-square quantiles at working precision
- :mod:`.roots`       the one bracketing root finder (raises when it cannot bracket)
- :mod:`.polytope`    exact vertex enumeration (pycddlib GMP, lrs, Normaliz)
- :mod:`.lp`          exact / certified linear programs (the one cdd LP call, HiGHS + exact basis re-solve)
- :mod:`.linalg`      exact linear algebra: the one exact square solve, elimination on arb balls, exact rank
- :mod:`.simplex`     the bound form of an LP and the exact bounded simplex of :func:`.lp.solve_certified`
- :mod:`.highs`       a HiGHS instance that prints nothing (:func:`~.highs.new_highs`)
- :mod:`.distributed` independent tasks fanned out over a Dask cluster (``dask.distributed``) or run here
"""
