"""Certificates (issue 23): JSON documents of raw data from which ``rldp_verify_check`` re-derives a verdict.

The engine builds them here from its own objects; the independent checker (:mod:`rldp_verify_check`, which
imports nothing from ``rldp_verify``) re-checks them.  Every builder re-checks its document with that
checker before returning it only when asked (``verify=True``): a certificate that fails is still written,
so that the failure is visible, never hidden.

- :func:`rldp_verify.certificates.lp.lp_certificate` -- an exact LP optimum (:mod:`rldp_verify.core.lp`);
- :func:`rldp_verify.certificates.vertices.vertex_certificate` -- a complete vertex enumeration
  (:mod:`rldp_verify.core.polytope`), with the facets of the hull and their Farkas multipliers;
- :func:`rldp_verify.certificates.value.value_certificate` -- a rigorous value as an expression;
- :func:`rldp_verify.certificates.audit.audit_certificate` -- an audit verdict (:mod:`rldp_verify.rldp.audit`).

Numbers are written as ints or "p/q" strings (:func:`qs`), infinity as "inf"; never floats.
"""

from __future__ import annotations

import json
import math
from fractions import Fraction
from pathlib import Path

VERSION = 1


def qs(x) -> int | str:
    """An exact number as JSON: an int, a "p/q" string, or "inf"; floats are taken as the binary rationals
    they are."""
    if x == math.inf:
        return "inf"
    x = Fraction(x)
    return int(x) if x.denominator == 1 else f"{x.numerator}/{x.denominator}"


def envelope(kind: str, name: str, statement: dict, data: dict) -> dict:
    """The certificate document (see :mod:`rldp_verify_check`)."""
    return {"certificate": "rldp-verify", "version": VERSION, "kind": kind, "name": name,
            "statement": statement, "data": data}


def write(path, docs) -> Path:
    """Write one certificate (a dict) or a list of them to ``path`` as JSON; returns the path."""
    path = Path(path)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(docs, indent=None, separators=(",", ":")) + "\n")
    return path


def recheck(doc: dict):
    """The independent checker's verdict on ``doc`` (a :class:`rldp_verify_check.Checked`)."""
    from rldp_verify_check import check

    return check(json.loads(json.dumps(doc)))
