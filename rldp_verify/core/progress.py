"""Progress hooks for long computations: the engine says what it is doing, a front end may show it.

The engine (PolyOpt, NR, column generation, the audit) calls :func:`step` when it begins a step (with
the number of units of work when it has one) and :func:`update` as units finish. These calls do nothing
unless a front end installed a :class:`Reporter` with :func:`reporting` (the CLI does, for a terminal:
:class:`rldp_verify.cli.progress.Live`), so library users see no output and pay one context-variable
lookup per call. The engine never prints: this module only forwards to the installed reporter.

Reporters must be cheap (called from inner loops, throttled by the callers to a few thousand calls
per second at most) and must not raise.
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from typing import Protocol


class Reporter(Protocol):
    """What a front end implements to receive progress."""

    def step(self, name: str, total: float | None, unit: str) -> None:
        """A new step ``name`` began; ``total`` units of work (None: unknown), counted in ``unit``."""

    def update(self, done: float | None, info: str | None) -> None:
        """``done`` units of the current step are finished (None: unchanged); ``info``: a short status."""


_current: ContextVar[Reporter | None] = ContextVar("rldp_verify_progress", default=None)


def active() -> bool:
    """Whether a reporter is installed (callers may skip building status strings otherwise)."""
    return _current.get() is not None


def step(name: str, total: float | None = None, unit: str = "") -> None:
    """Begin step ``name`` with ``total`` units (None when the work has no count)."""
    r = _current.get()
    if r is not None:
        r.step(name, total, unit)


def update(done: float | None = None, info: str | None = None) -> None:
    """``done`` units of the current step finished; ``info`` a short status (e.g. a bracket)."""
    r = _current.get()
    if r is not None:
        r.update(done, info)


@contextmanager
def reporting(reporter: Reporter | None) -> Iterator[None]:
    """Install ``reporter`` for the calls made inside the ``with`` block (None: no reporting)."""
    token = _current.set(reporter)
    try:
        yield
    finally:
        _current.reset(token)
