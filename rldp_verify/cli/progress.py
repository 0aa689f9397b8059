"""Progress on standard error for long work: n/total, the current item and an ETA (tqdm).

Progress is shown only when standard error is a terminal and ``quiet`` is false, so pipes, logs and
CI output carry no progress noise. Two displays:

* :class:`Progress`, over a list of items (the claims of ``rldp-verify report``): two callbacks,
  :meth:`Progress.start` (an item began) and :meth:`Progress.finish` (an item ended), which a sequential
  or a parallel runner can call in any order.
* :class:`Live`, for one long computation (``rldp-verify mechanism``, ``rldp-verify audit``): the engine's
  steps and counts, reported through :mod:`rldp_verify.core.progress`.
"""

from __future__ import annotations

import sys
from typing import Any


def enabled(quiet: bool = False, stream=None) -> bool:
    """Whether progress should be shown: not ``quiet`` and ``stream`` (stderr) is a terminal."""
    stream = sys.stderr if stream is None else stream
    if quiet:
        return False
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


class Progress:
    """A progress bar over ``total`` items on stderr; every method is a no-op when disabled."""

    def __init__(self, total: int, *, desc: str = "", quiet: bool = False, stream=None):
        self.total = total
        self.running: dict[str, None] = {}
        self.bar: Any = None   # a tqdm bar while shown
        if enabled(quiet, stream):
            import threading

            from tqdm import tqdm

            self.bar = tqdm(total=total, desc=desc, unit="", file=stream or sys.stderr, dynamic_ncols=True,
                            bar_format="{desc} {n_fmt}/{total_fmt} [{elapsed}<{remaining}] {postfix}")
            self._lock = threading.Lock()
            self._stop = threading.Event()

            def tick():  # the elapsed time keeps moving while a long item runs
                while not self._stop.wait(1.0):
                    with self._lock:
                        if self.bar is not None:
                            self.bar.refresh()

            self._ticker = threading.Thread(target=tick, daemon=True)
            self._ticker.start()

    def _show(self) -> None:
        if self.bar is not None:  # (called with or without the ticker running; tqdm's own lock orders writes)
            names = list(self.running)
            text = names[0] if len(names) == 1 else (f"{names[0]} (+{len(names) - 1})" if names else "")
            self.bar.set_postfix_str(text, refresh=True)

    def start(self, name: str) -> None:
        """Mark the item ``name`` as running (shown after the bar)."""
        self.running[name] = None
        self._show()

    def finish(self, name: str, message: str | None = None) -> None:
        """Mark ``name`` done: advance the bar by one, printing ``message`` above it when given."""
        self.running.pop(name, None)
        if self.bar is not None:
            if message:
                self.bar.write(message, file=self.bar.fp)
            self.bar.update(1)
            self._show()

    def close(self) -> None:
        """Stop the ticker thread and close the bar (idempotent)."""
        if self.bar is not None:
            self._stop.set()
            self._ticker.join()
            self.bar.close()
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _delay_default() -> float:
    """Seconds before a :class:`Live` line appears: ``RLDP_VERIFY_PROGRESS_DELAY`` (default 3)."""
    import os

    text = os.environ.get("RLDP_VERIFY_PROGRESS_DELAY", "")
    try:
        v = float(text) if text.strip() else 3.0
    except ValueError:
        return 3.0
    return v if v >= 0 and v == v else 3.0


class Live:
    """``with Live("mechanism polyopt", quiet=q):`` shows one line on stderr for a single long computation:
    the current step, n/total with an ETA where the step has a count (otherwise the elapsed time), and a
    short status from the engine (e.g. the optimum bracket of column generation).

    It is the :class:`rldp_verify.core.progress.Reporter` installed for the ``with`` block: the engine reports
    steps and counts through :mod:`rldp_verify.core.progress`, and a ticker thread redraws the line twice a
    second. Nothing appears before ``delay`` seconds (default: ``RLDP_VERIFY_PROGRESS_DELAY`` or 3 s, so quick
    commands print nothing), nor when stderr is not a terminal or ``quiet`` is set; the line is removed
    when the block ends. Nothing is written to stdout.
    """

    def __init__(self, desc: str, *, quiet: bool = False, delay: float | None = None, stream=None):
        self.desc, self.stream = desc, stream
        self.delay = _delay_default() if delay is None else delay
        self.on = enabled(quiet, stream)
        # the current step as one tuple (version, name, total, unit, start), replaced whole by step() so that
        # the ticker thread never sees half a step; done and info carry the version they belong to
        self._step = (0, "starting", None, "", None)
        self._done = (0, 0.0)
        self._info = (0, "")
        self._shown = -1
        self._t0: float | None = None   # time.time() when the line is first drawn
        self.bar: Any = None               # the tqdm status line while shown
        self._stop = None
        self._thread = None
        self._ctx = None
        self._start = None          # time.monotonic() when the block began (None: not showing)
        import threading

        self._lock = threading.Lock()

    # --- rldp_verify.core.progress.Reporter (called by the engine; cheap, never raises)
    def step(self, name, total, unit=""):
        """A new step ``name`` begins, with ``total`` units of ``unit`` to do (None: no count, the elapsed time
        is shown instead)."""
        import time

        self._step = (self._step[0] + 1, name, total, unit, time.time())
        # drawn at once (not only at the ticker's next half second), so that a step shorter than the
        # ticker's period still shows up once with its n/total
        if self._start is not None and time.monotonic() - self._start >= self.delay:
            self._draw_locked()

    def update(self, done, info):
        """Progress of the current step: ``done`` units (None: unchanged) and a short status ``info`` (None:
        unchanged)."""
        v = self._step[0]
        if done is not None:
            self._done = (v, done)
        if info is not None:
            self._info = (v, info)

    # --- drawing (ticker thread, and step() in the computing thread: one lock)
    def _draw_locked(self) -> None:
        try:
            with self._lock:
                self._draw()
        except Exception:  # pragma: no cover - progress must never break the computation
            pass

    def _draw(self) -> None:
        from tqdm import tqdm

        if self.bar is None:
            class _Line(tqdm):  # one status line, cut to the terminal width less one (no wrapping)
                @property
                def format_dict(self):
                    d = super().format_dict
                    d["ncols"] = d["ncols"] - 1 if (d.get("ncols") or 0) > 20 else None  # 0 or -1: size unknown
                    return d

                def display(self, msg=None, pos=None):  # a terminal of unknown size (0 rows): still draw
                    if (self.nrows or 0) <= 0:
                        self.nrows = 20
                    return super().display(msg, pos)

            self.bar = _Line(total=None, file=self.stream or sys.stderr, leave=False, dynamic_ncols=True,
                             smoothing=0, mininterval=0, bar_format="{desc}")
        import time

        bar = self.bar
        version, name, total, unit, t_step = self._step
        if self._shown != version:
            self._shown = version
            bar.reset(total=total)
            bar.total = total
            if t_step is not None:
                bar.start_t = t_step      # the step's own start, so that the rate and the ETA are right
            unit = f" {unit}" if unit else ""
            bar.bar_format = ("{desc}: {n_fmt}/{total_fmt}" + unit + " [{elapsed}<{remaining}]{postfix}"
                              if total is not None else "{desc} [{elapsed}]{postfix}")
        v, done = self._done
        done = done if v == version else 0
        bar.n = int(done) if float(done).is_integer() else round(done, 1)
        v, info = self._info
        bar.set_postfix_str(info if v == version else "", refresh=False)
        assert self._t0 is not None   # set by __enter__ before the first draw
        total_time = bar.format_interval(time.time() - self._t0)
        bar.set_description_str(f"{self.desc} ({total_time}) · {name}", refresh=False)
        bar.refresh()

    def __enter__(self):
        if self.on:
            import threading
            import time

            from rldp_verify.core.progress import reporting

            self._ctx = reporting(self)
            self._ctx.__enter__()
            self._stop = threading.Event()
            start = time.monotonic()
            self._t0 = time.time()
            self._start = start
            if self._step[4] is None:
                self._step = (*self._step[:4], self._t0)

            def tick():
                while not self._stop.wait(0.5):
                    if time.monotonic() - start >= self.delay:
                        self._draw_locked()

            self._thread = threading.Thread(target=tick, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self.on:
            self._start = None
            self._stop.set()
            self._thread.join()
            with self._lock:
                if self.bar is not None:
                    self.bar.close()
                    self.bar = None
            self._ctx.__exit__(*exc)
