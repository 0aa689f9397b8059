"""Reference values with certified error bounds, for regression-checking other implementations.

Public API:

- :data:`QUANTITIES`, :func:`quantity`: the quantities (B, B_s, xi_minus, xi_plus, L, rad_s, the GRR / SRR /
  IR / PolyOpt matrices and utilities, realized_eps, audit_ratio, the Kairouz thresholds), each with its
  formula, inputs and default grid (the claims that check each formula are named in the proofs package,
  ``proofs/reference_claims.py``, and resolved by :mod:`rldp_verify.reference.provenance`).
- :func:`default_grid`, :func:`read_grid` (CSV or JSON file), :func:`evaluate` (one point),
  :func:`evaluate_grid` (many points, in parallel over processes).
- :func:`table` -> the rows and provenance written by ``rldp-verify reference``.

Every value comes with ``error``: a certified upper bound on |printed value - true value| (see
:mod:`rldp_verify.reference._certify`).
"""

from __future__ import annotations

import csv
import json
import os
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import REFERENCE_DPS
from rldp_verify.core.progress import stderr_bar
from rldp_verify.reference._certify import Ref
from rldp_verify.reference.registry import QUANTITIES, default_grid, parse_point, quantity

__all__ = ["QUANTITIES", "Ref", "quantity", "default_grid", "read_grid", "evaluate", "evaluate_grid", "table"]


def evaluate(name: str, point: dict, *, dps: int = REFERENCE_DPS) -> Ref:
    """The certified reference value of ``name`` at one exact point (see :func:`parse_point`)."""
    _check_dps(dps)
    return quantity(name).evaluate(point, dps)


def _check_dps(dps) -> None:
    if isinstance(dps, bool) or not isinstance(dps, int) or not 5 <= dps <= 1000:
        raise InputError(f"dps must be an integer in [5, 1000], got {dps!r}")


def _one(args):
    name, point, dps = args
    return QUANTITIES[name].evaluate(point, dps)


def evaluate_grid(name: str, points: list[dict], *, dps: int = REFERENCE_DPS, workers: int | None = None,
                  progress: bool = False) -> list[Ref]:
    """Reference values at every point, in order. ``workers`` processes (default: the number of cores);
    ``progress`` shows a tqdm bar on stderr when it is a terminal."""
    _check_dps(dps)
    quantity(name)
    workers = workers or os.cpu_count() or 1
    jobs = [(name, p, dps) for p in points]
    bar = _bar(len(jobs), name, progress)
    out = []
    if workers <= 1 or len(jobs) < 8:
        for j in jobs:
            out.append(_one(j))
            bar.update(1) if bar else None
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
        with ProcessPoolExecutor(max_workers=workers, mp_context=ctx) as ex:
            for r in ex.map(_one, jobs, chunksize=max(1, len(jobs) // (8 * workers))):
                out.append(r)
                bar.update(1) if bar else None
    if bar:
        bar.close()
    return out


def _bar(total, name, progress):
    return stderr_bar(total, name, progress)


def read_grid(name: str, path) -> list[dict]:
    """Grid points from a CSV file (a header row of input names) or a JSON file (a list of objects, or
    {"points": [...]}); validated, with the bad value named."""
    qty = quantity(name)
    p = Path(path)
    text = p.read_text()
    if p.suffix.lower() == ".json" or text.lstrip().startswith(("[", "{")):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as exc:
            raise InputError(f"grid file {str(p)!r} is not valid JSON: {exc.msg} (line {exc.lineno})") from None
        if isinstance(obj, dict):
            obj = obj.get("points")
        if not isinstance(obj, list):
            raise InputError(f"grid file {str(p)!r} must hold a list of points (or {{\"points\": [...]}})")
        raw = obj
    else:
        rows = list(csv.DictReader(text.splitlines()))
        raw = [{k: v for k, v in r.items() if k is not None} for r in rows]
    if not raw:
        raise InputError(f"grid file {str(p)!r} holds no points")
    return [parse_point(qty, r, i) for i, r in enumerate(raw)]


def table(name: str, points: list[dict], *, dps: int = REFERENCE_DPS, workers: int | None = None,
          progress: bool = False, claims: list | None = None) -> dict:
    """{"quantity", "formula", "provenance", "rows": [{inputs..., "value", "error"}]} for ``rldp-verify
    reference``. ``claims``: the resolved claim records (see :mod:`rldp_verify.reference.provenance`)."""
    import time

    from rldp_verify import __version__
    from rldp_verify.reference.inputs import text_value

    qty = quantity(name)
    t0 = time.perf_counter()
    refs = evaluate_grid(name, points, dps=dps, workers=workers, progress=progress)
    seconds = time.perf_counter() - t0
    rows = []
    for p, r in zip(points, refs, strict=True):
        row: dict[str, object] = {i.name: text_value(i, p[i.name]) for i in qty.inputs}
        row["value"] = r.value
        row["error"] = _err_str(r.error)
        rows.append(row)
    return {
        "quantity": name,
        "formula": qty.formula,
        "shape": qty.shape,
        "provenance": {
            "package": "rldp-verify", "version": __version__, "dps": dps, "points": len(rows),
            "seconds": round(seconds, 3),
            "error": "a certified upper bound on |value - true value| (entrywise maximum for matrices), from arb "
                     "enclosures, certified root brackets or exact rationals; inputs are read exactly as written",
            "claims": claims if claims is not None else [],
        },
        "rows": rows,
    }


def _err_str(e) -> str:
    """The error bound rounded up to 3 significant digits."""
    from fractions import Fraction

    import mpmath

    e = Fraction(e)
    if e == 0:
        return "0"
    with mpmath.workdps(40):
        x = mpmath.mpf(e.numerator) / e.denominator
        k = int(mpmath.floor(mpmath.log10(x))) - 2
        scaled = e / Fraction(10) ** k
        m = -(-scaled.numerator // scaled.denominator)   # ceil
        return f"{m}e{k}" if k != 0 else str(m)
