"""Progress hooks for long computations: the engine says what it is doing, a front end may show it.

The engine (PolyOpt, NR, column generation, the audit) calls :func:`step` when it begins a step (with
the number of units of work when it has one) and :func:`update` as units finish. These calls do nothing
unless a front end installed a :class:`Reporter` with :func:`reporting` (the CLI does, for a terminal:
:class:`rldp_verify.cli.progress.Live`), so library users see no output and pay one context-variable
lookup per call. The engine never prints: this module only forwards to the installed reporter.

Reporters must be cheap (called from inner loops, throttled by the callers to a few thousand calls
per second at most) and must not raise.

A front end may also set a **deadline** (:func:`deadline`): then :func:`step` and :func:`update` raise
:class:`TimeLimitReached` once it has passed, naming the step and how far it got, so that a long set-up
(certified lower bounds, the blocks of a cone) honours the user's time limit instead of running past it.
A computation that enforces the limit itself (column generation stops and certifies what it has) takes it
over with :func:`take_over_deadline`: from then on nothing raises, and it gets the seconds left.

A computation may also write **log lines** (column generation: one per iteration, with its bracket) with
:func:`note`; they go to the sinks installed with :func:`notes` (a list's ``append``, ``print``, a logger's
``info``) and nowhere otherwise. This is the engine's one channel for such lines: no solver takes a ``log=``
callback of its own.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Any, Protocol

from rldp_verify.core.errors import InputError


class Reporter(Protocol):
    """What a front end implements to receive progress."""

    def step(self, name: str, total: float | None, unit: str) -> None:
        """A new step ``name`` began; ``total`` units of work (None: unknown), counted in ``unit``."""

    def update(self, done: float | None, info: str | None) -> None:
        """``done`` units of the current step are finished (None: unchanged); ``info``: a short status."""


_current: ContextVar[Reporter | None] = ContextVar("rldp_verify_progress", default=None)
#: (monotonic time of the deadline, what it is called, e.g. "--time-limit 20 s")
_deadline: ContextVar[tuple[float, str] | None] = ContextVar("rldp_verify_deadline", default=None)
#: the current step: [name, total, unit, done]
_where: ContextVar[list[object] | None] = ContextVar("rldp_verify_step", default=None)
#: where log lines go (:func:`notes`): the innermost sinks last
_sinks: ContextVar[tuple[Callable[[str], object], ...]] = ContextVar("rldp_verify_notes", default=())


class TimeLimitReached(InputError):
    """The deadline of :func:`deadline` passed during a bounded step (one line on the command line, exit 2)."""


def _check() -> None:
    d = _deadline.get()
    if d is None or time.monotonic() <= d[0]:
        return
    w = _where.get()
    if w is None:
        doing = "setting up"
    else:
        name, total, unit, done = w[0], w[1], w[2], w[3]
        count = f" ({done} of {total} {unit})" if total is not None and done is not None else ""
        doing = f"{name}{count}"
    raise TimeLimitReached(f"{d[1]} reached during {doing}: this set-up alone needs more time; raise the time limit")


def active() -> bool:
    """Whether a reporter is installed (callers may skip building status strings otherwise)."""
    return _current.get() is not None


def step(name: str, total: float | None = None, unit: str = "") -> None:
    """Begin step ``name`` with ``total`` units (None when the work has no count)."""
    if _deadline.get() is not None:
        _where.set([name, total, unit, 0])
        _check()
    r = _current.get()
    if r is not None:
        r.step(name, total, unit)


def update(done: float | None = None, info: str | None = None) -> None:
    """``done`` units of the current step finished; ``info`` a short status (e.g. a bracket)."""
    if _deadline.get() is not None:
        w = _where.get()
        if w is not None and done is not None:
            w[3] = done
        _check()
    r = _current.get()
    if r is not None:
        r.update(done, info)


def noting() -> bool:
    """Whether a log sink is installed (callers skip formatting their lines otherwise)."""
    return bool(_sinks.get())


def note(message: str) -> None:
    """Send one log line to every sink installed with :func:`notes` (none: nothing happens)."""
    for sink in _sinks.get():
        sink(message)


@contextmanager
def notes(sink: Callable[[str], object] | None) -> Iterator[None]:
    """Send the log lines (:func:`note`) written inside the ``with`` block to ``sink`` too (None: no change)."""
    token = _sinks.set(_sinks.get() + ((sink,) if sink is not None else ()))
    try:
        yield
    finally:
        _sinks.reset(token)


@contextmanager
def reporting(reporter: Reporter | None) -> Iterator[None]:
    """Install ``reporter`` for the calls made inside the ``with`` block (None: no reporting)."""
    token = _current.set(reporter)
    try:
        yield
    finally:
        _current.reset(token)


@contextmanager
def deadline(seconds: float | None, what: str) -> Iterator[None]:
    """Bounded steps started inside the ``with`` block stop with :class:`TimeLimitReached` after ``seconds``
    (None or inf: no deadline); ``what`` names the limit in the message (e.g. ``"--time-limit 20 s"``)."""
    value = None if seconds is None or math.isinf(seconds) else (time.monotonic() + seconds, what)
    token, where = _deadline.set(value), _where.set(None)
    try:
        yield
    finally:
        _deadline.reset(token)
        _where.reset(where)


def stderr_bar(total: int, desc: str, enabled: bool) -> Any:
    """A tqdm bar on standard error for a library call made with ``progress=True`` (the reference grid, the
    sampler audit), or None when ``enabled`` is false, standard error is not a terminal or tqdm is missing: the
    one place the engine opens a bar itself (everything else reports through :func:`step` / :func:`update`)."""
    import sys

    if not enabled or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # pragma: no cover - tqdm is a dependency
        return None
    return tqdm(total=total, desc=desc, file=sys.stderr, leave=False)


def take_over_deadline() -> float | None:
    """The seconds left before the deadline of :func:`deadline` (None without one; never below 0), for a
    computation that enforces the limit itself from here on: the deadline is lifted (until the ``with`` block
    of :func:`deadline` ends), so its later steps do not raise."""
    d = _deadline.get()
    if d is None:
        return None
    _deadline.set(None)
    return max(0.0, d[0] - time.monotonic())
