"""A scipy.special-style grid check: evaluate a routine against a reference on every point of a grid and
fail with the list of *every* bad point (got / wanted / relative difference), not just the first one."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import mpmath


def check_grid(got: Callable[..., Any], wanted: Callable[..., Any], points: Iterable[tuple],
               *, rtol: Any, atol: Any = 0, label: str = "") -> None:
    """Assert |got(*p) - wanted(*p)| <= atol + rtol |wanted(*p)| at every point p (infinities must agree)."""
    bad = []
    n = 0
    for p in points:
        n += 1
        g, w = got(*p), wanted(*p)
        if mpmath.isinf(w) or mpmath.isinf(g):
            if g != w:
                bad.append((p, g, w, "inf mismatch"))
            continue
        diff = abs(g - w)
        if diff > atol + rtol * abs(w):
            rel = diff / abs(w) if w != 0 else mpmath.inf
            bad.append((p, g, w, mpmath.nstr(rel, 3)))
    if bad:
        lines = [f"{label}: {len(bad)} of {n} grid points out of tolerance (rtol={rtol}, atol={atol}):"]
        lines += [f"  at {p}: got {mpmath.nstr(g, 20)}, wanted {mpmath.nstr(w, 20)}, rel. diff {r}"
                  for p, g, w, r in bad]
        raise AssertionError("\n".join(lines))
