"""An |S| x |U| table (P-hat of a Rényi ball, or the exact P of eq. (62)) read from a file, for the tables too
large to type: ``--phat p.csv``, ``--distribution p.npy`` (issue 26), and
:func:`rldp_verify.rldp.uncertainty.read_table` given such a path.

A string ending in ``.json``, ``.csv`` or ``.npy`` (any case) is a path; anything else is an inline table
``"a,b;c,d"``. The formats, each a list of rows (row s = secret s, column u = public value u):

- ``.json``: a nested list ``[[0.1, 0.2], [0.3, 0.4]]``; numbers are read from their decimal text exactly
  (``0.1`` is 1/10, not the float), strings such as ``"1/3"`` as exact numbers;
- ``.csv``: one row per line, cells separated by commas, read exactly as decimals or ``a/b``; blank lines and
  lines starting with ``#`` are skipped (no header row: a non-numeric cell is an error);
- ``.npy``: a 2-D NumPy array of integers or floats (``np.save``); a float64 entry is read as its shortest
  decimal representation, as :func:`~rldp_verify.rldp.uncertainty.read_table` reads every float in a P-hat
  table (so ``0.07`` is 7/100; a table must then sum to exactly 1 in those decimals, or be integer counts).

Nothing is repaired: a missing file, a file that does not parse, a non-numeric cell, a NaN, ragged rows or a
negative entry raise an :class:`~rldp_verify.core.errors.InputError` of one line naming the file and the
problem (the cell as ``[row][column]``, 0-based).
"""

from __future__ import annotations

import csv
import json
import os

from rldp_verify.core.errors import InputError

__all__ = ["SUFFIXES", "is_table_file", "load_rows"]

SUFFIXES = (".json", ".csv", ".npy")


def is_table_file(text) -> bool:
    """True when ``text`` (a str or os.PathLike) names a table file by its suffix (.json, .csv, .npy)."""
    if isinstance(text, os.PathLike):
        text = os.fspath(text)
    return isinstance(text, str) and text.strip().lower().endswith(SUFFIXES)


def load_rows(path) -> list:
    """The rows of the table file ``path`` (cells as exact-number text, ints or floats; not yet checked as a
    probability table). Raises InputError("FILE: problem") when the file is missing or does not parse."""
    path = os.fspath(path).strip()
    if not os.path.exists(path):
        raise InputError(f"{path}: no such file")
    if os.path.isdir(path):
        raise InputError(f"{path}: is a directory, not a table file")
    suffix = os.path.splitext(path)[1].lower()
    try:
        if suffix == ".json":
            return _json_rows(path)
        if suffix == ".csv":
            return _csv_rows(path)
        return _npy_rows(path)
    except OSError as exc:
        raise InputError(f"{path}: cannot read it ({exc.strerror or exc})") from None
    except UnicodeDecodeError as exc:
        raise InputError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from None


def _bad_constant(name: str):
    raise ValueError(f"{name} is not a number")


def _json_rows(path: str) -> list:
    with open(path, encoding="utf-8") as fh:
        try:
            data = json.load(fh, parse_float=str, parse_constant=_bad_constant)   # decimals kept as their text
        except ValueError as exc:
            raise InputError(f"{path}: not valid JSON ({' '.join(str(exc).split())})") from None
    if not isinstance(data, list) or not data or not all(isinstance(r, list) for r in data):
        raise InputError(f"{path}: must hold a nonempty list of rows (a nested list [[...], [...]]), got "
                         f"{type(data).__name__ if not isinstance(data, list) else 'a list that is not of lists'}")
    for i, r in enumerate(data):
        for j, v in enumerate(r):
            if isinstance(v, (list, dict)) or v is None or isinstance(v, bool):
                raise InputError(f"{path}: cell [{i}][{j}] = {json.dumps(v)} is not a number")
    return data


def _csv_rows(path: str) -> list:
    with open(path, encoding="utf-8", newline="") as fh:
        lines = [ln for ln in fh.read().splitlines() if ln.strip() and not ln.lstrip().startswith("#")]
    if not lines:
        raise InputError(f"{path}: no rows (an empty CSV file)")
    return [[c.strip() for c in row] for row in csv.reader(lines)]


def _npy_rows(path: str) -> list:
    import numpy as np

    try:
        arr = np.load(path, allow_pickle=False)
    except ValueError as exc:
        raise InputError(f"{path}: not a NumPy .npy array of numbers ({' '.join(str(exc).split())})") from None
    if not isinstance(arr, np.ndarray):
        raise InputError(f"{path}: not a single .npy array (an .npz archive?)")
    if arr.ndim != 2:
        raise InputError(f"{path}: must be a 2-D array (|S| x |U|), got shape {arr.shape}")
    if arr.dtype.kind not in "iuf":
        raise InputError(f"{path}: must be an array of integers or floats, got dtype {arr.dtype}")
    return [[int(v) for v in r] for r in arr.tolist()] if arr.dtype.kind in "iu" else arr.tolist()
