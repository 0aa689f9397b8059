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


def printed_certificate(name: str, e, printed: str, agrees: bool, *, prec: int = 128) -> dict:
    """The ``rigorous-value`` certificate of a comparison with a printed decimal (as
    :func:`rldp_verify.claims.compare_printed` decides it: agreement is ``|e - printed| <= h``, h half a unit of its
    last digit): ``agrees`` -- e lies in [printed - h, printed + h]; else e lies strictly outside it, on the side
    the engine's value is (the checker decides; a wrong side or a value inside fails)."""
    from rldp_verify.core.numbers import decimals, exact

    p, h = exact(printed), Fraction(1, 2 * 10 ** decimals(printed))
    if agrees:
        return value_certificate(name, e, lower=p - h, upper=p + h, prec=prec)
    import flint

    from rldp_verify_check.value import evaluate

    with flint.ctx.workprec(prec):
        above = evaluate(expr(e)) > flint.arb(flint.fmpq(p.numerator, p.denominator))
    return value_certificate(name, e, lower=p + h, strict=True, prec=prec) if above else \
        value_certificate(name, e, upper=p - h, strict=True, prec=prec)


def mutual_information_expr(Q, p) -> list:
    """I(X;Y) in nats for the channel ``Q[y][x]`` and input distribution ``p`` (exact numbers), as an expression:
    ``sum over x, y with p_x Q[y][x] > 0 of p_x Q[y][x] log(Q[y][x] / q_y)``, ``q_y = sum_x p_x Q[y][x]``."""
    from rldp_verify.core.numbers import exact

    Q = [[exact(v) for v in row] for row in Q]
    p = [exact(v) for v in p]
    terms = []
    for row in Q:
        qy = sum(px * v for px, v in zip(p, row, strict=True))
        for px, v in zip(p, row, strict=True):
            if px * v != 0:
                terms.append(["*", px * v, ["log", ["/", v, qy]]])
    return ["+", 0, *terms]
