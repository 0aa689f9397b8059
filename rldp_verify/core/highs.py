"""The one HiGHS wrapper of the engine: a silent instance, a one-shot LP solve, and a column-generation master.

* :func:`new_highs`: a ``highspy.Highs()`` that prints nothing (see below);
* :func:`highs_solve`: one LP, solved once (:class:`FloatLPSolution`, with the final basis);
* :class:`IncrementalLP`: an LP with fixed rows that grows by columns, re-solved after each batch from
  HiGHS's previous basis (warm start), with the row duals the pricing step needs (column generation:
  rldp_verify.rldp.mechanisms.polyopt_cg).

Every answer is a floating-point proposal, never a certificate: callers re-check it exactly or in arb.

highspy prints its banner ("Running HiGHS ... Copyright ...") on the C-level standard output when the
first ``Highs()`` of a process is constructed, before any option can be set, which corrupts JSON
written to stdout. :func:`new_highs` constructs that first instance with file descriptor 1 pointed at
``/dev/null`` (C buffers flushed before it is restored) and sets ``output_flag`` to false on every
instance. Every HiGHS call site of the package goes through it.
"""

from __future__ import annotations

import os
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

#: a float vector: a sequence of floats or a float64 numpy array
FloatVector = Sequence[float] | np.ndarray[Any, Any]

_lock = threading.Lock()
_banner_done = False


def _flush_c_stdout() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # pragma: no cover - no libc symbol table
        pass


def new_highs() -> Any:
    """A ``highspy.Highs()`` with ``output_flag`` false; the first one is built with stdout silenced."""
    import highspy

    global _banner_done
    with _lock:
        if _banner_done:
            h = highspy.Highs()  # type: ignore[no-untyped-call, unused-ignore]
        else:
            sys.stdout.flush()
            _flush_c_stdout()
            saved = os.dup(1)
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                try:
                    os.dup2(devnull, 1)
                    h = highspy.Highs()  # type: ignore[no-untyped-call, unused-ignore]
                    h.setOptionValue("output_flag", False)
                    _flush_c_stdout()
                finally:
                    os.dup2(saved, 1)
                    os.close(devnull)
            finally:
                os.close(saved)
            _banner_done = True
    h.setOptionValue("output_flag", False)
    return h


@dataclass(frozen=True)
class FloatLPSolution:
    """HiGHS's floating-point answer: never a certificate (every caller re-checks it exactly or in arb).
    Basis codes per column / row: "L" at lower bound, "U" at upper bound, "B" basic, "Z" free at zero,
    "N" other."""

    optimal: bool
    status: str
    x: Any = None          # numpy array of column values (None unless optimal)
    row_dual: Any = None   # numpy array of row duals (None unless optimal)
    col_basis: tuple[str, ...] = ()
    row_basis: tuple[str, ...] = ()
    objective: float | None = None   # cost . x (None unless optimal)


def highs_solve(cost: FloatVector, col_lower: FloatVector, col_upper: FloatVector,
                row_lower: FloatVector, row_upper: FloatVector, matrix: Any, *, maximize: bool = True,
                options: dict[str, Any] | None = None) -> FloatLPSolution:
    """The one HiGHS call of the engine: optimise cost . x  s.t.  row_lower <= M x <= row_upper,
    col_lower <= x <= col_upper, in float64.

    ``matrix`` is a scipy.sparse matrix with one row per constraint (a CSR matrix is passed to HiGHS row-wise,
    anything else column-wise); infinite bounds are +-``math.inf``. ``options`` are HiGHS options (tolerances,
    ``solver``). Output is silenced. The result is a proposal only: see :class:`FloatLPSolution`.
    """
    import highspy
    from scipy import sparse

    n, m = len(cost), len(row_lower)
    h = new_highs()
    for key, val in (options or {}).items():
        h.setOptionValue(key, val)
    lp = highspy.HighsLp()
    lp.num_col_, lp.num_row_ = n, m
    lp.sense_ = highspy.ObjSense.kMaximize if maximize else highspy.ObjSense.kMinimize
    lp.col_cost_ = np.asarray(cost, dtype=float)
    lp.col_lower_ = np.asarray(col_lower, dtype=float)
    lp.col_upper_ = np.asarray(col_upper, dtype=float)
    lp.row_lower_ = np.asarray(row_lower, dtype=float)
    lp.row_upper_ = np.asarray(row_upper, dtype=float)
    if sparse.issparse(matrix) and matrix.format == "csr":
        S = matrix
        lp.a_matrix_.format_ = highspy.MatrixFormat.kRowwise
    else:
        S = sparse.csc_matrix(matrix)
        lp.a_matrix_.format_ = highspy.MatrixFormat.kColwise
    lp.a_matrix_.num_col_, lp.a_matrix_.num_row_ = n, m
    lp.a_matrix_.start_ = np.asarray(S.indptr, dtype=np.int32)
    lp.a_matrix_.index_ = np.asarray(S.indices, dtype=np.int32)
    lp.a_matrix_.value_ = np.asarray(S.data, dtype=float)
    h.passModel(lp)
    return _run(h, with_basis=True)


def _run(h: Any, *, with_basis: bool) -> FloatLPSolution:
    """Run HiGHS on the model held by ``h`` and read the answer (status; x, row duals, objective; the basis
    codes when ``with_basis``)."""
    import highspy

    h.run()
    status = h.getModelStatus()
    if status != highspy.HighsModelStatus.kOptimal:
        return FloatLPSolution(False, str(status))
    sol = h.getSolution()
    x, y = np.array(sol.col_value, dtype=float), np.array(sol.row_dual, dtype=float)
    obj = float(h.getInfo().objective_function_value)
    if not with_basis:
        return FloatLPSolution(True, "optimal", x, y, objective=obj)
    basis = h.getBasis()
    S_ = highspy.HighsBasisStatus
    codes = {S_.kLower: "L", S_.kUpper: "U", S_.kBasic: "B", S_.kZero: "Z"}
    return FloatLPSolution(True, "optimal", x, y, tuple(codes.get(st, "N") for st in basis.col_status),
                           tuple(codes.get(st, "N") for st in basis.row_status), obj)


class IncrementalLP:
    """An LP with fixed rows  row_lower <= M x <= row_upper  that grows by columns (column generation).

    :meth:`add_columns` appends columns (cost, bounds, entries), :meth:`change_columns` changes costs and bounds;
    :meth:`solve` re-runs HiGHS, which starts from
    the basis of the previous solve (the new columns enter non-basic at their lower bound: a warm start), and
    returns x, the row duals and the objective (:class:`FloatLPSolution`, without basis codes: reading them costs
    O(columns) per solve); :meth:`basic_indices` gives the final basis. ``options`` are HiGHS options
    (tolerances). Output is silenced (:func:`new_highs`). A proposal only, as every HiGHS answer here.
    """

    def __init__(self, row_lower: Sequence[float], row_upper: Sequence[float], *, maximize: bool = True,
                 options: dict[str, Any] | None = None) -> None:
        import highspy

        self._hp = highspy
        self.h = new_highs()
        for key, val in (options or {}).items():
            self.h.setOptionValue(key, val)
        self.h.changeObjectiveSense(highspy.ObjSense.kMaximize if maximize else highspy.ObjSense.kMinimize)
        self.rows = len(row_lower)
        for lo, up in zip(row_lower, row_upper, strict=True):
            self.h.addRow(float(lo), float(up), 0, np.zeros(0, dtype=np.int32), np.zeros(0))
        self.cols = 0
        self.retries = 0

    def add_columns(self, costs: Any, lower: Any, upper: Any, columns: Any) -> None:
        """Append k columns: ``costs``, ``lower``, ``upper`` of length k (bounds may be +-inf) and ``columns``
        a k x rows array (dense or scipy.sparse; row j of it is column j of M)."""
        from scipy.sparse import csc_matrix

        k = len(costs)
        if k == 0:
            return
        S = csc_matrix(np.asarray(columns, dtype=float).T if not hasattr(columns, "tocsc") else columns.T)
        inf = self._hp.kHighsInf
        lo = np.maximum(np.asarray(lower, dtype=float), -inf)
        up = np.minimum(np.asarray(upper, dtype=float), inf)
        self.h.addCols(k, np.asarray(costs, dtype=float), lo, up, S.nnz,
                       S.indptr[:-1].astype(np.int32), S.indices.astype(np.int32), S.data.astype(float))
        self.cols += k

    def change_columns(self, indices: Any, *, costs: Any = None, lower: Any = None, upper: Any = None) -> None:
        """Change the costs and/or the bounds (``lower`` and ``upper`` together; +-inf allowed) of the columns
        ``indices``; the basis is kept for the next :meth:`solve` (e.g. a stabilisation box switched on or off)."""
        idx = np.asarray(indices, dtype=np.int32)
        k = len(idx)
        if costs is not None:
            self.h.changeColsCost(k, idx, np.asarray(costs, dtype=float))
        if (lower is None) != (upper is None):
            raise ValueError("change_columns: give lower and upper together")
        if lower is not None:
            inf = self._hp.kHighsInf
            self.h.changeColsBounds(k, idx, np.maximum(np.asarray(lower, dtype=float), -inf),
                                    np.minimum(np.asarray(upper, dtype=float), inf))

    def solve(self) -> FloatLPSolution:
        """Re-solve from the previous basis; x, row duals and the objective (``optimal`` must be checked).

        When the warm start does not end optimal (HiGHS may stop with status ``kUnknown`` after numerical
        trouble on a long, degenerate column-generation run), the solve is repeated from scratch
        (``clearSolver``), then from scratch with the primal simplex; the answer is the first optimal one, or
        the last status. Every answer is a proposal that the callers certify, so a retry changes no bound's
        validity. ``retries`` counts the solves that needed one."""
        sol = _run(self.h, with_basis=False)
        if sol.optimal:
            return sol
        self.retries += 1
        self.h.clearSolver()
        sol = _run(self.h, with_basis=False)
        if sol.optimal:
            return sol
        old = self.h.getOptionValue("simplex_strategy")
        old = old[1] if isinstance(old, tuple) else old   # highspy 1.16 returns (status, value)
        self.h.setOptionValue("simplex_strategy", 4)     # primal simplex
        try:
            self.h.clearSolver()
            return _run(self.h, with_basis=False)
        finally:
            self.h.setOptionValue("simplex_strategy", old)

    def basic_indices(self) -> tuple[list[int], list[int]]:
        """The basic columns and the basic rows (slack rows) of the last solve's basis."""
        b = self.h.getBasis()
        B = self._hp.HighsBasisStatus.kBasic
        return ([j for j, st in enumerate(b.col_status) if st == B],
                [i for i, st in enumerate(b.row_status) if st == B])
