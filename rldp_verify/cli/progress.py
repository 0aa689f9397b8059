"""Progress on standard error for long work: n/total, the current item and an ETA (tqdm).

Progress is shown only when standard error is a terminal and ``quiet`` is false, so pipes, logs and
CI output carry no progress noise. The interface is two callbacks, :meth:`Progress.start` (an item
began) and :meth:`Progress.finish` (an item ended), which a sequential or a parallel runner can call
in any order.
"""

from __future__ import annotations

import sys


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
        self.bar = None
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
        self.running[name] = None
        self._show()

    def finish(self, name: str, message: str | None = None) -> None:
        self.running.pop(name, None)
        if self.bar is not None:
            if message:
                self.bar.write(message, file=self.bar.fp)
            self.bar.update(1)
            self._show()

    def close(self) -> None:
        if self.bar is not None:
            self._stop.set()
            self._ticker.join()
            self.bar.close()
            self.bar = None

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


class Elapsed:
    """``with Elapsed("polyopt"):`` shows "polyopt … 0:07 elapsed" on stderr while the block runs, once
    it has taken ``delay`` seconds (so quick commands print nothing); off when not a terminal or quiet."""

    def __init__(self, desc: str, *, quiet: bool = False, delay: float = 3.0, stream=None):
        self.desc, self.delay, self.stream = desc, delay, stream
        self.on = enabled(quiet, stream)
        self._stop = None
        self._thread = None

    def __enter__(self):
        if self.on:
            import threading

            from tqdm import tqdm

            self.bar = tqdm(total=None, desc=self.desc, delay=self.delay, file=self.stream or sys.stderr,
                            bar_format="{desc} … {elapsed} elapsed", leave=False)
            self._stop = threading.Event()

            import time

            start = time.monotonic()

            def tick():
                while not self._stop.wait(0.5):
                    if time.monotonic() - start >= self.delay:
                        self.bar.refresh()

            self._thread = threading.Thread(target=tick, daemon=True)
            self._thread.start()
        return self

    def __exit__(self, *exc):
        if self.on:
            self._stop.set()
            self._thread.join()
            self.bar.close()
