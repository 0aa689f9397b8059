"""Run a library's randomiser once with its random draws replaced by recorders, to read the exact float
thresholds and sampler calls its code makes (instead of re-deriving the library's formulas).

Inside :func:`tracing`, ``random.random``, ``random.randint``, ``numpy.random.{random, random_sample, binomial,
choice, randint, laplace}`` are replaced: a uniform draw returns a :class:`Probe` whose comparisons
(``u < c``, ``u <= c``, ``u > c``, ``u >= c``, also reflected) are recorded as ("<", c) ... and answered by
``decide(i, op, c)`` (i = index of the probe); ``binomial(n, p)`` records ("binomial", n, p) and returns
``decide``'s answer as 0/1; ``choice(a, size, replace, p)`` records ("choice", len(a), size, replace, p) and
returns the first ``size`` elements (an array that records item assignments as ("setitem", key, value));
``randint`` records ("randint", low, high) and returns low; ``laplace``
records ("laplace", loc, scale, size) and returns zeros. Everything is restored on exit.

A numba-compiled function is traced through :func:`as_compiled`: its Python function with ``np.exp``,
``np.log`` and ``np.sqrt`` of scalars computed as numba computes them, by the C library (``math``), not by
NumPy's own implementations -- NumPy's scalar ``np.exp`` differs from numba's in the last bit for about 4.5 % of
arguments (measured: 899 of 20,000 in [0.01, 20]; ``math.exp`` and numba agreed on all), which would move a
threshold by an ulp.
"""

from __future__ import annotations

import math
import random
import threading
import types
from contextlib import contextmanager

import numpy as np

__all__ = ["tracing", "Probe", "as_compiled"]

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


class _CompiledNumpy(types.ModuleType):
    """``numpy`` as seen by numba-compiled code: scalar exp, log, sqrt from the C library (``math``)."""

    def __init__(self):
        super().__init__("numpy")

    def __getattr__(self, name):
        return getattr(np, name)

    @staticmethod
    def exp(x):
        """exp as numba compiles it (libm) for a scalar."""
        return math.exp(x) if np.ndim(x) == 0 else np.exp(x)

    @staticmethod
    def log(x):
        """log as numba compiles it (libm) for a scalar."""
        return math.log(x) if np.ndim(x) == 0 else np.log(x)

    @staticmethod
    def sqrt(x):
        """sqrt (correctly rounded in both)."""
        return math.sqrt(x) if np.ndim(x) == 0 else np.sqrt(x)


_NP_COMPILED = _CompiledNumpy()


def as_compiled(fn, _memo=None):
    """For a numba dispatcher: its Python function, run with the numerics of the compiled code (see the
    module docstring) and with the dispatchers it can call replaced the same way; otherwise ``fn``."""
    py = getattr(fn, "py_func", None)
    if py is None:
        return fn
    memo = {} if _memo is None else _memo
    if id(fn) in memo:
        return memo[id(fn)]
    g = dict(py.__globals__)
    out = types.FunctionType(py.__code__, g, py.__name__, py.__defaults__, py.__closure__)
    memo[id(fn)] = out                        # before the recursion: modules whose functions call each other
    for name, obj in list(g.items()):
        if obj is np:
            g[name] = _NP_COMPILED
        elif getattr(obj, "py_func", None) is not None:
            g[name] = as_compiled(obj, memo)
    return out


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
    for mod in unjit:       # numba dispatchers called from traced code run as Python, with compiled numerics
        for name, obj in list(vars(mod).items()):
            if hasattr(obj, "py_func") and callable(obj.py_func):
                saved.append((mod, name, obj))
                setattr(mod, name, as_compiled(obj))
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
