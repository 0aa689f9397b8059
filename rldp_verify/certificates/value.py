"""Rigorous-value certificates: a real number as an expression of the checker's small language
(:mod:`rldp_verify_check.value`: rationals, + - * /, log, exp, pow, sqrt, min, max, let) with a claimed
enclosure or inequality, which the checker evaluates itself in arb."""

from __future__ import annotations

from fractions import Fraction

from rldp_verify.certificates import envelope, qs


def expr(e):
    """An expression tree with exact numbers (int, Fraction, "p/q") turned into JSON (lists, ints, "p/q")."""
    if isinstance(e, (list, tuple)):
        return [e[0]] + [expr(a) for a in e[1:]] if e and isinstance(e[0], str) else [expr(a) for a in e]
    if isinstance(e, str):
        return e
    if isinstance(e, float):
        raise TypeError(f"a float {e!r} in a certificate expression: pass an exact number")
    return qs(Fraction(e))


def value_certificate(name: str, e, *, lower=None, upper=None, strict: bool = False, prec: int = 128) -> dict:
    """The ``rigorous-value`` certificate of lower <= e <= upper (``<`` with ``strict``); ends are exact numbers."""
    st = {"expr": expr(e), "lower": None if lower is None else qs(lower),
          "upper": None if upper is None else qs(upper), "strict": strict, "prec": prec}
    return envelope("rigorous-value", name, st, {})


def enclosure_certificate(name: str, e, ball, *, prec: int = 128) -> dict:
    """The ``rigorous-value`` certificate that ``e`` lies in the engine's arb ``ball`` (its ends rounded outward
    to rationals by :func:`rldp_verify.core.rigorous.lower` / :func:`~rldp_verify.core.rigorous.upper`): the
    checker re-evaluates ``e`` itself, so an enclosure computed by a wrong formula or rounded inward fails."""
    from rldp_verify.core.rigorous import lower, upper

    return value_certificate(name, e, lower=lower(ball), upper=upper(ball), prec=prec)
