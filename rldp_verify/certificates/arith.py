"""Expression trees of the checker's languages built by ordinary arithmetic (issue 23): a printed formula written as
a Python function, called with tree-valued arguments, returns its own expression, unevaluated.

:class:`Arithmetic` holds the operators; a subclass says which plain numbers it takes as leaves (``_leaf``):
:class:`rldp_verify.certificates.identity.Tree` (rationals only, for ``symbolic-identity``) and
:class:`rldp_verify.certificates.series.Formula` (mpmath numbers too, as the binary rationals they are, for
``rigorous-value``)."""

from __future__ import annotations

from typing import Any


class Arithmetic:
    """A node ``self.node`` of a certificate expression; ``+ - * /`` and unary minus build ``[op, a, b]`` nodes of
    the same class (an argument of another class or type goes through ``_leaf``)."""

    def __init__(self, node: Any):
        self.node = node

    @classmethod
    def _leaf(cls, x) -> Any:
        raise NotImplementedError

    @classmethod
    def of(cls, x) -> Any:
        """The tree of ``x``: its node if it is one of ours, else the leaf the subclass makes of it."""
        return x.node if isinstance(x, cls) else cls._leaf(x)

    def _op(self, op: str, other, right: bool = False):
        o = type(self).of(other)
        return type(self)([op, o, self.node] if right else [op, self.node, o])

    def __add__(self, o): return self._op("+", o)
    def __radd__(self, o): return self._op("+", o, True)
    def __sub__(self, o): return self._op("-", o)
    def __rsub__(self, o): return self._op("-", o, True)
    def __mul__(self, o): return self._op("*", o)
    def __rmul__(self, o): return self._op("*", o, True)
    def __truediv__(self, o): return self._op("/", o)
    def __rtruediv__(self, o): return self._op("/", o, True)
    def __neg__(self): return type(self)(["-", self.node])
