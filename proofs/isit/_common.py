"""Shared helpers of the ISIT claims (003): the paper id, random instances, conversions."""

from __future__ import annotations

from fractions import Fraction

import mpmath
import numpy as np

from ..papers import paper

PAPER = paper("isit").seed


def mp_fraction(x) -> Fraction:
    """The exact rational value of an mpf (binary), or of a float."""
    if isinstance(x, float):
        return Fraction(x)
    x = mpmath.mpf(x)
    if not mpmath.isfinite(x):
        raise ValueError(f"not finite: {x}")
    sign, man, exp, _ = x._mpf_
    man = -int(man) if sign else int(man)
    return Fraction(man * 2**exp) if exp >= 0 else Fraction(man, 2 ** (-exp))


def random_joint(rng: np.random.Generator, n_s: int, n_u: int, zeros: bool = False) -> np.ndarray:
    """A random |S| x |U| estimate P_hat (Dirichlet(1)); with ``zeros`` some cells are set to 0,
    every row keeping positive mass."""
    P = rng.dirichlet(np.ones(n_s * n_u)).reshape(n_s, n_u)
    if zeros:
        mask = rng.random((n_s, n_u)) < 0.3
        for s in range(n_s):
            if mask[s].all():
                mask[s, rng.integers(n_u)] = False
        P = np.where(mask, 0.0, P)
        P /= P.sum()
    return P


def rational_table(P) -> list[list[Fraction]]:
    """A float table as exact Fractions renormalised to sum exactly to 1."""
    rows = [[Fraction(float(x)) for x in r] for r in P]
    t = sum(map(sum, rows))
    return [[x / t for x in r] for r in rows]


def fmt(x, digits: int = 12) -> str:
    return mpmath.nstr(mpmath.mpf(x) if not isinstance(x, Fraction) else mpmath.mpf(x.numerator) / x.denominator,
                       digits)


def affine_conjugate_identities(f_expr, a_syms, v_syms) -> dict:
    """The identities behind :func:`affine_conjugate_facts`, for symbolic-identity certificates: v.a - f(a) at
    v = grad f is -f(0), and along a = -t (v - grad f) it is -t |v - grad f|^2 - f(0)."""
    import sympy as sp

    b = [sp.diff(f_expr, a) for a in a_syms]
    c0 = f_expr.subs({a: 0 for a in a_syms})
    inner = sum(v * a for v, a in zip(v_syms, a_syms, strict=True)) - f_expr
    t = sp.symbols("t", positive=True)
    along = inner.subs({a: -t * (v - bb) for a, v, bb in zip(a_syms, v_syms, b, strict=True)})
    return {"v.a - f(a) at v = grad f": (inner.subs(dict(zip(v_syms, b, strict=True))), -c0),
            "along a = -t (v - grad f)": (along, -t * sum((v - bb) ** 2 for v, bb in zip(v_syms, b, strict=True)) - c0)}


def affine_conjugate_facts(f_expr, a_syms, v_syms):
    """For f affine in the symbols ``a_syms``, compute with sympy the facts behind eq. (45):
    the gradient b = grad_a f and constant c = f(0); that v.a - f(a) equals -c for v = b whatever a is;
    and that for v != b it tends to -inf along a = -t (v - b). Returns a dict of sympy results."""
    import sympy as sp

    b = [sp.diff(f_expr, a) for a in a_syms]
    affine = all(sp.diff(f_expr, a1, a2) == 0 for a1 in a_syms for a2 in a_syms)
    c0 = sp.simplify(f_expr.subs({a: 0 for a in a_syms}))
    inner = sum(v * a for v, a in zip(v_syms, a_syms, strict=True)) - f_expr
    at_b = sp.simplify(inner.subs(dict(zip(v_syms, b, strict=True))))
    t = sp.symbols("t", positive=True)
    direction = {a: -t * (v - bb) for a, v, bb in zip(a_syms, v_syms, b, strict=True)}
    along = sp.expand(inner.subs(direction))
    norm2 = sp.expand(sum((v - bb) ** 2 for v, bb in zip(v_syms, b, strict=True)))
    along_ok = sp.simplify(along - (-t * norm2 - c0)) == 0
    return {"affine_in_a": affine, "b": b, "c": c0, "value_at_v_eq_b": at_b,
            "along_minus_t_(v-b)": "-t*|v-b|^2 - c" if along_ok else str(along),
            "unbounded_when_v_ne_b": bool(along_ok)}
