"""Tables as users hold them: NumPy arrays and pandas DataFrames -> rows of numbers for
:func:`rldp_verify.rldp.uncertainty.read_table` and the mechanism loaders.

- A 2-D NumPy array is read row by row. Its float64 entries are numbers like Python floats: in a P-hat
  table (which must sum to exactly 1) a float is read as its shortest decimal representation (0.07 is
  7/100), as for a list of Python floats; in a mechanism matrix a float is the binary rational it
  denotes (:func:`rldp_verify.core.numbers.from_float`), as the audit reads every float entry.
- A DataFrame of numbers is a labelled |S| x |U| table (index = values of S, columns = values of U) of
  probabilities or counts.
- Raw records: :func:`counts_from_records` (two named columns -> a labelled table of counts).

Nothing is repaired: a DataFrame with a non-numeric column, or NaN, is an error naming it.
"""

from __future__ import annotations

from dataclasses import dataclass

from rldp_verify.core.errors import InputError


def _is_dataframe(x) -> bool:
    return type(x).__name__ == "DataFrame" and type(x).__module__.startswith("pandas")


def _is_ndarray(x) -> bool:
    return type(x).__name__ == "ndarray" and type(x).__module__ == "numpy"


def as_rows(table, name: str = "phat"):
    """Rows of a NumPy array or a numeric DataFrame (other inputs are returned unchanged)."""
    if _is_dataframe(table):
        import pandas as pd

        bad = [c for c in table.columns if not pd.api.types.is_numeric_dtype(table[c])]
        if bad:
            raise InputError(f"{name}: column {bad[0]!r} of the DataFrame is not numeric (a table of records? use "
                             "rldp_verify.rldp.tables.counts_from_records(df, sensitive=..., public=...))")
        if table.isna().to_numpy().any():
            r, c = [(i, j) for i, row in enumerate(table.isna().to_numpy()) for j, v in enumerate(row) if v][0]
            raise InputError(f"{name}[{table.index[r]!r}][{table.columns[c]!r}] is NaN")
        return [list(r) for r in table.to_numpy()]
    if _is_ndarray(table):
        if table.ndim != 2:
            raise InputError(f"{name} must be a 2-D array, got shape {table.shape}")
        return [list(r) for r in table]
    return table


def labels(table):
    """(S labels, U labels) of a DataFrame table, else None."""
    if _is_dataframe(table):
        return tuple(str(v) for v in table.index), tuple(str(v) for v in table.columns)
    return None


@dataclass(frozen=True)
class LabelledCounts:
    """An |S| x |U| table of integer counts read from records, with the sorted labels of S and U and the number
    of records counted."""

    counts: list            # |S| x |U| integer counts
    sensitive: tuple        # labels of S (sorted)
    public: tuple           # labels of U (sorted)
    n: int                  # records counted


def counts_from_records(df, sensitive, public) -> LabelledCounts:
    """Count the records of ``df`` by the values of its columns ``sensitive`` (S) and ``public`` (U)."""
    if not _is_dataframe(df):
        raise InputError(f"records must be a pandas DataFrame, got {type(df).__name__}")
    for role, col in (("sensitive", sensitive), ("public", public)):
        if col not in df.columns:
            raise InputError(f"{role} column {col!r} is not a column of the DataFrame "
                             f"(columns: {', '.join(map(str, df.columns))})")
    if sensitive == public:
        raise InputError(f"the sensitive and public columns are the same: {sensitive!r}")
    sub = df[[sensitive, public]]
    if sub.isna().to_numpy().any():
        i = int(sub.isna().any(axis=1).to_numpy().nonzero()[0][0])
        raise InputError(f"record {i} has a missing value in {sensitive!r} or {public!r}")
    if len(sub) == 0:
        raise InputError("the DataFrame holds no records")
    S = sorted(sub[sensitive].unique(), key=str)
    U = sorted(sub[public].unique(), key=str)
    ct = sub.groupby([sensitive, public]).size()
    counts = [[int(ct.get((s, u), 0)) for u in U] for s in S]
    return LabelledCounts(counts, tuple(map(str, S)), tuple(map(str, U)), len(sub))
