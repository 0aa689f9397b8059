"""``series``: enclosures of Taylor coefficients c_j = f^(j)(x0)/j! of an f analytic at x0, checked in arb.

Statement: ``expr`` (the language of :mod:`.value`, free name ``$x``), ``at`` (exact x0), ``coefficients``
[[j, lower, upper], ...] (an end may be null; ``"strict": true`` makes both strict), optional ``prec``.

The argument.  ``$x`` is the truncated series x0 + t (python-flint's ``arb_series``, length n = max j + 1): each
operation returns balls containing the first n Taylor coefficients of its result for all inputs whose first n
coefficients lie in its input balls (they depend on nothing else).  Each operation of value.py on a series checks its
domain on the constant term g(x0) (here every comparison with 0 is strict): log, sqrt and a non-integer power's base
certainly > 0, a divisor and a negative power's base certainly != 0; min, max, erf and xlogx's branch at 0 are
refused.  An analytic function of a g analytic at x0, applied where it is analytic at g(x0), is analytic at x0: by
induction f is, and its balls hold its c_j.  x0 enters as a ball containing it (the c_j at every point of that ball
are then in the balls).  Uses: lim_{x->x0} f = c_0; a refuted "f = g + O((x - x0)^k)" is some c_j (j < k) of f - g
in an interval excluding 0; for f with a pole of order m at x0, (x - x0)^m f is analytic and its c_(j+m) is f's c_j.
"""

from __future__ import annotations

import flint

from rldp_verify_check import CertificateError, q
from rldp_verify_check.value import decide, evaluate, inside, num, sure


def _op(f):  # an operation of arb_series lifted to Series
    return lambda a, *b: Series(f(a.s, *(x.s if isinstance(x, Series) else x for x in b)))


class Series:
    """An ``arb_series`` as an argument of value.py's operations: comparisons (the domain checks) are strict
    comparisons of the constant term; an operation it does not define (min, max, erf, upper) is refused."""

    def __init__(self, s):
        self.s = s
    __add__ = __radd__ = _op(lambda a, b: a + b)
    __mul__ = __rmul__ = _op(lambda a, b: a * b)
    __sub__, __rsub__, __neg__ = _op(lambda a, b: a - b), _op(lambda a, b: b - a), _op(lambda a: -a)
    __truediv__, __rtruediv__, __pow__ = _op(lambda a, b: a / b), _op(lambda a, b: b / a), _op(lambda a, k: a ** k)
    log, exp, sqrt = _op(flint.arb_series.log), _op(flint.arb_series.exp), _op(flint.arb_series.sqrt)
    __gt__ = __ge__ = lambda self, o: bool(self.s[0] > o)   # noqa: E731
    __lt__ = lambda self, o: bool(self.s[0] < o)            # noqa: E731


def check(st: dict, data: dict) -> str:
    """Check a ``series`` certificate; returns what was proved or raises CertificateError."""
    x0, strict, want = q(st["at"]), bool(st.get("strict")), [(int(j), lo, hi) for j, lo, hi in st["coefficients"]]
    if not want or any(j < 0 for j, _, _ in want) or all(lo is None and hi is None for _, lo, hi in want):
        raise CertificateError("no coefficient (j >= 0) with a stated end")
    n, cap = max(j for j, _, _ in want) + 1, flint.ctx.cap

    def claim():   # True: every c_j certainly inside its interval; False: one certainly outside; None: undecided
        try:
            v = evaluate(st["expr"], {"$x": Series(flint.arb_series([num(x0), 1], prec=n))})
        except (TypeError, AttributeError) as exc:   # min, max, erf, xlogx at 0: no such method on a Series
            raise CertificateError(f"an operation refused on a series in $x: {exc}") from None
        s = v.s if isinstance(v, Series) else flint.arb_series([v], prec=n)
        if s.prec < n:
            raise CertificateError(f"the series has {s.prec} < {n} coefficients")
        r = [inside(s[j], lo, hi, strict, lambda e: num(q(e))) for j, lo, hi in want]
        return sure(all(x is True for x in r), any(x is False for x in r))

    try:
        flint.ctx.cap = n
        if not decide(claim, int(st.get("prec", 128))):
            raise CertificateError(f"a coefficient is not certainly in its interval at x0 = {x0}")
    finally:
        flint.ctx.cap = cap
    return "; ".join(f"{'-inf' if lo is None else lo} {('<=', '<')[strict]} c_{j} {('<=', '<')[strict]} "
                     f"{'inf' if hi is None else hi}" for j, lo, hi in want) + f" (Taylor at {x0}, arb)"
