"""Discovering claims in a package of proof modules and running them, in this process or in
``jobs`` worker processes (:mod:`concurrent.futures`), with the same results in the same order."""

from __future__ import annotations

import sys
import time
import traceback
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

from rldp_verify.claims.catalogue import DEFAULT_SOURCE, Catalogue
from rldp_verify.claims.core import Claim, Context, Outcome, Result, Verdict, registry
from rldp_verify.core.errors import ExecutionError

if TYPE_CHECKING:
    from rldp_verify.claims.cache import ResultCache


def discover(package: str | Catalogue = DEFAULT_SOURCE) -> list[Claim]:
    """Import every module of the catalogue ``package`` (a :class:`Catalogue` or the name it is loaded from)
    and return the claims they register, sorted by (paper, id): :meth:`Catalogue.discover`."""
    return Catalogue.load(package).discover()


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
    """Run one claim's check and time it. A check that raises, returns something other than an Outcome, or
    returns REFUTED without a counterexample or a finding kind gives ERROR (with the traceback), never a verdict."""
    t0 = time.perf_counter()
    ctx.written = []
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
    except ExecutionError:  # the machinery broke (a worker died): no verdict, the run is interrupted
        raise
    except Exception as exc:  # the check itself failed: that is an ERROR, never a verdict
        verdict, kind = Verdict.ERROR, None
        summary = f"{type(exc).__name__}: {exc}"
        evidence = {"traceback": traceback.format_exc(limit=6)}
    return Result(claim, verdict, summary, evidence, time.perf_counter() - t0, kind, artefacts=list(ctx.written))


class RunInterrupted(ExecutionError):
    """A run broke off (a worker process or a Dask worker died, the scheduler went away).

    ``results``: the claims that completed, in claim order; ``not_run``: the ids of the others."""

    def __init__(self, cause: str, results: list[Result], not_run: list[str]):
        super().__init__(cause)
        self.cause = " ".join(cause.split())
        self.results = results
        self.not_run = not_run


def selected(claims: Iterable[Claim], ctx: Context) -> list[Claim]:
    """The claims :func:`run_claims` runs: all of them, minus the slow ones unless ``ctx.include_slow``."""
    return [c for c in claims if ctx.include_slow or not c.slow]


def run_claims(claims: Iterable[Claim], ctx: Context, *, progress: Callable[[Result], None] | None = None,
               on_start: Callable[[Claim], None] | None = None, jobs: int = 1,
               package: str | Catalogue = DEFAULT_SOURCE,
               durations: Mapping[str, float] | None = None, cache: ResultCache | None = None) -> list[Result]:
    """Run the claims (slow ones only when ``ctx.include_slow``); results in the order of ``claims``.

    ``on_start(claim)`` is called when a claim starts and ``progress(result)`` when it ends (both
    optional, in the order things happen: the hooks of a progress display). ``jobs > 1``
    runs the claims in that many worker processes, each claim group (:func:`claim`'s ``group``) in one
    process; the workers load the catalogue ``package`` (a :class:`Catalogue` or the name it is loaded from)
    to find the checks. The results equal those of ``jobs=1``
    (checks draw their randomness from the context seed and their own salt), only ``seconds`` differ.
    ``durations`` (claim id -> seconds, e.g. from a previous report) only orders the work, longest
    group first. Raises :class:`RunInterrupted` when the machinery fails mid-run.

    ``cache`` (:class:`~rldp_verify.claims.cache.ResultCache`): a claim whose key (its module and the
    first-party modules it imports, the options, the library versions, its data files) has a cached result
    is not run: its result comes back with ``reused=True`` (hooks are called for it first). Every other
    result is stored in the cache as soon as it is complete.
    """
    todo = selected(claims, ctx)
    source = Catalogue.name_of(package)
    if isinstance(jobs, bool) or not isinstance(jobs, int) or jobs < 1:
        raise ValueError(f"jobs must be a positive integer, got {jobs!r}")
    reused: dict[str, Result] = {}
    keys: dict[str, str | None] = {}
    if cache is not None:
        for c in todo:
            keys[c.id] = k = cache.key(c, ctx, source)
            e = cache.get(c.id, k)
            if e is not None:
                reused[c.id] = Result(c, Verdict(e["verdict"]), e["summary"], e["evidence"], float(e["seconds"]),
                                      e.get("kind"), key=k, artefacts=dict(e.get("artefacts") or {}), reused=True)
        for c in todo:
            if c.id in reused:
                if on_start:
                    on_start(c)
                if progress:
                    progress(reused[c.id])
        user_progress = progress

        def progress(r: Result) -> None:  # store each fresh result as soon as it is complete
            from rldp_verify.claims.cache import artefact_digests

            r.key = keys.get(r.claim.id)
            r.artefacts = artefact_digests(ctx.out_dir, r.artefacts or [])
            cache.put(r.to_json())
            if user_progress:
                user_progress(r)
    rest = [c for c in todo if c.id not in reused]
    try:
        if jobs == 1 or len(rest) <= 1:
            fresh = _run_sequential(rest, ctx, progress, on_start)
        else:
            fresh = _run_parallel(rest, ctx, progress, on_start, jobs, source, durations or {})
    except RunInterrupted as exc:
        if reused:
            done = {r.claim.id: r for r in [*reused.values(), *exc.results]}
            exc.results = [done[c.id] for c in todo if c.id in done]
        raise
    if not reused:
        return fresh
    done = {r.claim.id: r for r in [*reused.values(), *fresh]}
    return [done[c.id] for c in todo]


def _run_sequential(todo: list[Claim], ctx: Context, progress, on_start) -> list[Result]:
    results: list[Result] = []
    for i, c in enumerate(todo):
        if on_start:
            on_start(c)
        try:
            r = run_claim(c, ctx)
        except ExecutionError as exc:
            raise RunInterrupted(f"{exc} (in claim {c.id})", results, [x.id for x in todo[i:]]) from None
        if progress:
            progress(r)
        results.append(r)
    return results


# --- worker processes --------------------------------------------------------------------------------
_QUEUE = None


def _init_worker(source: str, path: list[str], queue) -> None:
    global _QUEUE
    for p in reversed(path):
        if p not in sys.path:
            sys.path.insert(0, p)
    _QUEUE = queue
    Catalogue.load(source).discover()


def _run_group(ids: list[str], ctx: Context) -> list[tuple]:
    reg = registry()
    out = []
    for cid in ids:
        if _QUEUE is not None:
            _QUEUE.put(("start", cid))
        r = run_claim(reg[cid], ctx)
        rec = (cid, r.verdict.value, r.summary, r.evidence, r.seconds, r.kind, r.artefacts)
        if _QUEUE is not None:
            _QUEUE.put(("done", rec))
        out.append(rec)
    return out


def _run_parallel(todo: list[Claim], ctx: Context, progress, on_start, jobs: int, source: str,
                  durations: Mapping[str, float]) -> list[Result]:
    import multiprocessing
    import queue as queue_mod
    from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait

    by_id = {c.id: c for c in todo}
    groups: dict[str, list[Claim]] = {}
    for c in todo:
        groups.setdefault(c.group or c.module, []).append(c)

    def estimate(cs):  # seconds: the previous run's timing, else a guess from the slow flag
        return sum(durations.get(c.id, 10.0 if c.slow else 0.5) for c in cs)

    order = sorted(groups, key=lambda g: -estimate(groups[g]))
    mp = multiprocessing.get_context("forkserver")
    q = mp.Queue()
    done: dict[str, Result] = {}

    started: set[str] = set()

    def start(cid):  # each claim's on_start once, before its progress (messages may arrive late)
        if cid not in started:
            started.add(cid)
            if on_start:
                on_start(by_id[cid])

    def record(rec):
        cid, verdict, summary, evidence, seconds, kind, artefacts = rec
        if cid in done:
            return
        start(cid)
        r = Result(by_id[cid], Verdict(verdict), summary, evidence, seconds, kind, artefacts=artefacts)
        done[cid] = r
        if progress:
            progress(r)

    def message(msg):
        kind, payload = msg
        if kind == "start":
            start(payload)
        else:
            record(payload)

    def drain(timeout: float):
        try:
            message(q.get(timeout=timeout))
            while True:
                message(q.get_nowait())
        except queue_mod.Empty:
            pass

    ex = ProcessPoolExecutor(max_workers=jobs, mp_context=mp, initializer=_init_worker,
                             initargs=(source, list(sys.path), q))
    cause = None
    try:
        pending = {ex.submit(_run_group, [c.id for c in groups[g]], ctx): g for g in order}
        while pending and cause is None:
            finished, _ = wait(pending, timeout=0.2, return_when=FIRST_COMPLETED)
            drain(0.0 if finished else 0.05)
            for f in finished:
                g = pending.pop(f)
                exc = f.exception()
                if exc is None:
                    for rec in f.result():
                        record(rec)
                elif isinstance(exc, ExecutionError):
                    cause = f"{exc} (in claim group {g})"
                else:  # BrokenProcessPool: a worker process died (killed, out of memory, crashed)
                    cause = (f"a worker process died while running claim group {g} "
                             f"({type(exc).__name__}: {' '.join(str(exc).split()) or 'no message'})")
                    break
        drain(0.1)
    finally:
        if cause is not None:
            # the run broke off: stop the remaining work now (our own worker processes)
            procs = list(getattr(ex, "_processes", {}).values())
            ex.shutdown(wait=False, cancel_futures=True)
            for p in procs:
                if p.is_alive():
                    p.terminate()
        else:
            ex.shutdown(wait=True)
    if cause is not None:
        results = [done[c.id] for c in todo if c.id in done]
        raise RunInterrupted(cause, results, [c.id for c in todo if c.id not in done])
    return [done[c.id] for c in todo]
