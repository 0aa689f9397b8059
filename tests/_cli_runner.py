"""Run ``rldp-verify`` in the test process, as ``python -m rldp_verify`` would run it in a new one.

A subprocess pays an interpreter start and the imports of numpy / scipy / sympy / mpmath (0.5-1.5 s of CPU)
per call; :func:`run` calls :func:`rldp_verify.cli.main` directly and returns what ``subprocess.run(...,
capture_output=True, text=True)`` would: ``.returncode``, ``.stdout``, ``.stderr``.

What ``python -m rldp_verify ARGS`` does, and what is done here instead:

- ``sys.argv`` is ``[path of rldp_verify/__main__.py, *ARGS]``; ``sys.path[0]`` is the working directory,
  then the ``PYTHONPATH`` entries of the environment (``env`` may set one);
- standard input / output / error are pipes: here text streams over bytes buffers (with ``.buffer``,
  ``isatty()`` False, the locale's encoding; stdout 'strict', stderr 'backslashreplace' as Python sets them);
  the output is decoded with universal newlines, as ``text=True`` does;
- ``raise SystemExit(main())``: None -> 0, an int -> that code, anything else -> its ``str`` on stderr and 1;
  an uncaught exception -> its traceback on stderr and 1 (KeyboardInterrupt: -SIGINT, as Python ends);
- the warnings filters are Python's defaults (pytest's ``filterwarnings = error`` does not apply to a real
  run); a warning is printed on stderr.

Isolation: ``os.environ``, the working directory, ``sys.argv`` / ``sys.path`` / the std streams, the warnings
filters, mpmath's precision, numpy's error state, the SIGINT / SIGTERM handlers and the root logger are
restored after each call; modules imported from the call's own path entries (a temporary ``--proofs``
package) are dropped from ``sys.modules`` together with the claims they registered, so the next call imports
them afresh as a new process would. Caches the engine fills (imported modules of the repository, memoised
numerics) stay: a new process computes the same values without them.

Not for what is about the process itself: C-level output on file descriptor 1 (HiGHS' banner), signals,
``--jobs`` worker processes, the console script, shell pipelines, terminals, timeouts.
"""

from __future__ import annotations

import contextlib
import io
import locale
import logging
import os
import signal
import subprocess
import sys
import threading
import traceback
import warnings
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

# CPython's default warnings filters (a release build, no -W / PYTHONWARNINGS), first match wins
_DEFAULT_FILTERS = (
    ("default", None, DeprecationWarning, "__main__", 0),
    ("ignore", None, DeprecationWarning, None, 0),
    ("ignore", None, PendingDeprecationWarning, None, 0),
    ("ignore", None, ImportWarning, None, 0),
    ("ignore", None, ResourceWarning, None, 0),
)


def _python_warnings(stderr) -> None:
    """Inside ``catch_warnings``: the filters a real run has (Python's defaults and those the imported libraries
    added, not pytest's ``error`` / ``always``), and warnings printed on ``stderr`` (pytest records them)."""
    pytest_added = {("error", Warning), ("always", DeprecationWarning), ("always", PendingDeprecationWarning)}
    kept = [f for f in warnings.filters
            if not (f[1] is None and f[3] is None and f[4] == 0 and (f[0], f[2]) in pytest_added)]
    kept += [f for f in _DEFAULT_FILTERS if f not in kept]
    warnings.filters[:] = kept
    warnings._filters_mutated()  # type: ignore[attr-defined]  # forget the 'once' / 'default' registries

    def show(msg):
        (msg.file or stderr).write(warnings._formatwarnmsg(msg))  # type: ignore[attr-defined]

    warnings._showwarnmsg_impl = show  # type: ignore[attr-defined]  # restored by catch_warnings
    warnings.showwarning = warnings._showwarning_orig  # type: ignore[attr-defined]


def _stream(data: bytes, errors: str) -> io.TextIOWrapper:
    return io.TextIOWrapper(io.BytesIO(data), encoding=locale.getpreferredencoding(False), errors=errors,
                            line_buffering=False, write_through=False)


def _text(stream: io.TextIOWrapper) -> str:
    stream.flush()
    raw = stream.buffer.getvalue()  # type: ignore[attr-defined]
    return io.TextIOWrapper(io.BytesIO(raw), encoding=stream.encoding, errors="strict", newline=None).read()


def _exit_code(exc: SystemExit, stderr) -> int:
    code = exc.code
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    stderr.write(f"{code}\n")
    return 1


@contextlib.contextmanager
def _restored_state():
    """Everything the call may change, put back afterwards."""
    import mpmath
    import numpy as np

    from rldp_verify.claims import core as claims_core

    saved_env, saved_cwd = dict(os.environ), os.getcwd()
    saved_argv, saved_path = list(sys.argv), list(sys.path)
    saved_streams = (sys.stdin, sys.stdout, sys.stderr)
    saved_prec, saved_np = mpmath.mp.prec, np.geterr()
    saved_signals = {s: signal.getsignal(s) for s in (signal.SIGINT, signal.SIGTERM)}
    root = logging.getLogger()
    saved_log = (list(root.handlers), root.level, logging.root.manager.disable)
    saved_modules, saved_claims = set(sys.modules), set(claims_core._REGISTRY)
    try:
        with warnings.catch_warnings():
            yield
    finally:
        sys.stdin, sys.stdout, sys.stderr = saved_streams
        os.chdir(saved_cwd)
        os.environ.clear()
        os.environ.update(saved_env)
        sys.argv[:] = saved_argv
        sys.path[:] = saved_path
        mpmath.mp.prec = saved_prec
        np.seterr(**saved_np)
        for s, h in saved_signals.items():
            if h is not None and threading.current_thread() is threading.main_thread():  # only there can it change
                signal.signal(s, h)
        root.handlers[:], _, _ = saved_log
        root.setLevel(saved_log[1])
        logging.disable(saved_log[2])
        _drop_foreign_modules(saved_modules, saved_claims, claims_core._REGISTRY)


def _drop_foreign_modules(saved_modules: set, saved_claims: set, registry: dict) -> None:
    """Modules first imported by the call from outside the repository and the environment's packages (a
    temporary ``--proofs`` package under tmp_path), and the claims they registered: a new process has neither."""
    keep = [str(ROOT), sys.prefix, sys.base_prefix, sys.exec_prefix]
    dropped = set()
    for name in set(sys.modules) - saved_modules:
        f = getattr(sys.modules[name], "__file__", None)
        if f and not any(str(Path(f).resolve()).startswith(str(Path(k).resolve())) for k in keep):
            del sys.modules[name]
            dropped.add(name)
    for cid in set(registry) - saved_claims:
        if registry[cid].module in dropped:
            del registry[cid]


def run(*args, stdin: str | None = None, env: dict | None = None, cwd=ROOT) -> subprocess.CompletedProcess:
    """``rldp-verify ARGS`` in this process: ``env`` updates the environment (as ``dict(os.environ) | env`` for a
    subprocess), ``cwd`` is the working directory, ``stdin`` the text on standard input (empty when None)."""
    import rldp_verify
    from rldp_verify.cli import main

    argv = [str(a) for a in args]
    out = _stream(b"", "strict")
    err = _stream(b"", "backslashreplace")
    with _restored_state():
        os.environ.update(env or {})
        os.chdir(cwd)
        extra = [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]
        sys.path[:0] = [os.getcwd(), *[os.path.abspath(p) for p in extra]]
        sys.argv[:] = [str(Path(rldp_verify.__file__).with_name("__main__.py")), *argv]
        sys.stdin = _stream((stdin or "").encode(locale.getpreferredencoding(False)), "strict")
        sys.stdout, sys.stderr = out, err
        _python_warnings(err)
        try:
            code = _exit_code(SystemExit(main()), err)  # as __main__.py: main() reads sys.argv
        except SystemExit as exc:
            code = _exit_code(exc, err)
        except KeyboardInterrupt:
            traceback.print_exc(file=err)
            code = -signal.SIGINT
        except BaseException:  # noqa: BLE001 - Python prints the traceback and exits 1
            traceback.print_exc(file=err)
            code = 1
        finally:
            with contextlib.suppress(Exception):
                sys.stdout.flush()
    return subprocess.CompletedProcess(["rldp-verify", *argv], code, _text(out), _text(err))
