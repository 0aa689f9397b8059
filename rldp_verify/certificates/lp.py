"""LP-optimum certificates from :func:`rldp_verify.core.lp.solve_exact` / :func:`solve_certified` results."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import envelope, qs
from rldp_verify.core.errors import InputError
from rldp_verify.core.lp import LPResult, LPStatus
from rldp_verify.core.numbers import exact


def _rows(M):
    """Rows as sparse [[j, "p/q"], ...] lists (exact)."""
    return [[[j, qs(exact(a))] for j, a in enumerate(r) if exact(a) != 0] for r in M]


def lp_certificate(name: str, c, A, b, E=(), f=(), result: LPResult | None = None, *, lower=None, upper=None,
                   sense: str = "max") -> dict:
    """The ``lp-optimum`` certificate of ``maximise c.x s.t. A x <= b, E x = f, lower <= x <= upper`` with the
    exact ``result`` of :func:`~rldp_verify.core.lp.solve_exact` or :func:`~rldp_verify.core.lp.solve_certified`
    (for ``sense="min"`` pass the original c; ``result`` must then be the solve of the max of -c)."""
    if (result is None or result.status is not LPStatus.OPTIMAL or result.x is None or result.dual is None
            or result.value is None):
        raise InputError("an LP certificate needs an optimal exact result")
    sign = 1 if sense == "max" else -1
    n = len(c)
    d = result.reduced_costs if result.reduced_costs is not None else (Fraction(0),) * n
    st = {"sense": sense, "c": [qs(exact(v)) for v in c], "A": _rows(A), "b": [qs(exact(v)) for v in b],
          "E": _rows(E), "f": [qs(exact(v)) for v in f], "value": qs(sign * result.value)}
    if lower is not None:
        st["lower"] = [None if v is None else qs(exact(v)) for v in lower]
    if upper is not None:
        st["upper"] = [None if v is None else qs(exact(v)) for v in upper]
    # the result's multipliers are those of the max of (sign c), which is what the checker verifies
    data = {"x": [qs(v) for v in result.x], "y": [qs(v) for v in result.dual], "d": [qs(v) for v in d]}
    return envelope("lp-optimum", name, st, data)


def solve_with_certificate(name: str, c, A, b, E=(), f=(), *, lower=None, upper=None, sense: str = "max"):
    """:func:`~rldp_verify.core.lp.solve_certified` of the LP (its max, or min with ``sense="min"``) and its
    ``lp-optimum`` certificate: returns ``(result, certificate)`` (result of the max of (sign) c)."""
    from rldp_verify.core.lp import solve_certified

    sign = 1 if sense == "max" else -1
    res = solve_certified([sign * exact(v) for v in c], A, b, E, f, lower=lower, upper=upper)
    return res, lp_certificate(name, c, A, b, E, f, res, lower=lower, upper=upper, sense=sense)


def feasible_point_certificate(name: str, x, A=(), b=(), E=(), f=()) -> dict:
    """The ``lp-optimum`` certificate of max 0 over {x >= 0 : A x <= b, E x = f} at the exact point ``x`` (all
    multipliers 0): the checker verifies that ``x`` satisfies every row, i.e. that the system has a non-negative
    solution (e.g. convex-combination weights: E the points' coordinates and a row of ones, f the point and 1)."""
    n = len(x)
    st = {"sense": "max", "c": [0] * n, "A": _rows(A), "b": [qs(exact(v)) for v in b], "E": _rows(E),
          "f": [qs(exact(v)) for v in f], "value": 0, "lower": [0] * n}
    return envelope("lp-optimum", name, st, {"x": [qs(exact(v)) for v in x], "y": [0] * (len(A) + len(E)),
                                             "d": [0] * n})
