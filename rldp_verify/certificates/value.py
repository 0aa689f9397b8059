"""Rigorous-value certificates: a real number as an expression of the checker's small language
(:mod:`rldp_verify_check.value`: rationals, + - * /, log, exp, pow, sqrt, erf, pi, min, max, let) with a claimed
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


def value_certificate(name: str, e, *, lower=None, upper=None, strict: bool = False, prec: int = 128,
                      exact: bool = False) -> dict:
    """The ``rigorous-value`` certificate of lower <= e <= upper (``<`` with ``strict``); ends are exact numbers.
    With ``exact`` the checker evaluates e in exact rationals (+ - * / min max let, integer powers): lower = upper
    states an exact equality."""
    st = {"expr": expr(e), "lower": None if lower is None else qs(lower),
          "upper": None if upper is None else qs(upper), "strict": strict, "prec": prec}
    if exact:
        st["exact"] = True
    return envelope("rigorous-value", name, st, {})


def abs_expr(a) -> list:
    """|a| as max(a, -a) (exact for the checker's exact evaluation)."""
    return ["max", a, ["-", a]]


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


def chi2_cdf_expr(k: int, x) -> list:
    """The chi-square CDF F_k(x) = P(k/2, x/2) (regularized lower incomplete gamma) for odd k, as an expression of
    the checker's language, from the definition: P(1/2, y) = erf(sqrt(y)) and P(s + 1, y) = P(s, y) - y^s e^{-y} /
    Gamma(s + 1), with Gamma(j + 3/2) = (2j + 1)!! sqrt(pi) / 2^(j + 1), give

        F_k(x) = erf(sqrt(x/2)) - sqrt(2x/pi) e^{-x/2} sum_{j=0}^{(k-3)/2} x^j / (2j + 1)!!

    (the sum empty for k = 1).  ``x``: an exact number or an expression (x >= 0).  Even k is refused (its CDF has
    no erf; no claim needs it)."""
    if isinstance(k, bool) or not isinstance(k, int) or k < 1 or k % 2 == 0:
        raise ValueError(f"chi2_cdf_expr needs an odd number of degrees of freedom k >= 1, got k={k!r}")
    terms, dfact = [], 1
    for j in range((k - 1) // 2):
        dfact *= 2 * j + 1
        terms.append(["/", ["pow", "$x", j], dfact])
    body = ["erf", ["sqrt", ["/", "$x", 2]]]
    if terms:
        tail = ["*", ["sqrt", ["/", ["*", 2, "$x"], ["pi"]]], ["exp", ["-", ["/", "$x", 2]]], ["+", *terms]]
        body = ["-", body, tail]
    return ["let", [["x", expr(x)]], body]


def chi2_quantile_certificates(name: str, c, k: int, lo=None, hi=None, *, prec: int = 128) -> list[dict]:
    """``rigorous-value`` certificates that the chi-square quantile q = F_k^{-1}(c) (odd k, :func:`chi2_cdf_expr`)
    lies above ``lo`` (F_k(lo) < c) and / or below ``hi`` (F_k(hi) > c): F_k is increasing, so each end is certified
    on its own side; with both, lo < q < hi."""
    if lo is None and hi is None:
        raise ValueError("chi2_quantile_certificates needs lo or hi")
    docs = []
    if lo is not None:
        docs.append(value_certificate(f"{name}: F_chi2,{k}(q_lo) < {c}, so F^-1_chi2,{k}({c}) > q_lo ~ {_short(lo)}",
                                      chi2_cdf_expr(k, lo), upper=c, strict=True, prec=prec))
    if hi is not None:
        docs.append(value_certificate(f"{name}: F_chi2,{k}(q_hi) > {c}, so F^-1_chi2,{k}({c}) < q_hi ~ {_short(hi)}",
                                      chi2_cdf_expr(k, hi), lower=c, strict=True, prec=prec))
    return docs


def _short(x) -> str:
    """A number for a certificate's name (a label: the exact number is in the statement)."""
    return f"{float(Fraction(x)):.10g}"


def increasing_printed_certificates(name: str, g, lo, hi, printed: str, agrees: bool, *, prec: int = 128) -> list[dict]:
    """The ``rigorous-value`` certificates of a comparison with a printed decimal (as :func:`printed_certificate`)
    of g(q), for g increasing (``g``: a function from an expression of q to an expression) and q in (lo, hi), an
    enclosure certified on its own (e.g. by :func:`chi2_quantile_certificates`): ``agrees`` -- g(lo) >= printed - h
    and g(hi) <= printed + h; else g(lo) > printed + h or g(hi) < printed - h, on the side g(lo) is (the checker
    decides; a wrong side fails)."""
    from rldp_verify.core.numbers import decimals, exact

    p, h = exact(printed), Fraction(1, 2 * 10 ** decimals(printed))
    if agrees:
        return [value_certificate(f"{name}: g(q) >= g(q_lo) >= {printed} - {h}", g(lo), lower=p - h, prec=prec),
                value_certificate(f"{name}: g(q) <= g(q_hi) <= {printed} + {h}", g(hi), upper=p + h, prec=prec)]
    import flint

    from rldp_verify_check.value import evaluate

    with flint.ctx.workprec(prec):
        above = evaluate(expr(g(lo))) > flint.arb(flint.fmpq(p.numerator, p.denominator))
    if above:
        return [value_certificate(f"{name}: g(q) > g(q_lo) > {printed} + {h}", g(lo), lower=p + h, strict=True,
                                  prec=prec)]
    return [value_certificate(f"{name}: g(q) < g(q_hi) < {printed} - {h}", g(hi), upper=p - h, strict=True, prec=prec)]
