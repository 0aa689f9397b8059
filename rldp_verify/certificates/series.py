"""Certificates of refutations (issue 23): a printed formula re-evaluated at a counterexample, and a series
coefficient of a rational function.

- :class:`Formula` builds a ``rigorous-value`` expression by ordinary arithmetic: a printed formula written as a Python
  function (``p**a / (p + t)**(a - 1) - 1``) called with ``Formula`` numbers returns its own expression tree,
  unevaluated, so the checker re-evaluates the formula itself at the counterexample's exact (rational) point.
  mpmath numbers are taken as the binary rationals they are (:func:`exact_number`), never rounded.
- :func:`sign_certificate` -- the ``rigorous-value`` certificate that an expression is certainly > 0 or < 0 (the
  side is the one arb finds; the checker decides it again, so a wrong side or a zero fails).
- :func:`coefficient_certificates` -- the coefficients c_0..c_k of a rational function f(s) at s = 0 as a
  ``symbolic-identity`` f(s) = c_0 + ... + c_k s^k + s^(k+1) R(s) with R given explicitly, and R's value at s = 0
  evaluated exactly (a ``rigorous-value`` with ``"exact": true``: the checker's exact evaluation refuses a zero
  denominator), so R is analytic at 0 and the c_j are f's Taylor coefficients.
"""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import qs
from rldp_verify.certificates.arith import Arithmetic
from rldp_verify.certificates.value import value_certificate


def exact_number(x) -> Fraction:
    """An int, a Fraction or an mpmath mpf as the exact rational it is (an mpf is a binary rational); floats are
    refused (a float in a certificate is a rounding nobody asked for)."""
    if isinstance(x, (bool, float)):
        raise TypeError(f"not an exact number: {x!r}")
    if isinstance(x, (int, Fraction)):
        return Fraction(x)
    import mpmath

    if isinstance(x, mpmath.mpf):
        if not mpmath.isfinite(x):
            raise ValueError(f"not a finite number: {x!r}")
        man, exp = x.man_exp     # man is |mantissa|: the sign is separate (mpf._mpf_[0])
        value = Fraction(int(man)) * Fraction(2) ** int(exp)
        return -value if x < 0 else value
    raise TypeError(f"not an exact number: {x!r}")


class Formula(Arithmetic):
    """A node of the ``rigorous-value`` language built by arithmetic (+ - * / ** with any exponent: an integer gives
    ``pow`` with an integer, anything else ``pow`` of a base the checker requires to be positive)."""

    @classmethod
    def _leaf(cls, x):
        """An exact number (an mpf as its binary rational)."""
        return qs(exact_number(x))

    @staticmethod
    def number(x) -> Formula:
        """The constant ``x`` (exact; an mpf as its binary rational)."""
        return Formula(qs(exact_number(x)))

    def __pow__(self, o): return self._op("pow", o)
    def __rpow__(self, o): return self._op("pow", o, True)


def root(x) -> Formula:
    """sqrt(x) (the checker requires x certainly >= 0)."""
    return Formula(["sqrt", Formula.of(x)])


def numbers(*xs) -> list[Formula]:
    """:meth:`Formula.number` of each argument."""
    return [Formula.number(x) for x in xs]


def sign_certificate(name: str, e, *, exact: bool = False, prec: int = 128) -> dict:
    """The ``rigorous-value`` certificate that ``e`` (a Formula or a tree) is certainly non-zero, on the side arb (or
    exact rationals) finds it; a zero or undecided value raises ValueError (no certificate claims what nobody
    found)."""
    import flint

    from rldp_verify_check.value import evaluate

    tree = Formula.of(e) if isinstance(e, Formula) else e
    with flint.ctx.workprec(max(prec, 256)):
        v = evaluate(tree, exact=exact)
    if v > 0:
        return value_certificate(name, tree, lower=0, strict=True, prec=prec, exact=exact)
    if v < 0:
        return value_certificate(name, tree, upper=0, strict=True, prec=prec, exact=exact)
    raise ValueError(f"{name}: the value is not certainly non-zero")


def coefficient_certificates(name: str, f, s, k: int, *, words: str = "") -> tuple[list, list[dict]]:
    """(the coefficients [c_0, ..., c_k] of the rational sympy expression ``f`` in the one symbol ``s`` at s = 0, the
    certificates): a ``symbolic-identity`` f = c_0 + ... + c_k s^k + s^(k+1) R with R = (f - poly) / s^(k+1)
    cancelled, written out, and an exact ``rigorous-value`` R(0) = r (the checker evaluates R at s = 0 in exact
    rationals, refusing a zero denominator): R is then analytic at 0 and the c_j are f's Taylor coefficients.
    Other parameters of f are set to exact numbers by the caller first (a counterexample is one point)."""
    import flint
    import sympy

    from rldp_verify.certificates.identity import identity_certificate, to_tree
    from rldp_verify_check.value import evaluate

    f = sympy.sympify(f)
    if f.free_symbols - {s}:
        raise ValueError(f"{name}: f has other symbols {sorted(map(str, f.free_symbols - {s}))}: set them first")
    ser = sympy.series(f, s, 0, k + 1).removeO()
    coeffs = [sympy.nsimplify(sympy.expand(ser).coeff(s, j)) for j in range(k + 1)]
    if not all(c.is_Rational for c in coeffs):
        raise ValueError(f"{name}: a coefficient is not rational: {coeffs}")
    poly = sum((c * s**j for j, c in enumerate(coeffs)), sympy.Integer(0))
    R = sympy.factor(sympy.cancel((f - poly) / s ** (k + 1)))
    placeholder = sympy.Symbol("R_placeholder")
    rhs = sympy.Add(*(sympy.Mul(c, s**j, evaluate=False) for j, c in enumerate(coeffs)),
                    sympy.Mul(s ** (k + 1), placeholder, evaluate=False), evaluate=False)
    ident = identity_certificate(f"{name}: f = c_0 + ... + c_{k} {s}^{k} + {s}^{k + 1} R(s)", f,
                                 rhs.xreplace({placeholder: R}), substitution=words or None)
    docs = ident if isinstance(ident, list) else [ident]
    tree = ["let", [[str(s), 0]], to_tree(R)]
    v = evaluate(tree, exact=True)
    if not isinstance(v, flint.fmpq):
        raise ValueError(f"{name}: R(0) is not an exact rational")
    r0 = Fraction(int(v.p), int(v.q))
    docs.append(value_certificate(f"{name}: R({s} = 0) = {r0} (R's denominator is non-zero at {s} = 0)", tree,
                                  lower=r0, upper=r0, exact=True))
    return [Fraction(int(c.p), int(c.q)) for c in coeffs], docs
