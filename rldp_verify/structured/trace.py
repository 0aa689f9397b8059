"""Run a library's randomiser once with its random draws replaced by recorders, to read the exact float
thresholds and sampler calls its code makes (instead of re-deriving the library's formulas).

Inside :func:`tracing`, ``random.random``, ``random.randint``, ``numpy.random.{random, random_sample, binomial,
choice, randint, laplace}`` are replaced: a uniform draw returns a :class:`Probe` whose comparisons
(``u < c``, ``u <= c``, ``u > c``, ``u >= c``, also reflected) are recorded as ("<", c) ... and answered by
``decide(i, op, c)`` (i = index of the probe); ``binomial(n, p)`` records ("binomial", n, p) and returns
``decide``'s answer as 0/1; ``choice(a, size, replace, p)`` records ("choice", len(a), size, replace, p) and
returns the first ``size`` elements (an array that records item assignments as ("setitem", key, value)); ``randint`` records ("randint", low, high) and returns low; ``laplace``
records ("laplace", loc, scale, size) and returns zeros. Everything is restored on exit.
"""

from __future__ import annotations

import random
import threading
from contextlib import contextmanager

import numpy as np

__all__ = ["tracing", "Probe"]

_LOCK = threading.Lock()


class Probe:
    """A stand-in for a float uniform: records every comparison with a number."""

    def __init__(self, log, index, decide):
        self._log, self._i, self._decide = log, index, decide

    def _cmp(self, op, other):
        c = float(other)
        self._log.append((op, c, self._i))
        return bool(self._decide(self._i, op, c))

    def __lt__(self, o):
        return self._cmp("<", o)

    def __le__(self, o):
        return self._cmp("<=", o)

    def __gt__(self, o):
        return self._cmp(">", o)

    def __ge__(self, o):
        return self._cmp(">=", o)


class _Recorded(np.ndarray):
    """An array returned by the traced ``choice`` that records item assignments as ("setitem", key, value)."""

    def __setitem__(self, key, value):
        log = getattr(self, "_log", None)
        if log is not None:
            log.append(("setitem", key if isinstance(key, int) else repr(key), value if isinstance(value, int)
                        else repr(value)))
        super().__setitem__(key, value)


@contextmanager
def tracing(decide=lambda i, op, c: False, unjit=()):
    """Yield the call log while the library's draws are replaced (see the module docstring); numba
    dispatchers in the modules ``unjit`` are replaced by their Python functions meanwhile."""
    log: list = []
    count = [0]

    def uniform(*a, **k):
        if a or k.get("size") is not None:
            raise NotImplementedError("vector uniform draws are not traced")
        count[0] += 1
        return Probe(log, count[0] - 1, decide)

    def binomial(n, p, size=None):
        count[0] += 1
        log.append(("binomial", int(n), float(p), count[0] - 1))
        return int(bool(decide(count[0] - 1, "binomial", float(p))))

    def choice(a, size=None, replace=True, p=None):
        arr = np.arange(a) if isinstance(a, (int, np.integer)) else np.asarray(a)
        log.append(("choice", len(arr), size, replace, None if p is None else [float(v) for v in p]))
        if size is None:
            return arr[0]
        n = int(np.prod(size))
        out = np.array(list(arr[:n]) + [arr[0]] * max(0, n - len(arr))).view(_Recorded)
        out._log = log
        return out

    def randint(low, high=None, size=None, dtype=int):
        log.append(("randint", int(low), None if high is None else int(high)))
        return low if high is not None else 0

    def laplace(loc=0.0, scale=1.0, size=None):
        log.append(("laplace", float(loc), float(scale), size))
        return np.zeros(size) if size is not None else 0.0

    def py_randint(a, b):
        log.append(("py_randint", int(a), int(b)))
        return a

    saved = [(random, "random", random.random), (random, "randint", random.randint)]
    for mod in unjit:       # numba dispatchers called from traced code run as Python
        for name, obj in list(vars(mod).items()):
            if hasattr(obj, "py_func") and callable(getattr(obj, "py_func")):
                saved.append((mod, name, obj))
                setattr(mod, name, obj.py_func)
    saved += [(np.random, n, getattr(np.random, n)) for n in
              ("random", "random_sample", "binomial", "choice", "randint", "laplace")]
    with _LOCK:
        random.random = uniform
        random.randint = py_randint
        np.random.random = uniform
        np.random.random_sample = uniform
        np.random.binomial = binomial
        np.random.choice = choice
        np.random.randint = randint
        np.random.laplace = laplace
        try:
            yield log
        finally:
            for mod, name, fn in saved:
                setattr(mod, name, fn)
