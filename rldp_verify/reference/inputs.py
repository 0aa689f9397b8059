"""Grid inputs of the reference quantities: kinds, parsing and validation (one-line errors naming the value).

A grid point is a mapping from input names to values. Values are read exactly: decimal strings ("1e-12",
"0.07", "7/100") are the rationals they denote; a Python or NumPy float is the binary rational it denotes
(so the reference is computed at exactly the float an implementation receives). Vectors are "a,b,c" (or a
sequence), tables "a,b;c,d" (or nested sequences); they must sum to exactly 1 when written as decimals.
"""

from __future__ import annotations

import math
import numbers as _numbers
from dataclasses import dataclass
from fractions import Fraction

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import as_list, from_float, parse_exact


@dataclass(frozen=True)
class Input:
    """One input of a reference quantity: its name, kind (how it is read and checked: prob, alpha, radius, table,
    ...), help text and, for a choice, the choices."""

    name: str
    kind: str          # prob, prob_pos, alpha, radius, conf, int1, int2, exp_eps, nonneg, dist, table, choice
    help: str
    choices: tuple = ()


def _scalar(x, where: str) -> Fraction:
    if isinstance(x, bool) or x is None:
        raise InputError(f"{where} = {x!r} is not a number")
    if isinstance(x, Fraction):
        return x
    if isinstance(x, float) or (isinstance(x, _numbers.Real) and not isinstance(x, _numbers.Rational)):
        xf = float(x)
        if not math.isfinite(xf):
            raise InputError(f"{where} = {x!r} is not a finite number")
        return from_float(xf)
    if isinstance(x, _numbers.Integral):
        return Fraction(int(x))
    try:
        return parse_exact(str(x))
    except InputError:
        raise InputError(f"{where} = {x!r} is not a number") from None


def _items(x, where: str, sep: str, kind: str) -> list:
    """The entries of a vector ("1/2, 1/2", sep ",") or a table ("..;..", sep ";") given as text or a
    sequence; an error names ``where`` when there are none or ``x`` is not a sequence."""
    if isinstance(x, str):
        x = [p for p in x.replace(" ", "").split(sep) if p != ""]
    return as_list(x, where, kind)


def _vector(x, where: str) -> tuple[Fraction, ...]:
    return tuple(_scalar(p, f"{where}[{i}]") for i, p in enumerate(_items(x, where, ",", "vector")))


def _table(x, where: str) -> tuple[tuple[Fraction, ...], ...]:
    rows = _items(x, where, ";", "table")
    out = tuple(_vector(r, f"{where}[{i}]") for i, r in enumerate(rows))
    if any(len(r) != len(out[0]) for r in out):
        raise InputError(f"{where} = {x!r} has rows of different lengths")
    return out


def _sum_one(vals, where: str, shown) -> None:
    if any(v < 0 for v in vals):
        raise InputError(f"{where} = {shown!r} has a negative entry")
    if sum(vals) != 1:
        raise InputError(f"{where} = {shown!r} sums to {float(sum(vals))!r}, not exactly 1")


def parse_value(spec: Input, x, where: str):
    """The exact value of input ``spec`` (raises InputError naming ``where`` and the value)."""
    k = spec.kind
    if k == "choice":
        s = str(x).strip().lower()
        if s not in spec.choices:
            raise InputError(f"{where} = {x!r} is not one of {', '.join(spec.choices)}")
        return s
    if k == "dist":
        vec = _vector(x, where)
        _sum_one(vec, where, x)
        return vec
    if k == "table":
        t = _table(x, where)
        _sum_one([v for r in t for v in r], where, x)
        return t
    if k == "radius" and str(x).strip().lower() in ("inf", "infinity"):
        return math.inf
    v = _scalar(x, where)
    bad = {
        "prob": not 0 <= v <= 1, "prob_pos": not 0 < v <= 1, "alpha": not v > 0, "radius": v < 0,
        "conf": not 0 < v < 1, "int1": v.denominator != 1 or v < 1, "int2": v.denominator != 1 or v < 2,
        "exp_eps": v < 1, "nonneg": v < 0, "eps_pos": not v > 0,
    }[k]
    if bad:
        need = {"prob": "in [0, 1]", "prob_pos": "in (0, 1]", "alpha": "> 0", "radius": ">= 0 (or inf)",
                "conf": "in (0, 1)", "int1": "an integer >= 1", "int2": "an integer >= 2", "exp_eps": ">= 1",
                "nonneg": ">= 0", "eps_pos": "> 0"}[k]
        raise InputError(f"{where} = {x!r} must be {need}")
    if k in ("int1", "int2"):
        return int(v)
    return v


def as_user_value(spec: Input, v):
    """What an implementation under test receives: floats, lists of floats, ints, strings."""
    if spec.kind == "choice":
        return v
    if spec.kind in ("int1", "int2"):
        return int(v)
    if spec.kind == "dist":
        return [float(a) for a in v]
    if spec.kind == "table":
        return [[float(a) for a in r] for r in v]
    return float(v)


def text_value(spec: Input, v) -> str:
    """The exact input as text (for tables and JSON): decimals/fractions, vectors 'a,b', tables 'a,b;c,d'."""

    def one(q):
        if q == math.inf:
            return "inf"
        if isinstance(q, int):
            return str(q)
        return _short(Fraction(q))

    if spec.kind == "choice":
        return v
    if spec.kind == "dist":
        return ",".join(one(a) for a in v)
    if spec.kind == "table":
        return ";".join(",".join(one(a) for a in r) for r in v)
    return one(v)


def _short(q: Fraction) -> str:
    """A finite decimal when q has one (e.g. 1e-12 -> '1e-12', 0.07 -> '0.07'), else 'p/q'."""
    from rldp_verify.core.numbers import fraction_str

    d = q.denominator
    twos = fives = 0
    while d % 2 == 0:
        d //= 2
        twos += 1
    while d % 5 == 0:
        d //= 5
        fives += 1
    if d != 1:
        return fraction_str(q)
    n = max(twos, fives)
    digits = q * 10**n
    s = str(abs(digits.numerator))
    sign = "-" if q < 0 else ""
    if n == 0:
        return sign + s
    stripped = s.rstrip("0")
    zeros = len(s) - len(stripped)
    n -= zeros
    s = stripped
    if n <= 0:
        return sign + s + "0" * (-n)
    if len(s) <= n:
        if len(s) == 1 and n > 4:
            return f"{sign}{s}e-{n}"
        return sign + "0." + "0" * (n - len(s)) + s
    return sign + s[:-n] + "." + s[-n:]
