"""One JSON style for every command's output (``--json``, ``mechanism``, ``report``).

- Every document carries ``"schema_version"`` (:data:`SCHEMA_VERSION`) and is described by the JSON
  Schema ``rldp_verify/schemas/<name>.schema.json`` shipped with the package (:func:`schema`).
- Real values are **decimal strings** (never JSON numbers, which ``json.load`` turns into float64),
  with the number of digits stated in the document's ``"digits"``; where the value is an exact
  rational it is given as well, as ``"p/q"`` in a sibling field ending in ``_exact`` (or, for inputs
  and mechanism entries, which are always exact, as ``"p/q"`` directly).
- Infinity is the string ``"inf"`` (:data:`INF`); there is no other spelling.
- JSON numbers are used only for counts, indices, precisions and measured seconds.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from importlib import resources

SCHEMA_VERSION = 1
INF = "inf"


def dec(x, digits: int) -> str | None:
    """``x`` (int, Fraction, float, mpf, decimal string) as a decimal string with ``digits`` significant
    digits; ``"inf"`` for +infinity, ``"-inf"`` for -infinity, None stays None."""
    import mpmath

    if x is None:
        return None
    if isinstance(x, str):
        if x in (INF, "-inf"):
            return x
        try:
            x = Fraction(x)
        except ValueError:
            return x
    if isinstance(x, float) and math.isinf(x):
        return INF if x > 0 else "-inf"
    with mpmath.workdps(digits + 10):
        v = mpmath.mpf(x.numerator) / x.denominator if isinstance(x, Fraction) else mpmath.mpf(x)
        if mpmath.isinf(v):
            return INF if v > 0 else "-inf"
        return mpmath.nstr(v, digits, min_fixed=-6, max_fixed=digits + 6, strip_zeros=True)


def dumps(doc: dict, *, indent: int | None = 1) -> str:
    """The document as JSON text (UTF-8 characters kept), with a trailing newline."""
    return json.dumps(doc, indent=indent, ensure_ascii=False) + "\n"


def schema(name: str) -> dict:
    """The JSON Schema of an output: ``ball``, ``mechanism``, ``audit``, ``audit_sampler``, ``threshold``,
    ``reference`` or ``report``."""
    text = resources.files("rldp_verify").joinpath("schemas", f"{name}.schema.json").read_text()
    return json.loads(text)


def floats_to_decimal(x):
    """``x`` with every float replaced by its shortest round-trip decimal string (``repr``; "inf" for
    infinity, "nan" kept visible as "nan"): for free-form parts of a document such as ``parameters``."""
    if isinstance(x, float):
        if math.isinf(x):
            return INF if x > 0 else "-inf"
        return repr(x)
    if isinstance(x, dict):
        return {k: floats_to_decimal(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [floats_to_decimal(v) for v in x]
    return x
