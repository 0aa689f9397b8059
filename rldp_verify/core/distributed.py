"""Fanning independent tasks out over a Dask cluster (``dask.distributed``), or running them here.

- :class:`DaskCluster` — a context manager that starts a ``LocalCluster`` (the default) or connects to
  an existing scheduler (``address``); its :attr:`~DaskCluster.address` is what :func:`map_tasks` takes.
- :func:`map_tasks` — ``[fn(t) for t in tasks]``, in the order of ``tasks``, either in this process
  (``scheduler=None``) or on the cluster whose scheduler listens at ``scheduler``.

Results never depend on where or in which order the tasks ran, provided each task carries everything
that determines its result (in particular its own random seed: a task derives its generator from its
own id, never from a generator shared between tasks). This module schedules nothing itself: the
scheduling, the retries of a task whose worker died and the data transfer are Dask's.

Failures of the machinery (the scheduler cannot be reached, a worker died, the scheduler went away)
are not results: :class:`~rldp_verify.core.errors.InputError` for an address that cannot be reached,
:class:`~rldp_verify.core.errors.ExecutionError` for a run that broke off, each with a one-line message
naming the cause. An exception raised by ``fn`` itself propagates unchanged.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Callable, Iterable
from typing import Any

from rldp_verify.core.errors import ExecutionError, InputError

#: clients of this process, by scheduler address (a client is reused by every map_tasks call)
_CLIENTS: dict[str, Any] = {}


def _one_line(exc: BaseException) -> str:
    text = " ".join(str(exc).split()) or "no message"
    return f"{type(exc).__name__}: {text}"


def scheduler_timeout() -> float:
    """Seconds to wait for a Dask scheduler given by address: ``RLDP_VERIFY_SCHEDULER_TIMEOUT`` (default 10)."""
    raw = os.environ.get("RLDP_VERIFY_SCHEDULER_TIMEOUT", "10")
    try:
        value = float(raw)
    except ValueError:
        raise InputError(f"RLDP_VERIFY_SCHEDULER_TIMEOUT must be a number of seconds, got {raw!r}") from None
    if not value > 0:
        raise InputError(f"RLDP_VERIFY_SCHEDULER_TIMEOUT must be positive, got {raw!r}")
    return value


def _client_for(address: str, timeout: float | None = None) -> Any:
    from distributed import Client

    c = _CLIENTS.get(address)
    if c is not None and c.status in ("running", "connecting"):
        return c
    try:
        c = Client(address, timeout=scheduler_timeout() if timeout is None else timeout, set_as_default=False)  # type: ignore[no-untyped-call, unused-ignore]
    except (OSError, TimeoutError) as exc:
        raise InputError(f"cannot reach the Dask scheduler at {address!r}: {_one_line(exc)}") from None
    _CLIENTS[address] = c
    return c


class DaskCluster:
    """A Dask cluster for the duration of a ``with`` block.

    ``address=None`` starts a ``LocalCluster`` of ``n_workers`` worker processes with one thread each
    (``processes=False``: threads of this process instead, for tests); otherwise connects to the
    scheduler at ``address`` (e.g. ``tcp://10.0.0.5:8786``) and leaves that cluster running on exit.
    An address that cannot be reached within ``timeout`` seconds raises :class:`InputError`.
    """

    def __init__(self, address: str | None = None, *, n_workers: int = 2, processes: bool = True,
                 timeout: float | None = None):
        if address is not None and (not isinstance(address, str) or not address.strip()):
            raise InputError(f"scheduler address must be a non-empty string such as 'tcp://host:8786', got {address!r}")
        if isinstance(n_workers, bool) or not isinstance(n_workers, int) or n_workers < 1:
            raise InputError(f"the number of Dask workers must be a positive integer, got {n_workers!r}")
        self._requested = address
        self.n_workers = n_workers
        self.processes = processes
        self.timeout = scheduler_timeout() if timeout is None else timeout
        self._cluster: Any = None
        self.client: Any = None

    @property
    def address(self) -> str:
        """The scheduler address of the running cluster (RuntimeError outside the ``with`` block)."""
        if self.client is None:
            raise RuntimeError("the cluster is not running (use DaskCluster in a with block)")
        return str(self.client.scheduler.address)

    def __enter__(self) -> DaskCluster:
        if self._requested is not None:
            self.client = _client_for(self._requested, self.timeout)
            return self
        from distributed import Client, LocalCluster

        self._cluster = LocalCluster(  # type: ignore[no-untyped-call, unused-ignore]
            n_workers=self.n_workers, threads_per_worker=1, processes=self.processes, dashboard_address=":0",
            silence_logs=logging.ERROR)
        self.client = Client(self._cluster, set_as_default=False)  # type: ignore[no-untyped-call, unused-ignore]
        _CLIENTS[self._cluster.scheduler_address] = self.client
        return self

    def __exit__(self, *exc: object) -> None:
        if self._cluster is not None:
            _CLIENTS.pop(self._cluster.scheduler_address, None)
            self.client.close()
            self._cluster.close()
            self._cluster = self.client = None


def map_tasks(fn: Callable[[Any], Any], tasks: Iterable[Any], *, scheduler: str | None = None) -> list[Any]:
    """``[fn(t) for t in tasks]``: here (``scheduler=None``) or on the Dask cluster at ``scheduler``.

    The list is in the order of ``tasks`` whatever the cluster's size. ``fn`` and the tasks must be
    picklable (``fn`` a module-level function importable on the workers). A worker that dies is
    retried by Dask; when Dask gives up (``KilledWorker``) or the scheduler is lost, raises
    :class:`ExecutionError` naming the task.
    """
    tasks = list(tasks)
    if scheduler is None:
        return [fn(t) for t in tasks]
    from concurrent.futures import CancelledError

    from distributed import KilledWorker
    from distributed.comm.core import CommClosedError

    client = _client_for(scheduler)
    futures = client.map(fn, tasks, pure=False)
    try:
        return list(client.gather(futures))
    except KilledWorker as exc:
        key = exc.args[0] if exc.args else "?"
        task = next((t for f, t in zip(futures, tasks, strict=True) if f.key == key), None)
        what = f"{getattr(fn, '__name__', fn)}({task!r})" if task is not None else str(key)
        raise ExecutionError(f"a Dask worker died (Dask gave up on {what}, a task that was on it, after its "
                             "retries)") from None
    except CancelledError as exc:  # Dask cancels the futures of a client that lost its scheduler
        raise ExecutionError(f"the Dask tasks were cancelled (scheduler {scheduler!r} lost?): "
                             f"{_one_line(exc)}") from None
    except (CommClosedError, OSError, TimeoutError) as exc:
        # a task may raise OSError itself: that is the task's exception, unless the client lost its scheduler
        if isinstance(exc, CommClosedError) or client.status not in ("running", "connecting"):
            raise ExecutionError(f"lost the Dask scheduler at {scheduler!r}: {_one_line(exc)}") from None
        raise
    finally:
        for f in futures:
            f.release()
