"""The mechanism: a labelled column-stochastic matrix Q[y|x], and its JSON file format.

Paper: [lopuhaa-2024], Sec. 3: Q is a left-stochastic matrix (Q_{y|x}), columns x in
X = S x U in S-major order (s1,u1), (s1,u2), ..., (s2,u1), ...

JSON format (written by ``rldp-verify mechanism``, read by ``rldp-verify audit``)::

    {"sensitive": ["s1", ...], "public": ["u1", ...], "outputs": ["y1", ...],
     "matrix": [[...], ...],          # rows y, columns x; exact entries as "p/q" strings
     "eps": "...", "guarantee": "...", "utility": {...}, "parameters": {...}, "notes": [...]}

Validation (one-line :class:`InputError` naming the bad value): entries finite and >= 0; the
matrix has len(outputs) rows and |S||U| columns; every column sums to 1 — exactly when every entry
is exact, within 1e-12 otherwise. ``normalize=True`` rescales columns instead and records that in
``notes``. An output row that is 0 for every input is an error (drop the output).
"""

from __future__ import annotations

import json
import math
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path
from typing import Any

from rldp_verify.core.errors import InputError
from rldp_verify.core.information import mutual_information_value
from rldp_verify.core.numbers import fraction_str, parse_exact, sum_str
from rldp_verify.core.validate import stochastic_defects

COLUMN_TOLERANCE = 1e-12


def _entry(x, y: int, c: int):
    where = f"matrix[{y}][{c}]"
    if isinstance(x, bool) or x is None:
        raise InputError(f"{where} = {x!r} is not a number")
    v: Fraction | float
    if isinstance(x, str):
        try:
            v = parse_exact(x)
        except InputError:
            raise InputError(f"{where} = {x!r} is not a number") from None
    elif isinstance(x, Fraction):
        v = x
    elif isinstance(x, int):
        v = Fraction(x)
    else:
        try:
            v = float(x)
        except (TypeError, ValueError):
            raise InputError(f"{where} = {x!r} is not a number") from None
        if not math.isfinite(v):
            raise InputError(f"{where} = {x!r} is not finite")
    if v < 0:
        raise InputError(f"{where} = {x!r} is negative")
    return v


@dataclass(frozen=True)
class Mechanism:
    """An immutable mechanism. ``matrix[y][x]`` = Q[y|x]; entries Fractions (exact) or floats."""

    sensitive: tuple[str, ...]
    public: tuple[str, ...]
    outputs: tuple[str, ...]
    matrix: tuple[tuple[Any, ...], ...]
    eps: str | None = None
    guarantee: str | None = None
    utility: dict | None = None
    parameters: dict = field(default_factory=dict)
    notes: tuple[str, ...] = ()

    # construction ----------------------------------------------------------------------------
    @classmethod
    def from_matrix(cls, matrix, sensitive, public, outputs=None, *, normalize: bool = False, **meta) -> Mechanism:
        """``sensitive``/``public``: label lists or sizes. ``matrix``: rows y, columns x (any nested
        sequence or a 2-D numpy array). Validates; see the module docstring."""
        sens = labels(sensitive, "s")
        pub = labels(public, "u")
        try:
            rows = [list(r) for r in matrix]
        except TypeError:
            raise InputError(f"matrix must be a 2-D table, got {type(matrix).__name__}") from None
        if not rows:
            raise InputError("matrix has no rows")
        outs = labels(outputs if outputs is not None else len(rows), "y")
        ncol = len(sens) * len(pub)
        if len(outs) != len(rows):
            raise InputError(f"matrix has {len(rows)} rows but {len(outs)} outputs are named")
        for y, r in enumerate(rows):
            if len(r) != ncol:
                raise InputError(f"matrix row {y} has {len(r)} columns, expected |S||U| = "
                                 f"{len(sens)}*{len(pub)} = {ncol}")
        vals = [[_entry(x, y, c) for c, x in enumerate(r)] for y, r in enumerate(rows)]
        notes = list(meta.pop("notes", ()))
        vals, note = _check_columns(vals, normalize)
        if note:
            notes.append(note)
        for y, r in enumerate(vals):
            if all(v == 0 for v in r):
                raise InputError(f"output row {y} ({outs[y]!r}) has probability 0 for every input; drop it")
        return cls(tuple(sens), tuple(pub), tuple(outs), tuple(tuple(r) for r in vals), notes=tuple(notes), **meta)

    @classmethod
    def from_json(cls, obj: dict, *, normalize: bool = False) -> Mechanism:
        """A Mechanism from its JSON object (see the module docstring); bad input raises InputError;
        ``normalize`` rescales columns that do not sum to 1 (and records it)."""
        if not isinstance(obj, dict):
            raise InputError("mechanism JSON must be an object")
        for key in ("sensitive", "public", "matrix"):
            if key not in obj:
                raise InputError(f"mechanism JSON lacks the key {key!r}")
        return cls.from_matrix(
            obj["matrix"], obj["sensitive"], obj["public"], obj.get("outputs"), normalize=normalize,
            eps=None if obj.get("eps") is None else str(obj["eps"]),
            guarantee=obj.get("guarantee"), utility=obj.get("utility"),
            parameters=dict(obj.get("parameters") or {}), notes=tuple(obj.get("notes") or ()),
        )

    @classmethod
    def load(cls, path, *, normalize: bool = False) -> Mechanism:
        """Read a mechanism JSON file (``"-"``: standard input)."""
        p = Path("<stdin>") if str(path) == "-" else Path(path)
        try:
            if str(path) == "-":
                import sys

                text = sys.stdin.read()
            else:
                text = p.read_text()
        except OSError as exc:
            raise InputError(f"cannot read {str(p)!r}: {exc.strerror}") from None
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"{str(p)!r} is not valid JSON: {exc.msg} at line {exc.lineno}") from None
        return cls.from_json(obj, normalize=normalize)

    # views -------------------------------------------------------------------------------------
    @property
    def exact(self) -> bool:
        """True when every entry is a Fraction."""
        return all(isinstance(v, Fraction) for r in self.matrix for v in r)

    @property
    def shape(self) -> tuple[int, int]:
        """(|Y|, |X|)."""
        return len(self.matrix), len(self.matrix[0])

    def column_index(self, s: int, u: int) -> int:
        """The column of x = (s, u) in S-major order."""
        return s * len(self.public) + u

    def entry(self, y: int, s: int, u: int):
        """Q[y | (s, u)]."""
        return self.matrix[y][self.column_index(s, u)]

    def block(self, y: int, s: int) -> tuple:
        """Q_{y|s} = (Q[y|s,u])_u (Sec. 5)."""
        a2 = len(self.public)
        return self.matrix[y][s * a2:(s + 1) * a2]

    def to_numpy(self):
        """The matrix as a float64 numpy array."""
        import numpy as np

        return np.array([[float(v) for v in r] for r in self.matrix])

    def mutual_information(self, p, *, dps: int | None = None):
        """I_P(X;Y) in nats (eqs. (44)-(45) of [lopuhaa-2024]) for a |S| x |U| table or flat P;
        an mpmath value at ``dps`` digits (see :mod:`rldp_verify.core.information`)."""
        return mutual_information_value(self.matrix, p, dps=dps)

    def to_json(self) -> dict:
        """The JSON object of the mechanism (exact entries as 'p/q' strings)."""
        def enc(v):
            return fraction_str(v) if isinstance(v, Fraction) else v

        return {
            "sensitive": list(self.sensitive),
            "public": list(self.public),
            "outputs": list(self.outputs),
            "matrix": [[enc(v) for v in r] for r in self.matrix],
            "exact": self.exact,
            "eps": self.eps,
            "guarantee": self.guarantee,
            "utility": self.utility,
            "parameters": self.parameters,
            "notes": list(self.notes),
        }

    def save(self, path) -> None:
        """Write :meth:`to_json` to ``path``."""
        Path(path).write_text(json.dumps(self.to_json(), indent=1) + "\n")


def labels(x, prefix: str) -> list[str]:
    """Labels from a list (distinct strings) or a size n (prefix + "1", ..., prefix + "n"); bad input is an
    InputError."""
    if isinstance(x, int) and not isinstance(x, bool):
        if x < 1:
            raise InputError(f"need at least one {prefix}-label, got size {x}")
        return [f"{prefix}{i + 1}" for i in range(x)]
    try:
        out = [str(v) for v in x]
    except TypeError:
        raise InputError(f"labels must be a list or a size, got {x!r}") from None
    if not out:
        raise InputError(f"empty list of {prefix}-labels")
    if len(set(out)) != len(out):
        raise InputError(f"duplicate labels in {out!r}")
    return out


def _check_columns(vals, normalize: bool):
    ncol = len(vals[0])
    note = None
    bad = stochastic_defects(vals, columns=True, tol=COLUMN_TOLERANCE)
    if bad and not normalize:
        c, s = bad[0]
        more = f" ({len(bad) - 1} more columns do not sum to 1)" if len(bad) > 1 else ""
        shown = sum_str(s) if isinstance(s, Fraction) else repr(float(s))
        raise InputError(f"column {c} sums to {shown}, not 1{more}; to rescale the columns explicitly: --normalize "
                         "on the command line, normalize=True in Python")
    if bad:
        for c, s in bad:
            if s == 0:
                raise InputError(f"column {c} sums to 0 and cannot be normalised")
        sums = [sum(r[c] for r in vals) for c in range(ncol)]
        vals = [[v / sums[c] for c, v in enumerate(r)] for r in vals]
        worst = max(abs(float(s) - 1) for _, s in bad)
        note = f"normalized: {len(bad)} columns rescaled to sum to 1 (largest deviation {worst:.3g})"
    return vals, note
