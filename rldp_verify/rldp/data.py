"""Estimating P^ from a data set: the maximum-likelihood estimate of Sec. 3 (P^_x = count_x / n).

:func:`read_counts` reads a CSV file (with or without a header row) and tabulates the counts of
(S, U) pairs. Columns are named by header name or by 0-based index. Values are stripped of
surrounding white space; rows with a missing value (empty, or one of ``missing``) in either column
are dropped and counted. Labels are sorted, so the same file always gives the same table.
"""

from __future__ import annotations

import csv
import os
import sys
from collections import Counter
from dataclasses import dataclass
from fractions import Fraction
from pathlib import Path

from rldp_verify.core.errors import InputError


@dataclass(frozen=True)
class CountTable:
    """Counts of (S, U) pairs read from a CSV file, with the labels and the number of dropped records."""
    sensitive: tuple[str, ...]
    public: tuple[str, ...]
    counts: tuple[tuple[int, ...], ...]   # |S| x |U|
    dropped: int                          # rows dropped for a missing value
    source: str

    @property
    def n(self) -> int:
        """The number of records counted."""
        return sum(map(sum, self.counts))

    def phat(self) -> tuple[tuple[Fraction, ...], ...]:
        """P-hat = counts / n as exact Fractions."""
        n = self.n
        return tuple(tuple(Fraction(c, n) for c in r) for r in self.counts)


def _column(spec, header, width, path):
    if header is not None and spec in header:
        return header.index(spec)
    try:
        i = int(spec)
    except (TypeError, ValueError):
        names = f"; header: {', '.join(header)}" if header else " (the file has no header row: use a 0-based index)"
        raise InputError(f"column {spec!r} not found in {path}{names}") from None
    if not 0 <= i < width:
        raise InputError(f"column index {i} out of range: {path} has {width} columns")
    return i


def _read_rows(path) -> tuple[Path, list[list[str]]]:
    """The non-blank CSV rows of ``path`` (``"-"``: standard input), each field stripped."""
    p = Path("<stdin>") if str(path) == "-" else Path(path)
    try:
        text = sys.stdin.read() if str(path) == "-" else p.read_text(errors="strict")
    except OSError as exc:
        raise InputError(f"cannot read {str(p)!r}: {exc.strerror}") from None
    except UnicodeDecodeError:
        raise InputError(f"{str(p)!r} is not a text file") from None
    rows = [[c.strip() for c in r] for r in csv.reader(text.splitlines()) if any(c.strip() for c in r)]
    if not rows:
        raise InputError(f"{str(p)!r} has no data rows")
    return p, rows


def _count_pairs(body, i: int, j: int, width: int, header: bool, miss: set, p: Path) -> tuple[Counter, int]:
    """Counts of the (column i, column j) pairs of ``body``, and how many rows were dropped as missing."""
    pairs: Counter = Counter()
    dropped = 0
    for k, r in enumerate(body):
        if len(r) != width:
            raise InputError(f"{str(p)!r} row {k + (2 if header else 1)} has {len(r)} fields, expected {width}")
        s, u = r[i], r[j]
        if s == "" or u == "" or s in miss or u in miss:
            dropped += 1
            continue
        pairs[(s, u)] += 1
    return pairs, dropped


def read_counts(path, sensitive, public, *, header: bool | None = None, missing=("?",)) -> CountTable:
    """Counts of (sensitive, public) pairs in the CSV file ``path`` (``"-"``: standard input).

    ``header``: True / False, or None to treat the first row as a header exactly when both column
    specifications are names found in it.
    """
    p, rows = _read_rows(path)
    first = rows[0]
    if header is None:
        header = str(sensitive) in first and str(public) in first
    head = first if header else None
    body = rows[1:] if header else rows
    width = len(first)
    i = _column(str(sensitive) if head else sensitive, head, width, p)
    j = _column(str(public) if head else public, head, width, p)
    if i == j:
        raise InputError(f"the sensitive and public columns are the same column ({i})")
    pairs, dropped = _count_pairs(body, i, j, width, header, set(missing or ()), p)
    if not pairs:
        raise InputError(f"{str(p)!r}: no rows with both columns present")
    S = tuple(sorted({s for s, _ in pairs}))
    U = tuple(sorted({u for _, u in pairs}))
    counts = tuple(tuple(pairs.get((s, u), 0) for u in U) for s in S)
    return CountTable(S, U, counts, dropped, str(p))


ADULT_ENV = "RLDP_VERIFY_ADULT_DATA"
ADULT_RELATIVE = Path("shared") / "data" / "adult.data"


def adult_data_path() -> Path:
    """The UCI Adult data file (``adult.data``) used by the Sec. 8 claims and benchmarks.

    The environment variable ``RLDP_VERIFY_ADULT_DATA`` (``report --adult-data PATH`` sets it) wins;
    otherwise the first ``shared/data/adult.data`` beside the repository or beside one of its parent
    directories (``../shared`` next to a clone). Raises :class:`InputError` naming what was tried.
    """
    env = os.environ.get(ADULT_ENV)
    if env:
        p = Path(env).expanduser()
        if not p.is_file():
            raise InputError(f"{ADULT_ENV}={env!r} is not a file")
        return p
    root = Path(__file__).resolve().parents[1]
    tried = []
    for d in root.parents:
        cand = d / ADULT_RELATIVE
        if cand.is_file():
            return cand
        tried.append(str(cand))
        if len(tried) >= 4:
            break
    raise InputError(f"the adult data set was not found beside the repository (tried {', '.join(tried[:2])}, ...): "
                     f"put it at ../{ADULT_RELATIVE} or set {ADULT_ENV}=PATH")
