"""Rigorous-value certificates over an interval variable (issue 23): "for every x in [a, b], lower <= e(x) <= upper",
proved by the boxes of a branch-and-bound (:mod:`rldp_verify_check.value`, ``"forall"``): the checker verifies that
the boxes cover [a, b] exactly and evaluates e on each box as one arb ball containing the whole box.

Also the expressions of Kairouz, Oh & Viswanath's tail proofs (:mod:`rldp_verify.topics.extremal.tail`): the
reduced cost h_j(s) = s g_j(1/s) of randomized response's basis as a function of s = e^-eps, written in the
checker's language from the inputs P0, P1 (KL) or P (mutual information), so that the checker re-evaluates it.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

from rldp_verify.certificates import envelope, qs
from rldp_verify.certificates.identity import Tree
from rldp_verify.certificates.value import expr


class RealTree(Tree):
    """An expression tree of the checker's arb language, built by ordinary arithmetic (+ - * /, integer powers) and
    the methods ``log`` / ``exp`` of arb balls: a function written for arb balls, called with ``RealTree("$s")``,
    returns its own formula (so that a certificate states exactly what the engine evaluated)."""

    def log(self) -> RealTree:
        """The tree of log(self), as arb's ``log`` method of a ball would compute it."""
        return RealTree(["log", self.node])

    def exp(self) -> RealTree:
        """The tree of exp(self), as arb's ``exp`` method of a ball would compute it."""
        return RealTree(["exp", self.node])


def interval_certificate(name: str, e, var: str, a, b, boxes, *, lower=None, upper=None, strict: bool = False,
                         prec: int = 128) -> dict:
    """The ``rigorous-value`` certificate of lower <= e <= upper (``<`` with ``strict``) for every ``$var`` in [a, b];
    ``boxes``: the (lo, hi) pairs of exact numbers, sorted, that cover [a, b] exactly (the checker refuses a gap)."""
    if lower is None and upper is None:
        raise ValueError(f"interval_certificate {name!r}: give lower or upper")
    st = {"expr": expr(e), "lower": None if lower is None else qs(lower),
          "upper": None if upper is None else qs(upper), "strict": strict, "prec": prec,
          "forall": [var, qs(a), qs(b)]}
    return envelope("rigorous-value", name, st, {"boxes": [[qs(lo), qs(hi)] for lo, hi in boxes]})


def kl_m_expr(P0, P1) -> Callable:
    """A -> m_A(s) = (p + s(1-p)) log((p + s(1-p)) / (q + s(1-q))), p = P0(A), q = P1(A) (tail module docstring)."""
    def m(A):
        p, q = sum((Fraction(P0[i]) for i in A), Fraction(0)), sum((Fraction(P1[i]) for i in A), Fraction(0))
        a = ["+", p, ["*", "$s", 1 - p]]
        return ["*", a, ["log", ["/", a, ["+", q, ["*", "$s", 1 - q]]]]]
    return m


def mi_m_expr(P) -> Callable:
    """A -> m_A(s) = (1-z) s log s - (z + s(1-z)) log(z + s(1-z)), z = P(A) (tail module docstring)."""
    def m(A):
        z = sum((Fraction(P[i]) for i in A), Fraction(0))
        a = ["+", z, ["*", "$s", 1 - z]]
        return ["-", ["*", 1 - z, ["xlogx", "$s"]], ["*", a, ["log", a]]]
    return m


def h_expr(k: int, m_expr: Callable, pattern) -> list:
    """h_j(s) = sum_{i in T_j} alpha_i(s) + s sum_{i not in T_j} alpha_i(s) - m_{T_j}(s), with
    alpha_i(s) = [(1 + (k-2) s) m_i(s) - s sum_{l != i} m_l(s)] / [(1 - s)(1 + (k-1) s)] (Kairouz et al., (82) / (129)
    in s = e^-eps), of the variable "$s"."""
    T = sorted(pattern)
    binds = [[f"m{i}", m_expr(frozenset({i}))] for i in range(k)]
    binds += [["tot", ["+", *[f"$m{i}" for i in range(k)]]],
              ["den", ["*", ["-", 1, "$s"], ["+", 1, ["*", k - 1, "$s"]]]]]
    binds += [[f"a{i}", ["/", ["-", ["*", ["+", 1, ["*", k - 2, "$s"]], f"$m{i}"],
                               ["*", "$s", ["-", "$tot", f"$m{i}"]]], "$den"]] for i in range(k)]
    body = ["-", ["+", *[f"$a{i}" for i in T]], m_expr(frozenset(T))]
    rest = [f"$a{i}" for i in range(k) if i not in T]
    if rest:
        body = ["+", body, ["*", "$s", ["+", *rest]]]
    return ["let", binds, body]


def rr_tail_certificates(name: str, k: int, m_expr: Callable, s_hi, boxes: dict) -> list[dict]:
    """One certificate per pattern T_j (|T_j| >= 2) that h_j(s) > 0 for every s in [0, s_hi], on the boxes of
    :func:`rldp_verify.topics.extremal.tail.rr_tail_boxes` (``boxes``: {pattern: [(lo, hi), ...]}). Together they
    prove every reduced cost of RR's basis positive for every eps >= log(1/s_hi); that this makes RR optimal is the
    paper's LP argument (the tail module's docstring), not re-checked."""
    return [interval_certificate(f"{name}: h_T(s) = s g_T(1/s) > 0 for every s = e^-eps in [0, {s_hi}], T = {list(T)}",
                                 h_expr(k, m_expr, T), "s", 0, s_hi, boxes[T], lower=0, strict=True)
            for T in sorted(boxes, key=lambda T: (len(T), T))]


def rr_point_certificate(name: str, k: int, m_expr: Callable, s, pattern) -> dict:
    """h_T(s) < 0 at one point s = e^-eps (the one-box cover [s, s]): a reduced cost of RR's basis is negative there,
    so RR is not optimal at that eps (the bracket's lower end of :func:`rr_tail_certificates`' claims)."""
    return interval_certificate(f"{name}: h_T(s) < 0 at s = e^-eps = {s}, T = {list(pattern)} (RR not optimal there)",
                                h_expr(k, m_expr, pattern), "s", s, s, [(s, s)], upper=0, strict=True)
