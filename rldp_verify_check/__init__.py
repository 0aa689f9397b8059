"""An independent checker for rldp-verify's certificates (issue 23).

It imports nothing from ``rldp_verify``: only Python's :mod:`fractions` and python-flint's ``arb`` /
``fmpq`` / ``fmpq_mat``.  Each check re-derives its conclusion from raw data with the definitions
(LP duality, the vertices of a polyhedron, the Rényi divergence, Definition 3's ratio
P(Y=y|S=s)/P(Y=y|S=s')); the engine's conclusions appear in a certificate only as claims to be tested.

A certificate is one JSON object::

    {"certificate": "rldp-verify", "version": 1, "kind": KIND, "name": "...", "statement": {...}, "data": {...}}

``statement`` is what is asserted (the problem and the printed numbers); ``data`` the raw evidence
(multipliers, points, incidences).  Numbers are ints or strings that :class:`fractions.Fraction` parses
exactly ("p/q", "12", "0.07"); "inf" where stated; JSON floats are refused.  KIND is one of
``lp-optimum`` (:mod:`.lp`), ``vertex-enumeration`` (:mod:`.vertices`), ``rigorous-value``
(:mod:`.value`), ``audit`` (:mod:`.audit`), ``symbolic-identity`` (:mod:`.identity`), ``series`` (:mod:`.series`).
``python -m rldp_verify_check FILE|DIR`` checks files.
"""

from __future__ import annotations

import json
import zlib
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

__all__ = ["CertificateError", "Checked", "check", "check_path", "q", "qvec", "qrows"]


class CertificateError(Exception):
    """A certificate that does not prove its statement (the message says which check failed)."""


@dataclass(frozen=True)
class Checked:
    """The outcome of one check: ``ok`` and a one-line ``message`` (what was proved, or why not)."""

    name: str
    kind: str
    ok: bool
    message: str

    def line(self) -> str:
        """One line: ``OK|FAIL  kind  name: message``."""
        return f"{'OK  ' if self.ok else 'FAIL'}  {self.kind}  {self.name}: {self.message}"


def q(x) -> Fraction:
    """An exact rational from an int or a string ("p/q", "0.07"); floats and bools are refused."""
    if isinstance(x, bool) or not isinstance(x, (int, str)):
        raise CertificateError(f"not an exact number: {x!r}")
    try:
        return Fraction(x)
    except (ValueError, ZeroDivisionError):
        raise CertificateError(f"not an exact number: {x!r}") from None


def qvec(v) -> list[Fraction]:
    """A list of exact rationals."""
    return [q(x) for x in v]


def qrows(rows, n: int) -> list[dict[int, Fraction]]:
    """Rows as sparse dicts {column: value}; a row is dense ``[a0, a1, ...]`` (length n) or sparse ``[[j, a], ...]``
    (``[]`` is a zero row)."""
    out = []
    for r in rows:
        if not r or isinstance(r[0], list):
            d: dict[int, Fraction] = {}
            for j, a in r:
                if not (isinstance(j, int) and 0 <= j < n):
                    raise CertificateError(f"column index {j!r} out of range 0..{n - 1}")
                if q(a):
                    d[j] = d.get(j, Fraction(0)) + q(a)
        else:
            if len(r) != n:
                raise CertificateError(f"a row has {len(r)} entries, expected {n}")
            d = {j: q(a) for j, a in enumerate(r) if q(a)}
        out.append(d)
    return out


def dot(row: dict[int, Fraction], x) -> Fraction:
    """row . x exactly."""
    return sum((a * x[j] for j, a in row.items()), Fraction(0))


def polyhedron(st: dict, n: int):
    """(A, b, E, f) of a statement's rows A x <= b, E x = f in n variables (rows as :func:`qrows`)."""
    A, b, E, f = qrows(st.get("A", []), n), qvec(st.get("b", [])), qrows(st.get("E", []), n), qvec(st.get("f", []))
    if len(A) != len(b) or len(E) != len(f):
        raise CertificateError("A and b (or E and f) have different numbers of rows")
    return A, b, E, f


def outside(A, b, E, f, x) -> str | None:
    """The first row of A x <= b, E x = f that x violates ("inequality i" / "equality i"), or None."""
    return next((f"inequality {i}" for i, (r, bi) in enumerate(zip(A, b, strict=True)) if dot(r, x) > bi), None) or \
        next((f"equality {i}" for i, (r, fi) in enumerate(zip(E, f, strict=True)) if dot(r, x) != fi), None)


def combine(ys, rows, rhs, n: int) -> tuple[list[Fraction], Fraction]:
    """(sum_i y_i row_i, sum_i y_i rhs_i) exactly: the combination of rows that a dual or Farkas certificate names."""
    comb, total = [Fraction(0)] * n, Fraction(0)
    for y, row, r in zip(ys, rows, rhs, strict=True):
        total += y * r
        for j, a in row.items():
            comb[j] += y * a
    return comb, total


def check(doc: dict) -> Checked:
    """Check one certificate document; never raises on a bad certificate (``ok`` is False then)."""
    from rldp_verify_check import audit, identity, lp, series, value, vertices

    kinds = {"lp-optimum": lp.check, "vertex-enumeration": vertices.check, "rigorous-value": value.check,
             "audit": audit.check, "symbolic-identity": identity.check, "series": series.check}
    name = str(doc.get("name", "?")) if isinstance(doc, dict) else "?"
    kind = str(doc.get("kind", "?")) if isinstance(doc, dict) else "?"
    try:
        if not isinstance(doc, dict) or doc.get("certificate") != "rldp-verify" or doc.get("version") != 1:
            raise CertificateError("not an rldp-verify certificate of version 1")
        if kind not in kinds:
            raise CertificateError(f"unknown kind {kind!r}")
        msg = kinds[kind](doc["statement"], doc.get("data", {}))
        return Checked(name, kind, True, msg)
    except CertificateError as exc:
        return Checked(name, kind, False, str(exc))
    except (KeyError, TypeError, ValueError, IndexError, ZeroDivisionError) as exc:
        return Checked(name, kind, False, f"malformed certificate: {type(exc).__name__}: {exc}")


def check_path(path) -> list[Checked]:
    """Check a certificate file (``*.gz``: gzip), or every ``*.json`` / ``*.json.gz`` file under a directory
    (sorted); a file may hold one certificate or a list.  In a directory, JSON files that are not certificates
    (no "certificate" key at the top) are skipped; a file given by name is always checked."""
    path = Path(path)
    files = sorted([*path.rglob("*.json"), *path.rglob("*.json.gz")]) if path.is_dir() else [path]
    out = []
    for f in files:
        floats: list[str] = []                         # a JSON float (or NaN) makes the whole file unreadable
        try:
            docs = json.loads(zlib.decompress(f.read_bytes(), 31).decode() if f.name.endswith(".gz") else
                              f.read_text(), parse_float=floats.append, parse_constant=floats.append)
        except (OSError, ValueError, zlib.error) as exc:
            out.append(Checked(str(f), "?", False, f"unreadable: {exc}"))
            continue
        docs = docs if isinstance(docs, list) else [docs]
        if path.is_dir() and not any(isinstance(d, dict) and "certificate" in d for d in docs):
            continue
        out.extend([Checked(str(f), "?", False, f"unreadable: JSON float {floats[0]} in a certificate (numbers must "
                                                "be exact)")] if floats else (check(d) for d in docs))
    return out
