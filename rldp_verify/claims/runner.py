"""Discovering claims in a package of proof modules and running them."""

from __future__ import annotations

import importlib
import pkgutil
import time
import traceback
from typing import Iterable

from rldp_verify.claims.core import Claim, Context, Outcome, Result, Verdict, registry


def discover(package: str = "proofs") -> list[Claim]:
    """Import every module below ``package`` and return the claims they register, sorted by id.

    The engine does not know the package's contents; the CLI passes the name of the proofs package.
    """
    pkg = importlib.import_module(package)
    for info in pkgutil.walk_packages(pkg.__path__, prefix=pkg.__name__ + "."):
        importlib.import_module(info.name)
    prefix = package + "."
    return sorted(
        (c for c in registry().values() if c.module == package or c.module.startswith(prefix)),
        key=lambda c: (c.paper, c.id),
    )


def _jsonable(x):
    """Evidence is made JSON-safe: numbers stay numbers, everything else becomes a string."""
    from fractions import Fraction

    if isinstance(x, (str, int, bool)) or x is None:
        return x
    if isinstance(x, float):
        return x if x == x and abs(x) != float("inf") else str(x)
    if isinstance(x, Fraction):
        return str(x)
    if isinstance(x, dict):
        return {str(k): _jsonable(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_jsonable(v) for v in x]
    try:
        import numpy as np

        if isinstance(x, np.ndarray):
            return _jsonable(x.tolist())
        if isinstance(x, np.generic):
            return _jsonable(x.item())
    except ImportError:  # pragma: no cover
        pass
    return str(x)


def run_claim(claim: Claim, ctx: Context) -> Result:
    t0 = time.perf_counter()
    try:
        out = claim.check(ctx)
        if not isinstance(out, Outcome):
            raise TypeError(f"check returned {type(out).__name__}, not Outcome")
        if out.verdict is Verdict.REFUTED and "counterexample" not in out.evidence:
            raise TypeError("a REFUTED outcome must carry a counterexample")
        if out.verdict is Verdict.REFUTED and out.kind is None:
            raise TypeError("a REFUTED outcome must carry a finding kind (misprint, missing-hypothesis, "
                            "wrong-number or false)")
        verdict, summary, evidence, kind = out.verdict, out.summary, _jsonable(dict(out.evidence)), out.kind
    except Exception as exc:  # the check itself failed: that is an ERROR, never a verdict
        verdict, kind = Verdict.ERROR, None
        summary = f"{type(exc).__name__}: {exc}"
        evidence = {"traceback": traceback.format_exc(limit=6)}
    return Result(claim, verdict, summary, evidence, time.perf_counter() - t0, kind)


def selected(claims: Iterable[Claim], ctx: Context) -> list[Claim]:
    """The claims :func:`run_claims` runs: all of them, minus the slow ones unless ``ctx.include_slow``."""
    return [c for c in claims if ctx.include_slow or not c.slow]


def run_claims(claims: Iterable[Claim], ctx: Context, *, progress=None, on_start=None) -> list[Result]:
    """Run the selected claims in order. ``on_start(claim)`` is called before a claim runs and
    ``progress(result)`` after it ends (both optional): the hooks of a progress display."""
    results = []
    for c in selected(claims, ctx):
        if on_start:
            on_start(c)
        r = run_claim(c, ctx)
        if progress:
            progress(r)
        results.append(r)
    return results
