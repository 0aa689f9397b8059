"""Regression-check an implementation against rldp-verify's certified reference values.

    from rldp_verify.testing import assert_matches_reference

    def my_B_s(p_s, alpha, B):                     # your float implementation of Theorem 1, eq. (23)
        ...

    def test_B_s():
        assert_matches_reference(my_B_s, "B_s", rtol=1e-12)

The implementation is called with keyword arguments named after the quantity's inputs (see
``rldp-verify reference QUANTITY --list`` or :data:`rldp_verify.reference.QUANTITIES`): numbers as Python
floats, integers as ints, vectors as lists of floats, tables as lists of lists, choices as strings. It
returns a number (matrices: a nested sequence or a NumPy array). Each reference value is computed at the
exact binary rational of the float the implementation receives (vectors and tables, which must sum to 1,
at the decimals as written) and carries a certified error bound.

A point is bad when |got - wanted| > atol + rtol * |wanted| + (certified error of wanted); with
``direction="upper"`` only got < wanted - tolerance is bad (a claimed upper bound below the true value),
with ``direction="lower"`` only got > wanted + tolerance. Infinite reference values must be matched by
inf (an upper bound may always be inf). NaN, a wrong shape and an exception are bad points. Every bad
point is listed in the AssertionError (inputs, got, wanted, relative difference), like scipy's
``mp_assert_allclose``, worst first, after a summary of their pattern (the worst point, and the inputs whose
values separate the bad points from the good ones, e.g. "every point with alpha != 1 fails"). ``rtol`` and
``atol`` may be callables of the point (a tolerance per region). The helper hides its own frames from pytest's
traceback (``__tracebackhide__``): a failure shows your test's line and the message.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from rldp_verify.core.errors import InputError
from rldp_verify.core.numbers import REFERENCE_DPS

__all__ = ["assert_matches_reference", "reference_points", "reference_values", "CheckSummary"]

_SCALAR_KINDS = ("prob", "prob_pos", "alpha", "radius", "conf", "exp_eps", "nonneg", "eps_pos")
_CACHE: dict = {}


@dataclass(frozen=True)
class CheckSummary:
    """What :func:`assert_matches_reference` checked: the quantity, how many grid points, and the largest
    relative difference found (all within tolerance, else it raised)."""

    quantity: str
    points: int
    max_rel_diff: float


def _raw_points(quantity: str, grid):
    from rldp_verify import reference
    from rldp_verify.reference.registry import parse_point

    qty = reference.quantity(quantity)
    if isinstance(grid, str) and grid == "default":
        return reference.default_grid(quantity)
    if isinstance(grid, (str, bytes)) or hasattr(grid, "__fspath__"):
        return reference.read_grid(quantity, grid)
    try:
        pts = list(grid)
    except TypeError:
        raise InputError(f"grid must be 'default', a file or a list of points, got {grid!r}") from None
    if not pts:
        raise InputError("grid holds no points")
    return [parse_point(qty, p, i) for i, p in enumerate(pts)]


def _as_received(quantity: str, point: dict) -> tuple[dict, dict]:
    """(what the implementation receives, the exact point the reference is computed at)."""
    from rldp_verify import reference
    from rldp_verify.reference.inputs import as_user_value

    qty = reference.quantity(quantity)
    user, exact = {}, {}
    for spec in qty.inputs:
        v = point[spec.name]
        u = as_user_value(spec, v)
        user[spec.name] = u
        if spec.kind in _SCALAR_KINDS and v != math.inf:
            exact[spec.name] = Fraction(u)          # the binary rational of the float received
        else:
            exact[spec.name] = v
    return user, exact


def reference_points(quantity: str, grid="default") -> list[dict]:
    """The points of ``grid`` as the implementation receives them (floats, lists, ints, strings)."""
    return [_as_received(quantity, p)[0] for p in _raw_points(quantity, grid)]


def reference_values(quantity: str, grid="default", *, dps: int = REFERENCE_DPS, workers: int | None = None):
    """[(user point, Ref)] for ``grid``; values are cached per process."""
    from rldp_verify.reference import evaluate_grid

    pairs = [_as_received(quantity, p) for p in _raw_points(quantity, grid)]
    keys = [(quantity, dps, repr(sorted(e.items()))) for _, e in pairs]
    missing = [i for i, k in enumerate(keys) if k not in _CACHE]
    if missing:
        refs = evaluate_grid(quantity, [pairs[i][1] for i in missing], dps=dps, workers=workers, progress=True)
        for i, r in zip(missing, refs, strict=True):
            _CACHE[keys[i]] = r
    return [(u, _CACHE[k]) for (u, _), k in zip(pairs, keys, strict=True)]


def _tol(t, name: str, point: dict) -> float:
    v = t(point) if callable(t) else t
    if isinstance(v, bool) or not isinstance(v, (int, float, np.floating, np.integer)):
        raise InputError(f"{name} must be a number >= 0, got {v!r}")
    v = float(v)
    if not v >= 0 or math.isinf(v):
        raise InputError(f"{name} must be a finite number >= 0, got {v!r}")
    return v


def _compare(got: float, wanted: float, err: float, rtol: float, atol: float, direction):
    """(bad?, relative difference)."""
    if math.isnan(got):
        return True, math.nan
    if math.isinf(wanted):
        if direction == "lower":
            return False, 0.0
        return got != wanted, (0.0 if got == wanted else math.inf)
    if math.isinf(got):
        if direction == "upper" and got > 0:
            return False, math.inf
        return True, math.inf
    diff = got - wanted
    rel = abs(diff) / abs(wanted) if wanted != 0 else (0.0 if diff == 0 else math.inf)
    tol = atol + rtol * abs(wanted) + err
    if direction == "upper":
        return diff < -tol, rel
    if direction == "lower":
        return diff > tol, rel
    return abs(diff) > tol, rel


def _fmt_point(p: dict) -> str:
    return ", ".join(f"{k}={v!r}" for k, v in p.items())


def assert_matches_reference(impl: Callable, quantity: str, grid="default", *, rtol=1e-10, atol=0.0,
                             direction: str | None = None, dps: int = REFERENCE_DPS, workers: int | None = None,
                             max_listed: int | None = None) -> CheckSummary:
    """Compare ``impl(**inputs)`` with the certified reference of ``quantity`` at every grid point; raise
    AssertionError listing every bad point (see the module docstring). Returns a :class:`CheckSummary`."""
    __tracebackhide__ = True  # pytest shows the caller's assertion, not this helper's body
    if direction not in (None, "upper", "lower"):
        raise InputError(f"direction must be None, 'upper' or 'lower', got {direction!r}")
    if not callable(impl):
        raise InputError(f"impl must be callable, got {type(impl).__name__}")
    _tol(rtol, "rtol", {}) if not callable(rtol) else None
    _tol(atol, "atol", {}) if not callable(atol) else None
    values = reference_values(quantity, grid, dps=dps, workers=workers)
    bad, worst = [], 0.0
    for point, ref in values:
        rt, at = _tol(rtol, "rtol", point), _tol(atol, "atol", point)
        wanted = np.asarray(ref.floats(), dtype=float)
        err = float(ref.error) * (1 + 1e-9)
        try:
            got_raw = impl(**point)
            got = np.asarray(got_raw, dtype=float)
        except Exception as exc:  # a crash at a point is a bad point, reported with the others
            bad.append((point, f"raised {type(exc).__name__}: {exc}", _short(wanted), math.nan))
            continue
        if got.shape != wanted.shape:
            bad.append((point, f"shape {got.shape}", f"shape {wanted.shape}", math.nan))
            continue
        point_bad, point_rel = False, 0.0
        for g, w in zip(got.ravel(), wanted.ravel(), strict=True):
            b, rel = _compare(float(g), float(w), err, rt, at, direction)
            point_bad |= b
            point_rel = max(point_rel, rel) if not math.isnan(rel) else math.nan
        if point_bad:
            bad.append((point, _short(got), _short(wanted), point_rel))
        elif not math.isnan(point_rel) and not math.isinf(point_rel):
            worst = max(worst, point_rel)
    if bad:
        bad.sort(key=lambda b: (0 if math.isnan(b[3]) else 1, -b[3] if not math.isnan(b[3]) else 0))
        shown = bad if max_listed is None else bad[:max_listed]
        side = {None: "", "upper": " (direction='upper': got must not be below wanted)",
                "lower": " (direction='lower': got must not exceed wanted)"}[direction]
        lines = [f"{len(bad)} of {len(values)} points of {quantity!r} do not match the reference "
                 f"(rtol={rtol!r}, atol={atol!r}){side}."]
        lines += _pattern([p for p, *_ in values], bad)
        lines.append("Bad points, worst first:")
        for point, g, w, rel in shown:
            lines.append(f"  {_fmt_point(point)}: got {g}, wanted {w}, rel. diff {rel:.3g}")
        if len(shown) < len(bad):
            lines.append(f"  ... and {len(bad) - len(shown)} more")
        raise AssertionError("\n".join(lines))
    return CheckSummary(quantity, len(values), worst)


def _key(v) -> str:
    return repr(v)


def _pattern(points: list[dict], bad: list[tuple]) -> list[str]:
    """Lines summarising where the bad points are: the worst one, then each input whose values separate bad
    points from good ones ("every point with alpha != 1 fails (220 of 220); none with alpha = 1 (0 of 50)"),
    else the input values with the largest share of bad points."""
    out = _headline(bad)
    bad_ids = {id(b[0]) for b in bad}  # the same point objects as in ``points``
    if len(bad) == len(points) or not points:
        return out + ["Pattern: every point fails."] if points else out
    clean, confined, shares = [], [], []
    for name in points[0]:
        by_value = _bad_by_value(points, name, bad_ids)
        if len(by_value) < 2 or len(by_value) > 24:
            continue
        none_bad = [v for v, (b, t) in by_value.items() if b == 0]
        all_bad = [v for v, (b, t) in by_value.items() if b == t]
        if len(all_bad) + len(none_bad) == len(by_value):
            clean.append(_separated(name, by_value, all_bad, none_bad))
        elif none_bad and len(none_bad) <= len(by_value) / 2:
            confined.append(_confined(name, by_value, none_bad))
        else:
            shares.append(_largest_share(name, by_value))
    if clean:
        return out + clean
    if confined:
        return out + [t for _, t in sorted(confined, key=lambda x: -x[0])[:2]]
    if shares:
        shares.sort(key=lambda x: -x[0])
        out.append("No input separates the bad points; the largest shares: " + "; ".join(t for _, t in shares[:3])
                   + ".")
    return out


def _headline(bad: list[tuple]) -> list[str]:
    """The worst bad point with a value, and the bad points without one (exception, NaN, wrong shape)."""
    out = []
    rels = [b for b in bad if not math.isnan(b[3])]
    crashed = [b for b in bad if math.isnan(b[3])]
    if rels:
        w = max(rels, key=lambda b: b[3])
        out.append(f"Worst: relative difference {w[3]:.3g} at {_fmt_point(w[0])} (got {w[1]}, wanted {w[2]}).")
    if crashed:
        out.append(f"{len(crashed)} bad point(s) without a value (an exception, NaN or a wrong shape), e.g. "
                   f"{_fmt_point(crashed[0][0])}: {crashed[0][1]}.")
    return out


def _bad_by_value(points: list[dict], name: str, bad_ids: set) -> dict[str, list[int]]:
    """For each value of the input ``name``: [bad points, points] with that value."""
    by_value: dict[str, list[int]] = {}
    for p in points:
        c = by_value.setdefault(_key(p.get(name)), [0, 0])
        c[0] += id(p) in bad_ids
        c[1] += 1
    return by_value


def _values(name: str, values: list[str]) -> str:
    """"name = v" for one value, "name in {v, w}" for several."""
    return f"{name} = {values[0]}" if len(values) == 1 else f"{name} in {{{', '.join(values)}}}"


def _separated(name: str, by_value: dict, all_bad: list[str], none_bad: list[str]) -> str:
    """The line for an input whose every value has all its points bad or none."""
    nb, nt = sum(by_value[v][0] for v in all_bad), sum(by_value[v][1] for v in all_bad)
    gt = sum(by_value[v][1] for v in none_bad)
    fails = f"{name} != {none_bad[0]}" if len(none_bad) == 1 else _values(name, all_bad)
    good = _values(name, none_bad)
    return f"Pattern: every point with {fails} fails ({nb} of {nt}); none with {good} (0 of {gt})."


def _confined(name: str, by_value: dict, none_bad: list[str]) -> tuple[float, str]:
    """(share, line) for an input whose bad points are confined to some values (not all of their points fail)."""
    some = [v for v in by_value if v not in none_bad]
    nb, nt = sum(by_value[v][0] for v in some), sum(by_value[v][1] for v in some)
    gt = sum(by_value[v][1] for v in none_bad)
    where = f"{name} != {none_bad[0]}" if len(none_bad) == 1 else f"{name} not in {{{', '.join(none_bad)}}}"
    good = _values(name, none_bad)
    return (nb / nt, f"Pattern: no point with {good} fails (0 of {gt}); the bad points all have "
                     f"{where} ({nb} of {nt} points there fail).")


def _largest_share(name: str, by_value: dict) -> tuple[float, str]:
    """(share, text) of the input's value with the largest share of bad points."""
    worst_v = max(by_value.items(), key=lambda kv: kv[1][0] / kv[1][1])
    return (worst_v[1][0] / worst_v[1][1], f"{name} = {worst_v[0]}: {worst_v[1][0]} of {worst_v[1][1]} bad")


def _short(a) -> str:
    a = np.asarray(a, dtype=float)
    if a.ndim == 0:
        return repr(float(a))
    return np.array2string(a, precision=17, separator=", ")
