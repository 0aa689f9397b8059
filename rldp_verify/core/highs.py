"""A HiGHS instance that prints nothing: :func:`new_highs`.

highspy prints its banner ("Running HiGHS ... Copyright ...") on the C-level standard output when the
first ``Highs()`` of a process is constructed, before any option can be set, which corrupts JSON
written to stdout. :func:`new_highs` constructs that first instance with file descriptor 1 pointed at
``/dev/null`` (C buffers flushed before it is restored) and sets ``output_flag`` to false on every
instance. Every HiGHS call site of the package goes through it.
"""

from __future__ import annotations

import os
import sys
import threading
from typing import Any

_lock = threading.Lock()
_banner_done = False


def _flush_c_stdout() -> None:
    try:
        import ctypes

        ctypes.CDLL(None).fflush(None)
    except (OSError, AttributeError):  # pragma: no cover - no libc symbol table
        pass


def new_highs() -> Any:
    """A ``highspy.Highs()`` with ``output_flag`` false; the first one is built with stdout silenced."""
    import highspy

    global _banner_done
    with _lock:
        if _banner_done:
            h = highspy.Highs()  # type: ignore[no-untyped-call]
        else:
            sys.stdout.flush()
            _flush_c_stdout()
            saved = os.dup(1)
            try:
                devnull = os.open(os.devnull, os.O_WRONLY)
                try:
                    os.dup2(devnull, 1)
                    h = highspy.Highs()  # type: ignore[no-untyped-call]
                    h.setOptionValue("output_flag", False)
                    _flush_c_stdout()
                finally:
                    os.dup2(saved, 1)
                    os.close(devnull)
            finally:
                os.close(saved)
            _banner_done = True
    h.setOptionValue("output_flag", False)
    return h
